//! A run's jobs: each document read and analyzed, a chunk at a time in
//! parallel, its findings held to what is left of `--max-findings`.

use rayon::prelude::*;

use crate::model::failure::Failure;
use crate::run::analyze::{self, Named, Outcome};
use crate::run::assemble::FindingBudget;
use crate::run::discover::{self, Job, Origin, Read};
use crate::settings::options::Options;

/// What a job came to: its outcome with the finding budget it spent (none
/// for a walked file that is no XML), or why its file could not be read.
type JobOutcome = Result<Option<(Outcome, FindingBudget)>, Failure>;

/// Reads and analyzes `jobs` in parallel into `done`. A file that cannot be
/// read fails the run, unless it was read only as context.
///
/// The jobs run a chunk at a time, and each chunk's findings are held to
/// what is left of `--max-findings` in the order the jobs were given, so a
/// run's memory stays bounded however many findings its documents have,
/// and the findings kept are the same at any number of threads. A chunk's
/// jobs are analyzed as they come (from a walk still going on).
pub(super) fn run_jobs(
    jobs: impl IntoIterator<Item = Job, IntoIter: Send>,
    context: bool,
    options: &Options,
    done: &mut Vec<Outcome>,
    failures: &mut Vec<Failure>,
    budget: &mut FindingBudget,
) {
    /// Enough documents per chunk to keep every core busy, few enough that
    /// a chunk's findings are a small part of the cap's memory.
    const CHUNK: usize = 1024;
    let mut jobs = jobs.into_iter().peekable();
    // Waits for the next job, or for the end of the jobs.
    while jobs.peek().is_some() {
        let at_start = budget.snapshot();
        // Each thread takes the next job as it is free (and as the walk
        // gives it); the outcomes are put back in the jobs' order.
        let mut outcomes: Vec<(usize, JobOutcome)> = jobs
            .by_ref()
            .take(CHUNK)
            .enumerate()
            .par_bridge()
            .map(|(i, job)| {
                let mut own = at_start.snapshot();
                let outcome = run_job(job, context, options).map(|outcome| {
                    outcome.map(|mut outcome| {
                        outcome.document.context = context;
                        own.spend(&mut outcome);
                        (outcome, own)
                    })
                });
                (i, outcome)
            })
            .collect();
        outcomes.sort_unstable_by_key(|(i, _)| *i);
        for (_, outcome) in outcomes {
            match outcome {
                Ok(Some((mut outcome, own))) => {
                    budget.absorb(own.dropped);
                    budget.spend(&mut outcome);
                    done.push(outcome);
                }
                Ok(None) => {}
                Err(failure) if !context => failures.push(failure),
                Err(_) => {}
            }
        }
    }
}

/// Reads a job's bytes as a web page of the run ([`analyze::fetched_page`]).
pub(crate) fn read_page(job: Job, options: &Options) -> Option<Outcome> {
    let Origin::Bytes(bytes) = job.origin else { return None };
    let named = Named {
        name: job.name,
        path: None,
        url: job.url,
        charset: job.charset,
        media_type: job.media_type,
        fetched: job.fetched,
        canonical: job.canonical,
        learning: job.learning,
        context: false,
    };
    // Contained as a walked document's analysis is: a panic is the page's
    // internal-error finding, and the walk goes on.
    let kept = named.clone();
    crate::base::contain::contained(|| analyze::fetched_page(named, bytes, options))
        .unwrap_or_else(|panic| Some(analyze::internal_error(kept, &panic, options)))
}

pub(crate) fn run_job(job: Job, context: bool, options: &Options) -> Result<Option<Outcome>, Failure> {
    let Job {
        name,
        url,
        origin,
        explicit,
        canonical,
        learning,
        charset,
        media_type,
        fetched,
    } = job;
    // How the document is known, once its file (if any) is settled.
    let named = move |path| Named {
        name,
        path,
        url,
        charset,
        media_type,
        fetched,
        canonical,
        learning,
        context,
    };
    let (bytes, path) = match origin {
        Origin::Bytes(bytes) if bytes.len() as u64 > options.max_file_size() => {
            let size = Some(bytes.len() as u64);
            return Ok(Some(analyze::too_large(named(None), size, options)));
        }
        Origin::Bytes(bytes) => (bytes, None),
        Origin::File(path) if options.overlay().contains_key(&path) => (options.overlay()[&path].clone(), Some(path)),
        Origin::File(path) => {
            // A walked file is read on only if it starts like XML or JSON.
            let first_look = (!explicit).then_some(discover::looks_like_a_feed as fn(&[u8]) -> bool);
            match discover::read_file(&path, options.max_file_size(), first_look) {
                Ok(Read::Whole(bytes)) => (bytes, Some(path)),
                Ok(Read::NotWanted) => return Ok(None),
                Ok(Read::TooLarge { size, prefix }) => {
                    // A walked file too large to read is reported only if it
                    // looks like a feed; a video in the tree is not a finding.
                    let prefix = String::from_utf8_lossy(&prefix);
                    let looks_like_feed = discover::looks_like_a_feed(prefix.as_bytes())
                        && (analyze::root_name_is_feed(&prefix) || analyze::may_be_json_feed(&prefix));
                    if !explicit && !looks_like_feed {
                        return Ok(None);
                    }
                    return Ok(Some(analyze::too_large(named(Some(path)), size, options)));
                }
                Err(error) => return Err(Failure::Unreadable { path, error }),
            }
        }
    };
    // A panic in the analysis is this document's internal-error finding;
    // the others go on.
    let named = named(path);
    let kept = named.clone();
    match crate::base::contain::contained(|| {
        crate::base::contain::panic_if_asked(&named.name);
        analyze::lint_document(named, bytes, explicit, options)
    }) {
        Ok(outcome) => Ok(outcome),
        Err(panic) => Ok(Some(analyze::internal_error(kept, &panic, options))),
    }
}
