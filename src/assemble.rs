//! The last stages: the set checks over the documents' summaries, then
//! levels, suppressions, sorting and folding, into the [`Report`] the
//! renderers write.

use std::path::PathBuf;

use rayon::prelude::*;
use url::Url;

use crate::analyze::Outcome;
use crate::diagnostic::{fold_document, Diagnostic, DocId, DocSpan, Level, Pending, Span};
use crate::document::Document;
use crate::options::Options;
use crate::rules::{self, Rule, SetChecker};
use crate::set::FeedSet;
use crate::suppress;

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

    /// Keeps what room is left of `outcome`'s findings (already past its
    /// suppressions and folded) and counts the rest.
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
        for past in outcome.diagnostics.drain(*left..) {
            self.dropped.add(past.level, past.folded.max(1));
        }
        *left = 0;
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
    /// about the set (the fetcher's), met by each document's suppressions
    /// and merged in report order.
    pub(crate) fn assemble(
        outcomes: Vec<Outcome>,
        url_spaces: &[Url],
        extra: Vec<(&'static Rule, Pending<Span>)>,
        options: &Options,
    ) -> Report {
        let mut report = Report::default();
        let mut own = Vec::with_capacity(outcomes.len());
        // The engine spends the budget as it reads (so that memory stays
        // bounded); this spends it for callers that hand in all at once.
        let mut budget = FindingBudget::new(options.max_findings);
        for mut outcome in outcomes {
            budget.spend(&mut outcome);
            report.documents.push(outcome.document);
            own.push((outcome.diagnostics, outcome.unused_level));
        }
        report.dropped = budget.dropped;
        let mut about_set = report.check_set(url_spaces, options);
        about_set.extend(extra);
        let set_findings = report.set_findings_by_document(about_set, options);
        // Each document on its own: its set findings meet its suppressions,
        // its unused suppressions are reported, and its findings are put in
        // order and folded, all in parallel; then only merged.
        let max_per_rule = options.max_per_rule;
        let per_document: Vec<Vec<Diagnostic>> = report
            .documents
            .par_iter_mut()
            .zip(own)
            .zip(set_findings)
            .enumerate()
            .map(|(doc, ((document, (own, unused_level)), set))| {
                finish_document(doc, document, own, unused_level, set, max_per_rule)
            })
            .collect();
        report.diagnostics = in_report_order(&report.documents, per_document);
        // Set findings and unused suppressions come on top of the
        // documents' findings: the cap holds for all.
        if options.max_findings > 0 && report.diagnostics.len() > options.max_findings {
            for past in report.diagnostics.drain(options.max_findings..) {
                report.dropped.add(past.level, past.folded.max(1));
            }
        }
        report
    }

    /// Runs the set rules over the summaries of all documents.
    fn check_set(&self, url_spaces: &[Url], options: &Options) -> Vec<(&'static Rule, Pending<Span>)> {
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
        per_rule.into_iter().flatten().collect()
    }

    /// Findings about the set at the level of their primary document, by
    /// that document; none for a document read as context.
    fn set_findings_by_document(
        &self,
        findings: Vec<(&'static Rule, Pending<Span>)>,
        options: &Options,
    ) -> Vec<Vec<Diagnostic>> {
        let mut by_document: Vec<Vec<Diagnostic>> =
            std::iter::repeat_with(Vec::new).take(self.documents.len()).collect();
        for (rule, pending) in findings {
            let doc = pending.primary.doc;
            let primary = &self.documents[doc];
            if primary.context {
                continue;
            }
            if let Some(level) = options.levels.level_for(rule, primary.path.as_deref()) {
                by_document[doc].push(pending.into_diagnostic(rule.id, level));
            }
        }
        by_document
    }
}

/// One document's findings as the report shows them: `own` (its rules',
/// already past its suppressions, sorted and folded where it was analyzed)
/// merged with `set` (the set rules' about it), once those have met its
/// suppressions, and the suppressions that covered nothing reported.
fn finish_document(
    doc: DocId,
    document: &mut Document,
    own: Vec<Diagnostic<DocSpan>>,
    unused_level: Option<Level>,
    mut set: Vec<Diagnostic>,
    max_per_rule: usize,
) -> Vec<Diagnostic> {
    if document.context {
        return Vec::new();
    }
    suppress::apply(&mut set, &mut document.suppressions);
    if let Some(level) = unused_level {
        set.extend(rules::xml::unused_findings(
            &document.suppressions,
            doc,
            level,
            max_per_rule,
        ));
    }
    if set.is_empty() {
        return own.into_iter().map(|d| d.in_doc(doc)).collect();
    }
    set.iter_mut().for_each(Diagnostic::bound_texts);
    set.sort_by(Diagnostic::cmp_in_document);
    let mut merged = Vec::with_capacity(own.len() + set.len());
    let mut own = own.into_iter().map(|d| d.in_doc(doc)).peekable();
    let mut set = set.into_iter().peekable();
    loop {
        let take_own = match (own.peek(), set.peek()) {
            (Some(a), Some(b)) => a.cmp_in_document(b).is_le(),
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        merged.extend(if take_own { own.next() } else { set.next() });
    }
    // The set rules' findings and the unused suppressions are folded here
    // (a document rule's were as it ran: folding again keeps them).
    fold_document(&mut merged, max_per_rule);
    merged
}

/// The documents' findings, each document's already in order, in the
/// report's order: by document name, then within the document. Documents
/// that share a name (two standard inputs cannot, but a URL and a file
/// may) have their findings sorted together.
fn in_report_order(documents: &[Document], per_document: Vec<Vec<Diagnostic>>) -> Vec<Diagnostic> {
    let mut order: Vec<DocId> = (0..documents.len()).collect();
    order.sort_by(|&a, &b| documents[a].name.cmp(&documents[b].name));
    let mut per_document: Vec<Option<Vec<Diagnostic>>> = per_document.into_iter().map(Some).collect();
    let mut all = Vec::with_capacity(per_document.iter().flatten().map(Vec::len).sum());
    for group in order.chunk_by(|&a, &b| documents[a].name == documents[b].name) {
        let start = all.len();
        for &doc in group {
            all.extend(per_document[doc].take().unwrap_or_default());
        }
        if group.len() > 1 {
            all[start..].sort_by(Diagnostic::cmp_in_document);
        }
    }
    all
}
