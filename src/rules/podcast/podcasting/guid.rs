//! `podcast:guid`: a UUIDv5 made from the feed's URL (tags/guid.md, PSP-1).

use super::elements_of;
use crate::base::syntax;
use crate::feed::Text;
use crate::findings::diagnostic::shorten;
use crate::rules::{rule, Checker, Rule};

pub static PODCAST_GUID_NOT_UUIDV5: Rule = rule!(
    PodcastGuidNotUuidv5, Error, Doc, Some(podcast_guid_not_uuidv5),
    groups: [Podcast],
    summary: "a podcast:guid that is not a UUID of version 5",
    spec: "Podcasting 2.0, tags/guid.md; PSP-1 <podcast:guid>",
);

/// The namespace's UUID for podcast guids.
const PODCAST_GUID_NAMESPACE: uuid::Uuid = uuid::uuid!("ead4c236-bf58-58c6-a2c6-a6b28d128cb6");

/// The podcast:guid made from a feed URL: the URL without its scheme and
/// trailing slashes, under the namespace's UUID.
pub(crate) fn podcast_guid_of(feed_url: &str) -> uuid::Uuid {
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

/// What a guid made from `feed_url` kept that the namespace strips, if
/// `guid` is the UUIDv5 of the URL with its scheme or trailing slashes
/// left on.
fn unstripped_part(guid: uuid::Uuid, feed_url: &str) -> Option<&'static str> {
    let without_scheme = feed_url.split_once("://").map_or(feed_url, |(_, rest)| rest);
    let (scheme, slash) = (without_scheme != feed_url, without_scheme.ends_with('/'));
    let seeds = [
        (scheme && slash, feed_url, "its scheme and trailing slash"),
        (scheme, feed_url.trim_end_matches('/'), "its scheme"),
        (slash, without_scheme, "its trailing slash"),
    ];
    seeds
        .into_iter()
        .find(|(kept, seed, _)| *kept && uuid::Uuid::new_v5(&PODCAST_GUID_NAMESPACE, seed.as_bytes()) == guid)
        .map(|(_, _, part)| part)
}

/// The self link's http(s) URL, which a podcast:guid is made from.
fn feed_url_of<'a>(feed: &crate::feed::FeedDoc<'a, '_>) -> Option<&'a str> {
    // A self link that resolves to a file says nothing of the URL the feed
    // is published at.
    feed.self_link()
        .filter(|link| {
            link.target
                .as_ref()
                .is_some_and(|t| matches!(t.scheme(), "http" | "https"))
        })
        .and_then(|link| link.href)
        .map(str::trim)
}

pub static PODCAST_GUID_UNSTRIPPED_URL: Rule = rule!(
    PodcastGuidUnstrippedUrl, Warning, Doc, Some(podcast_guid_unstripped_url),
    groups: [Podcast],
    summary: "a podcast:guid made from the feed's URL with its scheme or trailing slash left on, which the namespace strips",
    spec: "Podcasting 2.0, tags/guid.md",
);

/// A warning: the guid is still unique, but anyone who makes it again from
/// the URL, as the document says, gets another one; once published, the
/// guid is the podcast's, so the finding asks to fix it only if it is new.
fn podcast_guid_unstripped_url(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(href) = feed_url_of(feed) else {
        return;
    };
    let unstripped: Vec<(Text, &str)> = elements_of(feed, "guid")
        .into_iter()
        .map(Text::of)
        .filter_map(|text| {
            let guid = uuid::Uuid::parse_str(text.value).ok()?;
            Some((text, unstripped_part(guid, href)?))
        })
        .collect();
    for (text, part) in unstripped {
        cx.report(
            Checker::at(text.range.clone(), format!("podcast:guid was made from {} with {part} left on", shorten(href)))
                .label(format!("made with {part}"))
                .note("tags/guid.md: \"The value is a UUIDv5, and is easily generated from the RSS feed url, with the protocol scheme and trailing slashes stripped off\"; a directory that makes the guid from the URL gets another one, and may list the podcast twice")
                .help(format!("if this guid is new, write {}, made from the URL stripped; once apps know a guid, keep it", podcast_guid_of(href))),
        );
    }
}

pub static PODCAST_GUID_NOT_FROM_FEED_URL: Rule = rule!(
    PodcastGuidNotFromFeedUrl, Info, Doc, Some(podcast_guid_not_from_feed_url),
    groups: [Podcast],
    summary: "a podcast:guid that is a UUIDv5, but not the one of the feed's self link: the podcast moved, or the guid was made otherwise",
    spec: "Podcasting 2.0, tags/guid.md; PSP-1 <podcast:guid>",
);

/// An info: the guid is made once, from the URL the feed had then, and
/// follows the podcast to new URLs; a guid that is not today's URL's is
/// what a podcast that moved has.
fn podcast_guid_not_from_feed_url(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(href) = feed_url_of(feed) else {
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
            uuid::Uuid::parse_str(text.value).is_ok_and(|uuid| {
                uuid.get_version_num() == 5
                    && uuid != expected
                    && Some(uuid) != first_page
                    && unstripped_part(uuid, href).is_none()
            })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guid_made_with_the_scheme_or_slash_left_on_is_told_which() {
        let made = |seed: &str| uuid::Uuid::new_v5(&PODCAST_GUID_NAMESPACE, seed.as_bytes());
        let url = "https://podnews.net/rss/";
        assert_eq!(unstripped_part(made(url), url), Some("its scheme and trailing slash"));
        assert_eq!(
            unstripped_part(made("https://podnews.net/rss"), url),
            Some("its scheme")
        );
        assert_eq!(
            unstripped_part(made("podnews.net/rss/"), url),
            Some("its trailing slash")
        );
        assert_eq!(unstripped_part(podcast_guid_of(url), url), None);
        assert_eq!(
            unstripped_part(made("https://podnews.net/rss"), "https://podnews.net/rss"),
            Some("its scheme")
        );
    }

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
}
