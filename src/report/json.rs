//! `--format json` and `--format json-lines`, field for field as the
//! command-line contract shows them.

use std::io::{self, Write};

use serde::Serialize;

use super::spec_of;
use crate::assemble::Report;
use crate::diagnostic::{Diagnostic, Level, Span, Text};
use crate::rule_id::RuleId;

#[derive(Serialize)]
struct JsonReport<D> {
    version: u32,
    tool: Tool,
    summary: Summary,
    /// Written finding by finding from the report: never a second copy.
    diagnostics: D,
    failures: Vec<JsonFailure>,
}

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

pub fn write_json(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let json = JsonReport {
        version: 1,
        tool: Tool {
            name: "feedlint",
            version: env!("CARGO_PKG_VERSION"),
        },
        summary: summary(report),
        diagnostics: Streamed::new(report.diagnostics.iter().map(|d| diagnostic(report, d))),
        failures: failures(report),
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}

pub fn write_json_lines(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    write_json_lines_findings(report, &report.diagnostics, out)?;
    write_json_lines_end(report, out)
}

/// One JSON object a line, a finding each.
pub(super) fn write_json_lines_findings(
    report: &Report,
    findings: &[Diagnostic],
    out: &mut dyn Write,
) -> io::Result<()> {
    for d in findings {
        serde_json::to_writer(&mut *out, &diagnostic(report, d))?;
        writeln!(out)?;
    }
    Ok(())
}

/// The last line: the summary and what could not be linted.
pub(super) fn write_json_lines_end(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    #[derive(Serialize)]
    struct Last {
        summary: Summary,
        failures: Vec<JsonFailure>,
    }
    serde_json::to_writer(
        &mut *out,
        &Last {
            summary: summary(report),
            failures: failures(report),
        },
    )?;
    writeln!(out)
}
