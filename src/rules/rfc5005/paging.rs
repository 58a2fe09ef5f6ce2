//! Paged feeds (RFC 5005 §3) and the relation names of navigation links.

use crate::feed::{self, intended_relation, Rel, Relation, ATOM_NS};
use crate::rules::{rename_relation, rule, Checker, Rule};

pub static PAGING_PREV_ALIAS: Rule = rule!(
    PagingPrevAlias, Info, Doc, Some(paging_prev_alias),
    groups: [Rfc5005],
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
                .note("the registry has both names, but RFC 5005 §3 names the immediately preceding page \"previous\", and readers built on RFC 5005 look for that name")
                .help("rename the relation to rel=\"previous\"")
                .fix_if(rename_relation(link, "previous")),
        );
    }
}

pub static LINK_RELATION_TYPO: Rule = rule!(
    LinkRelationTypo, Warning, Doc, Some(link_relation_typo),
    groups: [Rfc5005],
    summary: "a rel value that is a near miss of an RFC 5005 relation",
    spec: "RFC 5005 §3, §4",
);

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
    groups: [Rfc5005],
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
    groups: [Rfc5005],
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
        for link in feed.links.iter().filter(|l| l.rel.followed_as() == Some(beyond)) {
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
