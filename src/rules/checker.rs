//! What a rule's check is given: [`Checker`], one document with its feed
//! view and where findings go; [`SetChecker`], the summaries of a run's
//! documents together. [`check_document`] runs the enabled rules on one.

use crate::feed::json_feed::JsonFeed;
use crate::feed::FeedDoc;
use crate::findings::diagnostic::{DocId, Folding, Pending, Span};
use crate::findings::remedy::Wording;
use crate::model::set::FeedSet;
use crate::model::summary::Location;
use rayon::prelude::*;
use std::ops::Range;

use crate::rules::{xml, Rule};

/// How many findings of a rule to keep as it runs (0: all); the rest are
/// counted in one more finding.
pub type FoldLimit<'f> = &'f (dyn Fn(&'static Rule) -> usize + Sync);

/// Runs `rules` over the document, each rule on its own thread when asked
/// (a large document). The findings come in the order of `rules` either way;
/// of each rule, as many as `limit` says and one that counts the rest.
pub fn check_document(
    feed: &FeedDoc<'_, '_>,
    rules: &[&'static Rule],
    parallel: bool,
    limit: FoldLimit<'_>,
    words: &dyn Wording,
) -> Vec<(&'static Rule, Pending)> {
    if parallel {
        // One task per rule: a few rules cost most, and each must be free
        // to go to whichever thread is idle.
        let per_rule: Vec<Vec<_>> = rules
            .par_iter()
            .with_max_len(1)
            .map(|rule| {
                let mut checker = Checker::new(feed, limit, words);
                checker.run(rule);
                checker.into_findings()
            })
            .collect();
        return per_rule.into_iter().flatten().collect();
    }
    let mut checker = Checker::new(feed, limit, words);
    for rule in rules {
        checker.run(rule);
    }
    checker.into_findings()
}

/// What a document rule is handed: the document, and a place to report.
pub struct Checker<'d, 'a, 'input> {
    pub feed: &'d FeedDoc<'a, 'input>,
    /// How findings name limits and remedies (each front door's words).
    pub words: &'d dyn Wording,
    collected: Collected<'d>,
}

impl<'d, 'a, 'input> Checker<'d, 'a, 'input> {
    pub fn new(feed: &'d FeedDoc<'a, 'input>, limit: FoldLimit<'d>, words: &'d dyn Wording) -> Self {
        Checker {
            feed,
            words,
            collected: Collected::new(limit),
        }
    }

    /// Runs one rule over the document.
    pub fn run(&mut self, rule: &'static Rule) {
        if let Some(check) = rule.check {
            let before = self.collected.begin(rule);
            let ran = crate::base::contain::contained(|| check(self));
            self.collected.end(rule, before, ran);
        }
    }

    /// Reports a finding of the rule being run.
    pub fn report(&mut self, finding: Pending) {
        self.collected.report(finding);
    }

    /// Shorthand for a finding with a message and nothing else yet.
    pub fn at(range: Range<usize>, message: impl Into<String>) -> Pending {
        Pending::new(range, message)
    }

    pub fn into_findings(self) -> Vec<(&'static Rule, Pending)> {
        self.collected.found
    }
}

/// What a JSON Feed rule is handed: the document, and a place to report.
pub struct JsonChecker<'c, 'd, 't> {
    pub feed: &'c JsonFeed<'d, 't>,
    pub words: &'c dyn Wording,
    collected: Collected<'c>,
}

impl<'c, 'd, 't> JsonChecker<'c, 'd, 't> {
    pub fn new(feed: &'c JsonFeed<'d, 't>, limit: FoldLimit<'c>, words: &'c dyn Wording) -> Self {
        JsonChecker {
            feed,
            words,
            collected: Collected::new(limit),
        }
    }

    /// Runs one rule over the document.
    pub fn run(&mut self, rule: &'static Rule) {
        if let Some(check) = rule.json_check {
            let before = self.collected.begin(rule);
            let ran = crate::base::contain::contained(|| check(self));
            self.collected.end(rule, before, ran);
        }
    }

    /// Reports a finding of the rule being run.
    pub fn report(&mut self, finding: Pending) {
        self.collected.report(finding);
    }

    pub fn into_findings(self) -> Vec<(&'static Rule, Pending)> {
        self.collected.found
    }
}

/// Runs the enabled JSON Feed rules over one JSON Feed document.
pub fn check_json_document(
    feed: &JsonFeed<'_, '_>,
    rules: &[&'static Rule],
    limit: FoldLimit<'_>,
    words: &dyn Wording,
) -> Vec<(&'static Rule, Pending)> {
    let mut checker = JsonChecker::new(feed, limit, words);
    for rule in rules {
        checker.run(rule);
    }
    checker.into_findings()
}

/// The findings of a document's rules as they run: those of the rule being
/// run kept as `--max-per-rule` says, the rest counted in one more.
struct Collected<'d> {
    rule: &'static Rule,
    found: Vec<(&'static Rule, Pending)>,
    limit: FoldLimit<'d>,
    folding: Folding<Range<usize>>,
}

impl<'d> Collected<'d> {
    fn new(limit: FoldLimit<'d>) -> Self {
        Collected {
            rule: &xml::XML_MALFORMED,
            found: Vec::new(),
            limit,
            folding: Folding::new(0),
        }
    }

    /// Starts `rule`: how many findings there were before it.
    fn begin(&mut self, rule: &'static Rule) -> usize {
        self.rule = rule;
        self.folding = Folding::new((self.limit)(rule));
        self.found.len()
    }

    /// Ends `rule`: its fold, or, where it panicked, the internal error in
    /// place of what it found (half a finding's worth, maybe).
    fn end(&mut self, rule: &'static Rule, before: usize, ran: Result<(), String>) {
        if let Err(panic) = ran {
            self.found.truncate(before);
            self.folding = Folding::new(0);
            let what = format!("the rule {}", rule.id);
            self.found
                .push((&xml::INTERNAL_ERROR, xml::internal_error(0..0, &what, &panic)));
            return;
        }
        let folding = std::mem::replace(&mut self.folding, Folding::new(0));
        self.found.extend(folding.finish(rule.id).map(|fold| (rule, fold)));
    }

    fn report(&mut self, finding: Pending) {
        if self.folding.keep(&finding) {
            self.found.push((self.rule, finding));
        }
    }
}

/// What a set rule is handed.
pub struct SetChecker<'s, 'r> {
    /// How findings name limits and remedies (each front door's words).
    pub words: &'s dyn Wording,
    pub set: &'s FeedSet<'r>,
    rule: &'static Rule,
    found: Vec<(&'static Rule, Pending<Span>)>,
}

impl<'s, 'r> SetChecker<'s, 'r> {
    pub fn new(set: &'s FeedSet<'r>, words: &'s dyn Wording) -> Self {
        SetChecker {
            set,
            words,
            rule: &xml::XML_MALFORMED,
            found: Vec::new(),
        }
    }

    pub fn run(&mut self, rule: &'static Rule) {
        if let Some(check) = rule.set_check {
            self.rule = rule;
            let before = self.found.len();
            if let Err(panic) = crate::base::contain::contained(|| check(self)) {
                self.found.truncate(before);
                // A set rule reads every document: the finding stands at the
                // start of the first one that is reported.
                let Some(doc) = self.set.documents().iter().position(|d| !d.context) else {
                    return;
                };
                let start = crate::text::snippet::Place::START;
                let at = Location::between(start, start).in_doc(doc);
                let what = format!("the rule {} (over the set of documents)", rule.id);
                self.found
                    .push((&xml::INTERNAL_ERROR, xml::internal_error(at, &what, &panic)));
            }
        }
    }

    /// Reports a finding of the rule being run. Findings past
    /// `--max-per-rule` are folded when the report is assembled, after
    /// suppressions.
    pub fn report(&mut self, finding: Pending<Span>) {
        self.found.push((self.rule, finding));
    }

    /// Runs `check` on each of `parts` (groups of documents that the rule
    /// checks independently: chains, archive groups) in parallel, each
    /// part with a checker of its own, and reports their findings in the
    /// order of the parts. The set stage waits for every document; a rule
    /// that looks at every entry of the run would otherwise keep one core
    /// busy while the others wait.
    pub fn for_each_part<T: Sync>(&mut self, parts: &[T], check: impl Fn(&mut SetChecker<'s, 'r>, &T) + Sync) {
        let (set, rule, words) = (self.set, self.rule, self.words);
        let found: Vec<Vec<_>> = parts
            .par_iter()
            .map(|part| {
                let mut checker = SetChecker {
                    set,
                    words,
                    rule,
                    found: Vec::new(),
                };
                check(&mut checker, part);
                checker.found
            })
            .collect();
        self.found.extend(found.into_iter().flatten());
    }

    /// A finding at a place of document `doc`'s summary.
    pub fn at(doc: DocId, at: &Location, message: impl Into<String>) -> Pending<Span> {
        Pending::new(at.in_doc(doc), message)
    }

    pub fn into_findings(self) -> Vec<(&'static Rule, Pending<Span>)> {
        self.found
    }
}
