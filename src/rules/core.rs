//! The core of Atom 1.0 (RFC 4287 §4.1) and RSS 2.0: the elements a feed,
//! an entry, a channel and an item must have, and how many of each. Each
//! check reads the children of the containers once.

use crate::xml::Node;

use super::{rule, Checker, Rule};
use crate::feed::{self, start_tag, DocKind, FeedDoc, Rel, ATOM_NS};

/// The Atom containers of the document: the feed, then its entries.
fn atom_containers<'d, 'a, 'i>(feed: &'d FeedDoc<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> + 'd {
    let is_atom = feed.kind == DocKind::Atom;
    feed.head
        .filter(|_| is_atom)
        .into_iter()
        .chain(feed.entries.iter().filter(move |_| is_atom).map(|entry| entry.node))
}

/// The Atom children of `container` named `local`.
fn atom_children<'a, 'i>(container: Node<'a, 'i>, local: &'static str) -> impl Iterator<Item = Node<'a, 'i>> {
    container
        .children()
        .filter(move |child| feed::is(*child, ATOM_NS, local))
}

fn has_atom_child(container: Node, local: &'static str) -> bool {
    atom_children(container, local).next().is_some()
}

/// `atom:feed` or `atom:entry`, as messages name a container.
fn qualified(container: Node) -> String {
    format!("atom:{}", container.tag_name().name())
}

/// The finding for a feed or entry without a required child.
fn report_missing(cx: &mut Checker, local: &'static str, section: &str, help: &str) {
    let feed = cx.feed;
    for container in atom_containers(feed).filter(|c| !has_atom_child(*c, local)) {
        let name = qualified(container);
        cx.report(
            Checker::at(start_tag(container), format!("this {name} has no atom:{local}"))
                .label(format!("no atom:{local}"))
                .note(format!(
                    "RFC 4287 {section}: {name} elements MUST contain exactly one atom:{local} element"
                ))
                .help(help.to_owned()),
        );
    }
}

pub static ATOM_MISSING_ID: Rule = rule!(
    AtomMissingId, Error, Doc, Some(atom_missing_id),
    summary: "an atom:feed or atom:entry has no atom:id",
    spec: "RFC 4287 §4.1.1, §4.1.2, §4.2.6",
);

fn atom_missing_id(cx: &mut Checker) {
    report_missing(
        cx,
        "id",
        "§4.1.1, §4.1.2",
        "add <id> with a permanent, universally unique IRI, such as a tag: URI (tag:example.org,2024:feed) that never changes",
    );
}

pub static ATOM_MISSING_TITLE: Rule = rule!(
    AtomMissingTitle, Error, Doc, Some(atom_missing_title),
    summary: "an atom:feed or atom:entry has no atom:title",
    spec: "RFC 4287 §4.1.1, §4.1.2, §4.2.14",
);

fn atom_missing_title(cx: &mut Checker) {
    report_missing(
        cx,
        "title",
        "§4.1.1, §4.1.2",
        "add <title> with a human-readable title (it may be empty: <title/>)",
    );
}

pub static ATOM_MISSING_UPDATED: Rule = rule!(
    AtomMissingUpdated, Error, Doc, Some(atom_missing_updated),
    summary: "an atom:feed or atom:entry has no atom:updated",
    spec: "RFC 4287 §4.1.1, §4.1.2, §4.2.15",
);

fn atom_missing_updated(cx: &mut Checker) {
    report_missing(
        cx,
        "updated",
        "§4.1.1, §4.1.2",
        "add <updated> with the time of the last significant change, e.g. 2003-12-13T18:30:02Z",
    );
}

pub static ATOM_MISSING_AUTHOR: Rule = rule!(
    AtomMissingAuthor, Error, Doc, Some(atom_missing_author),
    summary: "an atom:entry has no atom:author, and neither has its atom:source nor its feed",
    spec: "RFC 4287 §4.1.1, §4.1.2",
);

fn atom_missing_author(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(head) = feed.head.filter(|_| feed.kind == DocKind::Atom) else {
        return;
    };
    if has_atom_child(head, "author") {
        return;
    }
    let has_author = |entry: Node| {
        has_atom_child(entry, "author") || atom_children(entry, "source").any(|source| has_atom_child(source, "author"))
    };
    let without: Vec<Node> = feed
        .entries
        .iter()
        .map(|e| e.node)
        .filter(|e| !has_author(*e))
        .collect();
    if feed.entries.is_empty() {
        cx.report(
            Checker::at(start_tag(head), "this atom:feed has no atom:author, and no entries that would each name theirs")
                .label("no atom:author")
                .note("RFC 4287 §4.1.1: atom:feed elements MUST contain one or more atom:author elements, unless all of the atom:feed element's child atom:entry elements contain at least one atom:author element")
                .help("add <author><name>...</name></author> to the feed"),
        );
    }
    for entry in without {
        cx.report(
            Checker::at(start_tag(entry), "this atom:entry has no atom:author, and neither has its feed (nor an atom:source of the entry)")
                .label("no author")
                .secondary(start_tag(head), "the feed, without atom:author")
                .note("RFC 4287 §4.1.2: atom:entry elements MUST contain one or more atom:author elements, unless the atom:entry contains an atom:source element that contains an atom:author element or, in an Atom Feed Document, the atom:feed element contains an atom:author element itself")
                .help("add <author><name>...</name></author> to the feed (it then stands for every entry) or to this entry"),
        );
    }
}

pub static ATOM_DUPLICATE_ELEMENT: Rule = rule!(
    AtomDuplicateElement, Error, Doc, Some(atom_duplicate_element),
    summary: "an atom:feed or atom:entry has more than one of an element it may have only once",
    spec: "RFC 4287 §4.1.1, §4.1.2",
);

/// What RFC 4287 allows at most once in a feed and in an entry.
const ONCE_IN_FEED: [&str; 8] = [
    "generator",
    "icon",
    "id",
    "logo",
    "rights",
    "subtitle",
    "title",
    "updated",
];
const ONCE_IN_ENTRY: [&str; 8] = [
    "content",
    "id",
    "published",
    "rights",
    "source",
    "summary",
    "title",
    "updated",
];

fn atom_duplicate_element(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for container in atom_containers(feed) {
        let once: &[&str] = if container.tag_name().name() == "feed" {
            &ONCE_IN_FEED
        } else {
            &ONCE_IN_ENTRY
        };
        let mut first: [Option<Node>; 8] = [None; 8];
        for child in container
            .children()
            .filter(|c| c.tag_name().namespace() == Some(ATOM_NS))
        {
            let Some(index) = once.iter().position(|name| *name == child.tag_name().name()) else {
                continue;
            };
            match first[index] {
                None => first[index] = Some(child),
                Some(earlier) => findings.push((container, child, earlier)),
            }
        }
    }
    for (container, duplicate, first) in findings {
        let name = qualified(container);
        let child = duplicate.tag_name().name();
        cx.report(
            Checker::at(start_tag(duplicate), format!("a second atom:{child} in this {name}"))
                .label("duplicate")
                .secondary(start_tag(first), "the first")
                .note(format!("RFC 4287: {name} elements MUST NOT contain more than one atom:{child} element; consumers keep one of them, unpredictably"))
                .help("keep one of them"),
        );
    }
}

pub static ATOM_ENTRY_MISSING_ALTERNATE: Rule = rule!(
    AtomEntryMissingAlternate, Error, Doc, Some(atom_entry_missing_alternate),
    summary: "an atom:entry has neither atom:content nor an alternate link",
    spec: "RFC 4287 §4.1.2",
);

fn atom_entry_missing_alternate(cx: &mut Checker) {
    let feed = cx.feed;
    let entries = atom_containers(feed).filter(|c| c.tag_name().name() == "entry");
    let without: Vec<Node> = entries
        .filter(|entry| !has_atom_child(*entry, "content"))
        .filter(|entry| {
            !atom_children(*entry, "link").any(|link| Rel::of(link.attribute("rel")).as_str() == "alternate")
        })
        .collect();
    for entry in without {
        cx.report(
            Checker::at(start_tag(entry), "this atom:entry has no atom:content and no alternate link: a reader has nothing to show or open")
                .label("no content, no alternate link")
                .note("RFC 4287 §4.1.2: atom:entry elements that contain no child atom:content element MUST contain at least one atom:link element with a rel attribute value of \"alternate\"")
                .help("add <link rel=\"alternate\" href=\"...\"/> to the entry's web page (a link without rel is an alternate link), or add <content>"),
        );
    }
}

pub static ATOM_ENTRY_MISSING_SUMMARY: Rule = rule!(
    AtomEntryMissingSummary, Error, Doc, Some(atom_entry_missing_summary),
    summary: "an atom:entry whose content is out of line (src) or Base64-encoded has no atom:summary",
    spec: "RFC 4287 §4.1.2, §4.1.3",
);

/// Why an entry's content needs a summary beside it, if it does.
fn content_needs_summary(content: Node) -> Option<String> {
    if content.has_attribute("src") {
        return Some("its atom:content has a src attribute, so the entry itself holds none".to_owned());
    }
    let media_type = content.attribute("type")?.trim();
    let lower = media_type.to_ascii_lowercase();
    // `text`, `html` and `xhtml` are no media types; parameters do not count.
    let essence = lower.split(';').next().unwrap_or_default().trim();
    let xml_or_text = essence.starts_with("text/")
        || essence.ends_with("/xml")
        || essence.ends_with("+xml")
        || matches!(
            essence,
            "application/xml-external-parsed-entity" | "application/xml-dtd"
        );
    (essence.contains('/') && !xml_or_text).then(|| format!("its atom:content is {media_type}, Base64-encoded"))
}

fn atom_entry_missing_summary(cx: &mut Checker) {
    let feed = cx.feed;
    let entries = atom_containers(feed).filter(|c| c.tag_name().name() == "entry");
    let mut findings = Vec::new();
    for entry in entries.filter(|entry| !has_atom_child(*entry, "summary")) {
        let Some(content) = atom_children(entry, "content").next() else {
            continue;
        };
        if let Some(why) = content_needs_summary(content) {
            findings.push((entry, content, why));
        }
    }
    for (entry, content, why) in findings {
        cx.report(
            Checker::at(start_tag(entry), format!("this atom:entry has no atom:summary, but {why}"))
                .label("no atom:summary")
                .secondary(start_tag(content), "the content")
                .note("RFC 4287 §4.1.2: atom:entry elements MUST contain an atom:summary element if the atom:content has a \"src\" attribute, or is of a media type that is not XML and not text (Base64-encoded)")
                .help("add <summary> with a short text readers can show in place of the content"),
        );
    }
}

/// The finding for an RSS channel without a required child.
fn report_missing_channel_child(cx: &mut Checker, child: &'static str, what: &str) {
    let feed = cx.feed;
    let Some(channel) = feed.head.filter(|_| feed.kind == DocKind::Rss) else {
        return;
    };
    if channel.children().any(|c| c.has_tag_name(None, child)) {
        return;
    }
    cx.report(
        Checker::at(start_tag(channel), format!("this channel has no <{child}>"))
            .label(format!("no <{child}>"))
            .note(format!("RSS 2.0, required channel elements: {child}, {what}"))
            .help(format!("add <{child}> to the channel")),
    );
}

pub static RSS_MISSING_CHANNEL_TITLE: Rule = rule!(
    RssMissingChannelTitle, Error, Doc, Some(rss_missing_channel_title),
    summary: "an RSS channel has no title",
    spec: "RSS 2.0, Required channel elements",
);

fn rss_missing_channel_title(cx: &mut Checker) {
    report_missing_channel_child(cx, "title", "\"the name of the channel\"");
}

pub static RSS_MISSING_CHANNEL_LINK: Rule = rule!(
    RssMissingChannelLink, Error, Doc, Some(rss_missing_channel_link),
    summary: "an RSS channel has no link",
    spec: "RSS 2.0, Required channel elements",
);

fn rss_missing_channel_link(cx: &mut Checker) {
    report_missing_channel_child(
        cx,
        "link",
        "\"the URL to the HTML website corresponding to the channel\"",
    );
}

pub static RSS_MISSING_CHANNEL_DESCRIPTION: Rule = rule!(
    RssMissingChannelDescription, Error, Doc, Some(rss_missing_channel_description),
    summary: "an RSS channel has no description",
    spec: "RSS 2.0, Required channel elements",
);

fn rss_missing_channel_description(cx: &mut Checker) {
    report_missing_channel_child(cx, "description", "\"phrase or sentence describing the channel\"");
}

pub static RSS_ITEM_MISSING_TITLE_AND_DESCRIPTION: Rule = rule!(
    RssItemMissingTitleAndDescription, Error, Doc, Some(rss_item_missing_title_and_description),
    summary: "an RSS item has neither a title nor a description",
    spec: "RSS 2.0, Elements of <item>",
);

fn rss_item_missing_title_and_description(cx: &mut Checker) {
    let feed = cx.feed;
    if feed.kind != DocKind::Rss {
        return;
    }
    let without: Vec<Node> = feed
        .entries
        .iter()
        .map(|item| item.node)
        .filter(|item| {
            !item
                .children()
                .any(|c| c.has_tag_name(None, "title") || c.has_tag_name(None, "description"))
        })
        .collect();
    for item in without {
        cx.report(
            Checker::at(start_tag(item), "this item has neither a <title> nor a <description>")
                .label("nothing to show")
                .note("RSS 2.0: \"All elements of an item are optional, however at least one of title or description must be present\"")
                .help("add a <title> or a <description>"),
        );
    }
}
