//! `--format concise`: one line a finding, `FILE:LINE:COL: LEVEL[RULE]
//! MESSAGE`, for tools; the totals go to standard error (see
//! [`super::concise_totals`]).

use std::io::{self, Write};

use super::{file_of, Emitter, Report};
use crate::findings::diagnostic::{Diagnostic, Level};

/// The concise format, its levels coloured where `color` is on.
pub struct Concise {
    pub color: bool,
}

impl Emitter for Concise {
    fn findings(&mut self, report: &Report, findings: &[Diagnostic], out: &mut dyn Write) -> io::Result<()> {
        write_concise_findings(report, findings, self.color, out)
    }

    fn end(&mut self, _report: &Report, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

/// The concise lines of `findings`, the level coloured as the text format
/// colours it when `color` is on.
fn write_concise_findings(
    report: &Report,
    findings: &[Diagnostic],
    color: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    for diagnostic in findings {
        let span = diagnostic.primary();
        let (on, off) = match (color, diagnostic.level) {
            (false, _) => ("", ""),
            (true, Level::Error) => ("\x1b[1;31m", "\x1b[0m"),
            (true, Level::Warning) => ("\x1b[1;33m", "\x1b[0m"),
            (true, Level::Info) => ("\x1b[1;36m", "\x1b[0m"),
        };
        writeln!(
            out,
            "{}:{}:{}: {on}{}[{}]{off} {}",
            file_of(report, span),
            span.line_start,
            span.column_start,
            diagnostic.level,
            diagnostic.rule,
            diagnostic.message
        )?;
    }
    Ok(())
}
