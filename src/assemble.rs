//! The last stages: the set checks over the documents' summaries, then
//! levels, suppressions, sorting and folding, into the [`Report`] the
//! renderers write.

use std::path::PathBuf;

use rayon::prelude::*;
use url::Url;

use crate::analyze::Outcome;
use crate::diagnostic::{folding_finding, Diagnostic, DocId, Level, Pending, Span};
use crate::document::Document;
use crate::hash::FastMap;
use crate::options::Options;
use crate::rule_id::RuleId;
use crate::rules::{self, Rule, SetChecker};
use crate::set::FeedSet;
use crate::suppress::{self, Suppression};

/// Everything a run found.
#[derive(Debug, Default)]
pub struct Report {
    pub documents: Vec<Document>,
    /// Sorted by file, then byte offset, then rule.
    pub diagnostics: Vec<Diagnostic>,
    /// What could not be linted at all: the run failed for it (exit status 2).
    pub failures: Vec<Failure>,
    /// What was skipped on the way and did not fail the run (an ignore
    /// file that is not a regular file), said on standard error.
    pub warnings: Vec<String>,
    /// The findings past `--max-findings`, not kept: how many of each
    /// level (errors, warnings, infos).
    pub dropped: Dropped,
}

/// Findings counted but not kept, by level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dropped {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

impl Dropped {
    pub(crate) fn add(&mut self, level: Level, n: usize) {
        match level {
            Level::Error => self.errors += n,
            Level::Warning => self.warnings += n,
            Level::Info => self.infos += n,
        }
    }

    pub fn of(&self, level: Level) -> usize {
        match level {
            Level::Error => self.errors,
            Level::Warning => self.warnings,
            Level::Info => self.infos,
        }
    }

    pub fn total(&self) -> usize {
        self.errors + self.warnings + self.infos
    }
}

/// What is left of `--max-findings` as documents are added, in the order
/// the run reads them, so that the same findings are kept at any number of
/// threads.
pub(crate) struct FindingBudget {
    left: Option<usize>,
    pub dropped: Dropped,
}

impl FindingBudget {
    pub(crate) fn new(max: usize) -> FindingBudget {
        FindingBudget {
            left: (max > 0).then_some(max),
            dropped: Dropped::default(),
        }
    }

    /// A budget with what is left of this one, for one document of a
    /// chunk read in parallel: each document keeps at most what was left
    /// when the chunk started (so a chunk's memory is bounded by it), and
    /// the chunk is then spent in order.
    pub(crate) fn snapshot(&self) -> FindingBudget {
        FindingBudget {
            left: self.left,
            dropped: Dropped::default(),
        }
    }

    /// Counts what another budget dropped.
    pub(crate) fn absorb(&mut self, dropped: Dropped) {
        for level in [Level::Error, Level::Warning, Level::Info] {
            self.dropped.add(level, dropped.of(level));
        }
    }

    /// Keeps what room is left of `outcome`'s findings and counts the
    /// rest. A finding past the cap still uses the suppression that covers
    /// it (it is not counted then), so no suppression is called unused
    /// because its finding was not kept.
    pub(crate) fn spend(&mut self, outcome: &mut Outcome) {
        // A document read as context is never reported on: its findings
        // are not kept, and do not count.
        if outcome.document.context {
            outcome.diagnostics.clear();
            return;
        }
        let Some(left) = self.left.as_mut() else { return };
        if outcome.diagnostics.len() <= *left {
            *left -= outcome.diagnostics.len();
            return;
        }
        let past: Vec<Diagnostic> = outcome
            .diagnostics
            .split_off(*left)
            .into_iter()
            .map(|diagnostic| diagnostic.in_doc(0))
            .collect();
        *left = 0;
        self.drop_findings(past, std::slice::from_mut(&mut outcome.document.suppressions));
    }

    /// Counts `past` as dropped, less what `suppressions` cover.
    fn drop_findings(&mut self, mut past: Vec<Diagnostic>, suppressions: &mut [Vec<Suppression>]) {
        if suppressions.iter().any(|s| !s.is_empty()) {
            suppress::apply(&mut past, suppressions);
        }
        for diagnostic in past {
            self.dropped.add(diagnostic.level, diagnostic.folded.max(1));
        }
    }
}

/// Something named to lint that could not be: a path that does not exist or
/// cannot be read, a directory that cannot be walked, a URL named on the
/// command line that cannot be fetched or is not a feed.
#[derive(Debug)]
pub enum Failure {
    Unreadable {
        path: PathBuf,
        error: std::io::Error,
    },
    Unwalkable {
        path: PathBuf,
        message: String,
    },
    Unfetchable {
        url: String,
        message: String,
    },
    /// The paths named hold no feed at all: a run that lints nothing
    /// should not pass as one that found nothing wrong.
    NoFeeds {
        paths: Vec<PathBuf>,
    },
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Unreadable { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            Failure::Unwalkable { path, message } => write!(f, "cannot walk {}: {message}", path.display()),
            Failure::Unfetchable { url, message } => write!(f, "cannot lint {url}: {message}"),
            Failure::NoFeeds { paths } => {
                let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                write!(
                    f,
                    "no feed found in {}: nothing was linted (feeds are Atom, RSS and Deleted Entry Documents)",
                    paths.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for Failure {}

impl Failure {
    /// The path or URL that could not be linted, as given.
    pub fn input(&self) -> String {
        match self {
            Failure::Unreadable { path, .. } | Failure::Unwalkable { path, .. } => path.display().to_string(),
            Failure::Unfetchable { url, .. } => url.clone(),
            Failure::NoFeeds { paths } => paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

impl Report {
    /// The findings of `level`, those past `--max-findings` included.
    pub fn count(&self, level: Level) -> usize {
        self.diagnostics.iter().filter(|d| d.level == level).count() + self.dropped.of(level)
    }

    /// The documents linted and reported on: not those read only as the
    /// context of a set check.
    pub fn linted_documents(&self) -> usize {
        self.documents.iter().filter(|d| !d.context).count()
    }

    /// The documents read only because linted documents link to them.
    pub fn context_documents(&self) -> usize {
        self.documents.len() - self.linted_documents()
    }

    /// The documents' findings, then the set rules' and `extra` findings
    /// about the set (the fetcher's), then suppressions, sorted.
    pub(crate) fn assemble(
        outcomes: Vec<Outcome>,
        url_spaces: &[Url],
        extra: Vec<(&'static Rule, Pending<Span>)>,
        options: &Options,
    ) -> Report {
        let mut report = Report::default();
        let mut unused = Vec::with_capacity(outcomes.len());
        // The engine spends the budget as it reads (so that memory stays
        // bounded); this spends it for callers that hand in all at once.
        let mut budget = FindingBudget::new(options.max_findings);
        for mut outcome in outcomes {
            budget.spend(&mut outcome);
            unused.push(report.add(outcome));
        }
        report.dropped = budget.dropped;
        report.check_set(url_spaces, options);
        report.add_set_findings(extra, options);
        report.apply_suppressions(unused, options.max_per_rule);
        report.sort();
        report.fold(options.max_per_rule);
        // Set findings and unused suppressions come on top of the
        // documents' findings: the cap holds for all.
        if options.max_findings > 0 && report.diagnostics.len() > options.max_findings {
            for past in report.diagnostics.drain(options.max_findings..) {
                report.dropped.add(past.level, past.folded.max(1));
            }
        }
        for diagnostic in &mut report.diagnostics {
            diagnostic.bound_texts();
        }
        report
    }

    /// Adds a document and its findings; returns the level of its
    /// `unused-suppression` findings, which are made once every finding
    /// has met the suppressions.
    fn add(&mut self, outcome: Outcome) -> Option<Level> {
        let doc = self.documents.len();
        let Outcome {
            document,
            diagnostics,
            unused_level,
        } = outcome;
        // The document's places name no document until here, where it gets
        // its number (as its summary's do until a set rule reads them). A
        // document read as context is not reported on.
        if document.context {
            self.documents.push(document);
            return None;
        }
        self.diagnostics.extend(diagnostics.into_iter().map(|d| d.in_doc(doc)));
        self.documents.push(document);
        unused_level
    }

    /// Runs the set rules over the summaries of all documents.
    fn check_set(&mut self, url_spaces: &[Url], options: &Options) {
        let set = FeedSet::new(&self.documents, url_spaces);
        // Each set rule on its own thread: this phase waits for every
        // document, so nothing else would keep the cores busy.
        let enabled: Vec<&'static Rule> = rules::RULES
            .iter()
            .copied()
            .filter(|rule| rule.set_check.is_some() && options.levels.enabled_anywhere(rule))
            .collect();
        let per_rule: Vec<Vec<_>> = enabled
            .par_iter()
            .with_max_len(1)
            .map(|rule| {
                let mut checker = SetChecker::new(&set);
                checker.run(rule);
                checker.into_findings()
            })
            .collect();
        self.add_set_findings(per_rule.into_iter().flatten().collect(), options);
    }

    /// Findings about the set, at the level of their primary document.
    fn add_set_findings(&mut self, findings: Vec<(&'static Rule, Pending<Span>)>, options: &Options) {
        let documents = &self.documents;
        self.diagnostics
            .extend(findings.into_iter().filter_map(|(rule, pending)| {
                let primary = &documents[pending.primary.doc];
                if primary.context {
                    return None;
                }
                let path = primary.path.as_deref();
                let level = options.levels.level_for(rule, path)?;
                Some(pending.into_diagnostic(rule.id, level))
            }));
    }

    /// Drops the findings that `feedlint-disable` comments cover, then
    /// reports the suppressions that covered none.
    fn apply_suppressions(&mut self, unused_levels: Vec<Option<Level>>, max_per_rule: usize) {
        let mut suppressions: Vec<Vec<Suppression>> = self
            .documents
            .iter_mut()
            .map(|d| std::mem::take(&mut d.suppressions))
            .collect();
        suppress::apply(&mut self.diagnostics, &mut suppressions);
        for (doc, (document, suppressions)) in self.documents.iter_mut().zip(suppressions).enumerate() {
            if let Some(level) = unused_levels[doc] {
                let stale = rules::xml::unused_findings(&suppressions, doc, level, max_per_rule);
                self.diagnostics.extend(stale);
            }
            document.suppressions = suppressions;
        }
    }

    /// Keeps the first `max` findings of each rule in each document (0:
    /// all), in report order, and puts in place of the rest one finding
    /// that counts them, where the first of them was. Document rules that
    /// no suppression names were already folded as they ran (a finding that
    /// already stands for others is kept as it is); this folds the rest:
    /// set rules, the engine's own findings, and rules a suppression names,
    /// whose findings had to meet the suppressions first.
    fn fold(&mut self, max: usize) {
        if max == 0 {
            return;
        }
        let mut shown: FastMap<(DocId, RuleId), usize> = FastMap::default();
        // Per group past its limit: the index in `kept` of its folding
        // finding, and how many it stands for.
        let mut folds: FastMap<(DocId, RuleId), (usize, usize)> = FastMap::default();
        let mut kept = Vec::with_capacity(self.diagnostics.len());
        for diagnostic in std::mem::take(&mut self.diagnostics) {
            let group = (diagnostic.primary().doc, diagnostic.rule);
            let count = shown.entry(group).or_default();
            if diagnostic.folded > 0 || *count < max {
                *count += usize::from(diagnostic.folded == 0);
                kept.push(diagnostic);
                continue;
            }
            match folds.get_mut(&group) {
                Some((_, n)) => *n += 1,
                None => {
                    folds.insert(group, (kept.len(), 1));
                    kept.push(diagnostic);
                }
            }
        }
        for ((_, rule), (index, n)) in folds {
            let first = &kept[index];
            let fold = folding_finding(first.primary().clone(), rule, n, max);
            kept[index] = fold.into_diagnostic(rule, first.level);
        }
        self.diagnostics = kept;
    }

    fn sort(&mut self) {
        let names: Vec<&str> = self.documents.iter().map(|d| d.name.as_str()).collect();
        self.diagnostics.sort_by(|a, b| {
            let (pa, pb) = (a.primary(), b.primary());
            (names[pa.doc], pa.byte_start, a.rule, &a.message, pa.byte_end).cmp(&(
                names[pb.doc],
                pb.byte_start,
                b.rule,
                &b.message,
                pb.byte_end,
            ))
        });
    }
}
