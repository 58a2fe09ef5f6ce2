//! `atom:link` targets, `xml:base` and IRI references (RFC 4287 §4.2.7,
//! RFC 3987, XML Base, RFC 5005 §1.2).

use std::ops::Range;

use crate::feed::{is_atom_link, start_tag, BaseKind, IriAttribute, XML_NS};
use crate::findings::diagnostic::shorten;
use crate::findings::remedy::{Remedy, Wording};
use crate::rules::{rule, Checker, Rule};
use crate::text::iri;

pub static LINK_MISSING_HREF: Rule = rule!(
    LinkMissingHref, Error, Doc, Some(link_missing_href),
    groups: [AtomCore],
    summary: "an atom:link has no href",
    spec: "RFC 4287 §4.2.7.1",
);

fn link_missing_href(cx: &mut Checker) {
    let feed = cx.feed;
    let links: Vec<_> = feed
        .everywhere
        .links()
        .filter(|l| l.href.is_none())
        .map(|l| l.node)
        .collect();
    for node in links {
        let finding = match crate::rules::misspelt_attribute(node, "href") {
            Some(misspelt) => Checker::at(
                misspelt.range(),
                format!("this link has no href attribute, but a {}", shorten(misspelt.name())),
            )
            .label("meant href?")
            .help("write href: attribute names are exact and case-sensitive")
            .fix_if(crate::rules::rename_attribute(feed, misspelt, "href")),
            None => Checker::at(start_tag(node), "this link has no href attribute")
                .label("no href")
                .help("add href=\"...\" with the link's target, or remove the link"),
        };
        cx.report(finding.note("RFC 4287 §4.2.7.1: atom:link elements MUST have an href attribute"));
    }
}

pub static INVALID_LINK_RELATION: Rule = rule!(
    InvalidLinkRelation, Error, Doc, Some(invalid_link_relation),
    groups: [AtomCore],
    summary: "an atom:link's rel is empty, padded with whitespace, a list, or neither a name nor an IRI",
    spec: "RFC 4287 §4.2.7.2",
);

fn invalid_link_relation(cx: &mut Checker) {
    let feed = cx.feed;
    for rel in feed.everywhere.links().filter_map(|l| l.rel) {
        let value = rel.value();
        let Err(error) = iri::check_link_relation(value) else {
            continue;
        };
        let trimmed = value.trim();
        let mut finding = Checker::at(
            rel.range_value(),
            format!("rel=\"{}\" is not a link relation: {}", shorten(value), error.message),
        )
        .label("invalid relation")
        .note("RFC 4287 §4.2.7.2: the value of \"rel\" MUST be a string that is non-empty and matches either the \"isegment-nz-nc\" or the \"IRI\" production in RFC 3987; consumers that compare relations exactly never read this one");
        finding = if value.is_empty() {
            finding.help("write the relation, or remove the attribute (a link without rel is an alternate link)")
        } else if trimmed.contains(|c: char| c.is_ascii_whitespace()) {
            finding.help("write one link per relation, each with the same href")
        } else if trimmed != value && iri::check_link_relation(trimmed).is_ok() {
            finding.help(format!("write rel=\"{trimmed}\""))
        } else {
            finding
                .help("write a registered relation name such as \"next\", or an absolute IRI for an extension relation")
        };
        cx.report(finding);
    }
}

pub static INVALID_IRI: Rule = rule!(
    InvalidIri, Error, Doc, Some(invalid_iri),
    groups: [AtomCore],
    summary: "a link href, xml:base, deleted-entry ref or other Atom IRI (icon, logo, uri, generator uri, category scheme, content src) is not a valid IRI reference",
    spec: "RFC 4287 §4.2.7.1; RFC 3987 §2.2",
);

fn describe(attribute: &crate::xml::Attribute) -> String {
    match attribute.namespace() {
        Some(XML_NS) => "xml:base".to_owned(),
        _ => attribute.name().to_owned(),
    }
}

/// Narrows a value's span to the offending characters when the value is
/// written literally (no entity or character references in the way).
fn narrowed(text: &str, value_range: Range<usize>, value: &str, error: &iri::IriError) -> Range<usize> {
    if text.get(value_range.clone()) == Some(value) {
        let start = value_range.start + error.offset;
        start..start + error.len
    } else {
        value_range
    }
}

fn invalid_iri(cx: &mut Checker) {
    let feed = cx.feed;
    let text = feed.xml.input_text();
    for IriAttribute { attribute, .. } in feed.everywhere.iri_attributes().filter(|a| !a.valid) {
        let value = attribute.value();
        let Err(error) = iri::check_iri_reference(value) else {
            continue;
        };
        let name = describe(&attribute);
        let placeholder = value.contains("${") || value.contains("{{");
        let at = narrowed(text, attribute.range_value(), value, &error);
        let message = format!(
            "{name}=\"{}\" is not a valid IRI reference: {}",
            shorten(value),
            error.message
        );
        let mut finding = if at == attribute.range_value() {
            Checker::at(at, message).label(format!("not a valid {name}"))
        } else {
            Checker::at(at, message)
                .label("not allowed here")
                .secondary(attribute.range_value(), format!("the {name} value"))
        };
        finding = if placeholder {
            finding
                .note("this looks like a template placeholder that was never filled in")
                .help("fix the template so the real value is written")
        } else {
            finding.help(
                "percent-encode the character (a space is \"%20\", a percent sign \"%25\"), or correct the reference",
            )
        };
        cx.report(finding);
    }
    let values = crate::rules::atom::values::invalid_atom_iri_values(feed);
    for (what, value, range, error) in values {
        let at = narrowed(text, range.clone(), value, &error);
        let message = format!(
            "{what} \"{}\" is not a valid IRI reference: {}",
            shorten(value),
            error.message
        );
        let finding = if at == range {
            Checker::at(at, message).label("not a valid IRI")
        } else {
            Checker::at(at, message)
                .label("not allowed here")
                .secondary(range, "the value")
        };
        cx.report(finding.help(
            "percent-encode the character (a space is \"%20\", a percent sign \"%25\"), or correct the reference",
        ));
    }
}

pub static UNRESOLVABLE_RELATIVE_IRI: Rule = rule!(
    UnresolvableRelativeIri, Error, Doc, Some(unresolvable_relative_iri),
    groups: [AtomCore],
    summary: "a relative href or xml:base cannot be made absolute",
    spec: "RFC 5005 §1.2; RFC 3986 §5.1; XML Base §4.2",
);

/// Why a relative reference could not be resolved against `base`, or `None`
/// when the problem is elsewhere (an `xml:base` above, reported there).
fn unresolvable_reason(base: &BaseKind, reference: &str, words: &dyn Wording) -> Option<(String, String)> {
    match base {
        BaseKind::Missing => Some((
            "there is no base URI to resolve it against: no xml:base is in scope and the document has no URL".to_owned(),
            words.remedy(Remedy::GiveDocumentUrl),
        )),
        BaseKind::Opaque(url) => Some((
            format!("the base URI in scope, \"{url}\", is not hierarchical, so a relative reference cannot be resolved against it"),
            "set xml:base to an http(s) IRI, or write an absolute IRI".to_owned(),
        )),
        // Only a network-path reference ("//host/...") brings an authority of
        // its own that can fail to parse; paths, queries and fragments always
        // join onto a hierarchical base.
        BaseKind::Hierarchical { scheme } if !base.joins(reference) => Some((
            format!("its authority does not make a {scheme}: URL"),
            "write an absolute IRI".to_owned(),
        )),
        BaseKind::Hierarchical { .. } | BaseKind::Broken { .. } => None,
    }
}

fn unresolvable_relative_iri(cx: &mut Checker) {
    let feed = cx.feed;
    // Against a hierarchical base (or a broken one, reported elsewhere) only
    // a network-path reference can fail (see `unresolvable_reason`). When
    // the document's URL and every xml:base make such bases, as they do in
    // nearly every feed, no other reference needs its base worked out.
    let joins_any_path = |base: &BaseKind| matches!(base, BaseKind::Hierarchical { .. } | BaseKind::Broken { .. });
    let only_network_paths_can_fail = joins_any_path(&BaseKind::of(&feed.document_base))
        && feed
            .everywhere
            .xml_base_carriers()
            .all(|carrier| joins_any_path(&feed.base_kind(carrier)));
    for IriAttribute {
        node,
        attribute,
        is_base,
        ..
    } in feed.everywhere.iri_attributes().filter(|a| a.valid)
    {
        let value = attribute.value();
        if only_network_paths_can_fail && !value.starts_with("//") {
            continue;
        }
        if !(is_base || is_atom_link(node)) || iri::has_scheme(value) {
            continue;
        }
        // An xml:base is resolved against the base of its parent; an href
        // against the base of its own element.
        let base = match (is_base, node.parent_element()) {
            (true, Some(parent)) => feed.base_kind(parent),
            (true, None) => BaseKind::of(&feed.document_base),
            (false, _) => feed.base_kind(node),
        };
        let Some((reason, help)) = unresolvable_reason(&base, value, cx.words) else {
            continue;
        };
        let name = describe(&attribute);
        cx.report(
            Checker::at(
                attribute.range_value(),
                format!(
                    "relative {name} \"{}\" cannot be made absolute: {reason}",
                    shorten(value)
                ),
            )
            .label("relative reference")
            .note("RFC 5005 §1.2: relative references in links must be absolutised as RFC 3986 §5.1 describes")
            .help(help),
        );
    }
}
