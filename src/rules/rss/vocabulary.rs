//! The RSS vocabulary: the elements and attributes each version defines,
//! where text may hold no elements, and the well-known modules' values.

use crate::feed::{start_tag, DocKind, Text};
use crate::findings::diagnostic::shorten;
use crate::rules::atom::vocabulary::{attribute_names, element_in_text, namespace_it};
use crate::rules::shared::rss_channel;
use crate::rules::{rule, Checker, Rule};
use crate::xml::Node;
pub static RSS_UNKNOWN_ELEMENT: Rule = rule!(
    RssUnknownElement, Error, Doc, Some(rss_unknown_element),
    groups: [RssCore],
    summary: "an element without a namespace that the document's RSS version (2.0, 0.92 or 0.91) does not define where it stands",
    spec: "RSS 2.0, Extending RSS; RSS 0.91; RSS 0.92",
);

/// The RSS versions with element lists of their own: 0.91 (Netscape's DTD
/// and UserLand's), 0.92 (0.91 and cloud, and an item's source, enclosure
/// and category); 2.0 for every other version.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum RssVersion {
    V091,
    V092,
    V2,
}

impl RssVersion {
    pub(crate) fn of(root: Node) -> RssVersion {
        match root.attribute("version").map(str::trim) {
            Some("0.91") => RssVersion::V091,
            Some("0.92") => RssVersion::V092,
            _ => RssVersion::V2,
        }
    }

    fn name(self) -> &'static str {
        match self {
            RssVersion::V091 => "RSS 0.91",
            RssVersion::V092 => "RSS 0.92",
            RssVersion::V2 => "RSS 2.0",
        }
    }

    fn elements(self) -> &'static [(&'static str, &'static [&'static str])] {
        match self {
            RssVersion::V091 => RSS_091_ELEMENTS,
            RssVersion::V092 => RSS_092_ELEMENTS,
            RssVersion::V2 => RSS_ELEMENTS,
        }
    }

    fn defined(self, parent: &str) -> &'static [&'static str] {
        self.elements()
            .iter()
            .find(|(p, _)| *p == parent)
            .map_or(&[][..], |(_, children)| children)
    }
}

/// RSS 0.91's channel (the Netscape DTD spells `textinput` in lower case;
/// UserLand's document writes `textInput`: both are read).
const RSS_091_CHANNEL: &[&str] = &[
    "title",
    "link",
    "description",
    "language",
    "copyright",
    "managingEditor",
    "webMaster",
    "pubDate",
    "lastBuildDate",
    "docs",
    "image",
    "rating",
    "textinput",
    "textInput",
    "skipHours",
    "skipDays",
    "item",
];
/// What RSS 0.92 adds to 0.91's channel.
const RSS_092_CHANNEL_MORE: &[&str] = &["category", "cloud"];
/// RSS 0.92's channel: 0.91's and what 0.92 adds (one list, not made
/// again for each element asked about).
const RSS_092_CHANNEL: [&str; RSS_091_CHANNEL.len() + RSS_092_CHANNEL_MORE.len()] =
    concatenated(RSS_091_CHANNEL, RSS_092_CHANNEL_MORE);

/// `first` then `second`, as one array of `N` names.
const fn concatenated<const N: usize>(first: &[&'static str], second: &[&'static str]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < first.len() {
        out[i] = first[i];
        i += 1;
    }
    let mut j = 0;
    while j < second.len() {
        out[i + j] = second[j];
        j += 1;
    }
    out
}
/// The sub-elements of `textInput` and `image`, each defined once.
pub(crate) const RSS_TEXT_INPUT: &[&str] = &["title", "description", "name", "link"];
pub(crate) const RSS_IMAGE: &[&str] = &["url", "title", "link", "width", "height", "description"];

const RSS_091_ELEMENTS: &[(&str, &[&str])] = &[
    ("rss", &["channel"]),
    ("channel", RSS_091_CHANNEL),
    ("item", &["title", "link", "description"]),
    ("image", RSS_IMAGE),
    ("textinput", RSS_TEXT_INPUT),
    ("textInput", RSS_TEXT_INPUT),
    ("skipHours", &["hour"]),
    ("skipDays", &["day"]),
];

const RSS_092_ELEMENTS: &[(&str, &[&str])] = &[
    ("rss", &["channel"]),
    ("channel", &RSS_092_CHANNEL),
    (
        "item",
        &["title", "link", "description", "source", "enclosure", "category"],
    ),
    ("image", RSS_IMAGE),
    ("textinput", RSS_TEXT_INPUT),
    ("textInput", RSS_TEXT_INPUT),
    ("skipHours", &["hour"]),
    ("skipDays", &["day"]),
];

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
    ("image", RSS_IMAGE),
    ("textInput", RSS_TEXT_INPUT),
    ("skipHours", &["hour"]),
    ("skipDays", &["day"]),
];

fn rss_unknown_element(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else {
        return;
    };
    let version = RssVersion::of(feed.root);
    let mut parents: Vec<Node> = channel.parent_element().into_iter().collect();
    parents.push(channel);
    parents.extend(channel.children().filter(|c| {
        c.tag_name().namespace().is_none()
            && c.tag_name().name() != "item"
            && !version.defined(c.tag_name().name()).is_empty()
    }));
    parents.extend(feed.entries.iter().map(|item| item.node));
    let mut findings = Vec::new();
    for parent in parents {
        let defined = version.defined(parent.tag_name().name());
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
        let name = &*shorten(name);
        let defined = version.defined(parent_name);
        let help = if let Some(meant) = defined.iter().find(|d| d.eq_ignore_ascii_case(name)) {
            format!("write <{meant}> (names are case-sensitive)")
        } else if let Some((home, _)) = version.elements().iter().find(|(_, children)| children.contains(&name)) {
            format!(
                "{} defines <{name}> in <{home}>: move it there, or remove it",
                version.name()
            )
        } else if version != RssVersion::V2 && RssVersion::V2.defined(parent_name).contains(&name) {
            format!("<{name}> came with a later RSS: declare version=\"2.0\" if the feed follows RSS 2.0, or remove it")
        } else {
            format!(
                "put it in a namespace of your own (xmlns:my=\"https://example.org/ns\" and <my:{name}>), or remove it"
            )
        };
        cx.report(
            Checker::at(start_tag(child), format!("<{name}> is not an {} element of <{parent_name}>", version.name()))
                .label("not defined here")
                .secondary(start_tag(parent), format!("in this <{parent_name}>"))
                .note("RSS 2.0: \"A RSS feed may contain elements and attributes not described on this page, only if those elements and attributes are defined in a namespace\"")
                .help(help),
        );
    }
}

pub static RSS_ELEMENT_IN_TEXT: Rule = rule!(
    RssElementInText, Error, Doc, Some(rss_element_in_text),
    groups: [RssCore],
    summary: "an element without a namespace inside an RSS element that holds text (raw HTML in a description, elements in an author)",
    spec: "RSS 2.0, Extending RSS",
);

/// The RSS elements whose children a feed holds (the others hold text, or
/// nothing): the parents of [`RssVersion::defined`]'s lists.
fn holds_elements(version: RssVersion, name: &str) -> bool {
    version.elements().iter().any(|(parent, _)| *parent == name)
}

/// An element without a namespace: RSS's own, or an undefined one.
fn unqualified(node: &Node) -> bool {
    node.is_element() && node.tag_name().namespace().is_none()
}

fn rss_element_in_text(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else {
        return;
    };
    let version = RssVersion::of(feed.root);
    let mut containers: Vec<Node> = vec![channel];
    containers.extend(
        channel.children().filter(|c| {
            unqualified(c) && c.tag_name().name() != "item" && holds_elements(version, c.tag_name().name())
        }),
    );
    containers.extend(feed.entries.iter().map(|item| item.node));
    for container in containers {
        let defined = version.defined(container.tag_name().name());
        // Most children hold only text: the element child is looked for
        // first, the names only where there is one.
        let holds_an_element = |c: &Node| c.children().any(|child| unqualified(&child));
        for holder in container.children().filter(|c| {
            unqualified(c)
                && holds_an_element(c)
                && defined.contains(&c.tag_name().name())
                && !holds_elements(version, c.tag_name().name())
        }) {
            let inside: Vec<Node> = holder.children().filter(unqualified).collect();
            let Some(first) = inside.first() else { continue };
            cx.report(element_in_text(cx.feed.xml.input_text(), holder, *first, &inside));
        }
    }
}

pub static RSS_UNKNOWN_ATTRIBUTE: Rule = rule!(
    RssUnknownAttribute, Error, Doc, Some(rss_unknown_attribute),
    groups: [RssCore],
    summary: "an attribute without a namespace that RSS does not define on an RSS element (description type=\"html\")",
    spec: "RSS 2.0, Extending RSS",
);

/// The attributes RSS 2.0 defines, by element; every other RSS element has
/// none.
const RSS_ATTRIBUTES: &[(&str, &[&str])] = &[
    ("rss", &["version"]),
    ("cloud", &["domain", "port", "path", "registerProcedure", "protocol"]),
    ("enclosure", &["url", "length", "type"]),
    ("guid", &["isPermaLink"]),
    ("source", &["url"]),
    ("category", &["domain"]),
];

fn rss_unknown_attribute(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else {
        return;
    };
    let version = RssVersion::of(feed.root);
    // The RSS elements, each where RSS defines it: the root, the channel,
    // and the defined children of the elements that hold elements.
    let mut elements: Vec<Node> = vec![feed.root, channel];
    let mut holders: Vec<Node> = vec![channel];
    holders.extend(feed.entries.iter().map(|item| item.node));
    let mut next = 0;
    while next < holders.len() {
        let holder = holders[next];
        next += 1;
        let defined = version.defined(holder.tag_name().name());
        // A child with no attribute and no element in it has nothing to
        // report and nothing to walk: most are that, and are passed over
        // before their names are looked up.
        let worth_a_look = |c: &Node| c.attributes().next().is_some() || c.children().any(|n| n.is_element());
        for child in holder
            .children()
            .filter(|c| unqualified(c) && worth_a_look(c) && defined.contains(&c.tag_name().name()))
        {
            let name = child.tag_name().name();
            if name != "item" {
                elements.push(child);
                if holds_elements(version, name) {
                    holders.push(child);
                }
            }
        }
    }
    elements.extend(feed.entries.iter().map(|item| item.node));
    for element in elements {
        let name = element.tag_name().name();
        let defined = RSS_ATTRIBUTES
            .iter()
            .find(|(e, _)| *e == name)
            .map_or(&[][..], |(_, a)| a);
        let undefined: Vec<_> = element
            .attributes()
            .filter(|a| a.namespace().is_none() && !defined.contains(&a.name()))
            // isPermaLink in another case is rss-invalid-guid's.
            .filter(|a| !(name == "guid" && a.name().eq_ignore_ascii_case("isPermaLink")))
            .collect();
        let Some(first) = undefined.first() else { continue };
        let names = attribute_names(&undefined);
        let help = match (name, first.name()) {
            ("description" | "title", "type") => {
                "remove it: an RSS description is HTML already, escaped or in CDATA, and a title is plain text"
                    .to_owned()
            }
            _ => namespace_it(first.name()),
        };
        cx.report(
            Checker::at(
                first.range(),
                format!("<{name}> has attributes RSS does not define: {names}"),
            )
            .label("not defined")
            .note(match defined {
                [] => format!("RSS 2.0 defines no attribute of <{name}>"),
                defined => format!("RSS 2.0 defines these attributes of <{name}>: {}", defined.join(", ")),
            })
            .note("RSS 2.0: \"A RSS feed may contain elements and attributes not described on this page, only if those elements and attributes are defined in a namespace\"")
            .help(help),
        );
    }
}

pub static EXTENSION_INVALID: Rule = rule!(
    ExtensionInvalid, Error, Doc, Some(extension_invalid),
    groups: [RssCore],
    summary: "a well-known extension element breaks its module's rules: trackback:ping outside an item or entry, creativeCommons:license not a URI, dc:date not a W3C date, content:encoded twice in an item",
    spec: "RSS TrackBack module; RSS creativeCommons module; DCMI Terms, date (W3C-DTF); RSS 1.0 content module",
);

const TRACKBACK_NS: &str = "http://madskills.com/public/xml/rss/module/trackback/";
const CREATIVE_COMMONS_NS: &str = "http://backend.userland.com/creativeCommonsRssModule";
const DC_NS: &str = "http://purl.org/dc/elements/1.1/";
const CONTENT_NS: &str = "http://purl.org/rss/1.0/modules/content/";

/// The extension elements this rule reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Extension {
    TrackbackPing,
    License,
    DcDate,
    Encoded,
}

fn extension_invalid(cx: &mut Checker) {
    let feed = cx.feed;
    let xml = feed.xml;
    // Most documents use none of these modules: their names are not in the
    // document, and nothing is walked.
    let names: Vec<(usize, Extension)> = [
        (TRACKBACK_NS, "ping", Extension::TrackbackPing),
        (CREATIVE_COMMONS_NS, "license", Extension::License),
        (DC_NS, "date", Extension::DcDate),
        (CONTENT_NS, "encoded", Extension::Encoded),
    ]
    .into_iter()
    .filter_map(|(namespace, local, which)| Some((xml.name_index_of(Some(namespace), local)?, which)))
    .collect();
    if names.is_empty() {
        return;
    }
    let is_item = |node: Node| {
        node.parent_element().is_some_and(|parent| {
            let name = parent.tag_name();
            match feed.kind {
                DocKind::Rss => name.namespace().is_none() && name.name() == "item",
                _ => name.namespace() == Some(crate::feed::ATOM_NS) && name.name() == "entry",
            }
        })
    };
    let mut findings = Vec::new();
    let mut encoded_in: crate::base::hash::FastMap<crate::xml::NodeId, Node> = crate::base::hash::FastMap::default();
    for node in xml.descendants().filter(Node::is_element) {
        let Some(which) = node
            .name_index()
            .and_then(|index| names.iter().find(|(i, _)| *i == index))
            .map(|(_, which)| *which)
        else {
            continue;
        };
        let text = Text::of(node);
        match which {
            Extension::TrackbackPing if !is_item(node) => findings.push(
                Checker::at(start_tag(node), "trackback:ping stands outside an item")
                    .label("not in an item")
                    .note("The TrackBack module: trackback:ping is \"a sub-element of <item>\", the URL to ping for that item; readers look for it nowhere else")
                    .help("move it into the item (or entry) it is the ping URL of"),
            ),
            Extension::License if !crate::text::iri::has_scheme(text.value) || crate::text::iri::check_iri_reference(text.value).is_err() => findings.push(
                Checker::at(text.range, format!("creativeCommons:license \"{}\" is not a URI", shorten(text.value)))
                    .label("not a URI")
                    .note("The creativeCommons module: license is \"the URL of a license\", such as http://www.creativecommons.org/licenses/by-nd/1.0")
                    .help("write the license's full URL"),
            ),
            Extension::DcDate => {
                if let Some(why) = crate::text::date::w3cdtf_error(text.value) {
                    findings.push(
                        Checker::at(text.range, format!("dc:date \"{}\" is not a W3C date: {why}", shorten(text.value)))
                            .label("not a W3C-DTF date")
                            .note("Dublin Core recommends W3C-DTF for dates (YYYY, YYYY-MM, YYYY-MM-DD, or a date and time with a time zone designator); readers parse dc:date that way")
                            .help("write it as e.g. 2003-12-13 or 2003-12-13T18:30:02Z"),
                    );
                }
            }
            Extension::Encoded => {
                if let Some(parent) = node.parent_element() {
                    if let Some(first) = encoded_in.get(&parent.id()) {
                        findings.push(
                            Checker::at(start_tag(node), "a second content:encoded in this item")
                                .label("duplicate")
                                .secondary(start_tag(*first), "the first")
                                .note("The content module: content:encoded holds the item's content, once; readers show one of them, unpredictably")
                                .help("keep one of them"),
                        );
                    } else {
                        encoded_in.insert(parent.id(), node);
                    }
                }
            }
            _ => {}
        }
    }
    for finding in findings {
        cx.report(finding);
    }
}
