//! The pages of a paged JSON Feed together: `next_url` is a paging chain's
//! next link, which the paging rules of RFC 5005 follow (a cycle, a page
//! that is not there); what JSON Feed adds is that the pages share the
//! feed's identifier, its `feed_url`.

use std::collections::HashSet;

use crate::feed::Relation;
use crate::findings::diagnostic::DocId;
use crate::rules::rfc5005::chains::paging::{paged_feeds, reused_across_pages};
use crate::rules::{rule, Rule, SetChecker};

pub static JSON_FEED_URL_MISMATCH: Rule = rule!(
    JsonFeedUrlMismatch, Warning, Set, None, set: Some(feed_url_mismatch),
    groups: [JsonFeed],
    summary: "pages of one paged JSON Feed (linked by next_url) carry different feed_url values, though feed_url identifies the feed",
    spec: "JSON Feed 1.1, Top-level",
);

/// Each page's `feed_url` against the first page's (the page no other
/// names as next; the first in the run where none or several are).
fn feed_url_mismatch(cx: &mut SetChecker) {
    let set = cx.set;
    let followed: HashSet<DocId> = set.edges(Relation::Next).map(|(_, _, to)| to).collect();
    for pages in paged_feeds(set) {
        let first = pages
            .iter()
            .copied()
            .filter(|doc| set.summary(*doc).json_feed_url.is_some())
            .min_by_key(|doc| followed.contains(doc));
        let Some(first) = first else { continue };
        let Some(reference) = set.summary(first).json_feed_url.as_ref() else {
            continue;
        };
        for &doc in &pages {
            let Some(value) = set
                .summary(doc)
                .json_feed_url
                .as_ref()
                .filter(|v| v.hash != reference.hash)
            else {
                continue;
            };
            cx.report(
                SetChecker::at(
                    doc,
                    &value.span,
                    format!("this page's feed_url, {}, is not the first page's, {}", value.shown, reference.shown),
                )
                .label("another feed_url")
                .secondary(reference.span.in_doc(first), format!("the feed_url of {}", set.name(first)))
                .note("JSON Feed 1.1, Top-level: \"feed_url [...] is the URL of the feed, and serves as the unique identifier for the feed\"; a reader that pages through the feed takes a page with another feed_url for another feed")
                .help("write the first page's feed_url on every page"),
            );
        }
    }
}

pub static JSON_FEED_ITEM_ID_REUSED: Rule = rule!(
    JsonFeedItemIdReused, Error, Set, None, set: Some(item_id_reused),
    groups: [JsonFeed],
    summary: "two pages of a paged JSON Feed hold two different items (other urls) with one id",
    spec: "JSON Feed 1.1, Items; RFC 5005 §3",
);

/// Two items are one where their `url` is one too: the same item on two
/// pages is no finding (pages shift while a reader pages through them, as
/// RFC 5005 §3 says of paged feeds), and an item without a `url` is not
/// told apart from another.
fn item_id_reused(cx: &mut SetChecker) {
    let set = cx.set;
    let pairs = reused_across_pages(
        set,
        |summary, entry| (summary.kind == crate::feed::DocKind::JsonFeed).then(|| (entry.id_hash, summary.id(entry))),
        |earlier, later| {
            earlier.media_hash.is_some() && later.media_hash.is_some() && earlier.media_hash != later.media_hash
        },
    );
    for ((doc, entry), (other, earlier)) in pairs {
        let id = set.summary(doc).id(entry);
        cx.report(
            SetChecker::at(doc, entry.location(), format!("the id {} is another item's on {}, with another url", crate::findings::diagnostic::shorten(id), set.name(other)))
                .label("one id, two items")
                .secondary(earlier.span(other), "the other item")
                .note("JSON Feed 1.1, Items: id \"is unique for that item for that feed over time\"; a reader that has the other item keeps it, and never shows this one")
                .help("give each item its own id, one that never changes"),
        );
    }
}
