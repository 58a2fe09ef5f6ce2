//! `feedlint serve`: the validator as a web page and a JSON API, served by
//! the binary itself, safe to put in front of strangers.
//!
//! Built on axum (on tokio and hyper, the most used and best kept HTTP
//! stack of the Rust ecosystem), with pages from maud templates, which
//! escape every value by default. Three ways in, as the W3C Feed
//! Validation Service has and more: a URL (fetched with the command line's
//! fetch stack, its address policy and limits, following archive and
//! paging chains), a pasted document, uploaded files (linted as one set).
//!
//! What a request may cost is bounded: its body (`max_body`), its files
//! (`max_files`), its fetches (the URL limits, per request), its time
//! (`time_limit`), and how many run at once (`jobs`) or wait (`queue`):
//! a request past those is answered `503` with `Retry-After` before its
//! body is read. Nothing is read from or written to the server's file
//! system but its own assets, which are in the binary.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Multipart, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Form, Router};
use serde::Deserialize;
use tokio::sync::Semaphore;
use url::Url;

use crate::fetch::Limits;
use crate::findings::rule_id::RuleId;
use crate::model::failure::Failure;
use crate::report::Format;
use crate::report::Report;
use crate::settings::config::Config;
use crate::settings::options::{FrontDoor, Options, Overrides};
use crate::{lint_in_memory, InMemory};
use listen::Peer;
use runs::Client;

mod admission;
mod badges;
mod chain_order;
mod downloads;
mod fixed;
mod health;
mod help;
mod layout;
mod listen;
mod page;
mod rule_page;
mod runs;
mod snippets;
mod source_view;
mod uploads;
mod words;

pub use admission::BODY_GRACE;
use admission::{admit, api_error, Slot};
pub use health::probe;
pub use listen::{connection_cap, ConnectionLimits};

/// What `feedlint serve` is started with.
#[derive(Clone)]
pub struct ServeOptions {
    pub listen: SocketAddr,
    /// Rule levels and the like, as for every run.
    pub lint: Options,
    /// The limits of each request's fetches (and its address policy).
    pub limits: Limits,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// The most files one upload holds.
    pub max_files: usize,
    /// Lint jobs run at once.
    pub jobs: usize,
    /// Requests that may wait for a job; more are answered 503 at once.
    pub queue: usize,
    /// How long a request waits for a job before it is answered 503.
    pub wait: Duration,
    /// The longest a request may take.
    pub time_limit: Duration,
    /// How connections are held: the header timeout, the connection cap.
    pub connections: ConnectionLimits,
    /// Request bodies read at once (before a job slot is taken); more are
    /// answered 503 at once.
    pub body_readers: usize,
    /// The slowest a body may arrive, in bytes a second, after a first
    /// [`BODY_GRACE`]: a client that trickles its body is cut off, and
    /// never held a job slot.
    pub min_body_rate: usize,
    /// The address people reach the server by: the links to copy (a
    /// badge, a result) are made from it.
    pub public_url: Option<Url>,
    /// Behind a reverse proxy: a request's client and host are the ones
    /// its `X-Forwarded-For`, `-Host` and `-Proto` headers name.
    pub trust_proxy: bool,
}

impl ServeOptions {
    /// What a server sets of every check's settings, over its config's.
    pub fn overrides() -> Overrides {
        // The page shows every finding's lines: the texts are kept; a run's
        // findings are bounded to what a page can show.
        Overrides {
            keep_texts: true,
            max_findings: Some(2_000),
            ..Overrides::default()
        }
    }

    /// The defaults, listening on `listen`.
    pub fn new(listen: SocketAddr) -> ServeOptions {
        let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
        let lint = Options::resolve(Config::default(), Self::overrides(), FrontDoor::Server)
            .expect("the defaults resolve")
            .options;
        ServeOptions {
            listen,
            lint,
            limits: Limits {
                max_documents: 50,
                max_time: Duration::from_secs(30),
                trust_start: false,
                ..Limits::default()
            },
            max_body: 8 * 1024 * 1024,
            max_files: 50,
            jobs,
            queue: 4 * jobs,
            wait: Duration::from_secs(10),
            time_limit: Duration::from_secs(60),
            connections: ConnectionLimits::default(),
            body_readers: 64,
            min_body_rate: 16 * 1024,
            public_url: None,
            trust_proxy: false,
        }
    }
}

/// The media URLs one check asks at most, where the server checks media.
pub const MAX_MEDIA: usize = 50;

impl ServeOptions {
    /// Checks the media of every feed checked (`feedlint serve
    /// --check-media`), under the server's fetching limits and address
    /// policy. Called once the rule settings are final.
    pub fn check_media(&mut self) {
        let checker = crate::fetch::media::MediaChecker::new(self.limits.clone(), MAX_MEDIA);
        self.lint = self.lint.clone().with_media(Some(Arc::new(checker)));
    }
}

/// Serves until the process is stopped; `ready` is told the address it
/// listens on (port 0 in `listen` picks a free one).
pub fn serve(options: ServeOptions, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.listen).await?;
        ready(listener.local_addr()?);
        let connections = options.connections;
        listen::serve(listener, app(options), connections).await
    })
}

/// The server's state: its settings, its job slots, and the reports of the
/// last runs (for their JSON and SARIF downloads).
struct App {
    options: ServeOptions,
    /// Requests whose body is being read.
    reading: Arc<Semaphore>,
    /// How many of those each client holds.
    readers: Arc<Mutex<std::collections::HashMap<Client, usize>>>,
    /// Requests in a job or waiting for one.
    admitted: Arc<Semaphore>,
    jobs: Arc<Semaphore>,
    runs: Mutex<runs::Runs>,
    badges: Mutex<badges::Badges>,
}

/// The router, for `serve` and for tests.
pub fn app(mut options: ServeOptions) -> Router {
    // The server's runs name limits and remedies as the page does.
    let page = words::Page::new(&options.limits, options.lint.max_file_size());
    options.lint = options.lint.clone().with_words(Arc::new(page));
    let app = Arc::new(App {
        reading: Arc::new(Semaphore::new(options.body_readers)),
        readers: Arc::default(),
        admitted: Arc::new(Semaphore::new(options.jobs + options.queue)),
        jobs: Arc::new(Semaphore::new(options.jobs)),
        runs: Mutex::new(runs::Runs::default()),
        badges: Mutex::new(badges::Badges::default()),
        options,
    });
    let linting = Router::new()
        .route("/check", get(check_url).post(check_text))
        .route("/upload", post(check_upload))
        .route("/api/lint", post(api_lint).get(api_lint_url))
        .route("/badge", get(badge))
        .layer(middleware::from_fn_with_state(Arc::clone(&app), admit));
    Router::new()
        .route("/", get(index))
        .route("/api", get(api_page))
        .route("/help/fetching", get(|| async { html(help::fetching()) }))
        .route("/rules", get(|| async { html(rule_page::rules()) }))
        .route("/rules/{id}", get(rule_page))
        .route("/runs/{id}/{file}", get(downloads::download))
        .route("/runs/{id}/source/{doc}", get(downloads::source))
        .route("/assets/style.css", get(style))
        .route("/healthz", get(health::healthz))
        .merge(linting)
        .fallback(|| async {
            (
                StatusCode::NOT_FOUND,
                html(page::problem("Not found", "There is no page here.")),
            )
        })
        .layer(DefaultBodyLimit::max(app.options.max_body))
        .layer(middleware::map_response(with_security_headers))
        .with_state(app)
}

/// Headers every response carries: the pages run no script and load
/// nothing from elsewhere (so an injected tag could do nothing), may not
/// be framed (no clickjacking), are never sniffed as another type, and
/// send no referrer (a checked URL may hold a token).
async fn with_security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"),
    );
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

fn html(markup: maud::Markup) -> Html<String> {
    Html(markup.into_string())
}

async fn index(State(app): State<Arc<App>>) -> Html<String> {
    html(page::index(
        app.options.max_body,
        app.options.max_files,
        app.options.lint.media().is_some(),
    ))
}

async fn api_page(State(app): State<Arc<App>>) -> Html<String> {
    html(help::api(app.options.max_body))
}

async fn rule_page(Path(id): Path<String>) -> Response {
    match id.parse::<RuleId>() {
        Ok(id) => html(rule_page::rule(id)).into_response(),
        Err(unknown) => (StatusCode::NOT_FOUND, html(rule_page::unknown(&unknown))).into_response(),
    }
}

async fn style() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "max-age=3600"),
        ],
        include_str!("style.css"),
    )
}

/// What a request asks to lint.
enum Work {
    /// Fetch this URL and follow its chains.
    Url(Url),
    /// A URL whose `https://` was guessed: its `http://` address is
    /// checked where no secure connection comes of it.
    GuessedUrl(Url),
    /// These documents, as one set.
    Documents(Vec<InMemory>),
    /// Uploaded files, as one tree, and the folder they are placed in.
    Upload(Vec<InMemory>, crate::run::uploads::Upload, url::Url),
}

/// What a check came to: its report, and the document with its safe
/// fixes applied where one document was checked and it has one.
struct Linted {
    report: Report,
    fixed: Option<fixed::FixedDocument>,
    /// The `http://` URL checked in place of a guessed `https://` one
    /// that could not be reached, and why it could not.
    instead: Option<(Url, &'static str)>,
}

/// Whether a check makes the fixed document: only a page offers it, and
/// making it lints the document again once or more.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fixed {
    Offered,
    NotOffered,
}

/// Lints on a blocking thread (linting is CPU work, fetching blocks), with
/// the request's job slot held until the work ends; and makes the fixed
/// document where it is `offered`, within the request's time.
async fn lint(app: &Arc<App>, slot: Slot, work: Work, offered: Fixed) -> Linted {
    let options = app.options.clone();
    let held = slot.take();
    let deadline = std::time::Instant::now() + options.time_limit;
    let linted = tokio::task::spawn_blocking(move || {
        let _held = held;
        let alone = match &work {
            Work::Documents(documents) | Work::Upload(documents, _, _)
                if documents.len() == 1 && offered == Fixed::Offered =>
            {
                Some(documents[0].clone())
            }
            _ => None,
        };
        let lint_url = |url: &Url| {
            crate::fetch::lint_urls(
                std::slice::from_ref(url),
                &options.limits,
                &options.lint,
                &mut |_, _| {},
            )
            .unwrap_or_else(failed)
        };
        let mut instead = None;
        let report = match work {
            Work::Url(url) => lint_url(&url),
            Work::GuessedUrl(url) => {
                let report = lint_url(&url);
                let mut plain = url.clone();
                match unreached(&report) {
                    Some(why) if plain.set_scheme("http").is_ok() => {
                        instead = Some((plain.clone(), why));
                        lint_url(&plain)
                    }
                    _ => report,
                }
            }
            Work::Documents(documents) => lint_in_memory(documents, &[], &options.lint).unwrap_or_else(invalid),
            Work::Upload(documents, upload, tree) => {
                crate::run::uploads::lint_upload(documents, upload, &tree, &options.lint).unwrap_or_else(invalid)
            }
        };
        let mut report = report;
        words::reword_failures(&mut report.failures);
        let fixed = alone.and_then(|document| fixed::fixed(document, &report, &options.lint, deadline));
        Linted { report, fixed, instead }
    })
    .await;
    linted.unwrap_or_else(|_| Linted {
        instead: None,
        report: failed(Failure::Unfetchable {
            url: String::new(),
            message: "the check failed unexpectedly".to_owned(),
            reason: crate::Unreached::Other,
        }),
        fixed: None,
    })
}

/// The check of a URL: where its `https://` was guessed (`said` says so),
/// an `http://` server is tried next.
fn url_work(url: Url, said: Option<&String>) -> Work {
    if said.is_some() {
        Work::GuessedUrl(url)
    } else {
        Work::Url(url)
    }
}

/// Why a URL gave no secure connection, where it gave none: a refused
/// connection, a failed TLS handshake, or a connection closed unanswered
/// (an http:// server may answer there); not a status or a timeout, which
/// the http:// address would only repeat, or make the person wait twice
/// for.
fn unreached(report: &Report) -> Option<&'static str> {
    report.failures.iter().find_map(|failure| match failure {
        Failure::Unfetchable {
            reason: crate::Unreached::Tls,
            ..
        } => Some("the secure connection failed"),
        Failure::Unfetchable {
            reason: crate::Unreached::ConnectionRefused,
            ..
        } => Some("the server refused the connection"),
        Failure::Unfetchable {
            reason: crate::Unreached::Closed,
            ..
        } => Some("the server closed the connection without answering"),
        _ => None,
    })
}

/// A report of nothing linted because a URL given is not one.
fn invalid(invalid: crate::settings::options::InvalidUrl) -> Report {
    failed(Failure::Unfetchable {
        url: invalid.url.clone(),
        message: invalid.to_string(),
        reason: crate::Unreached::Other,
    })
}

/// A report of nothing linted, with why.
fn failed(failure: Failure) -> Report {
    let mut report = Report::default();
    report.failures.push(failure);
    report
}

/// A run's result page, its JSON and SARIF (and the fixed document) kept
/// for download (in `client`'s share of the store), with the form to check
/// the input again.
fn result_page(app: &App, client: Client, linted: Linted, about: page::About) -> Html<String> {
    let Linted { report, fixed, .. } = linted;
    let (json, sarif) = (render(&report, Format::Json), render(&report, Format::Sarif));
    let sources: Vec<(&str, &str)> = report
        .documents
        .iter()
        .map(|document| (document.name.as_str(), document.text().unwrap_or_default()))
        .collect();
    let kept = runs::Kept {
        json: &json,
        sarif: &sarif,
        fixed: fixed.as_ref().map(|fixed| (fixed.name.clone(), &fixed.bytes[..])),
        sources: &sources,
    };
    let run = kept.compressed(client);
    let run = app.runs.lock().unwrap_or_else(PoisonError::into_inner).keep(run);
    let title = format!("Results for {}", about.what);
    let checked = page::Checked {
        about,
        fixed: fixed.as_ref(),
    };
    html(layout::layout(&title, page::result(&report, &run, &checked)))
}

/// The URL to check from what was typed: `feed:` URLs are the http(s)
/// URLs they wrap, and a URL without a scheme gets `https://`, which the
/// page then says.
fn url_to_check(typed: &str) -> Result<(Url, Option<String>), String> {
    let typed = typed.trim();
    // `feed:` in any case, as people and browsers write it (`FEED://`).
    let feed = typed
        .get(..5)
        .filter(|scheme| scheme.eq_ignore_ascii_case("feed:"))
        .and_then(|_| typed.get(5..));
    let unwrapped = match feed {
        Some(rest) if rest.starts_with("//") => format!("http:{rest}"),
        Some(rest) => rest.to_owned(),
        None => typed.to_owned(),
    };
    let has_scheme = unwrapped.split_once(':').is_some_and(|(scheme, rest)| {
        rest.starts_with("//")
            && !scheme.is_empty()
            && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
    });
    let (text, said) = if has_scheme {
        (unwrapped, None)
    } else {
        let text = format!("https://{}", unwrapped.trim_start_matches('/'));
        let said = format!("No scheme was given: checked {text}");
        (text, Some(said))
    };
    match Url::parse(&text) {
        Ok(url) if matches!(url.scheme(), "http" | "https") => Ok((url, said)),
        Ok(_) => Err(format!(
            "{typed} is not fetched: feeds are checked from http:// and https:// URLs"
        )),
        Err(error) => Err(format!("{typed} is not a URL: {error}")),
    }
}

/// The client a request's address names.
fn client_of(peer: Option<Extension<Peer>>) -> Client {
    peer.map_or(Client::UNKNOWN, |Extension(Peer(address))| Client::of(address))
}

fn render(report: &Report, format: Format) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = crate::report::write(report, format, false, &mut out);
    out
}

#[derive(Deserialize)]
struct UrlQuery {
    url: Option<String>,
    /// `json`: the JSON report instead of the page.
    format: Option<String>,
}

/// The JSON report of a check, as the API answers it.
fn json_response(report: &Report) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        render(report, Format::Json),
    )
        .into_response()
}

/// `GET /api/lint?url=URL`: the JSON report for a URL, for one-line use in
/// scripts.
async fn api_lint_url(
    State(app): State<Arc<App>>,
    Extension(slot): Extension<Slot>,
    Query(query): Query<UrlQuery>,
) -> Response {
    let Some(text) = query.url.filter(|url| !url.trim().is_empty()) else {
        return (StatusCode::BAD_REQUEST, api_error("give the URL of a feed: ?url=")).into_response();
    };
    match url_to_check(&text) {
        Ok((url, said)) => json_response(
            &lint(&app, slot, url_work(url, said.as_ref()), Fixed::NotOffered)
                .await
                .report,
        ),
        Err(message) => (StatusCode::BAD_REQUEST, api_error(&message)).into_response(),
    }
}

/// `GET /badge?url=URL`: the feed's badge, from the cache of recent
/// verdicts (see [`badges`]).
async fn badge(
    State(app): State<Arc<App>>,
    Extension(slot): Extension<Slot>,
    Query(query): Query<UrlQuery>,
) -> Response {
    let checked = query.url.as_deref().map(url_to_check);
    // The badge may be kept as long as its verdict stays in the cache: a
    // browser asks again when the server would check the feed again.
    let (verdict, fresh) = match checked {
        Some(Ok((url, _))) => {
            let key = url.to_string();
            let cached = app
                .badges
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_fresh(&key, std::time::Instant::now());
            match cached {
                Some(cached) => cached,
                None => {
                    let verdict =
                        badges::Verdict::of(&lint(&app, slot, Work::Url(url), Fixed::NotOffered).await.report);
                    let mut badges = app.badges.lock().unwrap_or_else(PoisonError::into_inner);
                    badges.put(&key, verdict, std::time::Instant::now());
                    (verdict, badges::TIME_TO_LIVE)
                }
            }
        }
        _ => (badges::Verdict::Unchecked, badges::TIME_TO_LIVE),
    };
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml".to_owned()),
            (header::CACHE_CONTROL, format!("max-age={}", fresh.as_secs())),
        ],
        verdict.svg(),
    )
        .into_response()
}

/// `GET /check?url=URL`: the linkable result page for a URL.
async fn check_url(
    State(app): State<Arc<App>>,
    Extension(slot): Extension<Slot>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    Query(query): Query<UrlQuery>,
) -> Response {
    // Asked for JSON, every answer is JSON, a refusal too.
    let json = query.format.as_deref() == Some("json");
    let Some(text) = query.url.filter(|url| !url.trim().is_empty()) else {
        if json {
            return (StatusCode::BAD_REQUEST, api_error("give the URL of a feed: ?url=")).into_response();
        }
        return (
            StatusCode::BAD_REQUEST,
            html(page::problem_with(
                "No URL",
                "Give the URL of a feed to check.",
                Some(&page::Retry::Url("")),
            )),
        )
            .into_response();
    };
    let (url, said) = match url_to_check(&text) {
        Ok(checked) => checked,
        Err(message) if json => return (StatusCode::BAD_REQUEST, api_error(&message)).into_response(),
        Err(message) => {
            let typed = crate::base::secret::mask_text(&text);
            let retry = page::Retry::Url(&typed);
            return (
                StatusCode::BAD_REQUEST,
                html(page::problem_with("Not an http(s) URL", &message, Some(&retry))),
            )
                .into_response();
        }
    };
    let linted = lint(&app, slot, url_work(url.clone(), said.as_ref()), Fixed::NotOffered).await;
    let (url, said) = match &linted.instead {
        Some((plain, why)) => (
            plain.clone(),
            Some(format!(
                "No scheme was given: {url} could not be reached ({why}), so {plain} was checked"
            )),
        ),
        None => (url, said),
    };
    let shown = crate::base::secret::masked(&url).to_string();
    // The verdict is the badge's too: the page's preview of it, and a
    // badge asked for soon after, come from the cache, not a second fetch.
    app.badges.lock().unwrap_or_else(PoisonError::into_inner).put(
        url.as_str(),
        badges::Verdict::of(&linted.report),
        std::time::Instant::now(),
    );
    if query.format.as_deref() == Some("json") {
        return json_response(&linted.report);
    }
    let said = said.map(|said| crate::base::secret::mask_text(&said).into_owned());
    let retry = page::Retry::Url(&shown);
    let about = page::About {
        what: &shown,
        retry,
        said: said.as_deref(),
        share: Some(page::Share::of(&public_base(&app.options, &headers), &shown)),
    };
    result_page(&app, client_of(peer), linted, about).into_response()
}

/// Where the server is reached, for the links the page gives to copy: the
/// `--public-url`; else, behind a trusted proxy, the host and scheme it
/// forwards; else the request's `Host`, over http. No trailing slash.
fn public_base(options: &ServeOptions, headers: &HeaderMap) -> String {
    if let Some(url) = &options.public_url {
        return url.as_str().trim_end_matches('/').to_owned();
    }
    let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
    let forwarded = options
        .trust_proxy
        .then(|| header("x-forwarded-host"))
        .flatten()
        .map(|host| {
            let scheme = match header("x-forwarded-proto") {
                Some("https") => "https",
                _ => "http",
            };
            (scheme, host)
        });
    let (scheme, host) = forwarded.unwrap_or(("http", header("host").unwrap_or("localhost")));
    // A name, a port and nothing else: a header is the client's to write.
    let host: String = host
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
        .collect();
    format!("{scheme}://{host}")
}

#[derive(Deserialize)]
struct TextForm {
    text: String,
    #[serde(default)]
    published: String,
}

/// `POST /check`: a pasted document.
async fn check_text(
    State(app): State<Arc<App>>,
    Extension(slot): Extension<Slot>,
    peer: Option<Extension<Peer>>,
    Form(form): Form<TextForm>,
) -> Response {
    // A password in the URL is not put back on the page.
    let published = crate::base::secret::mask_text(&form.published).into_owned();
    let retry = page::Retry::Paste {
        text: &form.text,
        published: &published,
    };
    let url = match uploads::published_url(&form.published) {
        Ok(published) => published.map_or_else(|| uploads::PASTED.to_owned(), String::from),
        Err(message) => {
            let page = page::problem_with("Not a URL", &message, Some(&retry));
            return (StatusCode::BAD_REQUEST, html(page)).into_response();
        }
    };
    if form.text.trim().is_empty() {
        let page = page::problem_with(
            "Nothing to check",
            "The paste is empty: paste the text of a feed.",
            Some(&retry),
        );
        return (StatusCode::BAD_REQUEST, html(page)).into_response();
    }
    // A URL pasted where the feed's text goes: the URL form is meant.
    let pasted = form.text.trim();
    let looks_like_url = pasted.contains("://")
        || pasted.get(..5).is_some_and(|start| start.eq_ignore_ascii_case("feed:"))
        || pasted.starts_with("www.")
        || (pasted.contains('.') && pasted.contains('/'));
    if looks_like_url && !pasted.contains(['<', '\n', ' ']) {
        if let Ok((url, _)) = url_to_check(pasted) {
            let page = page::pasted_url(crate::base::secret::masked(&url).as_ref());
            return (StatusCode::BAD_REQUEST, html(page)).into_response();
        }
    }
    let document = InMemory {
        name: "pasted document".to_owned(),
        url: Some(url),
        bytes: form.text.clone().into_bytes(),
    };
    let linted = lint(&app, slot, Work::Documents(vec![document]), Fixed::Offered).await;
    let retry = page::Retry::Paste {
        text: &form.text,
        published: &published,
    };
    let about = page::About {
        what: "the pasted document",
        retry,
        said: None,
        share: None,
    };
    result_page(&app, client_of(peer), linted, about).into_response()
}

/// A problem with an upload, and the way back to the upload form: files
/// cannot be chosen again for the person, but the form is one click away.
fn upload_problem(title: &str, message: &str) -> Html<String> {
    html(page::problem_with(title, message, Some(&page::Retry::Upload)))
}

/// `POST /upload`: files, linted as one set.
async fn check_upload(
    State(app): State<Arc<App>>,
    Extension(slot): Extension<Slot>,
    peer: Option<Extension<Peer>>,
    mut multipart: Multipart,
) -> Response {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut published = String::new();
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(error) => return (error.status(), upload_problem("Upload failed", &error.body_text())).into_response(),
        };
        if field.name() == Some("published") {
            match field.text().await {
                Ok(text) => published = text,
                Err(error) => {
                    return (error.status(), upload_problem("Upload failed", &error.body_text())).into_response()
                }
            }
            continue;
        }
        if field.name() != Some("files") {
            continue;
        }
        if files.len() == app.options.max_files {
            let message = format!("at most {} files are checked at once", app.options.max_files);
            return (
                StatusCode::PAYLOAD_TOO_LARGE,
                upload_problem("Too many files", &message),
            )
                .into_response();
        }
        // A folder's files are named by their path in it.
        let path = field
            .file_name()
            .and_then(uploads::upload_path)
            .unwrap_or_else(|| "upload".to_owned());
        match field.bytes().await {
            Ok(bytes) => files.push((path, bytes.to_vec())),
            Err(error) => return (error.status(), upload_problem("Upload failed", &error.body_text())).into_response(),
        }
    }
    if files.is_empty() {
        return (
            StatusCode::BAD_REQUEST,
            upload_problem("No files", "Choose the feed files to check."),
        )
            .into_response();
    }
    let published = match uploads::published_url(&published) {
        Ok(published) => published,
        Err(message) => return (StatusCode::BAD_REQUEST, upload_problem("Not a URL", &message)).into_response(),
    };
    let (documents, upload, tree) = uploads::place(files, published.as_ref());
    // A file chosen alone that is no text says so; a folder's other files
    // are skipped, as a walk skips them.
    if let Some(binary) = documents
        .iter()
        .find(|document| upload != crate::run::uploads::Upload::Folder && uploads::is_binary(&document.bytes))
    {
        let message = format!("{} is a binary file, not a text feed.", binary.name);
        return (StatusCode::BAD_REQUEST, upload_problem("Not a feed", &message)).into_response();
    }
    let checked = match documents.len() {
        1 => documents[0].name.clone(),
        n => format!("{n} uploaded files"),
    };
    let uploaded: Vec<String> = documents.iter().map(|document| document.name.clone()).collect();
    let linted = lint(&app, slot, Work::Upload(documents, upload, tree), Fixed::Offered).await;
    let skipped = skipped_files(&uploaded, &linted.report);
    let about = page::About {
        what: &checked,
        retry: page::Retry::Upload,
        said: skipped.as_deref(),
        share: None,
    };
    result_page(&app, client_of(peer), linted, about).into_response()
}

/// The uploaded files a folder's walk skipped (no feed, as the command
/// line skips them), named: "sitemap.xml was skipped: it is no feed."
fn skipped_files(uploaded: &[String], report: &Report) -> Option<String> {
    /// The most names said; past them, how many more.
    const MOST_NAMED: usize = 10;
    let read: crate::base::hash::FastSet<&str> =
        report.documents.iter().map(|document| document.name.as_str()).collect();
    let skipped: Vec<&str> = uploaded
        .iter()
        .map(String::as_str)
        .filter(|name| !read.contains(name))
        .collect();
    let named = skipped.iter().take(MOST_NAMED).copied().collect::<Vec<_>>().join(", ");
    match skipped.len() {
        0 => None,
        1 => Some(format!("{named} was skipped: it is no feed.")),
        n if n <= MOST_NAMED => Some(format!("{n} files were skipped, no feeds: {named}.")),
        n => Some(format!(
            "{n} files were skipped, no feeds: {named} and {} more.",
            n - MOST_NAMED
        )),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ApiRequest {
    url: Option<String>,
    documents: Option<Vec<ApiDocument>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ApiDocument {
    name: String,
    text: String,
    url: Option<String>,
}

#[derive(Deserialize)]
struct ApiQuery {
    name: Option<String>,
    url: Option<String>,
}

/// `POST /api/lint`: the JSON report, as `--format json` writes it.
async fn api_lint(
    State(app): State<Arc<App>>,
    Extension(slot): Extension<Slot>,
    Query(query): Query<ApiQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    let work = if json {
        match serde_json::from_slice::<ApiRequest>(&body) {
            Ok(ApiRequest {
                url: Some(url),
                documents: None,
            }) => match url_to_check(&url) {
                Ok((url, said)) => url_work(url, said.as_ref()),
                Err(message) => return (StatusCode::BAD_REQUEST, api_error(&message)).into_response(),
            },
            Ok(ApiRequest {
                url: None,
                documents: Some(documents),
            }) if !documents.is_empty() && documents.len() <= app.options.max_files => Work::Documents(
                documents
                    .into_iter()
                    .map(|d| InMemory {
                        url: Some(d.url.unwrap_or_else(|| uploads::in_upload_space(&d.name))),
                        name: d.name,
                        bytes: d.text.into_bytes(),
                    })
                    .collect(),
            ),
            Ok(_) => {
                let message = format!("give either \"url\" or \"documents\" (1 to {})", app.options.max_files);
                return (StatusCode::BAD_REQUEST, api_error(&message)).into_response();
            }
            Err(error) => {
                return (
                    StatusCode::BAD_REQUEST,
                    api_error(&format!("the body is not a lint request: {error}")),
                )
                    .into_response()
            }
        }
    } else if body.iter().all(u8::is_ascii_whitespace) {
        // Nothing to check is no document to check.
        return (
            StatusCode::BAD_REQUEST,
            api_error("the body is empty: send a document, or JSON with \"url\" or \"documents\""),
        )
            .into_response();
    } else {
        let name = query.name.unwrap_or_else(|| "document".to_owned());
        Work::Documents(vec![InMemory {
            url: Some(query.url.unwrap_or_else(|| uploads::in_upload_space(&name))),
            name,
            bytes: body.to_vec(),
        }])
    };
    let report = lint(&app, slot, work, Fixed::NotOffered).await.report;
    (
        [(header::CONTENT_TYPE, "application/json")],
        render(&report, Format::Json),
    )
        .into_response()
}
