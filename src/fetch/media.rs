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
use super::{Limits, PER_HOST};
use crate::findings::diagnostic::{DocId, Pending};
use crate::findings::remedy::{Limit, Remedy, Wording};
use crate::model::summary::{MediaKind, MediaRef};
use crate::rules::media::{self, judge, not_a_url, Finding, Unreached, Why, MEDIA_LIMIT_REACHED};
use crate::settings::options::Walked;

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

/// One URL to ask, and every place the documents name it.
struct Target<'m> {
    /// As the documents write it; a password in it is masked in what is
    /// said, and sent only to its own origin.
    url: &'m str,
    /// How it is asked: by what it is.
    kind: Asked,
    named_at: Vec<(DocId, usize)>,
}

impl crate::settings::options::MediaCheck for MediaChecker {
    fn check(
        &self,
        media: &[(DocId, &[MediaRef])],
        walk: Option<&Walked>,
        words: &dyn Wording,
        found: &mut dyn FnMut(Finding),
    ) {
        let started = Instant::now();
        let targets = targets(media);
        let asked = targets.len().min(self.max_media);
        let (deadline, client) = super::after_walk(&self.limits, walk, asked.saturating_mul(REQUESTS_PER_URL));
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
            let heard = heard.into_judged(words);
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
                    judge(named, url, doc, &heard, nth == 0, words)
                        .into_iter()
                        .for_each(&mut *found);
                }
            }
        }
        not_asked.extend(&targets[asked..]);
        if let Some(first) = not_asked.first() {
            let (doc, index) = first.named_at[0];
            if let Some(named) = refs(doc, index) {
                let stopped = if asked < targets.len() && not_asked.len() == targets.len() - asked {
                    Stopped::AtMost(self.max_media)
                } else if client.requests_spent() {
                    Stopped::RequestsSpent(asked)
                } else {
                    Stopped::OutOfTime(self.limits.max_time)
                };
                found(limit_reached(named, doc, stopped, &not_asked, words));
            }
        }
    }
}

/// Why a media check stopped before it asked every URL.
enum Stopped {
    /// At the most URLs it asks.
    AtMost(usize),
    /// Its requests spent, for this many URLs asked.
    RequestsSpent(usize),
    /// Out of time, after this long.
    OutOfTime(Duration),
}

/// The one finding that says the check stopped, and what it did not ask:
/// at `named`, where the first URL not asked is named.
fn limit_reached(
    named: &MediaRef,
    doc: DocId,
    stopped: Stopped,
    not_asked: &[&Target],
    words: &dyn Wording,
) -> Finding {
    let why = match stopped {
        Stopped::AtMost(max) => format!("the media check stopped at {max} URLs{}", words.aside(Limit::Media)),
        Stopped::RequestsSpent(asked) => format!(
            "the media check made the {} requests its {asked} URLs allow ({REQUESTS_PER_URL} a URL, redirects included)",
            asked * REQUESTS_PER_URL
        ),
        Stopped::OutOfTime(time) => format!(
            "the media check ran out of time after {} seconds{}",
            time.as_secs_f64(),
            words.aside(Limit::Time)
        ),
    };
    (
        &MEDIA_LIMIT_REACHED,
        Pending::new(
            named.at.in_doc(doc),
            format!(
                "{why}; {} more media URLs, {} first, were not asked",
                not_asked.len(),
                crate::base::secret::mask_text(not_asked[0].url)
            ),
        )
        .label("not asked")
        .note("every request feedlint makes is bounded: a feed can name thousands of files")
        .help(words.remedy(Remedy::CheckEveryMedia)),
    )
}

/// What a target is, for how it is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Asked {
    Enclosure,
    Artwork,
    Transcript,
}

impl Asked {
    fn of(kind: &MediaKind) -> Asked {
        match kind {
            MediaKind::Enclosure { .. } => Asked::Enclosure,
            MediaKind::Artwork => Asked::Artwork,
            MediaKind::Transcript => Asked::Transcript,
        }
    }
}

/// The URLs to ask, each once, in the order the documents name them.
fn targets<'m>(media: &[(DocId, &'m [MediaRef])]) -> Vec<Target<'m>> {
    let mut targets: Vec<Target> = Vec::new();
    let mut by_url: HashMap<(&str, Asked), usize> = HashMap::new();
    for &(doc, refs) in media {
        for (index, named) in refs.iter().enumerate() {
            let kind = Asked::of(&named.kind);
            let at = *by_url.entry((named.url.as_str(), kind)).or_insert_with(|| {
                targets.push(Target {
                    url: &named.url,
                    kind,
                    named_at: Vec::new(),
                });
                targets.len() - 1
            });
            targets[at].named_at.push((doc, index));
        }
    }
    targets
}

/// What the servers said of one URL, as the fetcher knows it (a request
/// cut by the deadline or the request budget is a URL not asked).
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

impl Heard {
    /// What was heard, as the media rules judge it.
    fn into_judged(self, words: &dyn Wording) -> media::Heard {
        match self {
            Heard::Answered {
                answer,
                ranges,
                head_refused,
            } => media::Heard::Answered {
                answer,
                ranges,
                head_refused,
            },
            Heard::Failed(error) => media::Heard::Failed(Unreached {
                why: match error {
                    FetchError::Refused(..) | FetchError::AddressRefused(_) => Why::Refused,
                    FetchError::TooManyRedirects => Why::TooManyRedirects,
                    FetchError::Timeout => Why::Timeout,
                    _ => Why::Other,
                },
                message: error.describe(words),
            }),
        }
    }
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
                            Ok(url) => match targets[index].kind {
                                Asked::Artwork => ask_artwork(client, url, deadline),
                                Asked::Enclosure => ask_enclosure(client, url, deadline),
                                Asked::Transcript => ask_transcript(client, url, deadline),
                            },
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

/// A transcript: `HEAD`, with an `Origin` as a player in a web page asks,
/// so that a server that answers CORS only then says so.
fn ask_transcript(client: &Client, url: &Url, deadline: Instant) -> Heard {
    match client.ask(url, Ask::HeadFromPage, deadline) {
        Ok(answer) => answered(answer, None),
        Err(error) => Heard::Failed(error),
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
