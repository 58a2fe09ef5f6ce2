//! The values Atom 1.0 and RSS 2.0 constrain: language tags, e-mail
//! addresses, identifiers, URLs, media types, lengths and sizes. Each rule
//! reads the few elements that carry its values.

use std::ops::Range;

use super::rss::{rss_channel, rss_children};
use super::{rule, Checker, Rule};
use crate::base::syntax;
use crate::feed::{start_tag, AtomName, BaseKind, DocKind, FeedDoc, LinkValue, Text, XML_NS};
use crate::findings::diagnostic::shorten;
use crate::text::iri;
use crate::xml::Node;

/// One finding of a value rule: where, what, how to fix it.
struct Bad {
    at: Range<usize>,
    message: String,
    help: String,
}

fn report_all(cx: &mut Checker, findings: Vec<Bad>, label: &str, note: &str) {
    for Bad { at, message, help } in findings {
        cx.report(
            Checker::at(at, message)
                .label(label.to_owned())
                .note(note.to_owned())
                .help(help),
        );
    }
}

/// The Atom values other than links that RFC 4287 makes IRI references
/// (`atom:icon`, `atom:logo`, a person's `atom:uri`, `atom:generator`'s
/// `uri`, `atom:category`'s `scheme`, `atom:content`'s `src`) that are not
/// ones: what each is called, its value, where it is written, and why.
pub(super) fn invalid_atom_iri_values<'a>(
    feed: &FeedDoc<'a, '_>,
) -> Vec<(&'static str, &'a str, Range<usize>, iri::IriError)> {
    let names = feed.atom_names;
    let mut invalid = Vec::new();
    let mut check = |what: &'static str, value: &'a str, at: Range<usize>| {
        if let Err(error) = iri::check_iri_reference(value) {
            invalid.push((what, value, at, error));
        }
    };
    let parts = feed.atom_parts();
    for value in parts.values.iter() {
        match names.which(value, &[AtomName::Icon, AtomName::Logo]) {
            Some(name) => {
                let text = Text::of(value);
                let what = if name == AtomName::Icon {
                    "atom:icon"
                } else {
                    "atom:logo"
                };
                check(what, text.value, text.range);
            }
            None => {
                if let Some(uri) = value.attribute_node("uri") {
                    check("atom:generator uri", uri.value(), uri.range_value());
                }
            }
        }
    }
    for uri in parts.person_values.iter().filter(|v| names.is(*v, AtomName::Uri)) {
        let text = Text::of(uri);
        check("atom:uri", text.value, text.range);
    }
    for category in parts.categories.iter() {
        if let Some(scheme) = category.attribute_node("scheme") {
            check("atom:category scheme", scheme.value(), scheme.range_value());
        }
    }
    for content in parts
        .remarkable_texts
        .iter()
        .filter(|t| names.is(*t, AtomName::Content))
    {
        if let Some(src) = content.attribute_node("src") {
            check("atom:content src", src.value(), src.range_value());
        }
    }
    invalid
}

fn rss_items<'a, 'i, 'd>(feed: &'d FeedDoc<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> + 'd {
    feed.entries
        .iter()
        .filter(|_| feed.kind == DocKind::Rss)
        .map(|item| item.node)
}

pub static INVALID_LANGUAGE_TAG: Rule = rule!(
    InvalidLanguageTag, Error, Doc, Some(invalid_language_tag),
    groups: [AtomCore, RssCore],
    summary: "an xml:lang, an atom:link hreflang or an RSS language is not a BCP 47 language tag",
    spec: "XML 1.0 §2.12; RFC 4287 §4.2.7.4; RSS 2.0 <language>; RFC 5646 §2.1",
);

fn invalid_language_tag(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    let mut check = |at: Range<usize>, what: &str, value: &str| {
        if let Some(why) = syntax::language_tag_error(value) {
            let help = if value.contains('_') {
                format!("write {what} \"{}\"", value.replace('_', "-"))
            } else {
                "write a language tag such as \"en\", \"en-US\" or \"zh-Hant\"".to_owned()
            };
            findings.push(Bad {
                at,
                message: format!("{what} \"{}\" is not a language tag: {why}", shorten(value)),
                help,
            });
        }
    };
    // An empty xml:lang says the language is unknown (XML 1.0 §2.12).
    for attribute in feed.xml.attributes_named(Some(XML_NS), "lang") {
        if !attribute.value().is_empty() {
            check(attribute.range_value(), "xml:lang", attribute.value());
        }
    }
    for (_, attribute) in feed
        .everywhere
        .link_values()
        .filter(|(kind, _)| *kind == LinkValue::Hreflang)
    {
        check(attribute.range_value(), "hreflang", attribute.value());
    }
    if let Some(channel) = rss_channel(feed) {
        for language in rss_children(channel, "language") {
            let text = Text::of(language);
            check(text.range, "<language>", text.value);
        }
    }
    report_all(
        cx,
        findings,
        "not a language tag",
        "XML 1.0 §2.12: xml:lang values are language identifiers as defined by BCP 47; RFC 4287 §4.2.7.4: hreflang's \"content MUST be a language tag\"; RSS 2.0's <language> takes the W3C's language codes (RFC 5646 §2.1 gives their syntax)",
    );
}

pub static ATOM_INVALID_EMAIL: Rule = rule!(
    AtomInvalidEmail, Error, Doc, Some(atom_invalid_email),
    groups: [AtomCore],
    summary: "a person's atom:email is not an e-mail address (RFC 2822 addr-spec)",
    spec: "RFC 4287 §3.2.3",
);

fn atom_invalid_email(cx: &mut Checker) {
    let feed = cx.feed;
    let names = feed.atom_names;
    let mut findings = Vec::new();
    for email in feed
        .atom_parts()
        .person_values
        .iter()
        .filter(|v| names.is(*v, AtomName::Email))
    {
        let text = Text::of(email);
        if let Some(why) = syntax::addr_spec_error(text.value) {
            let help = match (text.value.find('<'), text.value.rfind('>')) {
                (Some(open), Some(close)) if open < close => format!(
                    "write the address alone, <email>{}</email>, and the name in atom:name",
                    shorten(text.value.get(open + 1..close).unwrap_or_default())
                ),
                _ => "write the address alone, e.g. <email>jane@example.org</email>".to_owned(),
            };
            findings.push(Bad {
                at: text.range,
                message: format!("atom:email \"{}\" is not an e-mail address: {why}", shorten(text.value)),
                help,
            });
        }
    }
    report_all(
        cx,
        findings,
        "not an address",
        "RFC 4287 §3.2.3: the content of atom:email \"MUST conform to the \\\"addr-spec\\\" production in [RFC2822]\": local@domain, without a name or mailto:",
    );
}

pub static RSS_INVALID_EMAIL: Rule = rule!(
    RssInvalidEmail, Error, Doc, Some(rss_invalid_email),
    groups: [RssCore],
    summary: "an RSS managingEditor, webMaster or item author is not an e-mail address",
    spec: "RSS 2.0, Optional channel elements, Elements of <item>",
);

/// What is wrong with an RSS contact that is not `address` or
/// `address (Name)`, said in terms of what is there: the message's end and
/// the help.
fn rss_contact_error(value: &str) -> Option<(String, String)> {
    const FORM: &str = "write the address, optionally followed by the name in parentheses: jane@example.org (Jane Doe)";
    if value.is_empty() {
        return Some((
            "it is empty".to_owned(),
            "write the address, or remove the element".to_owned(),
        ));
    }
    let shown = shorten(value);
    // A name and an address the other way round: "Jane Doe <jane@example.org>".
    if let (Some(open), Some(close)) = (value.find('<'), value.rfind('>')) {
        let name = value.get(..open).unwrap_or_default().trim().trim_matches('"');
        let address = value.get(open + 1..close).unwrap_or_default().trim();
        if open < close && syntax::addr_spec_error(address).is_none() {
            let rewritten = if name.is_empty() {
                address.to_owned()
            } else {
                format!("{address} ({name})")
            };
            return Some((
                format!("`{shown}` is written as in a mail header; RSS writes the address first"),
                format!("write {}", shorten(&rewritten)),
            ));
        }
    }
    if let Some(address) = value
        .strip_prefix("mailto:")
        .filter(|a| syntax::addr_spec_error(a.trim()).is_none())
    {
        return Some((
            format!("`{shown}` is a mailto: URI, not an address"),
            format!("write {}", shorten(address.trim())),
        ));
    }
    if !value.contains('@') && !value.is_empty() && !value.starts_with("mailto:") {
        let help = "write the address with the name in parentheses, jane@example.org (Jane Doe); for a name alone, use dc:creator (xmlns:dc=\"http://purl.org/dc/elements/1.1/\")";
        let what = if value.contains("://") || value.starts_with("www.") {
            format!("`{shown}` is a web address, not an e-mail address")
        } else {
            format!("`{shown}` is a name, not an address")
        };
        return Some((what, help.to_owned()));
    }
    let address = match value
        .find(|c: char| c.is_whitespace())
        .and_then(|space| value.split_at_checked(space))
    {
        Some((address, name)) => {
            let name = name.trim_start();
            if !(name.starts_with('(') && name.ends_with(')')) {
                return Some((
                    format!(
                        "after the address `{}` comes `{}`, and only a name in parentheses may follow",
                        shorten(address),
                        shorten(name)
                    ),
                    FORM.to_owned(),
                ));
            }
            address
        }
        None => value,
    };
    let why = syntax::addr_spec_error(address)?;
    Some((format!("`{shown}` is not an e-mail address: {why}"), FORM.to_owned()))
}

fn rss_invalid_email(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else { return };
    let contacts = rss_children(channel, "managingEditor")
        .chain(rss_children(channel, "webMaster"))
        .chain(rss_items(feed).flat_map(|item| rss_children(item, "author")));
    let mut findings = Vec::new();
    // A contact that holds elements is rss-element-in-text's, at its cause.
    for contact in contacts.filter(|contact| !contact.children().any(|child| child.is_element())) {
        let text = Text::of(contact);
        if let Some((what, help)) = rss_contact_error(text.value) {
            let name = contact.tag_name().name();
            findings.push(Bad {
                at: text.range,
                message: format!("<{name}>: {what}"),
                help,
            });
        }
    }
    report_all(
        cx,
        findings,
        "not an address",
        "RSS 2.0: managingEditor, webMaster and an item's author are the \"email address\" of a person, e.g. \"geo@herald.com (George Matesky)\"; readers that mail or show it cannot use anything else",
    );
}

pub static ATOM_INVALID_ID: Rule = rule!(
    AtomInvalidId, Error, Doc, Some(atom_invalid_id),
    groups: [AtomCore],
    summary: "an atom:id is not an absolute IRI",
    spec: "RFC 4287 §4.2.6",
);

fn atom_invalid_id(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for id in feed.everywhere.remarkable_atom_ids() {
        // The common case, a valid id, is decided without locating it.
        let value = id.text().unwrap_or_default().trim();
        if iri::has_scheme(value) && iri::check_iri_reference(value).is_ok() {
            continue;
        }
        let text = Text::of(id);
        let why = match iri::check_iri_reference(text.value) {
            Err(error) => error.message,
            Ok(()) if text.value.is_empty() => "it is empty".to_owned(),
            Ok(()) if !iri::has_scheme(text.value) => "it is relative: it has no scheme".to_owned(),
            Ok(()) => continue,
        };
        let help = if text.value.contains("${") || text.value.contains("{{") {
            "this looks like a template placeholder that was never filled in: fix the template so the real id is written"
        } else {
            "use a permanent absolute IRI, such as tag:example.org,2024:post-1 or urn:uuid:..., and never change it"
        };
        findings.push(Bad {
            at: text.range,
            message: format!("atom:id \"{}\" is not an absolute IRI: {why}", shorten(text.value)),
            help: help.to_owned(),
        });
    }
    report_all(
        cx,
        findings,
        "not an IRI",
        "RFC 4287 §4.2.6: \"Its content MUST be an IRI, as defined by [RFC3987]\", and IRIs are absolute; consumers compare ids character by character to tell entries apart",
    );
}

pub static ATOM_ID_NOT_NORMALIZED: Rule = rule!(
    AtomIdNotNormalized, Warning, Doc, Some(atom_id_not_normalized),
    groups: [AtomCore],
    summary: "an atom:id is not written the normalized way RFC 4287 §4.2.6.1 asks for",
    spec: "RFC 4287 §4.2.6.1",
);

fn atom_id_not_normalized(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for id in feed.everywhere.remarkable_atom_ids() {
        // Normalization is decided on the text; only a finding locates it.
        let value = id.text().unwrap_or_default().trim();
        if !iri::has_scheme(value) {
            continue;
        }
        let Some((why, normalized)) = iri::id_normalization(value) else {
            continue;
        };
        let text = Text::of(id);
        if iri::check_iri_reference(text.value).is_ok() {
            findings.push(Bad {
                at: text.range,
                message: format!("atom:id \"{}\" is not normalized: {why}", shorten(text.value)),
                help: format!("write {}", shorten(&normalized)),
            });
        }
    }
    report_all(
        cx,
        findings,
        "not normalized",
        "RFC 4287 §4.2.6.1: atom:id is compared character by character, so the normalization strategy of §4.2.6.1 SHOULD be applied when ids are made (lowercase scheme and host, uppercase percent-encoding only where needed, no dot-segments, no default port, \"/\" for an empty path); another copy written the other way is another entry",
    );
}

pub static RSS_INVALID_URL: Rule = rule!(
    RssInvalidUrl, Error, Doc, Some(rss_invalid_url),
    groups: [RssCore],
    summary: "an RSS element or attribute that holds a URL holds something else, or a relative reference",
    spec: "RSS 2.0, Required and optional channel elements, Elements of <item>",
);

/// The RSS elements whose text is a URL, by their parent.
const RSS_URL_ELEMENTS: [(&str, &str); 7] = [
    ("channel", "link"),
    ("channel", "docs"),
    ("image", "url"),
    ("image", "link"),
    ("textInput", "link"),
    ("item", "link"),
    ("item", "comments"),
];

/// Why a value on `node` is not an absolute URL, if it is not. A relative
/// reference under an `xml:base` that resolves is one: XML Base applies to
/// any XML, and readers that honour it in RSS resolve against it.
fn absolute_url_error<'a, 'i>(feed: &FeedDoc<'a, 'i>, node: Node<'a, 'i>, value: &str) -> Option<String> {
    match iri::check_iri_reference(value) {
        Err(error) => Some(error.message),
        Ok(()) if value.is_empty() => Some("it is empty".to_owned()),
        Ok(()) if iri::has_scheme(value) => None,
        Ok(())
            if node.ancestors().any(|a| a.has_xml_base())
                && matches!(
                    feed.base_kind(node),
                    BaseKind::Hierarchical { .. } | BaseKind::Opaque(_)
                ) =>
        {
            None
        }
        Ok(()) => Some("it is relative, and no xml:base gives a base to resolve it against".to_owned()),
    }
}

fn rss_invalid_url(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else { return };
    let parents = std::iter::once(channel)
        .chain(rss_children(channel, "image"))
        .chain(rss_children(channel, "textInput"))
        .chain(rss_items(feed));
    let mut findings = Vec::new();
    for parent in parents {
        let parent_name = parent.tag_name().name();
        for child in parent
            .children()
            .filter(|c| c.is_element() && c.tag_name().namespace().is_none())
        {
            let name = child.tag_name().name();
            if !RSS_URL_ELEMENTS.contains(&(parent_name, name)) {
                let attribute = match name {
                    "enclosure" | "source" if parent_name == "item" => child.attribute_node("url"),
                    _ => None,
                };
                if let Some(attribute) = attribute {
                    if let Some(why) = absolute_url_error(feed, child, attribute.value()) {
                        findings.push(Bad {
                            at: attribute.range_value(),
                            message: format!(
                                "the url of <{name}>, \"{}\", is not a URL: {why}",
                                shorten(attribute.value())
                            ),
                            help: "write the full URL, e.g. https://example.org/episode-1.mp3".to_owned(),
                        });
                    }
                }
                continue;
            }
            let text = Text::of(child);
            if let Some(why) = absolute_url_error(feed, child, text.value) {
                findings.push(Bad {
                    at: text.range,
                    message: format!("<{name}> \"{}\" is not a URL: {why}", shorten(text.value)),
                    help: "write the full URL, with its scheme, e.g. https://example.org/posts/1".to_owned(),
                });
            } else if parent_name == "channel" && name == "link" && !text.value.is_ascii() {
                // The channel's link, "the URL to the HTML website", is
                // where readers send people and what directories key
                // channels by: a URI (RFC 3986), ASCII only, as the
                // feedvalidator checks it. An IRI is its percent-encoded
                // form in a URL.
                let encoded = url::Url::parse(text.value).map(String::from).ok();
                findings.push(Bad {
                    at: text.range,
                    message: format!(
                        "<{name}> \"{}\" is an IRI with characters outside ASCII, not a URL",
                        shorten(text.value)
                    ),
                    help: match encoded {
                        Some(encoded) => format!("write it percent-encoded: <{name}>{}</{name}>", shorten(&encoded)),
                        None => "percent-encode the characters outside ASCII (RFC 3987 §3.1)".to_owned(),
                    },
                });
            }
        }
    }
    report_all(
        cx,
        findings,
        "not a URL",
        "RSS 2.0 defines link, docs, comments, image url and link, textInput link, and the url of enclosure and source as URLs, and no base for relative references: without an xml:base, readers resolve them differently or not at all",
    );
}

pub static ATOM_DUPLICATE_ALTERNATE: Rule = rule!(
    AtomDuplicateAlternate, Error, Doc, Some(atom_duplicate_alternate),
    groups: [AtomCore],
    summary: "two alternate links of one feed or entry with the same type and hreflang",
    spec: "RFC 4287 §4.1.1, §4.1.2",
);

fn atom_duplicate_alternate(cx: &mut Checker) {
    let feed = cx.feed;
    if !feed.kind.is_atom() {
        return;
    }
    // An Entry Document has no head: its entry is its root.
    let head_id = feed.head.map(|head| head.id());
    let names = feed.atom_names;
    let mut findings = Vec::new();
    // The alternate links come in document order: an entry's all together
    // (those of its source aside), the feed's before and after the entries.
    // Nearly every container has one at most, and then their containers,
    // in document order, only ever come later: nothing needs comparing.
    let mut alternates = Vec::with_capacity(feed.everywhere.atom_links.len());
    alternates.extend(feed.everywhere.links().filter(|l| l.alternate).map(|l| l.node));
    let container_ids = alternates.iter().map(|l| l.parent().map(|p| p.id()));
    if container_ids.clone().zip(container_ids.skip(1)).all(|(a, b)| a < b) {
        return;
    }
    let (mut in_head, mut in_entry, mut in_source) =
        (Alternates::default(), Alternates::default(), Alternates::default());
    let (mut entry_now, mut source_now) = (None, None);
    let is_entry = |node: Node| {
        names.is(node, AtomName::Entry)
            && (head_id.is_some() && node.parent_element().map(|p| p.id()) == head_id || node.id() == feed.root.id())
    };
    for link in alternates {
        let Some(container) = link.parent_element() else {
            continue;
        };
        let seen = if Some(container.id()) == head_id {
            &mut in_head
        } else if is_entry(container) {
            if entry_now != Some(container.id()) {
                entry_now = Some(container.id());
                in_entry = Alternates::default();
            }
            &mut in_entry
        } else if names.is(container, AtomName::Source) && container.parent_element().is_some_and(is_entry) {
            // A source holds its feed's metadata, under the feed's rules
            // (RFC 4287 §4.2.11); its links come together, but between its
            // entry's.
            if source_now != Some(container.id()) {
                source_now = Some(container.id());
                in_source = Alternates::default();
            }
            &mut in_source
        } else {
            continue;
        };
        let media_type = link.attribute("type").unwrap_or_default().trim();
        let language = link.attribute("hreflang").unwrap_or_default().trim();
        if let Some(first) = seen.first_like(media_type, language, link) {
            findings.push((
                container,
                link,
                first,
                media_type.to_ascii_lowercase(),
                language.to_owned(),
            ));
        }
    }
    for (container, link, first, media_type, language) in findings {
        let what = match (media_type.is_empty(), language.is_empty()) {
            (true, true) => "neither type nor hreflang".to_owned(),
            (false, true) => format!("type \"{media_type}\" and no hreflang"),
            (true, false) => format!("hreflang \"{language}\" and no type"),
            (false, false) => format!("type \"{media_type}\" and hreflang \"{language}\""),
        };
        cx.report(
            Checker::at(start_tag(link), format!("a second alternate link in this atom:{} with {what}", container.tag_name().name()))
                .label("duplicate alternate")
                .secondary(start_tag(first), "the first")
                .note("RFC 4287 §4.1.1, §4.1.2: feeds and entries \"MUST NOT contain more than one atom:link element with a rel attribute value of \\\"alternate\\\" that has the same combination of type and hreflang attribute values\"; an atom:source holds its feed's metadata, under the same rule (§4.2.11); a reader cannot tell which one to open")
                .help("keep one, or tell them apart with type or hreflang"),
        );
    }
}

/// The alternate links of one container seen so far, by type and hreflang
/// (compared without case): a short list, as nearly every container has one
/// or two, that becomes a map past a few, so that a container with 100,000
/// alternate links is still read in linear time.
#[derive(Default)]
struct Alternates<'a, 'i> {
    few: Vec<(&'a str, &'a str, Node<'a, 'i>)>,
    many: crate::base::hash::FastMap<(String, String), Node<'a, 'i>>,
}

impl<'a, 'i> Alternates<'a, 'i> {
    const FEW: usize = 8;

    /// The first link seen with this type and hreflang; `None` (and the
    /// link remembered) if it is the first.
    fn first_like(&mut self, media_type: &'a str, language: &'a str, link: Node<'a, 'i>) -> Option<Node<'a, 'i>> {
        let same =
            |(t, l, _): &&(&str, &str, Node)| t.eq_ignore_ascii_case(media_type) && l.eq_ignore_ascii_case(language);
        if let Some((_, _, first)) = self.few.iter().find(same) {
            return Some(*first);
        }
        if self.few.len() < Self::FEW {
            self.few.push((media_type, language, link));
            return None;
        }
        let key = (media_type.to_ascii_lowercase(), language.to_ascii_lowercase());
        match self.many.entry(key) {
            std::collections::hash_map::Entry::Occupied(first) => Some(*first.get()),
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(link);
                None
            }
        }
    }
}

pub static ATOM_INVALID_LINK_ATTRIBUTE: Rule = rule!(
    AtomInvalidLinkAttribute, Error, Doc, Some(atom_invalid_link_attribute),
    groups: [AtomCore],
    summary: "an atom:link type that is not a media type, or a length that is not a number of octets",
    spec: "RFC 4287 §4.2.7.3, §4.2.7.6",
);

fn atom_invalid_link_attribute(cx: &mut Checker) {
    let feed = cx.feed;
    if !feed.kind.is_atom() {
        return;
    }
    let mut findings = Vec::new();
    for (kind, attribute) in feed.everywhere.link_values() {
        let value = attribute.value();
        match kind {
            LinkValue::Type if !syntax::is_media_type(value) => {
                let help = match value.trim() {
                    "html" => "write type=\"text/html\"".to_owned(),
                    "atom" => "write type=\"application/atom+xml\"".to_owned(),
                    "rss" => "write type=\"application/rss+xml\"".to_owned(),
                    _ => "write a media type such as \"text/html\" or \"application/atom+xml\"".to_owned(),
                };
                findings.push(Bad {
                    at: attribute.range_value(),
                    message: format!("link type \"{}\" is not a media type", shorten(value)),
                    help,
                });
            }
            LinkValue::Length if syntax::non_negative_integer(value).is_none() => findings.push(Bad {
                at: attribute.range_value(),
                message: format!("link length \"{}\" is not a number of octets", shorten(value)),
                help: "write the size in bytes as digits, e.g. length=\"24986239\", or leave length out".to_owned(),
            }),
            _ => {}
        }
    }
    report_all(
        cx,
        findings,
        "invalid attribute",
        "RFC 4287 §4.2.7.3: type's \"value MUST conform to the syntax of a MIME media type\"; §4.2.7.6: length is \"an advisory length of the linked content in octets\"",
    );
}

pub static ATOM_CONTENT_NOT_BASE64: Rule = rule!(
    AtomContentNotBase64, Error, Doc, Some(atom_content_not_base64),
    groups: [AtomCore],
    summary: "inline atom:content of a media type that is neither XML nor text is not Base64",
    spec: "RFC 4287 §4.1.3.3",
);

fn atom_content_not_base64(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    let contents = feed
        .atom_parts()
        .remarkable_texts
        .iter()
        .filter(|c| feed.atom_names.is(*c, AtomName::Content));
    for content in contents {
        let Some(media_type) = content.attribute("type") else {
            continue;
        };
        // A composite type is atom-invalid-type's.
        if !syntax::is_media_type(media_type)
            || syntax::is_composite_media_type(media_type)
            || syntax::is_xml_or_text_media_type(media_type)
            || content.has_attribute("src")
        {
            continue;
        }
        let mut text = String::new();
        let mut elements = false;
        for child in content.children() {
            if child.is_element() {
                elements = true;
            } else if let Some(t) = child.text().filter(|_| child.is_text()) {
                text.push_str(t);
            }
        }
        let why = if elements {
            Some("it holds elements")
        } else {
            syntax::base64_error(&text)
        };
        if let Some(why) = why {
            findings.push(Bad {
                at: start_tag(content),
                message: format!("this atom:content is {}, but not Base64: {why}", shorten(media_type)),
                help: "Base64-encode the content (RFC 4648), or give it by reference with src=\"...\"".to_owned(),
            });
        }
    }
    report_all(
        cx,
        findings,
        "not Base64",
        "RFC 4287 §4.1.3.3: \"Otherwise, the content of atom:content MUST be a valid Base64 encoding, as described in [RFC3548], section 3\", for any media type that is not XML and does not start with text/",
    );
}

pub static RSS_INVALID_ENCLOSURE: Rule = rule!(
    RssInvalidEnclosure, Error, Doc, Some(rss_invalid_enclosure),
    groups: [RssCore],
    summary: "an RSS enclosure's length is not a number of bytes, or its type not a media type",
    spec: "RSS 2.0, <enclosure> sub-element of <item>",
);

fn rss_invalid_enclosure(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for enclosure in rss_items(feed).flat_map(|item| rss_children(item, "enclosure")) {
        if let Some(length) = enclosure
            .attribute_node("length")
            .filter(|l| syntax::non_negative_integer(l.value()).is_none())
        {
            findings.push(Bad {
                at: length.range_value(),
                message: format!(
                    "enclosure length \"{}\" is not a number of bytes",
                    shorten(length.value())
                ),
                help: "write the size in bytes as digits, e.g. length=\"24986239\" (0 when unknown)".to_owned(),
            });
        }
        if let Some(media_type) = enclosure
            .attribute_node("type")
            .filter(|t| !syntax::is_media_type(t.value()))
        {
            findings.push(Bad {
                at: media_type.range_value(),
                message: format!("enclosure type \"{}\" is not a media type", shorten(media_type.value())),
                help: "write a MIME type such as \"audio/mpeg\"".to_owned(),
            });
        }
    }
    report_all(
        cx,
        findings,
        "invalid enclosure",
        "RSS 2.0: \"length says how big it is in bytes, and type says what its type is, a standard MIME type\"; podcast clients size downloads and pick players by them",
    );
}

pub static RSS_INVALID_IMAGE: Rule = rule!(
    RssInvalidImage, Error, Doc, Some(rss_invalid_image),
    groups: [RssCore],
    summary: "an RSS image's width or height is not a number of pixels within 144 and 400",
    spec: "RSS 2.0, <image> sub-element of <channel>",
);

fn rss_invalid_image(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else { return };
    let mut findings = Vec::new();
    for image in rss_children(channel, "image") {
        for (dimension, maximum) in [("width", 144), ("height", 400)] {
            for element in rss_children(image, dimension) {
                let text = Text::of(element);
                let valid = syntax::non_negative_integer(text.value).is_some_and(|n| (1..=maximum).contains(&n));
                if !valid {
                    findings.push(Bad {
                        at: text.range,
                        message: format!(
                            "image {dimension} \"{}\" is not a number of pixels from 1 to {maximum}",
                            shorten(text.value)
                        ),
                        help: format!("write the {dimension} in pixels, at most {maximum}, or leave it out"),
                    });
                }
            }
        }
    }
    report_all(
        cx,
        findings,
        "invalid size",
        "RSS 2.0: \"Maximum value for width is 144, default value is 88. Maximum value for height is 400, default value is 31.\"",
    );
}

pub static RSS_INVALID_CLOUD: Rule = rule!(
    RssInvalidCloud, Error, Doc, Some(rss_invalid_cloud),
    groups: [RssCore],
    summary: "an RSS cloud's port is not a TCP port, or its protocol is not xml-rpc, soap or http-post",
    spec: "RSS 2.0, <cloud> sub-element of <channel>",
);

fn rss_invalid_cloud(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else { return };
    let mut findings = Vec::new();
    for cloud in rss_children(channel, "cloud") {
        if let Some(port) = cloud
            .attribute_node("port")
            .filter(|p| !syntax::non_negative_integer(p.value()).is_some_and(|n| (1..=65535).contains(&n)))
        {
            findings.push(Bad {
                at: port.range_value(),
                message: format!(
                    "cloud port \"{}\" is not a TCP port from 1 to 65535",
                    shorten(port.value())
                ),
                help: "write the port number, e.g. port=\"80\"".to_owned(),
            });
        }
        if let Some(protocol) = cloud
            .attribute_node("protocol")
            .filter(|p| !matches!(p.value(), "xml-rpc" | "soap" | "http-post"))
        {
            findings.push(Bad {
                at: protocol.range_value(),
                message: format!(
                    "cloud protocol \"{}\" is none of xml-rpc, soap and http-post",
                    shorten(protocol.value())
                ),
                help: "write protocol=\"xml-rpc\", \"soap\" or \"http-post\"".to_owned(),
            });
        }
    }
    report_all(
        cx,
        findings,
        "invalid cloud",
        "RSS 2.0, <cloud>: the notification service is called on domain, port and path with registerProcedure over protocol, which is \"xml-rpc\", \"soap\" or \"http-post\"",
    );
}

pub static ATOM_VALUE_WHITESPACE: Rule = rule!(
    AtomValueWhitespace, Error, Doc, Some(atom_value_whitespace),
    groups: [AtomCore],
    summary: "an atom:id, atom:icon, atom:logo, atom:uri, atom:updated or atom:published has white space around its value",
    spec: "RFC 4287 §3.3, §4.2.5, §4.2.6, §4.2.8, §3.2.2; RFC 3987 §2.2; RFC 3339 §5.6",
);

/// XML's white space (XML 1.0 §2.3, production S).
fn is_xml_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn atom_value_whitespace(cx: &mut Checker) {
    let feed = cx.feed;
    let names = feed.atom_names;
    let parts = feed.atom_parts();
    let valued = feed
        .everywhere
        .atom_ids
        .iter()
        .chain(feed.everywhere.atom_dates.iter())
        .chain(
            parts
                .values
                .iter()
                .filter(|v| names.which(*v, &[AtomName::Icon, AtomName::Logo]).is_some()),
        )
        .chain(parts.person_values.iter().filter(|v| names.is(*v, AtomName::Uri)));
    let input = feed.xml.input_text();
    let mut findings = Vec::new();
    for node in valued {
        // The common case, no white space, is decided on the text alone.
        let Some(text) = node.text() else { continue };
        let bytes = text.as_bytes();
        let (lead, trail) = (
            bytes.iter().take_while(|b| is_xml_space(**b)).count(),
            bytes.iter().rev().take_while(|b| is_xml_space(**b)).count(),
        );
        if (lead == 0 && trail == 0) || lead == bytes.len() {
            continue;
        }
        let Some(child) = node.first_child() else { continue };
        findings.push((node, child.range(), lead > 0, trail > 0));
    }
    for (node, raw, leading, trailing) in findings {
        let name = node.tag_name().name();
        let written = input.get(raw.clone()).unwrap_or_default();
        let value = written.trim_matches(|c: char| c.is_ascii() && is_xml_space(c as u8));
        let where_ = match (leading, trailing) {
            (true, true) => "before and after",
            (true, false) => "before",
            _ => "after",
        };
        let grammar = if matches!(name, "updated" | "published") {
            "an RFC 3339 date-time, whose grammar has no white space (RFC 4287 §3.3)"
        } else {
            "an IRI, whose grammar has no white space (RFC 3987 §2.2)"
        };
        let mut finding = Checker::at(raw.clone(), format!("atom:{name} has white space {where_} its value \"{}\"", shorten(value)))
            .label("white space is part of the value")
            .note(format!("RFC 4287: the content of atom:{name} MUST be {grammar}; consumers that compare values exactly see another one"))
            .help(format!("write <{}>{}</{}>", node.tag_name().name(), shorten(value), node.tag_name().name()));
        // The white space written plainly is removed; text whose white
        // space is written as references is left to the author.
        let (lead, trail) = (
            written.len() - written.trim_start().len(),
            written.len() - written.trim_end().len(),
        );
        if lead + trail > 0 && written.trim() == value {
            let mut edits = Vec::new();
            if lead > 0 {
                edits.push(crate::findings::fix::replace(raw.start..raw.start + lead, ""));
            }
            if trail > 0 {
                edits.push(crate::findings::fix::replace(raw.end - trail..raw.end, ""));
            }
            finding = finding.fix(crate::findings::fix::Fix::safe(
                "Remove the white space around the value",
                edits,
            ));
        }
        cx.report(finding);
    }
}

pub static RSS_INVALID_TEXT_INPUT_NAME: Rule = rule!(
    RssInvalidTextInputName, Error, Doc, Some(rss_invalid_text_input_name),
    groups: [RssCore],
    summary: "an RSS textInput's name is not a form control name (a letter, then letters, digits, '-', '_', ':' or '.')",
    spec: "RSS 2.0, <textInput> sub-element of <channel>; HTML 4.01 §6.2",
);

/// Whether `name` is an HTML NAME token: what the reader's form submits
/// the text under (HTML 4.01 §6.2).
fn is_name_token(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.'))
}

fn rss_invalid_text_input_name(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else { return };
    let bad: Vec<Text> = rss_children(channel, "textInput")
        .flat_map(|text_input| rss_children(text_input, "name"))
        .map(Text::of)
        .filter(|name| !is_name_token(name.value))
        .collect();
    for name in bad {
        let suggestion: String = name
            .value
            .chars()
            .filter_map(|c| match c {
                c if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.') => Some(c),
                c if c.is_whitespace() => Some('_'),
                _ => None,
            })
            .collect();
        let suggestion = suggestion.trim_start_matches(|c: char| !c.is_ascii_alphabetic());
        let help = if suggestion.is_empty() {
            "write a name such as q or query".to_owned()
        } else {
            format!("write <name>{}</name>", shorten(suggestion))
        };
        cx.report(
            Checker::at(name.range, format!("textInput name \"{}\" is not a form control name", shorten(name.value)))
                .label("not a name")
                .note("RSS 2.0: name is \"the name of the text object in the text input area\", the name the reader's form submits the text under to the textInput's link; HTML 4.01 §6.2: a name starts with a letter and holds letters, digits, '-', '_', ':' and '.'")
                .help(help),
        );
    }
}
