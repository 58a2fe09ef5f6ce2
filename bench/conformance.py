#!/usr/bin/env python3
"""feedlint's Atom and RSS core score: `python3 bench/conformance.py`.

Scores feedlint (and its JSON Feed and WebSub cases, issue 53) the way the W3C feedvalidator's own test cases are scored,
on cases written here from RFC 4287 and the RSS 2.0 specification: a case
where the specification says a document is in error passes when feedlint
reports at least one error on it; a case where the document is valid passes
when feedlint reports no error at all. Where the specification says should
(or where the RSS Best Practices Profile recommends), a case expects the
rule's warning and no error (`warning:RULE`), and its silent twin expects
neither (`silent:RULE`); `errors:R1,R2` expects each of those errors (a
feed read past a stray line before its declaration), `error:RULE` that
rule among the errors. Each case is one feed, built from a valid one with
one change; the podcast cases are named by the item of issue 41 they
test (the "wild" ones by the item of issue 50: podcasts in the wild), the paged ones are folders of pages linted together, and the media
ones (item 5) run with --check-media against a loopback server the script
starts; the served WebSub ones (issue 53) are URLs of a loopback server,
with their Link headers. Prints the score per format and the cases
missed; `--verbose` lists every case. The cases cover the MUSTs feedlint
checks and some it does not check yet, so the score says what is left.
"""

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "conformance"
BINARY = ROOT / "target" / "release" / "feedlint"

ATOM_HEAD = (
    "<title>Example Feed</title><id>urn:uuid:60a76c80-d399-11d9-b93c-0003939e0af6</id>"
    "<updated>2003-12-13T18:30:02Z</updated><author><name>John Doe</name></author>"
)
ENTRY = (
    "<title>Robots</title><link href='http://example.org/2003/12/13/atom03'/>"
    "<id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id><updated>2003-12-13T18:30:02Z</updated>"
)


def atom(head=ATOM_HEAD, entry=ENTRY, extra_head="", extra_entry=""):
    entry_xml = "" if entry is None else f"<entry>{entry}{extra_entry}</entry>"
    return f"<feed xmlns='http://www.w3.org/2005/Atom'>{head}{extra_head}{entry_xml}</feed>"


CHANNEL = "<title>Liftoff News</title><link>http://liftoff.example.net/</link><description>Liftoff</description>"
ITEM = "<title>Star City</title><guid>http://liftoff.example.net/2003/06/03/starcity</guid>"


CLOUD = "<cloud domain='rpc.sys.com' port='80' path='/RPC2' registerProcedure='pingMe' protocol='soap'/>"


def rss(channel=CHANNEL, item=ITEM, extra_channel="", extra_item=""):
    item_xml = "" if item is None else f"<item>{item}{extra_item}</item>"
    return f"<rss version='2.0'><channel>{channel}{extra_channel}{item_xml}</channel></rss>"


XHTML = "http://www.w3.org/1999/xhtml"

# A podcast with every element PSP-1 requires and recommends.
PODCAST_NAMESPACES = (
    "xmlns:itunes='http://www.itunes.com/dtds/podcast-1.0.dtd' "
    "xmlns:podcast='https://podcastindex.org/namespace/1.0' xmlns:atom='http://www.w3.org/2005/Atom'"
)
PODCAST_CHANNEL = (
    "<title>Liftoff</title><link>https://example.org/</link><description>Space, weekly.</description>"
    "<atom:link href='https://example.org/feed.rss' rel='self' type='application/rss+xml'/>"
    "<language>en</language><itunes:category text='Science'><itunes:category text='Astronomy'/></itunes:category>"
    "<itunes:explicit>false</itunes:explicit><itunes:image href='https://example.org/artwork.jpg'/>"
    "<podcast:locked>yes</podcast:locked><podcast:guid>0c6b9162-ca73-53ab-9bd0-4823c2b64dcf</podcast:guid>"
    "<itunes:author>Liftoff Media</itunes:author>"
)
EPISODE = (
    "<title>Episode 1</title><link>https://example.org/1</link><pubDate>Wed, 15 Jun 2022 19:00:00 GMT</pubDate>"
    "<description>The first flight.</description><guid isPermaLink='false'>liftoff-1</guid>"
    "<enclosure url='https://example.org/1.mp3' length='24986239' type='audio/mpeg'/>"
    "<itunes:duration>1801</itunes:duration><itunes:image href='https://example.org/1.jpg'/>"
    "<itunes:explicit>false</itunes:explicit><podcast:transcript url='https://example.org/1.vtt' type='text/vtt'/>"
)


def podcast(channel=PODCAST_CHANNEL, item=EPISODE, extra_channel="", extra_item="", more_items=""):
    item_xml = "" if item is None else f"<item>{item}{extra_item}</item>"
    return f"<rss version='2.0' {PODCAST_NAMESPACES}><channel>{channel}{extra_channel}{item_xml}{more_items}</channel></rss>"


def without(text, element):
    """`text` less its first element that starts with `element`."""
    start = text.index(element)
    if text[start:].split(">", 1)[0].endswith("/"):
        end = start + text[start:].index("/>") + 2
    else:
        name = element[1:].split(" ")[0].split(">")[0]
        end = start + text[start:].index(f"</{name}>") + len(name) + 3
    return text[:start] + text[end:]

# (name, expected: "error" or "valid", document)
ATOM_CASES = [
    ("valid-minimal", "valid", atom()),
    ("valid-feed-author-only", "valid", atom()),
    ("valid-entry-authors-only", "valid", atom(head=ATOM_HEAD.replace("<author><name>John Doe</name></author>", ""), extra_entry="<author><name>A</name></author>")),
    ("valid-source-author", "valid", atom(head=ATOM_HEAD.replace("<author><name>John Doe</name></author>", ""), extra_entry="<source><id>tag:x,2003:s</id><author><name>A</name></author></source>")),
    ("valid-empty-title", "valid", atom(entry=ENTRY.replace("<title>Robots</title>", "<title/>"))),
    ("valid-content-no-link", "valid", atom(entry=ENTRY.replace("<link href='http://example.org/2003/12/13/atom03'/>", "<content>Hi</content>"))),
    ("valid-xhtml-div", "valid", atom(extra_entry=f"<summary type='xhtml'><div xmlns='{XHTML}'>Hi</div></summary>")),
    ("valid-media-content-with-summary", "valid", atom(extra_entry="<summary>s</summary><content type='image/png' src='http://example.org/a.png'/>")),
    ("valid-categories", "valid", atom(extra_entry="<category term='a'/><category term='b' scheme='http://example.org/c'/>")),
    ("valid-extension-elements", "valid", atom(extra_head="<x:title xmlns:x='urn:x'>1</x:title><x:title xmlns:x='urn:x'>2</x:title>")),
    ("valid-fractional-date", "valid", atom(entry=ENTRY.replace("2003-12-13T18:30:02Z", "2003-12-13T18:30:02.25+01:00"))),
    ("error-feed-missing-id", "error", atom(head=ATOM_HEAD.replace("<id>urn:uuid:60a76c80-d399-11d9-b93c-0003939e0af6</id>", ""))),
    ("error-feed-missing-title", "error", atom(head=ATOM_HEAD.replace("<title>Example Feed</title>", ""))),
    ("error-feed-missing-updated", "error", atom(head=ATOM_HEAD.replace("<updated>2003-12-13T18:30:02Z</updated>", ""))),
    ("error-entry-missing-id", "error", atom(entry=ENTRY.replace("<id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>", ""))),
    ("error-entry-missing-title", "error", atom(entry=ENTRY.replace("<title>Robots</title>", ""))),
    ("error-entry-missing-updated", "error", atom(entry=ENTRY.replace("<updated>2003-12-13T18:30:02Z</updated>", ""))),
    ("error-no-author-anywhere", "error", atom(head=ATOM_HEAD.replace("<author><name>John Doe</name></author>", ""))),
    ("error-duplicate-feed-title", "error", atom(extra_head="<title>Again</title>")),
    ("error-duplicate-entry-id", "error", atom(extra_entry="<id>tag:x,2003:again</id>")),
    ("error-duplicate-entry-summary", "error", atom(extra_entry="<summary>a</summary><summary>b</summary>")),
    ("error-duplicate-feed-generator", "error", atom(extra_head="<generator>a</generator><generator>b</generator>")),
    ("error-no-content-no-alternate", "error", atom(entry=ENTRY.replace("<link href='http://example.org/2003/12/13/atom03'/>", ""))),
    ("error-src-without-summary", "error", atom(extra_entry="<content type='text/html' src='http://example.org/a.html'/>")),
    ("error-binary-without-summary", "error", atom(extra_entry="<content type='application/pdf'>JVBERi0=</content>")),
    ("error-src-not-empty", "error", atom(extra_entry="<summary>s</summary><content type='text/html' src='http://example.org/a.html'>x</content>")),
    ("error-src-keyword-type", "error", atom(extra_entry="<summary>s</summary><content type='html' src='http://example.org/a.html'/>")),
    ("error-text-type-mime", "error", atom(extra_entry="<summary type='text/plain'>s</summary>")),
    ("error-content-type-bad", "error", atom(extra_entry="<content type='markdown'>s</content>")),
    ("error-xhtml-without-div", "error", atom(extra_entry=f"<summary type='xhtml'><p xmlns='{XHTML}'>s</p></summary>")),
    ("error-xhtml-div-no-namespace", "error", atom(extra_entry="<summary type='xhtml'><div>s</div></summary>")),
    ("error-person-without-name", "error", atom(extra_entry="<contributor><email>a@example.org</email></contributor>")),
    ("error-category-without-term", "error", atom(extra_entry="<category>robots</category>")),
    ("error-lowercase-t-in-date", "error", atom(entry=ENTRY.replace("2003-12-13T18:30:02Z", "2003-12-13t18:30:02Z"))),
    ("error-date-without-zone", "error", atom(entry=ENTRY.replace("2003-12-13T18:30:02Z", "2003-12-13T18:30:02"))),
    ("error-link-without-href", "error", atom(extra_entry="<link rel='related'/>")),
    ("error-link-href-space", "error", atom(extra_entry="<link rel='related' href='http://example.org/a b'/>")),
    ("error-rel-list", "error", atom(extra_entry="<link rel='related via' href='http://example.org/a'/>")),
    ("error-not-well-formed", "error", atom().replace("</feed>", "")),
    # Values: language tags, e-mail addresses, IRIs, link attributes.
    ("error-hreflang-not-a-tag", "error", atom(extra_entry="<link rel='related' hreflang='english!' href='http://example.org/a'/>")),
    ("error-email-not-an-address", "error", atom(extra_entry="<contributor><name>A</name><email>not an address</email></contributor>")),
    ("error-icon-not-an-iri", "error", atom(extra_head="<icon>http://example.org/a b.png</icon>")),
    ("error-duplicate-alternate-same-type", "error", atom(extra_entry="<link rel='alternate' type='text/html' href='http://example.org/b'/><link rel='alternate' type='text/html' href='http://example.org/c'/>")),

    # Dates (RFC 4287 §3.3): every field, every separator.
    *[
        (f"error-date-{name}", "error", atom(extra_entry=f"<published>{value}</published>"))
        for name, value in [
            ("bad-day", "2003-12-32T18:30:02Z"),
            ("bad-day-february", "2003-02-29T18:30:02Z"),
            ("bad-hours", "2003-12-13T24:30:02Z"),
            ("bad-minutes", "2003-12-13T18:60:02Z"),
            ("bad-month", "2003-13-13T18:30:02Z"),
            ("bad-seconds", "2003-12-13T18:30:61Z"),
            ("date-only", "2003-12-13"),
            ("extra-spaces", " 2003-12-13T18:30:02Z x"),
            ("inner-space", "2003-12-13 T18:30:02Z"),
            ("hours-minutes", "2003-12-13T18:30Z"),
            ("no-colons", "2003-12-13T183002Z"),
            ("no-hyphens", "20031213T18:30:02Z"),
            ("no-t", "2003-12-13 18:30:02Z"),
            ("no-timezone-colon", "2003-12-13T18:30:02+0100"),
            ("no-year", "12-13T18:30:02Z"),
            ("year-and-month", "2003-12"),
            ("year-only", "2003"),
            ("rfc822", "Sat, 13 Dec 2003 18:30:02 GMT"),
            ("lowercase-z", "2003-12-13T18:30:02z"),
            ("empty", ""),
        ]
    ],
    ("valid-date-fraction", "valid", atom(extra_entry="<published>2003-12-13T18:30:02.123456789Z</published>")),
    ("valid-date-offset", "valid", atom(extra_entry="<published>2003-12-13T18:30:02-05:00</published>")),
    ("valid-leap-second", "valid", atom(extra_entry="<published>2005-12-31T23:59:60Z</published>")),
    ("error-duplicate-updated", "error", atom(extra_entry="<updated>2003-12-13T18:30:02Z</updated>")),
    ("error-duplicate-published", "error", atom(extra_entry="<published>2003-12-13T18:30:02Z</published><published>2003-12-13T18:30:02Z</published>")),
    # Person constructs (§3.2).
    ("error-person-two-names", "error", atom(extra_entry="<author><name>A</name><name>B</name></author>")),
    ("error-person-two-emails", "error", atom(extra_entry="<author><name>A</name><email>a@example.org</email><email>b@example.org</email></author>")),
    ("error-person-two-uris", "error", atom(extra_entry="<author><name>A</name><uri>http://example.org/a</uri><uri>http://example.org/b</uri></author>")),
    ("error-person-uri-not-iri", "error", atom(extra_entry="<author><name>A</name><uri>http://example.org/a b</uri></author>")),
    ("error-email-rss-style", "error", atom(extra_entry="<author><name>A</name><email>a@example.org (A)</email></author>")),
    ("error-email-with-name", "error", atom(extra_entry="<author><name>A</name><email>A &lt;a@example.org&gt;</email></author>")),
    ("error-email-mailto", "error", atom(extra_entry="<author><name>A</name><email>mailto:a@example.org</email></author>")),
    ("error-email-no-domain", "error", atom(extra_entry="<author><name>A</name><email>a@</email></author>")),
    ("warning-person-undefined-child", "warning:atom-undefined-element", atom(extra_entry="<author><name>A</name><homepage>http://example.org/</homepage></author>")),
    ("error-person-name-markup", "error", atom(extra_entry="<author><name><b>A</b></name></author>")),
    ("valid-email-plus", "valid", atom(extra_entry="<author><name>A</name><email>a+feeds@example.org</email></author>")),
    ("valid-email-simple-domain", "valid", atom(extra_entry="<author><name>A</name><email>a@localhost</email></author>")),
    ("valid-person-relative-uri", "valid", atom(extra_entry="<author><name>A</name><uri>/people/a</uri></author>")),
    ("valid-person-extension", "valid", atom(extra_entry="<author><name>A</name><x:nick xmlns:x='urn:x'>a</x:nick></author>")),
    ("valid-name-with-email-text", "valid", atom(extra_entry="<author><name>a@example.org</name></author>")),
    # Text constructs (§3.1) and content (§4.1.3).
    ("error-text-markup-unescaped", "error", atom(extra_entry="<summary>Robots <b>attack</b></summary>")),
    ("error-html-markup-unescaped", "error", atom(extra_entry="<summary type='html'><p>Robots</p></summary>")),
    ("error-title-type-xhtml-no-div", "error", atom(entry=ENTRY.replace("<title>Robots</title>", "<title type='xhtml'>Robots</title>"))),
    ("error-xhtml-two-divs", "error", atom(extra_entry=f"<summary type='xhtml'><div xmlns='{XHTML}'>a</div><div xmlns='{XHTML}'>b</div></summary>")),
    ("error-xhtml-text-beside-div", "error", atom(extra_entry=f"<summary type='xhtml'>x<div xmlns='{XHTML}'>a</div></summary>")),
    ("error-content-text-markup", "error", atom(extra_entry="<content>a <b>b</b></content>")),
    ("error-content-text-plain-markup", "error", atom(extra_entry="<content type='text/plain'>a <b>b</b></content>")),
    ("error-content-not-base64", "error", atom(extra_entry="<summary>s</summary><content type='image/png'>not base64!</content>")),
    ("error-content-base64-elements", "error", atom(extra_entry="<summary>s</summary><content type='application/octet-stream'><x:y xmlns:x='urn:x'/></content>")),
    ("error-content-composite-type", "error", atom(extra_entry="<content type='multipart/alternative'>s</content>")),
    ("error-content-src-not-iri", "error", atom(extra_entry="<summary>s</summary><content type='text/html' src='http://example.org/a b'/>")),
    ("error-rights-type", "error", atom(extra_head="<rights type='plain'>c</rights>")),
    ("warning-subtitle-in-entry", "warning:atom-undefined-element", atom(extra_entry="<subtitle>s</subtitle>")),
    ("valid-html-escaped", "valid", atom(extra_entry="<summary type='html'>&lt;p&gt;Robots&lt;/p&gt;</summary>")),
    ("valid-html-cdata", "valid", atom(extra_entry="<summary type='html'><![CDATA[<p>Robots</p>]]></summary>")),
    ("valid-text-with-escaped-markup", "valid", atom(extra_entry="<summary>a &lt;b&gt; tag</summary>")),
    ("valid-xhtml-prefixed-div", "valid", atom(extra_entry=f"<summary type='xhtml'><h:div xmlns:h='{XHTML}'><h:p>a</h:p></h:div></summary>")),
    ("valid-content-xml", "valid", atom(extra_entry="<content type='application/xml'><x:doc xmlns:x='urn:x'/></content>")),
    ("valid-content-svg", "valid", atom(extra_entry="<content type='image/svg+xml'><svg xmlns='http://www.w3.org/2000/svg'/></content>")),
    ("valid-content-base64", "valid", atom(extra_entry="<summary>s</summary><content type='image/png'>iVBORw0KGgo=</content>")),
    ("valid-content-text-type", "valid", atom(extra_entry="<content type='text/plain'>a &lt;b&gt;</content>")),
    ("valid-content-src", "valid", atom(extra_entry="<summary>s</summary><content type='text/html' src='/posts/1.html'/>")),
    # Links (§4.2.7).
    ("error-link-type-not-mime", "error", atom(extra_entry="<link rel='related' type='html' href='http://example.org/a'/>")),
    ("error-link-length-not-number", "error", atom(extra_entry="<link rel='enclosure' type='audio/mpeg' length='1 MB' href='http://example.org/a.mp3'/>")),
    ("error-link-hreflang-underscore", "error", atom(extra_entry="<link rel='related' hreflang='en_US' href='http://example.org/a'/>")),
    ("error-link-rel-empty", "error", atom(extra_entry="<link rel='' href='http://example.org/a'/>")),
    ("error-link-rel-slash", "error", atom(extra_entry="<link rel='a/b' href='http://example.org/a'/>")),
    ("error-link-href-percent", "error", atom(extra_entry="<link rel='related' href='http://example.org/%zz'/>")),
    ("error-duplicate-alternate-no-type", "error", atom(extra_entry="<link href='http://example.org/2003/12/13/atom03b'/>")),
    ("error-duplicate-alternate-feed", "error", atom(extra_head="<link href='http://example.org/'/><link rel='alternate' href='http://example.org/b'/>")),
    ("valid-alternates-by-language", "valid", atom(extra_entry="<link hreflang='fr' href='http://example.org/fr'/>")),
    ("valid-alternates-by-type", "valid", atom(extra_entry="<link type='application/pdf' href='http://example.org/a.pdf'/>")),
    ("valid-link-extension-rel", "valid", atom(extra_entry="<link rel='http://example.org/rel/x' href='http://example.org/a'/>")),
    ("valid-link-iri", "valid", atom(extra_entry="<link rel='related' href='http://例え.example/パス'/>")),
    ("valid-link-relative", "valid", atom(extra_entry="<link rel='related' href='/a'/>").replace("<feed ", "<feed xml:base='http://example.org/' ")),
    ("valid-link-length-zero", "valid", atom(extra_entry="<link rel='enclosure' type='audio/mpeg' length='0' href='http://example.org/a.mp3'/>")),
    # Identity, generator, icon, logo, category, language.
    ("error-id-relative", "error", atom(entry=ENTRY.replace("urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a", "/posts/1"))),
    ("error-id-space", "error", atom(entry=ENTRY.replace("urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a", "tag:x,2003:a b"))),
    ("error-id-empty", "error", atom(entry=ENTRY.replace("urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a", ""))),
    ("error-id-markup", "error", atom(entry=ENTRY.replace("urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a", "<b>tag:x,2003:a</b>"))),
    ("error-generator-uri", "error", atom(extra_head="<generator uri='http://example.org/a b'>g</generator>")),
    ("error-logo-not-iri", "error", atom(extra_head="<logo>http://example.org/{logo}.png</logo>")),
    ("error-duplicate-icon", "error", atom(extra_head="<icon>/a.png</icon><icon>/b.png</icon>")),
    ("error-category-scheme", "error", atom(extra_entry="<category term='a' scheme='http://example.org/a b'/>")),
    ("error-xml-lang", "error", atom().replace("<feed ", "<feed xml:lang='en_US' ")),
    ("error-xml-lang-long-subtag", "error", atom().replace("<feed ", "<feed xml:lang='english-unitedstates' ")),
    ("error-xml-base", "error", atom().replace("<feed ", "<feed xml:base='http://example.org/a b/' ")),
    ("warning-undefined-element", "warning:atom-undefined-element", atom(extra_entry="<foo>bar</foo>")),
    ("warning-undefined-feed-element", "warning:atom-undefined-element", atom(extra_head="<published>2003-12-13T18:30:02Z</published>")),
    ("warning-entry-in-entry", "warning:atom-undefined-element", atom(extra_entry=f"<entry>{ENTRY}</entry>")),
    ("warning-source-entry", "warning:atom-undefined-element", atom(extra_entry="<source><entry/></source>")),
    ("valid-generator", "valid", atom(extra_head="<generator uri='/gen' version='1.0'>g</generator>")),
    ("valid-icon-logo", "valid", atom(extra_head="<icon>/favicon.ico</icon><logo>http://example.org/logo.png</logo>")),
    ("valid-xml-lang", "valid", atom().replace("<feed ", "<feed xml:lang='zh-Hant-TW' ")),
    ("valid-xml-lang-empty", "valid", atom(extra_entry="<summary xml:lang=''>s</summary>")),
    ("valid-source", "valid", atom(extra_entry="<source><id>tag:x,2003:s</id><title>S</title><updated>2003-12-13T18:30:02Z</updated><subtitle>s</subtitle><icon>/i.png</icon></source>")),
    ("valid-id-tag", "valid", atom(entry=ENTRY.replace("urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a", "tag:example.org,2003:3.2397"))),
    ("valid-entry-extension", "valid", atom(extra_entry="<dc:subject xmlns:dc='http://purl.org/dc/elements/1.1/'>a</dc:subject>")),
    ("valid-published", "valid", atom(extra_entry="<published>2003-12-13T08:29:29-04:00</published>")),
    ("valid-rights-xhtml", "valid", atom(extra_head=f"<rights type='xhtml'><div xmlns='{XHTML}'>&#169; 2005</div></rights>")),
    # Documents that are not Atom at all.
    ("error-missing-namespace", "error", atom().replace(" xmlns='http://www.w3.org/2005/Atom'", "")),
    ("error-wrong-namespace", "error", atom().replace("http://www.w3.org/2005/Atom", "http://purl.org/atom/ns#")),
    ("error-namespace-case", "error", atom().replace("http://www.w3.org/2005/Atom", "http://www.w3.org/2005/atom")),
    # Issue 25: Atom Entry Documents (RFC 4287 §2), atom:source cardinality,
    # a feed without entries, values, root namespaces.
    ("error-entry-document-no-author", "error", f"<entry xmlns='http://www.w3.org/2005/Atom'>{ENTRY}</entry>"),
    ("error-entry-document-no-id", "error", f"<entry xmlns='http://www.w3.org/2005/Atom'>{ENTRY.replace('<id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>', '')}<author><name>A</name></author></entry>"),
    ("valid-entry-document", "valid", f"<entry xmlns='http://www.w3.org/2005/Atom'>{ENTRY}<author><name>A</name></author></entry>"),
    ("valid-entry-document-source-author", "valid", f"<entry xmlns='http://www.w3.org/2005/Atom'>{ENTRY}<source><id>tag:x,2003:s</id><author><name>A</name></author></source></entry>"),
    ("error-source-two-titles", "error", atom(extra_entry="<source><id>tag:x,2003:s</id><title>a</title><title>b</title></source>")),
    ("error-source-two-updated", "error", atom(extra_entry="<source><updated>2003-12-13T18:30:02Z</updated><updated>2003-12-14T18:30:02Z</updated></source>")),
    ("error-source-two-icons", "error", atom(extra_entry="<source><icon>/a.png</icon><icon>/b.png</icon></source>")),
    ("error-source-duplicate-alternate", "error", atom(extra_entry="<source><link href='http://example.org/a'/><link rel='alternate' href='http://example.org/b'/></source>")),
    ("valid-source-alternates-differ", "valid", atom(extra_entry="<source><link href='http://example.org/a'/><link hreflang='de' href='http://example.org/b'/></source>")),
    ("valid-feed-no-entries-no-author", "valid", atom(head=ATOM_HEAD.replace("<author><name>John Doe</name></author>", ""), entry=None)),
    ("error-id-leading-space", "error", atom(entry=ENTRY.replace("<id>urn:", "<id> urn:"))),
    ("error-id-trailing-newline", "error", atom(entry=ENTRY.replace("efa6a</id>", "efa6a\n</id>"))),
    ("error-icon-space", "error", atom(extra_head="<icon> /favicon.ico</icon>")),
    ("error-logo-space", "error", atom(extra_head="<logo>http://example.org/logo.png </logo>")),
    ("error-uri-space", "error", atom(extra_entry="<author><name>A</name><uri> http://example.org/ </uri></author>")),
    ("error-updated-space", "error", atom(entry=ENTRY.replace("<updated>2003", "<updated>\n  2003"))),
    ("error-published-space", "error", atom(extra_entry="<published>2003-12-13T08:29:29-04:00 </published>")),
    ("valid-title-padded", "valid", atom(entry=ENTRY.replace("<title>Robots</title>", "<title>  Robots  </title>"))),
    ("error-category-scheme-not-iri", "error", atom(extra_entry="<category term='a' scheme='http://example.org/a b'/>")),
    ("error-content-multipart", "error", atom(extra_entry="<summary>s</summary><content type='multipart/mixed'>aGk=</content>")),
    ("error-content-message", "error", atom(extra_entry="<summary>s</summary><content type='message/rfc822' src='http://example.org/a.eml'/>")),
    ("valid-content-src-image", "valid", atom(extra_entry="<summary>s</summary><content type='image/png' src='http://example.org/a.png'/>")),
    ("error-leap-second-not-utc", "error", atom(entry=ENTRY.replace("2003-12-13T18:30:02Z", "2016-12-31T23:59:60+01:00"))),
    ("error-leap-second-mid-month", "error", atom(entry=ENTRY.replace("2003-12-13T18:30:02Z", "2016-12-13T23:59:60Z"))),
    ("valid-leap-second-offset", "valid", atom(entry=ENTRY.replace("2003-12-13T18:30:02Z", "2016-12-31T15:59:60-08:00"))),
    ("valid-atom-quoted-in-xhtml", "valid", atom(extra_entry=f"<content type='xhtml'><div xmlns='{XHTML}'><p>An entry:</p><a:updated xmlns:a='http://www.w3.org/2005/Atom'>yesterday</a:updated><a:link xmlns:a='http://www.w3.org/2005/Atom' rel='next' href='a b'/></div></content>")),
    ("error-text-outside-div", "error", atom(extra_entry=f"<content type='xhtml'>Hi <div xmlns='{XHTML}'>there</div></content>")),
    ("error-namespace-2007", "error", atom().replace("http://www.w3.org/2005/Atom", "http://www.w3.org/2007/Atom")),
    ("error-namespace-atom03-no-hash", "error", atom().replace("http://www.w3.org/2005/Atom", "http://purl.org/atom/ns")),
    ("error-namespace-trailing-slash", "error", atom().replace("http://www.w3.org/2005/Atom", "http://www.w3.org/2005/Atom/")),
    # Issue 40: levels by the letter, and the W3C service's last Atom classes.
    ("warning-undefined-attribute", "warning:atom-undefined-attribute", atom(extra_entry="<content type='html' mode='escaped'>&lt;p&gt;x&lt;/p&gt;</content>")),
    ("warning-undefined-link-attribute", "warning:atom-undefined-attribute", atom(entry=ENTRY.replace("<link ", "<link target='_blank' "))),
    ("silent-defined-attributes", "silent:atom-undefined-attribute", atom(extra_entry="<link rel='related' href='http://example.org/r' type='text/html' hreflang='en' title='R' length='1'/><category term='a' scheme='http://example.org/s' label='A'/>")),
    ("silent-namespaced-attribute", "silent:atom-undefined-attribute", atom(extra_entry="<summary xmlns:x='urn:x' x:lang='en' xml:lang='en'>s</summary>")),
    ("error-misspelt-href", "error", atom(entry=ENTRY.replace("<link href=", "<link herf="))),
    ("info-app-edited-in-feed", "info:app-element-misplaced", atom(extra_head="<app:edited xmlns:app='http://www.w3.org/2007/app'>2003-12-13T18:30:02Z</app:edited>")),
    ("silent-app-edited-in-entry", "silent:app-element-misplaced", atom(extra_entry="<app:edited xmlns:app='http://www.w3.org/2007/app'>2003-12-13T18:30:02Z</app:edited>")),
    ("warning-xhtml-markup-no-namespace", "warning:atom-xhtml-foreign-element", atom(extra_entry=f"<content type='xhtml'><div xmlns='{XHTML}'><p xmlns=''>hi</p></div></content>")),
    ("error-xhtml-div-no-namespace", "error", atom(extra_entry="<content type='xhtml'><div xmlns=''><p>hi</p></div></content>")),
    ("silent-xhtml-in-namespace", "silent:atom-xhtml-foreign-element", atom(extra_entry=f"<content type='xhtml'><div xmlns='{XHTML}'><p>hi</p></div></content>")),
    ("warning-every-entry-duplicated", "warning:ambiguous-duplicate-entry", atom().replace("</entry>", f"</entry><entry>{ENTRY}</entry>")),
    ("silent-entry-revisions", "silent:ambiguous-duplicate-entry", atom().replace("</entry>", f"</entry><entry>{ENTRY.replace('2003-12-13T18:30:02Z', '2003-12-14T18:30:02Z')}</entry>")),
    ("info-metadata-after-entries", "info:atom-metadata-after-entries", atom(head=ATOM_HEAD.replace("<updated>2003-12-13T18:30:02Z</updated>", "")).replace("</feed>", "<updated>2003-12-13T18:30:02Z</updated></feed>")),
    ("silent-metadata-first", "silent:atom-metadata-after-entries", atom()),
    ("warning-text-beside-xml-content", "warning:atom-xml-content-not-a-document", atom(extra_entry="<content type='application/xml'>text<x xmlns=''>y</x></content>")),
    ("silent-one-element-xml-content", "silent:atom-xml-content-not-a-document", atom(extra_entry="<content type='application/xml'> <x xmlns=''>y</x> </content>")),
    ("error-relative-category-scheme", "error", atom(extra_entry="<category term='a' scheme='/cats'/>")),
    ("valid-absolute-category-scheme", "valid", atom(extra_entry="<category term='a' scheme='http://example.org/cats'/>")),
    ("error-atom-namespace-near-miss", "error", atom(extra_head="<a:link xmlns:a='http://www.w3.org/2005/Atom/' rel='next' href='http://example.org/2'/>")),
]

RSS_CASES = [
    ("valid-minimal", "valid", rss()),
    ("valid-description-only-item", "valid", rss(item="<description>Text</description>")),
    ("valid-enclosure", "valid", rss(extra_item="<enclosure url='http://example.org/a.mp3' length='1' type='audio/mpeg'/>")),
    ("valid-schedule", "valid", rss(extra_channel="<ttl>60</ttl><skipHours><hour>0</hour></skipHours><skipDays><day>Monday</day></skipDays>")),
    ("valid-image", "valid", rss(extra_channel="<image><url>http://example.org/a.png</url><title>t</title><link>http://example.org/</link></image>")),
    ("valid-dates", "valid", rss(extra_channel="<lastBuildDate>Tue, 03 Jun 2003 09:39:21 GMT</lastBuildDate><pubDate>tue, 03 jun 2003 09:39:21 +0000 (UTC)</pubDate>")),
    ("valid-categories", "valid", rss(extra_item="<category>a</category><category domain='http://example.org/c'>b</category>")),
    ("error-missing-title", "error", rss(channel=CHANNEL.replace("<title>Liftoff News</title>", ""))),
    ("error-missing-link", "error", rss(channel=CHANNEL.replace("<link>http://liftoff.example.net/</link>", ""))),
    ("error-missing-description", "error", rss(channel=CHANNEL.replace("<description>Liftoff</description>", ""))),
    ("error-item-without-title-or-description", "error", rss(item="<link>http://example.org/a</link>")),
    ("error-duplicate-channel-title", "error", rss(extra_channel="<title>Again</title>")),
    ("error-duplicate-guid", "error", rss(extra_item="<guid>http://example.org/b</guid>")),
    ("error-enclosure-without-length", "error", rss(extra_item="<enclosure url='http://example.org/a.mp3' type='audio/mpeg'/>")),
    ("error-ttl-not-a-number", "error", rss(extra_channel="<ttl>soon</ttl>")),
    ("error-hour-24", "error", rss(extra_channel="<skipHours><hour>24</hour></skipHours>")),
    ("error-day-lowercase", "error", rss(extra_channel="<skipDays><day>monday</day></skipDays>")),
    ("error-image-without-link", "error", rss(extra_channel="<image><url>http://example.org/a.png</url><title>t</title></image>")),
    ("error-text-input-incomplete", "error", rss(extra_channel="<textInput><title>t</title></textInput>")),
    ("error-cloud-incomplete", "error", rss(extra_channel="<cloud domain='rpc.sys.com'/>")),
    ("error-source-without-url", "error", rss(extra_item="<source>Elsewhere</source>")),
    ("error-ispermalink-yes", "error", rss(item="<title>t</title><guid isPermaLink='yes'>x</guid>")),
    ("error-not-well-formed", "error", rss().replace("</rss>", "")),
    ("error-no-version", "error", rss().replace(" version='2.0'", "")),
    ("error-no-channel", "error", rss().replace("<channel>", "").replace("</channel>", "")),
    # Values: dates, addresses, numbers.
    ("error-iso-date", "error", rss(extra_channel="<pubDate>2003-06-03T09:39:21Z</pubDate>")),
    ("error-managing-editor-not-an-address", "error", rss(extra_channel="<managingEditor>the editor</managingEditor>")),
    ("error-enclosure-length-not-a-number", "error", rss(extra_item="<enclosure url='http://example.org/a.mp3' length='big' type='audio/mpeg'/>")),

    # Dates (RFC 822 as RSS 2.0 amends it).
    *[
        (f"error-date-{name}", "error", rss(extra_item=f"<pubDate>{value}</pubDate>"))
        for name, value in [
            ("bad-day", "Tue, 32 Jun 2003 09:39:21 GMT"),
            ("full-month", "Tue, 03 June 2003 09:39:21 GMT"),
            ("full-weekday", "Tuesday, 03 Jun 2003 09:39:21 GMT"),
            ("no-zone", "Tue, 03 Jun 2003 09:39:21"),
            ("unknown-zone", "Tue, 03 Jun 2003 09:39:21 CEST"),
            ("missing-space", "Tue,03 Jun 2003 09:39:21GMT"),
            ("bad-hour", "Tue, 03 Jun 2003 25:39:21 GMT"),
            ("bad-offset", "Tue, 03 Jun 2003 09:39:21 +01:00"),
            ("three-digit-year", "Tue, 03 Jun 203 09:39:21 GMT"),
            ("empty", ""),
            ("words", "yesterday"),
        ]
    ],
    ("error-last-build-date", "error", rss(extra_channel="<lastBuildDate>2003/06/03</lastBuildDate>")),
    *[
        (f"valid-date-{name}", "valid", rss(extra_item=f"<pubDate>{value}</pubDate>"))
        for name, value in [
            ("gmt", "Tue, 03 Jun 2003 09:39:21 GMT"),
            ("ut", "Tue, 03 Jun 2003 09:39:21 UT"),
            ("z", "Tue, 03 Jun 2003 09:39:21 Z"),
            ("est", "Tue, 03 Jun 2003 04:39:21 EST"),
            ("pdt", "Tue, 03 Jun 2003 02:39:21 PDT"),
            ("military", "Tue, 03 Jun 2003 09:39:21 A"),
            ("offset", "Tue, 03 Jun 2003 10:39:21 +0100"),
            ("no-seconds", "Tue, 03 Jun 2003 09:39 GMT"),
            ("no-weekday", "03 Jun 2003 09:39:21 GMT"),
            ("one-digit-day", "Tue, 3 Jun 2003 09:39:21 GMT"),
            ("two-digit-year", "Tue, 03 Jun 03 09:39:21 GMT"),
            ("comment", "Tue, 03 Jun 2003 09:39:21 GMT (UTC)"),
        ]
    ],
    # E-mail contacts.
    ("error-webmaster-name-only", "error", rss(extra_channel="<webMaster>Betty Guernsey</webMaster>")),
    ("error-webmaster-angle", "error", rss(extra_channel="<webMaster>Betty &lt;betty@herald.com&gt;</webMaster>")),
    ("error-author-mailto", "error", rss(extra_item="<author>mailto:lawyer@boyer.net</author>")),
    ("error-author-mailto-subject", "error", rss(extra_item="<author>mailto:lawyer@boyer.net?subject=hi</author>")),
    ("error-author-jumbled", "error", rss(extra_item="<author>(Lawyer Boyer) lawyer@boyer.net</author>")),
    ("error-author-no-at", "error", rss(extra_item="<author>lawyer.boyer.net</author>")),
    ("valid-managing-editor", "valid", rss(extra_channel="<managingEditor>geo@herald.com (George Matesky)</managingEditor>")),
    ("valid-webmaster-plain", "valid", rss(extra_channel="<webMaster>betty@herald.com</webMaster>")),
    ("valid-author", "valid", rss(extra_item="<author>lawyer@boyer.net (Lawyer Boyer)</author>")),
    # URLs.
    ("error-channel-link-relative", "error", rss(channel=CHANNEL.replace("http://liftoff.example.net/", "/index.html"))),
    ("error-channel-link-empty", "error", rss(channel=CHANNEL.replace("http://liftoff.example.net/", ""))),
    ("error-item-link-space", "error", rss(extra_item="<link>http://liftoff.example.net/a b</link>")),
    ("error-comments-relative", "error", rss(extra_item="<comments>comments.html</comments>")),
    ("error-docs-not-url", "error", rss(extra_channel="<docs>the RSS spec</docs>")),
    ("error-image-url-relative", "error", rss(extra_channel="<image><url>logo.png</url><title>t</title><link>http://example.org/</link></image>")),
    ("error-image-link-relative", "error", rss(extra_channel="<image><url>http://example.org/a.png</url><title>t</title><link>/</link></image>")),
    ("error-enclosure-url-relative", "error", rss(extra_item="<enclosure url='a.mp3' length='1' type='audio/mpeg'/>")),
    ("error-source-url-relative", "error", rss(extra_item="<source url='links.xml'>Elsewhere</source>")),
    ("error-text-input-link-relative", "error", rss(extra_channel="<textInput><title>t</title><description>d</description><name>q</name><link>/search</link></textInput>")),
    ("valid-docs", "valid", rss(extra_channel="<docs>https://www.rssboard.org/rss-specification</docs>")),
    ("valid-iri-link", "valid", rss(extra_item="<link>http://例え.example/パス</link>")),
    ("valid-source", "valid", rss(extra_item="<source url='http://www.tomalak.org/links2.xml'>Tomalak's Realm</source>")),
    ("valid-comments", "valid", rss(extra_item="<comments>http://example.org/a#comments</comments>")),
    # Numbers, enclosures, images, cloud, language.
    ("error-enclosure-length-negative", "error", rss(extra_item="<enclosure url='http://example.org/a.mp3' length='-1' type='audio/mpeg'/>")),
    ("error-enclosure-type-not-mime", "error", rss(extra_item="<enclosure url='http://example.org/a.mp3' length='1' type='mp3'/>")),
    ("error-enclosure-no-url", "error", rss(extra_item="<enclosure length='1' type='audio/mpeg'/>")),
    ("error-image-width-too-wide", "error", rss(extra_channel="<image><url>http://example.org/a.png</url><title>t</title><link>http://example.org/</link><width>145</width></image>")),
    ("error-image-height-too-high", "error", rss(extra_channel="<image><url>http://example.org/a.png</url><title>t</title><link>http://example.org/</link><height>401</height></image>")),
    ("error-image-height-zero", "error", rss(extra_channel="<image><url>http://example.org/a.png</url><title>t</title><link>http://example.org/</link><height>0</height></image>")),
    ("error-image-width-units", "error", rss(extra_channel="<image><url>http://example.org/a.png</url><title>t</title><link>http://example.org/</link><width>88px</width></image>")),
    ("error-image-no-url", "error", rss(extra_channel="<image><title>t</title><link>http://example.org/</link></image>")),
    ("error-image-no-title", "error", rss(extra_channel="<image><url>http://example.org/a.png</url><link>http://example.org/</link></image>")),
    ("error-cloud-port-text", "error", rss(extra_channel="<cloud domain='rpc.sys.com' port='http' path='/RPC2' registerProcedure='pingMe' protocol='soap'/>")),
    ("error-cloud-port-zero", "error", rss(extra_channel="<cloud domain='rpc.sys.com' port='0' path='/RPC2' registerProcedure='pingMe' protocol='soap'/>")),
    ("error-cloud-port-negative", "error", rss(extra_channel="<cloud domain='rpc.sys.com' port='-80' path='/RPC2' registerProcedure='pingMe' protocol='soap'/>")),
    ("error-cloud-port-decimal", "error", rss(extra_channel="<cloud domain='rpc.sys.com' port='80.5' path='/RPC2' registerProcedure='pingMe' protocol='soap'/>")),
    ("error-cloud-protocol", "error", rss(extra_channel="<cloud domain='rpc.sys.com' port='80' path='/RPC2' registerProcedure='pingMe' protocol='smtp'/>")),
    *[
        (f"error-cloud-no-{attribute}", "error", rss(extra_channel=CLOUD.replace(f" {attribute}=", " x-gone=")))
        for attribute in ["domain", "port", "path", "registerProcedure", "protocol"]
    ],
    ("error-ttl-negative", "error", rss(extra_channel="<ttl>-60</ttl>")),
    ("error-ttl-decimal", "error", rss(extra_channel="<ttl>1.5</ttl>")),
    ("error-hour-text", "error", rss(extra_channel="<skipHours><hour>noon</hour></skipHours>")),
    ("error-day-abbreviated", "error", rss(extra_channel="<skipDays><day>Mon</day></skipDays>")),
    ("error-language-not-a-tag", "error", rss(extra_channel="<language>English (US)</language>")),
    ("error-language-underscore", "error", rss(extra_channel="<language>en_US</language>")),
    ("error-text-input-no-name", "error", rss(extra_channel="<textInput><title>t</title><description>d</description><link>http://example.org/s</link></textInput>")),
    ("error-duplicate-item-link", "error", rss(extra_item="<link>http://example.org/a</link><link>http://example.org/b</link>")),
    ("error-duplicate-channel-language", "error", rss(extra_channel="<language>en</language><language>fr</language>")),
    ("error-ispermalink-true-uppercase", "error", rss(item="<title>t</title><guid isPermaLink='TRUE'>http://example.org/a</guid>")),
    ("valid-cloud", "valid", rss(extra_channel=CLOUD)),
    ("valid-image-sizes", "valid", rss(extra_channel="<image><url>http://example.org/a.png</url><title>t</title><link>http://example.org/</link><width>144</width><height>400</height><description>d</description></image>")),
    ("valid-text-input", "valid", rss(extra_channel="<textInput><title>t</title><description>d</description><name>q</name><link>http://example.org/s</link></textInput>")),
    ("valid-language", "valid", rss(extra_channel="<language>en-us</language>")),
    ("valid-guid-not-permalink", "valid", rss(item="<title>t</title><guid isPermaLink='false'>a1b2</guid>")),
    ("valid-rating-and-copyright", "valid", rss(extra_channel="<copyright>Copyright 2003</copyright><rating>(PICS-1.1 \"http://www.classify.org/safesurf/\" l r (SS~~000 1))</rating>")),
    # Elements RSS 2.0 does not define, without a namespace.
    ("error-undefined-channel-element", "error", rss(extra_channel="<foo>bar</foo>")),
    ("error-undefined-item-element", "error", rss(extra_item="<updated>2003-06-03T09:39:21Z</updated>")),
    ("error-item-element-in-channel", "error", rss(extra_channel="<guid>http://example.org/</guid>")),
    ("error-element-case", "error", rss(extra_item="<pubdate>Tue, 03 Jun 2003 09:39:21 GMT</pubdate>")),
    ("error-undefined-image-element", "error", rss(extra_channel="<image><url>http://example.org/a.png</url><title>t</title><link>http://example.org/</link><alt>a</alt></image>")),
    ("valid-namespaced-extensions", "valid", rss(extra_item="<dc:creator xmlns:dc='http://purl.org/dc/elements/1.1/'>George</dc:creator><content:encoded xmlns:content='http://purl.org/rss/1.0/modules/content/'>&lt;p&gt;a&lt;/p&gt;</content:encoded>")),
    ("valid-atom-self-link", "valid", rss(extra_channel="<atom:link xmlns:atom='http://www.w3.org/2005/Atom' href='http://example.org/rss' rel='self' type='application/rss+xml'/>")),
    # Issue 25: RSS 2.0 by the letter, older RSS, extension modules.
    ("error-second-channel", "error", rss().replace("</channel></rss>", f"</channel><channel>{CHANNEL}</channel></rss>")),
    ("error-image-duplicate-url", "error", rss(extra_channel="<image><url>http://example.org/a.png</url><title>t</title><link>http://example.org/</link><url>http://example.org/b.png</url></image>")),
    ("error-textinput-duplicate-name", "error", rss(extra_channel="<textInput><title>t</title><description>d</description><name>q</name><name>r</name><link>http://example.org/s</link></textInput>")),
    ("error-skiphours-25", "error", rss(extra_channel="<skipHours>" + "".join(f"<hour>{h % 24}</hour>" for h in range(25)) + "</skipHours>")),
    ("error-skiphours-duplicate", "error", rss(extra_channel="<skipHours><hour>1</hour><hour>01</hour></skipHours>")),
    ("error-skipdays-duplicate", "error", rss(extra_channel="<skipDays><day>Monday</day><day>Monday</day></skipDays>")),
    ("error-skipdays-empty", "error", rss(extra_channel="<skipDays></skipDays>")),
    ("valid-skip-schedules", "valid", rss(extra_channel="<skipHours><hour>0</hour><hour>23</hour></skipHours><skipDays><day>Saturday</day><day>Sunday</day></skipDays>")),
    ("error-ttl-zero", "error", rss(extra_channel="<ttl>0</ttl>")),
    ("valid-ttl", "valid", rss(extra_channel="<ttl>60</ttl>")),
    ("error-language-name", "error", rss(extra_channel="<language>english</language>")),
    ("valid-language-script", "valid", rss(extra_channel="<language>zh-Hant-TW</language>")),
    ("error-textinput-name-space", "error", rss(extra_channel="<textInput><title>t</title><description>d</description><name>search query</name><link>http://example.org/s</link></textInput>")),
    ("valid-textinput-name", "valid", rss(extra_channel="<textInput><title>t</title><description>d</description><name>q</name><link>http://example.org/s</link></textInput>")),
    ("warning-guid-tag-permalink", "warning:rss-permalink-not-http", rss(item="<title>t</title><guid>tag:example.org,2003:1</guid>")),
    ("warning-guid-urn-true", "warning:rss-permalink-not-http", rss(item="<title>t</title><guid isPermaLink='true'>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</guid>")),
    ("valid-guid-tag-not-permalink", "valid", rss(item="<title>t</title><guid isPermaLink='false'>tag:example.org,2003:1</guid>")),
    ("error-guid-empty", "error", rss(item="<title>t</title><guid></guid>")),
    ("error-guid-duplicate", "error", rss().replace("</item>", f"</item><item>{ITEM}</item>")),
    ("error-ispermalink-case", "error", rss(item="<title>t</title><guid IsPermaLink='false'>a1</guid>")),
    ("error-channel-link-iri", "error", rss(channel=CHANNEL.replace("http://liftoff.example.net/", "http://liftoff.example.net/café/"))),
    ("valid-channel-link-encoded", "valid", rss(channel=CHANNEL.replace("http://liftoff.example.net/", "http://liftoff.example.net/caf%C3%A9/"))),
    ("valid-rss091-textinput", "valid", f"<rss version='0.91'><channel>{CHANNEL}<language>en-us</language><textinput><title>t</title><description>d</description><name>q</name><link>http://example.org/s</link></textinput><item><title>t</title><link>http://example.org/1</link></item></channel></rss>"),
    ("error-rss091-guid", "error", f"<rss version='0.91'><channel>{CHANNEL}<item>{ITEM}</item></channel></rss>"),
    ("valid-rss092-enclosure", "valid", f"<rss version='0.92'><channel>{CHANNEL}<item><title>t</title><enclosure url='http://example.org/a.mp3' length='1' type='audio/mpeg'/></item></channel></rss>"),
    ("error-rss092-ttl", "error", f"<rss version='0.92'><channel>{CHANNEL}<ttl>60</ttl></channel></rss>"),
    ("valid-rss10-not-checked", "valid", "<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#' xmlns='http://purl.org/rss/1.0/'><channel rdf:about='http://example.org/rss'><title>t</title><link>http://example.org/</link><description>d</description></channel></rdf:RDF>"),
    ("error-trackback-in-channel", "error", rss(extra_channel="<trackback:ping xmlns:trackback='http://madskills.com/public/xml/rss/module/trackback/'>http://example.org/tb</trackback:ping>")),
    ("valid-trackback-in-item", "valid", rss(extra_item="<trackback:ping xmlns:trackback='http://madskills.com/public/xml/rss/module/trackback/'>http://example.org/tb</trackback:ping>")),
    ("error-cc-license-not-uri", "error", rss(extra_channel="<creativeCommons:license xmlns:creativeCommons='http://backend.userland.com/creativeCommonsRssModule'>by-nd</creativeCommons:license>")),
    ("valid-cc-license", "valid", rss(extra_channel="<creativeCommons:license xmlns:creativeCommons='http://backend.userland.com/creativeCommonsRssModule'>http://www.creativecommons.org/licenses/by-nd/1.0</creativeCommons:license>")),
    ("error-dc-date-rfc822", "error", rss(extra_item="<dc:date xmlns:dc='http://purl.org/dc/elements/1.1/'>Tue, 03 Jun 2003 09:39:21 GMT</dc:date>")),
    ("valid-dc-date", "valid", rss(extra_item="<dc:date xmlns:dc='http://purl.org/dc/elements/1.1/'>2003-06-03T09:39Z</dc:date>")),
    ("error-content-encoded-twice", "error", rss(extra_item="<content:encoded xmlns:content='http://purl.org/rss/1.0/modules/content/'>a</content:encoded><content:encoded xmlns:content='http://purl.org/rss/1.0/modules/content/'>b</content:encoded>")),
    ("valid-unknown-extension", "valid", rss(extra_item="<my:ping xmlns:my='https://example.org/ns'>anything</my:ping>")),
    # Issue 40: raw HTML in RSS, a stray start, levels by the letter.
    ("error-html-in-description", "error", rss(extra_item="<description>Hello <a href='http://example.org/'>there</a><br/></description>")),
    ("valid-html-escaped-in-description", "valid", rss(extra_item="<description>Hello &lt;a href='http://example.org/'&gt;there&lt;/a&gt;</description>")),
    ("valid-html-cdata-in-description", "valid", rss(extra_item="<description><![CDATA[Hello <a href='http://example.org/'>there</a>]]></description>")),
    ("error-author-with-elements", "error", rss(extra_item="<author><name>Dan</name><company>ACME</company></author>")),
    ("error-description-type-attribute", "error", rss(extra_item="<description type='html'>d</description>")),
    ("valid-namespaced-attribute", "valid", rss(extra_item="<description xmlns:x='urn:x' x:type='html'>d</description>")),
    ("warning-date-wrong-weekday", "warning:rss-wrong-day-name", rss(extra_item="<pubDate>Wed, 03 Jun 2003 09:39:21 GMT</pubDate>")),
    ("silent-date-right-weekday", "silent:rss-wrong-day-name", rss(extra_item="<pubDate>Tue, 03 Jun 2003 09:39:21 GMT</pubDate>")),
    ("warning-repeated-author", "warning:rss-repeated-author", rss(extra_item="<author>a@example.org (A)</author><author>b@example.org (B)</author>")),
    ("error-guid-relative-permalink", "error", rss(item="<title>t</title><guid>/2003/06/03</guid>")),
    ("warning-extension-namespace-near-miss", "warning:extension-namespace-near-miss", rss(extra_item="<dc:creator xmlns:dc='http://purl.org/dc/elements/1.1'>A</dc:creator>")),
    ("silent-extension-namespace-exact", "silent:extension-namespace-near-miss", rss(extra_item="<dc:creator xmlns:dc='http://purl.org/dc/elements/1.1/'>A</dc:creator>")),
    ("error-fh-namespace-near-miss", "error", rss(extra_channel="<fh:complete xmlns:fh='https://purl.org/syndication/history/1.0'/>")),
    # The RSS Best Practices Profile (group rss-profile).
    ("warning-profile-missing-self", "warning:rss-missing-self-link", rss()),
    ("silent-profile-self", "silent:rss-missing-self-link", rss(extra_channel="<atom:link xmlns:atom='http://www.w3.org/2005/Atom' rel='self' href='http://liftoff.example.net/rss.xml'/>")),
    ("warning-profile-missing-guid", "warning:rss-item-missing-guid", rss(item="<title>Star City</title>")),
    ("silent-profile-guid", "silent:rss-item-missing-guid", rss()),
    ("warning-profile-missing-real-name", "warning:rss-contact-missing-name", rss(extra_item="<author>lawyer@boyer.net</author>")),
    ("silent-profile-real-name", "silent:rss-contact-missing-name", rss(extra_item="<author>lawyer@boyer.net (Lawyer Boyer)</author>")),
    ("warning-profile-misplaced-item", "warning:rss-item-before-channel-element", rss().replace("</channel>", "<ttl>60</ttl></channel>")),
    ("silent-profile-items-last", "silent:rss-item-before-channel-element", rss(extra_channel="<ttl>60</ttl>")),
    ("warning-profile-image-title", "warning:rss-image-mismatch", rss(extra_channel="<image><url>http://liftoff.example.net/i.png</url><title>Logo</title><link>http://liftoff.example.net/</link></image>")),
    ("silent-profile-image-same", "silent:rss-image-mismatch", rss(extra_channel="<image><url>http://liftoff.example.net/i.png</url><title>Liftoff News</title><link>http://liftoff.example.net/</link></image>")),
    ("info-profile-text-input", "info:rss-text-input", rss(extra_channel="<textInput><title>t</title><description>d</description><name>q</name><link>http://liftoff.example.net/s</link></textInput>")),
    ("warning-profile-content-before-description", "warning:rss-content-without-description", rss(extra_item="<content:encoded xmlns:content='http://purl.org/rss/1.0/modules/content/'>c</content:encoded><description>d</description>")),
    ("silent-profile-description-first", "silent:rss-content-without-description", rss(extra_item="<description>d</description><content:encoded xmlns:content='http://purl.org/rss/1.0/modules/content/'>c</content:encoded>")),
    ("warning-profile-slash-date", "warning:rss-comments-without-build-date", rss(extra_item="<slash:comments xmlns:slash='http://purl.org/rss/1.0/modules/slash/'>3</slash:comments>")),
    ("silent-profile-slash-date", "silent:rss-comments-without-build-date", rss(extra_channel="<lastBuildDate>Tue, 03 Jun 2003 09:39:21 GMT</lastBuildDate>", extra_item="<slash:comments xmlns:slash='http://purl.org/rss/1.0/modules/slash/'>3</slash:comments>")),
    ("warning-profile-character-data", "warning:rss-markup-in-plain-text", rss(item="<title>&lt;b&gt;Star&lt;/b&gt;</title><guid>http://liftoff.example.net/1</guid>")),
    ("silent-profile-character-data", "silent:rss-markup-in-plain-text", rss(item="<title>Tom &#x26; Jerry &#x3C; 3</title><guid>http://liftoff.example.net/1</guid>")),
    # Issue 40: a stray start is reported, and the rest is checked as if it were not there.
    ("errors-newline-before-declaration", "errors:xml-malformed,rss-missing-channel-title", '\n<?xml version="1.0" encoding="utf-8"?>\n' + rss(channel=CHANNEL.replace("<title>Liftoff News</title>", ""))),
    ("errors-declaration-after-comment", "errors:xml-malformed,rss-missing-channel-title", '<!-- generated -->\n<?xml version="1.0" encoding="utf-8"?>\n' + rss(channel=CHANNEL.replace("<title>Liftoff News</title>", ""))),
]

# Issue 41, by item: 1 what a podcast is, 2 PSP-1 and Apple, 3 the
# Podcasting 2.0 tags. Each name starts with its item.
PODCAST_CASES = [
    ("1-valid-complete-podcast", "valid", podcast()),
    ("1-silent-complete-podcast", "silent:podcast-missing-recommended", podcast()),
    ("1-info-blog-with-audio", "info:podcast-not-declared", rss(extra_item="<enclosure url='http://liftoff.example.net/1.mp3' length='1' type='audio/mpeg'/>")),
    ("1-valid-blog-with-audio", "valid", rss(extra_item="<enclosure url='http://liftoff.example.net/1.mp3' length='1' type='audio/mpeg'/>")),
    ("1-silent-blog-with-pdf", "silent:podcast-not-declared", rss(extra_item="<enclosure url='http://liftoff.example.net/1.pdf' length='1' type='application/pdf'/>")),
    ("1-error-declared-by-podcast-namespace", "error:podcast-missing-element", f"<rss version='2.0' xmlns:podcast='https://podcastindex.org/namespace/1.0'><channel>{CHANNEL}<item>{ITEM}<enclosure url='http://liftoff.example.net/1.mp3' length='1' type='audio/mpeg'/></item></channel></rss>"),
    ("1-warning-itunes-value-in-atom", "warning:itunes-invalid-explicit", atom(extra_head="<itunes:explicit xmlns:itunes='http://www.itunes.com/dtds/podcast-1.0.dtd'>maybe</itunes:explicit>")),
    ("1-among-itunes-value-in-a-blog", "among:itunes-invalid-explicit", rss(extra_item="<itunes:explicit xmlns:itunes='http://www.itunes.com/dtds/podcast-1.0.dtd'>maybe</itunes:explicit>")),
    ("2-error-missing-self-link", "error:podcast-missing-element", podcast(channel=without(PODCAST_CHANNEL, "<atom:link"))),
    ("2-error-missing-language", "error:podcast-missing-element", podcast(channel=without(PODCAST_CHANNEL, "<language>"))),
    ("2-error-missing-category", "error:podcast-missing-element", podcast(channel=without(PODCAST_CHANNEL, "<itunes:category text='Science'>"))),
    ("2-error-missing-explicit", "error:podcast-missing-element", podcast(channel=without(PODCAST_CHANNEL, "<itunes:explicit>"))),
    ("2-error-missing-image", "error:podcast-missing-element", podcast(channel=without(PODCAST_CHANNEL, "<itunes:image"))),
    ("2-error-missing-item-title", "error:podcast-missing-element", podcast(item=without(EPISODE, "<title>"))),
    ("2-error-missing-enclosure", "error:podcast-missing-element", podcast(item=without(EPISODE, "<enclosure"))),
    ("2-error-missing-guid", "error:podcast-missing-element", podcast(item=without(EPISODE, "<guid"))),
    ("2-warning-missing-locked", "warning:podcast-missing-recommended", podcast(channel=without(PODCAST_CHANNEL, "<podcast:locked>"))),
    ("2-warning-missing-podcast-guid", "warning:podcast-missing-recommended", podcast(channel=without(PODCAST_CHANNEL, "<podcast:guid>"))),
    ("2-warning-missing-author", "warning:podcast-missing-recommended", podcast(channel=without(PODCAST_CHANNEL, "<itunes:author>"))),
    ("2-warning-missing-duration", "warning:podcast-missing-recommended", podcast(item=without(EPISODE, "<itunes:duration>"))),
    ("2-warning-missing-transcript", "warning:podcast-missing-recommended", podcast(item=without(EPISODE, "<podcast:transcript"))),
    ("2-warning-missing-pubdate", "warning:podcast-missing-recommended", podcast(item=without(EPISODE, "<pubDate>"))),
    ("2-warning-explicit-maybe", "warning:itunes-invalid-explicit", podcast(extra_item="<itunes:explicit>maybe</itunes:explicit>", item=without(EPISODE, "<itunes:explicit>"))),
    ("2-warning-explicit-legacy-yes", "warning:itunes-explicit-legacy", podcast(extra_item="<itunes:explicit>yes</itunes:explicit>", item=without(EPISODE, "<itunes:explicit>"))),
    ("2-warning-explicit-legacy-clean", "warning:itunes-explicit-legacy", podcast(extra_item="<itunes:explicit>clean</itunes:explicit>", item=without(EPISODE, "<itunes:explicit>"))),
    ("2-error-unknown-category", "error:itunes-unknown-category", podcast(extra_channel="<itunes:category text='Podcasts'/>")),
    ("2-error-subcategory-elsewhere", "error:itunes-unknown-category", podcast(extra_channel="<itunes:category text='News'><itunes:category text='Golf'/></itunes:category>")),
    ("2-error-category-case", "error:itunes-unknown-category", podcast(extra_channel="<itunes:category text='technology'/>")),
    ("2-warning-retired-category", "warning:itunes-retired-category", podcast(extra_channel="<itunes:category text='Technology'><itunes:category text='Podcasting'/></itunes:category>")),
    ("2-silent-category-with-ampersand", "silent:itunes-unknown-category", podcast(extra_channel="<itunes:category text='Kids &amp; Family'><itunes:category text='Pets &amp; Animals'/></itunes:category>")),
    ("2-warning-type-seasonal", "warning:itunes-invalid-type", podcast(extra_channel="<itunes:type>seasonal</itunes:type>")),
    ("2-warning-episode-type-teaser", "warning:itunes-invalid-type", podcast(extra_item="<itunes:episodeType>teaser</itunes:episodeType>")),
    ("2-error-episode-zero", "error:itunes-invalid-number", podcast(extra_item="<itunes:episode>0</itunes:episode>")),
    ("2-error-episode-negative", "error:itunes-invalid-number", podcast(extra_item="<itunes:episode>-1</itunes:episode>")),
    ("2-error-season-word", "error:itunes-invalid-number", podcast(extra_item="<itunes:season>two</itunes:season>")),
    ("2-error-serial-unnumbered", "error:itunes-serial-missing-episode", podcast(extra_channel="<itunes:type>serial</itunes:type>")),
    ("2-valid-serial-numbered", "valid", podcast(extra_channel="<itunes:type>serial</itunes:type>", extra_item="<itunes:episode>1</itunes:episode>")),
    ("2-warning-duration-minutes-99", "warning:itunes-invalid-duration", podcast(item=EPISODE.replace("1801", "1:99:00"))),
    ("2-warning-duration-seconds-60", "warning:itunes-invalid-duration", podcast(item=EPISODE.replace("1801", "30:60"))),
    ("2-valid-duration-hh-mm-ss", "valid", podcast(item=EPISODE.replace("1801", "1:02:03"))),
    ("2-error-image-as-text", "error:itunes-invalid-image", podcast(channel=PODCAST_CHANNEL.replace("<itunes:image href='https://example.org/artwork.jpg'/>", "<itunes:image>https://example.org/artwork.jpg</itunes:image>"))),
    ("2-error-image-gif", "error:itunes-invalid-image", podcast(item=EPISODE.replace("1.jpg", "1.gif"))),
    ("2-error-image-ftp", "error:itunes-invalid-image", podcast(item=EPISODE.replace("https://example.org/1.jpg", "ftp://example.org/1.jpg"))),
    ("2-warning-block-true", "warning:itunes-value-without-effect", podcast(extra_channel="<itunes:block>true</itunes:block>")),
    ("2-silent-block-yes", "silent:itunes-value-without-effect", podcast(extra_channel="<itunes:block>Yes</itunes:block>")),
    ("2-warning-complete-1", "warning:itunes-value-without-effect", podcast(extra_channel="<itunes:complete>1</itunes:complete>")),
    ("2-error-new-feed-url-relative", "error:itunes-invalid-new-feed-url", podcast(extra_channel="<itunes:new-feed-url>/new.rss</itunes:new-feed-url>")),
    ("2-valid-new-feed-url", "valid", podcast(extra_channel="<itunes:new-feed-url>https://example.com/new.rss</itunes:new-feed-url>")),
    ("2-error-description-4001-bytes", "error:podcast-description-too-long", podcast(channel=PODCAST_CHANNEL.replace("Space, weekly.", "x" * 4001))),
    ("2-valid-description-4000-bytes", "valid", podcast(channel=PODCAST_CHANNEL.replace("Space, weekly.", "x" * 4000))),
    ("2-warning-enclosure-ogg", "warning:itunes-unsupported-enclosure", podcast(item=EPISODE.replace("1.mp3' length='24986239' type='audio/mpeg'", "1.ogg' length='24986239' type='audio/ogg'"))),
    ("2-warning-enclosure-type-mp3", "warning:itunes-unsupported-enclosure", podcast(item=EPISODE.replace("audio/mpeg", "audio/mp3"))),
    ("2-warning-enclosure-mismatch", "warning:podcast-enclosure-type-mismatch", podcast(item=EPISODE.replace("audio/mpeg", "audio/x-m4a"))),
    ("2-silent-enclosure-m4a-mp4", "silent:podcast-enclosure-type-mismatch", podcast(item=EPISODE.replace("1.mp3' length='24986239' type='audio/mpeg'", "1.m4a' length='24986239' type='audio/mp4'"))),
    ("2-warning-duplicate-enclosure", "warning:podcast-duplicate-enclosure", podcast(more_items="<item>" + EPISODE.replace("liftoff-1", "liftoff-2") + "</item>")),
    ("2-error-enclosure-non-ascii", "error:podcast-non-ascii-url", podcast(item=EPISODE.replace("1.mp3", "épisode-1.mp3"))),
    ("2-error-language-jp", "error:itunes-invalid-language", podcast(channel=PODCAST_CHANNEL.replace("<language>en</language>", "<language>jp</language>"))),
    ("2-valid-language-en-us", "valid", podcast(channel=PODCAST_CHANNEL.replace("<language>en</language>", "<language>en-us</language>"))),
    ("3-error-locked-maybe", "error:podcast-invalid-value", podcast(channel=PODCAST_CHANNEL.replace(">yes</podcast:locked>", ">maybe</podcast:locked>"))),
    ("3-valid-locked-no", "valid", podcast(channel=PODCAST_CHANNEL.replace(">yes</podcast:locked>", ">no</podcast:locked>"))),
    ("3-error-guid-not-a-uuid", "error:podcast-guid-not-uuidv5", podcast(channel=PODCAST_CHANNEL.replace("0c6b9162-ca73-53ab-9bd0-4823c2b64dcf", "example-podcast"))),
    ("3-error-guid-version-4", "error:podcast-guid-not-uuidv5", podcast(channel=PODCAST_CHANNEL.replace("0c6b9162-ca73-53ab-9bd0-4823c2b64dcf", "d5d1a4b5-3c4e-4f6a-9b1c-2e3f4a5b6c7d"))),
    ("3-info-guid-of-another-url", "info:podcast-guid-not-from-feed-url", podcast(channel=PODCAST_CHANNEL.replace("0c6b9162-ca73-53ab-9bd0-4823c2b64dcf", "9b024349-ccf0-5f69-a609-6b82873eab3c"))),
    ("3-silent-guid-of-the-self-link", "silent:podcast-guid-not-from-feed-url", podcast()),
    ("3-warning-unknown-tag", "warning:podcast-unknown-element", podcast(extra_item="<podcast:trancript url='https://example.org/1.srt' type='application/x-subrip'/>")),
    ("3-warning-transcript-in-channel", "warning:podcast-misplaced-element", podcast(extra_channel="<podcast:transcript url='https://example.org/1.srt' type='application/x-subrip'/>")),
    ("3-warning-guid-twice", "warning:podcast-repeated-element", podcast(extra_channel="<podcast:locked>yes</podcast:locked>")),
    ("3-error-transcript-without-type", "error:podcast-missing-attribute", podcast(extra_item="<podcast:transcript url='https://example.org/1.srt'/>")),
    ("3-error-remote-item-without-feed-guid", "error:podcast-missing-attribute", podcast(extra_channel="<podcast:podroll><podcast:remoteItem feedUrl='https://example.org/other.rss'/></podcast:podroll>")),
    ("3-error-value-without-recipient", "error:podcast-missing-child", podcast(extra_channel="<podcast:value type='lightning' method='keysend'/>")),
    ("3-error-recipient-split-word", "error:podcast-invalid-value", podcast(extra_channel="<podcast:value type='lightning' method='keysend'><podcast:valueRecipient type='node' address='02d5c1bf' split='half'/></podcast:value>")),
    ("3-valid-value-block", "valid", podcast(extra_channel="<podcast:value type='lightning' method='keysend' suggested='0.00000005000'><podcast:valueRecipient name='Host' type='node' address='02d5c1bf' split='99'/><podcast:valueRecipient name='App' type='node' address='03ae9f91' split='1' fee='true'/></podcast:value>")),
    ("3-warning-time-split-past-the-end", "warning:podcast-value-split-out-of-range", podcast(extra_item="<podcast:value type='lightning' method='keysend'><podcast:valueRecipient type='node' address='02d5c1bf' split='100'/><podcast:valueTimeSplit startTime='5000' duration='60'><podcast:remoteItem feedGuid='917393e3-1b1e-5cef-ace4-edaa54e1f810'/></podcast:valueTimeSplit></podcast:value>")),
    ("3-warning-remote-percentage-150", "warning:podcast-value-split-out-of-range", podcast(extra_item="<podcast:value type='lightning' method='keysend'><podcast:valueRecipient type='node' address='02d5c1bf' split='100'/><podcast:valueTimeSplit startTime='60' duration='60' remotePercentage='150'><podcast:remoteItem feedGuid='917393e3-1b1e-5cef-ace4-edaa54e1f810'/></podcast:valueTimeSplit></podcast:value>")),
    ("3-error-live-item-status", "error:podcast-invalid-value", podcast(extra_channel="<podcast:liveItem status='soon' start='2021-09-26T07:30:00.000-0600'><title>Live</title></podcast:liveItem>")),
    ("3-warning-live-item-backwards", "warning:podcast-live-item-ends-before-start", podcast(extra_channel="<podcast:liveItem status='pending' start='2021-09-26T09:30:00Z' end='2021-09-26T07:30:00Z'><title>Live</title><podcast:contentLink href='https://example.org/live'>Listen live</podcast:contentLink></podcast:liveItem>")),
    ("3-valid-live-item", "valid", podcast(extra_channel="<podcast:liveItem status='live' start='2021-09-26T07:30:00.000-0600' end='2021-09-26T09:30:00.000-0600'><title>Live</title><podcast:contentLink href='https://example.org/live'>Listen live</podcast:contentLink></podcast:liveItem>")),
    ("3-warning-person-role", "warning:podcast-unknown-person-role", podcast(extra_item="<podcast:person role='presenter'>Jane Doe</podcast:person>")),
    ("3-silent-person-role", "silent:podcast-unknown-person-role", podcast(extra_item="<podcast:person group='cast' role='Guest'>Jane Doe</podcast:person>")),
    ("3-error-person-blank", "error:podcast-invalid-value", podcast(extra_item="<podcast:person role='host'> </podcast:person>")),
    ("3-warning-txt-too-long", "warning:podcast-value-too-long", podcast(extra_channel="<podcast:txt>" + "x" * 4001 + "</podcast:txt>")),
    ("3-silent-txt-4000", "silent:podcast-value-too-long", podcast(extra_channel="<podcast:txt purpose='verify'>" + "x" * 4000 + "</podcast:txt>")),
    ("3-error-rrule", "error:podcast-invalid-rrule", podcast(extra_channel="<podcast:updateFrequency rrule='EVERY MONDAY'>Mondays</podcast:updateFrequency>")),
    ("3-valid-rrule", "valid", podcast(extra_channel="<podcast:updateFrequency rrule='FREQ=WEEKLY;BYDAY=MO'>Mondays</podcast:updateFrequency>")),
    ("3-warning-medium", "warning:podcast-unknown-medium", podcast(extra_channel="<podcast:medium>radio</podcast:medium>")),
    ("3-valid-medium", "valid", podcast(extra_channel="<podcast:medium>audiobook</podcast:medium>")),
    ("3-warning-list-medium-with-items", "warning:podcast-list-with-items", podcast(extra_channel="<podcast:medium>podcastL</podcast:medium>")),
    ("3-warning-unknown-slug", "warning:podcast-unknown-slug", podcast(extra_channel="<podcast:block id='myspace'>yes</podcast:block>")),
    ("3-error-season-word", "error:podcast-invalid-value", podcast(extra_item="<podcast:season>two</podcast:season>")),
    ("3-error-chapters-without-url", "error:podcast-missing-attribute", podcast(extra_item="<podcast:chapters type='application/json+chapters'/>")),
]


def page(name, links, guids=("ep-1",), media=None, title="Liftoff"):
    """A page of a paged podcast: `links` are (rel, href) pairs; each guid an
    episode, with its media file (its guid's, unless `media` says)."""
    media = media or [f"{guid}.mp3" for guid in guids]
    link_xml = "".join(f"<atom:link rel='{rel}' href='{href}'/>" for rel, href in links)
    items = "".join(
        f"<item><title>{guid}</title><guid isPermaLink='false'>{guid}</guid>"
        f"<enclosure url='https://example.org/media/{file}' length='24986239' type='audio/mpeg'/></item>"
        for guid, file in zip(guids, media)
    )
    channel = PODCAST_CHANNEL.replace("<title>Liftoff</title>", f"<title>{title}</title>")
    channel = channel.replace("<atom:link href='https://example.org/feed.rss' rel='self' type='application/rss+xml'/>", f"<atom:link href='{name}' rel='self'/>")
    channel = channel.replace(channel[channel.index("<podcast:guid>"):channel.index("</podcast:guid>") + 15], "")
    return f"<rss version='2.0' {PODCAST_NAMESPACES}><channel>{channel}{link_xml}{items}</channel></rss>"


def pages(*links_per_page, **per_page):
    """Pages page1.rss, page2.rss, ... with their links; `per_page` maps a
    page's number to more arguments of `page`."""
    return {
        f"page{n}.rss": page(f"page{n}.rss", links, **per_page.get(f"p{n}", {"guids": (f"ep-{n}",)}))
        for n, links in enumerate(links_per_page, start=1)
    }


FIRST_LAST = [("first", "page1.rss"), ("last", "page3.rss")]
CHAIN = (
    FIRST_LAST + [("next", "page2.rss")],
    FIRST_LAST + [("previous", "page1.rss"), ("next", "page3.rss")],
    FIRST_LAST + [("previous", "page2.rss")],
)

# Issue 41 item 4: paged podcast feeds, each case a folder of pages linted
# together, as `feedlint DIR` does.
# Issue 50 item 6: the pages of one podcast agree.
WILD_PAGED_CASES = [
    ("6-error-prev-and-previous-differ", "error:duplicate-navigation-link", pages(CHAIN[0], CHAIN[1], FIRST_LAST + [("previous", "page2.rss"), ("prev", "page1.rss")])),
    ("6-without-a-chain-finding-beside-it", "without:paging-chain-asymmetric", pages(CHAIN[0], CHAIN[1], FIRST_LAST + [("previous", "page2.rss"), ("prev", "page1.rss")])),
    ("6-valid-prev-and-previous-agree", "valid", pages(CHAIN[0], CHAIN[1], FIRST_LAST + [("previous", "page2.rss"), ("prev", "page2.rss")])),
]

ITUNES_DECLARED = "xmlns:itunes='http://www.itunes.com/dtds/podcast-1.0.dtd'"
LEGACY_PODCAST_NS = "https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md"


def blog(declared=ITUNES_DECLARED, extra_item=""):
    """A blog as site builders write it, declaring a namespace it does
    not use."""
    return f"<rss version='2.0' {declared}><channel>{CHANNEL}<item>{ITEM}<description>{'A long post. ' * 400}</description>{extra_item}</item></channel></rss>"


# Issue 50 (podcasts in the wild), by item: 1 a blog is not a podcast, 2
# the Podcasting 2.0 namespace's two names, 4 levels by the letter and one
# finding per cause, 5 the musts unchecked before.
# Each name starts with its item.
WILD_CASES = [
    ("1-valid-squarespace-blog", "valid", blog()),
    ("1-silent-squarespace-blog", "silent:podcast-missing-element", blog()),
    ("1-silent-blog-with-pictures", "silent:podcast-missing-element", blog(extra_item="<enclosure url='http://liftoff.example.net/1.png' length='1' type='image/png'/>")),
    ("1-valid-blog-declaring-podcasting", "valid", blog(declared="xmlns:podcast='https://podcastindex.org/namespace/1.0'")),
    ("1-error-declared-beside-audio", "error:podcast-missing-element", blog(extra_item="<enclosure url='http://liftoff.example.net/1.mp3' length='1' type='audio/mpeg'/>")),
    ("1-error-itunes-tag-used", "error:podcast-missing-element", blog(extra_item="<itunes:duration>1801</itunes:duration>")),
    ("2-info-older-name", "info:podcast-namespace-legacy", podcast().replace("https://podcastindex.org/namespace/1.0", LEGACY_PODCAST_NS)),
    ("2-valid-older-name", "valid", podcast().replace("https://podcastindex.org/namespace/1.0", LEGACY_PODCAST_NS)),
    ("2-silent-older-name-recommended", "silent:podcast-missing-recommended", podcast().replace("https://podcastindex.org/namespace/1.0", LEGACY_PODCAST_NS)),
    ("2-error-older-name-checked", "error:podcast-invalid-value", podcast(channel=PODCAST_CHANNEL.replace("<podcast:locked>yes", "<podcast:locked>maybe")).replace("https://podcastindex.org/namespace/1.0", LEGACY_PODCAST_NS)),
    ("2-silent-current-name", "silent:podcast-namespace-legacy", podcast()),
    ("4-warning-empty-episode-type", "warning:itunes-invalid-type", podcast(extra_item="<itunes:episodeType></itunes:episodeType>")),
    ("4-valid-empty-episode-type", "valid", podcast(extra_item="<itunes:episodeType></itunes:episodeType>")),
    ("4-warning-explicit-maybe", "warning:itunes-invalid-explicit", podcast(item=without(EPISODE, "<itunes:explicit>"), extra_item="<itunes:explicit>maybe</itunes:explicit>")),
    ("4-warning-fractional-duration", "warning:itunes-invalid-duration", podcast(item=EPISODE.replace(">1801<", ">1801.5<"))),
    ("4-valid-fractional-duration", "valid", podcast(item=EPISODE.replace(">1801<", ">1801.5<"))),
    ("4-silent-live-item-after-the-items", "silent:rss-item-before-channel-element", podcast(more_items="<podcast:liveItem status='pending' start='2030-06-03T19:00:00Z' end='2030-06-03T20:00:00Z'><title>Live</title><guid isPermaLink='false'>live-1</guid><enclosure url='https://example.org/live.mp3' length='0' type='audio/mpeg'/><podcast:contentLink href='https://example.org/live'>Watch</podcast:contentLink></podcast:liveItem>")),
    ("4-warning-near-miss-at-its-declaration", "warning:extension-namespace-near-miss", podcast().replace("http://www.itunes.com/dtds/podcast-1.0.dtd", "https://www.itunes.com/dtds/podcast-1.0.dtd")),
    ("4-silent-near-miss-elements-not-missing", "silent:podcast-missing-element", podcast().replace("http://www.itunes.com/dtds/podcast-1.0.dtd", "https://www.itunes.com/dtds/podcast-1.0.dtd")),
    ("5-error-http-transcript", "error:podcast-url-not-https", podcast(item=EPISODE.replace("https://example.org/1.vtt", "http://example.org/1.vtt"))),
    ("5-error-http-person-image", "error:podcast-url-not-https", podcast(extra_channel="<podcast:person img='http://example.org/jane.jpg'>Jane Doe</podcast:person>")),
    ("5-silent-https-urls", "silent:podcast-url-not-https", podcast(extra_channel="<podcast:person img='https://example.org/jane.jpg'>Jane Doe</podcast:person>")),
    ("5-error-empty-required-address", "error:podcast-invalid-value", podcast(extra_channel="<podcast:value type='lightning' method='keysend'><podcast:valueRecipient name='Host' type='node' address='' split='100'/></podcast:value>")),
    ("5-error-latin1-podcast", "error:podcast-not-utf8", '<?xml version="1.0" encoding="ISO-8859-1"?>\n' + podcast()),
    ("5-silent-utf8-podcast", "silent:podcast-not-utf8", podcast()),
    ("5-valid-latin1-blog", "valid", '<?xml version="1.0" encoding="ISO-8859-1"?>\n' + rss()),
    ("5-warning-deprecated-images", "warning:podcast-deprecated-tag", podcast(extra_channel="<podcast:images srcset='https://example.org/a.jpg 1500w'/>")),
    ("5-error-live-item-without-content-link", "error:podcast-missing-child", podcast(more_items="<podcast:liveItem status='pending' start='2030-06-03T19:00:00Z'><title>Live</title><guid isPermaLink='false'>live-1</guid><enclosure url='https://example.org/live.mp3' length='0' type='audio/mpeg'/></podcast:liveItem>")),
    ("5-error-publisher-medium", "error:podcast-invalid-value", podcast(extra_channel="<podcast:publisher><podcast:remoteItem medium='podcast' feedGuid='003af0a0-6a45-55cf-b765-68e3d349551a'/></podcast:publisher>")),
    ("5-error-publisher-two-items", "error:podcast-invalid-value", podcast(extra_channel="<podcast:publisher><podcast:remoteItem medium='publisher' feedGuid='003af0a0-6a45-55cf-b765-68e3d349551a'/><podcast:remoteItem medium='publisher' feedGuid='917393e3-1b1e-5cef-ace4-edaa54e1f810'/></podcast:publisher>")),
    ("5-error-publisher-without-medium", "error:podcast-missing-attribute", podcast(extra_channel="<podcast:publisher><podcast:remoteItem feedGuid='003af0a0-6a45-55cf-b765-68e3d349551a'/></podcast:publisher>")),
    ("5-valid-publisher", "valid", podcast(extra_channel="<podcast:publisher><podcast:remoteItem medium='publisher' feedGuid='003af0a0-6a45-55cf-b765-68e3d349551a'/></podcast:publisher>")),
    ("5-error-custom-license-without-url", "error:podcast-missing-attribute", podcast(extra_channel="<podcast:license>my-podcast-license-v1</podcast:license>")),
    ("5-valid-listed-license", "valid", podcast(extra_channel="<podcast:license>CC-BY-4.0</podcast:license>")),
    ("5-valid-custom-license-with-url", "valid", podcast(extra_channel="<podcast:license url='https://example.org/license.pdf'>my-podcast-license-v1</podcast:license>")),
    ("5-error-three-letter-country", "error:podcast-invalid-value", podcast(extra_channel="<podcast:location country='USA'>Austin</podcast:location>")),
    ("5-valid-location", "valid", podcast(extra_channel="<podcast:location rel='creator' geo='geo:30.2711286,-97.7436995' osm='R113314' country='US'>Austin</podcast:location>")),
    ("5-error-ai-content-not-boolean", "error:podcast-invalid-value", podcast(extra_channel="<podcast:txt purpose='ai-content'>some</podcast:txt>")),
    ("5-valid-ai-content", "valid", podcast(extra_channel="<podcast:txt purpose='ai-content'>false</podcast:txt>")),
    ("5-warning-guid-with-scheme", "warning:podcast-guid-unstripped-url", podcast(channel=PODCAST_CHANNEL.replace("0c6b9162-ca73-53ab-9bd0-4823c2b64dcf", "bd1e37d2-f3af-55d5-8700-827965172d07"))),
    ("5-silent-guid-stripped", "silent:podcast-guid-unstripped-url", podcast()),
    ("5-error-space-before-zone", "error:podcast-invalid-value", podcast(more_items="<podcast:liveItem status='pending' start='2030-06-03T19:00:00.000 -0500'><title>Live</title><podcast:contentLink href='https://example.org/live'>Live</podcast:contentLink></podcast:liveItem>")),
    ("5-error-space-before-zone-no-fraction", "error:podcast-invalid-value", podcast(more_items="<podcast:liveItem status='pending' start='2030-06-03T19:00:00 -0500'><title>Live</title><podcast:contentLink href='https://example.org/live'>Live</podcast:contentLink></podcast:liveItem>")),
    ("5-silent-iso-times", "silent:podcast-invalid-value", podcast(more_items="<podcast:liveItem status='pending' start='2030-06-03T19:00:00.000-0500' end='2030-06-03T24:00:00-0500'><title>Live</title><podcast:contentLink href='https://example.org/live'>Live</podcast:contentLink></podcast:liveItem>")),
    ("5-error-artwork-with-space", "error:itunes-invalid-image", podcast(channel=PODCAST_CHANNEL.replace("artwork.jpg", "show art.jpg"))),
    ("5-warning-mp4-typed-x-mp4", "warning:itunes-unsupported-enclosure", podcast(item=EPISODE.replace("1.mp3' length='24986239' type='audio/mpeg'", "1.mp4' length='24986239' type='video/x-mp4'"))),
    ("5-warning-mp4-typed-mpeg-video", "warning:itunes-unsupported-enclosure", podcast(item=EPISODE.replace("1.mp3' length='24986239' type='audio/mpeg'", "1.mp4' length='24986239' type='video/mpeg'"))),
    ("5-warning-enclosure-html", "warning:itunes-unsupported-enclosure", podcast(item=EPISODE.replace("1.mp3' length='24986239' type='audio/mpeg'", "1' length='24986239' type='text/html'"))),
    ("5-valid-mp4-video", "valid", podcast(item=EPISODE.replace("1.mp3' length='24986239' type='audio/mpeg'", "1.mp4' length='24986239' type='video/mp4'"))),
    ("5-warning-type-in-episode", "warning:itunes-misplaced-element", podcast(extra_item="<itunes:type>serial</itunes:type>")),
    ("5-warning-duration-in-channel", "warning:itunes-misplaced-element", podcast(extra_channel="<itunes:duration>1801</itunes:duration>")),
    ("5-warning-author-twice", "warning:itunes-repeated-element", podcast(extra_channel="<itunes:author>Someone else</itunes:author>")),
    ("5-silent-two-categories", "silent:itunes-repeated-element", podcast(extra_channel="<itunes:category text='Technology'/>")),
    ("5-warning-padded-explicit", "warning:itunes-value-padded", podcast(channel=PODCAST_CHANNEL.replace("<itunes:explicit>false<", "<itunes:explicit> false <"))),
    ("5-warning-title-over-255", "warning:itunes-value-too-long", podcast(item=EPISODE.replace("Episode 1", "Episode 1 " + "x" * 250))),
    ("5-silent-title-of-255", "silent:itunes-value-too-long", podcast(item=EPISODE.replace("Episode 1", "x" * 255))),
]

PAGED_CASES = [
    ("4-valid-paged-podcast", "valid", pages(*CHAIN)),
    ("4-error-next-to-a-missing-page", "error:paging-link-dangling", pages(CHAIN[0], FIRST_LAST + [("previous", "page1.rss"), ("next", "page-3.rss")], CHAIN[2])),
    ("4-error-last-to-a-missing-page", "error:paging-link-dangling", pages(*[[(r, "page9.rss" if r == "last" else h) for r, h in p] for p in CHAIN])),
    ("4-error-loop", "error:paging-chain-cycle", pages(CHAIN[0], CHAIN[1], FIRST_LAST + [("previous", "page2.rss"), ("next", "page1.rss")])),
    ("4-error-last-with-next", "error:paging-link-past-end", pages(CHAIN[0], CHAIN[1], FIRST_LAST + [("previous", "page2.rss"), ("next", "page1.rss")])),
    ("4-error-first-with-previous", "error:paging-link-past-end", pages(FIRST_LAST + [("previous", "page3.rss"), ("next", "page2.rss")], CHAIN[1], CHAIN[2])),
    ("4-warning-first-disagrees", "warning:paging-chain-asymmetric", pages(CHAIN[0], [("first", "page3.rss"), ("last", "page3.rss"), ("previous", "page1.rss"), ("next", "page3.rss")], CHAIN[2])),
    ("4-error-guid-of-two-episodes", "error:paging-guid-reused", pages(*CHAIN, p3={"guids": ("ep-2",), "media": ("ep-3.mp3",)})),
    ("4-valid-episode-repeated", "valid", pages(*CHAIN, p3={"guids": ("ep-2", "ep-3")})),
    ("4-warning-enclosure-of-two-episodes", "warning:paging-enclosure-reused", pages(*CHAIN, p3={"guids": ("ep-3",), "media": ("ep-2.mp3",)})),
    ("4-warning-channel-title-differs", "warning:paging-channel-mismatch", pages(*CHAIN, p3={"guids": ("ep-3",), "title": "Liftoff (page 3)"})),
    ("4-warning-complete-beside-paging", "warning:mixed-complete-paged", {**pages(*CHAIN), "page1.rss": pages(*CHAIN)["page1.rss"].replace("<channel>", "<channel><fh:complete xmlns:fh='http://purl.org/syndication/history/1.0'/>")}),
    ("4-info-prev", "info:paging-prev-alias", pages(CHAIN[0], CHAIN[1], FIRST_LAST + [("prev", "page2.rss")])),
    ("4-valid-prev", "valid", pages(CHAIN[0], CHAIN[1], FIRST_LAST + [("prev", "page2.rss")])),
]


# Issue 41 item 5: media, on request. Each case is a podcast whose episode
# file and artwork are on a loopback server that behaves as the path says;
# the cases run with --check-media (and --allow-private-addresses: a file
# names loopback media, which the address policy otherwise refuses).
MEDIA = "http://127.0.0.1:{port}"


def media_podcast(enclosure="ok.mp3", artwork="art.jpg", media_type="audio/mpeg", length="5000", transcript=None):
    """A podcast whose media are on the loopback media server; its
    transcript too where one is named (an http: URL, which the podcast
    rules call an error: those cases judge the transcript rule alone), else
    none (the check asks nothing beyond loopback)."""
    channel = PODCAST_CHANNEL.replace("https://example.org/artwork.jpg", f"{MEDIA}/{artwork}")
    episode = EPISODE if transcript else without(EPISODE, "<podcast:transcript")
    item = (episode.replace("https://example.org/1.mp3", f"{MEDIA}/{enclosure}")
            .replace("https://example.org/1.vtt", f"{MEDIA}/{transcript}")
            .replace("length='24986239' type='audio/mpeg'", f"length='{length}' type='{media_type}'")
            .replace("https://example.org/1.jpg", f"{MEDIA}/{artwork}"))
    return podcast(channel=channel, item=item)


MEDIA_CASES = [
    ("5-valid-media", "valid", media_podcast()),
    ("5-silent-ranges", "silent:media-no-byte-ranges", media_podcast()),
    ("5-error-episode-404", "error:media-unavailable", media_podcast(enclosure="missing.mp3")),
    ("5-error-artwork-500", "error:media-unavailable", media_podcast(artwork="broken.jpg")),
    ("5-valid-head-refused-enclosure", "valid", media_podcast(enclosure="nohead.mp3")),
    ("5-warning-no-byte-ranges", "warning:media-no-byte-ranges", media_podcast(enclosure="noranges.mp3")),
    ("5-warning-type-differs", "warning:media-type-mismatch", media_podcast(enclosure="m4a.mp3")),
    ("5-silent-type-alias", "silent:media-type-mismatch", media_podcast(media_type="audio/mp3")),
    ("5-warning-length-differs", "warning:media-length-mismatch", media_podcast(length="0")),
    ("5-warning-hangs", "warning:media-unreachable", media_podcast(enclosure="hang.mp3")),
    ("5-warning-redirect-loop", "warning:media-unreachable", media_podcast(enclosure="loop.mp3")),
    ("5-valid-redirected", "valid", media_podcast(enclosure="moved.mp3")),
    ("5-error-cmyk-artwork", "error:artwork-not-rgb", media_podcast(artwork="cmyk.jpg")),
    ("5-error-small-artwork", "error:artwork-wrong-size", media_podcast(artwork="small.png")),
    ("5-among-transcript-without-cors", "among:media-transcript-no-cors", media_podcast(transcript="closed.vtt")),
    ("5-without-transcript-with-cors", "without:media-transcript-no-cors", media_podcast(transcript="ok.vtt")),
    ("5-error-large-artwork", "error:artwork-wrong-size", media_podcast(artwork="large.png")),
    ("5-valid-3000-artwork", "valid", media_podcast(artwork="largest.png")),
    ("5-warning-tall-artwork", "warning:artwork-not-square", media_podcast(artwork="tall.png")),
    ("5-error-webp-artwork", "error:artwork-wrong-format", media_podcast(artwork="webp.jpg")),
    ("5-error-jpeg-named-png", "error:artwork-wrong-format", media_podcast(artwork="jpeg.png")),
    ("5-warning-artwork-head-refused", "warning:media-head-refused", media_podcast(artwork="nohead.jpg")),
]


def png(width, height, colour_type=2):
    return (b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR" + width.to_bytes(4, "big") + height.to_bytes(4, "big")
            + bytes([8, colour_type, 0, 0, 0]) + bytes(200))


def jpeg(width, height, components=3):
    frame = bytes([0xFF, 0xC0, 0, 8 + 3 * components, 8]) + height.to_bytes(2, "big") + width.to_bytes(2, "big")
    frame += bytes([components]) + b"".join(bytes([n, 0x11, 0]) for n in range(1, components + 1))
    return b"\xff\xd8\xff\xe0\x00\x10JFIF\0\x01\x01\0\0\x01\0\x01\0\0" + frame + bytes(200)


def media_server():
    """A loopback server of the media the cases name: (server, port)."""
    import http.server
    import threading
    import time

    episode = bytes(5000)
    files = {
        "/ok.mp3": (episode, "audio/mpeg"), "/nohead.mp3": (episode, "audio/mpeg"),
        "/noranges.mp3": (episode, "audio/mpeg"), "/m4a.mp3": (episode, "audio/x-m4a"),
        "/hang.mp3": (episode, "audio/mpeg"), "/moved-here.mp3": (episode, "audio/mpeg"),
        "/art.jpg": (jpeg(1400, 1400), "image/jpeg"), "/cmyk.jpg": (jpeg(3000, 3000, 4), "image/jpeg"),
        "/small.png": (png(1200, 1200), "image/png"), "/large.png": (png(4000, 4000), "image/png"),
        "/largest.png": (png(3000, 3000), "image/png"), "/tall.png": (png(1400, 2000), "image/png"),
        "/webp.jpg": (b"RIFF\x24\0\0\0WEBPVP8X\x0a\0\0\0\0\0\0\0\x77\x05\0\x77\x05\0", "image/webp"),
        "/jpeg.png": (jpeg(1400, 1400), "image/png"), "/nohead.jpg": (jpeg(1400, 1400), "image/jpeg"),
        "/ok.vtt": (b"WEBVTT\n", "text/vtt"), "/closed.vtt": (b"WEBVTT\n", "text/vtt"),
    }

    class Media(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, head):
            path = self.path
            if path == "/hang.mp3":
                time.sleep(3)
            if path in ("/loop.mp3", "/moved.mp3"):
                self.send_response(302)
                self.send_header("Location", "/loop.mp3" if path == "/loop.mp3" else "/moved-here.mp3")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if path == "/broken.jpg" or path not in files:
                self.send_response(500 if path == "/broken.jpg" else 404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if head and path.startswith("/nohead"):
                self.send_response(405)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body, content_type = files[path]
            ranges = path != "/noranges.mp3"
            wanted = self.headers.get("Range", "")
            if ranges and wanted.startswith("bytes=0-") and not head:
                last = min(int(wanted[8:]), len(body) - 1)
                self.send_response(206)
                self.send_header("Content-Range", f"bytes 0-{last}/{len(body)}")
                body = body[: last + 1]
            else:
                self.send_response(200)
            self.send_header("Content-Type", content_type)
            if path == "/ok.vtt" and self.headers.get("Origin"):
                self.send_header("Access-Control-Allow-Origin", "*")
            if ranges:
                self.send_header("Accept-Ranges", "bytes")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if not head:
                try:
                    self.wfile.write(body)
                except OSError:
                    pass

        def do_HEAD(self):
            self.answer(True)

        def do_GET(self):
            self.answer(False)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Media)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def json_feed(extra="", item=None, version="https://jsonfeed.org/version/1.1", title='"title": "Example", ', items=None):
    """A JSON Feed 1.1 document, from the spec's minimal one with one change."""
    item = item if item is not None else '{"id": "1", "content_text": "Hello", "url": "https://example.org/1"}'
    items = items if items is not None else f'"items": [{item}]'
    return f'{{"version": "{version}", {title}{extra}{items}}}'


# Issue 53 item 1: JSON Feed 1.1 ("Top-level", "Items", "Attachments",
# "Extensions"), and item 3's WebSub on a JSON Feed's hubs.
JSON_CASES = [
    ("1-valid-minimal", "valid", json_feed()),
    ("1-valid-extension", "valid", json_feed(extra='"_example": {"about": "https://example.org/ext"}, ')),
    ("1-error-no-title", "error:json-feed-missing-member", json_feed(title="")),
    ("1-error-no-items", "error:json-feed-missing-member", json_feed(items='"home_page_url": "https://example.org/"')),
    ("1-error-item-without-id", "error:json-feed-missing-member", json_feed(item='{"content_text": "Hello"}')),
    ("1-error-item-without-content", "error:json-feed-missing-member", json_feed(item='{"id": "1"}')),
    ("1-error-title-number", "error:json-feed-wrong-type", json_feed(title='"title": 7, ')),
    ("1-error-id-number-in-1.1", "error:json-feed-wrong-type", json_feed(item='{"id": 1, "content_text": "Hello"}')),
    ("1-valid-id-number-in-1.0", "valid", json_feed(version="https://jsonfeed.org/version/1", item='{"id": 1, "content_text": "Hello"}')),
    ("1-error-unknown-member", "error:json-feed-unknown-member", json_feed(extra='"homepage_url": "https://example.org/", ')),
    ("1-error-invalid-url", "error:json-feed-invalid-url", json_feed(extra='"home_page_url": "not a url", ')),
    ("1-warning-relative-url", "warning:json-feed-relative-url", json_feed(extra='"icon": "/icon.png", ')),
    ("1-silent-absolute-url", "silent:json-feed-relative-url", json_feed(extra='"icon": "https://example.org/icon.png", ')),
    ("1-error-rfc822-date", "error:json-feed-invalid-date", json_feed(item='{"id": "1", "content_text": "x", "date_published": "Fri, 31 May 2019 12:17:58 -0700"}')),
    ("1-error-date-without-seconds", "error:json-feed-invalid-date", json_feed(item='{"id": "1", "content_text": "x", "date_published": "2017-04-04T07:00"}')),
    ("1-valid-date", "valid", json_feed(item='{"id": "1", "content_text": "x", "date_published": "2010-02-07T14:04:00-05:00"}')),
    ("1-error-language", "error:json-feed-invalid-language", json_feed(extra='"language": "english", ')),
    ("1-warning-mime-type", "warning:json-feed-invalid-mime-type", json_feed(item='{"id": "1", "content_text": "x", "attachments": [{"url": "https://example.org/1.mp3", "mime_type": "mp3"}]}')),
    ("1-warning-deprecated-author", "warning:json-feed-deprecated-author", json_feed(extra='"author": {"name": "A"}, ')),
    ("1-silent-author-in-1.0", "silent:json-feed-deprecated-author", json_feed(version="https://jsonfeed.org/version/1", extra='"author": {"name": "A"}, ')),
    ("1-warning-1.0-with-authors", "warning:json-feed-version-mismatch", json_feed(version="https://jsonfeed.org/version/1", extra='"authors": [{"name": "A"}], ')),
    ("1-error-trailing-comma", "error:json-malformed", json_feed(extra='"home_page_url": "https://example.org/",, ')),
    # A walk passes over JSON that is no JSON Feed (named as a feed, it is
    # not-a-feed: testsuite/rules/not-a-feed).
    ("1-silent-array-in-a-walk", "silent:not-a-feed", '[{"id": "1"}]'),
    ("1-silent-mime-type", "silent:json-feed-invalid-mime-type", json_feed(item='{"id": "1", "content_text": "x", "attachments": [{"url": "https://example.org/1.mp3", "mime_type": "audio/mpeg"}]}')),
    ("1-silent-1.1-with-authors", "silent:json-feed-version-mismatch", json_feed(extra='"authors": [{"name": "A"}], ')),
    ("1-valid-escaped-slashes", "valid", json_feed(version="https:\\/\\/jsonfeed.org\\/version\\/1.1")),
    ("2-error-next-url-is-feed-url", "error:json-feed-next-url-loop", json_feed(extra='"feed_url": "https://example.org/feed.json", "next_url": "https://example.org/feed.json", ')),
    ("3-error-hub-without-feed-url", "error:websub-missing-self", json_feed(extra='"hubs": [{"type": "WebSub", "url": "https://hub.example.net/"}], ')),
    ("3-valid-hub-and-feed-url", "valid", json_feed(extra='"feed_url": "https://example.org/feed.json", "hubs": [{"type": "WebSub", "url": "https://hub.example.net/"}], ')),
    ("3-valid-rsscloud-hub", "valid", json_feed(extra='"hubs": [{"type": "rssCloud", "url": "https://rpc.example.net/RPC2"}], ')),
    ("3-error-mailto-hub", "error:websub-invalid-hub", json_feed(extra='"feed_url": "https://example.org/feed.json", "hubs": [{"type": "WebSub", "url": "mailto:hub@example.net"}], ')),
]

# Issue 53 item 3: WebSub §4 on Atom and RSS (the header rules need a
# fetch: tests/it/websub.rs).
WEBSUB_CASES = [
    ("3-error-atom-hub-without-self", "error:websub-missing-self", atom(extra_head="<link rel='hub' href='https://hub.example.net/'/>")),
    ("3-valid-atom-hub-and-self", "valid", atom(extra_head="<link rel='hub' href='https://hub.example.net/'/><link rel='self' href='https://example.org/feed.atom'/>")),
    ("3-warning-two-selves", "warning:websub-multiple-self", atom(extra_head="<link rel='hub' href='https://hub.example.net/'/><link rel='self' href='https://example.org/feed.atom'/><link rel='self' href='https://example.org/atom.xml'/>")),
    ("3-silent-two-selves-without-hub", "silent:websub-multiple-self", atom(extra_head="<link rel='self' href='https://example.org/feed.atom'/><link rel='self' href='https://example.org/atom.xml'/>")),
    ("3-error-rss-hub-without-self", "error:websub-missing-self", rss(extra_channel="<atom:link xmlns:atom='http://www.w3.org/2005/Atom' rel='hub' href='https://pubsubhubbub.appspot.com/'/>")),
    ("3-silent-rss-https-hub", "silent:websub-invalid-hub", rss(extra_channel="<atom:link xmlns:atom='http://www.w3.org/2005/Atom' rel='self' href='https://example.org/feed.rss'/><atom:link xmlns:atom='http://www.w3.org/2005/Atom' rel='hub' href='https://hub.example.net/'/>")),
    ("3-error-rss-ftp-hub", "error:websub-invalid-hub", rss(extra_channel="<atom:link xmlns:atom='http://www.w3.org/2005/Atom' rel='self' href='https://example.org/feed.rss'/><atom:link xmlns:atom='http://www.w3.org/2005/Atom' rel='hub' href='ftp://hub.example.net/'/>")),
]


def json_page(name, next_page=None, items=(("1", "https://example.org/1"),), feed_url="https://example.org/feed.json"):
    """A page of a paged JSON Feed: its items are (id, url) pairs."""
    next_url = f'"next_url": "https://example.org/{next_page}", ' if next_page else ""
    listed = ", ".join(f'{{"id": "{i}", "url": "{u}", "content_text": "x"}}' for i, u in items)
    return json_feed(extra=f'"feed_url": "{feed_url}", {next_url}', items=f'"items": [{listed}]')


# Issue 53 item 2: paged JSON Feeds, each case a folder of pages.
JSON_PAGED_CASES = [
    ("2-valid-chain", "valid", {"feed.json": json_page("feed.json", "feed-2.json", (("2", "https://example.org/2"),)), "feed-2.json": json_page("feed-2.json")}),
    ("2-error-dangling-next-url", "error:paging-link-dangling", {"feed.json": json_page("feed.json", "feed-2.json", (("2", "https://example.org/2"),)), "feed-2.json": json_page("feed-2.json", "feed-3.json")}),
    ("2-error-cycle", "error:paging-chain-cycle", {"feed.json": json_page("feed.json", "page-2.json", (("3", "https://example.org/3"),)), "page-2.json": json_page("page-2.json", "page-3.json", (("2", "https://example.org/2"),)), "page-3.json": json_page("page-3.json", "page-2.json")}),
    ("2-warning-feed-url-differs", "warning:json-feed-url-mismatch", {"feed.json": json_page("feed.json", "feed-2.json", (("2", "https://example.org/2"),)), "feed-2.json": json_page("feed-2.json", feed_url="https://example.org/feed-2.json")}),
    ("2-error-item-id-reused", "error:json-feed-item-id-reused", {"feed.json": json_page("feed.json", "feed-2.json", (("1", "https://example.org/new"),)), "feed-2.json": json_page("feed-2.json")}),
    ("2-silent-item-without-url-twice", "silent:json-feed-item-id-reused", {"feed.json": json_feed(extra='"feed_url": "https://example.org/feed.json", "next_url": "https://example.org/feed-2.json", ', item='{"id": "1", "content_text": "a"}'), "feed-2.json": json_feed(extra='"feed_url": "https://example.org/feed.json", ', item='{"id": "1", "content_text": "b"}')}),
    ("2-valid-same-item-twice", "valid", {"feed.json": json_page("feed.json", "feed-2.json", (("2", "https://example.org/2"), ("1", "https://example.org/1"))), "feed-2.json": json_page("feed-2.json")}),
]



# Issue 54 item 1: links inside entry HTML, escaped, in CDATA and inline.
CONTENT = "http://purl.org/rss/1.0/modules/content/"
CONTENT_CASES = [
    ("1-info-escaped-root-relative", "info:content-relative-link", rss(extra_item="<description>&lt;img src=\"/images/a.png\"&gt;</description>")),
    ("1-info-escaped-path", "info:content-relative-link", rss(extra_item="<description>&lt;a href=\"../older/\"&gt;older&lt;/a&gt;</description>")),
    ("1-info-cdata-protocol-relative", "info:content-relative-link", rss(extra_item=f"<content:encoded xmlns:content='{CONTENT}'><![CDATA[<img src=\"//cdn.example.net/a.png\">]]></content:encoded>")),
    ("1-silent-absolute-and-fragment", "silent:content-relative-link", rss(extra_item="<description>&lt;a href=\"https://example.org/a\"&gt;a&lt;/a&gt; &lt;a href=\"#fn1\"&gt;1&lt;/a&gt; &lt;a href=\"mailto:a@example.org\"&gt;m&lt;/a&gt;</description>")),
    ("1-silent-words-not-html", "silent:content-relative-link", rss(extra_item="<description>set href=\"/x\" in the template</description>")),
    ("1-silent-own-base", "silent:content-relative-link", rss(extra_item="<description>&lt;base href=\"https://example.org/p/\"&gt;&lt;img src=\"a.png\"&gt;</description>")),
    ("1-info-atom-protocol-relative", "info:content-protocol-relative-link", atom(extra_entry="<content type='html'>&lt;img src=\"//cdn.example.net/a.png\"&gt;</content>")),
    ("1-info-atom-xhtml-protocol-relative", "info:content-protocol-relative-link", atom(extra_entry=f"<content type='xhtml'><div xmlns='{XHTML}'><img src='//cdn.example.net/a.png'/></div></content>")),
    ("1-silent-atom-relative-under-base", "silent:content-relative-link", atom(extra_entry="<content type='html' xml:base='https://example.org/p/'>&lt;img src=\"a.png\"&gt;</content>")),
    ("1-silent-atom-text-content", "silent:content-protocol-relative-link", atom(extra_entry="<content type='text'>&lt;img src=\"//cdn.example.net/a.png\"&gt;</content>")),
]


def site_atom(src):
    """An Atom feed published at https://example.org/ (its self link places
    the folder) whose entry, under the post's xml:base, shows `src`."""
    return atom(
        extra_head="<link rel='self' href='https://example.org/feed.atom'/>",
        extra_entry=f"<content type='html' xml:base='https://example.org/blog/hello/'>&lt;img src=\"{src}\"&gt;</content>",
    )


# Issue 54 item 1, against the published tree: each case a folder with the
# feed and the file `hello.png` at the site's root.
CONTENT_SITE_CASES = [
    ("1-info-link-to-no-file", "info:content-link-missing", {"feed.atom": site_atom("hello.png"), "hello.png": "an image"}),
    ("1-silent-link-to-the-file", "silent:content-link-missing", {"feed.atom": site_atom("/hello.png"), "hello.png": "an image"}),
    ("1-silent-link-elsewhere", "silent:content-link-missing", {"feed.atom": site_atom("https://cdn.example.net/hello.png"), "hello.png": "an image"}),
]


def site_page(head):
    """A web page of the site, with `head` in its <head>."""
    return f"<!DOCTYPE html>\n<html><head><title>Example</title>\n{head}\n</head><body><p>Hello.</p></body></html>"


def advertised(href, media_type="application/atom+xml"):
    return f"<link rel='alternate' type='{media_type}' href='{href}'>"


PLACED_ATOM = atom(extra_head="<link rel='self' href='https://example.org/feed.atom'/><link rel='alternate' href='https://example.org/'/>")
PLACED_RSS = rss(extra_channel="<atom:link xmlns:atom='http://www.w3.org/2005/Atom' rel='self' href='https://example.org/feed.xml'/>")

# Issue 54 item 3: each case a published site (the feed's self link places
# the folder at https://example.org/) with its home page and, where a case
# needs one, a post's page in a folder of its own.
DISCOVERY_CASES = [
    ("3-error-feed-moved", "error:discovery-link-dangling", {"feed.atom": PLACED_ATOM, "index.html": site_page(advertised("/feeds/all.atom"))}),
    ("3-silent-feed-there", "silent:discovery-link-dangling", {"feed.atom": PLACED_ATOM, "index.html": site_page(advertised("/feed.atom"))}),
    ("3-silent-feed-elsewhere", "silent:discovery-link-dangling", {"feed.atom": PLACED_ATOM, "index.html": site_page(advertised("https://feeds.example.net/example"))}),
    ("3-silent-rest-route-as-json", "silent:discovery-link-dangling", {"feed.atom": PLACED_ATOM, "index.html": site_page(advertised("/feed.atom") + advertised("/wp-json/wp/v2/pages/2", "application/json"))}),
    ("3-error-relative-breaks-on-posts", "error:discovery-relative-link", {"feed.atom": PLACED_ATOM, "index.html": site_page(advertised("feed.atom")), "posts/hello/index.html": site_page(advertised("feed.atom"))}),
    ("3-silent-relative-under-base", "silent:discovery-relative-link", {"feed.atom": PLACED_ATOM, "index.html": site_page(advertised("feed.atom")), "posts/hello/index.html": site_page("<base href='https://example.org/'>" + advertised("feed.atom"))}),
    ("3-silent-root-relative-everywhere", "silent:discovery-relative-link", {"feed.atom": PLACED_ATOM, "index.html": site_page(advertised("/feed.atom")), "posts/hello/index.html": site_page(advertised("/feed.atom"))}),
    ("3-error-atom-as-rss", "error:discovery-type-mismatch", {"feed.atom": PLACED_ATOM, "index.html": site_page(advertised("/feed.atom", "application/rss+xml"))}),
    ("3-error-rss-as-atom", "error:discovery-type-mismatch", {"feed.xml": PLACED_RSS, "index.html": site_page(advertised("/feed.xml"))}),
    ("3-silent-hugo-escaped-type", "silent:discovery-type-mismatch", {"feed.xml": PLACED_RSS, "index.html": site_page(advertised("/feed.xml", "application/rss&#43;xml"))}),
    ("3-info-home-page-advertises-nothing", "info:discovery-missing", {"feed.atom": PLACED_ATOM, "index.html": site_page("<meta charset='utf-8'>")}),
    ("3-silent-feed-of-another-page", "silent:discovery-missing", {"feed.atom": atom(extra_head="<link rel='self' href='https://example.org/feed.atom'/><link rel='alternate' href='https://example.org/blog/'/>"), "index.html": site_page("<meta charset='utf-8'>")}),
    ("3-silent-home-page-advertises-a-proxy", "silent:discovery-missing", {"feed.atom": PLACED_ATOM, "index.html": site_page(advertised("https://feeds.example.net/example"))}),
]


def websub_rss(links):
    atom_link = "<atom:link xmlns:atom='http://www.w3.org/2005/Atom' rel='{}' href='{}'/>"
    return rss(extra_channel="".join(atom_link.format(rel, href) for rel, href in links))


# Issue 53 item 3, on fetched feeds: each case a path on a loopback server,
# its document and its Link header ({base} is the server's address), linted
# by URL; the last two with --check-hub.
HUB = "https://hub.example.net/"
SERVED_WEBSUB_CASES = [
    ("3-valid-header-and-document-agree", "valid", websub_rss([("hub", HUB), ("self", "{base}/3-valid-header-and-document-agree")]), f"<{HUB}>; rel=hub, <{{base}}/3-valid-header-and-document-agree>; rel=self"),
    ("3-warning-header-names-another-self", "warning:websub-header-mismatch", websub_rss([("hub", HUB), ("self", "{base}/3-warning-header-names-another-self")]), f"<{HUB}>; rel=hub, <{{base}}/feed.xml>; rel=self"),
    ("3-warning-header-names-other-hubs", "warning:websub-header-mismatch", websub_rss([("hub", HUB), ("self", "{base}/3-warning-header-names-other-hubs")]), "<https://other.example.net/>; rel=hub"),
    ("3-warning-hub-in-header-only", "warning:websub-hub-only-in-headers", websub_rss([("self", "{base}/3-warning-hub-in-header-only")]), f"<{HUB}>; rel=hub"),
    ("3-silent-hub-in-both", "silent:websub-hub-only-in-headers", websub_rss([("hub", HUB), ("self", "{base}/3-silent-hub-in-both")]), f"<{HUB}>; rel=hub"),
    ("3-error-header-hub-and-no-topic", "error:websub-missing-self", websub_rss([]), f"<{HUB}>; rel=hub"),
    ("3-info-topic-elsewhere", "info:websub-topic-mismatch", websub_rss([("hub", HUB), ("self", "https://feeds.example.net/example")]), ""),
    ("3-silent-topic-is-the-url", "silent:websub-topic-mismatch", websub_rss([("hub", HUB), ("self", "{base}/3-silent-topic-is-the-url")]), ""),
    ("3-warning-hub-gone", "warning:websub-hub-unreachable", websub_rss([("hub", "{base}/gone-hub"), ("self", "{base}/3-warning-hub-gone")]), ""),
    ("3-silent-hub-there", "silent:websub-hub-unreachable", websub_rss([("hub", "{base}/hub"), ("self", "{base}/3-silent-hub-there")]), ""),
]


def websub_server(cases):
    """A loopback server of the served WebSub cases: (server, base URL).
    /hub answers 405 (a hub asked without hub.mode), /gone-hub 410."""
    import http.server
    import threading

    served = {}

    class Feeds(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, head):
            path = self.path.lstrip("/")
            status = {"hub": 405, "gone-hub": 410}.get(path, 200 if path in served else 404)
            body, link = served.get(path, ("", ""))
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/rss+xml")
            if link:
                self.send_header("Link", link)
            self.send_header("Content-Length", str(len(data) if status == 200 else 0))
            self.end_headers()
            if not head and status == 200:
                self.wfile.write(data)

        def do_HEAD(self):
            self.answer(True)

        def do_GET(self):
            self.answer(False)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Feeds)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    for case, _, document, link in cases:
        served[case] = ('<?xml version="1.0" encoding="utf-8"?>\n' + document.replace("{base}", base), link.replace("{base}", base))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, base


def lint_url(url, flags=()):
    """The findings of `feedlint URL`, as `(rule, level)` pairs."""
    result = subprocess.run(
        [str(BINARY), "--format", "json", "--exit-zero", "--max-per-rule", "0", *flags, url],
        capture_output=True,
        text=True,
    )
    return [(d["rule"], d["level"]) for d in json.loads(result.stdout)["diagnostics"]]


def score_served(cases):
    """Each case is a URL of the WebSub server, linted as `feedlint URL`."""
    server, base = websub_server(cases)
    missed, found = [], {}
    for case, expected, _, _ in cases:
        flags = ["--check-hub"] if "hub-gone" in case or "hub-there" in case else []
        found[case] = lint_url(f"{base}/{case}", flags)
        if not passes(expected, found[case]):
            missed.append((case, expected, found[case]))
    server.shutdown()
    return missed, found


# Issue 54 item 2: how a fetched feed is served. Each case is a path on a
# loopback server that serves an Atom feed well (an ETag it honours, CORS
# open to all) except in the one way the case names; linted by URL.
HTTP_CASES = [
    ("2-valid-served-well", "valid", {}),
    ("2-warning-no-validator", "warning:http-no-validator", {"etag": False}),
    ("2-silent-last-modified-only", "silent:http-no-validator", {"etag": False, "last_modified": True}),
    ("2-error-etag-ignored", "error:http-etag-ignored", {"honour": False}),
    ("2-silent-etag-honoured", "silent:http-etag-ignored", {}),
    ("2-warning-last-modified-ignored", "warning:http-last-modified-ignored", {"etag": False, "last_modified": True, "honour": False}),
    ("2-info-etag-unstable", "info:http-etag-unstable", {"unstable": True}),
    ("2-warning-archive-no-store", "warning:http-archive-no-store", {"archive": True, "cache_control": "no-store"}),
    ("2-silent-feed-no-store", "silent:http-archive-no-store", {"cache_control": "no-store"}),
    ("2-info-no-compression", "info:http-no-compression", {"padding": 150_000}),
    ("2-silent-gzip", "silent:http-no-compression", {"padding": 150_000, "gzip": True}),
    ("2-info-no-cors", "info:http-no-cors", {"cors": "never"}),
    ("2-silent-cors-on-origin", "silent:http-no-cors", {"cors": "origin"}),
    ("2-info-feed-too-large", "info:http-feed-too-large", {"padding": 10_000_001, "gzip": True}),
    ("2-silent-feed-under-ten-megabytes", "silent:http-feed-too-large", {"padding": 9_999_000, "gzip": True}),
    ("2-info-temporary-redirect", "info:http-temporary-redirect", {"redirect": 302}),
    ("2-silent-permanent-redirect", "silent:http-temporary-redirect", {"redirect": 301}),
    ("2-warning-bot-challenge", "warning:http-bot-challenge", {"archive_link": "challenge"}),
    ("2-silent-archive-there", "silent:http-bot-challenge", {"archive_link": "archive"}),
]


def http_feed(path, archive=False, links=(), padding=0):
    marker = "<fh:archive/>" if archive else ""
    linked = "".join(f'<link rel="{rel}" href="{href}"/>' for rel, href in links)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xmlns:fh="http://purl.org/syndication/history/1.0">'
        f"<title>t</title><id>tag:example.org,2024:{path}</id><updated>2024-01-01T00:00:00Z</updated><author><name>a</name></author>"
        f'{marker}<link rel="self" href="{path}"/>{linked}<entry><title>e</title><link href="https://example.org/{path}/e"/>'
        f"<id>tag:example.org,2024:{path}/e</id><updated>2024-01-01T00:00:00Z</updated><summary>{'a' * padding}</summary></entry></feed>"
    )


def http_server(cases):
    """A loopback server of the HTTP cases: (server, base URL)."""
    import gzip
    import hashlib
    import http.server
    import itertools
    import threading

    behaviours = {case: how for case, _, how in cases}
    counter = itertools.count()

    class Feeds(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, status, headers, body=b""):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            path = self.path.lstrip("/")
            if path == "challenge":
                page = b"<html><title>Just a moment...</title><script src='/cdn-cgi/challenge-platform/h/b/orchestrate'></script></html>"
                return self.reply(403, [("Content-Type", "text/html"), ("cf-mitigated", "challenge")], page)
            if path == "archive":
                if self.headers.get("If-None-Match") == '"a"':
                    return self.reply(304, [("ETag", '"a"')])
                headers = [("Content-Type", "application/atom+xml"), ("ETag", '"a"'), ("Access-Control-Allow-Origin", "*")]
                return self.reply(200, headers, http_feed("/archive", archive=True).encode())
            name = path.removesuffix(".xml")
            how = behaviours.get(name)
            if how is None:
                return self.reply(404, [])
            if "redirect" in how and not path.endswith(".xml"):
                return self.reply(how["redirect"], [("Location", f"/{name}.xml")])
            links = [("prev-archive", f"/{how['archive_link']}")] if "archive_link" in how else []
            body = http_feed(f"/{path}", how.get("archive", False), links, how.get("padding", 0)).encode()
            tag = '"machine-%d"' % next(counter) if how.get("unstable") else '"%s"' % hashlib.sha1(body).hexdigest()[:16]
            date = "Sat, 28 Nov 2026 10:00:00 GMT"
            headers = [("Content-Type", "application/atom+xml")]
            if how.get("etag", True):
                headers.append(("ETag", tag))
            if how.get("last_modified"):
                headers.append(("Last-Modified", date))
            cors = how.get("cors", "always")
            if cors == "always" or (cors == "origin" and self.headers.get("Origin")):
                headers.append(("Access-Control-Allow-Origin", "*"))
            if "cache_control" in how:
                headers.append(("Cache-Control", how["cache_control"]))
            if how.get("honour", True):
                # A 304 carries the headers a 200 would, less the body's.
                kept = [(name, value) for name, value in headers if name != "Content-Type"]
                if how.get("etag", True) and self.headers.get("If-None-Match") == tag:
                    return self.reply(304, kept)
                if not how.get("etag", True) and self.headers.get("If-Modified-Since") == date:
                    return self.reply(304, kept)
            if how.get("gzip"):
                body = gzip.compress(body)
                headers.append(("Content-Encoding", "gzip"))
            self.reply(200, headers, body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Feeds)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def score_http(cases):
    """Each case is a URL of the HTTP server, linted as `feedlint URL`."""
    server, base = http_server(cases)
    missed, found = [], {}
    for case, expected, how in cases:
        path = case if "redirect" in how else f"{case}.xml"
        found[case] = lint_url(f"{base}/{path}")
        if not passes(expected, found[case]):
            missed.append((case, expected, found[case]))
    server.shutdown()
    return missed, found


def passes(expected, found):
    """Whether a case's findings, `(rule, level)` pairs, are what it expects:
    `error` (at least one error), `error:RULE` (RULE among the errors),
    `valid` (no error), `warning:RULE` or
    `info:RULE` (no error, and RULE at that level), `silent:RULE` (no
    error, and not RULE), `errors:R1,R2` (each of them as an error),
    `among:RULE` (RULE at any level, beside errors of other rules),
    `without:RULE` (not RULE, whatever else: a finding that would follow
    from another's cause)."""
    errors = [rule for rule, level in found if level == "error"]
    kind, _, rules = expected.partition(":")
    if kind == "error":
        return bool(errors) and (not rules or rules in errors)
    if kind == "valid":
        return not errors
    if kind in ("warning", "info"):
        return not errors and (rules, kind) in found
    if kind == "silent":
        return not errors and all(rule != rules for rule, _ in found)
    if kind == "errors":
        return all(rule in errors for rule in rules.split(","))
    if kind == "among":
        return any(rule == rules for rule, _ in found)
    if kind == "without":
        return all(rule != rules for rule, _ in found)
    raise ValueError(expected)


def score(name, cases, flags=()):
    directory = OUT / name
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.iterdir():
        old.unlink()
    extension = {"atom": ".atom", "json-feed": ".json"}.get(name, ".rss")  # podcasts are RSS
    for case, _, document in cases:
        # A case that writes its own start (a stray line before <?xml) is
        # written as it is.
        declaration = "" if "<?xml" in document or extension == ".json" else '<?xml version="1.0" encoding="utf-8"?>\n'
        (directory / f"{case}{extension}").write_text(declaration + document + "\n")
    result = subprocess.run(
        [str(BINARY), "--format", "json", "--exit-zero", "--max-per-rule", "0", *flags, str(directory)],
        capture_output=True,
        text=True,
    )
    report = json.loads(result.stdout)
    found = {}
    for diagnostic in report["diagnostics"]:
        found.setdefault(Path(diagnostic["file"]).stem, []).append((diagnostic["rule"], diagnostic["level"]))
    missed = []
    for case, expected, _ in cases:
        if not passes(expected, found.get(case, [])):
            missed.append((case, expected, found.get(case, [])))
    return missed, found


def score_sets(name, cases):
    """Each case is a folder of documents, linted as one run."""
    directory = OUT / name
    directory.mkdir(parents=True, exist_ok=True)
    missed, found = [], {}
    for case, expected, files in cases:
        folder = directory / case
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        for file, document in files.items():
            declaration = "" if file.endswith((".json", ".html")) else '<?xml version="1.0" encoding="utf-8"?>\n'
            (folder / file).parent.mkdir(parents=True, exist_ok=True)
            (folder / file).write_text(declaration + document + "\n")
        result = subprocess.run(
            [str(BINARY), "--format", "json", "--exit-zero", "--max-per-rule", "0", str(folder)],
            capture_output=True,
            text=True,
        )
        report = json.loads(result.stdout)
        found[case] = [(d["rule"], d["level"]) for d in report["diagnostics"]]
        if not passes(expected, found[case]):
            missed.append((case, expected, found[case]))
    return missed, found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    false_alarms = 0
    server, port = media_server()
    media_cases = [(case, expected, document.replace(MEDIA, MEDIA.format(port=port))) for case, expected, document in MEDIA_CASES]
    media_flags = ["--check-media", "--allow-private-addresses", "--timeout", "1"]
    issues = {"podcast": 41, "paged": 41, "media": 41, "wild": 50, "wild-paged": 50, "json-feed": 53, "json-paged": 53, "websub": 53, "websub-served": 53, "content": 54, "content-site": 54, "http-served": 54, "discovery": 54}
    for name, cases in [("atom", ATOM_CASES), ("rss20", RSS_CASES), ("podcast", PODCAST_CASES), ("paged", PAGED_CASES), ("media", media_cases), ("wild", WILD_CASES), ("wild-paged", WILD_PAGED_CASES), ("json-feed", JSON_CASES), ("json-paged", JSON_PAGED_CASES), ("websub", WEBSUB_CASES), ("websub-served", SERVED_WEBSUB_CASES), ("content", CONTENT_CASES), ("content-site", CONTENT_SITE_CASES), ("discovery", DISCOVERY_CASES), ("http-served", HTTP_CASES)]:
        if name == "websub-served":
            missed, found = score_served(cases)
        elif name == "http-served":
            missed, found = score_http(cases)
        elif name in ("paged", "wild-paged", "json-paged", "content-site", "discovery"):
            missed, found = score_sets(name, cases)
        else:
            missed, found = score(name, cases, media_flags if name == "media" else ())
        missed_names = {case for case, _, _ in missed}
        for kind in ["error", "errors", "warning", "info", "silent", "valid", "among", "without"]:
            of_kind = [c for c in cases if c[1].partition(":")[0] == kind]
            if of_kind:
                right = sum(1 for c in of_kind if c[0] not in missed_names)
                print(f"{name}: {kind}: {right} of {len(of_kind)}")
        if name in issues:
            for item in sorted({c[0].split("-")[0] for c in cases}):
                of_item = [c for c in cases if c[0].split("-")[0] == item]
                right = sum(1 for c in of_item if c[0] not in missed_names)
                print(f"{name}: issue {issues[name]} item {item}: {right} of {len(of_item)}")
        for case, expected, got in missed:
            shown = ", ".join(sorted({f"{rule} ({level})" for rule, level in got})) or "nothing"
            print(f"  missed {case} (expected {expected}, got {shown})")
        if args.verbose:
            for case, expected, *_ in cases:
                shown = ", ".join(sorted({f"{rule} ({level})" for rule, level in found.get(case, [])})) or "-"
                print(f"  {case} [{expected}]: {shown}")
        # An error where none is expected, or an expected silence broken, is
        # a false alarm, and fails the run; cases missed otherwise are the
        # work left.
        false_alarms += sum(1 for case, expected, _ in missed if expected.partition(":")[0] in ("valid", "silent"))
    server.shutdown()
    sys.exit(1 if false_alarms else 0)


if __name__ == "__main__":
    main()
