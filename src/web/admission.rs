//! How a linting request is let in: its body read first, whole and
//! within its limits, by one of a bounded pool of readers that no one
//! client can take; then a job slot, at once or after a bounded wait in
//! the queue; past either, `503` with `Retry-After`. Refusals are worded
//! for the caller (a JSON error for the API, a problem page for the page).

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use tokio::sync::OwnedSemaphorePermit;

use super::listen::Peer;
use super::runs::Client;
use super::{client_of, html, page, words, App};

/// How long a body may take before [`super::ServeOptions::min_body_rate`] applies:
/// short against the pool of readers, so a client that announces a body
/// and sends nothing gives its place back within two seconds.
pub const BODY_GRACE: Duration = Duration::from_secs(2);

/// The most body readers one client (an IPv4 address, an IPv6 /64) holds
/// at once: one eighth of the pool, so that no one client can take it.
fn readers_per_client(body_readers: usize) -> usize {
    (body_readers / 8).max(1)
}

/// A job slot, taken before a linting request's body is read and held by
/// the linting itself: if the request is abandoned (its client gone, its
/// time up), the slot stays taken until the work it started ends.
#[derive(Clone)]
pub(super) struct Slot(Arc<Mutex<Option<(OwnedSemaphorePermit, OwnedSemaphorePermit)>>>);

impl Slot {
    pub(super) fn take(&self) -> Option<(OwnedSemaphorePermit, OwnedSemaphorePermit)> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

/// Admits a linting request. Its body is read first, whole (at most
/// `max_body`, at least `min_body_rate` after [`BODY_GRACE`]), with no job
/// slot held: a client that trickles a body holds only one of the
/// `body_readers` places. Then into a job at once, or into the queue to
/// wait for one; past the queue, or after waiting too long, `503` with
/// `Retry-After`. The request then has `time_limit` to finish.
pub(super) async fn admit(State(app): State<Arc<App>>, mut request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/");
    if app.options.trust_proxy {
        // The proxy appends the address it took the request from: the
        // last one listed is the only one a client cannot write.
        let forwarded = request
            .headers()
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .next_back()
            .and_then(|last| last.trim().parse::<std::net::IpAddr>().ok());
        if let Some(address) = forwarded {
            request.extensions_mut().insert(Peer(address));
        }
    }
    // A request with no body (a GET, or one that announces none) takes no
    // reader: only a body can be trickled.
    let mut request = if announces_body(&request) {
        let client = client_of(request.extensions().get::<Peer>().copied().map(Extension));
        let Some(reader) = Reader::take(&app, client) else {
            return busy(api, "too many requests are sending their bodies");
        };
        let (parts, body) = request.into_parts();
        let body = match read_body(body, app.options.max_body, app.options.min_body_rate).await {
            Ok(body) => body,
            Err(BodyError::TooLarge) => {
                let message = too_large(&parts, app.options.max_body);
                if api {
                    return problem(api, StatusCode::PAYLOAD_TOO_LARGE, "Too large", &message);
                }
                // The body is refused unread, so it cannot be put back: the
                // page gives the form to use instead, and the browser's
                // Back button the one sent, filled in still.
                let retry = match parts.uri.path() {
                    "/upload" => page::Retry::Upload,
                    _ => page::Retry::Url(""),
                };
                let message = format!("{message}. Your browser's Back button returns to the form as you sent it.");
                let page = page::problem_with("Too large", &message, Some(&retry));
                return (StatusCode::PAYLOAD_TOO_LARGE, html(page)).into_response();
            }
            Err(BodyError::TooSlow | BodyError::Broken) => return too_slow(api),
        };
        drop(reader);
        Request::from_parts(parts, axum::body::Body::from(body))
    } else {
        request
    };
    let Ok(admitted) = Arc::clone(&app.admitted).try_acquire_owned() else {
        return busy(api, "every job and every place in the queue is taken");
    };
    let job = match tokio::time::timeout(app.options.wait, Arc::clone(&app.jobs).acquire_owned()).await {
        Ok(Ok(job)) => job,
        _ => {
            let why = format!("no job came free within {} seconds", app.options.wait.as_secs());
            return busy(api, &why);
        }
    };
    request
        .extensions_mut()
        .insert(Slot(Arc::new(Mutex::new(Some((admitted, job))))));
    match tokio::time::timeout(app.options.time_limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            let why = format!(
                "the check took longer than the {} seconds the server allows",
                app.options.time_limit.as_secs()
            );
            busy(api, &why)
        }
    }
}

/// Whether a request says a body follows: a `Content-Length` over 0, or a
/// `Transfer-Encoding` (chunked). HTTP/1.1 gives a request with neither
/// no body (RFC 9112 §6.3).
fn announces_body(request: &Request) -> bool {
    let headers = request.headers();
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .is_some_and(|length| length.as_bytes() != b"0")
}

/// One of the body readers, held by one client: given back when dropped.
struct Reader {
    _permit: OwnedSemaphorePermit,
    client: Client,
    readers: Arc<Mutex<std::collections::HashMap<Client, usize>>>,
}

impl Reader {
    /// A reader for `client`, if the pool has one and the client holds
    /// fewer than its share.
    fn take(app: &App, client: Client) -> Option<Reader> {
        let mut held = app.readers.lock().unwrap_or_else(PoisonError::into_inner);
        let count = held.entry(client).or_insert(0);
        // A request that came by no network (the router called in the
        // process) has no address to share by.
        if client != Client::UNKNOWN && *count >= readers_per_client(app.options.body_readers) {
            return None;
        }
        let permit = Arc::clone(&app.reading).try_acquire_owned().ok()?;
        *count += 1;
        Some(Reader {
            _permit: permit,
            client,
            readers: Arc::clone(&app.readers),
        })
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        let mut held = self.readers.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = held.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.client);
            }
        }
    }
}

/// What a body over the limit was, in numbers, and what to do instead.
fn too_large(request: &axum::http::request::Parts, max: usize) -> String {
    let sent = request
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok()?.parse::<u64>().ok());
    let limit = words::size(max as u64);
    let (what, instead) = match request.uri.path() {
        "/check" => ("the paste", "check it by URL instead"),
        "/upload" => ("the upload", "upload fewer files at once, or check the feed by URL"),
        _ => ("the request body", "send less, or give the URL"),
    };
    match sent {
        Some(sent) => format!("{what} is {}; the limit is {limit}; {instead}", words::size(sent)),
        None => format!("{what} is larger than the limit of {limit}; {instead}"),
    }
}

/// Why a body was not read.
#[derive(Debug, PartialEq, Eq)]
enum BodyError {
    TooLarge,
    TooSlow,
    Broken,
}

/// Reads `body` whole: at most `max` bytes, and after [`BODY_GRACE`] at
/// least `min_rate` bytes a second on average (checked as each piece
/// arrives, and while none does).
async fn read_body(body: axum::body::Body, max: usize, min_rate: usize) -> Result<Bytes, BodyError> {
    use http_body_util::BodyExt as _;
    let started = tokio::time::Instant::now();
    // When the body must have reached `have` + 1 bytes, at the least rate.
    let due = |have: usize| {
        let rate = u64::try_from(min_rate.max(1)).unwrap_or(u64::MAX);
        let have = u64::try_from(have).unwrap_or(u64::MAX);
        started + BODY_GRACE + Duration::from_millis(have.saturating_mul(1000) / rate)
    };
    let mut body = body;
    let mut read = Vec::new();
    loop {
        let frame = match tokio::time::timeout_at(due(read.len()), body.frame()).await {
            Err(_) => return Err(BodyError::TooSlow),
            Ok(None) => break,
            Ok(Some(Err(_))) => return Err(BodyError::Broken),
            Ok(Some(Ok(frame))) => frame,
        };
        if let Ok(data) = frame.into_data() {
            if read.len() + data.len() > max {
                return Err(BodyError::TooLarge);
            }
            read.extend_from_slice(&data);
        }
    }
    Ok(Bytes::from(read))
}

fn too_slow(api: bool) -> Response {
    let message = "the request body came too slowly, or was cut off";
    let mut response = problem(api, StatusCode::REQUEST_TIMEOUT, "Too slow", message);
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// `503 Service Unavailable` with `Retry-After`, in the caller's terms.
fn busy(api: bool, why: &str) -> Response {
    let message = format!("the server is busy: {why}; try again in a few seconds");
    let mut response = problem(api, StatusCode::SERVICE_UNAVAILABLE, "Busy", &message);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    response
}

/// A refused request, in the caller's terms: a JSON error for the API, a
/// problem page for the web page.
fn problem(api: bool, status: StatusCode, title: &str, message: &str) -> Response {
    if api {
        (status, api_error(message)).into_response()
    } else {
        (status, html(page::problem(title, message))).into_response()
    }
}

pub(super) fn api_error(message: &str) -> Response {
    // Like a problem page, the error may echo a URL the client sent.
    let message = crate::base::secret::mask_text(message);
    (
        [(header::CONTENT_TYPE, "application/json")],
        serde_json::json!({ "error": message }).to_string(),
    )
        .into_response()
}
