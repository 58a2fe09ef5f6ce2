//! `--format text`: codespan-reporting snippets with primary and secondary
//! labels, notes and help, then a summary line.

use std::io::{self, Write};

use codespan_reporting::diagnostic::{Diagnostic as Rendered, Label, Severity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor};

use super::{doc_url, file_of, spec_of, summary_line};
use crate::diagnostic::{Diagnostic, Level};
use crate::engine::Report;

fn severity(level: Level) -> Severity {
    match level {
        Level::Error => Severity::Error,
        Level::Warning => Severity::Warning,
        Level::Info => Severity::Note,
    }
}

pub fn write_text(report: &Report, color: bool, out: &mut dyn Write) -> io::Result<()> {
    let mut files = SimpleFiles::new();
    let file_ids: Vec<Option<usize>> = report
        .documents
        .iter()
        .map(|doc| doc.text.as_deref().map(|text| files.add(doc.name.as_str(), text)))
        .collect();
    let config = term::Config::default();
    let mut buffer = if color {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    for diagnostic in &report.diagnostics {
        let rendered = render(diagnostic, &file_ids);
        match rendered {
            Some(rendered) => term::emit_to_write_style(&mut buffer, &config, &files, &rendered)
                .map_err(|e| io::Error::other(e.to_string()))?,
            // Without the text (a caller that did not keep it), one line.
            None => {
                let span = diagnostic.primary();
                writeln!(
                    buffer,
                    "{}[{}]: {}\n  --> {}:{}:{}\n",
                    diagnostic.level,
                    diagnostic.rule,
                    diagnostic.message,
                    file_of(report, span),
                    span.line_start,
                    span.column_start
                )?;
            }
        }
    }
    out.write_all(buffer.as_slice())?;
    let status = if report.diagnostics.is_empty() {
        "no findings"
    } else {
        "found"
    };
    writeln!(out, "feedlint: {status}: {}", summary_line(report))
}

fn render(diagnostic: &Diagnostic, file_ids: &[Option<usize>]) -> Option<Rendered<usize>> {
    let mut labels = Vec::with_capacity(diagnostic.spans.len());
    for span in &diagnostic.spans {
        let file = file_ids[span.doc]?;
        let label = if span.is_primary {
            Label::primary(file, span.byte_start..span.byte_end)
        } else {
            Label::secondary(file, span.byte_start..span.byte_end)
        };
        labels.push(match &span.label {
            Some(text) => label.with_message(text),
            None => label,
        });
    }
    let mut notes = diagnostic.notes.clone();
    if let Some(help) = &diagnostic.help {
        notes.push(format!("help: {help}"));
    }
    notes.push(format!("see: {} ({})", doc_url(diagnostic), spec_of(diagnostic)));
    Some(
        Rendered::new(severity(diagnostic.level))
            .with_code(diagnostic.rule)
            .with_message(&diagnostic.message)
            .with_labels(labels)
            .with_notes(notes),
    )
}
