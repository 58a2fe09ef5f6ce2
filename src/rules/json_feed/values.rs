//! The values of a JSON Feed's members, and the version it names: URLs,
//! dates, media types, the deprecated `author`, and members of a later
//! version than the one the document names.

use url::Url;

use crate::feed::json_feed::{member, JsonFeedVersion, Shape};
use crate::findings::diagnostic::{shorten, Pending};
use crate::findings::fix::{replace, Fix};
use crate::json::{self, Value};
use crate::rules::{rule, JsonChecker, Rule};
use crate::text::date;

pub static JSON_FEED_INVALID_URL: Rule = rule!(
    JsonFeedInvalidUrl, Error, Doc, json: Some(invalid_url),
    groups: [JsonFeed],
    summary: "a member that holds a URL (home_page_url, feed_url, next_url, icon, favicon, an item's url or image, an author's url or avatar, an attachment's or a hub's url) holds no URL at all",
    spec: "JSON Feed 1.1, Top-level, Items, Attachments",
);

pub static JSON_FEED_RELATIVE_URL: Rule = rule!(
    JsonFeedRelativeUrl, Warning, Doc, json: Some(relative_url),
    groups: [JsonFeed],
    summary: "a member that holds a URL holds a relative reference, which JSON Feed gives no base to resolve against",
    spec: "JSON Feed 1.1, Top-level, Items",
);

pub static JSON_FEED_NEXT_URL_LOOP: Rule = rule!(
    JsonFeedNextUrlLoop, Error, Doc, json: Some(next_url_loop),
    groups: [JsonFeed],
    summary: "next_url is the same as the feed's feed_url, or names the document itself: a reader that follows it loops",
    spec: "JSON Feed 1.1, Top-level",
);

pub static JSON_FEED_INVALID_DATE: Rule = rule!(
    JsonFeedInvalidDate, Error, Doc, json: Some(invalid_date),
    groups: [JsonFeed],
    summary: "an item's date_published or date_modified is not an RFC 3339 date-time",
    spec: "JSON Feed 1.1, Items; RFC 3339 §5.6",
);

pub static JSON_FEED_INVALID_MIME_TYPE: Rule = rule!(
    JsonFeedInvalidMimeType, Warning, Doc, json: Some(invalid_mime_type),
    groups: [JsonFeed],
    summary: "an attachment's mime_type is not a media type (type/subtype, as audio/mpeg)",
    spec: "JSON Feed 1.1, Attachments; RFC 6838 §4.2",
);

pub static JSON_FEED_INVALID_LANGUAGE: Rule = rule!(
    JsonFeedInvalidLanguage, Error, Doc, json: Some(invalid_language),
    groups: [JsonFeed],
    summary: "the feed's or an item's language is not an RFC 5646 language tag",
    spec: "JSON Feed 1.1, Top-level, Items; RFC 5646 §2.1",
);

pub static JSON_FEED_DEPRECATED_AUTHOR: Rule = rule!(
    JsonFeedDeprecatedAuthor, Warning, Doc, json: Some(deprecated_author),
    groups: [JsonFeed],
    summary: "a JSON Feed 1.1 document gives the feed or an item the deprecated `author` without the `authors` array",
    spec: "JSON Feed 1.1, Deprecations",
);

pub static JSON_FEED_VERSION_MISMATCH: Rule = rule!(
    JsonFeedVersionMismatch, Warning, Doc, json: Some(version_mismatch),
    groups: [JsonFeed],
    summary: "a document that names JSON Feed 1.0 as its version uses members that 1.1 added (authors, language)",
    spec: "JSON Feed 1.1, Top-level, Deprecations",
);

/// The members that hold a URL, by the object they are in.
fn url_members(shape: Shape) -> &'static [&'static str] {
    match shape {
        Shape::Feed => &["home_page_url", "feed_url", "next_url", "icon", "favicon"],
        Shape::Item => &["url", "external_url", "image", "banner_image"],
        Shape::Author => &["url", "avatar"],
        Shape::Attachment | Shape::Hub => &["url"],
    }
}

/// Every string a member that holds a URL holds, with its name.
fn urls<'d, 't>(cx: &JsonChecker<'_, 'd, 't>) -> Vec<(&'static str, &'d Value<'t>)> {
    let mut found = Vec::new();
    for &(shape, object) in cx.feed.objects() {
        for name in url_members(shape) {
            if let Some(member) = member(object, name).filter(|m| matches!(m.value, Value::StringLit(_))) {
                found.push((*name, &member.value));
            }
        }
    }
    found
}

/// The string values of members `names` in the objects of `shapes`, with
/// their names, in document order: what each value rule reads (a value of
/// another JSON type is `json-feed-wrong-type`'s).
fn strings<'d, 't>(
    cx: &JsonChecker<'_, 'd, 't>,
    shapes: &[Shape],
    names: &[&'static str],
) -> Vec<(&'static str, &'d jsonc_parser::ast::StringLit<'t>)> {
    let mut found = Vec::new();
    for &(shape, object) in cx.feed.objects() {
        if !shapes.contains(&shape) {
            continue;
        }
        for &name in names {
            if let Some(Value::StringLit(value)) = member(object, name).map(|m| &m.value) {
                found.push((name, value));
            }
        }
    }
    found
}

fn text<'v>(value: &'v Value<'_>) -> &'v str {
    match value {
        Value::StringLit(value) => &value.value,
        _ => "",
    }
}

/// Whether `text` is a relative reference: no scheme, a valid reference by
/// RFC 3987 (the URL parser takes "not a url" too, spaces escaped), and a
/// URL against a base.
fn is_relative(text: &str) -> bool {
    matches!(Url::parse(text), Err(url::ParseError::RelativeUrlWithoutBase))
        && crate::text::iri::check_iri_reference(text.trim()).is_ok()
        && Url::parse("https://base.invalid/").is_ok_and(|base| base.join(text).is_ok())
}

fn invalid_url(cx: &mut JsonChecker) {
    for (name, value) in urls(cx) {
        let written = text(value);
        let error = match Url::parse(written) {
            Ok(_) => continue,
            Err(_) if is_relative(written) && !written.trim().is_empty() => continue,
            Err(error) => error,
        };
        let message = if written.trim().is_empty() {
            format!("`{name}` is empty, not a URL")
        } else if error == url::ParseError::RelativeUrlWithoutBase {
            // No scheme, and not a reference either (spaces, say): words.
            format!(
                "`{name}` is not a URL: \"{}\" (no scheme, and characters no URL holds)",
                shorten(written)
            )
        } else {
            format!("`{name}` is not a URL: \"{}\" ({error})", shorten(written))
        };
        cx.report(
            Pending::new(json::span(value), message)
                .label("no URL")
                .note(format!("JSON Feed 1.1: `{name}` is the URL of the resource it names; a reader cannot follow this"))
                .help("write the absolute URL (https://...), with spaces and other characters URLs do not take percent-encoded"),
        );
    }
}

fn relative_url(cx: &mut JsonChecker) {
    for (name, value) in urls(cx) {
        let written = text(value);
        if Url::parse(written).is_err() && is_relative(written) && !written.trim().is_empty() {
            cx.report(
                Pending::new(json::span(value), format!("`{name}` is a relative reference: \"{}\"", shorten(written)))
                    .label("relative")
                    .note("JSON Feed gives a relative URL no base (it has no xml:base, and the feed's own URL is known only to a reader that fetched it): readers resolve it differently, or not at all")
                    .help("write the absolute URL"),
            );
        }
    }
}

fn next_url_loop(cx: &mut JsonChecker) {
    let Some((href, range)) = cx.feed.string("next_url") else {
        return;
    };
    let resolve = |href: &str| match cx.feed.url {
        Some(base) => base.join(href.trim()).ok(),
        None => Url::parse(href.trim()).ok(),
    };
    let Some(next) = resolve(href) else { return };
    let key = crate::text::iri::comparison_key;
    let same_as_feed_url = cx.feed.feed_url().is_some_and(|feed_url| key(&feed_url) == key(&next));
    let same_as_itself = cx.feed.url.is_some_and(|url| key(url) == key(&next));
    if !same_as_feed_url && !same_as_itself {
        return;
    }
    let what = if same_as_feed_url {
        "the feed's `feed_url`"
    } else {
        "this document itself"
    };
    cx.report(
        Pending::new(range, format!("`next_url` is {what}: a reader that follows it reads this page again"))
            .label("next_url")
            .note("JSON Feed 1.1, Top-level: \"next_url must not be the same as feed_url, and it must not be the same as a previous next_url (to avoid infinite loops)\"")
            .help("name the page that holds the next items, or remove `next_url` from the last page"),
    );
}

fn invalid_date(cx: &mut JsonChecker) {
    for (name, value) in strings(cx, &[Shape::Item], &["date_published", "date_modified"]) {
        // RFC 3339 §5.6 allows a lower-case `t` and `z`.
        if let Err(error) = date::parse_rfc3339(&value.value.to_ascii_uppercase()) {
            // A date as RSS writes them, from a template made for RSS.
            let why = if date::parse_rfc822(value.value.trim()).is_ok() {
                "an RFC 822 date, as RSS writes them".to_owned()
            } else {
                error.to_string()
            };
            cx.report(
                Pending::new(
                    value.range.start..value.range.end,
                    format!("`{name}` is not an RFC 3339 date-time: \"{}\" ({why})", shorten(&value.value)),
                )
                .label("not RFC 3339")
                .note("JSON Feed 1.1, Items: the date is \"in RFC 3339 format (Example: 2010-02-07T14:04:00-05:00)\"; a reader that cannot read it leaves the item undated, or drops it")
                .help("write the date as 2010-02-07T14:04:00-05:00 (a date, T, a time, and a time zone: Z or an offset)"),
            );
        }
    }
}

/// Whether `text` is a media type: `type/subtype`, each a token (RFC 6838
/// §4.2), and parameters after a `;`.
fn is_media_type(text: &str) -> bool {
    let essence = text.split(';').next().unwrap_or_default().trim();
    let token = |part: &str| {
        !part.is_empty()
            && part
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&b))
    };
    essence
        .split_once('/')
        .is_some_and(|(kind, subtype)| token(kind) && token(subtype))
}

fn invalid_mime_type(cx: &mut JsonChecker) {
    for (_, value) in strings(cx, &[Shape::Attachment], &["mime_type"]) {
        if !is_media_type(&value.value) {
            cx.report(
                Pending::new(
                    value.range.start..value.range.end,
                    format!("`mime_type` is not a media type: \"{}\"", shorten(&value.value)),
                )
                .label("no media type")
                .note("JSON Feed 1.1, Attachments: \"mime_type (required, string) specifies the type of the attachment, such as audio/mpeg\"; a podcast app chooses how to play an attachment by it")
                .help("write the attachment's media type, type/subtype: audio/mpeg, audio/x-m4a, video/mp4"),
            );
        }
    }
}

fn invalid_language(cx: &mut JsonChecker) {
    for (_, value) in strings(cx, &[Shape::Feed, Shape::Item], &["language"]) {
        if let Some(why) = crate::base::syntax::language_tag_error(&value.value) {
            cx.report(
                Pending::new(
                    value.range.start..value.range.end,
                    format!("`language` is not a language tag: \"{}\" ({why})", shorten(&value.value)),
                )
                .label("no language tag")
                .note("JSON Feed 1.1, Top-level: \"language (optional, string) is the primary language for the feed in the format specified in RFC 5646\"")
                .help("write an RFC 5646 tag: en, en-US, pt-BR, zh-Hant"),
            );
        }
    }
}

fn deprecated_author(cx: &mut JsonChecker) {
    if cx.feed.version == JsonFeedVersion::V1 {
        return;
    }
    for &(shape, object) in cx.feed.objects() {
        if !matches!(shape, Shape::Feed | Shape::Item) || member(object, "authors").is_some() {
            continue;
        }
        if let Some(author) = member(object, "author") {
            let (_, at) = json::name(author);
            // The same author in `authors`, written before `author`, which
            // stays for readers of 1.0 (as the text allows).
            let fix = cx.feed.text.get(json::span(&author.value)).map(|value| {
                Fix::safe(
                    "Add `authors` with the same author",
                    vec![replace(at.start..at.start, format!("\"authors\": [{value}], "))],
                )
            });
            let mut finding = Pending::new(at, format!("{} has the deprecated `author` and no `authors`", shape.name()))
                .label("deprecated")
                .note("JSON Feed 1.1, Deprecations: \"New feeds should use authors, even if only 1 author is needed. Existing feeds can include both author and authors for compatibility with existing feed readers.\"")
                .help("add `\"authors\": [...]` holding the same author (keep `author` beside it for readers of 1.0)");
            if let Some(fix) = fix {
                finding = finding.fix(fix);
            }
            cx.report(finding);
        }
    }
}

fn version_mismatch(cx: &mut JsonChecker) {
    if cx.feed.version != JsonFeedVersion::V1 {
        return;
    }
    let Some(version) = member(cx.feed.root, "version") else {
        return;
    };
    let mut added: Vec<&str> = Vec::new();
    for &(shape, object) in cx.feed.objects() {
        if !matches!(shape, Shape::Feed | Shape::Item) {
            continue;
        }
        for name in ["authors", "language"] {
            if member(object, name).is_some() && !added.contains(&name) {
                added.push(name);
            }
        }
    }
    if added.is_empty() {
        return;
    }
    let list = added
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(" and ");
    cx.report(
        Pending::new(
            json::span(&version.value),
            format!("the document names JSON Feed 1.0 as its version but uses {list}, which 1.1 added"),
        )
        .label("version 1")
        .note("JSON Feed 1.1 added `authors` (Top-level, Deprecations) and `language` (Top-level); a reader of 1.0 documents may ignore them")
        .help("name the version the document follows: \"https://jsonfeed.org/version/1.1\"")
        // 1.1 keeps every member of 1.0: naming it changes no other meaning.
        .fix(Fix::safe(
            "Name JSON Feed 1.1 as the version",
            vec![replace(json::span(&version.value), "\"https://jsonfeed.org/version/1.1\"")],
        )),
    );
}
