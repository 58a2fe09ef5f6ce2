//! One document over HTTP: the request, every redirect hop checked by hand
//! (origin, scheme, address, credentials), the body bounded and decoded.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ureq::unversioned::resolver::DefaultResolver;
use ureq::unversioned::transport::DefaultConnector;
use url::Url;

use super::cache::{HttpCache, Kept};
use super::policy::{AddressPolicy, CheckedResolver, Credentials, Refused};
use super::politeness::Permit;
use super::Limits;
use crate::findings::remedy::{Limit, Wording};

/// Why a request gave no document.
#[derive(Debug)]
pub(super) enum FetchError {
    Status(u16),
    TooLarge,
    Timeout,
    /// `--max-time` ran out before or during the request.
    OutOfTime,
    /// The client's budget of requests (redirect hops included) is spent.
    OutOfRequests,
    TooManyRedirects,
    /// A redirect refused: why, and the limit that refused it, where one
    /// can be lifted.
    Refused(String, Option<Limit>),
    /// The address policy refused a connection.
    AddressRefused(Refused),
    /// No connection, for a reason the page words for people; the text
    /// as the connection gave it.
    Unreached(crate::Unreached, String),
    /// A bot challenge answered in place of the document.
    Challenge(Challenge),
    Other(String),
}

impl FetchError {
    /// What went wrong, in the run's words.
    pub(super) fn describe(&self, words: &dyn Wording) -> String {
        match self {
            FetchError::Status(code) => format!("HTTP status {code}"),
            FetchError::TooLarge => format!("the body is larger than {}", words.limit(Limit::Bytes)),
            FetchError::Timeout => format!("no complete answer within {}", words.limit(Limit::Timeout)),
            FetchError::OutOfTime => format!("the walk ran out of {}", words.limit(Limit::Time)),
            FetchError::OutOfRequests => "the requests the check may make are spent".to_owned(),
            FetchError::TooManyRedirects => format!("more redirects than {}", words.limit(Limit::Redirects)),
            FetchError::Refused(why, limit) => {
                format!("{why}{}", limit.map(|limit| words.aside(limit)).unwrap_or_default())
            }
            FetchError::AddressRefused(refused) => words.refused(&refused.what, refused.rule),
            FetchError::Challenge(challenge) => format!(
                "HTTP status {} with {}, a page for browsers that no feed reader can pass",
                challenge.status, challenge.what
            ),
            FetchError::Unreached(_, why) | FetchError::Other(why) => why.clone(),
        }
    }

    /// Why no document came, as a failure names it.
    pub(super) fn reason(&self) -> crate::Unreached {
        match self {
            FetchError::Status(code) => crate::Unreached::Status(*code),
            FetchError::Timeout => crate::Unreached::Timeout,
            FetchError::Unreached(reason, _) => *reason,
            FetchError::Challenge(challenge) if challenge.status >= 400 => crate::Unreached::Status(challenge.status),
            FetchError::Challenge(_) => crate::Unreached::NotAFeed,
            _ => crate::Unreached::Other,
        }
    }
}

/// How a linked file is asked for.
#[derive(Debug, Clone, Copy)]
pub(super) enum Ask {
    Head,
    /// `HEAD` with an `Origin`, as a script in a web page asks.
    HeadFromPage,
    /// `GET` with `Range: bytes=0-N`.
    FirstBytes(u64),
}

use crate::rules::http::{Challenge, Delivery, Headers, Redirect, Revalidated, Revalidation, Validator};
pub(super) use crate::rules::media::Answer;

/// A request followed to its answer.
struct Followed<'p> {
    url: Url,
    response: ureq::http::Response<ureq::Body>,
    cut_by_deadline: bool,
    redirects: Vec<Redirect>,
    /// The host's turn (batch politeness), held until the answer is read.
    permit: Option<Permit<'p>>,
}

/// A header's value, where it is text.
fn header<'r>(response: &'r ureq::http::Response<ureq::Body>, name: &str) -> Option<&'r str> {
    response.headers().get(name).and_then(|v| v.to_str().ok())
}

/// The media type of a `Content-Type` value: lower case, without its
/// parameters.
fn essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// A document as the server gave it.
pub(super) struct Fetched {
    /// The URL after redirects (its password masked).
    pub url: Url,
    pub bytes: Vec<u8>,
    /// The `charset` parameter of the `Content-Type` header.
    pub charset: Option<String>,
    /// The media type of the `Content-Type` header, lower case, without
    /// its parameters.
    pub media_type: Option<String>,
    /// The `hub` and `self` links of its `Link` headers.
    pub links: crate::rules::websub::HeaderLinks,
    /// How it was served, for the `http` rules.
    pub delivery: Delivery,
}

/// The HTTP side of a walk, shared by its fetching threads: two connection
/// pools (keep-alive), one for the start URLs as the user named them, one
/// for everything links and redirects lead to, whose resolver applies the
/// address policy.
pub(super) struct Client {
    start: ureq::Agent,
    followed: ureq::Agent,
    limits: Limits,
    origins: HashSet<url::Origin>,
    pub credentials: Credentials,
    /// The requests it may still make, every redirect hop one; `None`:
    /// bounded by the other limits alone.
    requests_left: Option<std::sync::atomic::AtomicUsize>,
    /// Each document with a validator is asked for again, conditionally
    /// (for the `http` rules).
    pub revalidate: bool,
    /// Where answers are kept for the next run (`--http-cache`).
    cache: Option<HttpCache>,
}

fn agent(limits: &Limits, policy: Option<Arc<AddressPolicy>>) -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        .timeout_global(Some(limits.timeout))
        // Redirects are followed here, hop by hop, so that each is checked.
        .max_redirects(0)
        .http_status_as_error(false)
        // Direct connections only: through a proxy the address connected to
        // would be the proxy's, and the policy could not see the target.
        .proxy(None)
        .user_agent(concat!("feedlint/", env!("CARGO_PKG_VERSION")))
        .build();
    match policy {
        Some(policy) => ureq::Agent::with_parts(config, DefaultConnector::new(), CheckedResolver::new(policy)),
        None => ureq::Agent::with_parts(config, DefaultConnector::new(), DefaultResolver::default()),
    }
}

impl Client {
    pub fn new(limits: &Limits, policy: AddressPolicy, start: &[Url], credentials: Credentials) -> Self {
        let policy = Arc::new(policy);
        Client {
            // The user's own start URLs go where they point; a stranger's
            // meet the policy like any link.
            start: agent(limits, (!limits.trust_start).then(|| Arc::clone(&policy))),
            followed: agent(limits, Some(policy)),
            limits: limits.clone(),
            origins: start.iter().map(Url::origin).collect(),
            credentials,
            requests_left: None,
            revalidate: false,
            cache: limits.http_cache.clone(),
        }
    }

    /// The client makes at most `requests` requests, redirect hops
    /// included: past them, each fails with [`FetchError::OutOfRequests`].
    pub fn with_request_budget(mut self, requests: usize) -> Self {
        self.requests_left = Some(std::sync::atomic::AtomicUsize::new(requests));
        self
    }

    /// Whether its budget of requests is spent.
    pub fn requests_spent(&self) -> bool {
        use std::sync::atomic::Ordering;
        self.requests_left
            .as_ref()
            .is_some_and(|left| left.load(Ordering::Relaxed) == 0)
    }

    /// Spends one request of the budget, if there is one left.
    fn spend_request(&self) -> Result<(), FetchError> {
        use std::sync::atomic::Ordering;
        match &self.requests_left {
            Some(left) => left
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                .map(|_| ())
                .map_err(|_| FetchError::OutOfRequests),
            None => Ok(()),
        }
    }

    /// Whether `url` is on a start URL's origin.
    pub fn on_start_origin(&self, url: &Url) -> bool {
        self.origins.contains(&url.origin())
    }

    /// Fetches `url` (a start URL when `named`: its first hop goes where the
    /// user pointed), following redirects by hand, within `deadline`; asks
    /// for it again conditionally where the client revalidates.
    pub fn fetch(&self, url: &Url, named: bool, deadline: Instant) -> Result<Fetched, FetchError> {
        let cached = self
            .cache
            .as_ref()
            .and_then(|cache| cache.get(url, self.limits.max_bytes));
        let validator = cached.as_ref().and_then(|(kept, _)| kept.headers.validator());
        let feed = |agent: &ureq::Agent, url: &Url, timeout: Duration| {
            self.send(agent.get(url.as_str()), timeout, |request| {
                conditional(feed_request(request), validator.as_ref())
            })
        };
        let Followed {
            url: current,
            response,
            cut_by_deadline,
            redirects,
            permit,
        } = self.follow(url, named, deadline, feed)?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let named_header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
        if let (304, Some((kept, bytes)), Some(sent)) = (status, cached.as_ref(), validator.as_ref()) {
            return Ok(from_cache(
                kept.clone(),
                bytes.clone(),
                sent.clone(),
                current,
                redirects,
                &named_header,
            ));
        }
        if !(200..300).contains(&status) {
            return Err(refusal(status, &named_header, response));
        }
        let bytes = match read_body(response, self.limits.max_bytes) {
            Err(FetchError::Timeout) if cut_by_deadline => return Err(FetchError::OutOfTime),
            other => other?,
        };
        // Read: the host's turn ends before a second request asks it again.
        drop(permit);
        if let Some(challenge) = crate::rules::http::challenge_of(status, &named_header, &bytes) {
            return Err(FetchError::Challenge(challenge));
        }
        let content_type = named_header("content-type");
        let kept = Kept {
            asked: url.to_string(),
            headers: Headers {
                etag: named_header("etag"),
                last_modified: named_header("last-modified"),
                cache_control: named_header("cache-control"),
                content_encoding: named_header("content-encoding"),
                allow_origin: named_header("access-control-allow-origin"),
            },
            charset: content_type.as_deref().and_then(charset_parameter),
            media_type: content_type.as_deref().map(essence),
            links: headers
                .get_all("link")
                .iter()
                .filter_map(|value| value.to_str().ok())
                .map(str::to_owned)
                .collect(),
        };
        if let Some(cache) = &self.cache {
            cache.put(url, &kept, &bytes);
        }
        let mut fetched = fetched(kept, bytes, current, redirects);
        let revalidation = match (validator, cached) {
            // Asked conditionally already: the answer is the second one.
            (Some(sent), Some((_, before))) => Some((
                Revalidation {
                    sent,
                    answer: Revalidated::Again {
                        etag: fetched.delivery.headers.etag.clone(),
                        last_modified: fetched.delivery.headers.last_modified.clone(),
                        same_body: before == fetched.bytes,
                    },
                },
                None,
            )),
            _ if self.revalidate => {
                let start = named && fetched.url == *url;
                self.revalidation(&fetched.url, start, &fetched.delivery, &fetched.bytes, deadline)
            }
            _ => None,
        };
        if let Some((revalidation, allow_origin)) = revalidation {
            fetched.delivery.revalidation = Some(revalidation);
            let headers = &mut fetched.delivery.headers;
            headers.allow_origin = headers.allow_origin.take().or(allow_origin);
        }
        Ok(fetched)
    }

    /// The document at `url` asked for again with the validator its first
    /// answer gave (`If-None-Match`, else `If-Modified-Since`) and with an
    /// `Origin`, as a web page's request has; with the
    /// `Access-Control-Allow-Origin` that answer gave. A second request
    /// that fails says nothing: it is `None`.
    fn revalidation(
        &self,
        url: &Url,
        start: bool,
        delivery: &Delivery,
        body: &[u8],
        deadline: Instant,
    ) -> Option<(Revalidation, Option<String>)> {
        let sent = delivery.headers.validator()?;
        let again = |agent: &ureq::Agent, url: &Url, timeout: Duration| {
            self.send(agent.get(url.as_str()), timeout, |request| {
                conditional(feed_request(request), Some(&sent))
            })
        };
        let Followed { response, .. } = self.follow(url, start, deadline, again).ok()?;
        let allow_origin = header(&response, "access-control-allow-origin").map(str::to_owned);
        let answer = match response.status().as_u16() {
            304 => Revalidated::NotModified,
            200..=299 => {
                let etag = header(&response, "etag").map(str::to_owned);
                let last_modified = header(&response, "last-modified").map(str::to_owned);
                let again = read_body(response, self.limits.max_bytes).ok()?;
                Revalidated::Again {
                    etag,
                    last_modified,
                    same_body: again == body,
                }
            }
            _ => return None,
        };
        Some((Revalidation { sent, answer }, allow_origin))
    }

    /// Asks a server of a linked file (an enclosure, artwork) what it
    /// holds, under the address policy at every hop: `HEAD`, or a `GET` of
    /// `bytes=0-LAST` whose first bytes (at most `LAST + 1`) are kept. Any
    /// status is an answer.
    pub fn ask(&self, url: &Url, method: Ask, deadline: Instant) -> Result<Answer, FetchError> {
        let send = |agent: &ureq::Agent, url: &Url, timeout: Duration| match method {
            Ask::Head => self.send(agent.head(url.as_str()), timeout, |request| {
                request.header("Accept-Encoding", "identity")
            }),
            Ask::HeadFromPage => self.send(agent.head(url.as_str()), timeout, |request| {
                request.header("Accept-Encoding", "identity").header("Origin", ORIGIN)
            }),
            Ask::FirstBytes(last) => self.send(agent.get(url.as_str()), timeout, |request| {
                request
                    .header("Accept-Encoding", "identity")
                    .header("Range", format!("bytes=0-{last}"))
            }),
        };
        let Followed {
            url,
            response,
            cut_by_deadline,
            permit: _turn,
            ..
        } = self.follow(url, false, deadline, send)?;
        let number = |name: &str| header(&response, name).and_then(|v| v.trim().parse::<u64>().ok());
        let content_range_total = header(&response, "content-range")
            .and_then(|range| range.rsplit_once('/'))
            .and_then(|(_, total)| total.trim().parse::<u64>().ok());
        let mut answer = Answer {
            url,
            status: response.status().as_u16(),
            media_type: header(&response, "content-type")
                .map(essence)
                .filter(|media_type| !media_type.is_empty()),
            content_length: number("content-length"),
            content_range_total,
            allow_origin: header(&response, "access-control-allow-origin").map(str::to_owned),
            accepts_ranges: header(&response, "accept-ranges")
                .is_some_and(|value| value.split(',').any(|unit| unit.trim().eq_ignore_ascii_case("bytes"))),
            first_bytes: Vec::new(),
        };
        if let Ask::FirstBytes(last) = method {
            if (200..300).contains(&answer.status) {
                let mut body = response.into_body().into_reader().take(last.saturating_add(1));
                let read = body.read_to_end(&mut answer.first_bytes).map_err(|e| classify_io(&e));
                match read {
                    Err(FetchError::Timeout) if cut_by_deadline => return Err(FetchError::OutOfTime),
                    other => other?,
                };
            }
        }
        Ok(answer)
    }

    /// Requests `url` and each redirect it leads to, checking every hop,
    /// until an answer that is no redirect; `send` makes one request with
    /// the agent and the time it is given.
    fn follow(
        &self,
        url: &Url,
        named: bool,
        deadline: Instant,
        send: impl Fn(&ureq::Agent, &Url, Duration) -> Result<ureq::http::Response<ureq::Body>, FetchError>,
    ) -> Result<Followed<'_>, FetchError> {
        let mut current = url.clone();
        let mut redirects = Vec::new();
        for hop in 0..=self.limits.max_redirects {
            let agent = if named && hop == 0 { &self.start } else { &self.followed };
            // Each hop waits for its host's turn (a redirect's ends with
            // it), before the time it has left is counted.
            let permit = self.limits.pacer.as_deref().and_then(|pacer| pacer.enter(&current));
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(FetchError::OutOfTime);
            }
            // Near the deadline, a request gets only the time that is left,
            // and running out of it is the walk's limit, not --timeout.
            let cut_by_deadline = left < self.limits.timeout;
            let request_url = self.credentials.unmask(&current);
            self.spend_request()?;
            let response = match send(agent, &request_url, left.min(self.limits.timeout)) {
                Err(FetchError::Timeout) if cut_by_deadline => return Err(FetchError::OutOfTime),
                other => other?,
            };
            if let Some(location) = redirect_target(&response) {
                let next = self.next_hop(&current, location)?;
                redirects.push(Redirect {
                    from: std::mem::replace(&mut current, next.clone()),
                    to: next,
                    status: response.status().as_u16(),
                });
                continue;
            }
            return Ok(Followed {
                url: current,
                response,
                cut_by_deadline,
                redirects,
                permit,
            });
        }
        Err(FetchError::TooManyRedirects)
    }

    /// One request, with the time it is given and the headers `headers`
    /// adds.
    fn send(
        &self,
        request: ureq::RequestBuilder<ureq::typestate::WithoutBody>,
        timeout: Duration,
        headers: impl FnOnce(
            ureq::RequestBuilder<ureq::typestate::WithoutBody>,
        ) -> ureq::RequestBuilder<ureq::typestate::WithoutBody>,
    ) -> Result<ureq::http::Response<ureq::Body>, FetchError> {
        headers(request.config().timeout_global(Some(timeout)).build())
            .call()
            .map_err(classify)
    }

    /// Where a redirect leads, if the walk may go there: http or https,
    /// on a start origin under `--same-origin`. The address is checked when
    /// the hop connects.
    fn next_hop(&self, from: &Url, location: &str) -> Result<Url, FetchError> {
        let next = from.join(location).map_err(|e| {
            // The location as the server wrote it, its password masked:
            // no URL parser accepted it, so the text is masked as text.
            let location = crate::base::secret::mask_text(location);
            FetchError::Other(format!("the redirect to \"{location}\" is not a valid URL: {e}"))
        })?;
        let mut next = self.credentials.mask(&next);
        next.set_fragment(None);
        if !matches!(next.scheme(), "http" | "https") {
            return Err(FetchError::Refused(
                format!("it redirects to {next}, which is not http or https"),
                None,
            ));
        }
        if self.limits.same_origin && !self.on_start_origin(&next) {
            return Err(FetchError::Refused(
                format!("it redirects to {next}, off the start URL's origin"),
                Some(Limit::SameOrigin),
            ));
        }
        Ok(next)
    }
}

/// The `Origin` the conditional request names: no site's, so that a
/// server answers CORS as it does to any stranger's page.
const ORIGIN: &str = "https://feedlint.invalid";

/// A feed's request headers: the feed types first, and the content codings
/// read here.
fn feed_request(
    request: ureq::RequestBuilder<ureq::typestate::WithoutBody>,
) -> ureq::RequestBuilder<ureq::typestate::WithoutBody> {
    request
        .header(
            "Accept",
            "application/atom+xml, application/rss+xml, application/feed+json, application/xml;q=0.9, application/json;q=0.9, */*;q=0.5",
        )
        .header("Accept-Encoding", "gzip, deflate")
}

/// `request` with the validator of a cached answer, if there is one, and
/// then an `Origin`, as the conditional request the `http` rules make has
/// (this one stands for it: its CORS answer is the one judged).
fn conditional(
    request: ureq::RequestBuilder<ureq::typestate::WithoutBody>,
    validator: Option<&Validator>,
) -> ureq::RequestBuilder<ureq::typestate::WithoutBody> {
    match validator {
        Some(Validator::Etag(tag)) => request.header("If-None-Match", tag.as_str()).header("Origin", ORIGIN),
        Some(Validator::LastModified(date)) => request
            .header("If-Modified-Since", date.as_str())
            .header("Origin", ORIGIN),
        None => request,
    }
}

/// A document as an answer gave it: its body, and what the answer said.
fn fetched(kept: Kept, bytes: Vec<u8>, url: Url, redirects: Vec<Redirect>) -> Fetched {
    let links = crate::rules::websub::HeaderLinks::parse(&kept.links, &url);
    Fetched {
        delivery: Delivery {
            redirects,
            headers: kept.headers,
            length: bytes.len() as u64,
            revalidation: None,
        },
        url,
        bytes,
        charset: kept.charset,
        media_type: kept.media_type,
        links,
    }
}

/// The cached document a 304 stands for: the cached answer, with what the
/// 304 updates (its validators and headers, RFC 9111 §4.3.4), reached by
/// this run's redirects.
fn from_cache(
    mut kept: Kept,
    bytes: Vec<u8>,
    sent: Validator,
    url: Url,
    redirects: Vec<Redirect>,
    named_header: &dyn Fn(&str) -> Option<String>,
) -> Fetched {
    let headers = &mut kept.headers;
    headers.etag = named_header("etag").or(headers.etag.take());
    headers.last_modified = named_header("last-modified").or(headers.last_modified.take());
    headers.cache_control = named_header("cache-control").or(headers.cache_control.take());
    headers.allow_origin = named_header("access-control-allow-origin").or(headers.allow_origin.take());
    let mut fetched = fetched(kept, bytes, url, redirects);
    fetched.delivery.revalidation = Some(Revalidation {
        sent,
        answer: Revalidated::NotModified,
    });
    fetched
}

/// Why an answer that is no success gave no document: a bot challenge
/// (by its headers, or by the first bytes of an HTML page, read only
/// then), else its status.
fn refusal(
    status: u16,
    named_header: &dyn Fn(&str) -> Option<String>,
    response: ureq::http::Response<ureq::Body>,
) -> FetchError {
    let html = named_header("content-type").is_some_and(|t| essence(&t) == "text/html");
    let mut start = Vec::new();
    if html {
        let searched = crate::rules::http::challenge::SEARCHED as u64;
        // A page cut short is searched as far as it came.
        let _ = response
            .into_body()
            .into_reader()
            .take(searched)
            .read_to_end(&mut start);
    }
    match crate::rules::http::challenge_of(status, named_header, &start) {
        Some(challenge) => FetchError::Challenge(challenge),
        None => FetchError::Status(status),
    }
}

/// The `Location` of a redirect response.
fn redirect_target(response: &ureq::http::Response<ureq::Body>) -> Option<&str> {
    let status = response.status().as_u16();
    if !matches!(status, 301 | 302 | 303 | 307 | 308) {
        return None;
    }
    response.headers().get("location")?.to_str().ok()
}

/// The `charset` parameter of a media type (RFC 7231 §3.1.1.1: the name is
/// case-insensitive, the value may be quoted).
pub(super) fn charset_parameter(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|parameter| {
        let (name, value) = parameter.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches('"').trim();
        (!value.is_empty()).then(|| value.to_owned())
    })
}

/// The body, decompressed and cut at `max_bytes` (counted after
/// decompression, so that a compression bomb stops at the limit).
fn read_body(response: ureq::http::Response<ureq::Body>, max_bytes: u64) -> Result<Vec<u8>, FetchError> {
    let coding = header(&response, "content-encoding").map(|v| v.trim().to_ascii_lowercase());
    // Both codings the request offers are decoded here, deflate in both
    // forms servers send: zlib-wrapped as RFC 9110 says, and raw.
    let mut body = BufReader::new(response.into_body().into_reader());
    let reader: Box<dyn Read> = match coding.as_deref() {
        Some("gzip" | "x-gzip") => Box::new(flate2::bufread::MultiGzDecoder::new(body)),
        Some("deflate") => {
            let head = body.fill_buf().map_err(|e| classify_io(&e))?;
            if is_zlib_header(head) {
                Box::new(flate2::bufread::ZlibDecoder::new(body))
            } else {
                Box::new(flate2::bufread::DeflateDecoder::new(body))
            }
        }
        _ => Box::new(body),
    };
    let mut bytes = Vec::new();
    reader
        .take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| classify_io(&e))?;
    if bytes.len() as u64 > max_bytes {
        return Err(FetchError::TooLarge);
    }
    Ok(bytes)
}

/// Whether a deflate body starts with a zlib header (RFC 1950 §2.2:
/// compression method 8, and the two bytes a multiple of 31).
fn is_zlib_header(head: &[u8]) -> bool {
    match head {
        [cmf, flg, ..] => cmf & 0x0F == 8 && cmf >> 4 <= 7 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

fn classify(error: ureq::Error) -> FetchError {
    match error {
        ureq::Error::StatusCode(code) => FetchError::Status(code),
        ureq::Error::Timeout(_) => FetchError::Timeout,
        ureq::Error::TooManyRedirects => FetchError::TooManyRedirects,
        ureq::Error::Io(e) => classify_io(&e),
        ureq::Error::HostNotFound => FetchError::Unreached(crate::Unreached::NoSuchHost, error.to_string()),
        ureq::Error::Tls(_) | ureq::Error::Rustls(_) | ureq::Error::TlsRequired => {
            FetchError::Unreached(crate::Unreached::Tls, error.to_string())
        }
        other => FetchError::Other(other.to_string()),
    }
}

fn classify_io(error: &std::io::Error) -> FetchError {
    if let Some(refused) = error.get_ref().and_then(|inner| inner.downcast_ref::<Refused>()) {
        return FetchError::AddressRefused(refused.clone());
    }
    let text = error.to_string();
    if error.kind() == std::io::ErrorKind::TimedOut || text.contains("timeout") || text.contains("timed out") {
        FetchError::Timeout
    } else if error.kind() == std::io::ErrorKind::ConnectionRefused {
        FetchError::Unreached(crate::Unreached::ConnectionRefused, text)
    } else if matches!(
        error.kind(),
        std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::ConnectionAborted
    ) {
        FetchError::Unreached(crate::Unreached::Closed, text)
    } else if ["corrupt message", "certificate", "handshake", "tls"]
        .iter()
        .any(|sign| text.to_ascii_lowercase().contains(sign))
    {
        // The TLS layer's own errors, which reach here as text: a
        // handshake answered in plain HTTP reads as a "corrupt message"
        // (the server speaks no HTTPS there), or a certificate refused.
        FetchError::Unreached(crate::Unreached::Tls, text)
    } else {
        FetchError::Other(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charset_parameters_are_read_as_rfc_7231_writes_them() {
        assert_eq!(
            charset_parameter("application/atom+xml; charset=iso-8859-1").as_deref(),
            Some("iso-8859-1")
        );
        assert_eq!(
            charset_parameter("text/xml;CHARSET=\"UTF-8\"").as_deref(),
            Some("UTF-8")
        );
        assert_eq!(
            charset_parameter("application/xml; q=1; charset = windows-1252 ").as_deref(),
            Some("windows-1252")
        );
        assert_eq!(charset_parameter("application/rss+xml"), None);
        assert_eq!(charset_parameter("application/xml; charset="), None);
    }

    #[test]
    fn zlib_and_raw_deflate_are_told_apart() {
        use std::io::Write;
        let text = b"<feed xmlns='http://www.w3.org/2005/Atom'/>";
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        zlib.write_all(text).unwrap();
        let zlib = zlib.finish().unwrap();
        let mut raw = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        raw.write_all(text).unwrap();
        let raw = raw.finish().unwrap();
        assert!(is_zlib_header(&zlib));
        assert!(!is_zlib_header(&raw));
        assert!(!is_zlib_header(&[0x78]));
    }
}
