//! Paged feeds (RFC 5005 §3) and the relation names of navigation links.

use super::{rename_relation, rule, Checker, Rule};
use crate::feed::{self, Rel, Relation, ATOM_NS};

pub static PAGING_PREV_ALIAS: Rule = rule!(
    PagingPrevAlias, Warning, Doc, Some(paging_prev_alias),
    groups: ["rfc5005"],
    summary: "a head-section link uses rel=\"prev\"; RFC 5005 defines \"previous\"",
    spec: "RFC 5005 §3",
);

fn paging_prev_alias(cx: &mut Checker) {
    let feed = cx.feed;
    for link in feed
        .links
        .iter()
        .filter(|l| matches!(&l.rel, Rel::Other(rel) if rel == "prev"))
    {
        cx.report(
            Checker::at(link.rel_span(), "rel=\"prev\" is not the RFC 5005 paging relation")
                .label("use \"previous\"")
                .note("RFC 5005 §3 names the immediately preceding page \"previous\"; consumers of paged feeds look for that name")
                .help("rename the relation to rel=\"previous\"")
                .fix_if(rename_relation(link, "previous")),
        );
    }
}

pub static LINK_RELATION_TYPO: Rule = rule!(
    LinkRelationTypo, Warning, Doc, Some(link_relation_typo),
    groups: ["rfc5005"],
    summary: "a rel value that is a near miss of an RFC 5005 relation",
    spec: "RFC 5005 §3, §4",
);

/// Relations in the IANA Link Relations registry (and HTML's) that are a
/// small edit away from an RFC 5005 name but mean something else.
const REGISTERED_RELATIONS: &[&str] = &[
    "about",
    "acl",
    "alternate",
    "amphtml",
    "appendix",
    "apple-touch-icon",
    "archives",
    "author",
    "blocked-by",
    "bookmark",
    "canonical",
    "chapter",
    "cite-as",
    "collection",
    "contents",
    "convertedfrom",
    "copyright",
    "create-form",
    "current",
    "describedby",
    "describes",
    "disclosure",
    "dns-prefetch",
    "duplicate",
    "edit",
    "edit-form",
    "edit-media",
    "enclosure",
    "external",
    "first",
    "glossary",
    "help",
    "hosts",
    "hub",
    "icon",
    "index",
    "intervalafter",
    "intervalbefore",
    "intervalcontains",
    "intervaldisjoint",
    "intervalduring",
    "intervalequals",
    "intervalfinishedby",
    "intervalfinishes",
    "intervalin",
    "intervalmeets",
    "intervalmetby",
    "intervaloverlappedby",
    "intervaloverlaps",
    "intervalstartedby",
    "intervalstarts",
    "item",
    "last",
    "latest-version",
    "license",
    "linkset",
    "lrdd",
    "manifest",
    "mask-icon",
    "me",
    "media-feed",
    "memento",
    "micropub",
    "modulepreload",
    "monitor",
    "monitor-group",
    "next",
    "next-archive",
    "nofollow",
    "noopener",
    "noreferrer",
    "opener",
    "openid2.local_id",
    "openid2.provider",
    "original",
    "p3pv1",
    "payment",
    "pingback",
    "preconnect",
    "predecessor-version",
    "prefetch",
    "preload",
    "prerender",
    "prev",
    "prev-archive",
    "preview",
    "previous",
    "privacy-policy",
    "profile",
    "publication",
    "related",
    "replies",
    "restconf",
    "search",
    "section",
    "self",
    "service",
    "service-desc",
    "service-doc",
    "service-meta",
    "sponsored",
    "start",
    "status",
    "stylesheet",
    "subsection",
    "successor-version",
    "sunset",
    "tag",
    "terms-of-service",
    "timegate",
    "timemap",
    "type",
    "ugc",
    "up",
    "version-history",
    "via",
    "webmention",
    "working-copy",
    "working-copy-of",
];

/// The RFC 5005 relation that `rel` (already lower-cased) was meant to be.
fn intended_relation(rel: &str) -> Option<&'static str> {
    if REGISTERED_RELATIONS.contains(&rel) || rel.contains(':') {
        return None;
    }
    let words: Vec<&str> = rel.split(['-', '_', ' ', '.']).filter(|w| !w.is_empty()).collect();
    let has = |names: &[&str]| words.iter().any(|w| names.contains(w));
    let joined: String = words.concat();
    if words.len() == 2 && has(&["archive", "archives"]) {
        if has(&["prev", "previous", "preceding"]) {
            return Some("prev-archive");
        }
        if has(&["next", "following"]) {
            return Some("next-archive");
        }
    }
    match joined.as_str() {
        "prevarchive" | "previousarchive" | "archiveprev" | "archiveprevious" => return Some("prev-archive"),
        "nextarchive" | "archivenext" => return Some("next-archive"),
        _ => {}
    }
    Relation::ALL
        .into_iter()
        .map(Relation::as_str)
        // On four-letter names a substitution is another word ("text", "lost").
        .find(|target| joined.len() >= 4 && joined != *target && one_edit_apart(&joined, target, target.len() > 4))
}

/// Damerau-Levenshtein distance 1: one insertion, deletion, transposition of
/// neighbours, or (when allowed) substitution.
fn one_edit_apart(a: &str, b: &str, substitution: bool) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    match (a.len(), b.len()) {
        (0, 0) => true,
        (la, lb) if la == lb => {
            (substitution && a[1..] == b[1..]) || (la >= 2 && a[0] == b[1] && a[1] == b[0] && a[2..] == b[2..])
        }
        (la, lb) if la + 1 == lb => a == &b[1..],
        (la, lb) if la == lb + 1 => &a[1..] == b,
        _ => false,
    }
}

fn link_relation_typo(cx: &mut Checker) {
    let feed = cx.feed;
    for link in &feed.links {
        let Some(intended) = intended_relation(link.rel.as_str()) else {
            continue;
        };
        let written = link.node.attribute("rel").unwrap_or_default();
        cx.report(
            Checker::at(
                link.rel_span(),
                format!("rel=\"{written}\" is not a registered relation; did you mean \"{intended}\"?"),
            )
            .label(format!("probably \"{intended}\""))
            .note("consumers ignore relations they do not know, so this link is never followed")
            .help(format!("write rel=\"{intended}\""))
            .fix_if(rename_relation(link, intended)),
        );
    }
}

pub static NAVIGATION_LINK_IN_ENTRY: Rule = rule!(
    NavigationLinkInEntry, Warning, Doc, Some(navigation_link_in_entry),
    groups: ["rfc5005"],
    summary: "an RFC 5005 navigation relation on a link inside an entry, where it means nothing",
    spec: "RFC 5005 §3, §4",
);

fn navigation_link_in_entry(cx: &mut Checker) {
    let feed = cx.feed;
    for link in feed.everywhere.links() {
        // The relation first: most links have none of these.
        let Some(rel) = feed::navigation_relation(link.rel.map(|r| r.value())) else {
            continue;
        };
        let node = link.node;
        let Some(container) = node.parent_element() else {
            continue;
        };
        let name = container.tag_name();
        let in_entry = (name.namespace() == Some(ATOM_NS) && name.name() == "entry")
            || (name.namespace().is_none() && name.name() == "item");
        // Links inside atom:source are the source feed's own (RFC 4287
        // §4.2.11): an entry copied from an archive keeps them.
        if !in_entry || feed.everywhere.in_atom_source(node) {
            continue;
        }
        let link = feed.link(node);
        cx.report(
            Checker::at(
                link.rel_span(),
                format!(
                    "a {rel} link inside <{}> is ignored: RFC 5005 reads navigation links only from the head section",
                    name.name()
                ),
            )
            .label("navigation relation in an entry")
            .secondary(feed::start_tag(container), "the entry")
            .help(format!("move the {rel} link to the head section, or remove it")),
        );
    }
}

pub static PAGING_LINK_PAST_END: Rule = rule!(
    PagingLinkPastEnd, Error, Doc, Some(paging_link_past_end),
    groups: ["rfc5005"],
    summary: "the first page links to a previous page, or the last page to a next one",
    spec: "RFC 5005 §3",
);

fn paging_link_past_end(cx: &mut Checker) {
    let feed = cx.feed;
    for (end, beyond, side) in [
        (Relation::First, Relation::Previous, "preceding"),
        (Relation::Last, Relation::Next, "following"),
    ] {
        let Some(end_link) = feed.links_with(end).find(|l| feed.is_self_target(l)) else {
            continue;
        };
        for link in feed.links_with(beyond) {
            cx.report(
                Checker::at(
                    link.rel_span(),
                    format!("this document is its own {end} page, yet it has a {beyond} link"),
                )
                .label(format!("a page {side} the {end} one"))
                .secondary(end_link.span(), format!("{end} points at this document"))
                .note(format!(
                    "RFC 5005 §3: \"{end}\" refers to the furthest {side} document in the series"
                ))
                .help(format!(
                    "remove the {beyond} link, or point {end} at the real {end} page"
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::intended_relation;

    #[test]
    fn typos_map_to_the_intended_relation() {
        for (typo, intended) in [
            ("prev_archive", "prev-archive"),
            ("prevarchive", "prev-archive"),
            ("previous-archive", "prev-archive"),
            ("archive-prev", "prev-archive"),
            ("next_archive", "next-archive"),
            ("nextarchive", "next-archive"),
            ("frist", "first"),
            ("curent", "current"),
            ("previos", "previous"),
            ("nxet", "next"),
        ] {
            assert_eq!(intended_relation(typo), Some(intended), "{typo}");
        }
    }

    #[test]
    fn registered_and_unrelated_relations_are_left_alone() {
        for rel in [
            "alternate",
            "self",
            "related",
            "enclosure",
            "hub",
            "edit",
            "via",
            "license",
            "replies",
            "payment",
            "prev",
            "next",
            "archives",
            "text",
            "lost",
            "http://example.org/rel/nxt",
        ] {
            assert_eq!(intended_relation(rel), None, "{rel}");
        }
    }
}
