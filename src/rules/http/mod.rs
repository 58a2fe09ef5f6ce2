//! How a fetched document was served (group `http`, on URL runs): the
//! validators readers poll with and whether the server honours them, the
//! caching a stable archive wants, compression, CORS for web readers,
//! temporary redirects, and bot challenges a reader cannot pass. The
//! fetcher gathers what the answers said into a [`Delivery`] (one
//! conditional `GET` per document beside the first, where the document
//! has a validator); the rules judge it where the document is read,
//! beside the WebSub header rules, and point at the document's root.

use std::ops::Range;

use url::Url;

use crate::findings::diagnostic::{shorten, Pending};
use crate::rules::{rule, Rule};

pub mod challenge;

pub use challenge::{challenge_of, Challenge};

pub static HTTP_NO_VALIDATOR: Rule = rule!(
    HttpNoValidator, Warning, Doc, None,
    groups: [Http],
    summary: "a fetched feed is served with neither an ETag nor a Last-Modified header, so readers cannot ask whether it changed",
    spec: "RFC 9110 §8.8.2.1, §8.8.3.1",
);

pub static HTTP_ETAG_IGNORED: Rule = rule!(
    HttpEtagIgnored, Error, Doc, None,
    groups: [Http],
    summary: "a conditional GET with the feed's own ETag in If-None-Match is answered 200 with the same ETag and body, not 304",
    spec: "RFC 9110 §13.1.2",
);

pub static HTTP_LAST_MODIFIED_IGNORED: Rule = rule!(
    HttpLastModifiedIgnored, Warning, Doc, None,
    groups: [Http],
    summary: "a conditional GET with the feed's own Last-Modified in If-Modified-Since is answered 200 with the same body, not 304",
    spec: "RFC 9110 §13.1.3",
);

pub static HTTP_ETAG_UNSTABLE: Rule = rule!(
    HttpEtagUnstable, Info, Doc, None,
    groups: [Http],
    summary: "a feed's ETag changes from one request to the next while its body does not, so every conditional request misses",
    spec: "RFC 9110 §8.8.3, §13.1.2",
);

pub static HTTP_ARCHIVE_NO_STORE: Rule = rule!(
    HttpArchiveNoStore, Warning, Doc, None,
    groups: [Http],
    summary: "an archive document is served with Cache-Control: no-store, though archives are meant to stay as they are and be kept",
    spec: "RFC 5005 §4, §4.1; RFC 9111 §5.2.2.5",
);

pub static HTTP_NO_COMPRESSION: Rule = rule!(
    HttpNoCompression, Info, Doc, None,
    groups: [Http],
    summary: "a large feed (over 100 kB) is sent uncompressed to a reader that offers gzip and deflate",
    spec: "RFC 9110 §8.4, §12.5.3",
);

pub static HTTP_NO_CORS: Rule = rule!(
    HttpNoCors, Info, Doc, None,
    groups: [Http],
    summary: "the feed named is served without Access-Control-Allow-Origin, so a reader running in a web page on another site cannot read it",
    spec: "Fetch Standard §3.2 (CORS protocol)",
);

pub static HTTP_TEMPORARY_REDIRECT: Rule = rule!(
    HttpTemporaryRedirect, Info, Doc, None,
    groups: [Http],
    summary: "a feed or archive is reached through a temporary redirect (302 or 307), so readers keep asking the old URL",
    spec: "RFC 9110 §15.4.3, §15.4.8",
);

pub static HTTP_FEED_TOO_LARGE: Rule = rule!(
    HttpFeedTooLarge, Info, Doc, None,
    groups: [Http],
    summary: "a fetched feed document is larger than 10 MB, more than many readers take in one document",
    spec: "RFC 5005 §1, §3, §4",
);

pub static HTTP_BOT_CHALLENGE: Rule = rule!(
    HttpBotChallenge, Warning, Set, None,
    groups: [Http],
    summary: "a followed archive or page answers with a bot challenge (a CDN's or firewall's web page), which no feed reader can pass",
    spec: "RFC 5005 §4.2",
);

/// A body this large, sent uncompressed, is worth compressing.
pub const LARGE_FEED: u64 = 100_000;

/// A document this large is more than many readers take: feed readers cap
/// the bytes they read of one document, at a few megabytes to tens.
pub const TOO_LARGE_FEED: u64 = 10_000_000;

/// How a fetched document was served: what its answer's headers said, the
/// redirects on the way, and how a second, conditional request was
/// answered.
#[derive(Debug, Clone, Default)]
pub struct Delivery {
    /// The redirects followed to the document, in order.
    pub redirects: Vec<Redirect>,
    pub headers: Headers,
    /// The body's length, decoded.
    pub length: u64,
    /// The conditional request, where one was made and answered.
    pub revalidation: Option<Revalidation>,
}

/// The headers of a document's answer the rules judge (and the HTTP cache
/// keeps with the body).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Headers {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub cache_control: Option<String>,
    /// The content coding the body came in (`gzip`, `deflate`), if any.
    pub content_encoding: Option<String>,
    /// `Access-Control-Allow-Origin`, from the first answer or the
    /// conditional one (which names an `Origin`, as a web page's request
    /// does: some servers answer CORS only then).
    pub allow_origin: Option<String>,
}

impl Headers {
    /// The validator a conditional request sends: the tag, else the date.
    pub fn validator(&self) -> Option<Validator> {
        match (&self.etag, &self.last_modified) {
            (Some(tag), _) => Some(Validator::Etag(tag.clone())),
            (None, Some(date)) => Some(Validator::LastModified(date.clone())),
            (None, None) => None,
        }
    }

    /// `Cache-Control` names `no-store` (RFC 9111 §5.2.2.5).
    pub fn no_store(&self) -> bool {
        self.cache_control.as_deref().is_some_and(|value| {
            value
                .split(',')
                .any(|directive| directive.trim().eq_ignore_ascii_case("no-store"))
        })
    }
}

/// One redirect on the way to a document.
#[derive(Debug, Clone)]
pub struct Redirect {
    pub from: Url,
    pub to: Url,
    pub status: u16,
}

/// A conditional `GET` of the document, with the validator it sent.
#[derive(Debug, Clone)]
pub struct Revalidation {
    pub sent: Validator,
    pub answer: Revalidated,
}

/// The validator a conditional request sends: the `ETag` where there is
/// one (`If-None-Match`), else the `Last-Modified` date
/// (`If-Modified-Since`).
#[derive(Debug, Clone)]
pub enum Validator {
    Etag(String),
    LastModified(String),
}

/// How the conditional request was answered.
#[derive(Debug, Clone)]
pub enum Revalidated {
    /// 304 Not Modified.
    NotModified,
    /// A whole document again.
    Again {
        etag: Option<String>,
        last_modified: Option<String>,
        /// Its body is byte for byte the first answer's.
        same_body: bool,
    },
}

/// What the rules know of the document beside its delivery.
pub struct Served<'s> {
    pub delivery: &'s Delivery,
    /// An archive: it says so (`fh:archive`) or an archive link led to it.
    pub archive: bool,
    /// Named by the user (or the feed a named web page names).
    pub named: bool,
}

/// Every `http` finding of one fetched document, at `root`.
pub fn check(served: &Served, root: Range<usize>) -> Vec<(&'static Rule, Pending)> {
    let delivery = served.delivery;
    let mut found = Vec::new();
    let mut push = |rule: &'static Rule, finding: Option<Pending>| {
        if let Some(finding) = finding {
            found.push((rule, finding));
        }
    };
    push(&HTTP_NO_VALIDATOR, no_validator(delivery, root.clone()));
    match revalidation_missed(delivery) {
        Some(Missed::Ignored(Validator::Etag(tag))) => push(&HTTP_ETAG_IGNORED, Some(etag_ignored(&tag, root.clone()))),
        Some(Missed::Ignored(Validator::LastModified(date))) => {
            push(
                &HTTP_LAST_MODIFIED_IGNORED,
                Some(last_modified_ignored(&date, root.clone())),
            );
        }
        Some(Missed::Unstable { before, after }) => {
            push(&HTTP_ETAG_UNSTABLE, Some(etag_unstable(&before, &after, root.clone())));
        }
        None => {}
    }
    push(&HTTP_ARCHIVE_NO_STORE, archive_no_store(served, root.clone()));
    push(&HTTP_NO_COMPRESSION, no_compression(delivery, root.clone()));
    push(&HTTP_FEED_TOO_LARGE, too_large(delivery, root.clone()));
    push(&HTTP_NO_CORS, no_cors(served, root.clone()));
    push(&HTTP_TEMPORARY_REDIRECT, temporary_redirect(served, root));
    found
}

fn no_validator(delivery: &Delivery, root: Range<usize>) -> Option<Pending> {
    if delivery.headers.validator().is_some() {
        return None;
    }
    Some(
        Pending::new(root, "the feed is served with neither an ETag nor a Last-Modified header")
            .label("no validator")
            .note("RFC 9110 §8.8.3.1: \"An origin server SHOULD send an ETag for any selected representation for which detection of changes can be reasonably and consistently determined\", and §8.8.2.1 the same of Last-Modified; without either, a reader cannot ask whether the feed changed and downloads it whole on every poll")
            .help("let the server send ETag or Last-Modified (static hosts send both for files; a generated feed can send the date of its newest entry)"),
    )
}

/// Why a conditional request missed, where the body had not changed.
enum Missed {
    /// The validator still names the representation, and the server sent
    /// it whole anyway.
    Ignored(Validator),
    /// The server sent the same body under another `ETag`.
    Unstable { before: String, after: String },
}

fn revalidation_missed(delivery: &Delivery) -> Option<Missed> {
    let Revalidation { sent, answer } = delivery.revalidation.as_ref()?;
    let Revalidated::Again {
        etag,
        last_modified,
        same_body: true,
    } = answer
    else {
        return None;
    };
    match sent {
        Validator::Etag(tag) => match etag {
            Some(again) if weak_match(tag, again) => Some(Missed::Ignored(sent.clone())),
            Some(again) => Some(Missed::Unstable {
                before: tag.clone(),
                after: again.clone(),
            }),
            // The second answer names no tag: nothing it can be held to.
            None => None,
        },
        Validator::LastModified(date) => {
            (last_modified.as_deref().map(str::trim) == Some(date.trim())).then(|| Missed::Ignored(sent.clone()))
        }
    }
}

/// RFC 9110 §8.8.3.2's weak comparison, the one `If-None-Match` uses: the
/// opaque tags match, whether or not either is weak.
fn weak_match(a: &str, b: &str) -> bool {
    let opaque = |tag: &str| tag.trim().trim_start_matches("W/").to_owned();
    opaque(a) == opaque(b)
}

fn etag_ignored(tag: &str, root: Range<usize>) -> Pending {
    Pending::new(root, format!("a GET with If-None-Match: {} was answered 200 with the same ETag and body, not 304 Not Modified", shorten(tag)))
        .label("conditional request ignored")
        .note("RFC 9110 §13.1.2: \"An origin server MUST NOT perform the requested method if the condition evaluates to false; instead, the origin server MUST respond with either a) the 304 (Not Modified) status code if the request method is GET or HEAD\"; every reader that polls with the tag downloads the whole feed each time")
        .help("let the server (or the script that writes the feed) compare If-None-Match with the ETag and answer 304 when they match")
}

fn last_modified_ignored(date: &str, root: Range<usize>) -> Pending {
    Pending::new(root, format!("a GET with If-Modified-Since: {} was answered 200 with the same body, not 304 Not Modified", shorten(date)))
        .label("conditional request ignored")
        .note("RFC 9110 §13.1.3: \"An origin server that evaluates an If-Modified-Since condition SHOULD NOT perform the requested method if the condition evaluates to false; instead, the origin server SHOULD generate a 304 (Not Modified) response\"; every reader that polls with the date downloads the whole feed each time")
        .help("let the server compare If-Modified-Since with the feed's Last-Modified and answer 304 when it is not newer, or send an ETag and honour If-None-Match")
}

fn etag_unstable(before: &str, after: &str, root: Range<usize>) -> Pending {
    Pending::new(root, format!("the ETag changed from {} to {} while the body stayed the same", shorten(before), shorten(after)))
        .label("another ETag, the same body")
        .note("RFC 9110 §8.8.3: an entity tag tells representations apart; a reader that sends the tag it has in If-None-Match gets the whole feed again whenever the tag changes, so conditional requests never save anything (servers behind a load balancer that derive the tag from each machine's file system do this)")
        .help("derive the ETag from the content (a hash), or drop it and send Last-Modified")
}

fn archive_no_store(served: &Served, root: Range<usize>) -> Option<Pending> {
    if !served.archive {
        return None;
    }
    if !served.delivery.headers.no_store() {
        return None;
    }
    Some(
        Pending::new(root, "the archive document is served with Cache-Control: no-store")
            .label("an archive no cache may keep")
            .note("RFC 5005 §4: the entries of an archive document \"SHOULD NOT change over time\", and §4.1: \"clients [can] safely assume that if they have retrieved one in the past, it will not meaningfully change in the future\"; RFC 9111 §5.2.2.5: no-store forbids every cache to keep it, so each reader and proxy fetches every archive again")
            .help("serve archive documents with a long max-age (Cache-Control: max-age=31536000), or at least without no-store"),
    )
}

fn no_compression(delivery: &Delivery, root: Range<usize>) -> Option<Pending> {
    let coded = delivery
        .headers
        .content_encoding
        .as_deref()
        .is_some_and(|coding| !coding.trim().eq_ignore_ascii_case("identity"));
    if coded || delivery.length <= LARGE_FEED {
        return None;
    }
    Some(
        Pending::new(root, format!("the feed's {} bytes came uncompressed, though the request offered gzip and deflate", delivery.length))
            .label("not compressed")
            .note("RFC 9110 §12.5.3: Accept-Encoding names the content codings the client takes; feeds are text and shrink to a fifth or less, and readers poll them again and again")
            .help("turn on gzip (or Brotli and gzip) for feed media types in the server or CDN"),
    )
}

fn too_large(delivery: &Delivery, root: Range<usize>) -> Option<Pending> {
    if delivery.length <= TOO_LARGE_FEED {
        return None;
    }
    Some(
        Pending::new(root, format!("the feed document is {} bytes, over 10 MB", delivery.length))
            .label("a very large document")
            .note("readers cap what they read of one document (commonly somewhere from 1 MB to tens of megabytes) and drop or cut a feed past it; RFC 5005 §1: feeds \"are often split into multiple documents to save bandwidth\"")
            .help("keep the recent entries in the feed and move the rest to archive documents linked by prev-archive (RFC 5005 §4), or page it (§3)"),
    )
}

fn no_cors(served: &Served, root: Range<usize>) -> Option<Pending> {
    if !served.named || served.delivery.headers.allow_origin.is_some() {
        return None;
    }
    Some(
        Pending::new(root, "the feed is served without Access-Control-Allow-Origin")
            .label("no CORS header")
            .note("the Fetch Standard's CORS protocol: a script on another origin may read a response only if it names that origin or *; a reader or podcast player that runs in a web page cannot load this feed")
            .help("send Access-Control-Allow-Origin: * with the feed (it holds nothing private)"),
    )
}

fn temporary_redirect(served: &Served, root: Range<usize>) -> Option<Pending> {
    let redirect = served
        .delivery
        .redirects
        .iter()
        .find(|redirect| matches!(redirect.status, 302 | 307))?;
    let what = if served.archive { "archive" } else { "feed" };
    Some(
        Pending::new(root, format!("the {what} is reached through a temporary redirect: {} answers {} to {}", shorten(redirect.from.as_str()), redirect.status, shorten(redirect.to.as_str())))
            .label("temporary redirect")
            .note("RFC 9110 §15.4.3 (302) and §15.4.8 (307): the resource is there only for now, and the client \"ought to continue to use the target URI for future requests\"; readers keep polling the old URL and never learn the new one")
            .help("if the feed has moved for good, redirect with 301 or 308; if not, serve it at the URL readers have"),
    )
}

/// The finding for a followed link that answers with a bot challenge.
pub fn bot_challenge(
    url: &Url,
    challenge: &Challenge,
    at: crate::findings::diagnostic::Span,
) -> Pending<crate::findings::diagnostic::Span> {
    Pending::new(at, format!("{} answers HTTP {} with {}, not the linked document", shorten(url.as_str()), challenge.status, challenge.what))
        .label("a bot challenge")
        .note("a challenge page waits for a browser to run its script or a person to solve it; feed readers fetch without either, so no reader gets this document, and RFC 5005 §4.2 asks clients to warn that the logical feed is incomplete")
        .help("exempt feed URLs (and archives) from the bot protection, or allow feed readers by user agent")
}
