//! A JSON Feed document (JSON Feed 1.0 and 1.1): its top-level object, the
//! version it names, and the members the format defines at each level, with
//! the JSON type each must have.

use std::ops::Range;
use std::sync::OnceLock;

use url::Url;

use crate::json::{self, Object, ObjectProp, Value};

/// What every JSON Feed's `version` starts with.
pub const VERSION_PREFIX: &str = "https://jsonfeed.org/version/";

/// The versions of the format a `version` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonFeedVersion {
    /// `https://jsonfeed.org/version/1`.
    V1,
    /// `https://jsonfeed.org/version/1.1`.
    V1_1,
    /// A later version, whose members feedlint does not know yet.
    Later,
}

/// A JSON Feed document, as the rules read it.
pub struct JsonFeed<'d, 't> {
    pub root: &'d Object<'t>,
    pub text: &'t str,
    pub version: JsonFeedVersion,
    /// Where the document is, where known (its URL, or where it is
    /// published).
    pub url: Option<&'d Url>,
    /// Every object with its shape ([`objects`]), walked once for all the
    /// rules.
    walked: OnceLock<Vec<(Shape, &'d Object<'t>)>>,
}

impl<'d, 't> JsonFeed<'d, 't> {
    /// The document, where `value` is an object whose `version` names a
    /// version of JSON Feed (over https, or over http as some write it).
    pub fn recognize(value: &'d Value<'t>, text: &'t str, url: Option<&'d Url>) -> Option<Self> {
        let Value::Object(root) = value else { return None };
        let Value::StringLit(version) = &member(root, "version")?.value else {
            return None;
        };
        let number = version
            .value
            .strip_prefix(VERSION_PREFIX)
            .or_else(|| version.value.strip_prefix("http://jsonfeed.org/version/"))?;
        let version = match number.trim_end_matches('/') {
            "1" | "1.0" => JsonFeedVersion::V1,
            "1.1" => JsonFeedVersion::V1_1,
            _ => JsonFeedVersion::Later,
        };
        Some(JsonFeed {
            root,
            text,
            version,
            url,
            walked: OnceLock::new(),
        })
    }

    /// Every object of the document with its shape, the feed first, in
    /// document order ([`objects`]), walked once.
    pub fn objects(&self) -> &[(Shape, &'d Object<'t>)] {
        self.walked.get_or_init(|| objects(self))
    }

    /// The objects of `items`, where it is an array.
    pub fn items(&self) -> impl Iterator<Item = &'d Object<'t>> {
        let items = match member(self.root, "items").map(|items| &items.value) {
            Some(Value::Array(items)) => items.elements.as_slice(),
            _ => &[],
        };
        items.iter().filter_map(|item| match item {
            Value::Object(item) => Some(item),
            _ => None,
        })
    }

    /// The URL `feed_url` names, resolved against the document's own.
    pub fn feed_url(&self) -> Option<Url> {
        let (href, _) = self.string("feed_url")?;
        match self.url {
            Some(base) => base.join(href.trim()).ok(),
            None => Url::parse(href.trim()).ok(),
        }
    }

    /// A top-level string member's value and where it is written.
    pub fn string(&self, name: &str) -> Option<(&'d str, Range<usize>)> {
        string(self.root, name)
    }
}

/// The first member of `object` named `name`.
pub fn member<'d, 't>(object: &'d Object<'t>, name: &str) -> Option<&'d ObjectProp<'t>> {
    object.properties.iter().find(|member| json::name(member).0 == name)
}

/// A string member's value and where it is written.
pub fn string<'d>(object: &'d Object<'_>, name: &str) -> Option<(&'d str, Range<usize>)> {
    match &member(object, name)?.value {
        Value::StringLit(value) => Some((&value.value, value.range.start..value.range.end)),
        _ => None,
    }
}

/// Where an object starts: its `{`, where findings about the whole object
/// point.
pub fn opening(object: &Object<'_>) -> Range<usize> {
    object.range.start..object.range.start + 1
}

/// The JSON type a member must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    String,
    Number,
    Boolean,
    /// An array of strings (`tags`).
    Strings,
    /// An object of the shape given.
    Object(Shape),
    /// An array of objects of the shape given.
    Objects(Shape),
    /// `id` in JSON Feed 1.0: a string, or a number readers turn into one.
    StringOrNumber,
}

impl Kind {
    /// The type, as the JSON Feed text names it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::String => "a string",
            Kind::Number => "a number",
            Kind::Boolean => "a boolean",
            Kind::Strings => "an array of strings",
            Kind::Object(_) => "an object",
            Kind::Objects(_) => "an array of objects",
            Kind::StringOrNumber => "a string",
        }
    }

    /// Whether `value` is of this type (an array's elements apart).
    pub fn holds(self, value: &Value<'_>) -> bool {
        matches!(
            (self, value),
            (Kind::String, Value::StringLit(_))
                | (Kind::StringOrNumber, Value::StringLit(_) | Value::NumberLit(_))
                | (Kind::Number, Value::NumberLit(_))
                | (Kind::Boolean, Value::BooleanLit(_))
                | (Kind::Strings | Kind::Objects(_), Value::Array(_))
                | (Kind::Object(_), Value::Object(_))
        )
    }
}

/// The objects of the format, each with the members it defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Feed,
    Item,
    Author,
    Attachment,
    Hub,
}

/// A member the format defines: its name, its type, and whether it is
/// required.
pub struct Defined {
    pub name: &'static str,
    pub kind: Kind,
    pub required: bool,
}

const fn optional(name: &'static str, kind: Kind) -> Defined {
    Defined {
        name,
        kind,
        required: false,
    }
}

const fn required(name: &'static str, kind: Kind) -> Defined {
    Defined {
        name,
        kind,
        required: true,
    }
}

/// JSON Feed 1.1's top-level members ("Top-level"), with 1.0's `author`
/// ("Deprecations").
const FEED: &[Defined] = &[
    required("version", Kind::String),
    required("title", Kind::String),
    optional("home_page_url", Kind::String),
    optional("feed_url", Kind::String),
    optional("description", Kind::String),
    optional("user_comment", Kind::String),
    optional("next_url", Kind::String),
    optional("icon", Kind::String),
    optional("favicon", Kind::String),
    optional("authors", Kind::Objects(Shape::Author)),
    optional("author", Kind::Object(Shape::Author)),
    optional("language", Kind::String),
    optional("expired", Kind::Boolean),
    optional("hubs", Kind::Objects(Shape::Hub)),
    required("items", Kind::Objects(Shape::Item)),
];

/// An item's members ("Items").
const ITEM: &[Defined] = &[
    required("id", Kind::String),
    optional("url", Kind::String),
    optional("external_url", Kind::String),
    optional("title", Kind::String),
    optional("content_html", Kind::String),
    optional("content_text", Kind::String),
    optional("summary", Kind::String),
    optional("image", Kind::String),
    optional("banner_image", Kind::String),
    optional("date_published", Kind::String),
    optional("date_modified", Kind::String),
    optional("authors", Kind::Objects(Shape::Author)),
    optional("author", Kind::Object(Shape::Author)),
    optional("tags", Kind::Strings),
    optional("language", Kind::String),
    optional("attachments", Kind::Objects(Shape::Attachment)),
];

/// An author's members: each optional, but one at least ("Top-level").
const AUTHOR: &[Defined] = &[
    optional("name", Kind::String),
    optional("url", Kind::String),
    optional("avatar", Kind::String),
];

/// An attachment's members ("Attachments").
const ATTACHMENT: &[Defined] = &[
    required("url", Kind::String),
    required("mime_type", Kind::String),
    optional("title", Kind::String),
    optional("size_in_bytes", Kind::Number),
    optional("duration_in_seconds", Kind::Number),
];

/// A hub's members ("Subscribing to Real-time Notifications").
const HUB: &[Defined] = &[required("type", Kind::String), required("url", Kind::String)];

impl Shape {
    pub fn members(self) -> &'static [Defined] {
        match self {
            Shape::Feed => FEED,
            Shape::Item => ITEM,
            Shape::Author => AUTHOR,
            Shape::Attachment => ATTACHMENT,
            Shape::Hub => HUB,
        }
    }

    /// What the text calls an object of this shape.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Feed => "the feed",
            Shape::Item => "an item",
            Shape::Author => "an author",
            Shape::Attachment => "an attachment",
            Shape::Hub => "a hub",
        }
    }

    /// The member this shape defines by `name`.
    pub fn defined(self, name: &str) -> Option<&'static Defined> {
        self.members().iter().find(|defined| defined.name == name)
    }
}

/// Every object of the document with its shape, the feed first, in
/// document order: what the rules on members walk. Objects under a member
/// of the wrong type are not walked (that member is its own finding).
fn objects<'d, 't>(feed: &JsonFeed<'d, 't>) -> Vec<(Shape, &'d Object<'t>)> {
    let mut found = Vec::new();
    let mut pending = vec![(Shape::Feed, feed.root)];
    while let Some((shape, object)) = pending.pop() {
        found.push((shape, object));
        let mut children = Vec::new();
        for member in &object.properties {
            let Some(defined) = shape.defined(json::name(member).0) else {
                continue;
            };
            match (defined.kind, &member.value) {
                (Kind::Object(inner), Value::Object(child)) => children.push((inner, child)),
                (Kind::Objects(inner), Value::Array(array)) => {
                    children.extend(array.elements.iter().filter_map(|element| match element {
                        Value::Object(child) => Some((inner, child)),
                        _ => None,
                    }));
                }
                _ => {}
            }
        }
        // Popped in document order.
        pending.extend(children.into_iter().rev());
    }
    found
}
