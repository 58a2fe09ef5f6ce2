//! One run, stage after stage: [`discover`](crate::run::discover) the documents
//! and read them, [`analyze`](crate::run::analyze) each in parallel (its tree is
//! dropped as soon as its rules have run), then [`assemble`](crate::run::assemble)
//! the report: the set checks, levels, suppressions, sorting.

use rayon::prelude::*;
use url::Url;

use crate::base::hash::FastSet;
use crate::findings::diagnostic::Level;
use crate::model::failure::Failure;
use crate::model::set::UrlSpace;
use crate::report::{Keep, Report, Sink};
use crate::run::analyze::{self, Named, Outcome};
use crate::run::assemble::{self, FindingBudget};
use crate::run::discover::{self, Input, Job, LinkedFile, Origin, Read};
use crate::settings::options::{absolute_url, InvalidUrl, Options};
use crate::site;

/// Lints everything the inputs name.
pub fn lint(inputs: Vec<Input>, options: &Options) -> Report {
    kept(|sink| lint_into(inputs, options, sink))
}

/// A report with its findings kept in it, from a run that gives them to a
/// sink.
pub(crate) fn kept(run: impl FnOnce(&mut dyn Sink) -> Report) -> Report {
    let mut keep = Keep(Vec::new());
    let mut report = run(&mut keep);
    report.diagnostics = keep.0;
    report
}

/// [`lint`], giving the findings to `sink` as they are assembled, in
/// report order, rather than keeping them in the report.
pub fn lint_into(inputs: Vec<Input>, options: &Options, sink: &mut dyn Sink) -> Report {
    let paths: Vec<std::path::PathBuf> = inputs
        .iter()
        .filter_map(|input| match input {
            Input::Path(path) => Some(path.clone()),
            Input::Stdin(_) => None,
        })
        .collect();
    let directories: Vec<std::path::PathBuf> = paths.iter().filter(|path| path.is_dir()).cloned().collect();
    let named: Vec<&std::path::Path> = paths.iter().map(std::path::PathBuf::as_path).collect();
    let mut published = site::Published::of(&named, options);
    let mut run = Run::new(options);
    // The walk runs on a thread of its own and hands each file over as it
    // finds it, so the documents are analyzed while the tree is walked
    // (a walk is serial: on 16 cores it was an eighth of a run).
    let (jobs, found) = crossbeam_channel::unbounded();
    let walking = published.as_ref();
    let mut failed_jobs = Vec::new();
    let (failures, warnings) = std::thread::scope(|scope| {
        let walker = scope.spawn(move || {
            let (mut failures, mut warnings) = (Vec::new(), Vec::new());
            let mut emit = |job| {
                // The receiver lives until the walk ends.
                let _ = jobs.send(job);
            };
            discover::gather(inputs, options, walking, &mut emit, &mut failures, &mut warnings);
            (failures, warnings)
        });
        run_jobs(found, false, options, &mut run.done, &mut failed_jobs, &mut run.budget);
        walker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    run.failures.extend(failures.into_iter().chain(failed_jobs));
    run.warnings.extend(warnings);
    // Where the self links say the trees are published, then the files the
    // documents link to; again with what those say, until a round reads
    // nothing new (a few rounds: each placement is a folder of the run).
    for _ in 0..LEARNING_ROUNDS {
        let read = run.done.len();
        if let Some(published) = published.as_mut() {
            let mut documents: Vec<&mut crate::model::document::Document> =
                run.done.iter_mut().map(|outcome| &mut outcome.document).collect();
            let again = site::learn_sites(&mut documents, published);
            analyze_again(again, options, &mut run.done, &mut run.budget);
        }
        run.alias(0, published.as_ref());
        for outcome in &run.done {
            run.reading.saw(outcome, published.as_ref());
        }
        run.linked(Vec::new(), 0, published.as_ref());
        if run.done.len() == read {
            break;
        }
    }
    // The folders the self links place, once the files the named ones
    // link to are read too: the trees now known are read whole.
    if let Some(published) = published.as_mut() {
        run.site_context(&directories, published);
    }
    if let Some(published) = &published {
        run.warnings.extend(run.outside.warning(&published.boundary));
    }
    let published = published.as_ref();
    let mut url_spaces = site::url_spaces(&directories, published);
    url_spaces.extend(published.map(site::Published::spaces).unwrap_or_default());
    let mut report = run.report(&url_spaces, Vec::new(), sink);
    if report.linted_documents() == 0 && report.failures.is_empty() && !paths.is_empty() {
        report.failures.push(Failure::NoFeeds { paths });
    }
    report.published = published.map(site::Published::learned).unwrap_or_default();
    report
}

/// What a run has read or will read, by file and by URL (and the
/// root-relative form of each URL), so that each document is read once.
#[derive(Default)]
struct Reading {
    files: FastSet<std::path::PathBuf>,
    urls: FastSet<String>,
}

impl Reading {
    fn see_url(&mut self, url: &Url, published: Option<&site::Published>) -> bool {
        let alias = published.and_then(|p| p.tree_alias(url));
        self.urls.extend(alias.map(String::from));
        self.urls.insert(url.to_string())
    }

    /// Counts a document as read.
    fn saw(&mut self, outcome: &Outcome, published: Option<&site::Published>) {
        self.files.extend(outcome.document.canonical.clone());
        if let Some(url) = &outcome.document.url {
            self.see_url(url, published);
        }
    }

    /// Whether a job reads a file not read yet, without counting it.
    fn peek_new(&self, job: &Job) -> bool {
        job.canonical.as_ref().is_none_or(|file| !self.files.contains(file))
            && job.url.as_ref().is_none_or(|url| !self.urls.contains(url.as_str()))
    }

    /// Counts a job's file and URL as read; whether both were new.
    fn count_if_new(&mut self, job: &Job) -> bool {
        let new_file = job
            .canonical
            .as_ref()
            .is_none_or(|file| self.files.insert(file.clone()));
        let new_url = job.url.as_ref().is_none_or(|url| self.urls.insert(url.to_string()));
        new_file && new_url
    }
}

/// A run in progress: what it has read and analyzed, what failed, and
/// what is left of `--max-findings`. Files, documents in memory and
/// fetched documents are all read into one, and its report is made one
/// way ([`Run::report`]).
pub(crate) struct Run<'o> {
    options: &'o Options,
    done: Vec<Outcome>,
    failures: Vec<Failure>,
    warnings: Vec<String>,
    budget: FindingBudget,
    reading: Reading,
    outside: Outside,
    /// The walk that fetched the documents, when they were fetched: the
    /// media check shares its deadline and its start.
    pub(crate) walked: Option<crate::settings::options::Walked>,
}

/// The links that lead outside the run's boundary, not read: said once,
/// as a warning, with the first few.
#[derive(Default)]
struct Outside {
    said: Vec<String>,
    more: usize,
}

impl Outside {
    /// The most links named in the warning.
    const NAMED: usize = 5;

    fn note(&mut self, document: &str, target: std::path::PathBuf) {
        let said = format!("{document} links to {}", crate::base::shown::shown_path(&target));
        if self.said.contains(&said) {
            return;
        }
        if self.said.len() < Self::NAMED {
            self.said.push(said);
        } else {
            self.more += 1;
        }
    }

    fn warning(&self, boundary: &site::Boundary) -> Option<String> {
        if self.said.is_empty() {
            return None;
        }
        let roots: Vec<String> = boundary
            .roots()
            .iter()
            .map(|root| crate::base::shown::shown_path(root))
            .collect();
        let more = match self.more {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        Some(format!(
            "links that lead outside the linted tree ({}) were not read: {}{more} (name the folder with --root to read them)",
            roots.join(", "),
            self.said.join(", ")
        ))
    }
}

impl<'o> Run<'o> {
    pub(crate) fn new(options: &'o Options) -> Run<'o> {
        Run {
            options,
            done: Vec::new(),
            failures: Vec::new(),
            warnings: Vec::new(),
            budget: FindingBudget::new(options.max_findings),
            reading: Reading::default(),
            outside: Outside::default(),
            walked: None,
        }
    }

    /// Reads and analyzes documents named to be linted.
    fn read(&mut self, jobs: Vec<Job>) {
        run_jobs(
            jobs,
            false,
            self.options,
            &mut self.done,
            &mut self.failures,
            &mut self.budget,
        );
    }

    /// Reads and analyzes one document named to be linted, now (the
    /// fetcher, which follows its links); `None`: not a document to lint.
    /// It is the run's once [kept](Run::keep).
    pub(crate) fn read_one(&self, job: Job) -> Result<Option<Outcome>, Failure> {
        run_job(job, false, self.options)
    }

    /// Keeps a document [read alone](Run::read_one), its findings held to
    /// what is left of `--max-findings`.
    pub(crate) fn keep(&mut self, mut outcome: Outcome) -> &mut Outcome {
        self.budget.spend(&mut outcome);
        self.done.push(outcome);
        let last = self.done.len() - 1;
        &mut self.done[last]
    }

    /// Says something of the run that fails nothing (on standard error, on
    /// the page).
    pub(crate) fn warn(&mut self, warning: String) {
        self.warnings.push(warning);
    }

    /// How many documents were read.
    pub(crate) fn len(&self) -> usize {
        self.done.len()
    }

    /// The set stage and the report: what the run read, checked as one set
    /// (`extra`: the fetcher's findings about it), its findings given to
    /// `sink` in report order, what failed and what it warns of.
    pub(crate) fn report(
        mut self,
        url_spaces: &[UrlSpace],
        mut extra: Vec<(
            &'static crate::rules::Rule,
            crate::findings::diagnostic::Pending<crate::findings::diagnostic::Span>,
        )>,
        sink: &mut dyn Sink,
    ) -> Report {
        if let Some(check) = self.options.media.as_ref().filter(|_| self.options.checks_media()) {
            let media: Vec<(usize, &[crate::model::summary::MediaRef])> = self
                .done
                .iter()
                .enumerate()
                .filter(|(_, outcome)| !outcome.document.context)
                .filter_map(|(doc, outcome)| Some((doc, outcome.document.summary.as_ref()?.media.as_slice())))
                .filter(|(_, media)| !media.is_empty())
                .collect();
            // Each media finding spends the run's budget as it is made: a
            // feed naming one file 200,000 times makes 200,000 small places,
            // not 200,000 findings.
            let (done, options, budget) = (&self.done, self.options, &mut self.budget);
            check.check(&media, self.walked.as_ref(), &mut |(rule, finding)| {
                let path = done[finding.primary.doc].document.path.as_deref();
                if let Some(level) = options.levels.level_for(rule, path) {
                    if budget.keep_one(level) {
                        extra.push((rule, finding));
                    }
                }
            });
        }
        let mut report = assemble::assemble(self.done, url_spaces, extra, self.options, sink);
        for level in [Level::Error, Level::Warning, Level::Info] {
            report.dropped.add(level, self.budget.dropped.of(level));
        }
        report.failures.extend(self.failures);
        report.warnings.extend(self.warnings);
        report
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
                    if self.reading.urls.contains(target.as_str()) {
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
                    let new_url = self.reading.see_url(target, published);
                    let new_file = job
                        .canonical
                        .as_ref()
                        .is_none_or(|file| self.reading.files.insert(file.clone()));
                    if new_url && new_file {
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

/// A document held in memory, as an editor has it.
#[derive(Debug, Clone)]
pub struct InMemory {
    /// What findings call it: a file name, a buffer's title.
    pub name: String,
    /// Where it is published, if known: relative links resolve against it,
    /// and the set rules match links to documents by it.
    pub url: Option<String>,
    pub bytes: Vec<u8>,
}

/// Lints one document given as bytes (an editor buffer, a test, a fuzzer).
pub fn lint_bytes(name: &str, url: Option<&str>, bytes: &[u8], options: &Options) -> Result<Report, InvalidUrl> {
    let document = InMemory {
        name: name.to_owned(),
        url: url.map(str::to_owned),
        bytes: bytes.to_vec(),
    };
    lint_in_memory(vec![document], &[], options)
}

/// Lints documents held in memory as one set. `url_spaces` are the URL
/// prefixes under which a linked document is expected to be among them
/// (see `archive-link-dangling`). Every URL must be absolute.
pub fn lint_in_memory(documents: Vec<InMemory>, url_spaces: &[&str], options: &Options) -> Result<Report, InvalidUrl> {
    let url_spaces = url_spaces
        .iter()
        .map(|space| absolute_url(space).map(|url| UrlSpace::of(site::as_directory(url))))
        .collect::<Result<Vec<UrlSpace>, _>>()?;
    let run = read_in_memory(documents, false, options)?;
    Ok(kept(|sink| run.report(&url_spaces, Vec::new(), sink)))
}

/// How files were uploaded together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upload {
    /// Chosen one by one, with their paths.
    Files,
    /// Chosen one by one without their folders (a browser sends the names
    /// of files chosen so, not their paths): a link in the upload's own
    /// space that leads to no document is taken to lead to the one
    /// document of its file name, if there is exactly one
    /// (`archive/2003-10.atom` finds `2003-10.atom`).
    WithoutFolders,
    /// A whole folder: like a walked directory, a file that is no feed is
    /// skipped unless its extension says it is one.
    Folder,
}

/// Lints files uploaded together as one tree, each at its URL (its path
/// in the upload, or where it is published).
pub fn lint_upload(documents: Vec<InMemory>, upload: Upload, options: &Options) -> Result<Report, InvalidUrl> {
    let walked = upload == Upload::Folder;
    let mut run = read_in_memory(documents, walked, options)?;
    if upload == Upload::WithoutFolders {
        match_by_file_name(&mut run.done);
    }
    let mut report = kept(|sink| run.report(&[], Vec::new(), sink));
    if walked && report.linted_documents() == 0 {
        report.failures.push(Failure::NoFeeds {
            paths: vec![std::path::PathBuf::from("the uploaded folder")],
        });
    }
    Ok(report)
}

/// Reads and analyzes documents held in memory into a run (`walked`: as
/// a walk finds files, a file that is no feed skipped).
fn read_in_memory(documents: Vec<InMemory>, walked: bool, options: &Options) -> Result<Run<'_>, InvalidUrl> {
    let jobs = documents
        .into_iter()
        .map(|document| {
            let url = document.url.as_deref().map(absolute_url).transpose()?;
            let explicit = !walked || discover::has_feed_extension(std::path::Path::new(&document.name));
            Ok(Job {
                explicit,
                ..Job::of_bytes(document.name, url, document.bytes)
            })
        })
        .collect::<Result<Vec<_>, InvalidUrl>>()?;
    let mut run = Run::new(options);
    run.read(jobs);
    Ok(run)
}

/// The last segment of a URL's path: its file name.
fn file_name(url: &Url) -> Option<&str> {
    url.path_segments()?.next_back().filter(|name| !name.is_empty())
}

/// Gives each document, as an alias, the link targets in its own space
/// (its origin, or `file:`) that name no document but end in its file
/// name, where no other document has that name (see [`lint_upload`]).
fn match_by_file_name(done: &mut [Outcome]) {
    let mut by_name: crate::base::hash::FastMap<String, Option<usize>> = crate::base::hash::FastMap::default();
    let mut known: FastSet<String> = FastSet::default();
    for (i, outcome) in done.iter().enumerate() {
        let Some(url) = &outcome.document.url else { continue };
        known.insert(crate::text::iri::comparison_key(url).into_owned());
        if let Some(name) = file_name(url) {
            by_name
                .entry(name.to_owned())
                .and_modify(|doc| *doc = None)
                .or_insert(Some(i));
        }
    }
    let same_space = |a: &Url, b: &Url| a.origin() == b.origin() || a.scheme() == "file" && b.scheme() == "file";
    let mut aliases: Vec<(usize, Url)> = Vec::new();
    for outcome in done.iter() {
        let (Some(from), Some(summary)) = (&outcome.document.url, &outcome.document.summary) else {
            continue;
        };
        for target in summary.links.iter().filter_map(|link| link.target.as_ref()) {
            if !same_space(from, target) || known.contains(crate::text::iri::comparison_key(target).as_ref()) {
                continue;
            }
            if let Some(&Some(doc)) = file_name(target).and_then(|name| by_name.get(name)) {
                aliases.push((doc, target.clone()));
            }
        }
    }
    for (doc, alias) in aliases {
        let document = &mut done[doc].document;
        if !document.aliases.contains(&alias) {
            document.aliases.push(alias);
        }
    }
}

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
fn run_jobs(
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
    } = job;
    // How the document is known, once its file (if any) is settled.
    let named = move |path| Named {
        name,
        path,
        url,
        charset,
        media_type,
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
        Origin::File(path) if options.overlay.contains_key(&path) => (options.overlay[&path].clone(), Some(path)),
        Origin::File(path) => {
            // A walked file is read on only if it starts like XML.
            let first_look = (!explicit).then_some(discover::looks_like_xml as fn(&[u8]) -> bool);
            match discover::read_file(&path, options.max_file_size(), first_look) {
                Ok(Read::Whole(bytes)) => (bytes, Some(path)),
                Ok(Read::NotWanted) => return Ok(None),
                Ok(Read::TooLarge { size, prefix }) => {
                    // A walked file too large to read is reported only if it
                    // looks like a feed; a video in the tree is not a finding.
                    let looks_like_feed = discover::looks_like_xml(&prefix)
                        && analyze::root_name_is_feed(&String::from_utf8_lossy(&prefix));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::failure::Failure;

    #[test]
    fn urls_given_to_the_library_must_be_absolute() {
        let feed = b"<feed xmlns='http://www.w3.org/2005/Atom'/>";
        let error = lint_bytes("a.atom", Some("feeds/a.atom"), feed, &Options::default()).unwrap_err();
        assert_eq!(error.url, "feeds/a.atom");
        assert!(
            error.to_string().starts_with("'feeds/a.atom' is not an absolute URL: "),
            "{error}"
        );
        let documents = vec![InMemory {
            name: "a.atom".to_owned(),
            url: Some("https://example.org/a.atom".to_owned()),
            bytes: feed.to_vec(),
        }];
        assert!(lint_in_memory(documents.clone(), &["example.org"], &Options::default()).is_err());
        let report = lint_in_memory(documents, &["https://example.org/"], &Options::default()).unwrap();
        assert_eq!(report.documents[0].url(), Some("https://example.org/a.atom"));
        assert!(Options::default().with_base_url("/site/").is_err());
    }

    #[test]
    fn a_path_that_cannot_be_read_is_a_typed_failure_and_the_others_are_linted() {
        let fixture = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testsuite/rules/archive-missing-current/fail-no-current.atom"
        );
        let inputs = vec![Input::Path("no/such/feed.atom".into()), Input::Path(fixture.into())];
        let report = lint(inputs, &Options::default());
        match &report.failures[..] {
            [Failure::Unreadable { path, error }] => {
                assert_eq!(path.to_str(), Some("no/such/feed.atom"));
                assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(report.documents.len(), 1);
        assert!(report.failures[0]
            .to_string()
            .starts_with("cannot read no/such/feed.atom: "));
    }
}
