//! Diagnostics as users see them: a rule id, a level, a message and spans
//! already resolved to lines and columns, so nothing needs the document's
//! text (or its DOM) once its rules have run.

use std::fmt;
use std::ops::Range;

use serde::Serialize;

use crate::base::hash::FastMap;
use crate::findings::fix::Fix;
use crate::findings::remedy::{Remedy, Wording};
use crate::findings::rule_id::RuleId;

/// How serious a finding is. Ordered so that `Info < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Info,
    Warning,
    Error,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Info => "info",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }

    pub fn parse(word: &str) -> Option<Level> {
        match word {
            "error" => Some(Level::Error),
            "warning" => Some(Level::Warning),
            "info" => Some(Level::Info),
            _ => None,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`, so that widths (`{:<7}`) apply.
        f.pad(self.as_str())
    }
}

pub use crate::base::shown::shorten;

/// Findings counted by level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LevelCounts {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

impl LevelCounts {
    pub(crate) fn add(&mut self, level: Level, n: usize) {
        match level {
            Level::Error => self.errors += n,
            Level::Warning => self.warnings += n,
            Level::Info => self.infos += n,
        }
    }

    pub(crate) fn remove(&mut self, level: Level, n: usize) {
        match level {
            Level::Error => self.errors -= n,
            Level::Warning => self.warnings -= n,
            Level::Info => self.infos -= n,
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

/// A text of a finding: most notes, helps and labels are the same words
/// for every finding of a rule, kept without a copy.
pub type Text = std::borrow::Cow<'static, str>;

/// Index of a document in [`crate::Report::documents`].
pub type DocId = usize;

/// A located piece of a document. Offsets are 0-based byte offsets into the
/// document's UTF-8 text (end exclusive); lines and columns are 1-based,
/// columns counted in Unicode scalar values (end exclusive), as rustc does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub doc: DocId,
    pub byte_start: usize,
    pub byte_end: usize,
    pub line_start: usize,
    pub column_start: usize,
    pub line_end: usize,
    pub column_end: usize,
    pub is_primary: bool,
    pub label: Option<Text>,
}

/// One finding. Its spans are [`Span`]s, which name their document; a
/// document's own rules make `Diagnostic<DocSpan>`s, whose places name none
/// until the run gives the document its number ([`Diagnostic::in_doc`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic<S = Span> {
    pub rule: RuleId,
    pub level: Level,
    pub message: String,
    /// The primary span comes first; secondary spans follow.
    pub spans: Vec<S>,
    pub notes: Vec<Text>,
    pub help: Option<Text>,
    /// How many findings of the rule in this document this one stands for,
    /// not shown; 0 for an ordinary finding.
    pub folded: usize,
    /// What would make the finding go away, when the rule knows.
    pub fix: Option<Fix<Location>>,
}

impl Span {
    /// Where the span starts, as a place to show.
    pub fn start_place(&self) -> crate::text::snippet::Place {
        crate::text::snippet::Place {
            offset: self.byte_start,
            line: self.line_start,
            column: self.column_start,
        }
    }

    /// Where the span ends, as a place to show.
    pub fn end_place(&self) -> crate::text::snippet::Place {
        crate::text::snippet::Place {
            offset: self.byte_end,
            line: self.line_end,
            column: self.column_end,
        }
    }
}

impl<S> Diagnostic<S> {
    pub fn primary(&self) -> &S {
        &self.spans[0]
    }
}

/// A span of a document that has no number in a run yet: a [`Span`]
/// without `doc`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocSpan {
    pub at: Location,
    pub is_primary: bool,
    pub label: Option<Text>,
}

impl DocSpan {
    pub fn in_doc(self, doc: DocId) -> Span {
        Span {
            is_primary: self.is_primary,
            label: self.label,
            ..self.at.in_doc(doc)
        }
    }
}

impl Diagnostic<DocSpan> {
    /// The finding with its places in document `doc`.
    pub fn in_doc(self, doc: DocId) -> Diagnostic {
        Diagnostic {
            rule: self.rule,
            level: self.level,
            message: self.message,
            spans: self.spans.into_iter().map(|span| span.in_doc(doc)).collect(),
            notes: self.notes,
            help: self.help,
            folded: self.folded,
            fix: self.fix,
        }
    }
}

/// A diagnostic under construction. In a document rule, spans are byte
/// ranges (`S = Range<usize>`), resolved to lines and columns by
/// [`Locator::resolve`](crate::findings::source::Locator::resolve); in a set rule they are already resolved [`Span`]s
/// from the documents' summaries.
#[derive(Debug)]
pub struct Pending<S = Range<usize>> {
    pub message: String,
    pub primary: S,
    pub primary_label: Option<Text>,
    pub secondary: Vec<(S, Text)>,
    pub notes: Vec<Text>,
    pub help: Option<Text>,
    /// How many findings of the rule this one stands for, not shown (see
    /// [`Folding`]); 0 for an ordinary finding.
    pub folded: usize,
    /// Edits to the finding's document (byte ranges of its text): only a
    /// document's own rules make fixes.
    pub fix: Option<Fix>,
    /// The link whose mistake this finding follows from, where a set rule
    /// knows it (document and the byte where the link's `href` starts):
    /// the finding is folded into that link's own finding, when it has one.
    pub cause: Option<(DocId, usize)>,
}

impl<S: Spanned> Diagnostic<S> {
    /// Makes every text of the finding fit to show: cut to
    /// [`crate::base::shown::MAX_TEXT`] characters, and every character that
    /// would hide itself or act on a terminal written as `\u{...}`. This
    /// is the one place where the texts of all findings pass, so a path,
    /// URL or name put into a message, label, note or help anywhere (a
    /// link's `href` decoded into a file name, say) cannot forge a line in
    /// any format.
    pub fn make_texts_showable(&mut self) {
        use crate::base::shown::{showable, showable_text};
        showable(&mut self.message);
        self.notes.iter_mut().for_each(showable_text);
        self.help.iter_mut().for_each(showable_text);
        self.spans.iter_mut().filter_map(S::label_mut).for_each(showable_text);
        if let Some(fix) = &mut self.fix {
            showable(&mut fix.title);
        }
    }
}

impl<S> Pending<S> {
    pub fn new(primary: S, message: impl Into<String>) -> Self {
        // `format!` makes room for about twice its literal text; the
        // message is held until the report is written.
        let mut message = message.into();
        message.shrink_to_fit();
        Pending {
            message,
            primary,
            primary_label: None,
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
            folded: 0,
            fix: None,
            cause: None,
        }
    }

    /// The text shown under the primary span.
    pub fn label(mut self, label: impl Into<Text>) -> Self {
        self.primary_label = Some(label.into());
        self
    }

    /// Another place that explains the finding.
    pub fn secondary(mut self, at: S, label: impl Into<Text>) -> Self {
        self.secondary.push((at, label.into()));
        self
    }

    pub fn note(mut self, note: impl Into<Text>) -> Self {
        // Most findings have one note: room for one, not the four a first
        // push makes (72 bytes a finding, held for the run).
        self.notes.reserve_exact(1);
        self.notes.push(note.into());
        self
    }

    pub fn help(mut self, help: impl Into<Text>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The link this finding follows from (see [`Pending::cause`]).
    pub fn caused_by(mut self, link: Option<(DocId, usize)>) -> Self {
        self.cause = link;
        self
    }
}

impl Pending {
    /// What would make the finding go away.
    pub fn fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    /// A fix, when one could be made.
    pub fn fix_if(mut self, fix: Option<Fix>) -> Self {
        self.fix = fix;
        self
    }
}

/// A finding's place once located, in a run ([`Span`]) or in its document
/// alone ([`DocSpan`]): what suppressions, sorting and folding read of it.
pub trait Spanned: Clone {
    fn byte_start(&self) -> usize;
    fn byte_end(&self) -> usize;
    /// The same place as a primary or secondary span with `label`.
    fn labelled(self, is_primary: bool, label: Option<Text>) -> Self;
    fn label_mut(&mut self) -> Option<&mut Text>;
}

impl Spanned for Span {
    fn byte_start(&self) -> usize {
        self.byte_start
    }

    fn byte_end(&self) -> usize {
        self.byte_end
    }

    fn label_mut(&mut self) -> Option<&mut Text> {
        self.label.as_mut()
    }

    fn labelled(self, is_primary: bool, label: Option<Text>) -> Self {
        Span {
            is_primary,
            label,
            ..self
        }
    }
}

impl Spanned for DocSpan {
    fn byte_start(&self) -> usize {
        self.at.byte_start()
    }

    fn byte_end(&self) -> usize {
        self.at.byte_end()
    }

    fn label_mut(&mut self) -> Option<&mut Text> {
        self.label.as_mut()
    }

    fn labelled(self, is_primary: bool, label: Option<Text>) -> Self {
        DocSpan {
            at: self.at,
            is_primary,
            label,
        }
    }
}

impl<S: Spanned> Diagnostic<S> {
    /// The order of findings within one document: by where they start,
    /// then rule, message and end, so that a report reads top to bottom
    /// and is the same at any thread count.
    pub fn cmp_in_document(&self, other: &Self) -> std::cmp::Ordering {
        let (a, b) = (self.primary(), other.primary());
        (a.byte_start(), self.rule, &self.message, a.byte_end()).cmp(&(
            b.byte_start(),
            other.rule,
            &other.message,
            b.byte_end(),
        ))
    }
}

/// Keeps the first `max` findings of each rule among one document's
/// findings, sorted (0: all), and puts in place of the rest one finding
/// that counts them, where the first of them was. A finding that already
/// stands for others (folded as its rule ran) is kept as it is. Linear.
pub fn fold_document<S: Spanned>(diagnostics: &mut Vec<Diagnostic<S>>, max: usize) {
    if max == 0 || diagnostics.len() <= max {
        return;
    }
    let mut shown: FastMap<RuleId, usize> = FastMap::default();
    // Per rule past its limit: the index in `kept` of its folding finding,
    // and how many it stands for.
    let mut folds: FastMap<RuleId, (usize, usize)> = FastMap::default();
    let mut kept = Vec::with_capacity(diagnostics.len());
    for diagnostic in diagnostics.drain(..) {
        let count = shown.entry(diagnostic.rule).or_default();
        if diagnostic.folded > 0 || *count < max {
            *count += usize::from(diagnostic.folded == 0);
            kept.push(diagnostic);
            continue;
        }
        match folds.get_mut(&diagnostic.rule) {
            Some((_, n)) => *n += 1,
            None => {
                folds.insert(diagnostic.rule, (kept.len(), 1));
                kept.push(diagnostic);
            }
        }
    }
    for (rule, (index, n)) in folds {
        let first = &kept[index];
        let fold = folding_finding(first.primary().clone(), rule, n, max);
        kept[index] = fold.into_diagnostic(rule, first.level);
    }
    *diagnostics = kept;
}

impl<S: Spanned> Pending<S> {
    pub fn into_diagnostic(self, rule: RuleId, level: Level) -> Diagnostic<S> {
        let primary = self.primary.labelled(true, self.primary_label);
        let secondary = self
            .secondary
            .into_iter()
            .map(|(span, label)| span.labelled(false, Some(label)));
        Diagnostic {
            rule,
            level,
            message: self.message,
            spans: std::iter::once(primary).chain(secondary).collect(),
            notes: self.notes,
            help: self.help,
            folded: self.folded,
            fix: None,
        }
    }
}

/// The most findings of one rule shown for one document by default
/// (`--max-per-rule`): a hostile document with a million broken entries
/// gets a hundred findings and one that says how many more there are.
pub const DEFAULT_MAX_PER_RULE: usize = 100;

/// Keeps the first `max` findings of one rule in one document, in the order
/// the rule reports them (document order, for nearly every rule), and counts
/// the rest; 0 keeps everything. Findings past the limit are dropped as they
/// come, so memory stays bounded too.
#[derive(Debug)]
pub struct Folding<S> {
    max: usize,
    kept: usize,
    folded: usize,
    /// Where the first finding not shown is: the folding finding points there.
    first_folded: Option<S>,
}

impl<S> Folding<S> {
    pub fn new(max: usize) -> Self {
        Folding {
            max,
            kept: 0,
            folded: 0,
            first_folded: None,
        }
    }

    /// Whether to keep `finding`; if not, it is counted.
    pub fn keep(&mut self, finding: &Pending<S>) -> bool
    where
        S: Clone,
    {
        if self.max == 0 || self.kept < self.max {
            self.kept += 1;
            return true;
        }
        self.folded += 1;
        self.first_folded.get_or_insert_with(|| finding.primary.clone());
        false
    }

    /// The one finding that stands for those not shown, if any were not.
    pub fn finish(self, rule: RuleId) -> Option<Pending<S>> {
        let at = self.first_folded?;
        Some(folding_finding(at, rule, self.folded, self.max))
    }
}

/// Gives each finding that stands for others not shown its help, in the
/// run's words (how to see them all is said by each front door).
pub fn word_folds<S>(diagnostics: &mut [Diagnostic<S>], words: &dyn Wording) {
    for folding in diagnostics.iter_mut().filter(|d| d.folded > 0 && d.help.is_none()) {
        folding.help = Some(Text::Owned(words.remedy(Remedy::SeeEveryFinding)));
    }
}

/// The finding that stands for `n` findings of `rule` not shown, at the
/// first of them.
pub fn folding_finding<S>(at: S, rule: RuleId, n: usize, max: usize) -> Pending<S> {
    let plural = if n == 1 { "" } else { "s" };
    let mut finding = Pending::new(at, format!("{n} more {rule} finding{plural} in this document, not shown"))
        .label(format!("the first of {n} more"))
        .note(format!("feedlint shows the first {max} findings of a rule in each document, so that one broken document cannot flood the report"));
    finding.folded = n;
    finding
}

/// A [`Span`] without its document, in a quarter of the space: what a run
/// keeps of every place a set rule may point at. Offsets fit: the parser
/// itself keeps them in 32 bits, and documents are limited to 4 GiB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    byte_start: u32,
    byte_end: u32,
    line_start: u32,
    column_start: u32,
    line_end: u32,
    column_end: u32,
}

impl Location {
    /// The place from `start` to `end`.
    pub fn between(start: crate::text::snippet::Place, end: crate::text::snippet::Place) -> Location {
        Location {
            byte_start: small(start.offset),
            byte_end: small(end.offset),
            line_start: small(start.line),
            column_start: small(start.column),
            line_end: small(end.line),
            column_end: small(end.column),
        }
    }

    /// The span of this place in document `doc`.
    pub fn in_doc(&self, doc: DocId) -> Span {
        Span {
            doc,
            byte_start: self.byte_start as usize,
            byte_end: self.byte_end as usize,
            line_start: self.line_start as usize,
            column_start: self.column_start as usize,
            line_end: self.line_end as usize,
            column_end: self.column_end as usize,
            is_primary: true,
            label: None,
        }
    }

    /// Where it starts, as a place to show.
    pub fn start_place(&self) -> crate::text::snippet::Place {
        crate::text::snippet::Place {
            offset: self.byte_start as usize,
            line: self.line_start as usize,
            column: self.column_start as usize,
        }
    }

    /// Where it ends, as a place to show.
    pub fn end_place(&self) -> crate::text::snippet::Place {
        crate::text::snippet::Place {
            offset: self.byte_end as usize,
            line: self.line_end as usize,
            column: self.column_end as usize,
        }
    }

    pub fn byte_start(&self) -> usize {
        self.byte_start as usize
    }

    pub fn byte_end(&self) -> usize {
        self.byte_end as usize
    }

    pub fn line_start(&self) -> usize {
        self.line_start as usize
    }

    pub fn column_start(&self) -> usize {
        self.column_start as usize
    }

    pub fn line_end(&self) -> usize {
        self.line_end as usize
    }
}

impl crate::findings::fix::ByteRange for Location {
    fn byte_range(&self) -> Range<usize> {
        self.byte_start()..self.byte_end()
    }
}

/// An offset, line or column in 32 bits (see [`Place`]).
pub(crate) fn small(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_values_show_what_they_hold() {
        assert_eq!(shorten("plain café"), "plain café");
        assert_eq!(shorten("a\u{202E}exe.txt"), "a\\u{202E}exe.txt");
        assert_eq!(shorten("next\n"), "next\\u{000A}");
        assert_eq!(shorten("\u{E000}\u{FEFF}\u{1FFFE}"), "\\u{E000}\\u{FEFF}\\u{1FFFE}");
        let long = "x".repeat(200);
        assert_eq!(shorten(&long).chars().count(), 40 + 1 + 40 + " (200 characters)".len());
    }
}
