//! The media check (`--check-media`): each enclosure and artwork URL the
//! linted documents name is asked, once, what its server holds: HEAD, and
//! a ranged GET where HEAD fails or says nothing of byte ranges (artwork:
//! its first 64 KiB, for the image's real format, size and colour space).
//! Every request meets the walk's address policy and limits; at most
//! [`PER_HOST`] go to one server at once (one origin, and one address:
//! forty names of one server are one server), at most `max_media` URLs are
//! asked in a run, and at most [`REQUESTS_PER_URL`] requests a URL on
//! average, every redirect hop one.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use url::Url;

use super::http::{Answer, Ask, Client, FetchError};
use super::policy::{AddressPolicy, Credentials};
use super::{Limits, PER_HOST};
use crate::diagnostic::{DocId, Pending, Span};
use crate::options::Walked;
use crate::rules::media::{
    types_agree, ARTWORK_NOT_RGB, ARTWORK_NOT_SQUARE, ARTWORK_WRONG_FORMAT, ARTWORK_WRONG_SIZE, MEDIA_HEAD_REFUSED,
    MEDIA_LENGTH_MISMATCH, MEDIA_LIMIT_REACHED, MEDIA_NO_BYTE_RANGES, MEDIA_REDIRECTS_TO_HTTPS, MEDIA_TYPE_MISMATCH,
    MEDIA_UNAVAILABLE, MEDIA_UNREACHABLE,
};
use crate::rules::Rule;
use crate::summary::{MediaKind, MediaRef};

/// The media URLs a run asks by default (`--max-media`).
pub const DEFAULT_MAX_MEDIA: usize = 200;

/// The requests the check makes for each URL it asks, on average: a HEAD
/// and a GET. Redirect hops spend them too, so a feed whose files all
/// redirect six times makes no more requests than one whose files do not:
/// it gets fewer of them asked.
pub const REQUESTS_PER_URL: usize = 2;

/// The bytes of artwork read: enough for the image header of a JPEG
/// behind its metadata (EXIF, a colour profile), in one request.
const ARTWORK_BYTES: u64 = 64 * 1024;

/// How long the check runs before it shows its progress.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// Apple's and PSP-1's bounds for artwork, in pixels on each side.
const ARTWORK_PIXELS: std::ops::RangeInclusive<usize> = 1400..=3000;

/// How far the check has come: URLs asked, of how many.
pub type Progress = dyn Fn(usize, usize) + Send + Sync;

/// The media check of a run, as `--check-media` and its limits set it.
pub struct MediaChecker {
    limits: Limits,
    max_media: usize,
    /// Told how far the check has come, once it has run for a second.
    progress: Option<Arc<Progress>>,
}

impl std::fmt::Debug for MediaChecker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MediaChecker")
            .field("limits", &self.limits)
            .field("max_media", &self.max_media)
            .finish_non_exhaustive()
    }
}

impl MediaChecker {
    /// A check under `limits` (those of fetching: the address policy,
    /// timeouts, redirects, `--max-time`, `--jobs`), asking at most
    /// `max_media` URLs.
    pub fn new(limits: Limits, max_media: usize) -> Self {
        MediaChecker {
            limits,
            max_media,
            progress: None,
        }
    }

    /// Tells `progress` how far the check has come, after its first second.
    pub fn with_progress(mut self, progress: Arc<Progress>) -> Self {
        self.progress = Some(progress);
        self
    }
}

type Finding = (&'static Rule, Pending<Span>);

/// One URL to ask, and every place the documents name it.
struct Target<'m> {
    /// As the documents write it; a password in it is masked in what is
    /// said, and sent only to its own origin.
    url: &'m str,
    artwork: bool,
    named_at: Vec<(DocId, usize)>,
}

impl crate::options::MediaCheck for MediaChecker {
    fn check(&self, media: &[(DocId, &[MediaRef])], walk: Option<&Walked>, found: &mut dyn FnMut(Finding)) {
        let started = Instant::now();
        let deadline = walk.map_or(started + self.limits.max_time, |walk| walk.deadline);
        let start: &[Url] = walk.map_or(&[], |walk| &walk.start);
        // The start URLs open their address space as they do to the walk's
        // links; a stranger's (the server's) open nothing.
        let policy = match walk {
            Some(walk) if self.limits.trust_start => {
                AddressPolicy::for_start(&walk.start_addresses, self.limits.allow_private_addresses)
            }
            _ => AddressPolicy::new(self.limits.allow_private_addresses),
        };
        // Media is where the feed names it, on other origins (a content
        // delivery network) as often as not: --same-origin keeps the walk
        // home, not the media check.
        let limits = Limits {
            same_origin: false,
            ..self.limits.clone()
        };
        let credentials = Credentials::default();
        let targets = targets(media);
        let asked = targets.len().min(self.max_media);
        let client = Client::new(&limits, policy, start, credentials)
            .with_request_budget(asked.saturating_mul(REQUESTS_PER_URL));
        // Only the URLs asked are parsed.
        let parsed: Vec<Result<Url, String>> = targets[..asked]
            .iter()
            .map(|target| Url::parse(target.url).map_err(|e| format!("it is not a valid URL: {e}")))
            .collect();
        let answers = self.ask_all(&client, &targets[..asked], &parsed, deadline, started);
        let by_doc: HashMap<DocId, &[MediaRef]> = media.iter().copied().collect();
        let refs = |doc: DocId, index: usize| by_doc.get(&doc).and_then(|refs| refs.get(index));
        let mut not_asked = Vec::new();
        for ((target, answer), url) in targets.iter().zip(answers).zip(&parsed) {
            let Some(heard) = answer else {
                not_asked.push(target);
                continue;
            };
            let url = match url {
                Ok(url) => url,
                Err(why) => {
                    let (doc, index) = target.named_at[0];
                    refs(doc, index)
                        .map(|named| not_a_url(named, doc, why))
                        .into_iter()
                        .for_each(&mut *found);
                    continue;
                }
            };
            // What the server says of the file is said once, where the
            // file is first named; a type or length, at each place that
            // writes one.
            for (nth, &(doc, index)) in target.named_at.iter().enumerate() {
                if let Some(named) = refs(doc, index) {
                    judge(named, url, doc, &heard, nth == 0)
                        .into_iter()
                        .for_each(&mut *found);
                }
            }
        }
        not_asked.extend(&targets[asked..]);
        if let Some(first) = not_asked.first() {
            let (doc, index) = first.named_at[0];
            if let Some(named) = refs(doc, index) {
                let why = if asked < targets.len() && not_asked.len() == targets.len() - asked {
                    format!("the media check stopped at {} URLs (--max-media)", self.max_media)
                } else if client.requests_spent() {
                    format!(
                        "the media check made the {} requests its {asked} URLs allow ({REQUESTS_PER_URL} a URL, redirects included)",
                        asked * REQUESTS_PER_URL
                    )
                } else {
                    format!(
                        "the media check ran out of time ({} seconds, --max-time)",
                        self.limits.max_time.as_secs_f64()
                    )
                };
                found((
                    &MEDIA_LIMIT_REACHED,
                    Pending::new(
                        named.at.in_doc(doc),
                        format!(
                            "{why}; {} more media URLs, {} first, were not asked",
                            not_asked.len(),
                            crate::secret::mask_text(first.url)
                        ),
                    )
                    .label("not asked")
                    .note("every request feedlint makes is bounded: a feed can name thousands of files")
                    .help("raise --max-media or --max-time to check every file"),
                ));
            }
        }
    }
}

/// The URLs to ask, each once, in the order the documents name them.
fn targets<'m>(media: &[(DocId, &'m [MediaRef])]) -> Vec<Target<'m>> {
    let mut targets: Vec<Target> = Vec::new();
    let mut by_url: HashMap<(&str, bool), usize> = HashMap::new();
    for &(doc, refs) in media {
        for (index, named) in refs.iter().enumerate() {
            let artwork = matches!(named.kind, MediaKind::Artwork);
            let at = *by_url.entry((named.url.as_str(), artwork)).or_insert_with(|| {
                targets.push(Target {
                    url: &named.url,
                    artwork,
                    named_at: Vec::new(),
                });
                targets.len() - 1
            });
            targets[at].named_at.push((doc, index));
        }
    }
    targets
}

/// What the servers said of one URL.
enum Heard {
    Answered {
        /// The answer judged: HEAD's, or the ranged GET's where HEAD failed.
        answer: Answer,
        /// Whether byte ranges are taken, where asked.
        ranges: Option<bool>,
        /// HEAD failed, and GET answered.
        head_refused: bool,
    },
    Failed(FetchError),
}

/// The state the asking threads share: the servers with a free slot (one
/// entry per slot, so that at most [`PER_HOST`] requests go to one), each
/// server's URLs not yet asked, and how many requests are in flight.
struct Queue {
    ready: VecDeque<usize>,
    waiting: Vec<VecDeque<usize>>,
    in_flight: usize,
}

impl MediaChecker {
    /// Asks every target, `jobs` at once, [`PER_HOST`] to one server; a
    /// target left when the deadline passes is `None`.
    fn ask_all(
        &self,
        client: &Client,
        targets: &[Target],
        urls: &[Result<Url, String>],
        deadline: Instant,
        started: Instant,
    ) -> Vec<Option<Heard>> {
        let servers = servers(urls, self.limits.jobs.max(1), deadline);
        // A queue per server (an address, or an origin that did not
        // resolve), each with at most PER_HOST requests in flight.
        let mut by_server: HashMap<&str, usize> = HashMap::new();
        let mut waiting: Vec<VecDeque<usize>> = Vec::new();
        let mut heard: Vec<Mutex<Option<Heard>>> = Vec::with_capacity(targets.len());
        for (index, url) in urls.iter().enumerate() {
            if let Err(why) = url {
                heard.push(Mutex::new(Some(Heard::Failed(FetchError::Other(why.clone())))));
                continue;
            }
            heard.push(Mutex::new(None));
            let server = *by_server.entry(servers[index].as_str()).or_insert_with(|| {
                waiting.push(VecDeque::new());
                waiting.len() - 1
            });
            waiting[server].push_back(index);
        }
        let total: usize = waiting.iter().map(VecDeque::len).sum();
        let ready = waiting
            .iter()
            .enumerate()
            .flat_map(|(server, urls)| std::iter::repeat_n(server, urls.len().min(PER_HOST)))
            .collect();
        let queue = Mutex::new(Queue {
            ready,
            waiting,
            in_flight: 0,
        });
        let freed = Condvar::new();
        let done = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..self.limits.jobs.max(1).min(total) {
                scope.spawn(|| {
                    while let Some((server, index)) = next(&queue, &freed, deadline) {
                        let answer = match &urls[index] {
                            Ok(url) if targets[index].artwork => ask_artwork(client, url, deadline),
                            Ok(url) => ask_enclosure(client, url, deadline),
                            Err(why) => Heard::Failed(FetchError::Other(why.clone())),
                        };
                        // A request cut by the deadline or the request
                        // budget is a URL not asked.
                        if !matches!(answer, Heard::Failed(FetchError::OutOfTime | FetchError::OutOfRequests)) {
                            *heard[index].lock().unwrap_or_else(PoisonError::into_inner) = Some(answer);
                        }
                        let asked = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if let Some(progress) = self.progress.as_ref().filter(|_| started.elapsed() >= QUIET_FOR) {
                            progress(asked, total);
                        }
                        let mut queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
                        queue.in_flight -= 1;
                        if !queue.waiting[server].is_empty() {
                            queue.ready.push_back(server);
                        }
                        freed.notify_all();
                    }
                });
            }
        });
        heard
            .into_iter()
            .map(|slot| slot.into_inner().unwrap_or_else(PoisonError::into_inner))
            .collect()
    }
}

/// Which server each URL is on, for the cap on requests at once: the first
/// address its host resolves to (forty names of one server share it), or
/// its origin where the host does not resolve (the request then fails on
/// its own). Each host is resolved once, `jobs` at a time; those not
/// resolved by `deadline` are known by their origin.
fn servers(urls: &[Result<Url, String>], jobs: usize, deadline: Instant) -> Vec<String> {
    let host_key = |url: &Url| {
        (
            url.host_str().unwrap_or_default().to_owned(),
            url.port_or_known_default(),
        )
    };
    let mut hosts: Vec<&Url> = Vec::new();
    let mut host_of: HashMap<(String, Option<u16>), usize> = HashMap::new();
    for url in urls.iter().flatten() {
        host_of.entry(host_key(url)).or_insert_with(|| {
            hosts.push(url);
            hosts.len() - 1
        });
    }
    let next = AtomicUsize::new(0);
    let resolved: Vec<Mutex<Option<std::net::IpAddr>>> = hosts.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(hosts.len()) {
            scope.spawn(|| loop {
                let at = next.fetch_add(1, Ordering::Relaxed);
                if at >= hosts.len() || Instant::now() >= deadline {
                    return;
                }
                let address = super::policy::addresses_of(hosts[at]).first().copied();
                *resolved[at].lock().unwrap_or_else(PoisonError::into_inner) = address;
            });
        }
    });
    let resolved: Vec<Option<std::net::IpAddr>> = resolved
        .into_iter()
        .map(|address| address.into_inner().unwrap_or_else(PoisonError::into_inner))
        .collect();
    urls.iter()
        .map(|url| match url {
            Ok(url) => match resolved[host_of[&host_key(url)]] {
                Some(address) => address.to_string(),
                None => url.origin().ascii_serialization(),
            },
            Err(_) => String::new(),
        })
        .collect()
}

/// The next URL to ask and its server, waiting for a slot while requests
/// are in flight; `None` when nothing is left, or the deadline passed.
fn next(queue: &Mutex<Queue>, freed: &Condvar, deadline: Instant) -> Option<(usize, usize)> {
    let mut queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        if Instant::now() >= deadline {
            return None;
        }
        if let Some(server) = queue.ready.pop_front() {
            let index = queue.waiting[server].pop_front()?;
            queue.in_flight += 1;
            return Some((server, index));
        }
        if queue.in_flight == 0 {
            return None;
        }
        queue = freed.wait(queue).unwrap_or_else(PoisonError::into_inner);
    }
}

/// Whether a request that failed is worth one more of another method: not
/// when a limit or the address policy stopped it, which the next would meet
/// the same.
fn worth_another_try(error: &FetchError) -> bool {
    matches!(error, FetchError::Other(_) | FetchError::Status(_))
}

/// An enclosure: HEAD; a one-byte ranged GET where HEAD fails or names no
/// byte ranges.
fn ask_enclosure(client: &Client, url: &Url, deadline: Instant) -> Heard {
    let head = match client.ask(url, Ask::Head, deadline) {
        Ok(answer) if answer.status < 400 && answer.accepts_ranges => return answered(answer, Some(true)),
        Err(error) if !worth_another_try(&error) => return Heard::Failed(error),
        head => head.ok().filter(|answer| answer.status < 400),
    };
    let get = client.ask(url, Ask::FirstBytes(0), deadline);
    let ranges = get.as_ref().ok().and_then(|answer| match answer.status {
        206 => Some(true),
        200 => Some(false),
        _ => None,
    });
    match (head, get) {
        // HEAD answered: its answer is judged, the GET told of ranges.
        (Some(mut head), get) => {
            if head.content_length.is_none() {
                head.content_length = get.ok().and_then(|get| get.content_range_total);
            }
            answered(head, ranges)
        }
        (None, Ok(get)) => answered(get, ranges),
        (None, Err(error)) => Heard::Failed(error),
    }
}

fn answered(answer: Answer, ranges: Option<bool>) -> Heard {
    Heard::Answered {
        answer,
        ranges,
        head_refused: false,
    }
}

/// Artwork: HEAD (PSP-1 asks that it be answered), then its first bytes.
fn ask_artwork(client: &Client, url: &Url, deadline: Instant) -> Heard {
    let head_answered = match client.ask(url, Ask::Head, deadline) {
        Ok(answer) => answer.status < 400,
        Err(error) if !worth_another_try(&error) => return Heard::Failed(error),
        Err(_) => false,
    };
    match client.ask(url, Ask::FirstBytes(ARTWORK_BYTES - 1), deadline) {
        Ok(get) => Heard::Answered {
            head_refused: !head_answered && get.status < 400,
            answer: get,
            ranges: None,
        },
        Err(error) => Heard::Failed(error),
    }
}

/// The findings about one place that names a URL, from what was heard:
/// those about the file itself only where it is `first` named.
fn judge(named: &MediaRef, url: &Url, doc: DocId, heard: &Heard, first: bool) -> Vec<Finding> {
    let at = named.at.in_doc(doc);
    let url = &crate::secret::masked(url);
    if !first {
        return match heard {
            Heard::Answered { answer, .. } if answer.status < 400 => disagreements(named, doc, answer, url),
            _ => Vec::new(),
        };
    }
    let (answer, ranges, head_refused) = match heard {
        Heard::Failed(error) => return vec![unreachable(at, url, error)],
        Heard::Answered {
            answer,
            ranges,
            head_refused,
        } => (answer, *ranges, *head_refused),
    };
    let answered_at = crate::secret::masked(&answer.url);
    let after_redirects = if answered_at == *url {
        String::new()
    } else {
        format!(" (redirected to {answered_at})")
    };
    if answer.status >= 400 {
        return vec![(
            &MEDIA_UNAVAILABLE,
            Pending::new(at, format!("{url} answers HTTP {}{after_redirects}", answer.status))
                .label("unavailable")
                .note(match named.kind {
                    MediaKind::Enclosure { .. } => "listeners' apps cannot play or download this episode",
                    MediaKind::Artwork => "directories and apps show no artwork",
                })
                .help("publish the file at this URL, or name the URL it is at"),
        )];
    }
    let mut findings = Vec::new();
    if url.scheme() == "http" && answered_at.scheme() == "https" && only_scheme_differs(url, &answered_at) {
        findings.push((
            &MEDIA_REDIRECTS_TO_HTTPS,
            Pending::new(at.clone(), format!("{url} redirects to {answered_at}"))
                .label("redirected")
                .note("every request costs one more round trip, and the first one travels unencrypted")
                .help(format!("name {answered_at} in the feed")),
        ));
    }
    match &named.kind {
        MediaKind::Enclosure { .. } => {
            findings.extend(disagreements(named, doc, answer, url));
            if ranges == Some(false) {
                findings.push((
                    &MEDIA_NO_BYTE_RANGES,
                    Pending::new(at, format!("{url} takes no byte-range request: its server answers Range: bytes=0-0 with the whole file"))
                        .label("no byte ranges")
                        .note("apps seek in an episode by asking for ranges of the file; Apple refuses feeds whose media servers take none")
                        .help("turn on byte-range requests on the server (most serve them for static files: Accept-Ranges: bytes, 206 Partial Content)"),
                ));
            }
        }
        MediaKind::Artwork => {
            if head_refused {
                findings.push((
                    &MEDIA_HEAD_REFUSED,
                    Pending::new(
                        at.clone(),
                        format!("{url} refuses HEAD requests, though it serves the image to GET"),
                    )
                    .label("HEAD refused")
                    .note("PSP-1: \"Verify the web server hosting your image allows HTTP head requests\"")
                    .help("let the server answer HEAD as it answers GET"),
                ));
            }
            findings.extend(artwork(at, url, answer));
        }
    }
    findings
}

/// Where an enclosure's `type` and `length` disagree with its server.
fn disagreements(named: &MediaRef, doc: DocId, answer: &Answer, url: &Url) -> Vec<Finding> {
    let MediaKind::Enclosure { media_type, length } = &named.kind else {
        return Vec::new();
    };
    type_mismatch(media_type.as_ref(), doc, answer, url)
        .into_iter()
        .chain(length_mismatch(length.as_ref(), doc, answer, url))
        .collect()
}

/// A media URL that was not asked because no request can be made of it.
fn not_a_url(named: &MediaRef, doc: DocId, why: &str) -> Finding {
    (
        &MEDIA_UNREACHABLE,
        Pending::new(
            named.at.in_doc(doc),
            format!("{} was not checked: {why}", crate::secret::mask_text(&named.url)),
        )
        .label("not a URL")
        .help("write the address as an http(s) URL, percent-encoding what a URL cannot hold"),
    )
}

fn unreachable(at: Span, url: &Url, error: &FetchError) -> Finding {
    let (label, help) = match error {
        FetchError::Refused(_) => (
            "refused",
            "a feed's links may not lead feedlint to a private or reserved address; pass --allow-private-addresses if the address is yours",
        ),
        FetchError::TooManyRedirects => ("too many redirects", "name the URL the redirects end at"),
        FetchError::Timeout => ("no answer", "check that the server answers, or raise --timeout"),
        _ => ("not reached", "check that the URL is right and its server answers"),
    };
    (
        &MEDIA_UNREACHABLE,
        Pending::new(at, format!("{url} was not checked: {error}"))
            .label(label)
            .help(help),
    )
}

/// Two URLs that differ only by their scheme (and the default port that
/// goes with it).
fn only_scheme_differs(http: &Url, https: &Url) -> bool {
    http.host_str() == https.host_str()
        && http.path() == https.path()
        && http.query() == https.query()
        && http.port().is_none()
        && https.port().is_none()
}

/// Media types a server gives a file it does not know the type of.
const UNKNOWN_TYPES: &[&str] = &["application/octet-stream", "binary/octet-stream", "application/binary"];

fn type_mismatch(
    declared: Option<&crate::summary::Located<String>>,
    doc: DocId,
    answer: &Answer,
    url: &Url,
) -> Option<Finding> {
    let declared = declared.filter(|d| !d.value.is_empty())?;
    let served = answer.media_type.as_deref()?;
    if UNKNOWN_TYPES.contains(&served) || types_agree(&declared.value, served) {
        return None;
    }
    Some((
        &MEDIA_TYPE_MISMATCH,
        Pending::new(
            declared.span.in_doc(doc),
            format!("type is \"{}\", but {url} is served as {served}", declared.value),
        )
        .label("not what the server says")
        .note("apps choose their player by the type: one of the two is wrong")
        .help(format!(
            "write the type of the file (\"{served}\" if the server is right), or fix the server's Content-Type"
        )),
    ))
}

fn length_mismatch(
    declared: Option<&crate::summary::Located<String>>,
    doc: DocId,
    answer: &Answer,
    url: &Url,
) -> Option<Finding> {
    let declared = declared?;
    let written: u64 = declared.value.parse().ok()?;
    let size = match answer.status {
        206 => answer.content_range_total,
        _ => answer.content_length,
    }?;
    if size == written {
        return None;
    }
    Some((
        &MEDIA_LENGTH_MISMATCH,
        Pending::new(
            declared.span.in_doc(doc),
            format!(
                "length is {}, but {url} is {} bytes",
                crate::shown::thousands(written),
                crate::shown::thousands(size)
            ),
        )
        .label("not the file's size")
        .note("apps show the size before a download, and some check the file against it")
        .help(format!("write length=\"{size}\"")),
    ))
}

/// The artwork's format, size and colour space, from its first bytes.
fn artwork(at: Span, url: &Url, answer: &Answer) -> Vec<Finding> {
    let bytes = answer.first_bytes.as_slice();
    let mut findings = Vec::new();
    let format = imagesize::image_type(bytes).ok();
    let by_extension = extension_format(url);
    let rule_text = "PSP-1 and Apple: artwork must be \"in JPEG or PNG format [...] with appropriate file extensions (.jpg, .png)\"";
    match format {
        Some(imagesize::ImageType::Jpeg | imagesize::ImageType::Png) => {
            let actual = if format == Some(imagesize::ImageType::Png) {
                "PNG"
            } else {
                "JPEG"
            };
            if let Some(named) = by_extension.filter(|named| *named != actual) {
                findings.push((
                    &ARTWORK_WRONG_FORMAT,
                    Pending::new(
                        at.clone(),
                        format!("{url} is a {actual} image, but its extension names {named}"),
                    )
                    .label("extension of another format")
                    .note("PSP-1: \"File type extension must match the actual file type of the image file\"")
                    .help(format!("name the file with the extension of a {actual} image")),
                ));
            }
        }
        other => {
            let what = match other {
                Some(kind) => format!("a {} image", format_name(kind)),
                None => match answer.media_type.as_deref() {
                    Some(served) => format!("no image format feedlint knows (served as {served})"),
                    None => "no image format feedlint knows".to_owned(),
                },
            };
            findings.push((
                &ARTWORK_WRONG_FORMAT,
                Pending::new(at.clone(), format!("{url} is {what}, not JPEG or PNG"))
                    .label("not JPEG or PNG")
                    .note(rule_text)
                    .help("save the artwork as a JPEG or PNG image"),
            ));
            if other.is_none() {
                return findings;
            }
        }
    }
    if let Ok(size) = imagesize::blob_size(bytes) {
        let (width, height) = (size.width, size.height);
        if !ARTWORK_PIXELS.contains(&width) || !ARTWORK_PIXELS.contains(&height) {
            findings.push((
                &ARTWORK_WRONG_SIZE,
                Pending::new(at.clone(), format!("{url} is {width} x {height} pixels, outside 1400 to 3000 on a side"))
                    .label("wrong size")
                    .note("PSP-1 and Apple: artwork \"must be a minimum size of 1400 x 1400 pixels and a maximum size of 3000 x 3000 pixels\"")
                    .help("save the artwork at 3000 x 3000 pixels (or no smaller than 1400 x 1400)"),
            ));
        }
        if width != height {
            findings.push((
                &ARTWORK_NOT_SQUARE,
                Pending::new(at.clone(), format!("{url} is {width} x {height} pixels, not square"))
                    .label("not square")
                    .note("apps show artwork in a square: the image is cropped or boxed")
                    .help("crop the artwork to a square"),
            ));
        }
    }
    if let Some(space) = colour_space(bytes).filter(|space| *space != "RGB") {
        findings.push((
            &ARTWORK_NOT_RGB,
            Pending::new(at, format!("{url} is a {space} image, not RGB"))
                .label(space)
                .note("PSP-1 and Apple: artwork must be \"in the RGB colorspace\"")
                .help("convert the artwork to RGB (sRGB) and save it again"),
        ));
    }
    findings
}

/// The format a URL's extension names, where it is `.jpg`, `.jpeg` or
/// `.png` (other extensions are itunes-invalid-image's).
fn extension_format(url: &Url) -> Option<&'static str> {
    let last = url.path().rsplit('/').next()?;
    let (_, extension) = last.rsplit_once('.')?;
    match extension.to_ascii_lowercase().as_str() {
        "jpg" | "jpeg" => Some("JPEG"),
        "png" => Some("PNG"),
        _ => None,
    }
}

fn format_name(kind: imagesize::ImageType) -> String {
    use imagesize::ImageType;
    match kind {
        ImageType::Gif => "GIF".to_owned(),
        ImageType::Webp => "WebP".to_owned(),
        ImageType::Heif(_) => "HEIF or AVIF".to_owned(),
        ImageType::Bmp => "BMP".to_owned(),
        ImageType::Tiff => "TIFF".to_owned(),
        ImageType::Jxl => "JPEG XL".to_owned(),
        other => format!("{other:?}"),
    }
}

/// The colour space of a JPEG or PNG image, from its header: "RGB",
/// "CMYK" or "greyscale". (imagesize reads sizes, not colour spaces.)
fn colour_space(bytes: &[u8]) -> Option<&'static str> {
    if let Some(png) = bytes.strip_prefix(b"\x89PNG\r\n\x1a\n") {
        // IHDR comes first: length, "IHDR", width, height, bit depth,
        // colour type (PNG §11.2.2: 0 and 4 are greyscale).
        let colour_type = *png.get(17)?;
        return Some(if matches!(colour_type, 0 | 4) {
            "greyscale"
        } else {
            "RGB"
        });
    }
    jpeg_components(bytes).map(|components| match components {
        1 => "greyscale",
        4 => "CMYK",
        _ => "RGB",
    })
}

/// The number of colour components of a JPEG image: from its first frame
/// header (SOF0 to SOF15, less DHT, JPG and DAC), after the segments
/// before it (ITU T.81 §B.2.2).
fn jpeg_components(bytes: &[u8]) -> Option<u8> {
    let mut at = bytes.strip_prefix(&[0xFF, 0xD8])?;
    loop {
        // Fill bytes (0xFF) may stand before a marker.
        while at.first() == Some(&0xFF) && at.get(1) == Some(&0xFF) {
            at = &at[1..];
        }
        let [0xFF, marker, high, low, rest @ ..] = at else {
            return None;
        };
        let length = usize::from(u16::from_be_bytes([*high, *low]));
        if matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
            // Precision, height, width, then the number of components.
            return rest.get(5).copied();
        }
        if *marker == 0xDA || length < 2 {
            return None;
        }
        at = at.get(2 + length..)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JPEG's start: SOI, an APP0 segment, then a baseline frame header
    /// of `components` components.
    fn jpeg(width: u16, height: u16, components: u8) -> Vec<u8> {
        let mut bytes = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10];
        bytes.extend(b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
        bytes.extend([0xFF, 0xC0, 0x00, 8 + 3 * components, 8]);
        bytes.extend(height.to_be_bytes());
        bytes.extend(width.to_be_bytes());
        bytes.push(components);
        for id in 1..=components {
            bytes.extend([id, 0x11, 0]);
        }
        bytes
    }

    #[test]
    fn jpeg_components_are_read_from_the_frame_header() {
        assert_eq!(jpeg_components(&jpeg(1400, 1400, 3)), Some(3));
        assert_eq!(colour_space(&jpeg(1400, 1400, 4)), Some("CMYK"));
        assert_eq!(colour_space(&jpeg(1400, 1400, 1)), Some("greyscale"));
        // Cut before the frame header: not judged.
        assert_eq!(jpeg_components(&jpeg(1400, 1400, 3)[..20]), None);
        assert_eq!(jpeg_components(b"GIF89a"), None);
        let size = imagesize::blob_size(&jpeg(1400, 2000, 3)).unwrap();
        assert_eq!((size.width, size.height), (1400, 2000));
    }

    #[test]
    fn png_colour_types_are_read_from_ihdr() {
        let png = |colour_type: u8| {
            let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
            bytes.extend(1400u32.to_be_bytes());
            bytes.extend(1400u32.to_be_bytes());
            bytes.extend([8, colour_type, 0, 0, 0]);
            bytes
        };
        assert_eq!(colour_space(&png(2)), Some("RGB"));
        assert_eq!(colour_space(&png(6)), Some("RGB"));
        assert_eq!(colour_space(&png(3)), Some("RGB"));
        assert_eq!(colour_space(&png(0)), Some("greyscale"));
        assert_eq!(colour_space(&png(4)), Some("greyscale"));
    }

    fn answer(url: &str, status: u16) -> Answer {
        Answer {
            url: Url::parse(url).unwrap(),
            status,
            media_type: Some("image/png".to_owned()),
            content_length: None,
            content_range_total: None,
            accepts_ranges: false,
            first_bytes: Vec::new(),
        }
    }

    fn artwork_at(url: &str) -> MediaRef {
        let place = crate::snippet::Place::START;
        MediaRef {
            url: url.to_owned(),
            at: crate::diagnostic::Location::between(place, place),
            kind: MediaKind::Artwork,
        }
    }

    /// An https server cannot be stood up on loopback with a certificate
    /// the client trusts: the decision is tested on what was heard.
    #[test]
    fn an_upgrade_to_https_is_an_info_and_other_redirects_are_none() {
        let mut image = vec![0x89];
        image.extend(b"PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\x05\x78\0\0\x05\x78\x08\x02");
        let heard = |url: &str| Heard::Answered {
            answer: Answer {
                first_bytes: image.clone(),
                ..answer(url, 200)
            },
            ranges: None,
            head_refused: false,
        };
        let rules = |named: &MediaRef, heard: &Heard| -> Vec<&str> {
            judge(named, &Url::parse(&named.url).unwrap(), 0, heard, true)
                .iter()
                .map(|(rule, _)| rule.id.as_str())
                .collect()
        };
        let named = artwork_at("http://example.org/art.png");
        let upgraded = judge(
            &named,
            &Url::parse(&named.url).unwrap(),
            0,
            &heard("https://example.org/art.png"),
            true,
        );
        assert_eq!(upgraded.len(), 1);
        assert_eq!(upgraded[0].0.id.as_str(), "media-redirects-to-https");
        assert_eq!(
            upgraded[0].1.message,
            "http://example.org/art.png redirects to https://example.org/art.png"
        );
        assert!(rules(&named, &heard("https://cdn.example.net/art.png")).is_empty());
        assert!(rules(
            &artwork_at("https://example.org/art.png"),
            &heard("https://example.org/art.png")
        )
        .is_empty());
        let gone = Heard::Answered {
            answer: answer("https://example.org/art.png", 410),
            ranges: None,
            head_refused: false,
        };
        assert_eq!(rules(&named, &gone), ["media-unavailable"]);
    }

    #[test]
    fn only_an_upgrade_to_https_is_an_upgrade() {
        let url = |text: &str| Url::parse(text).unwrap();
        assert!(only_scheme_differs(
            &url("http://a.example/x.mp3?q=1"),
            &url("https://a.example/x.mp3?q=1")
        ));
        assert!(!only_scheme_differs(
            &url("http://a.example/x.mp3"),
            &url("https://cdn.example/x.mp3")
        ));
        assert!(!only_scheme_differs(
            &url("http://a.example:8080/x.mp3"),
            &url("https://a.example/x.mp3")
        ));
    }
}
