//! The context a run reads and learns besides what it was named: the
//! files its documents link to, and the trees their self links say are
//! published, read whole; each file and URL read once.

use url::Url;

use crate::run::analyze::Outcome;
use crate::run::assemble::FindingBudget;
use crate::run::discover::{self, Job, LinkedFile, Origin};
use crate::run::in_progress::Run;
use crate::run::jobs::run_jobs;
use crate::settings::options::Options;
use crate::site;

impl Run<'_> {
    /// What the run learns and reads besides what it was named: where the
    /// self links say the trees are published, then the files the
    /// documents link to, again with what those say, until a round reads
    /// nothing new; then the trees now known, read whole.
    pub(super) fn read_context(
        &mut self,
        directories: &[std::path::PathBuf],
        mut published: Option<&mut site::Published>,
    ) {
        // Where the self links say the trees are published, then the files the
        // documents link to; again with what those say, until a round reads
        // nothing new (a few rounds: each placement is a folder of the run).
        for _ in 0..LEARNING_ROUNDS {
            let read = self.done.len();
            if let Some(published) = published.as_deref_mut() {
                let mut documents: Vec<&mut crate::model::document::Document> =
                    self.done.iter_mut().map(|outcome| &mut outcome.document).collect();
                let again = site::learn_sites(&mut documents, published);
                analyze_again(again, self.options, &mut self.done, &mut self.budget);
            }
            self.alias(0, published.as_deref());
            for outcome in &self.done {
                self.reading.saw(outcome, published.as_deref());
            }
            self.linked(Vec::new(), 0, published.as_deref());
            if self.done.len() == read {
                break;
            }
        }
        // The folders the self links place, once the files the named ones
        // link to are read too: the trees now known are read whole.
        if let Some(published) = published.as_deref_mut() {
            self.site_context(directories, published);
        }
        if let Some(published) = published {
            self.warnings
                .extend(self.outside.warning(&published.boundary, self.options.words()));
        }
    }

    /// The documents read so far.
    fn documents(&self) -> Vec<&crate::model::document::Document> {
        self.done.iter().map(|outcome| &outcome.document).collect()
    }

    /// Without a base URL, a document is also named by the URL a
    /// root-relative link gives it: the documents from `from` on get theirs.
    fn alias(&mut self, from: usize, published: Option<&site::Published>) {
        for outcome in &mut self.done[from..] {
            let alias = outcome.document.url.as_ref().and_then(|url| published?.tree_alias(url));
            outcome.document.aliases = alias.into_iter().collect();
        }
    }

    /// Reads and analyzes documents as context.
    fn context(&mut self, jobs: Vec<Job>) {
        run_jobs(
            jobs,
            true,
            self.options,
            &mut self.done,
            &mut self.failures,
            &mut self.budget,
        );
    }

    /// Runs `batch`, then reads the files the documents from `start` on
    /// link to, that exist and were not read, and the files those link
    /// to: context for the set checks, as a type checker reads imports, so
    /// that a subset of a tree (the changed files of a commit) is checked
    /// against the chains it belongs to. Each file and URL is read at most
    /// once, so this ends within the files on disk.
    fn linked(&mut self, mut batch: Vec<Job>, mut start: usize, published: Option<&site::Published>) {
        loop {
            if !batch.is_empty() {
                let from = self.done.len();
                self.context(std::mem::take(&mut batch));
                self.alias(from, published);
            }
            for outcome in &self.done[start..] {
                let Some(summary) = outcome.document.summary.as_ref() else {
                    continue;
                };
                // A link written as a `file:` URL is never followed.
                for target in summary
                    .links
                    .iter()
                    .filter(|link| !link.file_href)
                    .filter_map(|link| link.target.as_ref())
                {
                    // A document read already is not looked for on disk.
                    if self.reading.has_url(target) {
                        continue;
                    }
                    let job = match discover::local_file(target, published) {
                        Some(LinkedFile::Readable { path, canonical }) => {
                            discover::linked_job(path, canonical, target.clone())
                        }
                        Some(LinkedFile::Outside(path)) => {
                            self.outside.note(&outcome.document.name, path);
                            continue;
                        }
                        None => continue,
                    };
                    if self.reading.count_linked_if_new(&job, target, published) {
                        batch.push(job);
                    }
                }
            }
            start = self.done.len();
            if batch.is_empty() {
                return;
            }
        }
    }

    /// The feeds of the trees the run publishes that it did not name, read
    /// as context: a run over part of a tree then gives the whole tree's
    /// verdict on what it names (the documents that link to a named one
    /// are seen too). A tree inside a linted directory was walked already.
    ///
    /// A folder that only one document's self link places is walked first
    /// to see whether another document there places it too: if one does,
    /// the folder is a site, read whole; if none does (a feed saved alone
    /// to a downloads folder), what the walk read is put back, and the
    /// folder's links are not judged.
    fn site_context(&mut self, directories: &[std::path::PathBuf], published: &mut site::Published) {
        let walked: Vec<std::path::PathBuf> = directories
            .iter()
            .filter_map(|d| std::fs::canonicalize(d).ok())
            .collect();
        let inside_walked = |root: &std::path::Path| walked.iter().any(|directory| root.starts_with(directory));
        published.confirm(&self.documents(), directories);
        let before_trials = self.done.len();
        let mut trials = Vec::new();
        for root in published.unconfirmed() {
            if inside_walked(&root) {
                continue;
            }
            let Some(jobs) = discover::walk_context(&root, self.options, published, MOST_CONFIRMING_FILES) else {
                continue;
            };
            let jobs: Vec<Job> = jobs.into_iter().filter(|job| self.reading.peek_new(job)).collect();
            let start = self.done.len();
            self.context(jobs);
            self.alias(start, Some(published));
            trials.push((root, start..self.done.len()));
        }
        published.confirm(&self.documents(), directories);
        // What the walks of folders still unconfirmed read is put back.
        let mut put_back: Vec<std::ops::Range<usize>> = trials
            .into_iter()
            .filter(|(root, _)| !published.is_confirmed(root))
            .map(|(_, range)| range)
            .collect();
        put_back.sort_by_key(|range| std::cmp::Reverse(range.start));
        for range in put_back {
            self.done.drain(range);
        }
        for outcome in &self.done[before_trials..] {
            self.reading.saw(outcome, Some(published));
        }
        // Shallowest first: a tree inside one already walked is not walked
        // again.
        let mut sites: Vec<std::path::PathBuf> = published
            .sites()
            .into_iter()
            .map(|(root, _)| root.to_path_buf())
            .collect();
        sites.sort_by_key(|root| root.components().count());
        let mut chosen: Vec<std::path::PathBuf> = Vec::new();
        let mut jobs = Vec::new();
        for root in sites {
            if inside_walked(&root) || chosen.iter().any(|above| root.starts_with(above)) {
                continue;
            }
            match discover::walk_context(&root, self.options, published, discover::MOST_CONTEXT_FILES) {
                Some(found) => jobs.extend(found.into_iter().filter(|job| self.reading.count_if_new(job))),
                None => self.warnings.push(format!(
                    "{} holds more than {} files: its documents were not read for the checks across documents",
                    crate::base::shown::shown_path(&root),
                    discover::MOST_CONTEXT_FILES
                )),
            }
            chosen.push(root);
        }
        // The links of the documents the trials kept are followed too.
        self.linked(jobs, before_trials, Some(published));
    }
}

/// Analyzes documents again at their new URLs, in place of what their
/// first analysis gave.
fn analyze_again(again: Vec<(usize, Url)>, options: &Options, done: &mut [Outcome], budget: &mut FindingBudget) {
    let jobs: Vec<Job> = again
        .iter()
        .filter_map(|(i, url)| {
            let document = &done[*i].document;
            Some(Job {
                name: document.name.clone(),
                url: Some(url.clone()),
                origin: Origin::File(document.path.clone()?),
                explicit: document.explicit,
                canonical: document.canonical.clone(),
                learning: crate::feed::placement::Learning::Off,
                charset: None,
                media_type: None,
                fetched: None,
            })
        })
        .collect();
    for (i, _) in &again {
        budget.refund(&done[*i]);
    }
    // Documents read as context stay context (no rule runs on them).
    let mut redone = Vec::with_capacity(jobs.len());
    let (context, named): (Vec<_>, Vec<_>) = again
        .into_iter()
        .zip(jobs)
        .partition(|((i, _), _)| done[*i].document.context);
    for (group, as_context) in [(named, false), (context, true)] {
        let (places, jobs): (Vec<_>, Vec<_>) = group.into_iter().unzip();
        let mut outcomes = Vec::with_capacity(jobs.len());
        run_jobs(jobs, as_context, options, &mut outcomes, &mut Vec::new(), budget);
        redone.extend(places.into_iter().zip(outcomes));
    }
    for ((i, _), mut outcome) in redone {
        let old = &done[i].document;
        outcome.document.placement = old.placement.clone();
        outcome.document.misplaced = old.misplaced.clone();
        done[i] = outcome;
    }
}

/// The most rounds of learning where trees are published and reading what
/// their documents link to.
const LEARNING_ROUNDS: usize = 4;

/// At most this many files are read to confirm a folder that one
/// document's self link places (a feed saved alone to a big folder is
/// no site, and is not worth a long walk).
const MOST_CONFIRMING_FILES: usize = 2_000;
