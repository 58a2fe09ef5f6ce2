//! The values Atom 1.0 and RSS 2.0 constrain: language tags, e-mail
//! addresses, identifiers, URLs, media types, lengths and sizes. Each rule
//! reads the few elements that carry its values.

use std::ops::Range;

use crate::base::syntax;
use crate::feed::{start_tag, AtomName, FeedDoc, LinkValue, Text, XML_NS};
use crate::findings::diagnostic::shorten;
use crate::rules::shared::{report_all, Bad};
use crate::rules::shared::{rss_channel, rss_children};
use crate::rules::{rule, Checker, Rule};
use crate::text::iri;
use crate::xml::Node;

/// The Atom values other than links that RFC 4287 makes IRI references
/// (`atom:icon`, `atom:logo`, a person's `atom:uri`, `atom:generator`'s
/// `uri`, `atom:category`'s `scheme`, `atom:content`'s `src`) that are not
/// ones: what each is called, its value, where it is written, and why.
pub(crate) fn invalid_atom_iri_values<'a>(
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
