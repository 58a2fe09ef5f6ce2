//! `--format json` and `--format json-lines`, field for field as the
//! command-line contract shows them.

use std::io::{self, Write};

use rayon::prelude::*;
use serde::Serialize;

use super::spec_of;
use crate::findings::diagnostic::{Diagnostic, Level, Span, Text};
use crate::findings::rule_id::RuleId;
use crate::report::Report;

/// An input that could not be linted at all (the run exits 2 for it).
#[derive(Serialize)]
struct JsonFailure {
    /// The path or URL as given.
    input: String,
    message: String,
}

fn failures(report: &Report) -> Vec<JsonFailure> {
    report
        .failures
        .iter()
        .map(|failure| JsonFailure {
            input: failure.input(),
            message: failure.to_string(),
        })
        .collect()
}

/// A suppression comment that suppressed findings, for their audit: where
/// it is, the rule, its reason, and how many findings it suppressed.
#[derive(Serialize)]
struct JsonSuppression<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    rule: &'static str,
    directive: &'static str,
    reason: Option<&'a str>,
    suppressed: usize,
}

fn suppressions(report: &Report) -> Vec<JsonSuppression<'_>> {
    let mut used: Vec<JsonSuppression> = report
        .documents
        .iter()
        .filter(|document| !document.context)
        .flat_map(|document| {
            document.suppressions.iter().filter_map(|suppression| {
                let (Ok(rule), true, Some(at)) = (&suppression.rule, suppression.used(), suppression.located) else {
                    return None;
                };
                Some(JsonSuppression {
                    file: &document.name,
                    line: at.line_start(),
                    column: at.column_start(),
                    rule: rule.as_str(),
                    directive: suppression.directive,
                    reason: suppression.reason.as_deref(),
                    suppressed: suppression.suppressed,
                })
            })
        })
        .collect();
    used.sort_by(|a, b| (a.file, a.line, a.column).cmp(&(b.file, b.line, b.column)));
    used
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Summary {
    documents: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
    /// Findings not shown, counted by the findings that stand for them.
    folded: usize,
    /// Documents read only because linted ones link to them (for the set
    /// checks); not counted in `documents`, never reported on.
    context: usize,
    /// Findings past `--max-findings`: counted in `errors`, `warnings`
    /// and `infos`, not listed.
    dropped: usize,
    /// Of `documents`, those checked as podcasts.
    podcasts: usize,
    /// Web pages read for the feeds they advertise (the `discovery`
    /// rules): findings may name them; not counted in `documents`.
    pages: usize,
    /// `documents` by kind.
    kinds: super::Kinds,
    /// The web page's verdict: no error, no failure, something checked.
    valid: bool,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    rule: &'static str,
    level: Level,
    message: &'a str,
    file: &'a str,
    spans: JsonSpans<'a>,
    notes: &'a [Text],
    help: Option<&'a str>,
    spec: &'static str,
    url: DocUrl,
    /// For a finding that stands for others of its rule in its document,
    /// how many are not shown (`--max-per-rule`); else 0.
    folded: usize,
    /// What would make the finding go away, or `null`.
    fix: Option<JsonFix<'a>>,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    title: &'a str,
    applicability: &'static str,
    edits: Vec<JsonEdit<'a>>,
}

/// An edit of the finding's file: bytes of the UTF-8 file (fixes are made
/// only for such files), lines and columns as spans count them.
#[derive(Serialize)]
struct JsonEdit<'a> {
    byte_start: usize,
    byte_end: usize,
    line_start: usize,
    column_start: usize,
    line_end: usize,
    column_end: usize,
    replacement: &'a str,
}

#[derive(Serialize)]
struct JsonSpan<'a> {
    file: &'a str,
    byte_start: usize,
    byte_end: usize,
    line_start: usize,
    column_start: usize,
    line_end: usize,
    column_end: usize,
    is_primary: bool,
    label: Option<&'a str>,
}

fn summary(report: &Report) -> Summary {
    Summary {
        documents: report.linted_documents(),
        errors: report.count(Level::Error),
        warnings: report.count(Level::Warning),
        infos: report.count(Level::Info),
        folded: report.folded(),
        context: report.context_documents(),
        dropped: report.dropped.total(),
        podcasts: report.linted_podcasts(),
        pages: report.pages(),
        kinds: report.kinds(),
        valid: report.valid(),
    }
}

/// A finding's spans, each made as it is written.
struct JsonSpans<'a> {
    report: &'a Report,
    spans: &'a [Span],
}

impl Serialize for JsonSpans<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.spans.iter().map(|span| JsonSpan {
            file: &self.report.documents[span.doc].name,
            byte_start: span.byte_start,
            byte_end: span.byte_end,
            line_start: span.line_start,
            column_start: span.column_start,
            line_end: span.line_end,
            column_end: span.column_end,
            is_primary: span.is_primary,
            label: span.label.as_deref(),
        }))
    }
}

/// Where a rule's documentation is read (see [`super::rule_doc_url`]),
/// written without being made as a string first.
struct DocUrl(RuleId);

impl Serialize for DocUrl {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&format_args!("{}{}.md", super::RULE_DOC_BASE, self.0))
    }
}

/// A sequence written straight from an iterator, item by item: a report's
/// findings are never copied into a second list to be written.
pub(super) struct Streamed<I>(std::cell::Cell<Option<I>>);

impl<I> Streamed<I> {
    pub(super) fn new(items: I) -> Self {
        Streamed(std::cell::Cell::new(Some(items)))
    }
}

impl<I: Iterator> Serialize for Streamed<I>
where
    I::Item: Serialize,
{
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let items = self
            .0
            .take()
            .ok_or_else(|| serde::ser::Error::custom("a stream is written once"))?;
        serializer.collect_seq(items)
    }
}

fn diagnostic<'a>(report: &'a Report, diagnostic: &'a Diagnostic) -> JsonDiagnostic<'a> {
    JsonDiagnostic {
        rule: diagnostic.rule.as_str(),
        level: diagnostic.level,
        message: &diagnostic.message,
        file: &report.documents[diagnostic.primary().doc].name,
        spans: JsonSpans {
            report,
            spans: &diagnostic.spans,
        },
        notes: &diagnostic.notes,
        help: diagnostic.help.as_deref(),
        spec: spec_of(diagnostic),
        url: DocUrl(diagnostic.rule),
        folded: diagnostic.folded,
        fix: diagnostic.fix.as_ref().map(|fix| JsonFix {
            title: &fix.title,
            applicability: fix.applicability.as_str(),
            edits: fix
                .edits
                .iter()
                .map(|edit| {
                    let at = edit.at.in_doc(diagnostic.primary().doc);
                    JsonEdit {
                        byte_start: at.byte_start,
                        byte_end: at.byte_end,
                        line_start: at.line_start,
                        column_start: at.column_start,
                        line_end: at.line_end,
                        column_end: at.column_end,
                        replacement: &edit.replacement,
                    }
                })
                .collect(),
        }),
    }
}

/// The report, with the line and paragraph separators escaped: by
/// [`SeparatorsEscaped`](super::SeparatorsEscaped) in what `serde_json`
/// writes, by the findings' own writer in the findings (90 MB of the
/// bench's JSON not searched a second time).
fn write_json(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    #[derive(Serialize)]
    struct Head {
        version: u32,
        tool: Tool,
        summary: Summary,
    }
    // The object as `serde_json`'s pretty printer writes it, in three
    // pieces, so that the findings between them can be made in parallel.
    let head = serde_json::to_vec_pretty(&Head {
        version: 1,
        tool: Tool {
            name: "feedlint",
            version: env!("CARGO_PKG_VERSION"),
        },
        summary: summary(report),
    })?;
    let escaped = |out: &mut dyn Write, json: &[u8]| super::SeparatorsEscaped::new(out).write_all(json);
    escaped(out, head.strip_suffix(b"\n}").unwrap_or(&head))?;
    out.write_all(b",\n  \"diagnostics\": ")?;
    write_findings_array(report, out)?;
    out.write_all(b",\n  \"suppressions\": ")?;
    escaped(out, &pretty_indented(&suppressions(report), 1)?)?;
    out.write_all(b",\n  \"failures\": ")?;
    escaped(out, &pretty_indented(&failures(report), 1)?)?;
    out.write_all(b"\n}\n")
}

/// The findings as the pretty printer writes an array one level in: each
/// finding made on whichever core is free, a window at a time (so that the
/// text held is a window's, never the report's), and written in order.
fn write_findings_array(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    /// Findings made together: enough to share among the cores (32 pieces),
    /// and few enough that their text (about 1 KiB each) stays in cache.
    const WINDOW: usize = 1024;
    if report.diagnostics.is_empty() {
        return out.write_all(b"[]");
    }
    /// Findings written into one buffer by one task: a buffer per finding
    /// cost an allocation and a growth each (most findings pass 1 KiB).
    const PIECE: usize = 32;
    out.write_all(b"[\n")?;
    for (n, window) in report.diagnostics.chunks(WINDOW).enumerate() {
        let made: Vec<Vec<u8>> = window
            .par_chunks(PIECE)
            .map(|piece| {
                let mut text = Vec::with_capacity(piece.len() * 1536);
                let mut writer = super::json_finding::Writer::new(&mut text, 2);
                for (i, d) in piece.iter().enumerate() {
                    writer.raw(if i > 0 { b",\n    " } else { b"    " });
                    writer.finding(report, d);
                }
                text
            })
            .collect();
        for (i, piece) in made.iter().enumerate() {
            if n > 0 || i > 0 {
                out.write_all(b",\n")?;
            }
            out.write_all(piece)?;
        }
    }
    out.write_all(b"\n  ]")
}

/// `value` as `serde_json`'s pretty printer writes it `level` levels
/// in (two spaces each): the printer's own steps, started deeper, so the
/// text is written once, straight into its buffer.
fn pretty_indented<T: Serialize>(value: &T, level: usize) -> serde_json::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(1024);
    pretty_into(&mut out, value, level)?;
    Ok(out)
}

/// [`pretty_indented`], appended to `out`.
fn pretty_into<T: Serialize>(out: &mut Vec<u8>, value: &T, level: usize) -> serde_json::Result<()> {
    let formatter = Pretty {
        level,
        has_value: false,
    };
    value.serialize(&mut serde_json::Serializer::with_formatter(out, formatter))
}

/// `serde_json::ser::PrettyFormatter`, two spaces a level, from `level`.
struct Pretty {
    level: usize,
    has_value: bool,
}

impl Pretty {
    fn line<W: ?Sized + Write>(&self, writer: &mut W, first: bool) -> io::Result<()> {
        /// A line end and the indentation of the deepest levels a report
        /// reaches, written as one slice (a write a level cost 2% of a run
        /// with many findings).
        const LINE: &[u8] = b",\n                                ";
        let indent = 2 * self.level;
        match LINE.get(usize::from(first)..2 + indent) {
            Some(line) => writer.write_all(line),
            None => {
                writer.write_all(if first { b"\n" } else { b",\n" })?;
                (0..self.level).try_for_each(|_| writer.write_all(b"  "))
            }
        }
    }

    fn begin<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn end<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.line(writer, true)?;
        }
        writer.write_all(bracket)
    }
}

impl serde_json::ser::Formatter for Pretty {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.begin(writer, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.end(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.line(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.begin(writer, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.end(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.line(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// The JSON format: one document, written whole at the end.
pub struct Json;

impl super::Emitter for Json {
    fn findings(&mut self, _report: &Report, _findings: &[Diagnostic], _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    fn end(&mut self, report: &Report, out: &mut dyn Write) -> io::Result<()> {
        write_json(report, out)
    }
}

/// JSON Lines: one object a finding, then the summary's.
pub struct JsonLines;

impl super::Emitter for JsonLines {
    fn findings(&mut self, report: &Report, findings: &[Diagnostic], out: &mut dyn Write) -> io::Result<()> {
        write_json_lines_findings(report, findings, &mut super::SeparatorsEscaped::new(out))
    }

    fn end(&mut self, report: &Report, out: &mut dyn Write) -> io::Result<()> {
        write_json_lines_end(report, &mut super::SeparatorsEscaped::new(out))
    }
}

/// One JSON object a line, a finding each.
fn write_json_lines_findings(report: &Report, findings: &[Diagnostic], out: &mut dyn Write) -> io::Result<()> {
    for d in findings {
        serde_json::to_writer(&mut *out, &diagnostic(report, d))?;
        writeln!(out)?;
    }
    Ok(())
}

/// The last line: the summary and what could not be linted.
fn write_json_lines_end(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    #[derive(Serialize)]
    struct Last<'a> {
        summary: Summary,
        suppressions: Vec<JsonSuppression<'a>>,
        failures: Vec<JsonFailure>,
    }
    serde_json::to_writer(
        &mut *out,
        &Last {
            summary: summary(report),
            suppressions: suppressions(report),
            failures: failures(report),
        },
    )?;
    writeln!(out)
}

/// The name a record gives a kind of document, as the summary's `kinds`.
fn kind_name(kind: crate::feed::DocKind) -> &'static str {
    use crate::feed::DocKind;
    match kind {
        DocKind::Atom => "atom",
        DocKind::AtomEntry => "atom-entry",
        DocKind::DeletedEntry => "deleted-entry",
        DocKind::Rss => "rss",
        DocKind::JsonFeed => "json-feed",
    }
}

/// An input of a batch run, as its record names it: its `id` as given,
/// its URL (empty: the line named none), its line in the list.
pub struct BatchRecordInput<'a> {
    pub id: &'a Option<serde_json::Value>,
    pub url: &'a str,
    pub line: usize,
}

/// One record of a batch run (`--urls-from`), on one line: the input as
/// given (`id`, `url`, its `line` in the list), then what linting it gave.
/// docs/cli-contract.md ("Batch mode") is its contract.
/// `outcome`: the report, or why there is none.
pub fn write_batch_record(
    input: &BatchRecordInput,
    outcome: Result<&Report, &str>,
    out: &mut dyn Write,
) -> io::Result<()> {
    #[derive(Serialize)]
    struct Counts {
        errors: usize,
        warnings: usize,
        infos: usize,
    }
    #[derive(Serialize)]
    struct Record<'a, F: Serialize> {
        id: &'a Option<serde_json::Value>,
        url: Option<&'a str>,
        line: usize,
        status: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<&'a str>,
        final_url: Option<&'a str>,
        format: Option<&'static str>,
        documents: usize,
        counts: Counts,
        valid: Option<bool>,
        findings: F,
    }
    let mut out = super::SeparatorsEscaped::new(out);
    match outcome {
        Ok(report) => {
            // The feed, not the page that named it.
            let first = report.documents.iter().find(|document| !document.is_page());
            let record = Record {
                id: input.id,
                url: Some(input.url),
                line: input.line,
                status: "linted",
                error: None,
                final_url: first.and_then(|document| document.url.as_ref()).map(url::Url::as_str),
                format: first.and_then(|document| document.kind()).map(kind_name),
                documents: report.linted_documents(),
                counts: Counts {
                    errors: report.count(Level::Error),
                    warnings: report.count(Level::Warning),
                    infos: report.count(Level::Info),
                },
                valid: Some(report.valid()),
                findings: Streamed::new(report.diagnostics.iter().map(|d| diagnostic(report, d))),
            };
            serde_json::to_writer(&mut out, &record)?;
        }
        Err(why) => {
            let record = Record {
                id: input.id,
                // A line that named no URL has none.
                url: Some(input.url).filter(|url| !url.is_empty()),
                line: input.line,
                status: "failed",
                error: Some(why),
                final_url: None,
                format: None,
                documents: 0,
                counts: Counts {
                    errors: 0,
                    warnings: 0,
                    infos: 0,
                },
                valid: None,
                findings: [(); 0],
            };
            serde_json::to_writer(&mut out, &record)?;
        }
    }
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The report as one value for `serde_json`'s pretty printer: what
    /// [`write_json`] writes in pieces.
    #[derive(Serialize)]
    struct JsonReport<'a, D> {
        version: u32,
        tool: Tool,
        summary: Summary,
        /// Written finding by finding from the report: never a second copy.
        diagnostics: D,
        suppressions: Vec<JsonSuppression<'a>>,
        failures: Vec<JsonFailure>,
    }

    fn whole(report: &Report) -> Vec<u8> {
        let json = JsonReport {
            version: 1,
            tool: Tool {
                name: "feedlint",
                version: env!("CARGO_PKG_VERSION"),
            },
            summary: summary(report),
            diagnostics: Streamed::new(report.diagnostics.iter().map(|d| diagnostic(report, d))),
            suppressions: suppressions(report),
            failures: failures(report),
        };
        let mut json = serde_json::to_vec_pretty(&json).unwrap();
        json.push(b'\n');
        let mut out = Vec::new();
        super::super::SeparatorsEscaped::new(&mut out).write_all(&json).unwrap();
        out
    }

    fn pieces(report: &Report) -> Vec<u8> {
        let mut out = Vec::new();
        write_json(report, &mut out).unwrap();
        out
    }

    #[test]
    fn the_findings_made_in_parallel_read_as_the_pretty_printer_writes_them() {
        let options = crate::Options::default();
        let mut feed = String::from(
            "<rss version='2.0'><channel><title>t</title><link>https://example.org/</link><description>d</description>",
        );
        // More findings than one window, with quotes, line ends and
        // non-ASCII text in their messages.
        for n in 0..5000 {
            feed.push_str(&format!(
                "<item><title>é\n\"{n}\"</title><guid>tag:example.org,2024:{n}</guid><pubDate>x{n}</pubDate></item>"
            ));
        }
        feed.push_str("</channel></rss>");
        let options = options.keeping_every_finding();
        // A name with a line separator, in every finding and span.
        let mut report = crate::lint_bytes("a\u{2028}.rss", None, feed.as_bytes(), &options).unwrap();
        assert!(report.diagnostics.len() > 4096, "{}", report.diagnostics.len());
        assert_eq!(pieces(&report), whole(&report));
        report.failures.push(crate::Failure::Unfetchable {
            url: "https://example.org/\"x\"".to_owned(),
            message: "refused".to_owned(),
            reason: crate::Unreached::Other,
        });
        assert_eq!(pieces(&report), whole(&report));
        let empty = crate::lint_bytes(
            "b.atom",
            None,
            b"<feed xmlns='http://www.w3.org/2005/Atom'/>",
            &crate::Options::default(),
        )
        .unwrap();
        report.diagnostics.clear();
        assert_eq!(pieces(&empty), whole(&empty));
        assert_eq!(pieces(&report), whole(&report));
    }

    #[test]
    fn a_finding_is_written_by_hand_as_the_pretty_printer_writes_it() {
        // Fixes with edits, help or none, notes or none, secondary spans,
        // labels or none, quotes and a line end.
        let fixtures = [
            "testsuite/rules/fh-marker-duplicate/fail-twice.atom",
            "testsuite/rules/rss-invalid-date/fail-dates.rss",
            "testsuite/rules/atom-duplicate-element/fail-source.atom",
        ];
        let mut written = 0;
        for fixture in fixtures {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(fixture);
            let bytes = std::fs::read(&path).unwrap();
            let report = crate::lint_bytes(fixture, None, &bytes, &crate::Options::default()).unwrap();
            // One writer for all: what it keeps from a finding (the file's
            // name, the static texts escaped) is written again as it was.
            let mut all_ours = Vec::new();
            let mut all_serde = Vec::new();
            let mut shared = super::super::json_finding::Writer::new(&mut all_ours, 2);
            for d in &report.diagnostics {
                let mut ours = Vec::new();
                super::super::json_finding::Writer::new(&mut ours, 2).finding(&report, d);
                let serde = pretty_indented(&diagnostic(&report, d), 2).unwrap();
                assert_eq!(String::from_utf8_lossy(&ours), String::from_utf8_lossy(&serde));
                shared.finding(&report, d);
                all_serde.extend_from_slice(&serde);
                written += 1;
            }
            assert_eq!(String::from_utf8_lossy(&all_ours), String::from_utf8_lossy(&all_serde));
        }
        assert!(written > 3, "findings were written: {written}");
    }
}
