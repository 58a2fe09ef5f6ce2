//! Findings of the fetcher, when feedlint walks a deployed feed over HTTP.

use super::{rule, Rule};

pub static ARCHIVE_UNAVAILABLE: Rule = rule!(
    ArchiveUnavailable, Warning, Set, None,
    groups: ["fetch"],
    summary: "a followed archive or page answers HTTP 403, 404 or 410",
    spec: "RFC 5005 §4.1, §4.2",
);

pub static FETCH_FAILED: Rule = rule!(
    FetchFailed, Warning, Set, None,
    groups: ["fetch"],
    summary: "a followed link fails with another HTTP status, a network error or an unusable answer",
    spec: "RFC 5005 §4.2",
);

pub static FETCH_LIMIT_REACHED: Rule = rule!(
    FetchLimitReached, Info, Set, None,
    groups: ["fetch"],
    summary: "a fetch limit (documents, bytes, seconds, redirects) stopped the walk",
    spec: "RFC 5005 §6",
);

pub static UNEXPECTED_CONTENT_TYPE: Rule = rule!(
    UnexpectedContentType, Warning, Doc, None,
    groups: ["fetch"],
    summary: "a fetched feed is served as text/html, the media type of a web page",
    spec: "RFC 4287 §7; RFC 6721 §4, §8",
);

pub static CHARSET_MISMATCH: Rule = rule!(
    CharsetMismatch, Warning, Doc, None,
    groups: ["fetch"],
    summary: "a fetched document's Content-Type charset disagrees with its byte order mark or XML declaration, or names an unknown encoding",
    spec: "RFC 7303 §3.2; XML 1.0 §4.3.3",
);
