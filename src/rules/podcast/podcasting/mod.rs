//! The Podcasting 2.0 namespace (`https://podcastindex.org/namespace/1.0`),
//! tag by tag as its documents define them (group `podcast`): where each
//! tag stands, how often, its node value and its attributes, in [`TAGS`],
//! one entry per tag; then the checks a table cannot say (a guid that is a
//! UUIDv5, people's roles, live items' times, recurrence rules, value
//! splits), one small function each. They apply wherever the tags stand.

use std::ops::Range;

pub(crate) mod guid;
pub(crate) mod namespace;
pub(crate) mod people;
pub(crate) mod schedule;
pub(crate) mod tags;

use tags::{LICENSES, MEDIUMS, TAGS};

use crate::base::syntax;
use crate::feed::{start_tag, FeedDoc, Text, ITUNES_NS, PODCAST_NS};
use crate::findings::diagnostic::shorten;
use crate::rules::shared::rss_channel;
use crate::rules::shared::{more, report_grouped};
use crate::rules::{rule, Checker, Rule};
use crate::xml::Node;

/// Where a tag may stand.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Parent {
    Channel,
    /// An `item`, or a `podcast:liveItem` ("All tags that are valid as
    /// children of a standard `<item>` tag are also valid as children
    /// here").
    Item,
    /// Another tag of the namespace.
    Tag(&'static str),
}

/// What a value must be.
#[derive(Clone, Copy)]
enum Format {
    /// Free text.
    Text,
    /// An absolute URL.
    Url,
    MediaType,
    /// A whole number, 0 or more.
    Integer,
    /// A decimal number.
    Decimal,
    /// A number of seconds, 0 or more, decimals allowed.
    Seconds,
    /// `true` or `false`.
    Boolean,
    /// `yes` or `no` (in any case).
    YesNo,
    /// One of these, exactly.
    OneOf(&'static [&'static str]),
    /// An ISO 8601 date or date and time.
    Iso8601,
    /// An RFC 2822 date, as RSS writes them.
    Rfc2822,
    /// A language tag (BCP 47).
    Language,
    /// An e-mail address.
    Email,
    /// A UUID (the feed guids `podcast:remoteItem` points at).
    Uuid,
    /// A `geo:` URI (RFC 5870).
    Geo,
    /// An ISO 3166-1 alpha-2 country code: two letters.
    Country,
    /// An OpenStreetMap object: its type's letter (N, W or R) and its id.
    Osm,
    /// One of a registered list that grows: an unknown entry is
    /// `podcast-unknown-slug`'s warning, not an invalid value.
    Slug(&'static [&'static str]),
}

/// A tag's node value.
#[derive(Clone, Copy)]
enum NodeValue {
    /// Free, or empty.
    Free,
    /// Required, in this format.
    Required(Format),
    /// One or more of these child tags.
    Children(&'static [&'static str]),
}

struct Attribute {
    name: &'static str,
    required: bool,
    format: Format,
}

const fn required(name: &'static str, format: Format) -> Attribute {
    Attribute {
        name,
        required: true,
        format,
    }
}

const fn optional(name: &'static str, format: Format) -> Attribute {
    Attribute {
        name,
        required: false,
        format,
    }
}

/// A tag as its document defines it.
pub(crate) struct Tag {
    name: &'static str,
    /// Its document: `tags/NAME.md` of the namespace's repository.
    file: &'static str,
    parents: &'static [Parent],
    /// Count "Single": at most one in a parent.
    single: bool,
    value: NodeValue,
    /// "Please do not exceed N characters" for the node value.
    max_chars: Option<usize>,
    attributes: &'static [Attribute],
}

const CHANNEL: &[Parent] = &[Parent::Channel];
const ITEM: &[Parent] = &[Parent::Item];
const CHANNEL_OR_ITEM: &[Parent] = &[Parent::Channel, Parent::Item];

fn tag_named(name: &str) -> Option<&'static Tag> {
    TAGS.iter().find(|tag| tag.name == name)
}

/// Every element of the namespace in an RSS document's channel, with its
/// tag where the namespace defines it (gathered in the one pass over the
/// document's nodes).
fn podcast_elements<'a, 'i>(feed: &FeedDoc<'a, 'i>) -> Vec<(Node<'a, 'i>, Option<&'static Tag>)> {
    let Some(channel) = rss_channel(feed) else {
        return Vec::new();
    };
    let inside = channel.range();
    feed.everywhere
        .podcast_elements
        .iter()
        .filter(|node| inside.start < node.range().start && node.range().end <= inside.end)
        .map(|node| (node, tag_named(node.tag_name().name())))
        .collect()
}

/// The elements of one tag.
fn elements_of<'a, 'i>(feed: &FeedDoc<'a, 'i>, name: &str) -> Vec<Node<'a, 'i>> {
    podcast_elements(feed)
        .into_iter()
        .filter(|(_, tag)| tag.is_some_and(|tag| tag.name == name))
        .map(|(node, _)| node)
        .collect()
}

/// Where an element stands, as a tag's parents are written.
fn parent_of(node: Node) -> Option<Parent> {
    let parent = node.parent_element()?;
    let name = parent.tag_name();
    match (name.namespace(), name.name()) {
        (None, "channel") => Some(Parent::Channel),
        (None, "item") => Some(Parent::Item),
        (Some(PODCAST_NS), "liveItem") => Some(Parent::Item),
        (Some(PODCAST_NS), other) => tag_named(other).map(|tag| Parent::Tag(tag.name)),
        _ => None,
    }
}

fn parent_words(parent: Parent) -> String {
    match parent {
        Parent::Channel => "<channel>".to_owned(),
        Parent::Item => "<item> (or podcast:liveItem)".to_owned(),
        Parent::Tag(name) => format!("podcast:{name}"),
    }
}

/// The spec reference of a tag's document.
fn tag_doc(tag: &Tag) -> String {
    format!("Podcasting 2.0, tags/{}.md", tag.file)
}

pub static PODCAST_UNKNOWN_ELEMENT: Rule = rule!(
    PodcastUnknownElement, Warning, Doc, Some(podcast_unknown_element),
    groups: [Podcast],
    summary: "a podcast: element that the Podcasting 2.0 namespace does not define (often a misspelt one)",
    spec: "Podcasting 2.0, docs/1.0.md and tags/*.md",
);

/// The tag a misspelt name meant: the same but for case, or one edit
/// apart.
fn meant_tag(name: &str) -> Option<&'static Tag> {
    TAGS.iter().find(|tag| tag.name.eq_ignore_ascii_case(name)).or_else(|| {
        TAGS.iter().find(|tag| {
            crate::findings::rule_id::one_edit_apart(&tag.name.to_ascii_lowercase(), &name.to_ascii_lowercase(), true)
        })
    })
}

fn podcast_unknown_element(cx: &mut Checker) {
    let feed = cx.feed;
    let unknown: Vec<Node> = podcast_elements(feed)
        .into_iter()
        .filter(|(_, tag)| tag.is_none())
        .map(|(node, _)| node)
        .collect();
    for node in unknown {
        let name = node.tag_name().name();
        let meant = meant_tag(name);
        let message = match meant {
            Some(tag) => format!(
                "podcast:{} is not a Podcasting 2.0 tag; did you mean podcast:{}?",
                shorten(name),
                tag.name
            ),
            None => format!("podcast:{} is not a Podcasting 2.0 tag", shorten(name)),
        };
        cx.report(
            Checker::at(start_tag(node), message)
                .label("no such tag")
                .note("the namespace's tags are those of its documents (tags/*.md); apps read only those, so this element is ignored")
                .help(match meant {
                    Some(tag) => format!("write podcast:{}", tag.name),
                    None => "remove it, or put it in a namespace of your own".to_owned(),
                }),
        );
    }
}

pub static PODCAST_DEPRECATED_TAG: Rule = rule!(
    PodcastDeprecatedTag, Warning, Doc, Some(podcast_deprecated_tag),
    groups: [Podcast],
    summary: "a Podcasting 2.0 tag its document deprecates: podcast:images, for which podcast:image should be used",
    spec: "Podcasting 2.0, tags/images-deprecated.md",
);

/// A warning: the tag's document says the new tag "should be used
/// instead"; apps may still read the old one.
fn podcast_deprecated_tag(cx: &mut Checker) {
    let feed = cx.feed;
    for node in elements_of(feed, "images") {
        cx.report(
            Checker::at(start_tag(node), "podcast:images is deprecated; podcast:image replaces it")
                .label("deprecated")
                .note("Podcasting 2.0, tags/images-deprecated.md: \"Important: This tag is now deprecated. The new podcast:image tag should be used instead\"")
                .help("write one <podcast:image href=\"https://...\" width=\"...\"/> for each image of its srcset"),
        );
    }
}

pub static PODCAST_MISPLACED_ELEMENT: Rule = rule!(
    PodcastMisplacedElement, Warning, Doc, Some(podcast_misplaced_element),
    groups: [Podcast],
    summary: "a Podcasting 2.0 tag in a parent its document does not give it (podcast:transcript in <channel>)",
    spec: "Podcasting 2.0, tags/*.md: Parent",
);

fn podcast_misplaced_element(cx: &mut Checker) {
    let feed = cx.feed;
    let misplaced: Vec<(Node, &Tag)> = podcast_elements(feed)
        .into_iter()
        .filter_map(|(node, tag)| {
            let tag = tag?;
            // Under an unknown or misplaced podcast tag, the parent is
            // that element's finding.
            let parent = parent_of(node);
            let under_unknown = node
                .parent_element()
                .is_some_and(|p| p.tag_name().namespace() == Some(PODCAST_NS) && parent.is_none());
            (!under_unknown && !parent.is_some_and(|p| tag.parents.contains(&p))).then_some((node, tag))
        })
        .collect();
    for (node, tag) in misplaced {
        let allowed: Vec<String> = tag.parents.iter().map(|p| parent_words(*p)).collect();
        let here = node
            .parent_element()
            .map_or_else(String::new, |p| format!("<{}>", p.tag_name().name()));
        cx.report(
            Checker::at(
                start_tag(node),
                format!(
                    "podcast:{} stands in {here}, where its document does not place it",
                    tag.name
                ),
            )
            .label("misplaced")
            .note(format!(
                "{}: Parent: {}; apps look for it there only",
                tag_doc(tag),
                allowed.join(" or ")
            ))
            .help(format!("move it into {}", allowed.join(" or "))),
        );
    }
}

pub static PODCAST_REPEATED_ELEMENT: Rule = rule!(
    PodcastRepeatedElement, Warning, Doc, Some(podcast_repeated_element),
    groups: [Podcast],
    summary: "a Podcasting 2.0 tag whose count is single, twice in one parent",
    spec: "Podcasting 2.0, tags/*.md: Count",
);

fn podcast_repeated_element(cx: &mut Checker) {
    let feed = cx.feed;
    let mut repeats = Vec::new();
    let mut seen: crate::base::hash::FastMap<(crate::xml::NodeId, &str), Range<usize>> =
        crate::base::hash::FastMap::default();
    for (node, tag) in podcast_elements(feed) {
        let (Some(tag), Some(parent)) = (tag, node.parent_element()) else {
            continue;
        };
        if !tag.single {
            continue;
        }
        match seen.get(&(parent.id(), tag.name)) {
            Some(first) => repeats.push((node, tag, first.clone())),
            None => {
                seen.insert((parent.id(), tag.name), start_tag(node));
            }
        }
    }
    for (node, tag, first) in repeats {
        cx.report(
            Checker::at(start_tag(node), format!("a second podcast:{} in one parent", tag.name))
                .label("again")
                .secondary(first, "the first")
                .note(format!(
                    "{}: Count: Single; apps read one, and which one is theirs to choose",
                    tag_doc(tag)
                ))
                .help("keep one, and remove the others"),
        );
    }
}

/// An attribute a tag's document requires only in some uses, and the
/// words that say so: a custom license's `url`; the `medium` of the
/// `podcast:remoteItem` a `podcast:publisher` holds.
fn required_here(node: Node, tag: &Tag) -> Option<(&'static str, &'static str)> {
    match tag.name {
        "license" if !LICENSES.iter().any(|l| l.eq_ignore_ascii_case(Text::of(node).value)) => Some((
            "url",
            "tags/license.md: \"Custom licenses must always include a url attribute\" (a license not in the namespace's license list is custom)",
        )),
        "remoteItem" if parent_of(node) == Some(Parent::Tag("publisher")) => Some((
            "medium",
            "tags/publisher.md: the tag \"must contain exactly one <podcast:remoteItem medium=\"publisher\"> element pointing to the publisher feed\"",
        )),
        _ => None,
    }
}

pub static PODCAST_MISSING_ATTRIBUTE: Rule = rule!(
    PodcastMissingAttribute, Error, Doc, Some(podcast_missing_attribute),
    groups: [Podcast],
    summary: "a Podcasting 2.0 tag without an attribute its document marks required (a transcript without type, a remoteItem without feedGuid)",
    spec: "Podcasting 2.0, tags/*.md: Attributes",
);

fn podcast_missing_attribute(cx: &mut Checker) {
    let feed = cx.feed;
    let missing: Vec<(Node, &Tag, Vec<&str>)> = podcast_elements(feed)
        .into_iter()
        .filter_map(|(node, tag)| {
            let tag = tag?;
            let absent: Vec<&str> = tag
                .attributes
                .iter()
                .filter(|a| a.required && !node.has_attribute(a.name))
                // socialInteract: "uri" is "not required" where the
                // protocol is "disabled".
                .filter(|a| {
                    !(tag.name == "socialInteract" && a.name == "uri" && node.attribute("protocol") == Some("disabled"))
                })
                .map(|a| a.name)
                .chain(
                    required_here(node, tag)
                        .map(|(name, _)| name)
                        .filter(|name| !node.has_attribute(*name)),
                )
                .collect();
            (!absent.is_empty()).then_some((node, tag, absent))
        })
        .collect();
    for (node, tag, absent) in missing {
        if let Some((name, why)) = required_here(node, tag).filter(|(name, _)| absent == [*name]) {
            cx.report(
                Checker::at(start_tag(node), format!("podcast:{} has no {name}", tag.name))
                    .label(format!("no {name}"))
                    .note(format!("Podcasting 2.0, {why}"))
                    .help(match name {
                        "url" => "add url=\"...\", the address of the license's full text".to_owned(),
                        _ => format!("add {name}=\"publisher\""),
                    }),
            );
            continue;
        }
        let names = absent.join(" and ");
        cx.report(
            Checker::at(start_tag(node), format!("podcast:{} has no {names}", tag.name))
                .label(format!("no {names}"))
                .note(format!(
                    "{}: {} {} required; apps skip the tag without {}",
                    tag_doc(tag),
                    names,
                    if absent.len() == 1 { "is" } else { "are" },
                    if absent.len() == 1 { "it" } else { "them" }
                ))
                .help(format!(
                    "add {}",
                    absent
                        .iter()
                        .map(|a| format!("{a}=\"...\""))
                        .collect::<Vec<_>>()
                        .join(" ")
                )),
        );
    }
}

pub static PODCAST_MISSING_CHILD: Rule = rule!(
    PodcastMissingChild, Error, Doc, Some(podcast_missing_child),
    groups: [Podcast],
    summary: "a Podcasting 2.0 tag that must hold other tags holds none (a podcast:value without a valueRecipient, a podcast:liveItem without a podcast:contentLink)",
    spec: "Podcasting 2.0, tags/value.md, value-time-split.md, alternate-enclosure.md, podroll.md, publisher.md: Node value; tags/live-item.md",
);

fn podcast_missing_child(cx: &mut Checker) {
    let feed = cx.feed;
    let empty: Vec<(Node, &Tag, &[&str])> = podcast_elements(feed)
        .into_iter()
        .filter_map(|(node, tag)| {
            let tag = tag?;
            let NodeValue::Children(children) = tag.value else {
                return None;
            };
            let holds = node.children().any(|child| {
                child.tag_name().namespace() == Some(PODCAST_NS) && children.contains(&child.tag_name().name())
            });
            (!holds).then_some((node, tag, children))
        })
        .collect();
    // Children a tag's document requires beside its own node value.
    let live_items = elements_of(feed, "liveItem");
    for live in live_items
        .into_iter()
        .filter(|live| !has_podcast_child(*live, "contentLink"))
    {
        cx.report(
            Checker::at(start_tag(live), "podcast:liveItem holds no podcast:contentLink")
                .label("no fallback link")
                .note("Podcasting 2.0, tags/live-item.md: \"The <podcast:contentLink> tag is also required to be present, to ensure that listeners have a fallback option in case their chosen app cannot play the given content stream directly\"")
                .help("add <podcast:contentLink href=\"https://...\">Listen live</podcast:contentLink>, a page that plays the stream"),
        );
    }
    for (node, tag, children) in empty {
        let names: Vec<String> = children.iter().map(|c| format!("podcast:{c}")).collect();
        cx.report(
            Checker::at(
                start_tag(node),
                format!("podcast:{} holds no {}", tag.name, names.join(" or ")),
            )
            .label("empty")
            .note(format!(
                "{}: the node value \"must be one or more\" of them; without, the tag says nothing",
                tag_doc(tag)
            ))
            .help(format!("add {} inside it, or remove it", names.join(" or "))),
        );
    }
}

/// Whether `node` holds a Podcasting 2.0 tag named `local`.
fn has_podcast_child(node: Node, local: &str) -> bool {
    node.children().any(|child| child.has_tag_name(Some(PODCAST_NS), local))
}

/// Why `value` is not in `format`, if it is not.
fn format_error(format: Format, value: &str) -> Option<String> {
    let number = |v: &str| v.parse::<f64>().ok().filter(|n| n.is_finite() && !v.starts_with('+'));
    match format {
        Format::Text | Format::Slug(_) => None,
        Format::Url => match url::Url::parse(value) {
            Ok(_) => None,
            Err(_) => Some("it is not an absolute URL".to_owned()),
        },
        Format::MediaType => (!syntax::is_media_type(value)).then(|| "it is not a media type".to_owned()),
        Format::Integer => (value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()))
            .then(|| "it is not a whole number".to_owned()),
        Format::Decimal => number(value).is_none().then(|| "it is not a number".to_owned()),
        Format::Seconds => number(value)
            .filter(|n| *n >= 0.0)
            .is_none()
            .then(|| "it is not a number of seconds".to_owned()),
        Format::Boolean => (value != "true" && value != "false").then(|| "it is neither true nor false".to_owned()),
        Format::YesNo => (!value.eq_ignore_ascii_case("yes") && !value.eq_ignore_ascii_case("no"))
            .then(|| "it is neither yes nor no".to_owned()),
        Format::OneOf(values) => (!values.contains(&value)).then(|| format!("it is not one of {}", values.join(", "))),
        Format::Iso8601 => crate::text::iso8601::parse_iso8601(value)
            .err()
            .map(|why| format!("it is not an ISO 8601 date or time: {why}")),
        Format::Rfc2822 => crate::text::date::parse_rfc822(value)
            .is_err()
            .then(|| "it is not an RFC 2822 date".to_owned()),
        Format::Language => syntax::language_tag_error(value).map(|why| format!("it is not a language tag: {why}")),
        Format::Email => syntax::addr_spec_error(value).map(|why| format!("it is not an e-mail address: {why}")),
        Format::Uuid => (!syntax::is_uuid(value)).then(|| "it is not a UUID".to_owned()),
        Format::Geo => (!is_geo(value)).then(|| "it is not a geo: URI (geo:latitude,longitude)".to_owned()),
        Format::Country => (value.len() != 2 || !value.bytes().all(|b| b.is_ascii_alphabetic()))
            .then(|| "it is not a two-letter ISO 3166-1 country code (US, GB, AU)".to_owned()),
        Format::Osm => {
            let id = value.strip_prefix(['N', 'W', 'R', 'n', 'w', 'r']).unwrap_or_default();
            (id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()))
                .then(|| "it is not an OpenStreetMap object: N, W or R and its number (R113314)".to_owned())
        }
    }
}

/// RFC 5870: `geo:` and two or three coordinates, with parameters.
fn is_geo(value: &str) -> bool {
    let Some(rest) = value
        .get(..4)
        .filter(|s| s.eq_ignore_ascii_case("geo:"))
        .and_then(|_| value.get(4..))
    else {
        return false;
    };
    let coordinates = rest.split(';').next().unwrap_or_default();
    let numbers: Vec<&str> = coordinates.split(',').collect();
    (2..=3).contains(&numbers.len())
        && numbers
            .iter()
            .all(|n| n.trim().parse::<f64>().is_ok_and(f64::is_finite))
}

/// A value a tag's document defines only in some uses, where it is not
/// that: a `podcast:publisher`'s one `podcast:remoteItem`, whose `medium`
/// is "publisher";
/// a `podcast:txt` whose purpose is `ai-content` ("a boolean (true or
/// false)").
fn value_error_here(node: Node, tag: &Tag) -> Option<(Range<usize>, String)> {
    match tag.name {
        "remoteItem" if parent_of(node) == Some(Parent::Tag("publisher")) => {
            let medium = node.attribute_node("medium")?;
            let value = medium.value().trim();
            (value != "publisher" && !value.is_empty()).then(|| {
                (
                    medium.range_value(),
                    format!(
                        "the medium of a podcast:publisher's remoteItem is `{}`, not publisher",
                        shorten(value)
                    ),
                )
            })
        }
        // "exactly one": the second is the finding (none is
        // podcast-missing-child's).
        "publisher" => {
            let second = node
                .children()
                .filter(|child| child.has_tag_name(Some(PODCAST_NS), "remoteItem"))
                .nth(1)?;
            Some((
                start_tag(second),
                "a second podcast:remoteItem in podcast:publisher, which holds exactly one".to_owned(),
            ))
        }
        "txt" if node.attribute("purpose").map(str::trim) == Some("ai-content") => {
            let text = Text::of(node);
            (!text.value.is_empty() && text.value != "true" && text.value != "false").then(|| {
                (
                    text.range.clone(),
                    format!(
                        "podcast:txt for ai-content is `{}`, neither true nor false",
                        shorten(text.value)
                    ),
                )
            })
        }
        _ => None,
    }
}

pub static PODCAST_INVALID_VALUE: Rule = rule!(
    PodcastInvalidValue, Error, Doc, Some(podcast_invalid_value),
    groups: [Podcast],
    summary: "a Podcasting 2.0 tag's node value or attribute that is not what its document says (podcast:locked maybe, a transcript type that is no media type, a blank person)",
    spec: "Podcasting 2.0, tags/*.md: Node value, Attributes",
);

fn podcast_invalid_value(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings: Vec<(Range<usize>, String, &Tag)> = Vec::new();
    for (node, tag) in podcast_elements(feed) {
        let Some(tag) = tag else { continue };
        let text = Text::of(node);
        let node_format = match tag.value {
            NodeValue::Required(_) if text.value.is_empty() => {
                findings.push((
                    start_tag(node),
                    format!("podcast:{} is empty, and its node value is required", tag.name),
                    tag,
                ));
                None
            }
            NodeValue::Required(format) => Some(format),
            _ => None,
        };
        if let Some(why) = node_format.and_then(|format| format_error(format, text.value)) {
            findings.push((
                text.range.clone(),
                format!("podcast:{} `{}`: {why}", tag.name, shorten(text.value)),
                tag,
            ));
        }
        for spec in tag.attributes {
            let Some(attribute) = node.attribute_node(spec.name) else {
                continue;
            };
            let value = attribute.value().trim();
            if spec.required && value.is_empty() {
                // "All attributes are required unless explicitly specified
                // as optional": one written empty gives nothing.
                findings.push((
                    attribute.range_value(),
                    format!("the {} of podcast:{} is empty, and it is required", spec.name, tag.name),
                    tag,
                ));
                continue;
            }
            // An optional attribute written empty says nothing, as if it
            // were not written (a generator's `href=""` for a person with
            // no page); apps read it so.
            if value.is_empty() {
                continue;
            }
            if let Some(why) = format_error(spec.format, value) {
                findings.push((
                    attribute.range_value(),
                    format!("the {} of podcast:{}, `{}`: {why}", spec.name, tag.name, shorten(value)),
                    tag,
                ));
            }
        }
        if let Some((at, message)) = value_error_here(node, tag) {
            findings.push((at, message, tag));
        }
    }
    for (at, message, tag) in findings {
        cx.report(
            Checker::at(at, message)
                .label("not what the tag takes")
                .note(format!(
                    "{} says what the value is; apps that cannot read it skip the tag",
                    tag_doc(tag)
                ))
                .help(format!("write the value as {} describes it", tag_doc(tag))),
        );
    }
}

pub static PODCAST_URL_NOT_HTTPS: Rule = rule!(
    PodcastUrlNotHttps, Error, Doc, Some(podcast_url_not_https),
    groups: [Podcast],
    summary: "a URL in a Podcasting 2.0 tag's attribute that is http:, where the namespace asks for https:",
    spec: "Podcasting 2.0, 1.0.md: Podcast Tags",
);

/// An error: the namespace says every such URL "must be given as
/// `https:`", and none of its documents' examples writes one otherwise.
fn podcast_url_not_https(cx: &mut Checker) {
    let feed = cx.feed;
    let mut plain = Vec::new();
    for (node, tag) in podcast_elements(feed) {
        let Some(tag) = tag else { continue };
        for spec in tag.attributes.iter().filter(|spec| matches!(spec.format, Format::Url)) {
            let Some(attribute) = node.attribute_node(spec.name) else {
                continue;
            };
            let value = attribute.value().trim();
            if value
                .get(..5)
                .is_some_and(|scheme| scheme.eq_ignore_ascii_case("http:"))
            {
                plain.push((attribute.range_value(), spec.name, tag.name, value));
            }
        }
    }
    // A generator writes the same URL in every episode (a host's home
    // page on each person): one finding per URL, counted.
    let places = plain
        .into_iter()
        .map(|(at, attribute, tag, value)| ((attribute, tag, value), at, None))
        .collect();
    report_grouped(cx, places, |at, &(attribute, tag, value), others| {
        Checker::at(at, format!("the {attribute} of podcast:{tag} is an http: URL, `{}`{}", shorten(value), more(others)))
            .label("not https:")
            .note("Podcasting 2.0, 1.0.md: \"Anywhere the url of a hyper-text based resource is specified, it must be given as `https:` and not `http:`.\"")
            .help(format!("serve it over HTTPS and write https:{}", value.get(5..).unwrap_or_default()))
    });
}

pub static PODCAST_UNKNOWN_SLUG: Rule = rule!(
    PodcastUnknownSlug, Warning, Doc, Some(podcast_unknown_slug),
    groups: [Podcast],
    summary: "a Podcasting 2.0 attribute that names an entry of a registered list (a service, chat or social protocol, a value type) the list does not have",
    spec: "Podcasting 2.0, serviceslugs.txt, chatprotocols.txt, socialprotocols.txt, valueslugs.txt",
);

/// A warning: the lists grow as services come, and an entry newer than
/// feedlint's copy is no mistake.
fn podcast_unknown_slug(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for (node, tag) in podcast_elements(feed) {
        let Some(tag) = tag else { continue };
        for spec in tag.attributes {
            let Format::Slug(slugs) = spec.format else { continue };
            let Some(attribute) = node.attribute_node(spec.name) else {
                continue;
            };
            let value = attribute.value().trim();
            if !value.is_empty() && !slugs.contains(&value) {
                let meant = slugs.iter().find(|s| s.eq_ignore_ascii_case(value)).copied();
                findings.push((
                    attribute.range_value(),
                    format!(
                        "the {} of podcast:{}, `{}`, is not in the namespace's list",
                        spec.name,
                        tag.name,
                        shorten(value)
                    ),
                    meant,
                ));
            }
        }
    }
    for (at, message, meant) in findings {
        cx.report(
            Checker::at(at, message)
                .label("not listed")
                .note("the tag's document points to a list of registered values; apps know only those")
                .help(match meant {
                    Some(meant) => format!("write {meant}, as the list does"),
                    None => "use an entry of the list, or have the new one registered with the namespace".to_owned(),
                }),
        );
    }
}

pub static PODCAST_VALUE_TOO_LONG: Rule = rule!(
    PodcastValueTooLong, Warning, Doc, Some(podcast_value_too_long),
    groups: [Podcast],
    summary: "a Podcasting 2.0 node value or purpose longer than its document asks (128 characters for a person or a funding text, 4,000 for a txt)",
    spec: "Podcasting 2.0, tags/*.md: \"Please do not exceed N characters\"",
);

fn podcast_value_too_long(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for (node, tag) in podcast_elements(feed) {
        let Some(tag) = tag else { continue };
        let text = Text::of(node);
        if let Some(max) = tag.max_chars {
            let chars = text.value.chars().count();
            if chars > max {
                findings.push((
                    start_tag(node),
                    format!("podcast:{} is {chars} characters long, more than {max}", tag.name),
                    tag,
                ));
            }
        }
        // txt's and image's purpose "should not exceed 128 characters".
        if let Some(purpose) = node
            .attribute_node("purpose")
            .filter(|_| matches!(tag.name, "txt" | "image"))
        {
            let chars = purpose.value().chars().count();
            if chars > 128 {
                findings.push((
                    purpose.range_value(),
                    format!(
                        "the purpose of podcast:{} is {chars} characters long, more than 128",
                        tag.name
                    ),
                    tag,
                ));
            }
        }
    }
    for (at, message, tag) in findings {
        cx.report(
            Checker::at(at, message)
                .label("too long")
                .note(format!(
                    "{}: \"Please do not exceed\" the length, \"or it may be truncated by aggregators\"",
                    tag_doc(tag)
                ))
                .help("shorten it"),
        );
    }
}

pub static PODCAST_UNKNOWN_MEDIUM: Rule = rule!(
    PodcastUnknownMedium, Warning, Doc, Some(podcast_unknown_medium),
    groups: [Podcast],
    summary: "a podcast:medium that is none of the namespace's mediums (podcast, music, video, film, audiobook, ..., their lists, mixed)",
    spec: "Podcasting 2.0, tags/medium.md",
);

fn podcast_unknown_medium(cx: &mut Checker) {
    let feed = cx.feed;
    let unknown: Vec<Text> = elements_of(feed, "medium")
        .into_iter()
        .map(Text::of)
        .filter(|text| !text.value.is_empty() && !is_medium(text.value))
        .collect();
    for text in unknown {
        let meant = MEDIUMS
            .iter()
            .flat_map(|m| [(*m).to_owned(), format!("{m}L")])
            .chain(std::iter::once("mixed".to_owned()))
            .find(|m| m.eq_ignore_ascii_case(text.value));
        cx.report(
            Checker::at(text.range.clone(), format!("podcast:medium `{}` is not a medium of the namespace", shorten(text.value)))
                .label("no such medium")
                .note("tags/medium.md: \"The node value is a string denoting one of the following possible values\": podcast, music, video, film, audiobook, newsletter, blog, publisher, course, each with its list (podcastL, musicL, ...), and mixed; apps show an unknown medium as a podcast")
                .help(match meant {
                    Some(meant) => format!("write {meant}"),
                    None => "write one of the mediums, or podcast (the default) by leaving the tag out".to_owned(),
                }),
        );
    }
}

fn is_medium(value: &str) -> bool {
    value == "mixed" || MEDIUMS.contains(&value) || value.strip_suffix('L').is_some_and(|base| MEDIUMS.contains(&base))
}

pub static PODCAST_LIST_WITH_ITEMS: Rule = rule!(
    PodcastListWithItems, Warning, Doc, Some(podcast_list_with_items),
    groups: [Podcast],
    summary: "a feed whose podcast:medium is a list (podcastL, musicL, mixed, ...) that still has items",
    spec: "Podcasting 2.0, tags/medium.md: List Mediums",
);

fn podcast_list_with_items(cx: &mut Checker) {
    let feed = cx.feed;
    if feed.entries.is_empty() {
        return;
    }
    let lists: Vec<Text> = elements_of(feed, "medium")
        .into_iter()
        .filter(|node| node.parent_element() == feed.head)
        .map(Text::of)
        .filter(|text| text.value == "mixed" || (text.value.ends_with('L') && is_medium(text.value)))
        .take(1)
        .collect();
    for text in lists {
        cx.report(
            Checker::at(text.range.clone(), format!("this feed is a list (podcast:medium {}), but it has {} items", text.value, feed.entries.len()))
                .label("a list medium")
                .secondary(start_tag(feed.entries[0].node), "the first item")
                .note("tags/medium.md: \"A 'list' medium feed should not be expected to have regular <item>'s [...] Rather, a 'List' feed is intended to exclusively contain one or more <podcast:remoteItem>'s\"")
                .help("point to the episodes with <podcast:remoteItem feedGuid=\"...\" itemGuid=\"...\"/> in the channel, or write the medium without its L"),
        );
    }
}

pub static PODCAST_VALUE_SPLIT_OUT_OF_RANGE: Rule = rule!(
    PodcastValueSplitOutOfRange, Warning, Doc, Some(podcast_value_split_out_of_range),
    groups: [Podcast],
    summary: "a podcast:valueTimeSplit that starts past the episode's end, or whose remotePercentage is outside 0 to 100",
    spec: "Podcasting 2.0, tags/value-time-split.md",
);

/// The episode's length in seconds, from its itunes:duration.
fn episode_seconds(item: Node) -> Option<f64> {
    let duration = item.children().find(|c| c.has_tag_name(Some(ITUNES_NS), "duration"))?;
    let value = Text::of(duration).value;
    value
        .split(':')
        .try_fold(0.0, |total, field| Some(total * 60.0 + field.parse::<f64>().ok()?))
}

fn podcast_value_split_out_of_range(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for split in elements_of(feed, "valueTimeSplit") {
        if let Some(percentage) = split.attribute_node("remotePercentage") {
            if percentage
                .value()
                .trim()
                .parse::<f64>()
                .is_ok_and(|p| !(0.0..=100.0).contains(&p))
            {
                findings.push((percentage.range_value(), format!("remotePercentage {} is outside 0 to 100", shorten(percentage.value())), "tags/value-time-split.md: \"If the value is less than 0, 0 is assumed. If the value is greater than 100, 100 is assumed\"".to_owned()));
            }
        }
        let item = split
            .ancestors()
            .find(|a| a.has_tag_name(None, "item") || a.has_tag_name(Some(PODCAST_NS), "liveItem"));
        let length = item.and_then(episode_seconds);
        let start = split.attribute_node("startTime");
        if let (Some(length), Some(start)) = (length, start) {
            if start.value().trim().parse::<f64>().is_ok_and(|s| s >= length) {
                findings.push((start.range_value(), format!("this split starts at {} s, past the episode's end ({length} s)", shorten(start.value().trim())), "tags/value-time-split.md: startTime is \"the time, in seconds\" into the episode where the split begins; one past the end never plays".to_owned()));
            }
        }
    }
    for (at, message, note) in findings {
        cx.report(
            Checker::at(at, message)
                .label("out of range")
                .note(note)
                .help("write a value within the range: a percentage from 0 to 100, a start before the episode's end"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tag_document_has_its_entry() {
        let names: Vec<&str> = TAGS.iter().map(|tag| tag.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "one entry per tag");
        assert_eq!(TAGS.len(), 32, "the namespace's 32 tag documents");
    }
}
