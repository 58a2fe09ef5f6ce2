//! The report of a run, and its renderers: one per output format. Each
//! writes the whole report; the bytes depend only on the report, never on
//! thread count or timing. The report is made by [`crate::run::assemble`].

use std::io::{self, Write};

use std::path::PathBuf;

use url::Url;

use crate::feed::DocKind;
use crate::findings::diagnostic::{Diagnostic, Level, Span};
use crate::findings::rule_id::RuleId;
use crate::model::document::Document;
use crate::model::failure::Failure;
use crate::rules;

mod concise;
pub mod file;
mod github;
mod json;
mod json_finding;
mod sarif;
mod text;

pub use concise::Concise;
pub use github::Github;
pub use json::{write_batch_record, BatchRecordInput, Json, JsonLines};
pub use sarif::Sarif;
pub use text::Text;

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
    /// The findings shown, by level: those in `diagnostics`, or those
    /// written as they were assembled (see [`Sink`]).
    pub(crate) shown: LevelCounts,
    /// How many findings the folding ones stand for (`--max-per-rule`).
    pub(crate) folded: usize,
    /// The folders the documents' self links publish, with their URLs.
    pub published: Vec<(PathBuf, Url)>,
}

/// Where the assembled findings go, a few documents' at a time, in report
/// order: kept in [`Report::diagnostics`], or written as they come (the
/// command line's line formats), so that the findings of a whole run are
/// never held twice.
pub trait Sink {
    /// Every document is read and analyzed, before any finding is given.
    fn start(&mut self, _report: &Report) {}
    /// At most `findings` findings will be given: a sink that keeps them
    /// makes room once, rather than growing (and touching twice the
    /// memory) as they come.
    fn expect(&mut self, _findings: usize) {}
    /// The next findings in report order.
    fn findings(&mut self, report: &Report, findings: Vec<Diagnostic>);
}

/// Keeps the findings in the report.
pub(crate) struct Keep(pub Vec<Diagnostic>);

impl Sink for Keep {
    fn expect(&mut self, findings: usize) {
        self.0.reserve_exact(findings);
    }

    fn findings(&mut self, _report: &Report, findings: Vec<Diagnostic>) {
        self.0.extend(findings);
    }
}

pub use crate::findings::diagnostic::LevelCounts;

/// Findings counted but not kept (past `--max-findings`), by level.
pub type Dropped = LevelCounts;

impl Report {
    /// The findings of `level`, those past `--max-findings` included.
    pub fn count(&self, level: Level) -> usize {
        self.shown.of(level) + self.dropped.of(level)
    }

    /// The findings shown (kept or written).
    pub fn shown(&self) -> usize {
        self.shown.total()
    }

    /// How many findings are not shown but counted by the findings that
    /// stand for them (`--max-per-rule`).
    pub fn folded(&self) -> usize {
        self.folded
    }

    /// The documents linted and reported on: not those read only as the
    /// context of a set check.
    pub fn linted_documents(&self) -> usize {
        self.documents.iter().filter(|d| d.is_linted()).count()
    }

    /// The web pages read for the feeds they advertise (the `discovery`
    /// rules): reported on, but not documents of the run.
    pub fn pages(&self) -> usize {
        self.documents.iter().filter(|d| !d.context && d.is_page()).count()
    }

    /// The linted documents checked as podcasts.
    pub fn linted_podcasts(&self) -> usize {
        self.documents.iter().filter(|d| !d.context && d.is_podcast()).count()
    }

    /// The documents read only because linted documents link to them.
    pub fn context_documents(&self) -> usize {
        self.documents.iter().filter(|d| d.context).count()
    }

    /// Whether every linted document is one feedlint does not check (RSS
    /// 1.0, an encrypted Deleted Entry Document: `unknown-document`): such
    /// a run passed nothing, and its verdict says so.
    pub fn nothing_checked(&self) -> bool {
        let mut linted = self
            .documents
            .iter()
            .enumerate()
            .filter(|(_, d)| d.is_linted())
            .peekable();
        linted.peek().is_some()
            && linted.all(|(doc, document)| {
                document.kind().is_none()
                    && self
                        .diagnostics
                        .iter()
                        .any(|d| d.rule == RuleId::UnknownDocument && d.primary().doc == doc)
            })
    }

    /// The verdict the web page and its badge give: valid when no finding
    /// is an error, nothing failed, and something was checked.
    pub fn valid(&self) -> bool {
        self.count(Level::Error) == 0 && self.failures.is_empty() && !self.nothing_checked()
    }

    /// The linted documents by kind: Atom feeds, Atom Entry Documents,
    /// Deleted Entry Documents, RSS, JSON Feeds, and the others (no feed, not
    /// well-formed, a kind feedlint does not check).
    pub fn kinds(&self) -> Kinds {
        let mut kinds = Kinds::default();
        for document in self.documents.iter().filter(|d| d.is_linted()) {
            let count = match document.kind() {
                Some(DocKind::Atom) => &mut kinds.atom,
                Some(DocKind::AtomEntry) => &mut kinds.atom_entry,
                Some(DocKind::DeletedEntry) => &mut kinds.deleted_entry,
                Some(DocKind::Rss) => &mut kinds.rss,
                Some(DocKind::JsonFeed) => &mut kinds.json_feed,
                None => &mut kinds.other,
            };
            *count += 1;
        }
        kinds
    }
}

/// How many linted documents are of each kind ([`Report::kinds`]).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct Kinds {
    pub atom: usize,
    pub atom_entry: usize,
    pub deleted_entry: usize,
    pub rss: usize,
    pub json_feed: usize,
    pub other: usize,
}

/// The output formats users can choose (`--format`), one file each in
/// `report/`, each an [`Emitter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Source snippets with labels, notes and help.
    Text,
    /// One line a finding: FILE:LINE:COL: LEVEL[RULE] MESSAGE.
    Concise,
    /// One JSON object with every finding and its spans.
    Json,
    /// One JSON object a line, then a summary line.
    JsonLines,
    /// SARIF 2.1.0, for code-scanning dashboards (GitHub code scanning).
    Sarif,
    /// GitHub Actions workflow commands: annotations on the pull request.
    Github,
}

impl Format {
    /// The format's emitter. `color` only matters for `text` and `concise`.
    pub fn emitter(self, color: bool) -> Box<dyn Emitter> {
        match self {
            Format::Text => Box::new(Text { color }),
            Format::Concise => Box::new(Concise { color }),
            Format::Json => Box::new(Json),
            Format::JsonLines => Box::new(JsonLines),
            Format::Sarif => Box::new(Sarif),
            Format::Github => Box::new(Github::default()),
        }
    }

    /// Whether the format is written as its findings come (one line or one
    /// snippet each), not as one document that holds them all.
    pub fn streams(self) -> bool {
        !matches!(self, Format::Json | Format::Sarif)
    }
}

/// How an output format writes a report: each chunk of findings as the
/// run assembles it, in report order, then what follows them (a summary,
/// a notice). A format whose document holds every finding (JSON, SARIF)
/// writes nothing for the chunks and the whole document at the end; it is
/// written only from a whole report (see [`Format::streams`]).
pub trait Emitter {
    /// Writes the next findings of `report`.
    fn findings(&mut self, report: &Report, findings: &[Diagnostic], out: &mut dyn Write) -> io::Result<()>;

    /// Writes what follows the findings.
    fn end(&mut self, report: &Report, out: &mut dyn Write) -> io::Result<()>;
}

/// Writes the whole report in `format`. `color` only matters for `text`
/// and `concise`.
pub fn write(report: &Report, format: Format, color: bool, out: &mut dyn Write) -> io::Result<()> {
    let mut emitter = format.emitter(color);
    emitter.findings(report, &report.diagnostics, out)?;
    emitter.end(report, out)
}

/// Writes JSON through to `out` with the line and paragraph separators
/// (U+2028, U+2029) as `\u2028` and `\u2029`. JSON allows them raw in
/// strings, but a reader that splits lines the Unicode way (Python's
/// `splitlines`, an editor) would cut a JSON Lines record there; and in
/// JSON they can only stand in strings, so the escape is the same value.
pub struct SeparatorsEscaped<'w> {
    out: &'w mut dyn Write,
}

impl<'w> SeparatorsEscaped<'w> {
    pub fn new(out: &'w mut dyn Write) -> Self {
        SeparatorsEscaped { out }
    }
}

impl Write for SeparatorsEscaped<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf).map(|()| buf.len())
    }

    /// JSON is written a whole string or more at a time (serde_json never
    /// splits a character between writes), so a separator's three bytes
    /// are always in one buffer.
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        const SEPARATOR_START: &[u8] = &[0xE2, 0x80];
        let mut rest = buf;
        while let Some(at) = memchr::memmem::find(rest, SEPARATOR_START) {
            let escape: &[u8] = match rest.get(at + 2) {
                Some(0xA8) => b"\\u2028",
                Some(0xA9) => b"\\u2029",
                // Another character that starts with the same two bytes.
                _ => {
                    self.out.write_all(&rest[..at + 2])?;
                    rest = &rest[at + 2..];
                    continue;
                }
            };
            self.out.write_all(&rest[..at])?;
            self.out.write_all(escape)?;
            rest = &rest[at + 3..];
        }
        self.out.write_all(rest)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// A [`Sink`] that writes each chunk of findings as it is assembled, with
/// an [`Emitter`] of a format that [streams](Format::streams), so that a
/// run's findings are never all held. The
/// output is opened by `open` once every document is known (a caller may
/// refuse then, with an error, and nothing is written); the first error
/// stops the writing and is kept for [`Streaming::finish`].
pub struct Streaming<W, F> {
    writer: Box<dyn Emitter>,
    open: Option<F>,
    out: Option<W>,
    error: Option<io::Error>,
}

impl<W: Write, F: FnOnce(&Report) -> io::Result<W>> Streaming<W, F> {
    pub fn new(writer: Box<dyn Emitter>, open: F) -> Self {
        Streaming {
            writer,
            open: Some(open),
            out: None,
            error: None,
        }
    }

    /// Writes the end of the report; gives back the output, or the first
    /// error met.
    pub fn finish(mut self, report: &Report) -> io::Result<W> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let mut out = match (self.out, self.open) {
            (Some(out), _) => out,
            // `start` was never called: the output is opened now.
            (None, Some(open)) => open(report)?,
            (None, None) => return Err(io::Error::other("the report's output was not opened")),
        };
        self.writer.end(report, &mut out)?;
        Ok(out)
    }
}

impl<W: Write, F: FnOnce(&Report) -> io::Result<W>> Sink for Streaming<W, F> {
    fn start(&mut self, report: &Report) {
        if let Some(open) = self.open.take() {
            match open(report) {
                Ok(out) => self.out = Some(out),
                Err(error) => self.error = Some(error),
            }
        }
    }

    fn findings(&mut self, report: &Report, findings: Vec<Diagnostic>) {
        let (Some(out), None) = (self.out.as_mut(), &self.error) else {
            return;
        };
        if let Err(error) = self.writer.findings(report, &findings, out) {
            self.error = Some(error);
        }
    }
}

/// How many findings each rule has at each level (`--statistics`), most
/// first: a finding that stands for others counts them all. One line a
/// rule and level, or with `json` one JSON array.
pub fn write_statistics(report: &Report, json: bool, out: &mut dyn Write) -> io::Result<()> {
    let mut counts: std::collections::BTreeMap<(RuleId, Level), usize> = std::collections::BTreeMap::new();
    for diagnostic in &report.diagnostics {
        *counts.entry((diagnostic.rule, diagnostic.level)).or_default() += diagnostic.folded.max(1);
    }
    let mut rows: Vec<((RuleId, Level), usize)> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    if json {
        let rows: Vec<_> = rows
            .iter()
            .map(|((rule, level), count)| serde_json::json!({ "rule": rule, "level": level, "count": count }))
            .collect();
        serde_json::to_writer_pretty(&mut *out, &rows)?;
        return writeln!(out);
    }
    let width = rows.first().map_or(1, |(_, count)| count.to_string().len());
    for ((rule, level), count) in rows {
        writeln!(out, "{count:>width$}  {level:<7}  {rule}")?;
    }
    if let n @ 1.. = report.dropped.total() {
        writeln!(
            out,
            "{n:>width$}  more past --max-findings, not kept and not counted by rule"
        )?;
    }
    // The suppressions that suppressed findings, for their audit: those
    // that say why, and those that do not.
    let used = report
        .documents
        .iter()
        .filter(|document| !document.context)
        .flat_map(|document| &document.suppressions)
        .filter(|suppression| suppression.used());
    let (mut reasoned, mut bare, mut findings) = (0, 0, 0);
    for suppression in used {
        if suppression.reason.is_some() {
            reasoned += 1;
        } else {
            bare += 1;
        }
        findings += suppression.suppressed;
    }
    if reasoned + bare > 0 {
        writeln!(
            out,
            "{findings} findings suppressed by {} suppressions: {reasoned} with a reason, {bare} without",
            reasoned + bare
        )?;
    }
    Ok(())
}

/// The totals line the concise format ends with, on standard error (its
/// standard output stays one line a finding, for tools): "found: ...".
pub fn concise_totals(report: &Report) -> String {
    format!("{}: {}", status_word(report), summary_line(report))
}

/// How the summary line starts: "failed" when something named could not
/// be linted (the exit status is 2), else whether anything was found.
pub(crate) fn status_word(report: &Report) -> &'static str {
    if !report.failures.is_empty() {
        "failed"
    } else if report.shown() == 0 {
        "no findings"
    } else {
        "found"
    }
}

/// The name of a span's document as a line format shows it (JSON and
/// SARIF escape it their own way): control and
/// other hiding characters escaped (a line feed in a file name would forge
/// a report line).
fn file_of<'r>(report: &'r Report, span: &Span) -> std::borrow::Cow<'r, str> {
    crate::base::shown::visible(&report.documents[span.doc].name)
}

/// The spec section a diagnostic's rule enforces.
fn spec_of(diagnostic: &Diagnostic) -> &'static str {
    rules::by_id(diagnostic.rule).spec
}

/// Where a rule's documentation is read on the web: its `rules/ID.md` on
/// the repository's main branch, a link that resolves from the day it is
/// printed (no tag need exist). `feedlint explain ID` prints the same
/// document as this binary has it.
pub fn rule_doc_url(rule: RuleId) -> String {
    format!("{RULE_DOC_BASE}{rule}.md")
}

/// The folder of the rule documents, on the main branch.
pub const RULE_DOC_BASE: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/rules/");

fn doc_url(diagnostic: &Diagnostic) -> String {
    rule_doc_url(diagnostic.rule)
}

/// "3 errors, 1 warning and no infos in 4 documents", "... in 1 RSS 2.0
/// podcast".
pub fn summary_line(report: &Report) -> String {
    fn count(n: usize, what: &str) -> String {
        match n {
            0 => format!("no {what}s"),
            1 => format!("1 {what}"),
            n => format!("{n} {what}s"),
        }
    }
    let documents = report.linted_documents();
    let folded = report.folded();
    let mut not_shown = match folded {
        0 => String::new(),
        n => format!(" ({n} more not shown: see --max-per-rule)"),
    };
    match report.dropped.total() {
        0 => {}
        n => not_shown.push_str(&format!(
            " ({n} more past the first {} not kept: see --max-findings)",
            report.shown()
        )),
    }
    match report.pages() {
        0 => {}
        1 => not_shown.push_str(" (and 1 web page read for the feeds it advertises)"),
        n => not_shown.push_str(&format!(" (and {n} web pages read for the feeds they advertise)")),
    }
    match report.context_documents() {
        0 => {}
        1 => not_shown.push_str(" (and 1 other document read for the chains, not reported on)"),
        n => not_shown.push_str(&format!(
            " (and {n} other documents read for the chains, not reported on)"
        )),
    }
    // Podcasts are named: they are held to more than other RSS feeds.
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let linted = match report.linted_podcasts() {
        0 => format!("{documents} document{}", plural(documents)),
        podcasts if podcasts == documents => format!("{podcasts} RSS 2.0 podcast{}", plural(podcasts)),
        podcasts => format!("{documents} documents ({podcasts} RSS 2.0 podcast{})", plural(podcasts)),
    };
    format!(
        "{}, {} and {} in {linted}{not_shown}{}",
        count(report.count(Level::Error), "error"),
        count(report.count(Level::Warning), "warning"),
        count(report.count(Level::Info), "info"),
        published(report),
    )
}

/// The most folders the summary line names as published by self links.
const PUBLISHED_SHOWN: usize = 3;

/// Where the self links publish the folders linted, as the summary line
/// says it: how each document got its URL is never a guess the user
/// cannot see.
fn published(report: &Report) -> String {
    let mut said: Vec<String> = report
        .published
        .iter()
        .take(PUBLISHED_SHOWN)
        .map(|(folder, url)| {
            let folder = crate::base::shown::shown_path(folder);
            format!(
                "{}/ is published at {}",
                folder.trim_end_matches('/'),
                crate::base::secret::masked(url)
            )
        })
        .collect();
    if report.published.len() > PUBLISHED_SHOWN {
        said.push(format!("{} more folders", report.published.len() - PUBLISHED_SHOWN));
    }
    match said.len() {
        0 => String::new(),
        _ => format!("; {}, as the self links say", said.join(", ")),
    }
}
