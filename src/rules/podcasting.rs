//! The Podcasting 2.0 namespace (`https://podcastindex.org/namespace/1.0`),
//! tag by tag as its documents define them (group `podcast`): where each
//! tag stands, how often, its node value and its attributes, in [`TAGS`],
//! one entry per tag; then the checks a table cannot say (a guid that is a
//! UUIDv5, people's roles, live items' times, recurrence rules, value
//! splits), one small function each. They apply wherever the tags stand.

use std::ops::Range;

use super::{rule, Checker, Rule};
use crate::diagnostic::shorten;
use crate::feed::{start_tag, DocKind, FeedDoc, Text, ITUNES_NS, PODCAST_NS};
use crate::syntax;
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
pub(super) struct Tag {
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

/// The registered lists the tags point to (`serviceslugs.txt`,
/// `chatprotocols.txt`, `socialprotocols.txt`, `valueslugs.txt`).
const SERVICE_SLUGS: &[&str] = &[
    "acast",
    "amazon",
    "anchor",
    "apple",
    "audible",
    "audioboom",
    "backtracks",
    "bitcoin",
    "blubrry",
    "buzzsprout",
    "captivate",
    "castos",
    "castopod",
    "facebook",
    "fireside",
    "fyyd",
    "google",
    "gpodder",
    "hypercatcher",
    "kasts",
    "libsyn",
    "mastodon",
    "megafono",
    "megaphone",
    "omnystudio",
    "overcast",
    "paypal",
    "pinecast",
    "podbean",
    "podcastaddict",
    "podcastguru",
    "podcastindex",
    "podcasts",
    "podchaser",
    "podcloud",
    "podfriend",
    "podiant",
    "podigee",
    "podnews",
    "podomatic",
    "podserve",
    "podverse",
    "redcircle",
    "relay",
    "resonaterecordings",
    "rss",
    "shoutengine",
    "simplecast",
    "slack",
    "soundcloud",
    "spotify",
    "spreaker",
    "tiktok",
    "transistor",
    "twitter",
    "whooshkaa",
    "youtube",
    "zencast",
];
const CHAT_PROTOCOLS: &[&str] = &["irc", "xmpp", "nostr", "matrix"];
const SOCIAL_PROTOCOLS: &[&str] = &[
    "disabled",
    "activitypub",
    "twitter",
    "lightning",
    "atproto",
    "hive",
    "matrix",
    "nostr",
];
const VALUE_SLUGS: &[&str] = &["bitcoin", "lightning", "keysend", "lnaddress", "amp", "wallet", "node"];

/// The mediums of `medium.md`, and their list variants (an `L` after).
const MEDIUMS: &[&str] = &[
    "podcast",
    "music",
    "video",
    "film",
    "audiobook",
    "newsletter",
    "blog",
    "publisher",
    "course",
];

/// Every tag of the namespace, as its document (`tags/*.md`) defines it.
pub(super) static TAGS: &[Tag] = &[
    Tag {
        name: "alternateEnclosure",
        file: "alternate-enclosure",
        parents: ITEM,
        single: false,
        value: NodeValue::Children(&["source"]),
        max_chars: None,
        attributes: &[
            required("type", Format::MediaType),
            optional("length", Format::Integer),
            optional("bitrate", Format::Decimal),
            optional("height", Format::Integer),
            optional("lang", Format::Language),
            optional("title", Format::Text),
            optional("rel", Format::Text),
            optional("codecs", Format::Text),
            optional("default", Format::Boolean),
        ],
    },
    Tag {
        name: "block",
        file: "block",
        parents: CHANNEL,
        single: false,
        value: NodeValue::Required(Format::YesNo),
        max_chars: None,
        attributes: &[optional("id", Format::Slug(SERVICE_SLUGS))],
    },
    Tag {
        name: "chapters",
        file: "chapters",
        parents: ITEM,
        single: true,
        value: NodeValue::Free,
        max_chars: None,
        attributes: &[required("url", Format::Url), required("type", Format::MediaType)],
    },
    Tag {
        name: "chat",
        file: "chat",
        parents: &[Parent::Channel, Parent::Item],
        single: true,
        value: NodeValue::Free,
        max_chars: None,
        attributes: &[
            required("server", Format::Text),
            required("protocol", Format::Slug(CHAT_PROTOCOLS)),
            optional("accountId", Format::Text),
            optional("space", Format::Text),
        ],
    },
    Tag {
        name: "contentLink",
        file: "content-link",
        parents: ITEM,
        single: false,
        value: NodeValue::Free,
        max_chars: None,
        attributes: &[required("href", Format::Url)],
    },
    Tag {
        name: "episode",
        file: "episode",
        parents: ITEM,
        single: true,
        value: NodeValue::Required(Format::Decimal),
        max_chars: None,
        attributes: &[optional("display", Format::Text)],
    },
    Tag {
        name: "funding",
        file: "funding",
        parents: CHANNEL_OR_ITEM,
        single: false,
        value: NodeValue::Free,
        max_chars: Some(128),
        attributes: &[required("url", Format::Url)],
    },
    Tag {
        name: "guid",
        file: "guid",
        parents: CHANNEL,
        single: true,
        // Its format is podcast-guid-not-uuidv5's.
        value: NodeValue::Required(Format::Text),
        max_chars: None,
        attributes: &[],
    },
    Tag {
        name: "image",
        file: "image",
        parents: CHANNEL_OR_ITEM,
        single: false,
        value: NodeValue::Free,
        max_chars: None,
        attributes: &[
            required("href", Format::Url),
            optional("alt", Format::Text),
            optional("aspect-ratio", Format::Text),
            optional("width", Format::Integer),
            optional("height", Format::Integer),
            optional("type", Format::MediaType),
            optional("purpose", Format::Text),
        ],
    },
    Tag {
        name: "images",
        file: "images-deprecated",
        parents: CHANNEL_OR_ITEM,
        single: true,
        value: NodeValue::Free,
        max_chars: None,
        attributes: &[required("srcset", Format::Text)],
    },
    Tag {
        name: "integrity",
        file: "integrity",
        parents: &[Parent::Tag("alternateEnclosure")],
        single: true,
        value: NodeValue::Free,
        max_chars: None,
        attributes: &[
            required("type", Format::OneOf(&["sri", "pgp-signature"])),
            required("value", Format::Text),
        ],
    },
    Tag {
        name: "license",
        file: "license",
        parents: CHANNEL_OR_ITEM,
        single: true,
        value: NodeValue::Required(Format::Text),
        max_chars: None,
        attributes: &[optional("url", Format::Url)],
    },
    Tag {
        name: "liveItem",
        file: "live-item",
        parents: CHANNEL,
        single: false,
        value: NodeValue::Free,
        max_chars: None,
        attributes: &[
            required("status", Format::OneOf(&["pending", "live", "ended"])),
            required("start", Format::Iso8601),
            optional("end", Format::Iso8601),
        ],
    },
    Tag {
        name: "location",
        file: "location",
        parents: CHANNEL_OR_ITEM,
        single: false,
        value: NodeValue::Required(Format::Text),
        max_chars: None,
        attributes: &[
            optional("rel", Format::OneOf(&["subject", "creator"])),
            optional("geo", Format::Geo),
            optional("osm", Format::Text),
            optional("country", Format::Text),
        ],
    },
    Tag {
        name: "locked",
        file: "locked",
        parents: CHANNEL,
        single: true,
        value: NodeValue::Required(Format::YesNo),
        max_chars: None,
        attributes: &[optional("owner", Format::Email)],
    },
    Tag {
        name: "medium",
        file: "medium",
        parents: CHANNEL,
        single: true,
        // Its values are podcast-unknown-medium's.
        value: NodeValue::Required(Format::Text),
        max_chars: None,
        attributes: &[],
    },
    Tag {
        name: "person",
        file: "person",
        parents: CHANNEL_OR_ITEM,
        single: false,
        value: NodeValue::Required(Format::Text),
        max_chars: Some(128),
        attributes: &[
            optional("role", Format::Text),
            optional("group", Format::Text),
            optional("img", Format::Url),
            optional("href", Format::Url),
        ],
    },
    Tag {
        name: "podping",
        file: "podping",
        parents: CHANNEL,
        single: true,
        value: NodeValue::Free,
        max_chars: None,
        attributes: &[optional("usesPodping", Format::Boolean)],
    },
    Tag {
        name: "podroll",
        file: "podroll",
        parents: CHANNEL,
        single: true,
        value: NodeValue::Children(&["remoteItem"]),
        max_chars: None,
        attributes: &[],
    },
    Tag {
        name: "publisher",
        file: "publisher",
        parents: CHANNEL,
        single: true,
        value: NodeValue::Children(&["remoteItem"]),
        max_chars: None,
        attributes: &[],
    },
    Tag {
        name: "remoteItem",
        file: "remote-item",
        parents: &[
            Parent::Channel,
            Parent::Tag("podroll"),
            Parent::Tag("valueTimeSplit"),
            Parent::Tag("publisher"),
        ],
        single: false,
        value: NodeValue::Free,
        max_chars: None,
        attributes: &[
            required("feedGuid", Format::Uuid),
            optional("feedUrl", Format::Url),
            optional("itemGuid", Format::Text),
            optional("medium", Format::Text),
            optional("title", Format::Text),
        ],
    },
    Tag {
        name: "season",
        file: "season",
        parents: ITEM,
        single: true,
        value: NodeValue::Required(Format::Integer),
        max_chars: None,
        attributes: &[optional("name", Format::Text)],
    },
    Tag {
        name: "socialInteract",
        file: "social-interact",
        parents: CHANNEL_OR_ITEM,
        single: false,
        value: NodeValue::Free,
        max_chars: None,
        attributes: &[
            required("protocol", Format::Slug(SOCIAL_PROTOCOLS)),
            // Required but where the protocol is "disabled" (see
            // podcast_missing_attribute).
            required("uri", Format::Text),
            optional("accountId", Format::Text),
            optional("accountUrl", Format::Url),
            optional("priority", Format::Integer),
        ],
    },
    Tag {
        name: "soundbite",
        file: "soundbite",
        parents: ITEM,
        single: false,
        value: NodeValue::Free,
        max_chars: Some(128),
        attributes: &[
            required("startTime", Format::Seconds),
            required("duration", Format::Seconds),
        ],
    },
    Tag {
        name: "source",
        file: "source",
        parents: &[Parent::Tag("alternateEnclosure")],
        single: false,
        value: NodeValue::Free,
        max_chars: None,
        attributes: &[
            required("uri", Format::Text),
            optional("contentType", Format::MediaType),
        ],
    },
    Tag {
        name: "trailer",
        file: "trailer",
        parents: CHANNEL,
        single: false,
        value: NodeValue::Required(Format::Text),
        max_chars: Some(128),
        attributes: &[
            required("url", Format::Url),
            required("pubdate", Format::Rfc2822),
            optional("length", Format::Integer),
            optional("type", Format::MediaType),
            optional("season", Format::Integer),
        ],
    },
    Tag {
        name: "transcript",
        file: "transcript",
        parents: ITEM,
        single: false,
        value: NodeValue::Free,
        max_chars: None,
        attributes: &[
            required("url", Format::Url),
            required("type", Format::MediaType),
            optional("language", Format::Language),
            optional("rel", Format::OneOf(&["captions"])),
        ],
    },
    Tag {
        name: "txt",
        file: "txt",
        parents: CHANNEL_OR_ITEM,
        single: false,
        value: NodeValue::Required(Format::Text),
        max_chars: Some(4000),
        attributes: &[optional("purpose", Format::Text)],
    },
    Tag {
        name: "updateFrequency",
        file: "update-frequency",
        parents: CHANNEL,
        single: true,
        value: NodeValue::Free,
        max_chars: Some(128),
        attributes: &[
            optional("complete", Format::Boolean),
            optional("dtstart", Format::Iso8601),
            // Its syntax is podcast-invalid-rrule's.
            optional("rrule", Format::Text),
        ],
    },
    Tag {
        name: "value",
        file: "value",
        parents: CHANNEL_OR_ITEM,
        single: false,
        value: NodeValue::Children(&["valueRecipient", "valueTimeSplit"]),
        max_chars: None,
        attributes: &[
            required("type", Format::Slug(VALUE_SLUGS)),
            required("method", Format::Slug(VALUE_SLUGS)),
            optional("suggested", Format::Decimal),
        ],
    },
    Tag {
        name: "valueRecipient",
        file: "value-recipient",
        parents: &[Parent::Tag("value"), Parent::Tag("valueTimeSplit")],
        single: false,
        value: NodeValue::Free,
        max_chars: None,
        attributes: &[
            required("type", Format::Slug(VALUE_SLUGS)),
            required("address", Format::Text),
            required("split", Format::Decimal),
            optional("name", Format::Text),
            optional("customKey", Format::Text),
            optional("customValue", Format::Text),
            optional("fee", Format::Boolean),
        ],
    },
    Tag {
        name: "valueTimeSplit",
        file: "value-time-split",
        parents: &[Parent::Tag("value")],
        single: false,
        value: NodeValue::Children(&["remoteItem", "valueRecipient"]),
        max_chars: None,
        attributes: &[
            required("startTime", Format::Seconds),
            required("duration", Format::Seconds),
            optional("remoteStartTime", Format::Seconds),
            optional("remotePercentage", Format::Decimal),
        ],
    },
];

fn tag_named(name: &str) -> Option<&'static Tag> {
    TAGS.iter().find(|tag| tag.name == name)
}

/// Every element of the namespace in an RSS document's channel, with its
/// tag where the namespace defines it (gathered in the one pass over the
/// document's nodes).
fn podcast_elements<'a, 'i>(feed: &FeedDoc<'a, 'i>) -> Vec<(Node<'a, 'i>, Option<&'static Tag>)> {
    let Some(channel) = feed.head.filter(|_| feed.kind == DocKind::Rss) else {
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
    groups: ["podcast"],
    summary: "a podcast: element that the Podcasting 2.0 namespace does not define (often a misspelt one)",
    spec: "Podcasting 2.0, docs/1.0.md and tags/*.md",
);

/// The tag a misspelt name meant: the same but for case, or one edit
/// apart.
fn meant_tag(name: &str) -> Option<&'static Tag> {
    TAGS.iter().find(|tag| tag.name.eq_ignore_ascii_case(name)).or_else(|| {
        TAGS.iter().find(|tag| {
            crate::rule_id::one_edit_apart(&tag.name.to_ascii_lowercase(), &name.to_ascii_lowercase(), true)
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

pub static PODCAST_MISPLACED_ELEMENT: Rule = rule!(
    PodcastMisplacedElement, Warning, Doc, Some(podcast_misplaced_element),
    groups: ["podcast"],
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
    groups: ["podcast"],
    summary: "a Podcasting 2.0 tag whose count is single, twice in one parent",
    spec: "Podcasting 2.0, tags/*.md: Count",
);

fn podcast_repeated_element(cx: &mut Checker) {
    let feed = cx.feed;
    let mut repeats = Vec::new();
    let mut seen: crate::hash::FastMap<(crate::xml::NodeId, &str), Range<usize>> = crate::hash::FastMap::default();
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

pub static PODCAST_MISSING_ATTRIBUTE: Rule = rule!(
    PodcastMissingAttribute, Error, Doc, Some(podcast_missing_attribute),
    groups: ["podcast"],
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
                .collect();
            (!absent.is_empty()).then_some((node, tag, absent))
        })
        .collect();
    for (node, tag, absent) in missing {
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
    groups: ["podcast"],
    summary: "a Podcasting 2.0 tag that must hold other tags holds none (a podcast:value without a valueRecipient)",
    spec: "Podcasting 2.0, tags/value.md, value-time-split.md, alternate-enclosure.md, podroll.md, publisher.md: Node value",
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
        Format::Iso8601 => iso8601_seconds(value)
            .is_none()
            .then(|| "it is not an ISO 8601 date or time".to_owned()),
        Format::Rfc2822 => crate::date::parse_rfc822(value)
            .is_err()
            .then(|| "it is not an RFC 2822 date".to_owned()),
        Format::Language => syntax::language_tag_error(value).map(|why| format!("it is not a language tag: {why}")),
        Format::Email => syntax::addr_spec_error(value).map(|why| format!("it is not an e-mail address: {why}")),
        Format::Uuid => (!syntax::is_uuid(value)).then(|| "it is not a UUID".to_owned()),
        Format::Geo => (!is_geo(value)).then(|| "it is not a geo: URI (geo:latitude,longitude)".to_owned()),
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

/// An ISO 8601 date (`2021-09-26`) or date and time
/// (`2021-09-26T07:30:00.000-0600`, `...Z`, `...+06:00`), as seconds since
/// 1970 (a date alone is its midnight in UTC); `None` for anything else.
pub(super) fn iso8601_seconds(value: &str) -> Option<i64> {
    let digits =
        |s: &str| -> Option<i64> { (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())? };
    let (date, time) = match value.split_once(['T', 't', ' ']) {
        Some((date, time)) => (date, Some(time)),
        None => (value, None),
    };
    let mut parts = date.split('-');
    let (year, month, day) = (digits(parts.next()?)?, digits(parts.next()?)?, digits(parts.next()?)?);
    if parts.next().is_some() || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let days = crate::date::days_from_civil(year, u32::try_from(month).ok()?, u32::try_from(day).ok()?);
    let Some(time) = time else { return Some(days * 86400) };
    // The zone: Z, or ±HH, ±HHMM, ±HH:MM.
    let (clock, offset) = if let Some(clock) = time.strip_suffix(['Z', 'z']) {
        (clock, 0)
    } else if let Some(at) = time.rfind(['+', '-']) {
        let zone = time.get(at + 1..)?.replace(':', "");
        let sign = if time.as_bytes()[at] == b'-' { -1 } else { 1 };
        let (hours, minutes) = match zone.len() {
            2 => (digits(&zone)?, 0),
            // Bytes, not characters: a zone like `1é1` is four bytes long.
            4 => (digits(zone.get(..2)?)?, digits(zone.get(2..)?)?),
            _ => return None,
        };
        (time.get(..at)?, sign * (hours * 3600 + minutes * 60))
    } else {
        (time, 0)
    };
    let clock = clock.split('.').next()?;
    let fields: Vec<&str> = clock.split(':').collect();
    let (hours, minutes, seconds) = match fields[..] {
        [h, m] => (digits(h)?, digits(m)?, 0),
        [h, m, s] => (digits(h)?, digits(m)?, digits(s)?),
        _ => return None,
    };
    if hours > 24 || minutes > 59 || seconds > 60 {
        return None;
    }
    Some(days * 86400 + hours * 3600 + minutes * 60 + seconds - offset)
}

pub static PODCAST_INVALID_VALUE: Rule = rule!(
    PodcastInvalidValue, Error, Doc, Some(podcast_invalid_value),
    groups: ["podcast"],
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
            if let Some(why) = format_error(spec.format, value) {
                findings.push((
                    attribute.range_value(),
                    format!("the {} of podcast:{}, `{}`: {why}", spec.name, tag.name, shorten(value)),
                    tag,
                ));
            }
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

pub static PODCAST_UNKNOWN_SLUG: Rule = rule!(
    PodcastUnknownSlug, Warning, Doc, Some(podcast_unknown_slug),
    groups: ["podcast"],
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
    groups: ["podcast"],
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

pub static PODCAST_GUID_NOT_UUIDV5: Rule = rule!(
    PodcastGuidNotUuidv5, Error, Doc, Some(podcast_guid_not_uuidv5),
    groups: ["podcast"],
    summary: "a podcast:guid that is not a UUID of version 5",
    spec: "Podcasting 2.0, tags/guid.md; PSP-1 <podcast:guid>",
);

/// The namespace's UUID for podcast guids.
const PODCAST_GUID_NAMESPACE: uuid::Uuid = uuid::uuid!("ead4c236-bf58-58c6-a2c6-a6b28d128cb6");

/// The podcast:guid made from a feed URL: the URL without its scheme and
/// trailing slashes, under the namespace's UUID.
pub(super) fn podcast_guid_of(feed_url: &str) -> uuid::Uuid {
    let stripped = feed_url
        .split_once("://")
        .map_or(feed_url, |(_, rest)| rest)
        .trim_end_matches('/');
    uuid::Uuid::new_v5(&PODCAST_GUID_NAMESPACE, stripped.as_bytes())
}

fn podcast_guid_not_uuidv5(cx: &mut Checker) {
    let feed = cx.feed;
    let invalid: Vec<(Text, String)> = elements_of(feed, "guid")
        .into_iter()
        .map(Text::of)
        .filter(|text| !text.value.is_empty())
        .filter_map(|text| {
            let why = match uuid::Uuid::parse_str(text.value) {
                Ok(_) if !syntax::is_uuid(text.value) => {
                    "it is not written as a UUID (8-4-4-4-12 hexadecimal digits)".to_owned()
                }
                Ok(uuid) if uuid.get_version_num() == 5 => return None,
                Ok(uuid) => format!("it is a UUID of version {}, not 5", uuid.get_version_num()),
                Err(_) => "it is not a UUID".to_owned(),
            };
            Some((text, why))
        })
        .collect();
    let help = match feed.self_link().and_then(|link| link.href) {
        Some(href) => format!("write the UUIDv5 of the feed's URL, {}, made once and kept when the feed moves", podcast_guid_of(href.trim())),
        None => "write the UUIDv5 of the feed's URL (without its scheme and trailing slashes) under the namespace ead4c236-bf58-58c6-a2c6-a6b28d128cb6, made once and kept when the feed moves".to_owned(),
    };
    for (text, why) in invalid {
        cx.report(
            Checker::at(text.range.clone(), format!("podcast:guid `{}` is not a UUIDv5: {why}", shorten(text.value)))
                .label("not a UUIDv5")
                .note("tags/guid.md: \"The node value is a UUIDv5 string\"; PSP-1: \"The value is a UUIDv5, and generated from the RSS feed URL\". Apps and directories find the podcast by it wherever it moves")
                .help(help.clone()),
        );
    }
}

pub static PODCAST_GUID_NOT_FROM_FEED_URL: Rule = rule!(
    PodcastGuidNotFromFeedUrl, Info, Doc, Some(podcast_guid_not_from_feed_url),
    groups: ["podcast"],
    summary: "a podcast:guid that is a UUIDv5, but not the one of the feed's self link: the podcast moved, or the guid was made otherwise",
    spec: "Podcasting 2.0, tags/guid.md; PSP-1 <podcast:guid>",
);

/// An info: the guid is made once, from the URL the feed had then, and
/// follows the podcast to new URLs; a guid that is not today's URL's is
/// what a podcast that moved has.
fn podcast_guid_not_from_feed_url(cx: &mut Checker) {
    let feed = cx.feed;
    // A self link that resolves to a file says nothing of the URL the feed
    // is published at.
    let Some(href) = feed
        .self_link()
        .filter(|link| {
            link.target
                .as_ref()
                .is_some_and(|t| matches!(t.scheme(), "http" | "https"))
        })
        .and_then(|link| link.href)
        .map(str::trim)
    else {
        return;
    };
    let expected = podcast_guid_of(href);
    // A page of a paged feed is not at the feed's URL: its first page is.
    let first_page = feed
        .first_link(crate::feed::Relation::First)
        .and_then(|link| link.href)
        .map(|href| podcast_guid_of(href.trim()));
    let others: Vec<Text> = elements_of(feed, "guid")
        .into_iter()
        .map(Text::of)
        .filter(|text| {
            uuid::Uuid::parse_str(text.value)
                .is_ok_and(|uuid| uuid.get_version_num() == 5 && uuid != expected && Some(uuid) != first_page)
        })
        .collect();
    for text in others {
        cx.report(
            Checker::at(text.range.clone(), format!("podcast:guid is not the one made from the self link, {}", shorten(href)))
                .label("made from another URL")
                .note("PSP-1: \"A podcast should be assigned a <podcast:guid> once in its lifetime, using its current feed URL at the time of assignment as the seed value. That GUID is then meant to follow the podcast\": a podcast that moved keeps its guid, so this is right if the feed had another URL")
                .help(format!("if the podcast never moved, the guid of its URL is {expected}; if it moved, keep the guid it has")),
        );
    }
}

pub static PODCAST_UNKNOWN_PERSON_ROLE: Rule = rule!(
    PodcastUnknownPersonRole, Warning, Doc, Some(podcast_unknown_person_role),
    groups: ["podcast"],
    summary: "a podcast:person whose role or group is not one of the Podcast Taxonomy Project's",
    spec: "Podcasting 2.0, tags/person.md; taxonomy.json",
);

/// The Podcast Taxonomy Project's groups and roles (`taxonomy.json`).
const TAXONOMY: &[(&str, &[&str])] = &[
    (
        "Creative Direction",
        &[
            "Director",
            "Assistant Director",
            "Executive Producer",
            "Senior Producer",
            "Producer",
            "Associate Producer",
            "Development Producer",
            "Creative Director",
        ],
    ),
    (
        "Cast",
        &[
            "Host",
            "Co-Host",
            "Guest Host",
            "Guest",
            "Voice Actor",
            "Narrator",
            "Announcer",
            "Reporter",
        ],
    ),
    (
        "Writing",
        &[
            "Author",
            "Editorial Director",
            "Co-Writer",
            "Writer",
            "Songwriter",
            "Guest Writer",
            "Story Editor",
            "Managing Editor",
            "Script Editor",
            "Script Coordinator",
            "Researcher",
            "Editor",
            "Fact Checker",
            "Translator",
            "Transcriber",
            "Logger",
        ],
    ),
    (
        "Audio Production",
        &[
            "Studio Coordinator",
            "Technical Director",
            "Technical Manager",
            "Audio Engineer",
            "Remote Recording Engineer",
            "Post Production Engineer",
        ],
    ),
    (
        "Audio Post-Production",
        &[
            "Audio Editor",
            "Sound Designer",
            "Foley Artist",
            "Composer",
            "Theme Music",
            "Music Production",
            "Music Contributor",
        ],
    ),
    (
        "Administration",
        &[
            "Production Coordinator",
            "Booking Coordinator",
            "Production Assistant",
            "Content Manager",
            "Marketing Manager",
            "Sales Representative",
            "Sales Manager",
        ],
    ),
    ("Visuals", &["Graphic Designer", "Cover Art Designer"]),
    ("Community", &["Social Media Manager"]),
    ("Misc.", &["Consultant", "Intern"]),
    (
        "Video Production",
        &[
            "Camera Operator",
            "Lighting Designer",
            "Camera Grip",
            "Assistant Camera",
        ],
    ),
    ("Video Post-Production", &["Editor", "Assistant Editor"]),
];

fn podcast_unknown_person_role(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for person in elements_of(feed, "person") {
        let group = person.attribute_node("group");
        let known_group = group.and_then(|g| {
            TAXONOMY
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(g.value().trim()))
        });
        if let Some(group) = group.filter(|_| known_group.is_none()) {
            findings.push((
                group.range_value(),
                format!(
                    "`{}` is not a group of the Podcast Taxonomy Project",
                    shorten(group.value())
                ),
            ));
            continue;
        }
        let Some(role) = person.attribute_node("role") else {
            continue;
        };
        let value = role.value().trim();
        // Roles are read in any case; a role of another group than the one
        // named is still a role.
        let roles = known_group.map_or_else(
            || TAXONOMY.iter().flat_map(|(_, roles)| roles.iter()).collect::<Vec<_>>(),
            |(_, roles)| roles.iter().collect(),
        );
        if !roles.iter().any(|r| r.eq_ignore_ascii_case(value)) {
            let elsewhere = TAXONOMY
                .iter()
                .find(|(_, roles)| roles.iter().any(|r| r.eq_ignore_ascii_case(value)));
            let message = match (elsewhere, known_group) {
                (Some((other, _)), Some((group, _))) => {
                    format!("`{}` is a role of the group {other}, not of {group}", shorten(value))
                }
                _ => format!("`{}` is not a role of the Podcast Taxonomy Project", shorten(value)),
            };
            findings.push((role.range_value(), message));
        }
    }
    for (at, message) in findings {
        cx.report(
            Checker::at(at, message)
                .label("not in the taxonomy")
                .note("tags/person.md: the role \"should be a reference to an official role within the Podcast Taxonomy Project list\", the group \"to an official group\"; apps show unknown roles as hosts (the default), or not at all")
                .help("use a role and group of the taxonomy (host, guest, producer, editor, ... in groups such as cast, writing, audio post-production), in any case"),
        );
    }
}

pub static PODCAST_LIVE_ITEM_ENDS_BEFORE_START: Rule = rule!(
    PodcastLiveItemEndsBeforeStart, Warning, Doc, Some(podcast_live_item_ends_before_start),
    groups: ["podcast"],
    summary: "a podcast:liveItem whose end is not after its start",
    spec: "Podcasting 2.0, tags/live-item.md",
);

fn podcast_live_item_ends_before_start(cx: &mut Checker) {
    let feed = cx.feed;
    let backwards: Vec<(Range<usize>, Range<usize>)> = elements_of(feed, "liveItem")
        .into_iter()
        .filter_map(|live| {
            let start = live.attribute_node("start")?;
            let end = live.attribute_node("end")?;
            let (from, to) = (
                iso8601_seconds(start.value().trim())?,
                iso8601_seconds(end.value().trim())?,
            );
            (to <= from).then(|| (end.range_value(), start.range_value()))
        })
        .collect();
    for (end, start) in backwards {
        cx.report(
            Checker::at(end, "this live item ends before it starts, or as it starts")
                .label("the end")
                .secondary(start, "the start")
                .note("tags/live-item.md: start \"denotes the time when the stream is intended to start\", end \"the time when the stream is intended to end\"; apps schedule the stream by them")
                .help("write the end after the start (mind their time zones)"),
        );
    }
}

pub static PODCAST_INVALID_RRULE: Rule = rule!(
    PodcastInvalidRrule, Error, Doc, Some(podcast_invalid_rrule),
    groups: ["podcast"],
    summary: "a podcast:updateFrequency whose rrule is not an RFC 5545 recurrence rule, or has COUNT without dtstart",
    spec: "Podcasting 2.0, tags/update-frequency.md; RFC 5545 §3.3.10",
);

/// Why a recurrence rule is not one of RFC 5545 §3.3.10, if it is not.
fn rrule_error(rrule: &str) -> Option<String> {
    const PARTS: &[&str] = &[
        "FREQ",
        "UNTIL",
        "COUNT",
        "INTERVAL",
        "BYSECOND",
        "BYMINUTE",
        "BYHOUR",
        "BYDAY",
        "BYMONTHDAY",
        "BYYEARDAY",
        "BYWEEKNO",
        "BYMONTH",
        "BYSETPOS",
        "WKST",
    ];
    const FREQUENCIES: &[&str] = &["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"];
    let rrule = rrule.strip_prefix("RRULE:").unwrap_or(rrule);
    let mut seen = Vec::new();
    for part in rrule.split(';') {
        let Some((name, value)) = part.split_once('=') else {
            return Some(format!("`{}` is not NAME=VALUE", shorten(part)));
        };
        let name = name.to_ascii_uppercase();
        if !PARTS.contains(&name.as_str()) {
            return Some(format!("{} is not a part of a recurrence rule", shorten(&name)));
        }
        if seen.contains(&name) {
            return Some(format!("{name} is given twice"));
        }
        let valid = match name.as_str() {
            "FREQ" => FREQUENCIES.iter().any(|f| f.eq_ignore_ascii_case(value)),
            "COUNT" | "INTERVAL" => value.parse::<u32>().is_ok_and(|n| n > 0),
            "WKST" => ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
                .iter()
                .any(|d| d.eq_ignore_ascii_case(value)),
            "UNTIL" => value
                .get(..8)
                .is_some_and(|date| date.bytes().all(|b| b.is_ascii_digit())),
            _ => !value.is_empty(),
        };
        if !valid {
            return Some(format!("{name}={} is not a valid {name}", shorten(value)));
        }
        seen.push(name);
    }
    if !seen.iter().any(|n| n == "FREQ") {
        return Some("it has no FREQ, which every recurrence rule needs".to_owned());
    }
    if seen.iter().any(|n| n == "COUNT") && seen.iter().any(|n| n == "UNTIL") {
        return Some("it has both COUNT and UNTIL, which RFC 5545 says \"MUST NOT occur in the same\" rule".to_owned());
    }
    None
}

fn podcast_invalid_rrule(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for frequency in elements_of(feed, "updateFrequency") {
        let Some(rrule) = frequency.attribute_node("rrule") else {
            continue;
        };
        let value = rrule.value().trim();
        if let Some(why) = rrule_error(value) {
            findings.push((
                rrule.range_value(),
                format!("rrule `{}` is not a recurrence rule: {why}", shorten(value)),
            ));
        } else if value.to_ascii_uppercase().contains("COUNT=") && !frequency.has_attribute("dtstart") {
            findings.push((
                rrule.range_value(),
                "the rrule counts occurrences (COUNT), but there is no dtstart to count from".to_owned(),
            ));
        }
    }
    for (at, message) in findings {
        cx.report(
            Checker::at(at, message)
                .label("not a recurrence rule")
                .note("tags/update-frequency.md: rrule is \"A recurrence rule as defined in iCalendar RFC 5545 Section 3.3.10\"; \"If the rrule contains a value for COUNT, then this attribute [dtstart] is required\"")
                .help("write a rule such as FREQ=WEEKLY or FREQ=MONTHLY;INTERVAL=2, with dtstart where it has COUNT"),
        );
    }
}

pub static PODCAST_UNKNOWN_MEDIUM: Rule = rule!(
    PodcastUnknownMedium, Warning, Doc, Some(podcast_unknown_medium),
    groups: ["podcast"],
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
    groups: ["podcast"],
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
    groups: ["podcast"],
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
    fn the_guid_of_a_feed_url_is_the_namespace_example() {
        // tags/guid.md and PSP-1: "Example GUID for feed url podnews.net/rss".
        assert_eq!(
            podcast_guid_of("https://podnews.net/rss").to_string(),
            "9b024349-ccf0-5f69-a609-6b82873eab3c"
        );
        assert_eq!(
            podcast_guid_of("podnews.net/rss/"),
            podcast_guid_of("http://podnews.net/rss")
        );
    }

    #[test]
    fn iso8601_times_compare_across_zones() {
        let start = iso8601_seconds("2021-09-26T07:30:00.000-0600").unwrap();
        assert_eq!(iso8601_seconds("2021-09-26T13:30:00Z"), Some(start));
        assert_eq!(iso8601_seconds("2021-09-26T15:30:00+02:00"), Some(start));
        assert_eq!(iso8601_seconds("1970-01-01"), Some(0));
        for bad in ["2021-13-01", "2021-09-26T25:00", "yesterday", "2021-09-26T07:30:00+6"] {
            assert_eq!(iso8601_seconds(bad), None, "{bad}");
        }
    }

    #[test]
    fn recurrence_rules_by_rfc_5545() {
        for good in [
            "FREQ=DAILY",
            "FREQ=WEEKLY;INTERVAL=2",
            "FREQ=MONTHLY;BYDAY=1MO",
            "FREQ=WEEKLY;COUNT=10",
        ] {
            assert_eq!(rrule_error(good), None, "{good}");
        }
        for bad in [
            "WEEKLY",
            "FREQ=FORTNIGHTLY",
            "INTERVAL=2",
            "FREQ=DAILY;COUNT=3;UNTIL=20250101",
            "FREQ=DAILY;FREQ=WEEKLY",
        ] {
            assert!(rrule_error(bad).is_some(), "{bad}");
        }
    }

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
