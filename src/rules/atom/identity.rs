//! Dates and entry identity: what archive reconstruction and duplicate
//! removal depend on (RFC 5005 §4.2, RFC 4287 §3.3, §4.2.6).

use std::hash::BuildHasher;

use crate::base::hash::{FastMap, FastState, FirstOfKey};

use crate::feed::{is, DocKind, Text, AT_NS};
use crate::findings::diagnostic::{shorten, DocId};
use crate::model::summary::EntrySummary;
use crate::rules::SetChecker;
use crate::rules::{rule, Checker, Rule};
use crate::text::date;

pub static INVALID_DATE: Rule = rule!(
    InvalidDate, Error, Doc, Some(invalid_date),
    groups: [AtomCore],
    summary: "an Atom date or a deleted entry's when is not an RFC 3339 date-time",
    spec: "RFC 4287 §3.3; RFC 6721 §3; RFC 3339 §5.6",
);

fn invalid_date(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for node in feed.everywhere.atom_dates.iter() {
        // The common case, a valid date, is decided without locating it.
        if date::is_rfc3339(node.text().unwrap_or_default().trim()) {
            continue;
        }
        let text = Text::of(node);
        if let Err(error) = date::parse_rfc3339(text.value) {
            findings.push((
                text.range,
                format!("atom:{}", node.tag_name().name()),
                text.value.to_owned(),
                error,
            ));
        }
    }
    for tombstone in feed.everywhere.tombstones.iter() {
        let Some(when) = tombstone.attribute_node("when") else {
            continue;
        };
        if let Err(error) = date::parse_rfc3339(when.value()) {
            findings.push((when.range_value(), "when".to_owned(), when.value().to_owned(), error));
        }
    }
    for (range, what, value, error) in findings {
        cx.report(
            Checker::at(range, format!("{what} \"{}\" is not an RFC 3339 date-time: {error}", shorten(&value)))
                .label("invalid date")
                .note("RFC 4287 §3.3: a Date construct MUST conform to the \"date-time\" production in RFC 3339, with an uppercase \"T\" and, without a numeric offset, an uppercase \"Z\"")
                .help("write it as e.g. 2003-12-13T18:30:02Z or 2003-12-13T18:30:02.25+01:00"),
        );
    }
}

pub static AMBIGUOUS_DUPLICATE_ENTRY: Rule = rule!(
    AmbiguousDuplicateEntry, Warning, DocAndSet, Some(ambiguous_duplicate_entry), set: Some(ambiguous_duplicate_entry_in_set),
    groups: [AtomCore, RssCore],
    summary: "two entries with the same identity and the same update time, so no rule picks a winner",
    spec: "RFC 5005 §4.1, §4.2; RFC 4287 §4.1.1",
);

/// What makes two entries of one document duplicates: the same atom:id and
/// the same atom:updated instant (or none; an unparsable time compares by
/// its text).
fn duplicate_key<'d, 'a>(
    entry: &'d crate::feed::Entry<'a, '_>,
) -> Option<(&'a str, Option<&'d date::Instant>, Option<&'a str>)> {
    let id = entry.id()?;
    let instant = entry.updated_at.as_ref();
    let updated = match instant {
        Some(_) => None,
        None => entry.updated().map(|u| u.value),
    };
    Some((id.value, instant, updated))
}

fn ambiguous_duplicate_entry(cx: &mut Checker) {
    let feed = cx.feed;
    // Two items of one RSS document with one guid are rss-invalid-guid's:
    // a guid is unique whatever the dates. Across documents, this rule's.
    if feed.kind == DocKind::Rss {
        return;
    }
    // Duplicates are found through a hash and an index per entry.
    let hasher = FastState::default();
    let mut firsts = FirstOfKey::with_capacity(feed.entries.len());
    for (index, entry) in feed.entries.iter().enumerate() {
        let Some(key) = duplicate_key(entry) else { continue };
        let same = |seen: u32| duplicate_key(&feed.entries[seen as usize]) == Some(key);
        let Some(first) = firsts.first_or_keep(index as u32, hasher.hash_one(key), same) else {
            continue;
        };
        let first = &feed.entries[first as usize];
        let (what, same_time) = match feed.kind {
            DocKind::Rss => ("guid", ""),
            _ if entry.has_updated() => ("atom:id", " and the same atom:updated"),
            _ => ("atom:id", " and neither has atom:updated"),
        };
        let id = entry.id().expect("keyed by id");
        let first_id = first.id().expect("keyed by id");
        cx.report(
            Checker::at(id.range.clone(), format!("a second entry with {what} \"{}\"{same_time}: no rule says which one is current", shorten(id.value)))
                .label("duplicate")
                .secondary(first_id.range.clone(), "first entry with this identity")
                .note("RFC 5005 §4.2: of duplicates, consumers keep the most recently updated; with equal update times in one document, nothing decides")
                .help("remove the older copy, or give the newer one a later update time"),
        );
    }
}

/// The set part: the same entry in two documents of one archive chain
/// whose feed-level update times do not decide either (RFC 5005 §4.2).
fn ambiguous_duplicate_entry_in_set(cx: &mut SetChecker) {
    let set = cx.set;
    // Only documents that share an archive chain with another can disagree,
    // and only with the documents of their own group: the groups are
    // checked apart, in parallel, in the order of their first documents.
    let mut group_index: FastMap<DocId, usize> = FastMap::default();
    let mut groups: Vec<Vec<DocId>> = Vec::new();
    for (doc, _) in set.feeds() {
        let index = *group_index.entry(set.group_of(doc)).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[index].push(doc);
    }
    groups.retain(|group| group.len() > 1);
    cx.for_each_part(&groups, |cx, group| duplicates_in_group(cx, group));
}

/// [`ambiguous_duplicate_entry_in_set`] over the documents of one archive
/// group.
fn duplicates_in_group(cx: &mut SetChecker, group: &[DocId]) {
    let set = cx.set;
    let entries = group.iter().map(|doc| set.summary(*doc).entries.len()).sum();
    // Every entry of the group is looked up here, by the id's hash the
    // summary took, not by its text.
    let hasher = FastState::default();
    let mut firsts = FirstOfKey::with_capacity(entries);
    let mut seen: Vec<(DocId, &EntrySummary)> = Vec::with_capacity(entries);
    for &doc in group {
        let summary = set.summary(doc);
        for entry in &summary.entries {
            let key = hasher.hash_one((entry.id_hash, entry.updated.as_ref()));
            let same = |at: u32| {
                let (seen_doc, seen_entry) = seen[at as usize];
                seen_entry.id_hash == entry.id_hash
                    && seen_entry.updated == entry.updated
                    && set.summary(seen_doc).id(seen_entry) == summary.id(entry)
            };
            let Some(at) = firsts.first_or_keep(seen.len() as u32, key, same) else {
                seen.push((doc, entry));
                continue;
            };
            let (first_doc, first) = seen[at as usize];
            if first_doc == doc {
                continue; // the document part reports duplicates within a document
            }
            let updated = |d: DocId| set.summary(d).feed_updated.as_ref().map(|u| &u.value);
            let (a, b) = (updated(first_doc), updated(doc));
            if a.is_some() && b.is_some() && a != b {
                continue; // the more recently updated document wins
            }
            cx.report(
                SetChecker::at(doc, entry.location(), format!("entry \"{}\" is also in {} with the same update time, and the two documents' update times do not decide which copy wins", shorten(summary.id(entry)), set.name(first_doc)))
                    .label("duplicate")
                    .secondary(first.span(first_doc), format!("the copy in {}", set.name(first_doc)))
                    .note("RFC 5005 §4.2: duplicates are resolved by the entries' update times, then by the feed documents' update times; here both are equal or missing")
                    .help("give the documents distinct feed-level update times, or the newer copy a later atom:updated"),
            );
        }
    }
}

pub static MALFORMED_UUID_URN: Rule = rule!(
    MalformedUuidUrn, Warning, Doc, Some(malformed_uuid_urn),
    groups: [AtomCore],
    summary: "an id starting with urn:uuid: is not a well-formed UUID",
    spec: "RFC 4122 §3",
);

fn malformed_uuid_urn(cx: &mut Checker) {
    let feed = cx.feed;
    // Only ids that start like a UUID URN are located and checked.
    let looks_like_uuid = |value: &str| {
        value
            .trim_start()
            .get(..9)
            .is_some_and(|p| p.eq_ignore_ascii_case("urn:uuid:"))
    };
    let atom_ids = feed
        .everywhere
        .remarkable_atom_ids()
        .filter(|n| looks_like_uuid(n.text().unwrap_or_default()))
        .map(|n| ("atom:id", Text::of(n)));
    let guids = feed
        .entries
        .iter()
        .filter(|_| feed.kind == DocKind::Rss)
        .filter_map(|e| e.id())
        .map(|t| ("guid", t));
    let refs = feed
        .everywhere
        .tombstones
        .iter()
        .filter(|t| is(*t, AT_NS, "deleted-entry"))
        .filter_map(|tombstone| tombstone.attribute_node("ref"))
        .filter(|reference| looks_like_uuid(reference.value()))
        .map(|reference| {
            let id = Text {
                value: reference.value(),
                range: reference.range_value(),
            };
            ("ref", id)
        });
    // Walked, not gathered: a feed of a million tombstones would otherwise
    // hold a list of every ref to find the few UUIDs among them.
    for (what, id) in atom_ids.chain(guids).chain(refs) {
        let Some(prefix) = id.value.get(..9).filter(|p| p.eq_ignore_ascii_case("urn:uuid:")) else {
            continue;
        };
        let uuid = id.value.get(prefix.len()..).unwrap_or_default();
        if crate::base::syntax::is_uuid(uuid) {
            continue;
        }
        cx.report(
            Checker::at(id.range.clone(), format!("{what} \"{}\" is not a UUID URN: \"{uuid}\" is not 8-4-4-4-12 hexadecimal digits", shorten(id.value), uuid = shorten(uuid)))
                .label("malformed UUID")
                .note("RFC 4122 §3: a UUID is 32 hexadecimal digits in groups of 8, 4, 4, 4 and 12; RFC 5005 erratum 1685 corrected exactly this in the RFC's own example")
                .help("mint a new UUID for the id (and keep it stable from now on)"),
        );
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn uuids() {
        assert!(crate::base::syntax::is_uuid("2c355272-fd98-11dd-8474-0016415cd53f"));
        assert!(crate::base::syntax::is_uuid("60A76C80-D399-11D9-B93C-0003939E0AF6"));
        assert!(!crate::base::syntax::is_uuid("cdef5c6d5-gff8-4ebb-assa-80dwe44efkjo"));
        assert!(!crate::base::syntax::is_uuid("2c355272fd9811dd84740016415cd53f"));
    }
}
