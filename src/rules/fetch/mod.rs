//! Findings of the fetcher, when feedlint walks a deployed feed over HTTP.

use crate::feed::DocKind;
use crate::findings::diagnostic::Pending;
use crate::findings::source::{CharsetNote, Source};
use crate::rules::{rule, Rule};
use crate::xml;

pub static ARCHIVE_UNAVAILABLE: Rule = rule!(
    ArchiveUnavailable, Warning, Set, None,
    groups: [Fetch],
    summary: "a followed archive or page answers HTTP 403, 404 or 410",
    spec: "RFC 5005 §4.1, §4.2",
);

pub static FETCH_FAILED: Rule = rule!(
    FetchFailed, Warning, Set, None,
    groups: [Fetch],
    summary: "a followed link fails with another HTTP status, a network error or an unusable answer",
    spec: "RFC 5005 §4.2",
);

pub static FETCH_LIMIT_REACHED: Rule = rule!(
    FetchLimitReached, Info, Set, None,
    groups: [Fetch],
    summary: "a fetch limit (documents, bytes, seconds, redirects) stopped the walk",
    spec: "RFC 5005 §6",
);

pub static UNEXPECTED_CONTENT_TYPE: Rule = rule!(
    UnexpectedContentType, Warning, Doc, None,
    groups: [Fetch],
    summary: "a fetched feed is served as text/html, the media type of a web page",
    spec: "RFC 4287 §7; RFC 6721 §4, §8",
);

pub static CHARSET_MISMATCH: Rule = rule!(
    CharsetMismatch, Warning, Doc, None,
    groups: [Fetch],
    summary: "a fetched document's Content-Type charset disagrees with its byte order mark or XML declaration, or names an unknown encoding",
    spec: "RFC 7303 §3.2; XML 1.0 §4.3.3",
);

/// The finding for a feed served as a web page (`Content-Type: text/html`):
/// at its root element, with the media type its kind has.
pub(crate) fn served_as_web_page(xml: &xml::Tree, kind: DocKind) -> Pending {
    let media_type = match kind {
        DocKind::Atom | DocKind::AtomEntry => "application/atom+xml",
        DocKind::Rss => "application/rss+xml",
        DocKind::DeletedEntry => "application/atomdeleted+xml",
        DocKind::JsonFeed => "application/feed+json",
    };
    Pending::new(crate::feed::start_tag(xml.root_element()), "the feed is served as text/html, the media type of a web page")
        .label("a feed")
        .note("a browser shows it as a broken web page instead of offering to subscribe, and a reader that trusts the header may not take it for a feed")
        .help(format!("serve it as {media_type} (or application/xml)"))
}

/// The header and the document disagree on the encoding: the finding
/// points at the declaration's encoding name, or at the document's start.
pub(crate) fn charset_mismatch(source: &Source, note: CharsetNote) -> Pending {
    let text = source.text();
    let at = match note.declaration.filter(|&offset| text.is_char_boundary(offset)) {
        Some(offset) => {
            let end = text
                .get(offset..)
                .and_then(|rest| rest.find(['"', '\'']))
                .map_or(offset, |len| offset + len);
            offset..end
        }
        None => 0..0,
    };
    Pending::new(at, note.message)
        .label("encoding")
        .note("RFC 7303 §3.2: the byte order mark wins, then the charset parameter of the Content-Type header, then the XML declaration; consumers that read the file without the header decode it differently")
        .help("make the server's charset and the XML declaration name the same encoding (or drop the charset parameter)")
}
