//! `fh:complete` and `fh:archive` (RFC 5005 §2, §4) and what they may be
//! combined with.

use crate::findings::diagnostic::shorten;
use crate::xml::Node;

use crate::feed::{self, start_tag, FeedDoc, Relation, ATOM_NS, AT_NS, FH_NS, PAGING_RELATIONS};
use crate::findings::fix::{self, Fix};
use crate::rules::{correct_namespace, remove, rule, Checker, Declarations, Rule};

fn is_marker(node: Node<'_, '_>) -> bool {
    feed::is(node, FH_NS, "complete") || feed::is(node, FH_NS, "archive")
}

/// The feed-history elements that are the document's own: those inside an
/// `atom:source` belong to the source feed, whose metadata it preserves
/// (RFC 4287 §4.2.11), so an entry copied from an archive may keep its
/// `fh:archive`.
fn own_history_elements<'f, 'a, 'input>(feed: &'f FeedDoc<'a, 'input>) -> impl Iterator<Item = Node<'a, 'input>> + 'f {
    let everywhere = &feed.everywhere;
    everywhere
        .fh_elements
        .iter()
        .filter(|node| !everywhere.in_atom_source(*node))
}

fn qualified(node: Node<'_, '_>) -> String {
    format!("fh:{}", node.tag_name().name())
}

pub static FH_MARKER_MISPLACED: Rule = rule!(
    FhMarkerMisplaced, Error, Doc, Some(fh_marker_misplaced),
    groups: [Rfc5005],
    summary: "fh:complete or fh:archive outside the head section, where consumers never look",
    spec: "RFC 5005 §2, §4",
);

fn fh_marker_misplaced(cx: &mut Checker) {
    let feed = cx.feed;
    for node in own_history_elements(feed).filter(|n| is_marker(*n)) {
        if feed.in_head(node) {
            continue;
        }
        let place = match node.parent_element() {
            None => "as the document's root element".to_owned(),
            Some(parent) => format!("inside <{}>", parent.tag_name().name()),
        };
        let mut finding = Checker::at(
            start_tag(node),
            format!("{} {place}: it only has meaning in the head section", qualified(node)),
        )
        .label("misplaced marker");
        if let Some(parent) = node.parent_element() {
            finding = finding.secondary(start_tag(parent), "its parent");
        }
        let head = match feed.kind {
            feed::DocKind::Rss => "the <channel> element",
            _ => "the <feed> element",
        };
        cx.report(finding.help(format!("move it to be a direct child of {head}")));
    }
}

pub static FH_MARKER_NOT_EMPTY: Rule = rule!(
    FhMarkerNotEmpty, Warning, Doc, Some(fh_marker_not_empty),
    groups: [Rfc5005],
    summary: "fh:complete or fh:archive has content, but it is an empty element",
    spec: "RFC 5005 §2, §4",
);

fn fh_marker_not_empty(cx: &mut Checker) {
    for node in own_history_elements(cx.feed).filter(|n| is_marker(*n)) {
        let has_content = node
            .children()
            .any(|child| child.is_element() || (child.is_text() && child.text().is_some_and(|t| !t.trim().is_empty())));
        if has_content {
            let name = qualified(node);
            cx.report(
                Checker::at(
                    start_tag(node),
                    format!("{name} has content, but it is an empty element"),
                )
                .label("this marker")
                .note("RFC 5005 defines no content for it; consumers ignore whatever is inside")
                .help(format!("write <{name}/>"))
                .fix(empty_marker(cx.feed, node)),
            );
        }
    }
}

/// The fix that empties a marker: its start tag as written, closed at once
/// (its attributes, namespace declarations included, kept).
fn empty_marker(feed: &FeedDoc, node: Node) -> Fix {
    let text = feed.xml.input_text();
    let tag = text.get(start_tag(node)).unwrap_or_default();
    let open = tag.trim_end_matches('>').trim_end_matches('/').trim_end();
    Fix::safe(
        "Empty the marker",
        vec![fix::replace(node.range(), format!("{open}/>"))],
    )
}

pub static FH_MARKER_DUPLICATE: Rule = rule!(
    FhMarkerDuplicate, Warning, Doc, Some(fh_marker_duplicate),
    groups: [Rfc5005],
    summary: "the same feed-history marker appears twice in one head section",
    spec: "RFC 5005 §2, §4",
);

fn fh_marker_duplicate(cx: &mut Checker) {
    let feed = cx.feed;
    for markers in [&feed.complete, &feed.archive] {
        if let Some((first, rest)) = markers.split_first() {
            for duplicate in rest {
                let name = qualified(*duplicate);
                cx.report(
                    Checker::at(
                        start_tag(*duplicate),
                        format!("{name} appears more than once in the head section"),
                    )
                    .label("duplicate")
                    .secondary(start_tag(*first), "first one here")
                    .help("remove the duplicate")
                    .fix(Fix::safe("Remove the duplicate marker", vec![remove(feed, *duplicate)])),
                );
            }
        }
    }
}

pub static FH_UNKNOWN_ELEMENT: Rule = rule!(
    FhUnknownElement, Warning, Doc, Some(fh_unknown_element),
    groups: [Rfc5005],
    summary: "an element in the feed-history namespace other than fh:complete and fh:archive",
    spec: "RFC 5005 §1.1, §2, §4",
);

fn fh_unknown_element(cx: &mut Checker) {
    for node in own_history_elements(cx.feed) {
        let name = node.tag_name();
        if matches!(name.name(), "complete" | "archive") {
            continue;
        }
        let local = name.name();
        let mut finding = Checker::at(
            start_tag(node),
            format!("fh:{local} is not defined by RFC 5005, which defines only fh:complete and fh:archive"),
        )
        .label("unknown element");
        finding = if local == "incremental" {
            finding
                .note("fh:incremental comes from early feed-history drafts")
                .help("replace <fh:incremental>false</fh:incremental> with <fh:complete/>; for <fh:incremental>true</fh:incremental>, publish archives linked with prev-archive and remove the element")
        } else {
            finding.help("remove it, or use a namespace of your own for extensions")
        };
        cx.report(finding);
    }
}

pub static NAMESPACE_NEAR_MISS: Rule = rule!(
    NamespaceNearMiss, Error, Doc, Some(namespace_near_miss),
    groups: [Rfc5005],
    summary: "a feed-history, tombstone or Atom element in a namespace that is almost, but not exactly, the right one",
    spec: "Namespaces in XML §2.3",
);

/// The namespaces a misspelt one is compared against, with the local names
/// that make a near miss worth reporting.
const KNOWN_NAMESPACES: [(&str, &str, &[&str]); 3] = [
    (FH_NS, "feed-history", &["complete", "archive"]),
    (AT_NS, "tombstones", &["deleted-entry"]),
    (ATOM_NS, "Atom", &["link"]),
];

fn namespace_near_miss(cx: &mut Checker) {
    let feed = cx.feed;
    let mut declarations = Declarations::default();
    for node in feed.everywhere.lookalikes.iter() {
        let name = node.tag_name();
        let Some(namespace) = name.namespace() else {
            continue;
        };
        for (expected, what, names) in KNOWN_NAMESPACES {
            if namespace == expected || !names.contains(&name.name()) {
                continue;
            }
            // A link only matters as a feed-level (head-section) link.
            if name.name() == "link" && !feed.in_head(node) {
                continue;
            }
            if feed::intended_namespace(namespace) == Some(expected) {
                cx.report(
                    Checker::at(start_tag(node), format!("<{}> is in namespace \"{}\", not the {what} namespace \"{expected}\"", name.name(), shorten(namespace)))
                        .label("consumers will ignore this element")
                        .note("namespace names are compared as exact strings: case, scheme, \"www.\", trailing characters and version all matter")
                        .help(format!("declare the namespace as \"{expected}\""))
                        .fix_if(correct_namespace(feed, &mut declarations, node, namespace, expected)),
                );
            }
        }
    }
}

/// The head-section links with any of `relations`, in document order.
fn links_with_any<'d, 'a, 'i>(feed: &'d FeedDoc<'a, 'i>, relations: &[Relation]) -> Vec<&'d feed::Link<'a, 'i>> {
    feed.links
        .iter()
        .filter(|l| l.rel.navigation().is_some_and(|rel| relations.contains(&rel)))
        .collect()
}

pub static MIXED_COMPLETE_ARCHIVE: Rule = rule!(
    MixedCompleteArchive, Error, Doc, Some(mixed_complete_archive),
    groups: [Rfc5005],
    summary: "fh:complete together with archive markers or archive links",
    spec: "RFC 5005 §1, §2",
);

fn mixed_complete_archive(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(complete) = feed.complete.first() else {
        return;
    };
    let mut finding = Checker::at(
        start_tag(*complete),
        "fh:complete says this document is the whole logical feed, but the document also has archive markers or links",
    )
    .label("complete feed");
    let mut conflicts = 0;
    for archive in &feed.archive {
        finding = finding.secondary(start_tag(*archive), "archive marker");
        conflicts += 1;
    }
    for link in &feed.links {
        let conflicting = match link.rel.navigation() {
            Some(Relation::PrevArchive | Relation::NextArchive) => true,
            Some(Relation::Current) => feed.points_elsewhere(link),
            _ => false,
        };
        if conflicting {
            finding = finding.secondary(link.span(), format!("{} link", link.rel));
            conflicts += 1;
        }
    }
    if conflicts > 0 {
        cx.report(
            finding
                .note("RFC 5005 §1: the semantics of a feed that combines these types is undefined")
                .help("remove fh:complete if the feed is archived, or remove the archive markers and links if the document holds every entry"),
        );
    }
}

pub static MIXED_COMPLETE_PAGED: Rule = rule!(
    MixedCompletePaged, Warning, Doc, Some(mixed_complete_paged),
    groups: [Rfc5005],
    summary: "fh:complete together with paging links",
    spec: "RFC 5005 §1, §2",
);

fn mixed_complete_paged(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(complete) = feed.complete.first() else {
        return;
    };
    let paging = links_with_any(feed, &PAGING_RELATIONS);
    if paging.is_empty() {
        return;
    }
    let mut finding = Checker::at(
        start_tag(*complete),
        "fh:complete says this document is the whole logical feed, but it also has paging links",
    )
    .label("complete feed");
    for link in paging {
        finding = finding.secondary(link.span(), format!("{} link", link.rel));
    }
    cx.report(
        finding
            .note("RFC 5005 §1: the semantics of a feed that combines these types is undefined")
            .help("remove fh:complete, or remove the paging links"),
    );
}

pub static MIXED_PAGED_ARCHIVED: Rule = rule!(
    MixedPagedArchived, Warning, Doc, Some(mixed_paged_archived),
    groups: [Rfc5005],
    summary: "paging links together with archive markers or archive links",
    spec: "RFC 5005 §1",
);

fn mixed_paged_archived(cx: &mut Checker) {
    let feed = cx.feed;
    // A lone feed-history-draft `previous` is reported by legacy-previous-archive.
    let relations: &[Relation] = if crate::rules::rfc5005::archive::is_legacy_previous(feed) {
        &[Relation::First, Relation::Last, Relation::Next]
    } else {
        &PAGING_RELATIONS
    };
    let paging = links_with_any(feed, relations);
    let Some(first_paging) = paging.first() else {
        return;
    };
    let archive_links = links_with_any(feed, &[Relation::PrevArchive, Relation::NextArchive]);
    if feed.archive.is_empty() && archive_links.is_empty() {
        return;
    }
    let mut finding = Checker::at(
        first_paging.rel_span(),
        format!(
            "a {} link in a document that is also part of an archived feed",
            first_paging.rel
        ),
    )
    .label("paging link");
    for archive in &feed.archive {
        finding = finding.secondary(start_tag(*archive), "archive marker");
    }
    for link in archive_links {
        finding = finding.secondary(link.rel_span(), format!("{} link", link.rel));
    }
    cx.report(
        finding
            .note("RFC 5005 §1: the semantics of a feed that combines paged and archived types is undefined")
            .help("use prev-archive/next-archive for stable archives, or first/last/previous/next for pages, not both"),
    );
}
