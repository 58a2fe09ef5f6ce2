//! `--format text`: codespan-reporting snippets with primary and secondary
//! labels, notes and help, then a summary line. Snippets are windows of at
//! most 120 columns of the lines (see [`crate::text::snippet`]).

use std::io::{self, Write};

use codespan_reporting::diagnostic::{Diagnostic as Rendered, Label, Severity};
use codespan_reporting::term::{self, termcolor};

use super::{doc_url, file_of, spec_of, summary_line};
use crate::findings::diagnostic::{Diagnostic, Level};
use crate::report::Report;
use crate::text::snippet::{SnippetFile, SnippetFiles, Window};

fn severity(level: Level) -> Severity {
    match level {
        Level::Error => Severity::Error,
        Level::Warning => Severity::Warning,
        Level::Info => Severity::Note,
    }
}

/// The text format, coloured where `color` is on.
pub struct Text {
    pub color: bool,
}

impl super::Emitter for Text {
    fn findings(&mut self, report: &Report, findings: &[Diagnostic], out: &mut dyn Write) -> io::Result<()> {
        write_text_findings(report, findings, self.color, out)
    }

    fn end(&mut self, report: &Report, out: &mut dyn Write) -> io::Result<()> {
        write_text_end(report, out)
    }
}

/// The findings, each with its snippets, written one by one.
fn write_text_findings(report: &Report, findings: &[Diagnostic], color: bool, out: &mut dyn Write) -> io::Result<()> {
    if color {
        write_findings(report, findings, &mut termcolor::Ansi::new(&mut *out))
    } else {
        write_findings(report, findings, &mut termcolor::NoColor::new(&mut *out))
    }
}

/// The summary line.
fn write_text_end(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "feedlint: {}: {}",
        super::status_word(report),
        summary_line(report)
    )
}

/// How many findings must say the same thing of one document before the
/// text format shows the first and lists the places of the others.
const REPEATS_GROUPED_FROM: usize = 3;

/// The most places a group lists before its last (a line stays short).
const LINES_LISTED: usize = 10;

/// What makes findings the same defect in different places: one rule, one
/// document, and one message once what is quoted and every number in it
/// are set aside (`pubDate "2024-01-05" ...` and `pubDate "2024-01-06" ...`).
fn defect_key(diagnostic: &Diagnostic) -> (crate::findings::rule_id::RuleId, usize, String) {
    let mut shape = String::with_capacity(diagnostic.message.len());
    let mut quote = None;
    for c in diagnostic.message.chars() {
        match (quote, c) {
            (Some(open), c) if c == open => {
                quote = None;
                shape.push(c);
            }
            (Some(_), _) => {}
            (None, '"' | '`') => {
                quote = Some(c);
                shape.push(c);
            }
            (None, c) if c.is_ascii_digit() => {
                if !shape.ends_with('#') {
                    shape.push('#');
                }
            }
            (None, c) => shape.push(c),
        }
    }
    (diagnostic.rule, diagnostic.primary().doc, shape)
}

/// For each finding, what the text shows of it: in full (with the lines
/// of the repeats it stands for, if any), or nothing (a repeat).
fn group_repeats(findings: &[Diagnostic]) -> Vec<Option<Vec<&crate::findings::diagnostic::Span>>> {
    let mut groups: crate::base::hash::FastMap<_, Vec<usize>> = crate::base::hash::FastMap::default();
    for (index, diagnostic) in findings.iter().enumerate() {
        // A folding finding ("and 40 more not shown") is its own.
        if diagnostic.folded == 0 {
            groups.entry(defect_key(diagnostic)).or_default().push(index);
        }
    }
    let mut shown: Vec<Option<Vec<&crate::findings::diagnostic::Span>>> = vec![Some(Vec::new()); findings.len()];
    for members in groups.into_values().filter(|m| m.len() >= REPEATS_GROUPED_FROM) {
        let places = members[1..].iter().map(|&i| findings[i].primary()).collect();
        shown[members[0]] = Some(places);
        for &repeat in &members[1..] {
            shown[repeat] = None;
        }
    }
    shown
}

/// The note that stands for the repeats of a finding: their lines, or
/// lines and columns where two share a line (a feed written on one line).
fn repeats_note(places: &[&crate::findings::diagnostic::Span]) -> String {
    let shares_a_line = places.windows(2).any(|pair| pair[0].line_start == pair[1].line_start);
    let place = |span: &&crate::findings::diagnostic::Span| match shares_a_line {
        true => format!("{}:{}", span.line_start, span.column_start),
        false => span.line_start.to_string(),
    };
    let mut listed: Vec<String> = places.iter().take(LINES_LISTED).map(place).collect();
    if let Some(last) = places.last().filter(|_| places.len() > LINES_LISTED) {
        listed.push(format!("… {}", place(last)));
    }
    let at = match (shares_a_line, places.len()) {
        (true, _) => "",
        (false, 1) => "line ",
        (false, _) => "lines ",
    };
    format!(
        "and {} more like this, at {at}{} (--format concise lists each)",
        places.len(),
        listed.join(", ")
    )
}

fn write_findings(report: &Report, findings: &[Diagnostic], out: &mut dyn termcolor::WriteColor) -> io::Result<()> {
    let config = term::Config::default();
    for (diagnostic, shown) in findings.iter().zip(group_repeats(findings)) {
        let Some(repeats) = shown else { continue };
        let repeats = (!repeats.is_empty()).then(|| repeats_note(&repeats));
        match render(report, diagnostic, repeats.as_deref()) {
            Some((files, rendered)) if diagnostic.level == Level::Info => {
                // codespan-reporting calls this severity "note"; feedlint's
                // level is "info" in every format, so the header is renamed.
                let mut header = Vec::new();
                if out.supports_color() {
                    emit(&mut termcolor::Ansi::new(&mut header), &config, &files, &rendered)?;
                } else {
                    emit(&mut termcolor::NoColor::new(&mut header), &config, &files, &rendered)?;
                }
                let line_end = header.iter().position(|&b| b == b'\n').unwrap_or(header.len());
                if let Some(at) = header[..line_end].windows(5).position(|w| w == b"note[") {
                    header[at..at + 4].copy_from_slice(b"info");
                }
                out.write_all(&header)?;
            }
            Some((files, rendered)) => emit(out, &config, &files, &rendered)?,
            // Without snippets (a caller that did not keep them), one line.
            None => {
                let span = diagnostic.primary();
                writeln!(
                    out,
                    "{}[{}]: {}\n  --> {}:{}:{}",
                    diagnostic.level,
                    diagnostic.rule,
                    diagnostic.message,
                    file_of(report, span),
                    span.line_start,
                    span.column_start
                )?;
                match &repeats {
                    Some(note) => writeln!(out, "  = {note}\n")?,
                    None => writeln!(out)?,
                }
            }
        }
    }
    Ok(())
}

fn emit(
    out: &mut dyn termcolor::WriteColor,
    config: &term::Config,
    files: &SnippetFiles<'_>,
    rendered: &Rendered<usize>,
) -> io::Result<()> {
    term::emit_to_write_style(out, config, files, rendered).map_err(|e| match e {
        codespan_reporting::files::Error::Io(error) => error,
        other => io::Error::other(other.to_string()),
    })
}

/// The finding for codespan-reporting, with the snippet files of the
/// documents its spans are in.
fn render<'r>(
    report: &'r Report,
    diagnostic: &'r Diagnostic,
    repeats: Option<&str>,
) -> Option<(SnippetFiles<'r>, Rendered<usize>)> {
    let mut files = SnippetFiles::default();
    let mut file_of_doc: Vec<(usize, usize)> = Vec::new();
    // The windows each document contributes, in document order.
    let mut windows: Vec<(usize, Vec<&Window>)> = Vec::new();
    for span in &diagnostic.spans {
        let snippets = report.documents[span.doc].snippets.as_ref()?;
        let mut wanted = vec![snippets.window_at(span.byte_start)?];
        if span.line_end != span.line_start {
            wanted.extend(snippets.window_at(span.byte_end));
        }
        match windows.iter_mut().find(|(doc, _)| *doc == span.doc) {
            Some((_, list)) => list.extend(wanted),
            None => windows.push((span.doc, wanted)),
        }
    }
    for (doc, mut list) in windows {
        list.sort_by_key(|w| w.start);
        list.dedup_by_key(|w| w.start);
        // A single line between two shown is shown too, when it was kept.
        let snippets = report.documents[doc].snippets.as_ref()?;
        let between: Vec<&Window> = list
            .windows(2)
            .filter(|pair| pair[1].line == pair[0].line + 2)
            .filter_map(|pair| snippets.line_after(pair[0]))
            .collect();
        if !between.is_empty() {
            list.extend(between);
            list.sort_by_key(|w| w.start);
        }
        file_of_doc.push((doc, files.files.len()));
        files.files.push(SnippetFile::new(&report.documents[doc].name, list));
    }
    let mut labels = Vec::with_capacity(diagnostic.spans.len());
    for span in &diagnostic.spans {
        let file = file_of_doc.iter().find(|(doc, _)| *doc == span.doc)?.1;
        let range = files.files[file].range(span.byte_start..span.byte_end)?;
        let label = if span.is_primary {
            Label::primary(file, range)
        } else {
            Label::secondary(file, range)
        };
        labels.push(match &span.label {
            Some(text) => label.with_message(text.as_ref()),
            None => label,
        });
    }
    let mut notes: Vec<String> = repeats.map(str::to_owned).into_iter().collect();
    notes.extend(diagnostic.notes.iter().map(|note| note.to_string()));
    if let Some(help) = &diagnostic.help {
        notes.push(format!("help: {help}"));
    }
    if let Some(fix) = &diagnostic.fix {
        notes.push(fix_available(fix));
    }
    notes.push(format!(
        "see: feedlint explain {}, or {} ({})",
        diagnostic.rule,
        doc_url(diagnostic),
        spec_of(diagnostic)
    ));
    let rendered = Rendered::new(severity(diagnostic.level))
        .with_code(diagnostic.rule)
        .with_message(&diagnostic.message)
        .with_labels(labels)
        .with_notes(notes);
    Some((files, rendered))
}

/// The note that says a fix is there, and how to apply it.
fn fix_available<S>(fix: &crate::findings::fix::Fix<S>) -> String {
    match fix.applicability {
        crate::findings::fix::Applicability::Safe => format!("fix available: {} (--fix)", fix.title),
        crate::findings::fix::Applicability::Unsafe => format!("fix available: {} (--fix --unsafe-fixes)", fix.title),
    }
}
