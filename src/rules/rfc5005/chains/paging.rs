//! Paging chains (RFC 5005 §3): pages that name each other with next,
//! previous, first and last, and what the pages of one paged podcast share.

use std::collections::HashMap;

use super::{dissenters, named_by, report_asymmetries, report_cycles};
use crate::feed::{DocKind, Relation};
use crate::findings::diagnostic::DocId;
use crate::model::set::{FeedSet, PAGING_RELATIONS};
use crate::rules::{rule, Rule, SetChecker};

pub static PAGING_CHAIN_ASYMMETRIC: Rule = rule!(
    PagingChainAsymmetric, Warning, Set, None, set: Some(paging_chain_asymmetric),
    groups: [Rfc5005],
    summary: "next and previous links of neighbouring pages contradict each other, or pages disagree on first or last",
    spec: "RFC 5005 §3",
);

fn paging_chain_asymmetric(cx: &mut SetChecker) {
    report_asymmetries(
        cx,
        Relation::Next,
        Relation::Previous,
        |_, _, _| true,
        Relation::Next,
        "RFC 5005 §3: next names the immediately following document and previous the immediately preceding one",
    );
    let set = cx.set;
    for rel in [Relation::First, Relation::Last] {
        for ((doc, link), (reference_doc, reference)) in
            dissenters(set, rel, set.feeds().map(|(d, _)| d), |set, doc| {
                set.paging_group_of(doc)
            })
        {
            cx.report(
                SetChecker::at(
                    doc,
                    &link.span,
                    format!(
                        "{rel} names {}, but other pages of this feed name {}",
                        set.describe(link.target.as_ref()),
                        set.describe(reference.target.as_ref())
                    ),
                )
                .label(format!("a different {rel} page"))
                .secondary(
                    reference.span.in_doc(reference_doc),
                    format!("the {rel} most pages name"),
                )
                .note(format!(
                    "RFC 5005 §3: \"{rel}\" refers to the furthest {} document in the series, the same for every page",
                    if rel == Relation::First {
                        "preceding"
                    } else {
                        "following"
                    }
                ))
                .help(format!("make every page's {rel} link name the same document")),
            );
        }
    }
}

pub static PAGING_CHAIN_CYCLE: Rule = rule!(
    PagingChainCycle, Error, Set, None, set: Some(paging_chain_cycle),
    groups: [Rfc5005],
    summary: "following next or previous links returns to a page already visited",
    spec: "RFC 5005 §6",
);

fn paging_chain_cycle(cx: &mut SetChecker) {
    report_cycles(cx, [Relation::Next, Relation::Previous]);
}

pub static PAGING_LINK_DANGLING: Rule = rule!(
    PagingLinkDangling, Error, Set, None, set: Some(paging_link_dangling),
    groups: [Rfc5005],
    summary: "a next, previous, first or last link points inside the checked documents' URL space, but no page is there",
    spec: "RFC 5005 §3",
);

/// An error, unlike an archive's (RFC 5005 §4.1 lets publishers withhold
/// archives): a paging link "refers to" a document of the series, and a
/// reader that follows this one stops there, with the rest of the feed
/// unread.
fn paging_link_dangling(cx: &mut SetChecker) {
    let set = cx.set;
    // Which page names each page by previous, and by next.
    let (by_previous, by_next) = (named_by(set, Relation::Previous), named_by(set, Relation::Next));
    let reached_as_archive = crate::rules::rfc5005::archive::reached_as_archive(set);
    for (doc, summary) in set.feeds() {
        // A next link on the page that is its own last (a previous link on
        // its own first) is paging-link-past-end's finding, at the cause.
        let is_own = |rel| {
            summary
                .links
                .iter()
                .any(|l| l.rel == rel && l.target.as_ref().is_some_and(|t| set.resolve(t) == Some(doc)))
        };
        let (own_first, own_last) = (is_own(Relation::First), is_own(Relation::Last));
        // In an archive, a lone previous is the feed-history draft's
        // prev-archive (legacy-previous-archive's finding).
        let legacy_archive = crate::rules::rfc5005::archive::has_lone_previous(summary)
            && (summary.is_archive_like() || reached_as_archive.contains(&doc));
        for link in summary.links.iter().filter(|l| PAGING_RELATIONS.contains(&l.rel)) {
            let Some(target) = link.target.as_ref().filter(|target| set.dangles(target)) else {
                continue;
            };
            if (link.rel == Relation::Next && own_last)
                || (link.rel == Relation::Previous && (own_first || legacy_archive))
            {
                continue;
            }
            // A page is named by its URL, query and all.
            let named = match target.query() {
                Some(_) => target.to_string(),
                None => set.describe(Some(target)),
            };
            // The page meant: the one that names this page back.
            let meant = match link.rel {
                Relation::Next => by_previous.get(&doc),
                Relation::Previous => by_next.get(&doc),
                _ => None,
            };
            let help = match meant {
                Some(&(meant, false)) => format!(
                    "make this {} name {}: {} names this page as its {}",
                    link.rel,
                    set.reference(doc, meant),
                    set.name(meant),
                    if link.rel == Relation::Next { "previous" } else { "next" },
                ),
                _ if summary.kind == DocKind::JsonFeed => "publish the missing page, or correct next_url (on the last page, remove it)".to_owned(),
                _ => "publish the missing page, or correct the link (on the last page, remove next; on the first, previous)".to_owned(),
            };
            let note = match summary.kind {
                DocKind::JsonFeed => "JSON Feed 1.1, Top-level: next_url \"is the URL of a feed that provides the next n items\"; a reader that follows it gets an error, and the pages past it are never read",
                _ => "RFC 5005 §3: \"next\" refers to \"the immediately following document in a series of documents\" (previous, first and last alike); a reader that follows this link gets an error, and the pages past it are never read",
            };
            cx.report(
                SetChecker::at(
                    doc,
                    &link.span,
                    format!(
                        "{} names {named}, inside the linted tree, but there is no page there",
                        summary.written(link.rel)
                    ),
                )
                .label("nothing here")
                .note(note)
                .help(help),
            );
        }
    }
}

/// The documents of each paged feed that has more than one page, each
/// feed's pages in the order of the run.
pub(crate) fn paged_feeds(set: &FeedSet) -> Vec<Vec<DocId>> {
    let mut by_group: HashMap<DocId, Vec<DocId>> = HashMap::new();
    for (doc, _) in set.feeds() {
        by_group.entry(set.paging_group_of(doc)).or_default().push(doc);
    }
    let mut feeds: Vec<Vec<DocId>> = by_group.into_values().filter(|pages| pages.len() > 1).collect();
    feeds.sort_unstable();
    feeds
}

pub static PAGING_GUID_REUSED: Rule = rule!(
    PagingGuidReused, Error, Set, None, set: Some(paging_guid_reused),
    groups: [Rfc5005],
    summary: "two pages of a paged feed hold two different episodes (other enclosures) with one guid",
    spec: "RSS 2.0, <guid> sub-element of <item>; PSP-1 <guid>; RFC 5005 §3",
);

/// The same episode on two pages (its guid and its enclosure) is no
/// finding: RFC 5005 §3 leaves duplicates in paged feeds alone, as pages
/// shift while they are read.
fn paging_guid_reused(cx: &mut SetChecker) {
    let set = cx.set;
    let pairs = reused_across_pages(
        set,
        |summary, entry| (summary.kind != DocKind::JsonFeed).then(|| (entry.id_hash, summary.id(entry))),
        |earlier, later| {
            earlier.media_hash.is_some() && later.media_hash.is_some() && earlier.media_hash != later.media_hash
        },
    );
    for ((doc, entry), (other, earlier)) in pairs {
        let guid = set.summary(doc).id(entry);
        cx.report(
            SetChecker::at(doc, entry.location(), format!("the guid {} is another episode's on {}, with another enclosure", crate::findings::diagnostic::shorten(guid), set.name(other)))
                .label("one guid, two episodes")
                .secondary(earlier.span(other), "the other episode")
                .note("RSS 2.0: the guid \"is a string that uniquely identifies the item\"; PSP-1: \"Each episode must have a unique GUID that never changes\". Apps keep one of the two episodes, and never show the other")
                .help("give each episode its own guid"),
        );
    }
}

/// An entry, and the page it is on.
pub(crate) type PageEntry<'s> = (DocId, &'s crate::model::summary::EntrySummary);

/// Each entry of a paged feed that has the key of an entry of another
/// page, where `differ` says the two are different episodes, with that
/// first entry: each key is looked up once, not compared with every
/// earlier entry.
pub(crate) fn reused_across_pages<'s, K: std::hash::Hash + Eq>(
    set: &FeedSet<'s>,
    key: impl Fn(&'s crate::model::summary::DocSummary, &'s crate::model::summary::EntrySummary) -> Option<K>,
    differ: impl Fn(&crate::model::summary::EntrySummary, &crate::model::summary::EntrySummary) -> bool,
) -> Vec<(PageEntry<'s>, PageEntry<'s>)> {
    let mut pairs = Vec::new();
    for pages in paged_feeds(set) {
        let mut first: HashMap<K, PageEntry<'s>> = HashMap::new();
        for &doc in &pages {
            let summary = set.summary(doc);
            for entry in &summary.entries {
                let Some(key) = key(summary, entry) else { continue };
                match first.get(&key) {
                    Some(&(other, earlier)) if other != doc && differ(earlier, entry) => {
                        pairs.push(((doc, entry), (other, earlier)));
                    }
                    Some(_) => {}
                    None => {
                        first.insert(key, (doc, entry));
                    }
                }
            }
        }
    }
    pairs
}

pub static PAGING_ENCLOSURE_REUSED: Rule = rule!(
    PagingEnclosureReused, Warning, Set, None, set: Some(paging_enclosure_reused),
    groups: [Rfc5005],
    summary: "two pages of a paged podcast hold two episodes (other guids) with one enclosure URL",
    spec: "Apple, A Podcaster's Guide to RSS: <guid>, <enclosure>; RFC 5005 §3",
);

fn paging_enclosure_reused(cx: &mut SetChecker) {
    let set = cx.set;
    let pairs = reused_across_pages(
        set,
        |summary, entry| entry.media_hash.filter(|_| summary.kind != DocKind::JsonFeed),
        |earlier, later| earlier.id_hash != later.id_hash,
    );
    for ((doc, entry), (other, earlier)) in pairs {
        cx.report(
            SetChecker::at(doc, entry.location(), format!("this episode's enclosure is the one of another episode on {}", set.name(other)))
                .label("one file, two episodes")
                .secondary(earlier.span(other), "the other episode")
                .note("Apple: \"make sure that an episode's enclosure URL is unique\"; apps that know an episode by its media file show one of the two only")
                .help("give each episode its own media file, or remove the repeated episode"),
        );
    }
}

pub static PAGING_CHANNEL_MISMATCH: Rule = rule!(
    PagingChannelMismatch, Warning, Set, None, set: Some(paging_channel_mismatch),
    groups: [Rfc5005],
    summary: "pages of one paged RSS feed name their channel differently: another title, or another podcast:guid",
    spec: "RFC 5005 §1, §3",
);

/// How a page names its channel: one field of its summary.
type ChannelField = fn(&crate::model::summary::DocSummary) -> Option<&crate::model::summary::SharedValue>;

/// The pages are one logical feed: a page whose channel differs reads as
/// another feed, and an app that pages through it shows episodes under
/// two names (or, by podcast:guid, two podcasts).
fn paging_channel_mismatch(cx: &mut SetChecker) {
    let set = cx.set;
    for pages in paged_feeds(set) {
        let fields: [(&str, ChannelField); 2] = [
            ("podcast:guid", |s| s.podcast_guid.as_ref()),
            ("title", |s| s.channel_title.as_ref()),
        ];
        for (what, field) in fields {
            let Some((reference_doc, reference)) = pages.iter().find_map(|&doc| Some((doc, field(set.summary(doc))?)))
            else {
                continue;
            };
            for &doc in &pages {
                let Some(value) = field(set.summary(doc)).filter(|v| v.hash != reference.hash) else {
                    continue;
                };
                cx.report(
                    SetChecker::at(doc, &value.span, format!("this page's {what}, {}, is not the first page's, {}", value.shown, reference.shown))
                        .label(format!("another {what}"))
                        .secondary(reference.span.in_doc(reference_doc), format!("the {what} of {}", set.name(reference_doc)))
                        .note("RFC 5005 §3: a paged feed is \"a set of linked feed documents that together contain the entries of a logical feed\"; a page whose channel differs reads as another feed")
                        .help(format!("write the same {what} on every page")),
                );
            }
        }
    }
}
