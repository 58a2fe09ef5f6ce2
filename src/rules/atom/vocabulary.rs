//! Which elements stand where: Atom's and RSS's own elements only where
//! their specification puts them, and no elements inside text. Extensions
//! (elements in any other namespace) are never reported.

use crate::feed::{start_tag, AtomName, DocKind, FeedDoc, ATOM_ATTRIBUTES};
use crate::findings::diagnostic::shorten;
use crate::rules::{rule, Checker, Rule};
use crate::xml::Node;

pub static ATOM_UNDEFINED_ELEMENT: Rule = rule!(
    AtomUndefinedElement, Warning, Doc, Some(atom_undefined_element),
    groups: [AtomCore],
    summary: "an element in the Atom namespace where RFC 4287 defines none of that name",
    spec: "RFC 4287 §4.1.1, §4.1.2, §4.2.11, §3.2; §6.2, §6.3",
);

/// A warning, not an error: RFC 4287 §6.2 counts unrecognized Atom markup
/// as foreign markup, which §6.3 allows wherever metadata stands (every
/// place this rule looks). Where RFC 4287 forbids elements outright (text,
/// values) they are `atom-element-in-text`'s errors.
fn atom_undefined_element(cx: &mut Checker) {
    let feed = cx.feed;
    for &(container, child) in &feed.atom_parts().undefined {
        let (parent, name) = (container.tag_name().name(), child.tag_name().name());
        let name = &*shorten(name);
        let same_but_case = AtomName::ALL
            .iter()
            .find(|a| a.local() != name && a.local().eq_ignore_ascii_case(name));
        let help = match same_but_case {
            Some(meant) => format!("write atom:{} (names are case-sensitive)", meant.local()),
            None => format!("remove it, or put it in a namespace of your own (an extension element): Atom defines no atom:{name} in atom:{parent}"),
        };
        cx.report(
            Checker::at(start_tag(child), format!("atom:{name} is not an element of atom:{parent}"))
                .label("undefined here")
                .secondary(start_tag(container), format!("in this atom:{parent}"))
                .note("RFC 4287 §6.2: unrecognized markup in the Atom namespace \"will be considered foreign markup\", which consumers skip (§6.3): whatever it was meant to say is lost")
                .help(help),
        );
    }
}

pub static ATOM_UNDEFINED_ATTRIBUTE: Rule = rule!(
    AtomUndefinedAttribute, Warning, Doc, Some(atom_undefined_attribute),
    groups: [AtomCore],
    summary: "an attribute without a namespace that RFC 4287 does not define on an Atom element (link herf=\"...\")",
    spec: "RFC 4287 §6.2, §6.3; Appendix B",
);

/// A warning: the RFC's text defines no attributes beyond these, and its
/// informative schema (Appendix B, `undefinedAttribute`) allows only ones in
/// a namespace; an unqualified one is unrecognized Atom markup, which §6.2
/// makes foreign markup that consumers skip (§6.3).
fn atom_undefined_attribute(cx: &mut Checker) {
    let feed = cx.feed;
    // Found by the one pass over the Atom elements (`gather_atom_parts`).
    for &(element, name) in &feed.atom_parts().undefined_attributes {
        let defined = name
            .and_then(|name| ATOM_ATTRIBUTES.iter().find(|(n, _)| *n == name))
            .map_or(&[][..], |(_, defined)| defined);
        report_atom_attributes(cx, element, defined);
    }
}

/// The attributes RFC 4287 requires, by element: a near miss of one that is
/// missing (`herf`) is the missing attribute's finding, not this rule's.
const ATOM_REQUIRED_ATTRIBUTES: &[(&str, &str)] = &[("link", "href"), ("category", "term")];

fn report_atom_attributes(cx: &mut Checker, element: Node, defined: &[&str]) {
    // The common case, every attribute defined or namespaced, is decided
    // without allocating.
    if element
        .attributes()
        .all(|a| a.namespace().is_some() || defined.contains(&a.name()))
    {
        return;
    }
    let name = element.tag_name().name();
    let misspelt_required = ATOM_REQUIRED_ATTRIBUTES
        .iter()
        .filter(|(e, required)| *e == name && !element.has_attribute(*required))
        .find_map(|(_, required)| crate::rules::misspelt_attribute(element, required));
    let undefined: Vec<_> = element
        .attributes()
        .filter(|a| a.namespace().is_none() && !defined.contains(&a.name()))
        .filter(|a| misspelt_required.is_none_or(|m| m.range() != a.range()))
        .collect();
    let Some(first) = undefined.first() else { return };
    let names = attribute_names(&undefined);
    let meant = defined
        .iter()
        .find(|d| crate::findings::rule_id::is_near(first.name(), d));
    let help = match meant {
        Some(meant) => format!("write {meant}"),
        None => namespace_it(first.name()),
    };
    cx.report(
        Checker::at(
            first.range(),
            format!("atom:{name} has attributes RFC 4287 does not define: {names}"),
        )
        .label("not defined")
        .note(match defined {
            [] => format!("RFC 4287 defines no attribute of atom:{name} but xml:base and xml:lang"),
            defined => format!(
                "RFC 4287 defines these attributes of atom:{name}: {}, and xml:base and xml:lang",
                defined.join(", ")
            ),
        })
        .note("RFC 4287 §6.2: unrecognized markup from the Atom vocabulary \"will be considered foreign markup\", which consumers skip (§6.3); only attributes in a namespace are extensions")
        .help(help),
    );
}

/// The names of undefined attributes as a finding lists them: the first
/// twelve (an element may carry millions).
pub(crate) fn attribute_names(undefined: &[crate::xml::Attribute]) -> String {
    let names: Vec<String> = undefined
        .iter()
        .take(12)
        .map(|a| shorten(a.name()).into_owned())
        .collect();
    names.join(", ")
}

/// The help for an attribute a vocabulary does not define: an extension
/// attribute lives in a namespace of its own.
pub(crate) fn namespace_it(attribute: &str) -> String {
    format!(
        "remove it, or put it in a namespace of your own (xmlns:my=\"https://example.org/ns\" and my:{})",
        shorten(attribute)
    )
}

pub static APP_ELEMENT_MISPLACED: Rule = rule!(
    AppElementMisplaced, Info, Doc, Some(app_element_misplaced),
    groups: [AtomCore],
    summary: "an Atom Publishing Protocol element where RFC 5023 does not put it (app:edited in a feed)",
    spec: "RFC 5023 §8.3.3, §10.2, §13.1; RFC 4287 §6.2",
);

const APP_NS: &str = "http://www.w3.org/2007/app";

/// Where RFC 5023 puts each of its elements that an Atom document may
/// carry: the parents' names, `None` for the Atom namespace.
fn app_parents(local: &str) -> Option<&'static [(Option<&'static str>, &'static str)]> {
    Some(match local {
        // §10.2, §13.1.1: children of an entry.
        "edited" | "control" => &[(Some(crate::feed::ATOM_NS), "entry")],
        // §8.3.3: a collection may head a feed or a source.
        "collection" => &[
            (Some(crate::feed::ATOM_NS), "feed"),
            (Some(crate::feed::ATOM_NS), "source"),
            (Some(APP_NS), "workspace"),
        ],
        "categories" | "accept" => &[(Some(APP_NS), "collection")],
        "draft" => &[(Some(APP_NS), "control")],
        "workspace" => &[(Some(APP_NS), "service")],
        // A Service Document's root, never inside a feed.
        "service" => &[],
        _ => return None,
    })
}

/// An info: an AtomPub element is foreign markup to RFC 4287, allowed
/// anywhere (§6.2), and RFC 5023 forbids it nowhere; out of place it only
/// means nothing to any reader.
fn app_element_misplaced(cx: &mut Checker) {
    let feed = cx.feed;
    let xml = feed.xml;
    let uses_app = (0..xml.name_count()).any(|i| xml.name_at(i).namespace() == Some(APP_NS));
    if !uses_app || feed.kind != DocKind::Atom {
        return;
    }
    let misplaced: Vec<(Node, Node)> = xml
        .descendants()
        .filter(|n| n.is_element() && n.tag_name().namespace() == Some(APP_NS))
        .filter_map(|node| {
            let parent = node.parent_element()?;
            let parents = app_parents(node.tag_name().name())?;
            let name = parent.tag_name();
            let placed = parents
                .iter()
                .any(|(ns, local)| name.namespace() == *ns && name.name() == *local);
            // Only where Atom metadata stands (a feed, an entry, a source, a
            // person) or inside AtomPub markup: in content, a text or an
            // extension, AtomPub markup is content.
            let in_atom_metadata = match name.namespace() {
                Some(crate::feed::ATOM_NS) => {
                    matches!(name.name(), "feed" | "entry" | "source" | "author" | "contributor")
                }
                Some(APP_NS) => true,
                _ => false,
            };
            (!placed && in_atom_metadata).then_some((node, parent))
        })
        .collect();
    for (node, parent) in misplaced {
        let local = node.tag_name().name();
        let belongs = match app_parents(local).unwrap_or(&[]) {
            [] => "a Service Document's root".to_owned(),
            parents => parents
                .iter()
                .map(|(_, p)| format!("<{p}>"))
                .collect::<Vec<_>>()
                .join(" or "),
        };
        cx.report(
            Checker::at(start_tag(node), format!("app:{local} stands in <{}>, but RFC 5023 puts it in {belongs}", parent.tag_name().name()))
                .label("misplaced")
                .secondary(start_tag(parent), "here")
                .note("RFC 5023 gives its elements a meaning only where it defines them (app:edited: §10.2, the last time an entry was edited; app:control: §13.1); elsewhere they are unknown foreign markup that readers skip (RFC 4287 §6.2, §6.3)")
                .help(match local {
                    "edited" => "move it into each entry it dates, or use atom:updated for the feed".to_owned(),
                    _ => format!("move it into {belongs}, or remove it"),
                }),
        );
    }
}

pub static ATOM_METADATA_AFTER_ENTRIES: Rule = rule!(
    AtomMetadataAfterEntries, Info, Doc, Some(atom_metadata_after_entries),
    groups: [AtomCore],
    summary: "an Atom feed has metadata elements after its first entry",
    spec: "RFC 4287 §4.1.1",
);

/// An info: RFC 4287 fixes no order of a feed's children; readers that
/// stream a feed have shown its entries before they read what follows.
fn atom_metadata_after_entries(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(head) = feed.head.filter(|_| feed.kind == DocKind::Atom) else {
        return;
    };
    let names = &feed.atom_names;
    let mut children = head.children().filter(|c| c.is_element());
    let Some(first_entry) = children.by_ref().find(|c| names.is(*c, AtomName::Entry)) else {
        return;
    };
    let after: Vec<Node> = children
        .filter(|c| c.tag_name().namespace() == Some(crate::feed::ATOM_NS) && !names.is(*c, AtomName::Entry))
        .collect();
    let Some(first) = after.first() else { return };
    let listed = crate::rules::elements_listed(&after, |c| format!("atom:{}", shorten(c.tag_name().name())));
    cx.report(
        Checker::at(start_tag(*first), format!("feed metadata after the entries: {listed}"))
            .label("after the entries")
            .secondary(start_tag(first_entry), "the first entry")
            .note("RFC 4287 §4.1.1 fixes no order among a feed's children, so the document is conformant; but readers that stream a feed read its title, links and update time before the entries, and some stop reading metadata at the first entry")
            .help("move the feed's metadata before its first entry"),
    );
}

pub static ATOM_ELEMENT_IN_TEXT: Rule = rule!(
    AtomElementInText, Error, Doc, Some(atom_element_in_text),
    groups: [AtomCore],
    summary: "an element inside Atom text that must be plain text or escaped HTML",
    spec: "RFC 4287 §3.1.1.1, §3.1.1.2, §4.1.3.3",
);

/// Why an element's content must be text.
#[derive(Clone, Copy)]
enum TextOnly {
    /// A text construct or atom:content of type text (or none).
    Plain,
    /// Of type html: escaped HTML.
    Html,
    /// atom:content of a `text/` media type.
    TextMediaType,
    /// An element whose content is one value: an id, a date, an IRI, a name.
    Value,
}

/// Whether a text construct's or atom:content's content must be text: of
/// type text or html, or (content) a text/ media type; not with `src`.
fn text_only(feed: &FeedDoc, element: Node) -> Option<TextOnly> {
    if element.has_attribute("src") {
        return None;
    }
    match element.attribute("type") {
        None | Some("text") => Some(TextOnly::Plain),
        Some("html") => Some(TextOnly::Html),
        Some(other)
            if feed.atom_names.is(element, AtomName::Content)
                && crate::base::syntax::is_xml_or_text_media_type(other)
                && !crate::base::syntax::is_xml_media_type(other) =>
        {
            Some(TextOnly::TextMediaType)
        }
        Some(_) => None,
    }
}

fn first_element<'a, 'i>(element: Node<'a, 'i>) -> Option<Node<'a, 'i>> {
    element.children().find(|c| c.is_element())
}

fn atom_element_in_text(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for element in feed.atom_parts().texts.iter() {
        // Nearly every text holds none: its attributes are read only when
        // it does.
        if let Some(child) = first_element(element) {
            if let Some(kind) = text_only(feed, element) {
                findings.push((element, child, kind));
            }
        }
    }
    let parts = feed.atom_parts();
    let values = feed
        .everywhere
        .atom_ids
        .iter()
        .chain(feed.everywhere.atom_dates.iter())
        .chain(parts.values.iter())
        .chain(parts.person_values.iter());
    for element in values {
        if let Some(child) = first_element(element) {
            findings.push((element, child, TextOnly::Value));
        }
    }
    for (element, child, kind) in findings {
        let (name, parent) = (child.tag_name().name(), element.tag_name().name());
        let why = match kind {
            TextOnly::Plain => format!("atom:{parent} is plain text"),
            TextOnly::Html => format!("atom:{parent} has type=\"html\": escaped HTML"),
            TextOnly::TextMediaType => format!("atom:{parent} has a text/ media type"),
            TextOnly::Value => format!("atom:{parent} holds a single value"),
        };
        let help = match kind {
            TextOnly::Value => format!("remove the <{name}> element and keep its text"),
            _ => {
                "escape the markup (&lt;b&gt;) with type=\"html\", or write type=\"xhtml\" and wrap it in an XHTML div"
                    .to_owned()
            }
        };
        let note = match kind {
            TextOnly::Value => "RFC 4287 gives these elements a single value as their content: an IRI (atom:id §4.2.6, atom:icon §4.2.5, atom:logo §4.2.8, atom:uri §3.2.2), a date (§3.3), an address (atom:email §3.2.3), a name (atom:name §3.2.1, atom:generator §4.2.4); consumers read the text and drop the element, or the value with it",
            _ => "RFC 4287 §3.1.1.1, §3.1.1.2: the content of a text or html Text construct \"MUST NOT contain child elements\" (§4.1.3.3 says the same of atom:content of type text, html or text/*); consumers drop the element, or its text with it",
        };
        cx.report(
            Checker::at(
                start_tag(child),
                format!("<{name}> stands inside text: {why}, which holds no elements"),
            )
            .label("element in text")
            .secondary(start_tag(element), "the text")
            .note(note)
            .help(help),
        );
    }
}

/// One finding for a text element holding elements: at the first, the
/// others named in a note, with what the publisher meant.
pub(crate) fn element_in_text(
    text: &str,
    holder: Node,
    first: Node,
    inside: &[Node],
) -> crate::findings::diagnostic::Pending {
    let name = holder.tag_name().name();
    let mut names: Vec<(&str, usize)> = Vec::new();
    for child in inside {
        let child = child.tag_name().name();
        match names.iter_mut().find(|(n, _)| *n == child) {
            Some((_, count)) => *count += 1,
            None => names.push((child, 1)),
        }
    }
    let listed: Vec<String> = names
        .iter()
        .take(12)
        .map(|(n, count)| match count {
            1 => format!("<{}>", shorten(n)),
            count => format!("<{}> ×{count}", shorten(n)),
        })
        .collect();
    let more = names.len().saturating_sub(12);
    let listed = match more {
        0 => listed.join(", "),
        more => format!("{} and {more} more names", listed.join(", ")),
    };
    let finding = Checker::at(
        start_tag(first),
        format!("<{name}> holds elements without a namespace ({listed}), which RSS does not define"),
    )
    .label("elements in text")
    .secondary(start_tag(holder), format!("this <{name}> holds text"))
    .note("RSS 2.0: \"A RSS feed may contain elements and attributes not described on this page, only if those elements and attributes are defined in a namespace\"; readers drop the markup, or the text with it");
    match name {
        "author" | "managingEditor" | "webMaster" => finding.help(format!(
            "<{name}> holds an email address and a name in parentheses (\"dan@example.org (Dan Manges)\"); for a name alone, use dc:creator"
        )),
        _ => {
            let std::ops::Range { start: from, end: to } = holder.content_range();
            let content = text.get(from..to).unwrap_or_default();
            let fix = (!content.contains("]]>") && from < to).then(|| {
                crate::findings::fix::Fix::safe(
                    format!("Wrap the content of <{name}> in CDATA"),
                    vec![
                        crate::findings::fix::replace(from..from, "<![CDATA["),
                        crate::findings::fix::replace(to..to, "]]>"),
                    ],
                )
            });
            finding
                .help(format!("if the markup is HTML meant for display, escape it (&lt;p&gt;) or wrap the content of <{name}> in CDATA (<![CDATA[<p>...</p>]]>)"))
                .fix_if(fix)
        }
    }
}
