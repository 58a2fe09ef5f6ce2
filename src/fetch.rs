//! Linting a deployed feed: fetch a URL, follow its archive and paging
//! links, and lint everything fetched as one set, as if the files were
//! local. RFC 5005 §6 warns that feeds can be crafted to make a client
//! request without end, so every part of the walk is bounded: documents,
//! bytes per document (counted while reading), seconds and redirects per
//! request. Cycles are cut by URL and by `self` IRI before fetching again.

use std::collections::{HashSet, VecDeque};
use std::io::Read;
use std::time::Duration;

use url::Url;

use crate::analyze::{lint_document, Named, Outcome};
use crate::assemble::{Failure, Report};
use crate::diagnostic::{Pending, Span};
use crate::feed::Relation;
use crate::options::Options;
use crate::rules::fetching::{ARCHIVE_UNAVAILABLE, FETCH_FAILED, FETCH_LIMIT_REACHED};
use crate::rules::Rule;
use crate::summary::DocSummary;

/// The relations the walk follows.
const FOLLOWED: [Relation; 5] = [
    Relation::PrevArchive,
    Relation::NextArchive,
    Relation::Current,
    Relation::Next,
    Relation::Previous,
];

/// How far a walk may go.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Documents fetched in one run (`--max-documents`).
    pub max_documents: usize,
    /// Bytes of one document, after decompression (`--max-bytes`).
    pub max_bytes: u64,
    /// Seconds for one request, body included (`--timeout`).
    pub timeout: Duration,
    /// Redirects followed for one request (`--max-redirects`).
    pub max_redirects: u32,
    /// Follow only links on the starting URL's origin (`--same-origin`).
    pub same_origin: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_documents: 100,
            max_bytes: 16 * 1024 * 1024,
            timeout: Duration::from_secs(15),
            max_redirects: 5,
            same_origin: false,
        }
    }
}

/// Why a request gave no document.
#[derive(Debug)]
enum FetchError {
    Status(u16),
    TooLarge,
    Timeout,
    TooManyRedirects,
    Other(String),
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FetchError::Status(code) => write!(f, "HTTP status {code}"),
            FetchError::TooLarge => f.write_str("the body is larger than --max-bytes"),
            FetchError::Timeout => f.write_str("no complete answer within --timeout"),
            FetchError::TooManyRedirects => f.write_str("more redirects than --max-redirects"),
            FetchError::Other(message) => f.write_str(message),
        }
    }
}

struct Fetched {
    /// The URL after redirects.
    url: Url,
    bytes: Vec<u8>,
}

fn agent(limits: &Limits) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(limits.timeout))
        .max_redirects(limits.max_redirects)
        .http_status_as_error(false)
        .user_agent(concat!("feedlint/", env!("CARGO_PKG_VERSION")))
        .build()
        .into()
}

fn fetch(agent: &ureq::Agent, url: &Url, limits: &Limits) -> Result<Fetched, FetchError> {
    use ureq::ResponseExt;
    let response = agent
        .get(url.as_str())
        .header(
            "Accept",
            "application/atom+xml, application/rss+xml, application/xml;q=0.9, */*;q=0.5",
        )
        .header("Accept-Encoding", "gzip, deflate")
        .call()
        .map_err(classify)?;
    let status = response.status().as_u16();
    if !(200..300).contains(&status) {
        return Err(FetchError::Status(status));
    }
    let final_url = Url::parse(&response.get_uri().to_string()).unwrap_or_else(|_| url.clone());
    let deflated = response
        .headers()
        .get("content-encoding")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("deflate"));
    // ureq decodes gzip itself; deflate is decoded here. Either way the
    // limit counts decoded bytes, so a compression bomb stops at the limit.
    let body = response.into_body().into_reader();
    let reader: Box<dyn Read> = if deflated {
        Box::new(flate2::read::ZlibDecoder::new(body))
    } else {
        Box::new(body)
    };
    let mut bytes = Vec::new();
    reader
        .take(limits.max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| classify_io(&e))?;
    if bytes.len() as u64 > limits.max_bytes {
        return Err(FetchError::TooLarge);
    }
    Ok(Fetched { url: final_url, bytes })
}

fn classify(error: ureq::Error) -> FetchError {
    match error {
        ureq::Error::StatusCode(code) => FetchError::Status(code),
        ureq::Error::Timeout(_) => FetchError::Timeout,
        ureq::Error::TooManyRedirects => FetchError::TooManyRedirects,
        ureq::Error::Io(e) => classify_io(&e),
        other => FetchError::Other(other.to_string()),
    }
}

fn classify_io(error: &std::io::Error) -> FetchError {
    let text = error.to_string();
    if error.kind() == std::io::ErrorKind::TimedOut || text.contains("timeout") || text.contains("timed out") {
        FetchError::Timeout
    } else {
        FetchError::Other(text)
    }
}

/// Where a URL came from: the command line, or a link (its document and
/// the link's span, whose `doc` is that document's index).
type Origin = Option<Span>;

/// Lints the feeds at `start` and everything their links lead to. The
/// documents named on the command line failing is an `Err` (exit status 2).
pub fn lint_urls(
    start: &[Url],
    limits: &Limits,
    options: &Options,
    progress: &mut dyn FnMut(usize, u64),
) -> Result<Report, Failure> {
    let agent = agent(limits);
    let origins: HashSet<url::Origin> = start.iter().map(Url::origin).collect();
    let mut queue: VecDeque<(Url, Origin)> = start.iter().map(|u| (u.clone(), None)).collect();
    let mut seen: HashSet<String> = start.iter().map(|u| u.to_string()).collect();
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut findings: Vec<(&'static Rule, Pending<Span>)> = Vec::new();
    let mut bytes_total = 0u64;
    while let Some((url, origin)) = queue.pop_front() {
        if outcomes.len() >= limits.max_documents {
            let left = queue.len() + 1;
            if let Some(span) = origin {
                findings.push((
                    &FETCH_LIMIT_REACHED,
                    Pending::new(span, format!("the walk stopped at {} documents (--max-documents); {left} more linked documents, {url} first, were not fetched", limits.max_documents))
                        .label("not followed")
                        .note("checks that need every document of a chain (such as deleted-entry-unknown-ref) treat the chain as incomplete")
                        .help("raise --max-documents to follow the whole chain"),
                ));
            }
            break;
        }
        let fetched = match fetch(&agent, &url, limits) {
            Ok(fetched) => fetched,
            Err(error) => match origin {
                None => {
                    return Err(Failure::Unfetchable {
                        url: url.to_string(),
                        message: error.to_string(),
                    })
                }
                Some(span) => {
                    findings.push(fetch_problem(&url, &error, span, limits));
                    continue;
                }
            },
        };
        bytes_total += fetched.bytes.len() as u64;
        let named = Named {
            name: url.to_string(),
            path: None,
            url: Some(fetched.url.clone()),
        };
        let final_url = fetched.url;
        let Some(mut outcome) = lint_document(named, fetched.bytes, true, options) else {
            continue;
        };
        if origin.is_none()
            && outcome.document.summary.is_none()
            && outcome.diagnostics.iter().any(|d| d.rule == "unknown-document")
        {
            return Err(Failure::Unfetchable {
                url: url.to_string(),
                message: "it is not a feed (its root element is not atom:feed, rss or at:deleted-entry)".to_owned(),
            });
        }
        if final_url != url {
            outcome.document.aliases.push(url.clone());
        }
        seen.insert(final_url.to_string());
        let doc = outcomes.len();
        if let Some(summary) = &outcome.document.summary {
            if let Some(self_iri) = summary.self_iri() {
                seen.insert(self_iri.to_string());
            }
            for (target, span) in followed_links(summary, doc) {
                let leaves_origin = limits.same_origin && !origins.contains(&target.origin());
                if leaves_origin || !seen.insert(target.to_string()) {
                    continue;
                }
                queue.push_back((target, Some(span)));
            }
        }
        outcomes.push(outcome);
        progress(outcomes.len(), bytes_total);
    }
    Ok(Report::assemble(outcomes, &[], findings, options))
}

/// The http(s) targets of a document's followed links, with their spans.
fn followed_links(summary: &DocSummary, doc: usize) -> Vec<(Url, Span)> {
    summary
        .links
        .iter()
        .filter(|l| FOLLOWED.contains(&l.rel))
        .filter_map(|l| {
            let target = l.target.clone().filter(|t| matches!(t.scheme(), "http" | "https"))?;
            Some((target, l.span.in_doc(doc)))
        })
        .collect()
}

/// The finding for a followed link that gave no document.
fn fetch_problem(url: &Url, error: &FetchError, span: Span, limits: &Limits) -> (&'static Rule, Pending<Span>) {
    match error {
        FetchError::Status(code @ (403 | 404 | 410)) => (
            &ARCHIVE_UNAVAILABLE,
            Pending::new(span, format!("{url} answers HTTP {code}: the linked document is not available"))
                .label("unavailable")
                .note("RFC 5005 §4.1 lets publishers withhold archives, but the logical feed cannot be reconstructed completely; RFC 5005 §4.2 asks clients to warn their users")
                .help("publish the document, or remove the link to it"),
        ),
        FetchError::TooLarge | FetchError::Timeout | FetchError::TooManyRedirects => {
            let (limit, flag) = match error {
                FetchError::TooLarge => (format!("{} bytes", limits.max_bytes), "--max-bytes"),
                FetchError::Timeout => (format!("{} seconds", limits.timeout.as_secs_f64()), "--timeout"),
                _ => (format!("{} redirects", limits.max_redirects), "--max-redirects"),
            };
            (
                &FETCH_LIMIT_REACHED,
                Pending::new(span, format!("{url} was not linted: it exceeds the limit of {limit} ({flag})"))
                    .label("not followed")
                    .note("RFC 5005 §6: feeds can be crafted to make a client request without end, so every fetch is bounded")
                    .help(format!("raise {flag} if the document is legitimate")),
            )
        }
        other => (
            &FETCH_FAILED,
            Pending::new(span, format!("fetching {url} failed: {other}"))
                .label("fetch failed")
                .note("RFC 5005 §4.2: a client cannot reconstruct the logical feed past this link")
                .help("check that the URL is right and the server answers it"),
        ),
    }
}
