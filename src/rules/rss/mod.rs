//! The core of RSS 2.0 (and 0.91 and 0.92): the elements a channel, an
//! item, an image, a text input, a cloud and a source must have, how many
//! of each, and the values the specification fixes. Each check reads the
//! children of the containers once.

use crate::xml::Node;

use crate::base::hash::{FastMap, FastState};
use crate::feed::{start_tag, DocKind, Text};
use crate::findings::diagnostic::shorten;
use crate::rules::rss::vocabulary::{RSS_IMAGE, RSS_TEXT_INPUT};
use crate::rules::shared::{rss_channel, rss_children};
use crate::rules::{rule, Checker, Rule};

pub(crate) mod dates;
pub(crate) mod profile;
pub(crate) mod values;
pub(crate) mod vocabulary;

/// The finding for an RSS channel without a required child.
fn report_missing_channel_child(cx: &mut Checker, child: &'static str, what: &str) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else {
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
    groups: [RssCore],
    summary: "an RSS channel has no title",
    spec: "RSS 2.0, Required channel elements",
);

fn rss_missing_channel_title(cx: &mut Checker) {
    report_missing_channel_child(cx, "title", "\"the name of the channel\"");
}

pub static RSS_MISSING_CHANNEL_LINK: Rule = rule!(
    RssMissingChannelLink, Error, Doc, Some(rss_missing_channel_link),
    groups: [RssCore],
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
    groups: [RssCore],
    summary: "an RSS channel has no description",
    spec: "RSS 2.0, Required channel elements",
);

fn rss_missing_channel_description(cx: &mut Checker) {
    report_missing_channel_child(cx, "description", "\"phrase or sentence describing the channel\"");
}

pub static RSS_ITEM_MISSING_TITLE_AND_DESCRIPTION: Rule = rule!(
    RssItemMissingTitleAndDescription, Error, Doc, Some(rss_item_missing_title_and_description),
    groups: [RssCore],
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

pub static RSS_DUPLICATE_ELEMENT: Rule = rule!(
    RssDuplicateElement, Error, Doc, Some(rss_duplicate_element),
    groups: [RssCore],
    summary: "an RSS channel or item has more than one of an element it has once",
    spec: "RSS 2.0, Required and optional channel elements, Elements of <item>",
);

/// The RSS 2.0 channel and item elements that describe one thing each.
const ONCE_IN_CHANNEL: &[&str] = &[
    "title",
    "link",
    "description",
    "language",
    "copyright",
    "managingEditor",
    "webMaster",
    "pubDate",
    "lastBuildDate",
    "generator",
    "docs",
    "cloud",
    "ttl",
    "image",
    "rating",
    "textInput",
    "skipHours",
    "skipDays",
];

/// (`author` is not here: RSS 2.0 gives it no count; see
/// [`RSS_REPEATED_AUTHOR`].)
const ONCE_IN_ITEM: &[&str] = &["title", "link", "description", "comments", "guid", "pubDate", "source"];

/// The `rss` element holds "a single <channel>".
const ONCE_IN_RSS: &[&str] = &["channel"];

fn rss_duplicate_element(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else { return };
    let in_channel = |name: &'static str| {
        channel
            .children()
            .filter(move |c| c.tag_name().namespace().is_none() && c.tag_name().name() == name)
    };
    let containers = [(feed.root, ONCE_IN_RSS), (channel, ONCE_IN_CHANNEL)]
        .into_iter()
        // image and textInput hold each of their sub-elements once.
        .chain(in_channel("image").map(|image| (image, RSS_IMAGE)))
        .chain(in_channel("textInput").map(|text_input| (text_input, RSS_TEXT_INPUT)))
        .chain(feed.entries.iter().map(|item| (item.node, ONCE_IN_ITEM)));
    let mut findings = Vec::new();
    // The first of each name in the container at hand (one list for all).
    let mut first: Vec<Option<Node>> = Vec::new();
    for (container, once) in containers {
        first.clear();
        first.resize(once.len(), None);
        for child in container
            .children()
            .filter(|c| c.is_element() && c.tag_name().namespace().is_none())
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
        let (parent, child) = (container.tag_name().name(), duplicate.tag_name().name());
        cx.report(
            Checker::at(start_tag(duplicate), format!("a second <{child}> in this {parent}"))
                .label("duplicate")
                .secondary(start_tag(first), "the first")
                .note(if parent == "rss" {
                    "RSS 2.0: \"Subordinate to the <rss> element is a single <channel> element\"; readers read the first channel and drop the rest".to_owned()
                } else {
                    format!("RSS 2.0 defines one {child} per {parent}; readers keep one of them, unpredictably")
                })
                .help("keep one of them"),
        );
    }
}

pub static RSS_REPEATED_AUTHOR: Rule = rule!(
    RssRepeatedAuthor, Warning, Doc, Some(rss_repeated_author),
    groups: [RssCore],
    summary: "an RSS item has more than one author",
    spec: "RSS 2.0, Elements of <item>",
);

fn rss_repeated_author(cx: &mut Checker) {
    let feed = cx.feed;
    if rss_channel(feed).is_none() {
        return;
    }
    for item in &feed.entries {
        let mut authors = rss_children(item.node, "author");
        let Some(first) = authors.next() else { continue };
        for another in authors {
            cx.report(
                Checker::at(start_tag(another), "a second <author> in this item")
                    .label("another author")
                    .secondary(start_tag(first), "the first")
                    .note("RSS 2.0 describes an item's author as \"Email address of the author of the item\", one address; it gives no count, but readers show one of them, unpredictably")
                    .help("keep one <author>, and name the others with dc:creator"),
            );
        }
    }
}

pub static RSS_ENCLOSURE_MISSING_ATTRIBUTE: Rule = rule!(
    RssEnclosureMissingAttribute, Error, Doc, Some(rss_enclosure_missing_attribute),
    groups: [RssCore],
    summary: "an RSS enclosure lacks its url, length or type",
    spec: "RSS 2.0, <enclosure> sub-element of <item>",
);

fn rss_enclosure_missing_attribute(cx: &mut Checker) {
    let feed = cx.feed;
    if rss_channel(feed).is_none() {
        return;
    }
    let mut findings = Vec::new();
    for enclosure in feed
        .entries
        .iter()
        .flat_map(|item| rss_children(item.node, "enclosure"))
    {
        let missing: Vec<&str> = ["url", "length", "type"]
            .into_iter()
            .filter(|name| !enclosure.has_attribute(*name))
            .collect();
        if !missing.is_empty() {
            findings.push((enclosure, missing.join(", ")));
        }
    }
    for (enclosure, missing) in findings {
        cx.report(
            Checker::at(start_tag(enclosure), format!("this enclosure has no {missing}"))
                .label("incomplete enclosure")
                .note("RSS 2.0: <enclosure> \"has three required attributes. url says where the enclosure is located, length says how big it is in bytes, and type says what its type is, a standard MIME type\"; podcast clients skip an enclosure they cannot size or type")
                .help("write <enclosure url=\"...\" length=\"BYTES\" type=\"audio/mpeg\"/> (length 0 when unknown)"),
        );
    }
}

pub static RSS_INVALID_SCHEDULE: Rule = rule!(
    RssInvalidSchedule, Error, Doc, Some(rss_invalid_schedule),
    groups: [RssCore],
    summary: "an RSS ttl that is not a number of minutes, or skipHours and skipDays values outside 0 to 23 and the day names",
    spec: "RSS 2.0, <ttl>, <skipHours>, <skipDays>",
);

fn rss_invalid_schedule(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else { return };
    let mut findings = Vec::new();
    ttl_findings(channel, &mut findings);
    skip_list_findings(channel, &mut findings);
    skip_value_findings(channel, &mut findings);
    for (at, message, help) in findings {
        cx.report(
            Checker::at(at, message)
                .label("not a valid value")
                .note("RSS 2.0: ttl is \"a number of minutes that indicates how long a channel can be cached\"; skipHours holds \"up to 24 <hour> sub-elements whose value is a number between 0 and 23\"; skipDays \"up to seven <day> sub-elements whose value is Monday, Tuesday, Wednesday, Thursday, Friday, Saturday or Sunday\"; readers that cannot read them poll at the wrong times")
                .help(help),
        );
    }
}

/// A schedule finding: its place, its message, its help.
type ScheduleFinding = (std::ops::Range<usize>, String, &'static str);

/// A `ttl` that is no number of minutes, or none at all.
fn ttl_findings(channel: Node, findings: &mut Vec<ScheduleFinding>) {
    for ttl in rss_children(channel, "ttl") {
        let text = Text::of(ttl);
        if text.value.is_empty() || !text.value.bytes().all(|b| b.is_ascii_digit()) {
            findings.push((
                text.range,
                format!(
                    "<ttl>{}</ttl> is not a number of minutes",
                    crate::findings::diagnostic::shorten(text.value)
                ),
                "write the minutes as a whole number, e.g. <ttl>60</ttl>",
            ));
        } else if text.value.bytes().all(|b| b == b'0') {
            findings.push((
                text.range,
                format!(
                    "<ttl>{}</ttl> is no time to live: it says to cache the channel for no minutes",
                    text.value
                ),
                "write how many minutes the channel may be cached, at least 1, e.g. <ttl>60</ttl>, or leave ttl out",
            ));
        }
    }
}

/// Each schedule holds at least one value, at most one of each, and so at
/// most 24 hours and 7 days.
fn skip_list_findings(channel: Node, findings: &mut Vec<ScheduleFinding>) {
    for (list, item) in [("skipHours", "hour"), ("skipDays", "day")] {
        for schedule in rss_children(channel, list) {
            let values: Vec<Node> = rss_children(schedule, item).collect();
            if values.is_empty() {
                findings.push((
                    start_tag(schedule),
                    format!("<{list}> holds no <{item}>"),
                    if item == "hour" {
                        "name the hours to skip, e.g. <hour>0</hour>, or remove skipHours"
                    } else {
                        "name the days to skip, e.g. <day>Sunday</day>, or remove skipDays"
                    },
                ));
            }
            let mut seen: crate::base::hash::FastSet<&str> = crate::base::hash::FastSet::default();
            for value in &values {
                let text = Text::of(*value);
                // "07" and "7" are one hour.
                let key = if item == "hour" {
                    text.value.trim_start_matches('0')
                } else {
                    text.value
                };
                if !seen.insert(key) {
                    findings.push((
                        text.range,
                        format!(
                            "<{item}>{}</{item}> is named twice in this {list}",
                            crate::findings::diagnostic::shorten(text.value)
                        ),
                        "name each one once",
                    ));
                }
            }
            // More than 24 hours or 7 days always follows from a repeat
            // or a value that is no hour or day, each reported at its
            // place: one finding per cause, not a count besides.
        }
    }
}

/// Hours that are no hour of the day, days that are no day's name.
fn skip_value_findings(channel: Node, findings: &mut Vec<ScheduleFinding>) {
    for hour in rss_children(channel, "skipHours").flat_map(|s| rss_children(s, "hour")) {
        let text = Text::of(hour);
        let valid = !text.value.is_empty()
            && text.value.len() <= 2
            && text.value.bytes().all(|b| b.is_ascii_digit())
            && text.value.parse::<u8>().is_ok_and(|h| h <= 23);
        if !valid {
            findings.push((
                text.range,
                format!(
                    "<hour>{}</hour> is not an hour from 0 to 23",
                    crate::findings::diagnostic::shorten(text.value)
                ),
                "write an hour in GMT from 0 to 23 (24 is not one: midnight is 0)",
            ));
        }
    }
    for day in rss_children(channel, "skipDays").flat_map(|s| rss_children(s, "day")) {
        let text = Text::of(day);
        if !crate::text::date::DAY_FULL_NAMES.contains(&text.value) {
            findings.push((
                text.range,
                format!(
                    "<day>{}</day> is not one of Monday, Tuesday, Wednesday, Thursday, Friday, Saturday or Sunday",
                    crate::findings::diagnostic::shorten(text.value)
                ),
                "write the day's English name, capitalized, e.g. <day>Saturday</day>",
            ));
        }
    }
}

/// What a channel's sub-element must hold, and the spec's words for it.
struct Required {
    parent: &'static str,
    children: &'static [&'static str],
    attributes: &'static [&'static str],
    says: &'static str,
}

/// The findings for channel (and item) elements without the sub-elements
/// or attributes RSS 2.0 requires of them.
fn report_incomplete(cx: &mut Checker, required: &Required, in_items: bool) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else { return };
    let holders: Vec<Node> = if in_items {
        feed.entries.iter().map(|item| item.node).collect()
    } else {
        vec![channel]
    };
    let mut findings = Vec::new();
    for element in holders
        .into_iter()
        .flat_map(|holder| rss_children(holder, required.parent))
    {
        let mut missing: Vec<String> = required
            .children
            .iter()
            .filter(|child| !element.children().any(|c| c.has_tag_name(None, child)))
            .map(|child| format!("<{child}>"))
            .collect();
        missing.extend(
            required
                .attributes
                .iter()
                .filter(|attribute| !element.has_attribute(**attribute))
                .map(|attribute| format!("{attribute}=\"...\"")),
        );
        if !missing.is_empty() {
            findings.push((element, missing.join(", ")));
        }
    }
    for (element, missing) in findings {
        cx.report(
            Checker::at(
                start_tag(element),
                format!("this <{}> has no {missing}", required.parent),
            )
            .label("incomplete")
            .note(format!("RSS 2.0: {}", required.says))
            .help(format!("add {missing}")),
        );
    }
}

pub static RSS_IMAGE_MISSING_ELEMENT: Rule = rule!(
    RssImageMissingElement, Error, Doc, Some(rss_image_missing_element),
    groups: [RssCore],
    summary: "an RSS image lacks its url, title or link",
    spec: "RSS 2.0, <image> sub-element of <channel>",
);

fn rss_image_missing_element(cx: &mut Checker) {
    let required = Required {
        parent: "image",
        children: &["url", "title", "link"],
        attributes: &[],
        says: "<image> \"contains three required and three optional sub-elements\": url, title and link are required",
    };
    report_incomplete(cx, &required, false);
}

pub static RSS_TEXT_INPUT_MISSING_ELEMENT: Rule = rule!(
    RssTextInputMissingElement, Error, Doc, Some(rss_text_input_missing_element),
    groups: [RssCore],
    summary: "an RSS textInput lacks its title, description, name or link",
    spec: "RSS 2.0, <textInput> sub-element of <channel>",
);

fn rss_text_input_missing_element(cx: &mut Checker) {
    let required = Required {
        parent: "textInput",
        children: &["title", "description", "name", "link"],
        attributes: &[],
        says: "<textInput> \"contains four required sub-elements\": title, description, name and link",
    };
    report_incomplete(cx, &required, false);
}

pub static RSS_CLOUD_MISSING_ATTRIBUTE: Rule = rule!(
    RssCloudMissingAttribute, Error, Doc, Some(rss_cloud_missing_attribute),
    groups: [RssCore],
    summary: "an RSS cloud lacks its domain, port, path, registerProcedure or protocol",
    spec: "RSS 2.0, <cloud> sub-element of <channel>",
);

fn rss_cloud_missing_attribute(cx: &mut Checker) {
    let required = Required {
        parent: "cloud",
        children: &[],
        attributes: &["domain", "port", "path", "registerProcedure", "protocol"],
        says: "<cloud> names the web service to register with by its domain, port, path, registerProcedure and protocol, all five needed to call it",
    };
    report_incomplete(cx, &required, false);
}

pub static RSS_SOURCE_MISSING_URL: Rule = rule!(
    RssSourceMissingUrl, Error, Doc, Some(rss_source_missing_url),
    groups: [RssCore],
    summary: "an RSS item's source has no url",
    spec: "RSS 2.0, <source> sub-element of <item>",
);

fn rss_source_missing_url(cx: &mut Checker) {
    let required = Required {
        parent: "source",
        children: &[],
        attributes: &["url"],
        says: "<source> \"has one required attribute, url, which links to the XMLization of the source\"",
    };
    report_incomplete(cx, &required, true);
}

pub static RSS_INVALID_IS_PERMALINK: Rule = rule!(
    RssInvalidIsPermalink, Error, Doc, Some(rss_invalid_is_permalink),
    groups: [RssCore],
    summary: "an RSS guid's isPermaLink is neither true nor false, or is spelled in another case",
    spec: "RSS 2.0, <guid> sub-element of <item>",
);

fn rss_invalid_is_permalink(cx: &mut Checker) {
    let feed = cx.feed;
    if rss_channel(feed).is_none() {
        return;
    }
    let invalid: Vec<_> = feed
        .entries
        .iter()
        .flat_map(|item| rss_children(item.node, "guid"))
        .filter_map(|guid| guid.attribute_node("isPermaLink"))
        .filter(|attribute| !matches!(attribute.value(), "true" | "false"))
        .map(|attribute| (attribute.range_value(), attribute.value().to_owned()))
        .collect();
    // isPermaLink spelled in another case is another attribute, which
    // readers do not read: the guid is then taken for a permalink.
    let misspelt: Vec<_> = feed
        .entries
        .iter()
        .flat_map(|item| rss_children(item.node, "guid"))
        .flat_map(|guid| guid.attributes())
        .filter(|a| {
            a.namespace().is_none() && a.name() != "isPermaLink" && a.name().eq_ignore_ascii_case("isPermaLink")
        })
        .map(|a| (a.range(), a.name().to_owned(), a.value().to_owned()))
        .collect();
    for (at, name, value) in misspelt {
        cx.report(
            Checker::at(at, format!("{name} is not an attribute of guid: the attribute is isPermaLink, and names are case-sensitive"))
                .label("unknown attribute")
                .note("RSS 2.0 defines isPermaLink; readers ignore an attribute of another name, and take the guid for a permalink (the default)")
                .help(format!("write isPermaLink=\"{}\"", crate::findings::diagnostic::shorten(value.trim()))),
        );
    }
    for (at, value) in invalid {
        let lower = value.trim().to_ascii_lowercase();
        let help = if matches!(lower.as_str(), "true" | "false") {
            format!("write isPermaLink=\"{lower}\"")
        } else {
            "write isPermaLink=\"true\" (the guid is the item's URL) or \"false\"".to_owned()
        };
        cx.report(
            Checker::at(at, format!("isPermaLink=\"{}\" is neither \"true\" nor \"false\"", crate::findings::diagnostic::shorten(&value)))
                .label("not a boolean")
                .note("RSS 2.0: \"isPermaLink is optional, its default value is true. If its value is false, the guid may not be assumed to be a url\"; readers compare the value with true and false")
                .help(help),
        );
    }
}

pub static RSS_MISSING_VERSION: Rule = rule!(
    RssMissingVersion, Error, Doc, Some(rss_missing_version),
    groups: [RssCore],
    summary: "the rss element has no version attribute",
    spec: "RSS 2.0, What is RSS?",
);

fn rss_missing_version(cx: &mut Checker) {
    let feed = cx.feed;
    if feed.kind != DocKind::Rss || feed.root.has_attribute("version") {
        return;
    }
    cx.report(
        Checker::at(start_tag(feed.root), "this <rss> element has no version attribute")
            .label("no version")
            .note("RSS 2.0: \"At the top level, a RSS document is a <rss> element, with a mandatory attribute called version, that specifies the version of RSS that the document conforms to. If it conforms to this specification, the version attribute must be 2.0.\"")
            .help("write <rss version=\"2.0\">"),
    );
}

pub static RSS_MISSING_CHANNEL: Rule = rule!(
    RssMissingChannel, Error, Doc, Some(rss_missing_channel),
    groups: [RssCore],
    summary: "the rss element has no channel",
    spec: "RSS 2.0, What is RSS?",
);

fn rss_missing_channel(cx: &mut Checker) {
    let feed = cx.feed;
    if feed.kind != DocKind::Rss || feed.head.is_some() {
        return;
    }
    cx.report(
        Checker::at(start_tag(feed.root), "this <rss> element has no <channel>: there is no feed in it")
            .label("no channel")
            .note("RSS 2.0: \"Subordinate to the <rss> element is a single <channel> element, which contains information about the channel (metadata) and its contents.\"")
            .help("put the channel's title, link, description and items in a <channel> element inside <rss>"),
    );
}

pub static RSS_INVALID_GUID: Rule = rule!(
    RssInvalidGuid, Error, Doc, Some(rss_invalid_guid),
    groups: [RssCore],
    summary: "an RSS guid is empty, is a permalink (isPermaLink absent or true) that is no URL at all (relative, invalid), or is another item's guid",
    spec: "RSS 2.0, <guid> sub-element of <item>",
);

/// Why a guid that claims to be a permalink is not one, if it is not: a
/// permalink is "a url that can be opened in a Web browser".
enum NotAPermalink {
    /// Not a URI at all (invalid, or relative): the claim cannot hold.
    NoUri(&'static str),
    /// An absolute URI of a scheme browsers do not open as a page
    /// (`tag:`, `urn:`): RSS 2.0 only says a reader "may assume" a link.
    OtherScheme(&'static str),
}

fn not_a_permalink(value: &str) -> Option<NotAPermalink> {
    let scheme = value.split_once(':').map(|(scheme, _)| scheme.to_ascii_lowercase());
    match scheme.as_deref() {
        _ if crate::text::iri::check_iri_reference(value).is_err() => {
            Some(NotAPermalink::NoUri("it is not a valid URL"))
        }
        _ if !crate::text::iri::has_scheme(value) => Some(NotAPermalink::NoUri("it is relative, not a URL")),
        Some("http" | "https") => None,
        Some("tag" | "urn") => Some(NotAPermalink::OtherScheme(
            "it is an identifier, not a URL a browser can open",
        )),
        _ => Some(NotAPermalink::OtherScheme(
            "it is not an http or https URL a browser can open",
        )),
    }
}

/// An item's `guid`, if it has one.
fn guid_of<'a, 'i>(item: &crate::feed::Entry<'a, 'i>) -> Option<Node<'a, 'i>> {
    item.node
        .children()
        .find(|c| c.is_element() && c.has_tag_name(None, "guid"))
}

/// Whether a guid's claim to be a permalink is its own: not when it writes
/// `isPermaLink` in another case (`IsPermaLink="false"`), which meant to
/// say something and is `rss-invalid-is-permalink`'s finding, at the cause.
fn claims_permalink(guid: Node) -> bool {
    let misspelt = guid
        .attributes()
        .any(|a| a.namespace().is_none() && a.name() != "isPermaLink" && a.name().eq_ignore_ascii_case("isPermaLink"));
    !misspelt && guid.attribute("isPermaLink").is_none_or(|v| v == "true")
}

/// The finding on a guid that claims to be a permalink and is not one.
fn permalink_claim(guid: Node, text: &Text, why: &str) -> crate::findings::diagnostic::Pending {
    let claim = if guid.has_attribute("isPermaLink") {
        "isPermaLink=\"true\""
    } else {
        "no isPermaLink=\"false\""
    };
    Checker::at(text.range.clone(), format!("guid \"{}\" has {claim}, so it claims to be the item's permalink, but {why}", shorten(text.value)))
        .label("not a permalink")
        .note("RSS 2.0: \"isPermaLink is optional, its default value is true\", and then \"the reader may assume that it is a permalink to the item, that is, a url that can be opened in a Web browser\"; readers link to it")
        .help("write isPermaLink=\"false\" on this guid: it is an identifier, not a link")
}

pub static RSS_PERMALINK_NOT_HTTP: Rule = rule!(
    RssPermalinkNotHttp, Warning, Doc, Some(rss_permalink_not_http),
    groups: [RssCore],
    summary: "an RSS guid taken for a permalink (isPermaLink absent or true) that is a URI of another scheme than http or https (tag:, urn:)",
    spec: "RSS 2.0, <guid> sub-element of <item>",
);

/// A warning: the guid is a URI and identifies the item; RSS 2.0 only says
/// a reader "may assume" it is a link a browser opens.
fn rss_permalink_not_http(cx: &mut Checker) {
    let feed = cx.feed;
    if feed.kind != DocKind::Rss || feed.head.is_none() {
        return;
    }
    let mut findings = Vec::new();
    for guid in feed.entries.iter().filter_map(guid_of) {
        if !claims_permalink(guid) {
            continue;
        }
        let text = Text::of(guid);
        if let Some(NotAPermalink::OtherScheme(why)) = not_a_permalink(text.value) {
            findings.push(permalink_claim(guid, &text, why));
        }
    }
    for finding in findings {
        cx.report(finding);
    }
}

fn rss_invalid_guid(cx: &mut Checker) {
    let feed = cx.feed;
    if feed.kind != DocKind::Rss || feed.head.is_none() {
        return;
    }
    let mut findings = Vec::new();
    let mut first_of: FastMap<&str, std::ops::Range<usize>> =
        FastMap::with_capacity_and_hasher(feed.entries.len(), FastState::default());
    for guid in feed.entries.iter().filter_map(guid_of) {
        let text = Text::of(guid);
        if text.value.is_empty() {
            findings.push(Checker::at(text.range, "this guid is empty")
                .label("no identifier")
                .note("RSS 2.0: guid is \"a string that uniquely identifies the item\"; an empty one identifies nothing, and readers that key items by it merge every item without one")
                .help("write the item's permanent URL, or a unique string with isPermaLink=\"false\""));
            continue;
        }
        if let Some(NotAPermalink::NoUri(why)) = claims_permalink(guid).then(|| not_a_permalink(text.value)).flatten() {
            findings.push(permalink_claim(guid, &text, why));
        }
        match first_of.get(text.value) {
            Some(first) => findings.push(Checker::at(text.range.clone(), format!("a second item with guid \"{}\"", shorten(text.value)))
                .label("duplicate")
                .secondary(first.clone(), "the first item with this guid")
                .note("RSS 2.0: guid is \"a string that uniquely identifies the item\"; readers that see it twice keep one item and drop the other")
                .help("give each item its own guid")),
            None => {
                first_of.insert(text.value, text.range);
            }
        }
    }
    for finding in findings {
        cx.report(finding);
    }
}
