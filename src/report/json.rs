//! `--format json` and `--format json-lines`, field for field as the
//! command-line contract shows them.

use std::io::{self, Write};

use serde::Serialize;

use super::{doc_url, spec_of};
use crate::assemble::Report;
use crate::diagnostic::{Diagnostic, Level, Text};

#[derive(Serialize)]
struct JsonReport<'a> {
    version: u32,
    tool: Tool,
    summary: Summary,
    diagnostics: Vec<JsonDiagnostic<'a>>,
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
    spans: Vec<JsonSpan<'a>>,
    notes: &'a [Text],
    help: Option<&'a str>,
    spec: &'static str,
    url: String,
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
        folded: report.diagnostics.iter().map(|d| d.folded).sum(),
        context: report.context_documents(),
        dropped: report.dropped.total(),
    }
}

fn diagnostic<'a>(report: &'a Report, diagnostic: &'a Diagnostic) -> JsonDiagnostic<'a> {
    JsonDiagnostic {
        rule: diagnostic.rule.as_str(),
        level: diagnostic.level,
        message: &diagnostic.message,
        file: &report.documents[diagnostic.primary().doc].name,
        spans: diagnostic
            .spans
            .iter()
            .map(|span| JsonSpan {
                file: &report.documents[span.doc].name,
                byte_start: span.byte_start,
                byte_end: span.byte_end,
                line_start: span.line_start,
                column_start: span.column_start,
                line_end: span.line_end,
                column_end: span.column_end,
                is_primary: span.is_primary,
                label: span.label.as_deref(),
            })
            .collect(),
        notes: &diagnostic.notes,
        help: diagnostic.help.as_deref(),
        spec: spec_of(diagnostic),
        url: doc_url(diagnostic),
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
        diagnostics: report.diagnostics.iter().map(|d| diagnostic(report, d)).collect(),
        failures: failures(report),
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}

pub fn write_json_lines(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for d in &report.diagnostics {
        serde_json::to_writer(&mut *out, &diagnostic(report, d))?;
        writeln!(out)?;
    }
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
