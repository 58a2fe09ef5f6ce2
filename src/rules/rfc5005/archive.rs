//! Archived feeds (RFC 5005 §4), as far as one document shows them.

use std::collections::{HashMap, HashSet};

use crate::feed::{start_tag, FeedDoc, Relation, FH_NS};
use crate::findings::diagnostic::DocId;
use crate::findings::fix::{self, Fix};
use crate::model::set::{self, FeedSet};
use crate::model::summary::DocSummary;
use crate::rules::SetChecker;
use crate::rules::{remove, rename_relation, rule, Checker, Rule};

const ADD_ARCHIVE_MARKER: &str =
    "add <fh:archive/> to the head section (with xmlns:fh=\"http://purl.org/syndication/history/1.0\")";

pub static ARCHIVE_MISSING_MARKER: Rule = rule!(
    ArchiveMissingMarker, Warning, DocAndSet, Some(archive_missing_marker), set: Some(archive_missing_marker_in_set),
    groups: [Rfc5005],
    summary: "a document that behaves as an archive has no fh:archive",
    spec: "RFC 5005 §4",
);

fn archive_missing_marker(cx: &mut Checker) {
    let feed = cx.feed;
    if !feed.archive.is_empty() || !feed.complete.is_empty() {
        return;
    }
    let evidence = feed
        .links
        .iter()
        .find(|l| (l.rel == Relation::Current && feed.points_elsewhere(l)) || l.rel == Relation::NextArchive);
    let Some(link) = evidence else { return };
    let why = if link.rel == Relation::Current {
        "it links to its subscription document with rel=\"current\""
    } else {
        "it has a next-archive link, so a newer document follows it"
    };
    cx.report(
        Checker::at(
            link.rel_span(),
            format!("this document is an archive ({why}) but has no fh:archive"),
        )
        .label("archive link")
        .note("RFC 5005 §4: archive documents SHOULD contain an fh:archive element in their head sections")
        .help(ADD_ARCHIVE_MARKER)
        .fix_if(add_archive_marker(feed)),
    );
}

/// The fix that marks the document an archive: `<fh:archive/>` as the first
/// child of the head section, on a line of its own indented as the next
/// child is; with the feed-history namespace declared on it, unless a
/// prefix in scope names it already.
fn add_archive_marker(feed: &FeedDoc) -> Option<Fix> {
    let head = feed.head?;
    let text = feed.xml.input_text();
    let after_start_tag = head.start_tag().end;
    if text.get(..after_start_tag)?.ends_with("/>") {
        return None;
    }
    let marker = match crate::rules::prefix_in_scope(text, head, FH_NS) {
        Some(prefix) => format!("<{prefix}:archive/>"),
        None => format!("<fh:archive xmlns:fh=\"{FH_NS}\"/>"),
    };
    // The whitespace before the head's first child gives the indentation.
    let gap = text.get(after_start_tag..)?;
    let gap = gap
        .split_at(gap.find(|c: char| !c.is_ascii_whitespace()).unwrap_or(gap.len()))
        .0;
    let insert = match gap.rfind(['\n', '\r']) {
        Some(line_end) => {
            let newline = if gap.contains("\r\n") { "\r\n" } else { "\n" };
            format!("{newline}{}{marker}", gap.get(line_end + 1..).unwrap_or_default())
        }
        None => marker,
    };
    Some(Fix::safe(
        "Add <fh:archive/> to the head section",
        vec![fix::replace(after_start_tag..after_start_tag, insert)],
    ))
}

/// Whether the document part of archive-missing-marker fires for it.
fn behaves_as_archive(summary: &DocSummary) -> bool {
    summary.current_elsewhere || summary.link(Relation::NextArchive).is_some()
}

/// The set part: a document that others link to as an archive.
fn archive_missing_marker_in_set(cx: &mut SetChecker) {
    let set = cx.set;
    let mut reported = HashSet::new();
    // A prev-archive target is a completed archive by definition; a
    // next-archive target without fh:archive may be unfinished, and is
    // next-archive-unsealed's.
    for rel in [Relation::PrevArchive] {
        for (from, link, to) in set.edges(rel) {
            let summary = set.summary(to);
            let exempt = summary.is_archive()
                || summary.complete_marker.is_some()
                || behaves_as_archive(summary)
                || set::is_subscription(summary)
                || set.is_named_current(to);
            if from == to || exempt || !reported.insert(to) {
                continue;
            }
            cx.report(
                SetChecker::at(
                    to,
                    &summary.root,
                    format!(
                        "this document is an archive ({} names it as {rel}) but has no fh:archive",
                        set.name(from)
                    ),
                )
                .label("archive without fh:archive")
                .secondary(link.span.in_doc(from), format!("{rel} of {}", set.name(from)))
                .note("RFC 5005 §4: archive documents SHOULD contain an fh:archive element in their head sections")
                .help(ADD_ARCHIVE_MARKER),
            );
        }
    }
}

pub static ARCHIVE_MISSING_CURRENT: Rule = rule!(
    ArchiveMissingCurrent, Warning, Doc, Some(archive_missing_current),
    groups: [Rfc5005],
    summary: "an archive document does not link to its subscription document",
    spec: "RFC 5005 §4",
);

fn archive_missing_current(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(archive) = feed.archive.first() else {
        return;
    };
    if feed.has_link(Relation::Current) {
        return;
    }
    cx.report(
        Checker::at(start_tag(*archive), "this archive has no \"current\" link to its subscription document")
            .label("archive marker")
            .note("RFC 5005 §4: archive documents SHOULD indicate their associated subscription documents using the \"current\" link relation")
            .help("add <link rel=\"current\" href=\"...\"/> pointing at the subscription document"),
    );
}

pub static NEXT_ARCHIVE_UNSEALED: Rule = rule!(
    NextArchiveUnsealed, Error, DocAndSet, Some(next_archive_unsealed), set: Some(next_archive_unsealed_in_set),
    groups: [Rfc5005],
    summary: "a next-archive link points at a document that is not a sealed archive",
    spec: "RFC 5005 §4",
);

fn next_archive_unsealed(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(current) = feed.first_link(Relation::Current) else {
        return;
    };
    let Some(current_key) = current.target_key() else {
        return;
    };
    for next in feed.links_with(Relation::NextArchive) {
        if next.target_key().as_ref() == Some(&current_key) {
            cx.report(
                Checker::at(next.span(), "next-archive points at the subscription document, which is not a sealed archive")
                    .label("this link")
                    .secondary(current.span(), "the same document, named as current")
                    .note("RFC 5005 §4: the most recent complete archive has no next-archive; it would be an error to link to an archive before completion")
                    .help("remove the next-archive link until the following archive is complete")
                    .fix(Fix::unsafe_(
                        "Remove the next-archive link",
                        vec![remove(feed, next.node)],
                    )),
            );
        }
    }
}

/// The set part: the target, found among the linted documents, is the
/// subscription document or a document that is no archive at all.
fn next_archive_unsealed_in_set(cx: &mut SetChecker) {
    let set = cx.set;
    for (from, link, to) in set.edges(Relation::NextArchive) {
        // The document part already compares with the document's own current.
        let own_current = set
            .summary(from)
            .link(Relation::Current)
            .and_then(|c| c.target.as_ref());
        if from == to || own_current.is_some_and(|c| Some(c) == link.target.as_ref()) {
            continue;
        }
        let target = set.summary(to);
        let what = if set::is_subscription(target) || set.is_named_current(to) {
            "the subscription document"
        } else if !target.is_archive() && !behaves_as_archive(target) && target.complete_marker.is_none() {
            "a document without fh:archive"
        } else {
            continue;
        };
        cx.report(
            SetChecker::at(from, &link.span, format!("next-archive points at {}, {what}, which is not a sealed archive", set.name(to)))
                .label("this link")
                .secondary(target.root.in_doc(to), "not a sealed archive")
                .note("RFC 5005 §4: the most recent complete archive has no next-archive; it would be an error to link to an archive before completion")
                .help("remove the next-archive link until the following archive is complete"),
        );
    }
}

pub static SELF_REFERENCING_LINK: Rule = rule!(
    SelfReferencingLink, Error, Doc, Some(self_referencing_link),
    groups: [Rfc5005],
    summary: "an archive or paging link points at the document itself",
    spec: "RFC 5005 §3, §4, §6",
);

fn self_referencing_link(cx: &mut Checker) {
    let feed = cx.feed;
    let is_archive = !feed.archive.is_empty();
    for link in &feed.links {
        let checked = match link.rel.navigation() {
            Some(Relation::PrevArchive | Relation::NextArchive | Relation::Previous | Relation::Next) => true,
            Some(Relation::Current) => is_archive,
            _ => false,
        };
        if !checked || !feed.is_self_target(link) {
            continue;
        }
        let mut finding = Checker::at(
            link.span(),
            format!("this {} link points at the document itself", link.rel),
        )
        .label("resolves to this document");
        if let Some(self_link) = feed.self_link().filter(|s| s.target_key() == link.target_key()) {
            finding = finding.secondary(self_link.span(), "the document's own self link");
        }
        let (note, help) = if link.rel == Relation::Current {
            (
                "an archive's current link names the subscription document, which is a different document",
                "point current at the subscription document, or remove fh:archive if this is the subscription document",
            )
        } else {
            (
                "a client following it requests the same document again, without end (RFC 5005 §6)",
                "point it at the neighbouring document, or remove it if there is none",
            )
        };
        cx.report(finding.note(note).help(help));
    }
}

pub static DUPLICATE_NAVIGATION_LINK: Rule = rule!(
    DuplicateNavigationLink, Error, Doc, Some(duplicate_navigation_link),
    groups: [Rfc5005],
    summary: "two head-section links with the same navigation relation and different targets",
    spec: "RFC 5005 §3, §4",
);

/// `prev`, the registry's synonym, is followed as `previous`: a page with
/// both naming different pages contradicts itself, once, here (the chain
/// checks follow the first).
fn duplicate_navigation_link(cx: &mut Checker) {
    let feed = cx.feed;
    let mut first_by_rel: HashMap<Relation, &crate::feed::Link> = HashMap::new();
    for link in &feed.links {
        let Some(rel) = link.rel.followed_as() else {
            continue;
        };
        let Some(first) = first_by_rel.get(&rel) else {
            first_by_rel.insert(rel, link);
            continue;
        };
        if first.target_key() == link.target_key() {
            continue;
        }
        let finding = if first.rel == link.rel {
            Checker::at(
                link.span(),
                format!("a second {} link with a different target", link.rel),
            )
            .note(format!(
                "RFC 5005 defines one {} document; consumers pick one of the links unpredictably",
                link.rel
            ))
        } else {
            Checker::at(link.span(), format!("rel=\"{}\" and rel=\"{}\" name different pages, and both name the preceding one", first.rel, link.rel))
                .note("RFC 5005 §3: \"previous\" is \"a URI that refers to the immediately preceding document in a series of documents\"; the link relation registry gives \"prev\" as its synonym, and readers follow either, so the page names two preceding pages")
        };
        cx.report(
            finding
                .label("second target")
                .secondary(first.span(), "first target")
                .help("keep one of the links"),
        );
    }
}

pub static LEGACY_PREVIOUS_ARCHIVE: Rule = rule!(
    LegacyPreviousArchive, Warning, DocAndSet, Some(legacy_previous_archive), set: Some(legacy_previous_archive_in_set),
    groups: [Rfc5005],
    summary: "archives linked with the feed-history draft's rel=\"previous\" instead of prev-archive",
    spec: "draft-nottingham-atompub-feed-history-05 §4; RFC 5005 §4",
);

/// A `previous` link shaped the feed-history-draft way: the document has no
/// `prev-archive`, no `fh:complete` and no other paging link. The last page
/// of a paged feed has the same shape (RFC 5005 §3 `previous`), so the shape
/// alone reports nothing: see [`archive_sign`] and the set part.
pub(crate) fn is_legacy_previous(feed: &FeedDoc) -> bool {
    feed.complete.is_empty()
        && feed.has_link(Relation::Previous)
        && !feed.has_link(Relation::PrevArchive)
        && ![Relation::Next, Relation::First, Relation::Last]
            .into_iter()
            .any(|rel| feed.has_link(rel))
}

/// What shows, in the document itself, that it belongs to an archived feed
/// rather than a paged one: its `fh:archive`, a `current` link to another
/// document, a `next-archive` link, or the draft's `fh:incremental`.
fn archive_sign(feed: &FeedDoc) -> Option<&'static str> {
    if !feed.archive.is_empty() {
        return Some("it is marked fh:archive");
    }
    if feed.links_with(Relation::Current).any(|l| feed.points_elsewhere(l)) {
        return Some("it links to its subscription document with rel=\"current\"");
    }
    if feed.has_link(Relation::NextArchive) {
        return Some("it has a next-archive link");
    }
    let incremental = feed
        .everywhere
        .fh_elements
        .iter()
        .any(|n| n.tag_name().name() == "incremental" && feed.in_head(n));
    incremental.then_some("it has the draft's fh:incremental")
}

const LEGACY_PREVIOUS_NOTE: &str = "draft-nottingham-atompub-feed-history-05 §4 linked archives with \"previous\"; RFC 5005 §4 uses \"prev-archive\" and keeps \"previous\" for paged feeds";
const LEGACY_PREVIOUS_HELP: &str = "rename the relation to rel=\"prev-archive\"";

fn legacy_previous_archive(cx: &mut Checker) {
    let feed = cx.feed;
    if !is_legacy_previous(feed) {
        return;
    }
    let (Some(previous), Some(why)) = (feed.first_link(Relation::Previous), archive_sign(feed)) else {
        return;
    };
    cx.report(
        Checker::at(previous.rel_span(), format!("rel=\"previous\" links to an archive the way the feed-history draft did ({why}); RFC 5005 consumers follow only prev-archive"))
            .label("draft-style archive link")
            .note(LEGACY_PREVIOUS_NOTE)
            .help(LEGACY_PREVIOUS_HELP)
            .fix_if(rename_relation(previous, "prev-archive")),
    );
}

/// The documents another one names by prev-archive or next-archive.
pub(crate) fn reached_as_archive(set: &FeedSet) -> HashSet<usize> {
    [Relation::PrevArchive, Relation::NextArchive]
        .into_iter()
        .flat_map(|rel| set.edges(rel).filter(|(from, _, to)| from != to).map(|(_, _, to)| to))
        .collect()
}

/// The shape of [`is_legacy_previous`], read from a summary.
pub(crate) fn has_lone_previous(summary: &DocSummary) -> bool {
    summary.complete_marker.is_none()
        && summary.link(Relation::Previous).is_some()
        && [Relation::PrevArchive, Relation::Next, Relation::First, Relation::Last]
            .into_iter()
            .all(|rel| summary.link(rel).is_none())
}

/// What the document part reads as signs of an archive, from a summary.
fn summary_shows_archive(summary: &DocSummary) -> bool {
    summary.is_archive_like() || summary.link(Relation::NextArchive).is_some()
}

/// The archive a document's lone `previous` leads to, when it is one (and
/// no page: it has no `next` link): the feed-history draft's archive link.
pub(crate) fn draft_previous_target(set: &FeedSet, doc: DocId) -> Option<DocId> {
    let summary = set.summary(doc);
    if !has_lone_previous(summary) {
        return None;
    }
    let target = set.resolve(summary.link(Relation::Previous)?.target.as_ref()?)?;
    let to = set.summary(target);
    (target != doc && summary_shows_archive(to) && to.link(Relation::Next).is_none()).then_some(target)
}

/// The set part: a lone `previous` whose document shows no sign of an
/// archive itself, but whose target is an archive (the draft's subscription
/// document), or which is reached as an archive. A `previous` to a page
/// with a `next` link is paging, never reported.
fn legacy_previous_archive_in_set(cx: &mut SetChecker) {
    let set = cx.set;
    let reached_as_archive = reached_as_archive(set);
    for (doc, summary) in set.feeds() {
        if !has_lone_previous(summary) || summary_shows_archive(summary) {
            continue;
        }
        let Some(previous) = summary.link(Relation::Previous) else {
            continue;
        };
        let archive_target = draft_previous_target(set, doc);
        let why = match archive_target {
            Some(target) => format!("{} is an archive", set.name(target)),
            None if reached_as_archive.contains(&doc) => "other documents link to it as an archive".to_owned(),
            None => continue,
        };
        let mut finding = SetChecker::at(
            doc,
            &previous.span,
            format!("rel=\"previous\" links to an archive the way the feed-history draft did ({why}); RFC 5005 consumers follow only prev-archive"),
        );
        if let Some(target) = archive_target {
            finding = finding.secondary(
                set.summary(target).archive_span().in_doc(target),
                "the archive it links to",
            );
        }
        cx.report(
            finding
                .label("draft-style archive link")
                .note(LEGACY_PREVIOUS_NOTE)
                .help(LEGACY_PREVIOUS_HELP),
        );
    }
}

pub static ARCHIVE_MISSING_SELF: Rule = rule!(
    ArchiveMissingSelf, Info, Doc, Some(archive_missing_self),
    groups: [Rfc5005],
    summary: "an archive document has no self link",
    spec: "draft-nottingham-atompub-feed-history-05 §6",
);

fn archive_missing_self(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(archive) = feed.archive.first() else {
        return;
    };
    if feed.self_link().is_some() {
        return;
    }
    cx.report(
        Checker::at(start_tag(*archive), "this archive has no self link")
            .label("archive marker")
            .note("consumers remember which archives they have processed by the self link's IRI")
            .help("add <link rel=\"self\" href=\"...\"/> with the archive's permanent IRI"),
    );
}
