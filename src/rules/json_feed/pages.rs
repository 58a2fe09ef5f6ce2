//! The pages of a paged JSON Feed together: `next_url` is a paging chain's
//! next link, which the paging rules of RFC 5005 follow (a cycle, a page
//! that is not there); what JSON Feed adds is that the pages share the
//! feed's identifier, its `feed_url`.

use std::collections::HashSet;

use crate::feed::Relation;
use crate::findings::diagnostic::DocId;
use crate::rules::rfc5005::chains::paging::paged_feeds;
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
