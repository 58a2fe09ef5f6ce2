//! A run in progress: what it has read and analyzed, what failed, what is
//! left of `--max-findings`; and its report, made one way for files,
//! documents in memory and fetched documents.

use crate::findings::diagnostic::Level;
use crate::model::failure::Failure;
use crate::model::set::UrlSpace;
use crate::report::{Report, Sink};
use crate::run::analyze::Outcome;
use crate::run::assemble::{self, FindingBudget};
use crate::run::discover::{self, Input, Job};
use crate::run::jobs::{run_job, run_jobs};
use crate::run::reading::{Outside, Reading};
use crate::settings::options::Options;
use crate::site;

/// A run in progress: what it has read and analyzed, what failed, and
/// what is left of `--max-findings`. Files, documents in memory and
/// fetched documents are all read into one, and its report is made one
/// way ([`Run::report`]).
pub(crate) struct Run<'o> {
    pub(super) options: &'o Options,
    pub(super) done: Vec<Outcome>,
    pub(super) failures: Vec<Failure>,
    pub(super) warnings: Vec<String>,
    pub(super) budget: FindingBudget,
    pub(super) reading: Reading,
    pub(super) outside: Outside,
    /// The walk that fetched the documents, when they were fetched: the
    /// media check shares its deadline and its start.
    pub(crate) walked: Option<crate::settings::options::Walked>,
}

impl<'o> Run<'o> {
    pub(crate) fn new(options: &'o Options) -> Run<'o> {
        Run {
            options,
            done: Vec::new(),
            failures: Vec::new(),
            warnings: Vec::new(),
            budget: FindingBudget::new(options.max_findings()),
            reading: Reading::default(),
            outside: Outside::default(),
            walked: None,
        }
    }

    /// Walks the inputs and analyzes what the walk finds, as it finds it.
    pub(super) fn walk(&mut self, inputs: Vec<Input>, published: Option<&site::Published>) {
        // The walk runs on a thread of its own and hands each file over as it
        // finds it, so the documents are analyzed while the tree is walked
        // (a walk is serial: on 16 cores it was an eighth of a run).
        let (jobs, found) = crossbeam_channel::unbounded();
        let options = self.options;
        let mut failed_jobs = Vec::new();
        let (failures, warnings) = std::thread::scope(|scope| {
            let walker = scope.spawn(move || {
                let (mut failures, mut warnings) = (Vec::new(), Vec::new());
                let mut emit = |job| {
                    // The receiver lives until the walk ends.
                    let _ = jobs.send(job);
                };
                discover::gather(inputs, options, published, &mut emit, &mut failures, &mut warnings);
                (failures, warnings)
            });
            run_jobs(
                found,
                false,
                options,
                &mut self.done,
                &mut failed_jobs,
                &mut self.budget,
            );
            walker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
        self.failures.extend(failures.into_iter().chain(failed_jobs));
        self.warnings.extend(warnings);
    }

    /// Reads and analyzes documents named to be linted.
    pub(super) fn read(&mut self, jobs: Vec<Job>) {
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

    /// Reads a fetched web page, for the feeds it advertises; `None` where
    /// no `discovery` rule is on.
    pub(crate) fn read_page(&self, job: Job) -> Option<Outcome> {
        crate::run::jobs::read_page(job, self.options)
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

    /// How the run's findings name limits and remedies.
    pub(crate) fn words(&self) -> &'o dyn crate::findings::remedy::Wording {
        self.options.words()
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
        if let Some(check) = self.options.media().filter(|_| self.options.checks_media()) {
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
            check.check(&media, self.walked.as_ref(), options.words(), &mut |(rule, finding)| {
                let path = done[finding.primary.doc].document.path.as_deref();
                if let Some(level) = options.levels().level_for(rule, path) {
                    if budget.keep_one(level) {
                        extra.push((rule, finding));
                    }
                }
            });
        }
        if let Some(check) = self.options.hubs().filter(|_| self.options.checks_hubs()) {
            let hubs: Vec<(usize, &[crate::model::summary::Located<url::Url>])> = self
                .done
                .iter()
                .enumerate()
                .filter_map(|(doc, outcome)| Some((doc, outcome.document.summary.as_ref()?.hubs.as_slice())))
                .filter(|(_, hubs)| !hubs.is_empty())
                .collect();
            let (done, options, budget) = (&self.done, self.options, &mut self.budget);
            check.check(&hubs, self.walked.as_ref(), options.words(), &mut |(rule, finding)| {
                let path = done[finding.primary.doc].document.path.as_deref();
                if let Some(level) = options.levels().level_for(rule, path) {
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
}
