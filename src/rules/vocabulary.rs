//! Which elements stand where: Atom's and RSS's own elements only where
//! their specification puts them, and no elements inside text. Extensions
//! (elements in any other namespace) are never reported.

use super::{rule, Checker, Rule};
use crate::feed::{start_tag, AtomName, DocKind, FeedDoc, ATOM_NS};
use crate::xml::Node;

/// The children RFC 4287 defines for each Atom container.
const FEED_CHILDREN: &[AtomName] = &[
    AtomName::Author,
    AtomName::Category,
    AtomName::Contributor,
    AtomName::Generator,
    AtomName::Icon,
    AtomName::Id,
    AtomName::Link,
    AtomName::Logo,
    AtomName::Rights,
    AtomName::Subtitle,
    AtomName::Title,
    AtomName::Updated,
    AtomName::Entry,
];
const ENTRY_CHILDREN: &[AtomName] = &[
    AtomName::Author,
    AtomName::Category,
    AtomName::Content,
    AtomName::Contributor,
    AtomName::Id,
    AtomName::Link,
    AtomName::Published,
    AtomName::Rights,
    AtomName::Source,
    AtomName::Summary,
    AtomName::Title,
    AtomName::Updated,
];
/// `atom:source` holds the source feed's metadata: a feed's children
/// without its entries.
const SOURCE_CHILDREN: &[AtomName] = FEED_CHILDREN.split_at(FEED_CHILDREN.len() - 1).0;
const PERSON_CHILDREN: &[AtomName] = &[AtomName::Name, AtomName::Uri, AtomName::Email];

/// Every Atom container of the document with the children it may hold.
fn atom_containers<'a, 'i>(feed: &FeedDoc<'a, 'i>) -> Vec<(Node<'a, 'i>, &'static [AtomName])> {
    let Some(head) = feed.head.filter(|_| feed.kind == DocKind::Atom) else {
        return Vec::new();
    };
    let names = feed.atom_names;
    let mut containers = vec![(head, FEED_CHILDREN)];
    for entry in feed.entries.iter().map(|e| e.node) {
        containers.push((entry, ENTRY_CHILDREN));
        containers.extend(
            entry
                .children()
                .filter(|c| names.is(*c, AtomName::Source))
                .map(|source| (source, SOURCE_CHILDREN)),
        );
    }
    containers.extend(feed.atom_parts().persons.iter().map(|person| (person, PERSON_CHILDREN)));
    containers
}

pub static ATOM_UNDEFINED_ELEMENT: Rule = rule!(
    AtomUndefinedElement, Error, Doc, Some(atom_undefined_element),
    summary: "an element in the Atom namespace where RFC 4287 defines none of that name",
    spec: "RFC 4287 §4.1.1, §4.1.2, §4.2.11, §3.2; §6.2",
);

fn atom_undefined_element(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for (container, allowed) in atom_containers(feed) {
        for child in container.children().filter(|c| c.is_element()) {
            if feed.atom_names.which(child, allowed).is_some() || child.tag_name().namespace() != Some(ATOM_NS) {
                continue;
            }
            findings.push((container, child, allowed));
        }
    }
    for (container, child, allowed) in findings {
        let (parent, name) = (container.tag_name().name(), child.tag_name().name());
        let same_but_case = allowed.iter().find(|a| a.local().eq_ignore_ascii_case(name));
        let help = match same_but_case {
            Some(meant) => format!("write atom:{} (names are case-sensitive)", meant.local()),
            None => format!("remove it, or put it in a namespace of your own (an extension element): Atom defines no atom:{name} in atom:{parent}"),
        };
        cx.report(
            Checker::at(start_tag(child), format!("atom:{name} is not an element of atom:{parent}"))
                .label("undefined here")
                .secondary(start_tag(container), format!("in this atom:{parent}"))
                .note("RFC 4287 defines the children of each Atom element; markup of other vocabularies is allowed (§6.2) only in a namespace other than Atom's, so consumers skip an undefined atom: element or reject the document")
                .help(help),
        );
    }
}

pub static ATOM_ELEMENT_IN_TEXT: Rule = rule!(
    AtomElementInText, Error, Doc, Some(atom_element_in_text),
    summary: "an element inside Atom text that must be plain text or escaped HTML",
    spec: "RFC 4287 §3.1.1.1, §3.1.1.2, §4.1.3.3",
);

/// Why `element`'s content must be text, if it must: a text construct or
/// atom:content of type text or html (or a text/ media type).
fn text_only(feed: &FeedDoc, element: Node) -> Option<String> {
    if element.has_attribute("src") {
        return None;
    }
    let name = element.tag_name().name();
    let is_content = feed.atom_names.is(element, AtomName::Content);
    match element.attribute("type") {
        None | Some("text") => Some(format!("atom:{name} is plain text")),
        Some("html") => Some(format!("atom:{name} has type=\"html\": escaped HTML")),
        Some(other)
            if is_content
                && crate::syntax::is_xml_or_text_media_type(other)
                && !crate::syntax::is_xml_media_type(other) =>
        {
            Some(format!("atom:content has type=\"{other}\", a text type"))
        }
        Some(_) => None,
    }
}

fn atom_element_in_text(cx: &mut Checker) {
    let feed = cx.feed;
    let names = feed.atom_names;
    let mut texts: Vec<(Node, String)> = Vec::new();
    for element in feed.atom_parts().texts.iter() {
        if let Some(why) = text_only(feed, element) {
            texts.push((element, why));
        }
    }
    // Elements whose content is one value: ids, dates, IRIs, names.
    let simple = feed
        .everywhere
        .atom_ids
        .iter()
        .chain(feed.everywhere.atom_dates.iter())
        .chain(atom_containers(feed).into_iter().flat_map(|(container, _)| {
            container.children().filter(move |c| {
                names
                    .which(
                        *c,
                        &[
                            AtomName::Icon,
                            AtomName::Logo,
                            AtomName::Generator,
                            AtomName::Name,
                            AtomName::Email,
                            AtomName::Uri,
                        ],
                    )
                    .is_some()
            })
        }));
    for element in simple {
        texts.push((
            element,
            format!("atom:{} holds a single value", element.tag_name().name()),
        ));
    }
    let mut findings = Vec::new();
    for (element, why) in texts {
        if let Some(child) = element.children().find(|c| c.is_element()) {
            findings.push((element, child, why));
        }
    }
    for (element, child, why) in findings {
        let name = child.tag_name().name();
        let html = text_only(feed, element).is_some() && !feed.atom_names.is(element, AtomName::Id);
        let help = if html {
            "escape the markup (&lt;b&gt;) with type=\"html\", or write type=\"xhtml\" and wrap it in an XHTML div"
                .to_owned()
        } else {
            format!("remove the <{name}> element and keep its text")
        };
        cx.report(
            Checker::at(start_tag(child), format!("<{name}> stands inside text: {why}, which holds no elements"))
                .label("element in text")
                .secondary(start_tag(element), "the text")
                .note("RFC 4287 §3.1.1.1, §3.1.1.2: the content of a text or html Text construct \"MUST NOT contain child elements\" (§4.1.3.3 says the same of atom:content of type text, html or text/*); consumers drop the element, or its text with it")
                .help(help),
        );
    }
}

pub static RSS_UNKNOWN_ELEMENT: Rule = rule!(
    RssUnknownElement, Error, Doc, Some(rss_unknown_element),
    summary: "an element without a namespace that RSS 2.0 does not define where it stands",
    spec: "RSS 2.0, Extending RSS",
);

/// The elements RSS 2.0 defines, by their parent.
const RSS_ELEMENTS: &[(&str, &[&str])] = &[
    ("rss", &["channel"]),
    (
        "channel",
        &[
            "title",
            "link",
            "description",
            "language",
            "copyright",
            "managingEditor",
            "webMaster",
            "pubDate",
            "lastBuildDate",
            "category",
            "generator",
            "docs",
            "cloud",
            "ttl",
            "image",
            "rating",
            "textInput",
            "skipHours",
            "skipDays",
            "item",
        ],
    ),
    (
        "item",
        &[
            "title",
            "link",
            "description",
            "author",
            "category",
            "comments",
            "enclosure",
            "guid",
            "pubDate",
            "source",
        ],
    ),
    ("image", &["url", "title", "link", "width", "height", "description"]),
    ("textInput", &["title", "description", "name", "link"]),
    ("skipHours", &["hour"]),
    ("skipDays", &["day"]),
];

fn rss_defined(parent: &str) -> &'static [&'static str] {
    RSS_ELEMENTS
        .iter()
        .find(|(p, _)| *p == parent)
        .map_or(&[], |(_, children)| children)
}

fn rss_unknown_element(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = feed.head.filter(|_| feed.kind == DocKind::Rss) else {
        return;
    };
    let mut parents: Vec<Node> = channel.parent_element().into_iter().collect();
    parents.push(channel);
    parents.extend(channel.children().filter(|c| {
        c.tag_name().namespace().is_none()
            && matches!(c.tag_name().name(), "image" | "textInput" | "skipHours" | "skipDays")
    }));
    parents.extend(feed.entries.iter().map(|item| item.node));
    let mut findings = Vec::new();
    for parent in parents {
        let defined = rss_defined(parent.tag_name().name());
        for child in parent
            .children()
            .filter(|c| c.is_element() && c.tag_name().namespace().is_none())
        {
            if !defined.contains(&child.tag_name().name()) {
                findings.push((parent, child));
            }
        }
    }
    for (parent, child) in findings {
        let (parent_name, name) = (parent.tag_name().name(), child.tag_name().name());
        let defined = rss_defined(parent_name);
        let help = if let Some(meant) = defined.iter().find(|d| d.eq_ignore_ascii_case(name)) {
            format!("write <{meant}> (names are case-sensitive)")
        } else if let Some((home, _)) = RSS_ELEMENTS.iter().find(|(_, children)| children.contains(&name)) {
            format!("RSS 2.0 defines <{name}> in <{home}>: move it there, or remove it")
        } else {
            format!(
                "put it in a namespace of your own (xmlns:my=\"https://example.org/ns\" and <my:{name}>), or remove it"
            )
        };
        cx.report(
            Checker::at(start_tag(child), format!("<{name}> is not an RSS 2.0 element of <{parent_name}>"))
                .label("not defined here")
                .secondary(start_tag(parent), format!("in this <{parent_name}>"))
                .note("RSS 2.0: \"A RSS feed may contain elements and attributes not described on this page, only if those elements and attributes are defined in a namespace\"")
                .help(help),
        );
    }
}
