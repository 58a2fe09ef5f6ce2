//! `--format github`: GitHub Actions workflow commands, which GitHub shows
//! as annotations on the pull request.

use std::io::{self, Write};

use super::file_of;
use crate::assemble::Report;
use crate::diagnostic::Level;

/// Escapes a command's message (`%`, CR, LF), as the runner reads it.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a property value: the message escapes, and `:` and `,`.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

pub fn write_github(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for diagnostic in &report.diagnostics {
        let span = diagnostic.primary();
        let command = match diagnostic.level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Info => "notice",
        };
        let mut properties = vec![
            ("file", escape_property(file_of(report, span))),
            ("line", span.line_start.to_string()),
            ("endLine", span.line_end.to_string()),
        ];
        // GitHub rejects columns on annotations that span several lines.
        if span.line_start == span.line_end {
            properties.push(("col", span.column_start.to_string()));
            properties.push(("endColumn", span.column_end.to_string()));
        }
        properties.push(("title", escape_property(&format!("feedlint ({})", diagnostic.rule))));
        let properties: Vec<String> = properties.into_iter().map(|(k, v)| format!("{k}={v}")).collect();
        let mut message = diagnostic.message.clone();
        if let Some(help) = &diagnostic.help {
            message.push_str("\nhelp: ");
            message.push_str(help);
        }
        writeln!(out, "::{command} {}::{}", properties.join(","), escape_data(&message))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_the_runner_expects() {
        assert_eq!(escape_data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
