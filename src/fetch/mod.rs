//! Linting a deployed feed: fetch a URL, follow its archive and paging
//! links, and lint everything fetched as one set, as if the files were
//! local. RFC 5005 §6 warns that feeds can be crafted to make a client
//! request without end, so every part of the walk is bounded: documents,
//! bytes per document (counted while reading), seconds and redirects per
//! request. Cycles are cut by URL and by `self` IRI before fetching again.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use url::Url;

use crate::feed::Relation;
use crate::findings::diagnostic::{Pending, Span};
use crate::findings::remedy::{Limit, Remedy, Wording};
use crate::model::failure::Failure;
use crate::model::summary::DocSummary;
use crate::report::Report;
use crate::rules::fetch::{ARCHIVE_UNAVAILABLE, FETCH_FAILED, FETCH_LIMIT_REACHED};
use crate::rules::Rule;
use crate::run::discover::Job;
use crate::run::{entry::kept, in_progress::Run};
use crate::settings::options::Options;

pub mod batch;
pub mod cache;
mod http;
pub mod hubs;
pub mod media;
pub mod policy;
pub mod politeness;

use http::{Client, FetchError, Fetched};
use policy::{AddressPolicy, Credentials};

/// The relations the walk follows.
const FOLLOWED: [Relation; 5] = [
    Relation::PrevArchive,
    Relation::NextArchive,
    Relation::Current,
    Relation::Next,
    Relation::Previous,
];

/// How far a walk may go, and how fast.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Documents fetched in one run (`--max-documents`, at least 1).
    pub max_documents: usize,
    /// Bytes of one document, after decompression (`--max-bytes`).
    pub max_bytes: u64,
    /// Seconds for one request, body included (`--timeout`).
    pub timeout: Duration,
    /// Seconds for the whole walk, each document's parsing included
    /// (`--max-time`).
    pub max_time: Duration,
    /// Redirects followed for one request (`--max-redirects`).
    pub max_redirects: u32,
    /// Follow only links and redirects on the start URLs' origins
    /// (`--same-origin`).
    pub same_origin: bool,
    /// Let links and redirects reach any address (`--allow-private-addresses`).
    pub allow_private_addresses: bool,
    /// Requests in flight at once (`--jobs`), at most [`PER_HOST`] to one
    /// origin.
    pub jobs: usize,
    /// The start URLs are the user's own (the command line): their first
    /// request goes where they point, and their address space (loopback, a
    /// private network) opens to their links. Not so for URLs strangers
    /// give a server (`feedlint serve`): every request meets the policy.
    pub trust_start: bool,
    /// Where fetched documents are kept, so that the next run asks for them
    /// conditionally (`--http-cache`).
    pub http_cache: Option<cache::HttpCache>,
    /// Politeness towards each host, shared by the walks of a batch: every
    /// request waits for its host's turn.
    pub pacer: Option<std::sync::Arc<politeness::Pacer>>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_documents: 100,
            max_bytes: 16 * 1024 * 1024,
            timeout: Duration::from_secs(15),
            max_time: Duration::from_secs(120),
            max_redirects: 5,
            same_origin: false,
            allow_private_addresses: false,
            jobs: 8,
            trust_start: true,
            http_cache: None,
            pacer: None,
        }
    }
}

/// The client of a check made after the documents are read (the media
/// check, the hub check): its deadline (the walk's, when the documents
/// were fetched) and a client under the walk's limits and address policy.
/// The start URLs open their address space as they do to the walk's links;
/// a stranger's (the server's) open nothing. What the feeds name is on
/// other origins as often as not: `--same-origin` keeps the walk home, not
/// these checks.
fn after_walk(limits: &Limits, walk: Option<&crate::settings::options::Walked>, requests: usize) -> (Instant, Client) {
    let deadline = walk.map_or(Instant::now() + limits.max_time, |walk| walk.deadline);
    let start: &[Url] = walk.map_or(&[], |walk| &walk.start);
    let policy = match walk {
        Some(walk) if limits.trust_start => {
            AddressPolicy::for_start(&walk.start_addresses, limits.allow_private_addresses)
        }
        _ => AddressPolicy::new(limits.allow_private_addresses),
    };
    let limits = Limits {
        same_origin: false,
        ..limits.clone()
    };
    let client = Client::new(&limits, policy, start, Credentials::default()).with_request_budget(requests);
    (deadline, client)
}

/// Requests in flight to one origin at once: a walk is one client, and
/// should not weigh on a publisher's server like a crowd.
pub const PER_HOST: usize = 2;

/// Where a URL came from: the command line, or a link (its document and
/// the link's span, whose `doc` is that document's index).
type Origin = Option<Span>;

/// One URL of the walk, in the order it was discovered.
struct Queued {
    url: Url,
    origin: Origin,
    /// Handed to a fetching thread.
    launched: bool,
    /// A feed that a start URL's web page names: checked as the page's
    /// stand-in, but fetched as a link is, under the address policy.
    found_on_page: bool,
    /// Where the page kept as a document of the run advertises it: an
    /// answer that there is nothing there is that page's finding.
    advertised_at: Option<Span>,
    /// The relation of the link that led here.
    relation: Option<Relation>,
}

impl Queued {
    /// A URL the user named: its first request goes where they point.
    fn is_start(&self) -> bool {
        self.origin.is_none() && !self.found_on_page
    }
}

/// The feed a fetched web page names (its first `<link rel="alternate">`
/// of an Atom or RSS type), where the document is a web page and the link
/// an http(s) URL.
fn feed_of_page(fetched: &Fetched) -> Option<Url> {
    let start = &fetched.bytes[..fetched.bytes.len().min(64 * 1024)];
    let text = String::from_utf8_lossy(start);
    crate::base::html::web_page_start(&text)?;
    crate::base::html::feed_links(&text)
        .iter()
        .filter_map(|link| fetched.url.join(&link.href).ok())
        .find(|url| matches!(url.scheme(), "http" | "https"))
}

/// Lints the feeds at `start` and everything their links lead to. The
/// documents named on the command line failing is an `Err` (exit status 2).
///
/// Documents are fetched concurrently (at most `jobs` in flight, [`PER_HOST`]
/// per origin) but processed strictly in the order they were discovered, as
/// a sequential walk would: links are queued, limits counted and documents
/// numbered in that order, so the report does not depend on which answer
/// came first.
pub fn lint_urls(
    start: &[Url],
    limits: &Limits,
    options: &Options,
    progress: &mut dyn FnMut(usize, u64),
) -> Result<Report, Failure> {
    let deadline = Instant::now() + limits.max_time;
    let credentials = Credentials::default();
    let start: Vec<Url> = start.iter().map(|url| credentials.mask(url)).collect();
    // The start hosts are resolved once, for the walk and the media check.
    let start_addresses: Vec<Vec<std::net::IpAddr>> = if limits.trust_start {
        start.iter().map(policy::addresses_of).collect()
    } else {
        Vec::new()
    };
    let policy = AddressPolicy::for_start(&start_addresses, limits.allow_private_addresses);
    let mut client = Client::new(limits, policy, &start, credentials);
    client.revalidate = options.revalidates();
    let mut walk = Walk {
        queue: start
            .iter()
            .map(|url| Queued {
                url: url.clone(),
                origin: None,
                launched: false,
                found_on_page: false,
                advertised_at: None,
                relation: None,
            })
            .collect(),
        seen: start.iter().map(|u| u.to_string()).collect(),
        run: Run::new(options),
        findings: Vec::new(),
        bytes_total: 0,
    };
    walk.run.walked = Some(crate::settings::options::Walked {
        deadline,
        start: start.clone(),
        start_addresses,
    });
    let jobs = limits.jobs.max(1);
    let stopped = AtomicBool::new(false);
    std::thread::scope(|scope| -> Result<(), Failure> {
        let (job_sender, job_receiver) = mpsc::channel::<(usize, Url, bool)>();
        let (result_sender, results) = mpsc::channel::<(usize, Result<Fetched, FetchError>)>();
        let job_receiver = Arc::new(Mutex::new(job_receiver));
        for _ in 0..jobs {
            let (jobs, results, client, stopped) =
                (Arc::clone(&job_receiver), result_sender.clone(), &client, &stopped);
            scope.spawn(move || loop {
                let job = jobs.lock().unwrap_or_else(PoisonError::into_inner).recv();
                let Ok((index, url, named)) = job else { break };
                // Requests queued before the walk stopped are not made.
                if stopped.load(Ordering::Relaxed) {
                    break;
                }
                if results.send((index, client.fetch(&url, named, deadline))).is_err() {
                    break;
                }
            });
        }
        drop(result_sender);
        let outcome = walk.run(&client, limits, deadline, &job_sender, &results, progress);
        // Closing the job channel ends the fetching threads; requests still
        // in flight end within their timeout, which the deadline bounds.
        stopped.store(true, Ordering::Relaxed);
        drop(job_sender);
        outcome
    })?;
    Ok(kept(|sink| walk.run.report(&[], walk.findings, sink)))
}

fn max_time_reached(limits: &Limits, words: &dyn Wording) -> String {
    format!(
        "the walk stopped after {} seconds{}",
        limits.max_time.as_secs_f64(),
        words.aside(Limit::Time)
    )
}

/// The state of a walk, kept by the thread that processes the documents.
struct Walk<'o> {
    queue: Vec<Queued>,
    seen: HashSet<String>,
    /// The documents fetched, read into a run as files are.
    run: Run<'o>,
    findings: Vec<(&'static Rule, Pending<Span>)>,
    bytes_total: u64,
}

/// How many queued URLs past the one processed next are looked at for a
/// request to start: enough to keep every thread busy when the next few
/// wait for a busy origin.
const LOOKAHEAD: usize = 64;

impl Walk<'_> {
    fn run(
        &mut self,
        client: &Client,
        limits: &Limits,
        deadline: Instant,
        jobs: &mpsc::Sender<(usize, Url, bool)>,
        results: &mpsc::Receiver<(usize, Result<Fetched, FetchError>)>,
        progress: &mut dyn FnMut(usize, u64),
    ) -> Result<(), Failure> {
        let mut arrived: HashMap<usize, Result<Fetched, FetchError>> = HashMap::new();
        let mut in_flight_by_origin: HashMap<String, usize> = HashMap::new();
        let mut in_flight = 0usize;
        let max_in_flight = limits.jobs.max(1);
        let mut head = 0;
        while head < self.queue.len() {
            if self.run.len() >= limits.max_documents {
                let words = self.run.words();
                self.stop(
                    head,
                    format!(
                        "the walk stopped at {} documents{}",
                        limits.max_documents,
                        words.aside(Limit::Documents)
                    ),
                    words.remedy(Remedy::FollowWholeChain(Limit::Documents)),
                );
                return Ok(());
            }
            if Instant::now() >= deadline {
                let words = self.run.words();
                self.stop(
                    head,
                    max_time_reached(limits, words),
                    words.remedy(Remedy::FollowWholeChain(Limit::Time)),
                );
                return Ok(());
            }
            // Start requests, in queue order, while slots are free: no more
            // than could still become documents under --max-documents.
            let end = self.queue.len().min(head + LOOKAHEAD);
            for index in head..end {
                let wanted = self.run.len() + in_flight + arrived.len() < limits.max_documents;
                if in_flight >= max_in_flight || !wanted {
                    break;
                }
                let queued = &mut self.queue[index];
                let origin_key = queued.url.origin().ascii_serialization();
                let busy = in_flight_by_origin.get(&origin_key).copied().unwrap_or(0);
                if queued.launched || busy >= PER_HOST {
                    continue;
                }
                queued.launched = true;
                *in_flight_by_origin.entry(origin_key).or_default() += 1;
                in_flight += 1;
                // The channel closes only after this loop returns.
                let _ = jobs.send((index, queued.url.clone(), queued.is_start()));
            }
            // The document processed next is always asked for, limits or
            // not: the walk waits for nothing else.
            if !self.queue[head].launched {
                let queued = &mut self.queue[head];
                queued.launched = true;
                *in_flight_by_origin
                    .entry(queued.url.origin().ascii_serialization())
                    .or_default() += 1;
                in_flight += 1;
                let _ = jobs.send((head, queued.url.clone(), queued.is_start()));
            }
            let fetched = loop {
                if let Some(fetched) = arrived.remove(&head) {
                    break fetched;
                }
                let Ok((index, fetched)) = results.recv() else {
                    unreachable!("the next document was asked for, and the fetching threads run until the walk ends");
                };
                in_flight -= 1;
                let origin_key = self.queue[index].url.origin().ascii_serialization();
                if let Some(busy) = in_flight_by_origin.get_mut(&origin_key) {
                    *busy -= 1;
                }
                arrived.insert(index, fetched);
            };
            if matches!(fetched, Err(FetchError::OutOfTime)) && self.queue[head].origin.is_some() {
                let words = self.run.words();
                self.stop(
                    head,
                    max_time_reached(limits, words),
                    words.remedy(Remedy::FollowWholeChain(Limit::Time)),
                );
                return Ok(());
            }
            self.process(head, fetched, client, limits)?;
            progress(self.run.len(), self.bytes_total);
            head += 1;
        }
        Ok(())
    }

    /// A limit stopped the walk at queue entry `head`: one finding, at the
    /// link that was not followed.
    fn stop(&mut self, head: usize, why: String, help: String) {
        let left = self.queue.len() - head;
        let Queued { url, origin, .. } = &self.queue[head];
        if let Some(span) = origin {
            self.findings.push((
                &FETCH_LIMIT_REACHED,
                Pending::new(span.clone(), match left {
                    1 => format!("{why}; 1 more linked document, {url}, was not fetched"),
                    left => format!("{why}; {left} more linked documents, {url} first, were not fetched"),
                })
                    .label("not followed")
                    .note("checks that need every document of a chain (such as deleted-entry-unknown-ref) treat the chain as incomplete")
                    .help(help),
            ));
        }
    }

    /// Lints a fetched document and queues its links.
    fn process(
        &mut self,
        index: usize,
        fetched: Result<Fetched, FetchError>,
        client: &Client,
        limits: &Limits,
    ) -> Result<(), Failure> {
        let (url, origin) = (self.queue[index].url.clone(), self.queue[index].origin.clone());
        let named_by_user = origin.is_none();
        let advertised_at = self.queue[index].advertised_at.clone();
        let fetched = match (fetched, origin, advertised_at) {
            (Ok(fetched), _, _) => fetched,
            (Err(FetchError::Status(code @ (404 | 410))), None, Some(span)) => {
                self.findings.push((
                    &crate::rules::discovery::DISCOVERY_LINK_DANGLING,
                    crate::rules::discovery::dangling_on_fetch(&url, code, span),
                ));
                return Ok(());
            }
            (Err(error), None, _) => {
                return Err(Failure::Unfetchable {
                    url: url.to_string(),
                    message: error.describe(self.run.words()),
                    reason: error.reason(),
                })
            }
            (Err(error), Some(span), _) => {
                let found = fetch_problem(&url, &error, span, limits, self.run.words());
                self.findings.push(found);
                return Ok(());
            }
        };
        self.bytes_total += fetched.bytes.len() as u64;
        let Some(fetched) = self.unless_a_page_naming_its_feed(index, fetched, named_by_user, client) else {
            return Ok(());
        };
        // Whether a start URL gave a web page, judged before its bytes go
        // to the analysis (only to say so if it is no feed).
        let web_page = named_by_user
            && (fetched.media_type.as_deref() == Some("text/html")
                || crate::base::html::web_page_start(&String::from_utf8_lossy(
                    &fetched.bytes[..fetched.bytes.len().min(4096)],
                ))
                .is_some());
        let final_url = fetched.url.clone();
        let job = self.job_of(index, fetched, named_by_user);
        let doc = self.run.len();
        let Some(outcome) = self.run.read_one(job)? else {
            return Ok(());
        };
        // Judged before the findings are held to --max-findings.
        if named_by_user
            && outcome.document.summary.is_none()
            && outcome
                .diagnostics
                .iter()
                .any(|d| d.rule == crate::findings::rule_id::RuleId::NotAFeed)
        {
            return Err(Failure::Unfetchable {
                url: url.to_string(),
                message: if web_page {
                    "it is a web page, not a feed, and names no feed in a <link rel=\"alternate\">".to_owned()
                } else {
                    "it is not a feed (its root element is not atom:feed, rss or at:deleted-entry)".to_owned()
                },
                reason: crate::Unreached::NotAFeed,
            });
        }
        let outcome = self.run.keep(outcome);
        if final_url != url {
            outcome.document.aliases.push(url.clone());
        }
        self.seen.insert(final_url.to_string());
        let summary = outcome.document.summary.as_ref();
        let found: Vec<(Url, Span, Relation)> = summary.map(|summary| followed_links(summary, doc)).unwrap_or_default();
        let self_iri = summary.and_then(|summary| summary.self_iri()).cloned();
        self.queue_links(self_iri, found, client, limits);
        Ok(())
    }

    /// A start URL that gives a web page naming its feed: the feed is
    /// queued in its place, as a reader's feed finder does, and the page
    /// kept for the discovery rules, to judge what it advertises against
    /// the feed fetched. Gives the document back where it is no such page.
    fn unless_a_page_naming_its_feed(
        &mut self,
        index: usize,
        fetched: Fetched,
        named_by_user: bool,
        client: &Client,
    ) -> Option<Fetched> {
        if !named_by_user || self.queue[index].found_on_page {
            return Some(fetched);
        }
        let Some(feed) = feed_of_page(&fetched).map(|feed| client.credentials.mask(&feed)) else {
            return Some(fetched);
        };
        if !self.seen.insert(feed.to_string()) {
            return Some(fetched);
        }
        let url = &self.queue[index].url;
        self.run.warn(format!(
            "{url} is a web page; found a feed at {feed} (its <link rel=\"alternate\">); checking it"
        ));
        let page_url = fetched.url.clone();
        let job = self.job_of(index, fetched, named_by_user);
        let mut advertised_at = None;
        if let Some(page) = self.run.read_page(job) {
            let doc = self.run.len();
            advertised_at = page.document.page.as_deref().and_then(|head| {
                let link = head.advertised.iter().find(|link| {
                    page_url
                        .join(&link.href.value)
                        .ok()
                        .map(|url| client.credentials.mask(&url))
                        == Some(feed.clone())
                })?;
                Some(link.href.span.in_doc(doc))
            });
            self.run.keep(page);
        }
        self.queue.push(Queued {
            url: feed,
            origin: None,
            launched: false,
            found_on_page: true,
            advertised_at,
            relation: None,
        });
        None
    }

    /// The job that reads a fetched document (queue entry `index`) into the
    /// run, with what its request and headers say of it.
    fn job_of(&self, index: usize, fetched: Fetched, named_by_user: bool) -> Job {
        let queued = &self.queue[index];
        Job {
            charset: fetched.charset,
            media_type: fetched.media_type,
            fetched: Some(Box::new(crate::run::discover::FetchedFrom {
                asked: queued.url.clone(),
                links: fetched.links,
                named: named_by_user,
                delivery: fetched.delivery,
                by_archive_link: matches!(queued.relation, Some(Relation::PrevArchive | Relation::NextArchive)),
            })),
            ..Job::of_bytes(queued.url.to_string(), Some(fetched.url), fetched.bytes)
        }
    }

    /// Queues the links a document was `found` to follow, each once (its
    /// own self IRI counts as seen), on the start origin only under
    /// `--same-origin`.
    fn queue_links(
        &mut self,
        self_iri: Option<Url>,
        found: Vec<(Url, Span, Relation)>,
        client: &Client,
        limits: &Limits,
    ) {
        if let Some(self_iri) = self_iri {
            self.seen.insert(client.credentials.mask(&self_iri).to_string());
        }
        for (target, span, relation) in found {
            let target = client.credentials.mask(&target);
            let leaves_origin = limits.same_origin && !client.on_start_origin(&target);
            if leaves_origin || !self.seen.insert(target.to_string()) {
                continue;
            }
            self.queue.push(Queued {
                url: target,
                origin: Some(span),
                launched: false,
                found_on_page: false,
                advertised_at: None,
                relation: Some(relation),
            });
        }
    }
}

/// The http(s) targets of a document's followed links, with their spans
/// and relations.
fn followed_links(summary: &DocSummary, doc: usize) -> Vec<(Url, Span, Relation)> {
    summary
        .links
        .iter()
        .filter(|l| FOLLOWED.contains(&l.rel))
        .filter_map(|l| {
            let target = l.target.clone().filter(|t| matches!(t.scheme(), "http" | "https"))?;
            Some((target, l.span.in_doc(doc), l.rel))
        })
        .collect()
}

/// The finding for a followed link that gave no document.
fn fetch_problem(
    url: &Url,
    error: &FetchError,
    span: Span,
    limits: &Limits,
    words: &dyn Wording,
) -> (&'static Rule, Pending<Span>) {
    match error {
        FetchError::Challenge(challenge) => (
            &crate::rules::http::HTTP_BOT_CHALLENGE,
            crate::rules::http::bot_challenge(url, challenge, span),
        ),
        FetchError::Status(code @ (403 | 404 | 410)) => (
            &ARCHIVE_UNAVAILABLE,
            Pending::new(span, format!("{url} answers HTTP {code}: the linked document is not available"))
                .label("unavailable")
                .note("RFC 5005 §4.1 lets publishers withhold archives, but the logical feed cannot be reconstructed completely; RFC 5005 §4.2 asks clients to warn their users")
                .help("publish the document, or remove the link to it"),
        ),
        FetchError::TooLarge | FetchError::Timeout | FetchError::OutOfTime | FetchError::TooManyRedirects => {
            let (value, limit) = match error {
                FetchError::TooLarge => (format!("{} bytes", limits.max_bytes), Limit::Bytes),
                FetchError::Timeout => (format!("{} seconds", limits.timeout.as_secs_f64()), Limit::Timeout),
                FetchError::OutOfTime => (format!("{} seconds for the walk", limits.max_time.as_secs_f64()), Limit::Time),
                _ => (format!("{} redirects", limits.max_redirects), Limit::Redirects),
            };
            (
                &FETCH_LIMIT_REACHED,
                Pending::new(span, format!("{url} was not linted: it exceeds the limit of {value}{}", words.aside(limit)))
                    .label("not followed")
                    .note("RFC 5005 §6: feeds can be crafted to make a client request without end, so every fetch is bounded")
                    .help(words.remedy(Remedy::FetchLegitimateDocument(limit))),
            )
        }
        FetchError::Refused(..) | FetchError::AddressRefused(_) => (
            &FETCH_FAILED,
            Pending::new(span, format!("{url} was not fetched: {}", error.describe(words)))
                .label("refused")
                .note("the documents of a walk are written by someone else: their links and redirects may not lead where the start URL did not (an internal service, a cloud metadata endpoint)")
                .help(words.remedy(Remedy::LintRefusedDocumentAlone)),
        ),
        other => (
            &FETCH_FAILED,
            Pending::new(span, format!("fetching {url} failed: {}", other.describe(words)))
                .label("fetch failed")
                .note("RFC 5005 §4.2: a client cannot reconstruct the logical feed past this link")
                .help("check that the URL is right and the server answers it"),
        ),
    }
}
