//! `at:deleted-entry` (RFC 6721): tombstones in feeds and Deleted Entry
//! Documents.

use crate::xml::Node;

use crate::base::hash::{FastMap, FastSet, FastState};
use crate::feed::{
    attribute_value_range, child_text, is, start_tag, DocKind, Entry, FeedDoc, ATOM_NS, AT_NS, DS_NS, XHTML_NS,
};
use crate::findings::diagnostic::{shorten, DocId};
use crate::findings::fix::Fix;
use crate::model::set::Chain;
use crate::rules::SetChecker;
use crate::rules::{remove, rule, Checker, Rule};
use crate::text::date::{self, Instant};
use crate::text::iri;
use std::hash::BuildHasher;

fn children<'a, 'i>(node: Node<'a, 'i>, namespace: &'a str, name: &'a str) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children().filter(move |c| is(*c, namespace, name))
}

/// Tombstones where RFC 6721 puts them: children of the feed, or the root
/// of a Deleted Entry Document. Misplaced ones are reported on their own.
fn placed<'d, 'a, 'i>(feed: &'d FeedDoc<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> + 'd {
    feed.everywhere.tombstones.iter().filter(|t| is_placed(feed, *t))
}

fn is_placed(feed: &FeedDoc, tombstone: Node) -> bool {
    match tombstone.parent_element() {
        None => true,
        Some(parent) => feed.kind == DocKind::Atom && parent.id() == feed.root.id(),
    }
}

/// `when` parsed, if it is present and valid.
fn when_of(tombstone: Node) -> Option<Instant> {
    date::parse_rfc3339(tombstone.attribute("when")?).ok()
}

pub static DELETED_ENTRY_MISSING_REF: Rule = rule!(
    DeletedEntryMissingRef, Error, Doc, Some(deleted_entry_missing_ref),
    groups: [Rfc6721],
    summary: "an at:deleted-entry has no ref naming the deleted entry",
    spec: "RFC 6721 §3",
);

fn deleted_entry_missing_ref(cx: &mut Checker) {
    report_missing_attribute(
        cx,
        "ref",
        "this deleted entry has no ref attribute, so it does not say which entry was deleted",
        "RFC 6721 §3: the at:deleted-entry element MUST contain a \"ref\" attribute whose value specifies the value of the atom:id of the entry that has been removed",
        "add ref=\"...\" with the atom:id of the deleted entry",
    );
}

/// Reports every tombstone that lacks one of its required attributes.
fn report_missing_attribute(cx: &mut Checker, attribute: &str, message: &str, note: &'static str, help: &'static str) {
    let feed = cx.feed;
    for tombstone in feed
        .everywhere
        .tombstones
        .iter()
        .filter(|t| !t.has_attribute(attribute))
    {
        cx.report(
            Checker::at(start_tag(tombstone), message)
                .label(format!("no {attribute}"))
                .note(note)
                .help(help),
        );
    }
}

pub static DELETED_ENTRY_MISSING_WHEN: Rule = rule!(
    DeletedEntryMissingWhen, Error, Doc, Some(deleted_entry_missing_when),
    groups: [Rfc6721],
    summary: "an at:deleted-entry has no when saying when the entry was deleted",
    spec: "RFC 6721 §3",
);

fn deleted_entry_missing_when(cx: &mut Checker) {
    report_missing_attribute(
        cx,
        "when",
        "this deleted entry has no when attribute",
        "RFC 6721 §3: the at:deleted-entry element MUST contain a \"when\" attribute; without it, consumers cannot tell whether an entry with the same id was deleted or republished",
        "add when=\"...\" with the instant of deletion, e.g. when=\"2005-11-29T12:11:12Z\"",
    );
}

pub static DELETED_ENTRY_INVALID_REF: Rule = rule!(
    DeletedEntryInvalidRef, Error, Doc, Some(deleted_entry_invalid_ref),
    groups: [Rfc6721],
    summary: "a deleted entry's ref is empty or relative, but must be an entry's atom:id (an absolute IRI)",
    spec: "RFC 6721 §3; RFC 4287 §4.2.6",
);

fn deleted_entry_invalid_ref(cx: &mut Checker) {
    for tombstone in cx.feed.everywhere.tombstones.iter() {
        let Some(attribute) = tombstone.attribute_node("ref") else {
            continue;
        };
        let value = attribute.value();
        // Syntax errors are invalid-iri's; this rule is about what is left.
        if iri::check_iri_reference(value).is_err() || (iri::has_scheme(value) && !value.trim().is_empty()) {
            continue;
        }
        let (what, range) = if value.trim().is_empty() {
            ("empty".to_owned(), attribute.range())
        } else {
            (
                format!("the relative reference \"{}\"", shorten(value)),
                attribute.range_value(),
            )
        };
        cx.report(
            Checker::at(range, format!("ref is {what}, but it must be the atom:id of the deleted entry, an absolute IRI"))
                .label("not an atom:id")
                .note("RFC 4287 §4.2.6: the content of atom:id MUST be an IRI, and it MUST NOT be a relative reference; entries are matched by comparing it character by character")
                .help("write the deleted entry's atom:id exactly as it was published"),
        );
    }
}

pub static DUPLICATE_DELETED_ENTRY: Rule = rule!(
    DuplicateDeletedEntry, Error, Doc, Some(duplicate_deleted_entry),
    groups: [Rfc6721],
    summary: "two at:deleted-entry elements with the same ref and when",
    spec: "RFC 6721 §3",
);

pub static EQUIVALENT_DELETED_ENTRY: Rule = rule!(
    EquivalentDeletedEntry, Warning, Doc, Some(equivalent_deleted_entry),
    groups: [Rfc6721],
    summary: "two at:deleted-entry elements with the same ref and when values that name the same instant",
    spec: "RFC 6721 §3",
);

/// Pairs of placed tombstones with the same `ref`: (earlier, later), and
/// whether their `when` values are identical as text. Each later tombstone
/// is paired with the first earlier one that records the same deletion,
/// found by hashing, so thousands of tombstones sharing a `ref` cost no
/// more than thousands of different ones.
///
/// Only tombstones whose `ref` may be shared (its hash seen twice) are kept
/// in those maps: in the usual feed every `ref` differs, and the first
/// pass keeps 8 bytes per tombstone instead of the maps' hundred.
fn same_ref_pairs<'a, 'i>(feed: &FeedDoc<'a, 'i>) -> Vec<(Node<'a, 'i>, Node<'a, 'i>, bool)> {
    let state = FastState::default();
    // Every ref's hash, sorted (a hash table of them took about 20 bytes a
    // tombstone): a ref may be shared when its hash is there twice.
    let mut hashes: Vec<u64> = placed(feed)
        .filter_map(|tombstone| tombstone.attribute("ref"))
        .map(|reference| state.hash_one(reference))
        .collect();
    hashes.sort_unstable();
    let shared = |hash: u64| {
        let first = hashes.partition_point(|&h| h < hash);
        hashes.get(first + 1) == Some(&hash)
    };
    let mut by_text: FastMap<(&str, &str), Node> = FastMap::default();
    let mut by_instant: FastMap<(&str, Instant), Node> = FastMap::default();
    let mut pairs = Vec::new();
    for tombstone in placed(feed) {
        let (Some(reference), Some(when)) = (tombstone.attribute("ref"), tombstone.attribute("when")) else {
            continue;
        };
        if !shared(state.hash_one(reference)) {
            continue;
        }
        let instant = date::parse_rfc3339(when).ok();
        if let Some(first) = by_text.get(&(reference, when)) {
            pairs.push((*first, tombstone, true));
        } else if let Some(first) = instant.clone().and_then(|i| by_instant.get(&(reference, i))) {
            pairs.push((*first, tombstone, false));
        }
        by_text.entry((reference, when)).or_insert(tombstone);
        if let Some(instant) = instant {
            by_instant.entry((reference, instant)).or_insert(tombstone);
        }
    }
    pairs
}

fn duplicate_deleted_entry(cx: &mut Checker) {
    for (first, duplicate, _) in same_ref_pairs(cx.feed).into_iter().filter(|p| p.2) {
        cx.report(
            Checker::at(start_tag(duplicate), "a second deleted entry with the same ref and when")
                .label("duplicate")
                .secondary(start_tag(first), "first recorded here")
                .note("RFC 6721 §3: an Atom feed MUST NOT contain more than one at:deleted-entry with the same combination of ref and when attribute values")
                .help("remove the duplicate")
                .fix(Fix::safe("Remove the duplicate deleted entry", vec![remove(cx.feed, duplicate)])),
        );
    }
}

fn equivalent_deleted_entry(cx: &mut Checker) {
    for (first, duplicate, _) in same_ref_pairs(cx.feed).into_iter().filter(|p| !p.2) {
        let range = attribute_value_range(duplicate, "when").unwrap_or_else(|| start_tag(duplicate));
        let first_when = first.attribute("when").unwrap_or_default();
        cx.report(
            Checker::at(
                range,
                format!("this deletion is already recorded: when names the same instant as \"{first_when}\""),
            )
            .label("same instant, written differently")
            .secondary(
                attribute_value_range(first, "when").unwrap_or_else(|| start_tag(first)),
                "first recorded here",
            )
            .note("the two elements record the same deletion; consumers comparing the values as text treat them as two")
            .help("remove one of the two deleted entries"),
        );
    }
}

pub static DELETED_ENTRY_CARDINALITY: Rule = rule!(
    DeletedEntryCardinality, Error, Doc, Some(deleted_entry_cardinality),
    groups: [Rfc6721],
    summary: "more than one at:by, at:comment or atom:source in an at:deleted-entry",
    spec: "RFC 6721 §3",
);

fn deleted_entry_cardinality(cx: &mut Checker) {
    for tombstone in cx.feed.everywhere.tombstones.iter() {
        for (namespace, name, qualified) in [
            (AT_NS, "by", "at:by"),
            (AT_NS, "comment", "at:comment"),
            (ATOM_NS, "source", "atom:source"),
        ] {
            let mut found = children(tombstone, namespace, name);
            let Some(first) = found.next() else { continue };
            for extra in found {
                cx.report(
                    Checker::at(start_tag(extra), format!("a second {qualified} in one deleted entry"))
                        .label("one too many")
                        .secondary(start_tag(first), "the first one")
                        .note(format!(
                            "RFC 6721 §3: the at:deleted-entry element MAY contain one {qualified} element"
                        ))
                        .help(format!("keep one {qualified}")),
                );
            }
        }
    }
}

pub static DELETED_ENTRY_INVALID_BY: Rule = rule!(
    DeletedEntryInvalidBy, Error, Doc, Some(deleted_entry_invalid_by),
    groups: [Rfc6721],
    summary: "at:by is not an Atom Person construct",
    spec: "RFC 6721 §3; RFC 4287 §3.2",
);

fn deleted_entry_invalid_by(cx: &mut Checker) {
    for tombstone in cx.feed.everywhere.tombstones.iter() {
        for by in children(tombstone, AT_NS, "by") {
            let mut names = children(by, ATOM_NS, "name");
            if names.next().is_none() {
                cx.report(
                    Checker::at(start_tag(by), "at:by has no atom:name")
                        .label("no name")
                        .note("RFC 4287 §3.2: a Person construct MUST contain exactly one atom:name element; at:by is a Person construct (RFC 6721 §3)")
                        .help("add <name>...</name> in the Atom namespace"),
                );
            }
            for (name, qualified) in [("name", "atom:name"), ("uri", "atom:uri"), ("email", "atom:email")] {
                for extra in children(by, ATOM_NS, name).skip(1) {
                    cx.report(
                        Checker::at(start_tag(extra), format!("a second {qualified} in at:by"))
                            .label("one too many")
                            .secondary(start_tag(by), "this person")
                            .note(format!(
                                "RFC 4287 §3.2: a Person construct has {} {qualified}",
                                if name == "name" { "exactly one" } else { "at most one" }
                            ))
                            .help(format!("keep one {qualified}")),
                    );
                }
            }
        }
    }
}

pub static DELETED_ENTRY_INVALID_COMMENT: Rule = rule!(
    DeletedEntryInvalidComment, Error, Doc, Some(deleted_entry_invalid_comment),
    groups: [Rfc6721],
    summary: "at:comment is not an Atom Text construct",
    spec: "RFC 6721 §3; RFC 4287 §3.1",
);

fn deleted_entry_invalid_comment(cx: &mut Checker) {
    for tombstone in cx.feed.everywhere.tombstones.iter() {
        for comment in children(tombstone, AT_NS, "comment") {
            let kind = comment.attribute("type").unwrap_or("text");
            let elements: Vec<Node> = comment.children().filter(Node::is_element).collect();
            let finding = match kind {
                "text" | "html" => elements.first().map(|child| {
                    Checker::at(start_tag(*child), format!("markup inside a type=\"{kind}\" at:comment"))
                        .label("an element")
                        .note("RFC 4287 §3.1.1: text and html content MUST NOT contain child elements; html is escaped markup")
                        .help("escape the markup (&lt;p&gt;...) with type=\"html\", or use type=\"xhtml\" with one xhtml:div")
                }),
                "xhtml" => {
                    let one_div = elements.len() == 1 && is(elements[0], XHTML_NS, "div");
                    (!one_div).then(|| {
                        Checker::at(start_tag(comment), "a type=\"xhtml\" at:comment must hold exactly one xhtml:div")
                            .label("not a single xhtml:div")
                            .note("RFC 4287 §3.1.1.3: the content of xhtml Text constructs MUST be a single XHTML div element")
                            .help("wrap the content in <div xmlns=\"http://www.w3.org/1999/xhtml\">...</div>")
                    })
                }
                other => Some(
                    Checker::at(attribute_value_range(comment, "type").unwrap_or_else(|| start_tag(comment)), format!("type=\"{other}\" is not a Text construct type"))
                        .label("not text, html or xhtml")
                        .note("RFC 4287 §3.1.1: the type attribute of a Text construct is \"text\", \"html\" or \"xhtml\"")
                        .help("use type=\"text\", \"html\" or \"xhtml\""),
                ),
            };
            if let Some(finding) = finding {
                cx.report(finding);
            }
        }
    }
}

pub static DELETED_ENTRY_MISPLACED: Rule = rule!(
    DeletedEntryMisplaced, Error, Doc, Some(deleted_entry_misplaced),
    groups: [Rfc6721],
    summary: "an at:deleted-entry that is neither a child of atom:feed nor the root of a Deleted Entry Document",
    spec: "RFC 6721 §3, §4",
);

fn deleted_entry_misplaced(cx: &mut Checker) {
    let feed = cx.feed;
    for tombstone in feed.everywhere.tombstones.iter().filter(|t| !is_placed(feed, *t)) {
        let Some(parent) = tombstone.parent_element() else {
            continue;
        };
        cx.report(
            Checker::at(start_tag(tombstone), format!("at:deleted-entry inside <{}>: consumers look for tombstones only as children of atom:feed", parent.tag_name().name()))
                .label("misplaced")
                .secondary(start_tag(parent), "its parent")
                .note("RFC 6721 §3 adds at:deleted-entry to atom:feed; §4 lets it stand alone as the root of a Deleted Entry Document")
                .help("move it to be a direct child of <feed>, or publish it as a Deleted Entry Document"),
        );
    }
}

pub static DELETED_ENTRY_MISSING_SOURCE: Rule = rule!(
    DeletedEntryMissingSource, Warning, Doc, Some(deleted_entry_missing_source),
    groups: [Rfc6721],
    summary: "a Deleted Entry Document, or a signed deleted entry, has no atom:source",
    spec: "RFC 6721 §3, §5",
);

fn deleted_entry_missing_source(cx: &mut Checker) {
    for tombstone in cx.feed.everywhere.tombstones.iter() {
        if children(tombstone, ATOM_NS, "source").next().is_some() {
            continue;
        }
        let signature = children(tombstone, DS_NS, "Signature").next();
        let finding = if tombstone.parent_element().is_none() {
            Checker::at(start_tag(tombstone), "this Deleted Entry Document has no atom:source naming the feed it comes from")
                .label("no atom:source")
                .note("RFC 6721 §3: an at:deleted-entry that has a source feed and is used in a Deleted Entry Document MUST contain an atom:source element")
        } else if let Some(signature) = signature {
            Checker::at(start_tag(tombstone), "this signed deleted entry has no atom:source")
                .label("no atom:source")
                .secondary(start_tag(signature), "the signature")
                .note("RFC 6721 §5: an aggregator adding atom:source later breaks the signature; publishers should strongly consider adding it before signing")
        } else {
            continue;
        };
        cx.report(finding.help("add <atom:source> with the source feed's atom:id and self link"));
    }
}

pub static DELETED_ENTRY_MAC_SIGNATURE: Rule = rule!(
    DeletedEntryMacSignature, Warning, Doc, Some(deleted_entry_mac_signature),
    groups: [Rfc6721],
    summary: "a deleted entry is signed with an HMAC instead of a public-key signature",
    spec: "RFC 6721 §5",
);

fn deleted_entry_mac_signature(cx: &mut Checker) {
    for tombstone in cx.feed.everywhere.tombstones.iter() {
        for signature in children(tombstone, DS_NS, "Signature") {
            let methods = signature.descendants().filter(|n| is(*n, DS_NS, "SignatureMethod"));
            for method in methods {
                let Some(algorithm) = method.attribute("Algorithm") else {
                    continue;
                };
                if !algorithm.to_ascii_lowercase().contains("hmac") {
                    continue;
                }
                cx.report(
                    Checker::at(attribute_value_range(method, "Algorithm").unwrap_or_else(|| start_tag(method)), "this deleted entry is signed with a message authentication code (HMAC)")
                        .label("a MAC, not a signature")
                        .note("RFC 6721 §5: due to security issues that can arise if the keying material for the MAC is not handled properly, Atom Documents SHOULD NOT use MACs for signatures")
                        .help("sign with RSA (e.g. http://www.w3.org/2001/04/xmldsig-more#rsa-sha256)"),
                );
            }
        }
    }
}

/// The ids that entries and placed tombstones may share: those of the
/// shorter of the two lists. The maps that pair entries with tombstones
/// keep only these, so they grow with the shorter list (a feed of a
/// million tombstones and no entries keeps nothing).
fn pairable_ids<'a>(feed: &FeedDoc<'a, '_>) -> FastSet<&'a str> {
    let entry_ids = || feed.entries.iter().filter_map(|entry| Some(entry.id()?.value));
    let refs = || placed(feed).filter_map(|tombstone| tombstone.attribute("ref"));
    if feed.entries.iter().filter(|entry| entry.has_id()).count() <= refs().count() {
        entry_ids().collect()
    } else {
        refs().collect()
    }
}

/// For each `ref` of a placed tombstone with a valid `when` that is one of
/// `ids`, the tombstone with the latest `when` (the first of equals, in
/// document order).
fn latest_tombstones<'a, 'i>(feed: &FeedDoc<'a, 'i>, ids: &FastSet<&str>) -> FastMap<&'a str, (Instant, Node<'a, 'i>)> {
    let mut latest: FastMap<&str, (Instant, Node)> = FastMap::default();
    for tombstone in placed(feed) {
        let Some(reference) = tombstone.attribute("ref").filter(|r| ids.contains(r)) else {
            continue;
        };
        let Some(when) = when_of(tombstone) else {
            continue;
        };
        let slot = latest.entry(reference).or_insert((when.clone(), tombstone));
        if when > slot.0 {
            *slot = (when, tombstone);
        }
    }
    latest
}

/// For each entry id with a valid update time that is one of `ids`, the
/// entry updated last (the first of equals, in document order).
fn latest_entries<'d, 'a, 'i>(
    feed: &'d FeedDoc<'a, 'i>,
    ids: &FastSet<&str>,
) -> FastMap<&'a str, (&'d Instant, &'d Entry<'a, 'i>)> {
    let mut latest: FastMap<&str, (&Instant, &Entry)> = FastMap::default();
    for entry in &feed.entries {
        let (Some(id), Some(updated)) = (entry.id(), &entry.updated_at) else {
            continue;
        };
        if !ids.contains(id.value) {
            continue;
        }
        let slot = latest.entry(id.value).or_insert((updated, entry));
        if *updated > *slot.0 {
            *slot = (updated, entry);
        }
    }
    latest
}

pub static DELETED_ENTRY_STILL_PRESENT: Rule = rule!(
    DeletedEntryStillPresent, Info, Doc, Some(deleted_entry_still_present),
    groups: [Rfc6721],
    summary: "an entry is still published although a later tombstone deletes it",
    spec: "RFC 6721 §3",
);

/// Once per entry, against the latest tombstone of its id: an entry that
/// many tombstones delete is still one entry to remove.
fn deleted_entry_still_present(cx: &mut Checker) {
    if placed(cx.feed).next().is_none() {
        return;
    }
    let latest = latest_tombstones(cx.feed, &pairable_ids(cx.feed));
    for entry in &cx.feed.entries {
        let (Some(updated_at), Some(id)) = (&entry.updated_at, entry.id()) else {
            continue;
        };
        let Some((when, tombstone)) = latest.get(id.value) else {
            continue;
        };
        let tombstone = *tombstone;
        if updated_at > when {
            continue;
        }
        let updated = entry.updated().expect("an update time was parsed");
        cx.report(
            Checker::at(id.range.clone(), "this entry is deleted by a tombstone in the same feed, but is still published")
                .label("deleted entry")
                .secondary(updated.range.clone(), "updated no later than the deletion")
                .secondary(attribute_value_range(tombstone, "when").unwrap_or_else(|| start_tag(tombstone)), "deleted here")
                .note("RFC 6721 §3: when the deletion is equal to or more recent than atom:updated, the entry was published and then removed; processors SHOULD ignore the older atom:entry")
                .help("remove the entry from the feed"),
        );
    }
}

pub static DELETED_ENTRY_SUPERSEDED: Rule = rule!(
    DeletedEntrySuperseded, Info, Doc, Some(deleted_entry_superseded),
    groups: [Rfc6721],
    summary: "a tombstone is older than a republished entry with the same id",
    spec: "RFC 6721 §3",
);

/// Once per tombstone, against the entry of its `ref` updated last.
fn deleted_entry_superseded(cx: &mut Checker) {
    if placed(cx.feed).next().is_none() {
        return;
    }
    let latest = latest_entries(cx.feed, &pairable_ids(cx.feed));
    for tombstone in placed(cx.feed) {
        let (Some(reference), Some(when)) = (tombstone.attribute("ref"), when_of(tombstone)) else {
            continue;
        };
        let Some(&(updated_at, entry)) = latest.get(reference) else {
            continue;
        };
        if *updated_at <= when {
            continue;
        }
        let updated = entry.updated().expect("an update time was parsed");
        cx.report(
            Checker::at(attribute_value_range(tombstone, "when").unwrap_or_else(|| start_tag(tombstone)), "this tombstone is stale: the entry was republished after it was deleted")
                .label("deleted here")
                .secondary(updated.range.clone(), "republished later")
                .note("RFC 6721 §3: when the deletion is older than atom:updated, the entry was republished; processors SHOULD ignore the older at:deleted-entry")
                .help("remove the stale tombstone"),
        );
    }
}

pub static DELETED_ENTRY_AFTER_FEED_UPDATE: Rule = rule!(
    DeletedEntryAfterFeedUpdate, Warning, Doc, Some(deleted_entry_after_feed_update),
    groups: [Rfc6721],
    summary: "a deletion is dated after the feed's own atom:updated",
    spec: "RFC 4287 §4.2.15; RFC 6721 §3",
);

fn deleted_entry_after_feed_update(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(head) = feed.head.filter(|_| feed.kind == DocKind::Atom) else {
        return;
    };
    let Some(updated) = child_text(head, Some(ATOM_NS), "updated") else {
        return;
    };
    let Ok(feed_updated) = date::parse_rfc3339(updated.value) else {
        return;
    };
    for tombstone in placed(feed) {
        let Some(when) = when_of(tombstone) else { continue };
        if when <= feed_updated {
            continue;
        }
        cx.report(
            Checker::at(attribute_value_range(tombstone, "when").unwrap_or_else(|| start_tag(tombstone)), "this deletion is dated after the feed's last update")
                .label("later than the feed's atom:updated")
                .secondary(updated.range.clone(), "the feed's atom:updated")
                .note("RFC 4287 §4.2.15: atom:updated is the most recent instant the feed changed; removing an entry is a change")
                .help("update the feed's atom:updated when you record a deletion, or correct the when value"),
        );
    }
}

pub static DELETED_ENTRY_UNKNOWN_REF: Rule = rule!(
    DeletedEntryUnknownRef, Info, Set, None, set: Some(deleted_entry_unknown_ref),
    groups: [Rfc6721],
    summary: "in a complete archive chain, a tombstone names an entry that none of its documents holds",
    spec: "RFC 6721 §7",
);

fn deleted_entry_unknown_ref(cx: &mut SetChecker) {
    let set = cx.set;
    // Only a chain whose walk reached the oldest archive holds every entry.
    let complete: Vec<&Chain> = set
        .chains
        .iter()
        .filter(|c| c.complete && !c.archives.is_empty())
        .collect();
    cx.for_each_part(&complete, |cx, chain| {
        let documents: Vec<DocId> = std::iter::once(chain.subscription)
            .chain(chain.archives.iter().copied())
            .collect();
        let ids: FastSet<&str> = documents
            .iter()
            .flat_map(|d| {
                let summary = set.summary(*d);
                summary.entries.iter().map(|e| summary.id(e))
            })
            .collect();
        for doc in &documents {
            for (reference, at) in set.summary(*doc).tombstone_refs().filter(|(r, _)| !ids.contains(r)) {
                cx.report(
                    SetChecker::at(*doc, at, format!("no document of this complete archive chain has an entry \"{}\"", shorten(reference)))
                        .label("deletes an unknown entry")
                        .note("RFC 6721 §7: processors are advised to ignore deletions of entries they do not know; this one deletes nothing")
                        .help("check the ref against the deleted entry's atom:id"),
                );
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use crate::feed::{DocKind, FeedDoc};

    #[test]
    fn misplaced_tombstones_are_not_paired() {
        let text = r#"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:at="http://purl.org/atompub/tombstones/1.0">
            <at:deleted-entry ref="urn:x:1" when="2005-11-29T12:11:12Z"/>
            <entry><at:deleted-entry ref="urn:x:1" when="2005-11-29T12:11:12Z"/></entry></feed>"#;
        let xml = crate::xml::parse(text).unwrap();
        let feed = FeedDoc::new(&xml, DocKind::Atom, None);
        assert_eq!(super::placed(&feed).count(), 1);
        assert!(super::same_ref_pairs(&feed).is_empty());
    }
}
