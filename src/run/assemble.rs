//! The last stages: the set checks over the documents' summaries, then
//! levels, suppressions, sorting and folding, into the [`Report`] the
//! renderers write.

use rayon::prelude::*;

use crate::findings::diagnostic::{fold_document, word_folds, Diagnostic, DocId, DocSpan, Level, Pending, Span, Text};
use crate::findings::remedy::Wording;
use crate::findings::suppress::{self, Suppression};
use crate::model::document::Document;
use crate::model::set::{FeedSet, UrlSpace};
use crate::report::{Dropped, Report, Sink};
use crate::rules::{self, Rule, SetChecker};
use crate::run::analyze::Outcome;
use crate::settings::options::Options;

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

    /// Whether one more finding at `level` is kept; if not, it is counted.
    pub(crate) fn keep_one(&mut self, level: Level) -> bool {
        match self.left.as_mut() {
            None => true,
            Some(0) => {
                self.dropped.add(level, 1);
                false
            }
            Some(left) => {
                *left -= 1;
                true
            }
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
            outcome.dropped.add(past.level, past.folded.max(1));
        }
        *left = 0;
    }

    /// Gives back what `outcome` spent: it is to be analyzed again.
    pub(crate) fn refund(&mut self, outcome: &Outcome) {
        if let Some(left) = self.left.as_mut() {
            *left += outcome.diagnostics.len();
        }
        for level in [Level::Error, Level::Warning, Level::Info] {
            self.dropped.remove(level, outcome.dropped.of(level));
        }
    }
}

/// The next documents to finish together, in report order: a bounded
/// number of documents and findings, and documents that share a name (a
/// URL and a file may) in one chunk, since their findings sort together.
fn next_chunk(work: &mut std::iter::Peekable<std::vec::IntoIter<Finishing>>, documents: &[Document]) -> Vec<Finishing> {
    let mut chunk: Vec<Finishing> = Vec::new();
    let mut chunk_findings = 0;
    while let Some(next) = work.next_if(|next| {
        (chunk.len() < FINISHED_TOGETHER && chunk_findings < FINDINGS_FINISHED_TOGETHER)
            || chunk
                .last()
                .is_some_and(|last| documents[last.doc].name == documents[next.doc].name)
    }) {
        chunk_findings += next.own.len() + next.set.len() + next.suppressions.len();
        chunk.push(next);
    }
    chunk
}

/// The documents' findings, then the set rules' and `extra` findings
/// about the set (the fetcher's), met by each document's suppressions
/// and merged in report order, given to `sink` as they are assembled,
/// a chunk of documents at a time.
pub(crate) fn assemble(
    outcomes: Vec<Outcome>,
    url_spaces: &[UrlSpace],
    extra: Vec<(&'static Rule, Pending<Span>)>,
    options: &Options,
    sink: &mut dyn Sink,
) -> Report {
    let mut report = Report::default();
    let mut own = Vec::with_capacity(outcomes.len());
    // The engine spends the budget as it reads (so that memory stays
    // bounded); this spends it for callers that hand in all at once.
    let mut budget = FindingBudget::new(options.max_findings());
    for mut outcome in outcomes {
        budget.spend(&mut outcome);
        own.push((outcome.diagnostics, outcome.unused_level));
        report.documents.push(outcome.document);
    }
    report.dropped = budget.dropped;
    let mut about_set = check_set(&report, url_spaces, options);
    for (rule, finding) in &about_set {
        if rule.id == crate::rules::xml::INTERNAL_ERROR.id {
            report.documents[finding.primary.doc].internal_error = true;
        }
    }
    about_set.extend(extra);
    let set_findings = set_findings_by_document(&report, about_set, options);
    sink.start(&report);
    // Each document on its own, in parallel, a chunk of documents at a
    // time in report order: its set findings meet its suppressions, its
    // unused suppressions are reported, and its findings are put in
    // order and folded; the chunk is then given to the sink.
    let mut work: Vec<Finishing> = own
        .into_iter()
        .zip(set_findings)
        .enumerate()
        .map(|(doc, ((own, unused_level), set))| Finishing {
            doc,
            context: report.documents[doc].context,
            own,
            unused_level,
            set,
            suppressions: std::mem::take(&mut report.documents[doc].suppressions),
        })
        .collect();
    let documents = &report.documents;
    work.sort_by(|a, b| documents[a.doc].name.cmp(&documents[b.doc].name));
    let mut left = (options.max_findings() > 0).then_some(options.max_findings());
    // Each suppression gives at most one finding (unused); folding and
    // suppressing only take findings away.
    let at_most: usize = work
        .iter()
        .map(|f| f.own.len() + f.set.len() + f.suppressions.len())
        .sum();
    sink.expect(left.map_or(at_most, |left| at_most.min(left)));
    let mut work = work.into_iter().peekable();
    loop {
        let chunk = next_chunk(&mut work, &report.documents);
        if chunk.is_empty() {
            break;
        }
        let finished: Vec<(DocId, Vec<Diagnostic>, Vec<Suppression>)> = chunk
            .into_par_iter()
            .map(|finishing| finishing.finish(options.max_per_rule(), options.words()))
            .collect();
        let mut findings = Vec::with_capacity(finished.iter().map(|f| f.1.len()).sum());
        let mut bounds = Vec::with_capacity(finished.len());
        for (doc, own, suppressions) in finished {
            report.documents[doc].suppressions = suppressions;
            let start = findings.len();
            findings.extend(own);
            bounds.push((doc, start..findings.len()));
        }
        let documents = &report.documents;
        for same in bounds.chunk_by(|a, b| documents[a.0].name == documents[b.0].name) {
            if let [(_, first), .., (_, last)] = same {
                findings[first.start..last.end].sort_by(Diagnostic::cmp_in_document);
            }
        }
        // Set findings and unused suppressions come on top of the
        // documents' findings: the cap holds for all.
        if let Some(left) = left.as_mut() {
            let past = findings.split_off((*left).min(findings.len()));
            *left -= findings.len();
            for past in past {
                report.dropped.add(past.level, past.folded.max(1));
            }
        }
        for finding in &findings {
            report.shown.add(finding.level, 1);
            report.folded += finding.folded;
        }
        if !findings.is_empty() {
            sink.findings(&report, findings);
        }
    }
    report
}

/// Runs the set rules over the summaries of all documents.
fn check_set(report: &Report, url_spaces: &[UrlSpace], options: &Options) -> Vec<(&'static Rule, Pending<Span>)> {
    let set = FeedSet::new(&report.documents, url_spaces);
    // Each set rule on its own thread: this phase waits for every
    // document, so nothing else would keep the cores busy.
    let enabled: Vec<&'static Rule> = rules::RULES
        .iter()
        .copied()
        .filter(|rule| rule.set_check.is_some() && options.levels().enabled_anywhere(rule))
        .collect();
    let per_rule: Vec<Vec<_>> = enabled
        .par_iter()
        .with_max_len(1)
        .map(|rule| {
            let mut checker = SetChecker::new(&set, options.words());
            checker.run(rule);
            checker.into_findings()
        })
        .collect();
    per_rule.into_iter().flatten().collect()
}

/// Findings about the set at the level of their primary document, by
/// that document; none for a document read as context (but what such
/// a document's findings stand for is folded into them first, so a
/// run over part of a tree reports what the whole tree's would).
fn set_findings_by_document(
    report: &Report,
    findings: Vec<(&'static Rule, Pending<Span>)>,
    options: &Options,
) -> Vec<Vec<Diagnostic>> {
    let leveled: Vec<Leveled> = findings
        .into_iter()
        .filter_map(|(rule, pending)| {
            let primary = &report.documents[pending.primary.doc];
            let level = options.levels().level_for(rule, primary.path.as_deref())?;
            Some((rule, pending, level))
        })
        .collect();
    let mut by_document: Vec<Vec<Diagnostic>> = std::iter::repeat_with(Vec::new).take(report.documents.len()).collect();
    for (rule, pending, level) in fold_into_causes(leveled, &report.documents) {
        let doc = pending.primary.doc;
        if !report.documents[doc].context {
            by_document[doc].push(pending.into_diagnostic(rule.id, level));
        }
    }
    by_document
}

/// A set finding with the level it is reported at.
type Leveled = (&'static Rule, Pending<Span>, Level);

/// The most findings that follow from one link shown in its finding's
/// notes; the rest are counted.
const CAUSED_SHOWN: usize = 4;

/// One mistake, one finding: a finding that follows from a link's mistake
/// (a chain cut by a link to a missing archive or page: the neighbour that names
/// the link's document back, the archives no longer reached) is folded
/// into the finding at that link, which says what else the link breaks,
/// points there, and is reported at the most serious level of what it
/// stands for. A finding whose cause has no finding of its own (its rule
/// is off) stays as it is.
fn fold_into_causes(findings: Vec<Leveled>, documents: &[Document]) -> Vec<Leveled> {
    let causes: crate::base::hash::FastMap<(DocId, usize), usize> = findings
        .iter()
        .enumerate()
        .filter(|(_, (rule, _, _))| {
            matches!(
                rule.id,
                crate::findings::rule_id::RuleId::ArchiveLinkDangling
                    | crate::findings::rule_id::RuleId::PagingLinkDangling
            )
        })
        .map(|(i, (_, pending, _))| ((pending.primary.doc, pending.primary.byte_start), i))
        .collect();
    if causes.is_empty() {
        return findings;
    }
    let into: Vec<Option<usize>> = findings
        .iter()
        .enumerate()
        .map(|(i, (_, pending, _))| {
            pending
                .cause
                .and_then(|cause| causes.get(&cause).copied())
                .filter(|&j| j != i)
        })
        .collect();
    let mut slots: Vec<Option<Leveled>> = findings.into_iter().map(Some).collect();
    let mut caused: Vec<usize> = vec![0; slots.len()];
    for (i, cause) in into.iter().enumerate() {
        let Some(j) = *cause else { continue };
        let Some((rule, follows, level)) = slots[i].take() else {
            continue;
        };
        let Some((_, at_cause, cause_level)) = slots[j].as_mut() else {
            continue;
        };
        caused[j] += 1;
        *cause_level = (*cause_level).max(level);
        if caused[j] > CAUSED_SHOWN {
            continue;
        }
        if caused[j] == 1 {
            at_cause.notes.push(Text::Borrowed(
                "this link cuts the chain: what follows from it elsewhere is reported here, at the level of the most serious of it",
            ));
        }
        let at = &follows.primary;
        let name = &documents[at.doc].name;
        at_cause.notes.push(Text::Owned(format!(
            "because of it, {name}:{}: {level}[{}] {}",
            at.line_start, rule.id, follows.message
        )));
        at_cause
            .secondary
            .push((at.clone(), Text::Owned(format!("{}, because of this link", rule.id))));
    }
    for (j, count) in caused.iter().enumerate() {
        if let (Some((_, at_cause, _)), true) = (slots[j].as_mut(), *count > CAUSED_SHOWN) {
            at_cause.notes.push(Text::Owned(format!(
                "and {} more findings that follow from this link",
                count - CAUSED_SHOWN
            )));
        }
    }
    slots.into_iter().flatten().collect()
}

/// One document's findings as the report shows them: `own` (its rules',
/// already past its suppressions, sorted and folded where it was analyzed)
/// merged with `set` (the set rules' about it), once those have met its
/// suppressions, and the suppressions that covered nothing reported.
struct Finishing {
    doc: DocId,
    context: bool,
    own: Vec<Diagnostic<DocSpan>>,
    unused_level: Option<Level>,
    set: Vec<Diagnostic>,
    suppressions: Vec<Suppression>,
}

impl Finishing {
    fn finish(self, max_per_rule: usize, words: &dyn Wording) -> (DocId, Vec<Diagnostic>, Vec<Suppression>) {
        let Finishing {
            doc,
            context,
            own,
            unused_level,
            mut set,
            mut suppressions,
        } = self;
        if context {
            return (doc, Vec::new(), suppressions);
        }
        suppress::apply(&mut set, &mut suppressions);
        if let Some(level) = unused_level {
            set.extend(rules::xml::unused_findings(&suppressions, doc, level, max_per_rule));
        }
        if set.is_empty() {
            return (doc, own.into_iter().map(|d| d.in_doc(doc)).collect(), suppressions);
        }
        set.iter_mut().for_each(Diagnostic::make_texts_showable);
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
        // The set rules' findings and the unused suppressions are folded
        // here (a document rule's were as it ran: folding again keeps them).
        fold_document(&mut merged, max_per_rule);
        word_folds(&mut merged, words);
        (doc, merged, suppressions)
    }
}

/// How many documents, and how many of their findings, are finished in
/// parallel before their findings go to the sink: enough to keep every
/// core busy (each chunk waits for its slowest document, and wakes the
/// sleeping threads: with 16 threads, a chunk of 256 documents with few
/// findings took longer to hand out than to finish), few enough that a
/// chunk's findings are a small part of a run's.
const FINISHED_TOGETHER: usize = 4096;
const FINDINGS_FINISHED_TOGETHER: usize = 16_384;
