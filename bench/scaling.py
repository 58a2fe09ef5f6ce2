#!/usr/bin/env python3
"""feedlint's scaling benchmark: `python3 bench/scaling.py`.

For each hostile shape of input (deep nesting, a namespace declared at
every level, entities, attributes, comments, character references, one
long line with a finding per entry, many tombstones or entries with one
id, many suppressions, JSON Feeds: items, nesting, one long string, a
next_url chain, WebSub links, a feed served over loopback HTTP whose
server ignores conditional requests, ...), generates documents of 1, 2, 4, 8
and 16 MB under target/scaling/, measures the CPU time of `feedlint --format
json` (release build, one thread) on each, and prints the time and the ratio
per doubling.
Linear work doubles the time, quadratic work quadruples it; the run fails
(exit status 1) if a shape's mean ratio per doubling (geometric, over the
steps from 50 ms up) reaches 2.5. The worst single step is printed too.
Options: --sizes 1,2,4,8,16 (MB), --runs N (the least CPU time counts,
default 3), --limit 2.5, --only SHAPE (repeatable).
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "scaling"
ATOM = 'xmlns="http://www.w3.org/2005/Atom"'
MB = 1024 * 1024


def repeat_to(size, head, unit, tail):
    """head + unit * n + tail, with n making it about `size` bytes."""
    n = max(1, (size - len(head) - len(tail)) // len(unit))
    return head + unit * n + tail


def numbered_to(size, head, unit, tail):
    """`head`, then `unit(n)` for n = 0, 1, ... until about `size` bytes,
    then `tail`: units that each differ from the others."""
    units, total, n = [], len(head), 0
    while total < size:
        units.append(unit(n))
        total += len(units[-1])
        n += 1
    return head + "".join(units) + tail


def nesting(size):
    n = size // 7
    return f"<feed {ATOM}><title>t</title>" + "<x>" * n + "</x>" * n + "</feed>"


def namespaces(size):
    # Every level declares a prefix, and uses one declared at the root: a
    # parser that copies the namespaces in scope into each element is cubic.
    unit_open, unit_close = '<p:x xmlns:n{i}="urn:n{i}">', "</p:x>"
    parts, closes, total, i = [], [], 0, 0
    while total < size:
        tag = unit_open.format(i=i)
        parts.append(tag)
        total += len(tag) + len(unit_close)
        i += 1
    return f'<feed {ATOM} xmlns:p="urn:p"><title>t</title>' + "".join(parts) + unit_close * i + "</feed>"


def prefixes(size):
    # Distinct prefixes declared on one element.
    return f"<feed {ATOM}" + "".join(f' xmlns:p{i}="urn:{i}"' for i in range(size // 22)) + "><title>t</title></feed>"


def attributes(size):
    return f"<feed {ATOM}" + "".join(f' a{i}="v"' for i in range(size // 10)) + "><title>t</title></feed>"


def attributes_unclosed(size):
    # A start tag that never closes: the error is found at the end.
    return f"<feed {ATOM}" + "".join(f' a{i}="="' for i in range(size // 10))


def elements_with_attributes(size):
    unit = "<x " + " ".join(f'a{i}="v"' for i in range(50)) + "/>"
    return repeat_to(size, f"<feed {ATOM}><title>t</title>", unit, "</feed>")


def entity_and_ampersands(size):
    # One internal entity, and a comment full of '&': an entity scan that
    # looks for ';' from every '&' is quadratic.
    return repeat_to(size, f'<!DOCTYPE feed [<!ENTITY e "x">]><feed {ATOM}><title>&e;</title><!--', "&" * 64, "--></feed>")


def entity_references(size):
    return repeat_to(size, f'<!DOCTYPE feed [<!ENTITY e "x">]><feed {ATOM}><title>t</title><subtitle>', "&e;", "</subtitle></feed>")


def character_references(size):
    return repeat_to(size, f"<feed {ATOM}><title>t</title><subtitle>", "&#233;&lt;&#x10FFFF;", "</subtitle></feed>")


def comments(size):
    return repeat_to(size, f"<feed {ATOM}><title>t</title>", "<!-- a comment - with - dashes -->", "</feed>")


def long_comment(size):
    return repeat_to(size, f"<feed {ATOM}><title>t</title><!--", "- -", "--></feed>")


def cdata(size):
    return repeat_to(size, f"<feed {ATOM}><title>t</title><subtitle>", "<![CDATA[]]]]>", "</subtitle></feed>")


def one_line_findings(size):
    # A feed on one line with a finding in every entry: locating each
    # finding must not scan from the line's start.
    unit = "<entry><id>urn:uuid:x</id><title>t</title><updated>yesterday</updated></entry>"
    return repeat_to(size, f"<feed {ATOM}><title>t</title>", unit, "</feed>")


def links(size):
    unit = '<link rel="related" href="https://example.org/a%20b"/>'
    return repeat_to(size, f'<feed {ATOM} xml:base="https://example.org/"><title>t</title>', unit, "</feed>")


TOMBSTONES = 'xmlns:at="http://purl.org/atompub/tombstones/1.0"'


def tombstones_one_ref(size):
    # Tombstones sharing one ref: pairing each with the earlier ones is quadratic.
    unit = '<at:deleted-entry ref="urn:x:1" when="2024-01-01T00:00:00Z"/>'
    return repeat_to(size, f"<feed {ATOM} {TOMBSTONES}><title>t</title>", unit, "</feed>")


def entries_one_id(size):
    # Entries and tombstones with one id: pairing each tombstone with each
    # entry makes a quadratic number of findings.
    unit = ('<at:deleted-entry ref="urn:x:1" when="2024-01-02T00:00:00Z"/>'
            "<entry><id>urn:x:1</id><title>t</title><updated>2024-01-01T00:00:00Z</updated></entry>")
    return repeat_to(size, f"<feed {ATOM} {TOMBSTONES}><title>t</title>", unit, "</feed>")


def suppressions(size):
    # Suppression comments, each before an entry with a finding it covers:
    # matching every finding against every suppression is quadratic.
    unit = "<!-- feedlint-disable-next invalid-date --><entry><id>urn:x</id><title>t</title><updated>never</updated></entry>"
    return repeat_to(size, f"<feed {ATOM}><title>t</title>", unit, "</feed>")


def suppressions_in_a_row(size):
    # Comments in a row: each searching forward for its element is quadratic.
    unit = "<!-- feedlint-disable-next archive-missing-marker -->"
    return repeat_to(size, f"<feed {ATOM}><title>t</title>", unit, "<entry/></feed>")


def alternate_links(size):
    # Alternate links of one entry, each with its own hreflang: comparing
    # each with all before it is quadratic.
    head = f"<feed {ATOM}><title>t</title><entry><id>urn:x</id><title>t</title>"
    return numbered_to(size, head, lambda n: f'<link hreflang="x-{n}" href="/{n}"/>', "</entry></feed>")


def once_only_copies(size):
    # Copies of an element an entry may hold once: looking for the first
    # copy again for each is quadratic.
    unit = "<title>t</title>"
    return repeat_to(size, f"<feed {ATOM}><title>t</title><entry><id>urn:x</id>", unit, "</entry></feed>")


def nested_bases(size):
    # A relative xml:base at every level: each level's base is its parent's
    # and more, so building every level's base is quadratic.
    n = size // 26
    return f"<feed {ATOM}><title>t</title><x:e xmlns:x=\"urn:x\">" + '<x:e xml:base="aa/">' * n + "</x:e>" * n + "</x:e></feed>"


def sites(size):
    # A folder a feed, each published elsewhere by its self link (a learned
    # tree each) and naming a missing archive: placements, URLs and the
    # help of each dangling link must be looked up, not searched for.
    files, total, n = {}, 0, 0
    while total < size:
        text = (f'<feed {ATOM}><title>t</title><id>tag:example.org,2024:{n}</id>'
                f'<updated>2024-01-01T00:00:00Z</updated><author><name>a</name></author>'
                f'<link rel="self" href="https://host{n}.example/feed.atom"/>'
                f'<link rel="prev-archive" href="archive/missing.atom"/></feed>')
        files[f"site{n}/feed.atom"] = text
        total += len(text)
        n += 1
    return files


RSS_MODULES = ('xmlns:content="http://purl.org/rss/1.0/modules/content/" '
               'xmlns:slash="http://purl.org/rss/1.0/modules/slash/"')


def rss_items_every_finding(size):
    # Every item fires each per-item rule of issue 40: markup in its title,
    # an address alone, a wrong day name, no guid, content before any
    # description, a comment count; and a channel element after each item.
    unit = ("<item><title>&lt;b&gt;t&lt;/b&gt;</title><author>a@example.org</author>"
            "<pubDate>Wed, 03 Jun 2003 09:39:21 GMT</pubDate><content:encoded>c</content:encoded>"
            "<slash:comments>1</slash:comments><description x=\"1\">d</description></item><ttl>1</ttl>")
    head = (f'<rss version="2.0" {RSS_MODULES}><channel><title>t</title>'
            "<link>https://example.org/</link><description>d</description>")
    return repeat_to(size, head, unit, "</channel></rss>")


def atom_entries_every_finding(size):
    # Every entry fires each per-entry Atom rule of issue 40: an undefined
    # attribute, a relative category scheme, XML content with text beside
    # its element, and a misplaced AtomPub element.
    unit = ('<entry><id>urn:x:1</id><title t="1">t</title><updated>2024-01-01T00:00:00Z</updated>'
            '<link href="https://example.org/" target="_blank"/><category term="a" scheme="/c"/>'
            '<content type="application/xml">x<y xmlns=""/></content>'
            '<source><app:edited>2024-01-01T00:00:00Z</app:edited></source></entry>')
    head = f'<feed {ATOM} xmlns:app="http://www.w3.org/2007/app"><title>t</title>'
    return repeat_to(size, head, unit, "</feed>")


PODCAST = ('xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" '
           'xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:atom="http://www.w3.org/2005/Atom"')
PODCAST_HEAD = (f'<rss version="2.0" {PODCAST}><channel><title>t</title>'
                "<link>https://example.org/</link><description>d</description>")


def podcast_items_every_finding(size):
    # Every episode fires each per-episode podcast rule: no guid, an
    # explicit, a duration and a number Apple cannot read, media Apple does
    # not take, typed as another format, a URL shared with every other
    # episode, a person of no known role, a transcript without a type, at
    # an http: URL, and the deprecated podcast:images; a show's tag in the
    # episode, a title given twice with spaces, a link over 255 characters,
    # a three-letter country, a custom license without its URL, and an
    # .mp4 typed as no format Apple takes.
    unit = ("<item><title>e</title><itunes:explicit>maybe</itunes:explicit><itunes:duration>1:99:00</itunes:duration>"
            "<itunes:episode>-1</itunes:episode><enclosure url=\"https://example.org/1.ogg\" length=\"1\" type=\"audio/mpeg\"/>"
            "<podcast:person role=\"presenter\">p</podcast:person><podcast:transcript url=\"http://example.org/t\"/><podcast:images srcset=\"https://example.org/i.jpg 600w\"/>"
            "<itunes:category text=\"T\"/><itunes:title> t </itunes:title><itunes:title>u</itunes:title><link>https://example.org/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx</link>"
            "<podcast:location country=\"USA\">x</podcast:location><podcast:license>custom</podcast:license>"
            "<enclosure url=\"https://example.org/2.mp4\" length=\"1\" type=\"video/x-mp4\"/></item>")
    return repeat_to(size, PODCAST_HEAD, unit, "</channel></rss>")


def near_miss_namespaces(size):
    # Each episode declares the iTunes namespace spelt another way (a near
    # miss) and uses it: each spelling is read as the namespace, and found
    # at its declaration, by hashing, not by comparing with every other.
    def spelling(i):
        # The case of 20 letters: a million spellings, each a near miss.
        letters = iter(range(20))
        cased = "".join(c.upper() if c.isalpha() and i >> next(letters, 31) & 1 else c for c in "itunes.com/dtds/podcast")
        return f"http://www.{cased}-1.0.dtd"
    unit = lambda i: f'<item xmlns:i{i}="{spelling(i)}"><title>e</title><i{i}:explicit>no</i{i}:explicit></item>'
    return numbered_to(size, PODCAST_HEAD, unit, "</channel></rss>")


def legacy_explicit_everywhere(size):
    # The same legacy itunes:explicit on every episode: one finding, whose
    # fix holds an edit for each.
    unit = "<item><title>e</title><itunes:explicit>no</itunes:explicit></item>"
    return repeat_to(size, PODCAST_HEAD, unit, "</channel></rss>")


def podcast_persons(size):
    # People of unknown roles and groups in one channel, each looked up in
    # the taxonomy, not compared with one another.
    return repeat_to(size, PODCAST_HEAD, '<podcast:person group="talent" role="presenter">Jane Doe</podcast:person>', "</channel></rss>")


def value_recipients(size):
    # One value block of recipients, each with a split that is no number.
    head = PODCAST_HEAD + '<podcast:value type="lightning" method="keysend">'
    unit = '<podcast:valueRecipient name="n" type="node" address="02d5c1bf" split="half"/>'
    return repeat_to(size, head, unit, "</podcast:value></channel></rss>")


def paged_chain(size):
    # A chain of pages, each next and previous of its neighbours, the last
    # naming a page that is not there, and each page's episode guid that of
    # the page before, with another file: each page is looked up, not
    # searched for, and each guid once.
    files, total, n = {}, 0, 0
    while total < size:
        text = (f'<rss version="2.0" {PODCAST}><channel><title>t</title><link>https://example.org/</link>'
                f'<description>d</description><atom:link rel="self" href="page{n}.rss"/>'
                f'<atom:link rel="first" href="page0.rss"/><atom:link rel="previous" href="page{n - 1}.rss"/>'
                f'<atom:link rel="next" href="page{n + 1}.rss"/>'
                f'<item><title>e</title><guid>ep-{n // 2}</guid><enclosure url="https://example.org/{n}.mp3" length="1" type="audio/mpeg"/></item>'
                "</channel></rss>")
        files[f"page{n}.rss"] = text
        total += len(text)
        n += 1
    return files


def media_urls(size):
    # With --check-media: episodes each naming a media file and an image
    # of their own, every one gathered, counted and looked up once (the
    # run asks one, on a loopback address the policy refuses without
    # connecting: the benchmark sends no traffic).
    head = PODCAST_HEAD + '<itunes:image href="http://127.0.0.1:9/art.jpg"/>'
    out, total, n = [head], len(head), 0
    while total < size:
        n += 1
        unit = (f'<item><title>e</title><enclosure url="http://127.0.0.1:9/{n}.mp3" length="{n}" type="audio/mpeg"/>'
                f'<itunes:image href="http://127.0.0.1:9/{n}.jpg"/></item>')
        out.append(unit)
        total += len(unit)
    out.append("</channel></rss>")
    return "".join(out)


JSON_HEAD = '{"version": "https://jsonfeed.org/version/1.1", "title": "t", '


def json_items_every_finding(size):
    # Items each with an RSS-style date, a misspelt member, an id of the
    # wrong type and an attachment whose type is no media type.
    def item(n):
        return (f'{"," if n else ""}{{"id": {n}, "contnet_text": "x", "date_published": "Tue, 03 Jun 2003 09:39:21 GMT", '
                f'"attachments": [{{"url": "https://example.org/{n}.mp3", "mime_type": "mp3"}}]}}')
    return numbered_to(size, JSON_HEAD + '"items": [', item, "]}")


def json_nesting(size):
    # Objects nested in an extension, as deep as the size allows: the
    # parser stops at its depth limit, whatever comes after.
    n = size // 8
    return JSON_HEAD + '"items": [], "_x": ' + '{"_a": ' * n + "1" + "}" * n + "}"


def json_long_string(size):
    # One content_html of escapes (\u00e9, \", \n) as long as the size.
    unit = 'caf\\u00e9 \\"robots\\"\\n '
    return repeat_to(size, JSON_HEAD + '"items": [{"id": "1", "content_html": "', unit, '"}]}')


def json_next_url_chain(size):
    # A chain of JSON Feed pages by next_url, the last naming a page that
    # is not there, every page with its own feed_url (a mismatch each) and
    # the item id of the page before with another url.
    files, total, n = {}, 0, 0
    while total < size:
        text = (f'{JSON_HEAD}"feed_url": "https://example.org/page{n}.json", '
                f'"next_url": "https://example.org/page{n + 1}.json", '
                f'"items": [{{"id": "item-{n // 2}", "url": "https://example.org/{n}", "content_text": "x"}}]}}')
        files[f"page{n}.json"] = text
        total += len(text)
        n += 1
    return files


def websub_links(size):
    # An Atom head of hub and self links, every self another URL.
    return numbered_to(size, f'<feed {ATOM}><title>t</title>',
                       lambda n: f'<link rel="hub" href="https://hub{n}.example/"/><link rel="self" href="https://example.org/{n}.atom"/>',
                       "</feed>")


def escaped_links(size):
    # RSS items whose escaped HTML holds relative links, each a finding at
    # its place inside the escaped text (mapped back byte by byte).
    head = ('<rss version="2.0"><channel><title>t</title><link>https://example.org/</link><description>d</description>')
    unit = ('<item><title>e</title><link>https://example.org/p/</link><description>&lt;p&gt;&lt;a href="/a?x=1&amp;amp;y=2"&gt;a&lt;/a&gt; '
            '&lt;img src="i.png"&gt; &lt;img src="//cdn.example.org/i.png"&gt; &lt;a href="https://example.org/"&gt;b&lt;/a&gt;&lt;/p&gt;'
            '</description></item>')
    return repeat_to(size, head, unit, "</channel></rss>")


def one_escaped_description(size):
    # One item whose escaped description is nothing but relative links: the
    # places of all of them found in one pass over one long text.
    head = ('<rss version="2.0"><channel><title>t</title><link>https://example.org/</link><description>d</description>'
            '<item><title>i</title><link>https://example.org/i</link><description>')
    unit = '&lt;a href=&quot;/p?a=1&amp;amp;b=2&quot;&gt;x&lt;/a&gt; '
    return repeat_to(size, head, unit, "</description></item></channel></rss>")


def site_links(size):
    # A published tree (feedlint.toml gives its URL) whose feed links, in
    # one entry's escaped HTML, to that many images it does not have: each
    # looked for on disk once.
    head = (f'<feed {ATOM}><title>t</title><id>tag:example.org,2024:f</id><updated>2024-01-01T00:00:00Z</updated>'
            '<author><name>a</name></author><entry><title>e</title><id>tag:example.org,2024:e</id>'
            '<updated>2024-01-01T00:00:00Z</updated><content type="html">')
    out, total, n = [head], len(head), 0
    while total < size:
        unit = f'&lt;img src="/images/{n}.png"&gt;'
        out.append(unit)
        total += len(unit)
        n += 1
    out.append("</content></entry></feed>")
    return {"feedlint.toml": 'base-url = "https://example.org/"\n', "feed.atom": "".join(out)}


def site_pages(size):
    # A published site of as many pages as the size allows (each padded to
    # 4 KiB of body), in a folder each: every page advertises the feed by
    # the same relative link (one finding at the end, for them all) and a
    # feed of its own that is not there (a finding each).
    feed = (f'<feed {ATOM}><title>t</title><id>tag:example.org,2024:f</id><updated>2024-01-01T00:00:00Z</updated>'
            '<author><name>a</name></author><link rel="self" href="https://example.org/feed.atom"/></feed>')
    files = {"feed.atom": feed}
    body = "<p>" + "a" * 4000 + "</p>"
    total, n = len(feed), 0
    while total < size:
        page = ('<!DOCTYPE html><html><head><link rel="alternate" type="application/atom+xml" href="feed.atom">'
                f'<link rel="alternate" type="application/rss+xml" href="/gone/{n}.xml"></head><body>{body}</body></html>')
        files[f"posts/{n}/index.html"] = page
        total += len(page)
        n += 1
    return files


def served_feed(size):
    # Linted by URL from a loopback server that sends an ETag and ignores
    # If-None-Match: the http rules ask again and compare the two bodies
    # whole, the most a document costs them.
    unit = ('<entry><title>e</title><id>tag:example.org,2024:e</id><updated>2024-01-01T00:00:00Z</updated>'
            '<summary>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</summary></entry>')
    head = (f'<feed {ATOM}><title>t</title><id>tag:example.org,2024:f</id><updated>2024-01-01T00:00:00Z</updated>'
            '<author><name>a</name></author>')
    return repeat_to(size, head, unit, "</feed>")


def loopback_server(folder):
    """A loopback server of the files in `folder`, each with an ETag it
    does not honour: (server, base URL). It runs in this process, so its
    CPU time is not counted."""
    import http.server
    import threading

    class Files(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            path = folder / self.path.lstrip("/")
            body = path.read_bytes() if path.is_file() else b""
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "application/atom+xml")
            self.send_header("ETag", '"same"')
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Files)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


# The shapes linted by URL from the loopback server.
SERVED = {"feed served, asked again"}

SHAPES = {
    "nesting": nesting,
    "namespace per level": namespaces,
    "prefixes on one element": prefixes,
    "attributes on one element": attributes,
    "unclosed start tag": attributes_unclosed,
    "elements, 50 attributes": elements_with_attributes,
    "entity + '&' comment": entity_and_ampersands,
    "entity references": entity_references,
    "character references": character_references,
    "comments": comments,
    "one long comment": long_comment,
    "CDATA sections": cdata,
    "one line, many findings": one_line_findings,
    "links in one head": links,
    "tombstones, one ref": tombstones_one_ref,
    "entries, tombstones, one id": entries_one_id,
    "suppressions": suppressions,
    "suppressions in a row": suppressions_in_a_row,
    "alternate links, one entry": alternate_links,
    "once-only copies, one entry": once_only_copies,
    "nested relative xml:base": nested_bases,
    "sites, a placement each": sites,
    "RSS items, every finding": rss_items_every_finding,
    "Atom entries, every finding": atom_entries_every_finding,
    "podcast items, every finding": podcast_items_every_finding,
    "podcast persons": podcast_persons,
    "near-miss namespaces, each used": near_miss_namespaces,
    "legacy explicit on every episode": legacy_explicit_everywhere,
    "value recipients": value_recipients,
    "paged chain of pages": paged_chain,
    "media URLs, --check-media": media_urls,
    "JSON items, every finding": json_items_every_finding,
    "JSON nesting": json_nesting,
    "JSON one long string": json_long_string,
    "JSON next_url chain": json_next_url_chain,
    "WebSub hub and self links": websub_links,
    "feed served, asked again": served_feed,
    "RSS items, escaped links": escaped_links,
    "one description of links": one_escaped_description,
    "site links to missing files": site_links,
    "site pages, links to no feed": site_pages,
}

# The flags a shape is linted with, besides the report's.
SHAPE_FLAGS = {
    "media URLs, --check-media": ["--check-media", "--max-media", "1"],
    "feed served, asked again": ["--max-bytes", "100000000"],
}


def timed(command, env, runs):
    """The least CPU time (user + system) of `runs` runs. CPU time, not
    wall time: on a shared virtual machine, wall time swings with the
    neighbours by more than the ratio this benchmark judges."""
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,2,4,8,16")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=float, default=2.5)
    parser.add_argument("--only", action="append", help="run only this shape (repeatable)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "feedlint"], cwd=ROOT, check=True)
    feedlint = str(ROOT / "target" / "release" / "feedlint")
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    OUT.mkdir(parents=True, exist_ok=True)
    server, base = loopback_server(OUT)

    print(f"machine: {os.cpu_count()} cores; feedlint on 1 thread; least CPU time of {args.runs} runs; time per size, then ratio per doubling\n")
    print(f"{'shape':28}" + "".join(f"{s:>7} MB" for s in sizes) + "     mean    worst  (ratio per doubling)")
    failed = []
    for name, make in SHAPES.items():
        if args.only and name not in args.only:
            continue
        times = []
        for size in sizes:
            extension = "json" if name.startswith("JSON") else "atom"
            path = OUT / f"{name.replace(' ', '-').replace(',', '').replace('+', '').replace(chr(39), '')}-{size}.{extension}"
            made = make(size * MB)
            if isinstance(made, dict):
                # A shape of many files: a directory of them.
                for relative, text in made.items():
                    (path / relative).parent.mkdir(parents=True, exist_ok=True)
                    (path / relative).write_text(text)
            else:
                path.write_text(made)
            target = f"{base}/{path.name}" if name in SERVED else str(path)
            command = [feedlint, "--format", "json", "--exit-zero", "--max-findings", "0", *SHAPE_FLAGS.get(name, []), target]
            times.append(timed(command, env, args.runs))
            shutil.rmtree(path) if path.is_dir() else path.unlink()
        # Steps from below 50 ms say little: process start and the machine's
        # noise are of that size. The judged ratio is the mean per doubling
        # (geometric) over the steps that say something; the worst single
        # step is shown beside it.
        steps = [(a, b) for a, b in zip(times, times[1:]) if a >= 0.05]
        ratios = [b / a for a, b in steps] or [1.0]
        mean = (steps[-1][1] / steps[0][0]) ** (1 / len(steps)) if steps else 1.0
        flag = "" if mean < args.limit else "  <-- over the limit"
        print(f"{name:28}" + "".join(f"{t:>9.3f}s" for t in times) + f"{mean:>9.2f}x{max(ratios):>9.2f}x{flag}")
        if mean >= args.limit:
            failed.append(name)
    server.shutdown()
    if failed:
        sys.exit(f"\nnot linear: {', '.join(failed)}")
    print(f"\nevery shape stays under {args.limit}x per doubling")


if __name__ == "__main__":
    main()
