//! Feed discovery (group `discovery`): the feeds a site's web pages
//! advertise with `<link rel="alternate" type="...">`, the link every
//! browser extension and reader's "add a site" follows. The pages are
//! those a walk meets in a published tree (see [`crate::model::page`]);
//! each advertisement is resolved against its page's URL (or its
//! `<base href>`) and judged against the feeds of the run and the files
//! of the tree. One cause, one finding: a layout writes the same `<link>`
//! on every page, so the pages that share one `href` are one finding, at
//! the shallowest of them (the home page first), that counts the others.

use url::Url;

use crate::base::hash::FastMap;
use crate::feed::DocKind;
use crate::findings::diagnostic::{shorten, DocId, Pending, Span};
use crate::model::document::Document;
use crate::model::page::Advertisement;
use crate::model::set::FeedSet;
use crate::rules::checker::SetChecker;
use crate::rules::{rule, Rule};
use crate::text::iri;

pub static DISCOVERY_LINK_DANGLING: Rule = rule!(
    DiscoveryLinkDangling, Error, Set, None, set: Some(dangling_links),
    groups: [Discovery],
    summary: "a page's <link rel=\"alternate\"> names a feed of the linted site that is not there",
    spec: "RSS Autodiscovery §3.1; HTML Living Standard §4.6.7.1",
);

pub static DISCOVERY_RELATIVE_LINK: Rule = rule!(
    DiscoveryRelativeLink, Error, Set, None, set: Some(relative_links),
    groups: [Discovery],
    summary: "a page's <link rel=\"alternate\"> is a relative path that names the feed from some folders of the site and nothing from others",
    spec: "RSS Autodiscovery §3.1; RFC 3986 §5.2",
);

pub static DISCOVERY_TYPE_MISMATCH: Rule = rule!(
    DiscoveryTypeMismatch, Error, Set, None, set: Some(type_mismatches),
    groups: [Discovery],
    summary: "a page's <link rel=\"alternate\"> names a feed by another format's media type (an Atom feed as application/rss+xml)",
    spec: "RSS Autodiscovery §3.3; JSON Feed 1.1, Discovery",
);

pub static DISCOVERY_MISSING: Rule = rule!(
    DiscoveryMissing, Info, Set, None, set: Some(unadvertised_sites),
    groups: [Discovery],
    summary: "the page a feed names as its home (its site's home page) advertises no feed at all",
    spec: "RSS Autodiscovery §3; JSON Feed 1.1, Discovery",
);

/// Where an advertisement leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leads {
    /// To a feed of the run.
    Feed(DocId),
    /// To a URL of a published tree where no file is.
    Nowhere,
    /// Somewhere the run cannot judge: another site, a file that is no
    /// feed of the run, a page whose URL is not known.
    Unknown,
}

/// One advertisement of one page, with where it leads: small, as a site
/// may have tens of thousands of pages (the URL it resolves to is worked
/// out again for the few that are reported).
struct Judged<'r> {
    page: DocId,
    link: &'r Advertisement,
    leads: Leads,
    /// Written as a relative path (`feed.xml`, `../feed.xml`) on a page
    /// without a `<base>`: what it names depends on the page's folder.
    page_relative: bool,
}

/// Every advertisement of every page the set holds, in document order;
/// with `on_disk`, a link that names no feed is looked for in the tree
/// (`Leads::Nowhere`), else it is only `Leads::Unknown` (the rules that
/// read only the feeds a link names stat no file).
fn judged<'r>(set: &FeedSet<'r>, on_disk: bool) -> Vec<Judged<'r>> {
    let mut found = Vec::new();
    for (page, document) in set.documents().iter().enumerate() {
        let (Some(head), false) = (document.page.as_deref(), document.context) else {
            continue;
        };
        for link in &head.advertised {
            let leads = match target_of(document, link).map(|target| leads_to(set, &target, on_disk)) {
                // Plain JSON names APIs' documents too (WordPress's REST
                // routes): only a JSON Feed there makes it a feed's link.
                Some(Leads::Feed(feed)) => Leads::Feed(feed),
                Some(Leads::Nowhere) if link.media_type.value != "application/json" => Leads::Nowhere,
                _ => Leads::Unknown,
            };
            found.push(Judged {
                page,
                link,
                leads,
                page_relative: head.base.is_none() && is_path(&link.href.value),
            });
        }
    }
    found
}

/// The URL an advertisement of a page resolves to: against the page's
/// `<base href>`, else its URL; `None` where the page's URL is not known,
/// or the link is a template's placeholder (the page is a source, not
/// what is published).
fn target_of(page: &Document, link: &Advertisement) -> Option<Url> {
    let href = link.href.value.as_str();
    if href.contains("{{") || href.contains("{%") {
        return None;
    }
    let url = page.url.as_ref()?;
    let base = match page.page.as_deref().and_then(|head| head.base.as_deref()) {
        Some(base) => url.join(base).ok()?,
        None => url.clone(),
    };
    let mut target = base.join(href).ok()?;
    target.set_fragment(None);
    Some(iri::comparable(target))
}

/// A relative path: no scheme, not from the root, not protocol-relative.
fn is_path(href: &str) -> bool {
    !href.is_empty() && !href.starts_with('/') && !href.starts_with('#') && !iri::has_scheme(href)
}

fn leads_to(set: &FeedSet, target: &Url, on_disk: bool) -> Leads {
    if !matches!(target.scheme(), "http" | "https" | "file") {
        return Leads::Unknown;
    }
    if let Some(feed) = set.resolve(target) {
        return Leads::Feed(feed);
    }
    match on_disk.then(|| set.site_has(target)).flatten() {
        Some((false, _)) => Leads::Nowhere,
        _ => Leads::Unknown,
    }
}

/// The advertisements grouped by their `href` as written, each group in
/// document order: the pages a layout wrote one `<link>` into.
fn by_href<'a, 'r>(judged: &'a [Judged<'r>]) -> Vec<Vec<&'a Judged<'r>>> {
    let mut index: FastMap<&str, usize> = FastMap::default();
    let mut groups: Vec<Vec<&Judged>> = Vec::new();
    for one in judged {
        let at = *index.entry(one.link.href.value.as_str()).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[at].push(one);
    }
    groups
}

/// "this page", "this page (and 3 others)": the page a finding stands at,
/// and the pages with the same link it stands for.
fn these_pages(others: usize) -> String {
    match others {
        0 => "this page".to_owned(),
        1 => "this page (and 1 other)".to_owned(),
        n => format!("this page (and {n} others)"),
    }
}

/// The pages of a group that `keep` holds, the shallowest first (a home
/// page before the posts that share its layout), then in report order.
fn pages_where<'a, 'r>(group: &[&'a Judged<'r>], set: &FeedSet, keep: impl Fn(&Leads) -> bool) -> Vec<&'a Judged<'r>> {
    let mut kept: Vec<&Judged> = group.iter().copied().filter(|j| keep(&j.leads)).collect();
    kept.sort_by_key(|j| (set.name(j.page).matches('/').count(), j.page));
    kept
}

fn dangling_links(cx: &mut SetChecker) {
    let set = cx.set;
    let judged = judged(set, true);
    for group in by_href(&judged) {
        let broken = pages_where(&group, set, |leads| *leads == Leads::Nowhere);
        let Some(first) = broken.first() else { continue };
        // A relative path that works from some pages is the other rule's.
        if first.page_relative && group.iter().any(|j| matches!(j.leads, Leads::Feed(_))) {
            continue;
        }
        let named = target_of(set.document(first.page), first.link)
            .and_then(|target| set.site_has(&target))
            .map_or_else(String::new, |(_, named)| named);
        let href = &first.link.href;
        cx.report(
            SetChecker::at(
                first.page,
                &href.span,
                format!(
                    "{} advertises a feed at {}, which is not there: no {named}",
                    these_pages(broken.len() - 1),
                    shorten(&href.value),
                ),
            )
            .label("no feed there")
            .note("RSS Autodiscovery §3.1: \"The href attribute must be the feed's URL\"; a reader or browser that follows it finds nothing to subscribe to")
            .help("publish the feed there, or correct the link in the layout that writes it"),
        );
    }
}

/// The finding of a page given as a URL whose advertised feed answers
/// that it is not there (`code`: 404, 410).
pub fn dangling_on_fetch(feed: &Url, code: u16, at: Span) -> Pending<Span> {
    Pending::new(at, format!("this page advertises a feed at {feed}, which answers HTTP {code}"))
        .label("no feed there")
        .note("RSS Autodiscovery §3.1: \"The href attribute must be the feed's URL\"; a reader or browser that follows it finds nothing to subscribe to")
        .help("publish the feed there, or correct the link in the layout that writes it")
}

fn relative_links(cx: &mut SetChecker) {
    let set = cx.set;
    let judged = judged(set, true);
    for group in by_href(&judged) {
        let broken = pages_where(&group, set, |leads| *leads == Leads::Nowhere);
        let working = pages_where(&group, set, |leads| matches!(leads, Leads::Feed(_)));
        let working = working.first();
        let (Some(first), Some(working)) = (broken.first(), working) else {
            continue;
        };
        let Leads::Feed(feed) = working.leads else { continue };
        if !first.page_relative {
            continue;
        }
        let href = &first.link.href;
        let resolved = target_of(set.document(first.page), first.link).map_or_else(String::new, |target| {
            format!(" it resolves to {}", shorten(target.path()))
        });
        let feed_url = set.document(feed).url.as_ref();
        let rooted = feed_url
            .filter(|url| url.scheme() != "file")
            .map(|url| format!("write the feed's full URL, {}, or its path from the site's root, {}, in the layout that writes this <link>", shorten(url.as_str()), shorten(url.path())));
        cx.report(
            SetChecker::at(
                first.page,
                &href.span,
                format!(
                    "{} is relative to each page's folder: from {}{resolved}, where there is no feed",
                    shorten(&href.value),
                    these_pages(broken.len() - 1),
                ),
            )
            .label("relative to this page")
            .secondary(working.link.href.span.in_doc(working.page), "names the feed from this page")
            .note("RFC 3986 §5.2: a relative path resolves against the page's own URL, so a layout that writes it into every page names a different file from each folder; RSS Autodiscovery §3.1: \"The href attribute must be the feed's URL\", and \"publishers should identify feeds with full URLs\"")
            .help(rooted.unwrap_or_else(|| "write the feed's full URL, or its path from the site's root, in the layout that writes this <link>".to_owned())),
        );
    }
}

/// The media type that names a feed of `kind`.
fn media_type_of(kind: DocKind) -> &'static str {
    match kind {
        DocKind::Atom | DocKind::AtomEntry | DocKind::DeletedEntry => "application/atom+xml",
        DocKind::Rss => "application/rss+xml",
        DocKind::JsonFeed => "application/feed+json",
    }
}

fn format_name(kind: DocKind) -> &'static str {
    match kind {
        DocKind::Atom | DocKind::AtomEntry | DocKind::DeletedEntry => "an Atom document",
        DocKind::Rss => "an RSS feed",
        DocKind::JsonFeed => "a JSON Feed",
    }
}

fn type_mismatches(cx: &mut SetChecker) {
    let set = cx.set;
    let judged = judged(set, false);
    // One finding per link as written and type as written.
    let mut seen: FastMap<(&str, &str), usize> = FastMap::default();
    let mut findings: Vec<(&Judged, DocKind, usize)> = Vec::new();
    for one in &judged {
        let Leads::Feed(feed) = one.leads else { continue };
        let Some(kind) = set.document(feed).kind() else {
            continue;
        };
        let declared = one.link.media_type.value.as_str();
        let fits = declared == media_type_of(kind)
            // JSON Feed 1.1: readers "should fall back to accepting application/json".
            || kind == DocKind::JsonFeed && declared == "application/json";
        if fits {
            continue;
        }
        match seen.entry((one.link.href.value.as_str(), declared)) {
            std::collections::hash_map::Entry::Occupied(at) => findings[*at.get()].2 += 1,
            std::collections::hash_map::Entry::Vacant(at) => {
                at.insert(findings.len());
                findings.push((one, kind, 0));
            }
        }
    }
    for (one, kind, more) in findings {
        let Leads::Feed(feed) = one.leads else { continue };
        let right = media_type_of(kind);
        let root = &set.summary(feed).root;
        cx.report(
            SetChecker::at(
                one.page,
                &one.link.media_type.span,
                format!(
                    "{} advertises {} as {}, but it is {}",
                    these_pages(more),
                    shorten(&one.link.href.value),
                    one.link.media_type.value,
                    format_name(kind),
                ),
            )
            .label(format!("the feed is {right}"))
            .secondary(root.in_doc(feed), "the feed")
            .note("RSS Autodiscovery §3.3: \"The type attribute must contain the feed's MIME type\"; a reader picks the parser by it, and one that reads only the named format skips the link or fails on the feed")
            .help(format!("write type=\"{right}\" in the layout that writes this <link>")),
        );
    }
}

/// A page's URL as a feed's home link names it: a folder's `index.html`
/// by the folder, with or without its last `/`, in the form links are
/// compared in.
fn home_key(url: &Url) -> String {
    let key = iri::comparable(url.clone());
    let key = key.as_str();
    let key = key.strip_suffix("index.html").unwrap_or(key);
    key.strip_suffix('/').unwrap_or(key).to_owned()
}

fn unadvertised_sites(cx: &mut SetChecker) {
    let set = cx.set;
    // The pages that advertise no feed, by the URL a feed's home link
    // would give them.
    let mut silent: FastMap<String, DocId> = FastMap::default();
    for (page, document) in set.documents().iter().enumerate() {
        if let (Some(head), Some(url), false) = (document.page.as_deref(), document.url.as_ref(), document.context) {
            if head.advertised.is_empty() {
                silent.insert(home_key(url), page);
            }
        }
    }
    if silent.is_empty() {
        return;
    }
    // The subscription feeds that name each of those pages as their home.
    let mut feeds_of: FastMap<DocId, Vec<DocId>> = FastMap::default();
    for (feed, summary) in set.feeds() {
        if !matches!(summary.kind, DocKind::Atom | DocKind::Rss | DocKind::JsonFeed) || summary.is_archive_like() {
            continue;
        }
        if let Some(&page) = summary.home.as_ref().and_then(|home| silent.get(&home_key(home))) {
            feeds_of.entry(page).or_default().push(feed);
        }
    }
    let mut pages: Vec<(DocId, Vec<DocId>)> = feeds_of.into_iter().collect();
    pages.sort_unstable();
    for (page, feeds) in pages {
        let head = set.document(page).page.as_deref().expect("a page");
        let first = feeds[0];
        let kind = set.document(first).kind().map_or("application/atom+xml", media_type_of);
        let href = match set.document(first).url.as_ref() {
            Some(url) if url.scheme() != "file" => url.to_string(),
            _ => set.reference(page, first),
        };
        let named = match feeds.len() {
            1 => format!("the feed {}", set.name(first)),
            n => format!("{} or {} other feeds", set.name(first), n - 1),
        };
        cx.report(
            SetChecker::at(
                page,
                &head.head,
                format!("this page advertises no feed, though {named} names it as the feed's home page"),
            )
            .label("no feed advertised")
            .secondary(set.summary(first).root.in_doc(first), "names this page as its home")
            .note("RSS Autodiscovery §3: \"The link can be placed within the header of the site's home page\"; JSON Feed 1.1: \"A web page should include a link tag that specifies the location of the JSON Feed\". Readers and browsers find a site's feed by its home page: given the site's address, they find nothing to subscribe to")
            .help(format!("add <link rel=\"alternate\" type=\"{kind}\" href=\"{href}\"> to this page's <head>")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relative_path_is_told_from_other_references() {
        for path in ["feed.xml", "../feed.xml", "./feed.xml", "feeds/all.atom"] {
            assert!(is_path(path), "{path}");
        }
        for other in [
            "/feed.xml",
            "//cdn.example/feed.xml",
            "https://example.org/feed.xml",
            "",
            "#x",
        ] {
            assert!(!is_path(other), "{other}");
        }
    }
}
