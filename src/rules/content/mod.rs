//! Links inside entry HTML (group `content`): the `href`, `src` and
//! `poster` attributes of the HTML an entry carries, escaped or in CDATA
//! (an RSS item's `description` and `content:encoded`, an Atom entry's
//! `content` and `summary` of type `html`) or inline (Atom `xhtml`). A
//! reader shows that HTML away from the site, so a link that leans on the
//! site's page for its base breaks there. Findings point at the value
//! inside the escaped text, mapped back to its place in the file.

use std::ops::Range;

use url::Url;

use crate::feed::DocKind;
use crate::findings::diagnostic::shorten;
use crate::findings::fix::{replace, Fix};
use crate::rules::checker::Checker;
use crate::rules::{rule, Rule};
use crate::xml::Node;

mod mapped;

pub static CONTENT_RELATIVE_LINK: Rule = rule!(
    ContentRelativeLink, Info, Doc, Some(relative_links),
    groups: [Content],
    summary: "a relative link (href, src, poster) in the HTML of an RSS item's description or content:encoded, which RSS gives no base to resolve against",
    spec: "RSS 2.0, <item>; RFC 3986 §5.1",
);

pub static CONTENT_PROTOCOL_RELATIVE_LINK: Rule = rule!(
    ContentProtocolRelativeLink, Info, Doc, Some(protocol_relative_links),
    groups: [Content],
    summary: "a protocol-relative link (//host/path) in an Atom entry's HTML or XHTML, which takes its scheme from whatever shows it",
    spec: "RFC 3986 §4.2, §5.1; RFC 4287 §2",
);

pub static CONTENT_LINK_MISSING: Rule = rule!(
    ContentLinkMissing, Info, Set, None, set: Some(missing_site_files),
    groups: [Content],
    summary: "a link in an entry's HTML names a file of the linted site that is not there",
    spec: "RFC 3986 §5.2; RFC 4287 §2",
);

const CONTENT_NS: &str = "http://purl.org/rss/1.0/modules/content/";

/// A URL attribute of an entry's HTML: its value, where the value is in
/// the file (`None` where the text could not be mapped back: the finding
/// then points at the element, and offers no fix), and the element that
/// holds the HTML.
struct Found<'a, 'input> {
    value: String,
    at: Option<Range<usize>>,
    holder: Node<'a, 'input>,
}

/// What a reference written in HTML is, as far as these rules tell.
#[derive(Debug, PartialEq, Eq)]
enum Reference {
    /// Has a scheme, or is empty, or only a fragment (a footnote in the
    /// same entry): nothing to resolve.
    Whole,
    /// `//host/path`.
    NetworkPath,
    /// `/path`.
    RootPath,
    /// `path`, `../path`, `?query`.
    Path,
}

fn reference_kind(value: &str) -> Reference {
    let value = value.trim();
    if value.is_empty() || value.starts_with('#') || crate::text::iri::has_scheme(value) {
        Reference::Whole
    } else if value.starts_with("//") {
        Reference::NetworkPath
    } else if value.starts_with('/') {
        Reference::RootPath
    } else {
        Reference::Path
    }
}

/// The URL attributes of the HTML an entry's `holder` element carries as
/// text (escaped or CDATA).
fn in_escaped_html<'a, 'input>(
    input: &str,
    holder: Node<'a, 'input>,
    keep: &dyn Fn(&str) -> bool,
    found: &mut Vec<Found<'a, 'input>>,
) {
    for text in holder.children().filter(Node::is_text) {
        let Some(decoded) = text.text() else { continue };
        // Only text that holds a tag with a URL attribute is mapped.
        if !decoded.contains('<') {
            continue;
        }
        // Only the values asked for are placed (an empty one has no bytes
        // to point at, and is never asked for).
        let attributes: Vec<_> = crate::base::html::url_attributes(decoded)
            .into_iter()
            .filter(|a| {
                decoded
                    .get(a.value.clone())
                    .is_some_and(|value| !value.is_empty() && keep(value))
            })
            .collect();
        if attributes.is_empty() {
            continue;
        }
        let wanted: Vec<Range<usize>> = attributes.iter().map(|a| a.value.clone()).collect();
        let places = mapped::source_ranges(input, text.range(), decoded, &wanted);
        for (n, attribute) in attributes.into_iter().enumerate() {
            found.push(Found {
                value: decoded.get(attribute.value).unwrap_or_default().to_owned(),
                at: places.as_ref().map(|places| places[n].clone()),
                holder,
            });
        }
    }
}

/// A reference that needs a base to resolve against.
fn needs_a_base(value: &str) -> bool {
    reference_kind(value) != Reference::Whole
}

/// The URL attributes of an Atom `content` or `summary` of type `html`
/// (escaped) or `xhtml` (inline).
fn atom_html<'a, 'input>(
    input: &str,
    holder: Node<'a, 'input>,
    keep: &dyn Fn(&str) -> bool,
    found: &mut Vec<Found<'a, 'input>>,
) {
    match holder.attribute("type").map(str::trim) {
        Some("html") => in_escaped_html(input, holder, keep, found),
        Some("xhtml") => in_xhtml(holder, keep, found),
        _ => {}
    }
}

/// An Atom entry's `content` and `summary`.
fn atom_holders<'a, 'input>(entry: Node<'a, 'input>) -> impl Iterator<Item = Node<'a, 'input>> {
    entry.children().filter(|c| {
        c.has_tag_name(Some(crate::feed::ATOM_NS), "content") || c.has_tag_name(Some(crate::feed::ATOM_NS), "summary")
    })
}

/// The HTML-holding children of an RSS item: `description` and
/// `content:encoded`.
fn rss_html<'a, 'input>(item: Node<'a, 'input>) -> impl Iterator<Item = Node<'a, 'input>> {
    item.children()
        .filter(|child| child.has_tag_name(None, "description") || child.has_tag_name(Some(CONTENT_NS), "encoded"))
}

/// An RSS element's text, trimmed, where it is an http(s) URL.
fn http_url_of(node: Option<Node>) -> Option<Url> {
    let url = Url::parse(node?.text()?.trim()).ok()?;
    matches!(url.scheme(), "http" | "https").then_some(url)
}

fn relative_links(cx: &mut Checker) {
    let feed = cx.feed;
    if feed.kind != DocKind::Rss {
        return;
    }
    let input = feed.xml.input_text();
    // Root-relative links are relative to the site: the channel's link
    // names it.
    let site = http_url_of(
        feed.head
            .and_then(|head| head.children().find(|c| c.has_tag_name(None, "link"))),
    );
    for entry in &feed.entries {
        let mut found = Vec::new();
        for holder in rss_html(entry.node) {
            in_escaped_html(input, holder, &needs_a_base, &mut found);
        }
        let page = http_url_of(entry.node.children().find(|c| c.has_tag_name(None, "link")));
        // Every link found needs a base (`needs_a_base`).
        for link in found {
            let kind = reference_kind(&link.value);
            cx.report(relative_link_finding(&link, &kind, site.as_ref(), page.as_ref()));
        }
    }
}

fn relative_link_finding(
    link: &Found,
    kind: &Reference,
    site: Option<&Url>,
    page: Option<&Url>,
) -> crate::findings::diagnostic::Pending {
    let element = if link.holder.has_tag_name(None, "description") {
        "description"
    } else {
        "content:encoded"
    };
    let value = link.value.trim();
    let (what, why) = match kind {
        Reference::NetworkPath => (
            "a protocol-relative link",
            "it takes its scheme from whatever shows it (a file, an e-mail, an app), and is no link there",
        ),
        Reference::RootPath => (
            "a root-relative link",
            "a reader resolves it against its own address, not the site's",
        ),
        _ => (
            "a relative link",
            "a reader resolves it against its own address, not the page the entry came from",
        ),
    };
    let at = link.at.clone().unwrap_or_else(|| crate::feed::start_tag(link.holder));
    let mut finding = Checker::at(
        at.clone(),
        format!("{what}, \"{}\", in an item's {element}: RSS gives its HTML no base, and {why}", shorten(value)),
    )
    .label("relative")
    .note("RSS 2.0 defines no base URL for the HTML of an item; RFC 3986 §5.1: \"The term \\\"relative\\\" implies that a \\\"base URI\\\" exists against which the relative reference is applied\"");
    let Some((prefix, safe)) = absolute_prefix(kind, value, site, page) else {
        return finding.help("write the absolute URL (with https:// and the site's host)");
    };
    finding = finding.help(format!(
        "write the absolute URL, {}",
        shorten(&format!("{prefix}{value}"))
    ));
    // The value is left as written (escaped as it is): only what makes it
    // absolute is written before it, where it starts the value.
    let Some(at) = link.at.as_ref().filter(|_| link.value.len() == value.len()) else {
        return finding;
    };
    let edits = vec![replace(at.start..at.start, prefix.clone())];
    if safe {
        finding.fix(Fix::safe(format!("Write {prefix} before it"), edits))
    } else {
        finding.fix(Fix::unsafe_(
            format!("Write {prefix} before it (the item's link as its base)"),
            edits,
        ))
    }
}

/// What makes a relative `value` absolute, written before it, where the
/// base is known: the site's scheme before a protocol-relative link, its
/// origin before a link from the root (both safe: the channel's link names
/// the site); the folder of the item's page before a path (unsafe: the
/// page is where the HTML is published, most likely but not surely the
/// base it was written against). Nothing for `./`, `../` or a query,
/// which resolving rewrites, nor where the prefix would need escaping.
fn absolute_prefix(kind: &Reference, value: &str, site: Option<&Url>, page: Option<&Url>) -> Option<(String, bool)> {
    let (prefix, safe) = match kind {
        Reference::NetworkPath => (format!("{}:", site?.scheme()), true),
        Reference::RootPath => (site?.origin().ascii_serialization(), true),
        Reference::Path if !value.starts_with(['.', '?']) => {
            let page = page?;
            // The page's folder: its URL up to the last '/' of its path.
            (page.join("./").ok()?.to_string(), false)
        }
        _ => return None,
    };
    let plain = !prefix.contains(['&', '<', '>', '"', '\'', ']']) && prefix != "null";
    plain.then_some((prefix, safe))
}

fn protocol_relative_links(cx: &mut Checker) {
    let feed = cx.feed;
    if !matches!(feed.kind, DocKind::Atom | DocKind::AtomEntry) {
        return;
    }
    let input = feed.xml.input_text();
    for entry in &feed.entries {
        let mut found = Vec::new();
        for holder in entry.node.children().filter(|c| {
            c.has_tag_name(Some(crate::feed::ATOM_NS), "content")
                || c.has_tag_name(Some(crate::feed::ATOM_NS), "summary")
        }) {
            atom_html(input, holder, &needs_a_base, &mut found);
        }
        for link in found {
            if reference_kind(&link.value) != Reference::NetworkPath {
                continue;
            }
            let resolved = feed.resolve(link.holder, link.value.trim()).ok();
            cx.report(protocol_relative_finding(&link, resolved));
        }
    }
}

/// The URL attributes of inline XHTML: real attributes, in place.
fn in_xhtml<'a, 'input>(holder: Node<'a, 'input>, keep: &dyn Fn(&str) -> bool, found: &mut Vec<Found<'a, 'input>>) {
    for element in holder.descendants().filter(Node::is_element) {
        for attribute in element.attributes() {
            let name = attribute.name();
            if attribute.namespace().is_none() && matches!(name, "href" | "src" | "poster") && keep(attribute.value()) {
                found.push(Found {
                    value: attribute.value().to_owned(),
                    at: Some(attribute.range_value()),
                    holder,
                });
            }
        }
    }
}

fn protocol_relative_finding(link: &Found, resolved: Option<Url>) -> crate::findings::diagnostic::Pending {
    let value = link.value.trim();
    let at = link.at.clone().unwrap_or_else(|| crate::feed::start_tag(link.holder));
    let finding = Checker::at(
        at.clone(),
        format!("a protocol-relative link, \"{}\", in an entry's content: it takes its scheme from whatever shows it", shorten(value)),
    )
    .label("no scheme")
    .note("RFC 3986 §4.2: \"A relative reference that begins with two slash characters is termed a network-path reference\"; the feed's base gives it a scheme, but a reader that shows the entry from a file, an e-mail or an app gives it another, and the link leads nowhere");
    let at = link.at.as_ref().filter(|_| link.value.len() == value.len());
    match (resolved.filter(|url| matches!(url.scheme(), "http" | "https")), at) {
        (Some(url), Some(at)) => finding
            .help(format!("write the absolute URL, {}", shorten(url.as_str())))
            .fix(Fix::safe(
                format!("Write {}: before it", url.scheme()),
                vec![replace(at.start..at.start, format!("{}:", url.scheme()))],
            )),
        _ => finding.help("write the absolute URL, with https:"),
    }
}

/// The targets of the links in entries' HTML that may be files of the
/// document's own site, and where each is written: on its origin, or
/// `file:` URLs. In RSS, a path from the root or a protocol-relative link
/// is taken against the document's URL (the site's), and a path is left
/// out (its base is anyone's guess: `content-relative-link` says so); in
/// Atom, each resolves against its `xml:base` or the document's URL.
pub(crate) fn site_links(feed: &crate::feed::FeedDoc) -> Vec<(Url, Range<usize>)> {
    let Some(url) = feed.url else { return Vec::new() };
    let input = feed.xml.input_text();
    let mut found = Vec::new();
    let worth_a_look = |value: &str| !value.trim_start().starts_with('#');
    for entry in &feed.entries {
        match feed.kind {
            DocKind::Rss => {
                rss_html(entry.node).for_each(|holder| in_escaped_html(input, holder, &worth_a_look, &mut found))
            }
            DocKind::Atom | DocKind::AtomEntry => {
                atom_holders(entry.node).for_each(|holder| atom_html(input, holder, &worth_a_look, &mut found));
            }
            _ => {}
        }
    }
    let on_site = |target: &Url| target.scheme() == "file" || target.origin() == url.origin();
    found
        .into_iter()
        .filter_map(|link| {
            let value = link.value.trim();
            let target = match (feed.kind, reference_kind(value)) {
                (DocKind::Rss, Reference::Path) => return None,
                (DocKind::Rss, Reference::Whole) => Url::parse(value).ok()?,
                (DocKind::Rss, _) => url.join(value).ok()?,
                _ => feed.resolve(link.holder, value).ok()?,
            };
            on_site(&target).then_some((target, link.at?))
        })
        .collect()
}

fn missing_site_files(cx: &mut crate::rules::checker::SetChecker) {
    let set = cx.set;
    // Many entries link the same file: each is looked for once.
    let mut there: std::collections::HashMap<String, Option<(bool, String)>> = std::collections::HashMap::new();
    for (doc, summary) in set.feeds() {
        for link in &summary.content_links {
            let Some((there, named)) = there
                .entry(link.value.to_string())
                .or_insert_with(|| set.site_has(&link.value))
                .clone()
            else {
                continue;
            };
            if there {
                continue;
            }
            cx.report(
                crate::rules::checker::SetChecker::at(doc, &link.span, format!("{} is a file of the linted site that is not there: no {named}", shorten(link.value.as_str())))
                    .label("not in the site")
                    .note("RFC 3986 §5.2: the link resolves against its base (in Atom, RFC 4287 §2: the xml:base in scope, else the document's URL) to a URL of the site, and the site has no file there: readers show a broken image or link")
                    .help("publish the file, or correct the link (or the xml:base it resolves against)"),
            );
        }
    }
}
