//! JSON Feed documents, group `json-feed`: JSON itself (`json-malformed`,
//! the engine's finding), then the members the format defines at each level
//! (`objects` walks them): those it requires, the type of each, and members
//! that are neither the format's nor an extension's; their values and the
//! version the document names are in `values`.

use crate::feed::json_feed::{member, opening, JsonFeedVersion, Kind, Shape};
use crate::findings::diagnostic::{shorten, Pending};
use crate::json::{self, JsonError, Object, Value};
use crate::rules::{rule, JsonChecker, Rule};

pub(crate) mod pages;
pub(crate) mod values;

pub static JSON_MALFORMED: Rule = rule!(
    JsonMalformed, Error, Doc, json: None,
    groups: [JsonFeed],
    summary: "a JSON Feed (a .json file named as a feed, or a document that starts as one) is not JSON",
    spec: "JSON Feed 1.1; RFC 8259 §2",
);

pub static JSON_FEED_MISSING_MEMBER: Rule = rule!(
    JsonFeedMissingMember, Error, Doc, json: Some(missing_member),
    groups: [JsonFeed],
    summary: "a member the format requires is missing: version, title or items; an item's id, or its content_html or content_text; an attachment's url or mime_type; a hub's type or url; an author with no member at all",
    spec: "JSON Feed 1.1, Top-level, Items, Attachments",
);

pub static JSON_FEED_WRONG_TYPE: Rule = rule!(
    JsonFeedWrongType, Error, Doc, json: Some(wrong_type),
    groups: [JsonFeed],
    summary: "a member the format defines has a value of another JSON type (a number where a string is required, an object where an array is)",
    spec: "JSON Feed 1.1, Top-level, Items, Attachments",
);

pub static JSON_FEED_UNKNOWN_MEMBER: Rule = rule!(
    JsonFeedUnknownMember, Error, Doc, json: Some(unknown_member),
    groups: [JsonFeed],
    summary: "a member that the format does not define and whose name does not start with `_`, as an extension's must (often a misspelt member, which readers then ignore)",
    spec: "JSON Feed 1.1, Extensions",
);

/// The finding for a document that is not JSON, at the mistake.
pub(crate) fn malformed(text: &str, error: &JsonError) -> Pending {
    let start = error.at.start.min(text.len());
    let end = error.at.end.clamp(start, text.len());
    // A mistake at a point is shown on the character there.
    let end = if end == start {
        text.get(start..)
            .and_then(|rest| rest.chars().next())
            .map_or(start, |c| start + c.len_utf8())
    } else {
        end
    };
    let message = error.message.trim_end_matches('.');
    Pending::new(start..end, format!("not JSON: {}", lower_first(message)))
        .label("here")
        .note("a JSON Feed is a JSON document (RFC 8259); a reader's JSON parser stops at the first mistake and shows nothing of the feed")
        .help("write the document with a JSON library rather than by hand or by a template, which escape quotes, newlines and commas for you")
}

/// The finding for a JSON document named as a feed that is no JSON Feed,
/// at its start.
pub(crate) fn not_a_feed(value: &Value<'_>) -> Pending {
    let at = json::span(value);
    let version = match value {
        Value::Object(object) => member(object, "version").map(|version| &version.value),
        _ => None,
    };
    let (message, label) = match version {
        Some(Value::StringLit(version)) => (
            format!(
                "not a feed: a JSON document whose `version` is \"{}\", not a JSON Feed version",
                shorten(&version.value)
            ),
            "no JSON Feed version",
        ),
        Some(_) => (
            "not a feed: a JSON document whose `version` is no string".to_owned(),
            "no JSON Feed version",
        ),
        None if !matches!(value, Value::Object(_)) => (
            format!(
                "not a feed: a JSON document whose top level is {}, not the object a JSON Feed is",
                json::type_name(value)
            ),
            "a JSON document",
        ),
        None => (
            "not a feed: a JSON document with no `version`".to_owned(),
            "a JSON document",
        ),
    };
    Pending::new(at.start..at.start + 1, message)
        .label(label)
        .note("a JSON Feed is an object whose `version` is the URL of its version, https://jsonfeed.org/version/1.1 (JSON Feed 1.1, Top-level); a reader finds no feed in this")
        .help("publish the feed in this file with `\"version\": \"https://jsonfeed.org/version/1.1\"`, or name the file so that it is not taken for one")
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_lowercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Whether `object` has a member whose name misspells `name`: the
/// unknown member is the finding, at the cause, and the missing one follows
/// from it.
fn misspelt(object: &Object<'_>, shape: Shape, name: &str) -> bool {
    object
        .properties
        .iter()
        .map(|member| json::name(member).0)
        .filter(|written| shape.defined(written).is_none())
        .any(|written| near_miss(written, name))
}

/// Whether `written` is a near miss of the member name `meant`
/// (`content-html`, `titel`).
fn near_miss(written: &str, meant: &str) -> bool {
    crate::findings::rule_id::is_near(&written.replace('-', "_"), meant)
}

fn missing_member(cx: &mut JsonChecker) {
    for &(shape, object) in cx.feed.objects() {
        for defined in shape.members().iter().filter(|defined| defined.required) {
            if member(object, defined.name).is_none() && !misspelt(object, shape, defined.name) {
                let finding = Pending::new(
                    opening(object),
                    format!("{} has no `{}`, which it requires", shape.name(), defined.name),
                )
                .label(format!("{} without `{}`", shape.name(), defined.name))
                .note(requirement(shape, defined.name));
                cx.report(finding);
            }
        }
        match shape {
            Shape::Item
                if ["content_html", "content_text"]
                    .iter()
                    .all(|name| member(object, name).is_none() && !misspelt(object, shape, name)) =>
            {
                cx.report(
                    Pending::new(opening(object), "an item has neither `content_html` nor `content_text`")
                        .label("an item without content")
                        .note("JSON Feed 1.1, Items: \"content_html and content_text are each optional strings — but one or both must be present\"")
                        .help("give the item its content as `content_html` (HTML) or `content_text` (plain text)"),
                );
            }
            Shape::Author
                if object
                    .properties
                    .iter()
                    .all(|m| shape.defined(json::name(m).0).is_none()) =>
            {
                cx.report(
                    Pending::new(opening(object), "an author has none of `name`, `url` and `avatar`")
                        .label("an empty author")
                        .note("JSON Feed 1.1, Top-level: the author's members \"are all optional — but if you provide an author object, then at least one is required\""),
                );
            }
            _ => {}
        }
    }
}

/// The sentence of the text that requires `name` in an object of `shape`.
fn requirement(shape: Shape, name: &str) -> String {
    match (shape, name) {
        (Shape::Feed, "version") => "JSON Feed 1.1, Top-level: \"version (required, string) is the URL of the version of the format the feed uses\"".into(),
        (Shape::Feed, "title") => "JSON Feed 1.1, Top-level: \"title (required, string) is the name of the feed\"".into(),
        (Shape::Feed, "items") => "JSON Feed 1.1, Items: \"items is an array, and is required\"".into(),
        (Shape::Item, "id") => "JSON Feed 1.1, Items: \"id (required, string) is unique for that item for that feed over time\"".into(),
        (Shape::Attachment, _) => format!("JSON Feed 1.1, Attachments: \"{name} (required, string)\""),
        (Shape::Hub, _) => "JSON Feed 1.1, Top-level: hubs: \"Each object has a type and url, both of which are required\"".into(),
        _ => format!("JSON Feed 1.1 requires `{name}` in {}", shape.name()),
    }
}

fn wrong_type(cx: &mut JsonChecker) {
    let version = cx.feed.version;
    for &(shape, object) in cx.feed.objects() {
        for member in &object.properties {
            let (name, _) = json::name(member);
            let Some(defined) = shape.defined(name) else { continue };
            // JSON Feed 1.0: "If an id is presented as a number or other
            // type, a JSON Feed reader must coerce it to a string."
            let kind = match (shape, name, version) {
                (Shape::Item, "id", JsonFeedVersion::V1) => Kind::StringOrNumber,
                _ => defined.kind,
            };
            let value = &member.value;
            if !kind.holds(value) {
                cx.report(wrong(name, kind, value));
                continue;
            }
            // An array's elements, each of the type the member says.
            if let (Kind::Strings | Kind::Objects(_), Value::Array(array)) = (kind, value) {
                let element = if kind == Kind::Strings {
                    Kind::String
                } else {
                    Kind::Object(Shape::Item)
                };
                for item in array.elements.iter().filter(|item| !element.holds(item)) {
                    cx.report(wrong(&format!("an element of `{name}`"), element, item).label(format!(
                        "{} in {}",
                        json::type_name(item),
                        kind.name()
                    )));
                }
            }
        }
    }
}

fn wrong(name: &str, kind: Kind, value: &Value<'_>) -> Pending {
    let what = if name.starts_with("an element") {
        name.to_owned()
    } else {
        format!("`{name}`")
    };
    Pending::new(
        json::span(value),
        format!("{what} is {}, not {} as the format requires", json::type_name(value), kind.name()),
    )
    .label(json::type_name(value))
    .note("JSON Feed 1.1 gives each member its type; a reader decoding the feed into its types fails on this one, or drops it")
}

fn unknown_member(cx: &mut JsonChecker) {
    // Later versions may define members this one does not.
    if cx.feed.version == JsonFeedVersion::Later {
        return;
    }
    for &(shape, object) in cx.feed.objects() {
        for member in &object.properties {
            let (name, at) = json::name(member);
            if name.starts_with('_') || shape.defined(name).is_some() {
                continue;
            }
            let finding = Pending::new(
                at,
                format!("`{}` is not a member of {} in JSON Feed", shorten(name), shape.name()),
            )
            .label("unknown member")
            .note("JSON Feed 1.1, Extensions: \"Names must start with an _ character followed by a letter\"; readers ignore what they do not understand");
            let meant = shape.members().iter().find(|defined| near_miss(name, defined.name));
            cx.report(match meant {
                Some(defined) => finding.help(format!("did you mean `{}`?", defined.name)),
                None => finding.help(format!(
                    "if it is an extension of yours, name it `_{name}`; else remove it"
                )),
            });
        }
    }
}
