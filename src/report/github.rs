//! `--format github`: GitHub Actions workflow commands, which GitHub shows
//! as annotations on the pull request.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::findings::diagnostic::{Diagnostic, Level};
use crate::model::document::Document;
use crate::report::Report;

/// How many annotations of each level GitHub shows for one step; the rest
/// are dropped without a word.
const SHOWN_PER_LEVEL: usize = 10;

/// The directory annotation paths are relative to: the checkout
/// (`GITHUB_WORKSPACE`), else the git work tree around the current
/// directory. GitHub attaches an annotation to the diff only by such a path.
fn repository_root() -> Option<PathBuf> {
    let root = match std::env::var_os("GITHUB_WORKSPACE").filter(|w| !w.is_empty()) {
        Some(workspace) => PathBuf::from(workspace),
        None => {
            let here = std::env::current_dir().ok()?;
            here.ancestors().find(|dir| dir.join(".git").exists())?.to_path_buf()
        }
    };
    std::fs::canonicalize(root).ok()
}

/// A document's path from the repository root, with `/` separators and no
/// `./`; a document outside it (or read from stdin or a URL) keeps its name.
fn annotation_path(document: &Document, root: Option<&Path>) -> String {
    let relative = document
        .path
        .as_ref()
        .zip(root)
        .and_then(|(path, root)| Some(std::fs::canonicalize(path).ok()?.strip_prefix(root).ok()?.to_owned()));
    match relative {
        Some(relative) => relative
            .components()
            .map(|part| part.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        None => document.name.trim_start_matches("./").to_owned(),
    }
}

/// Escapes a command's message (`%`, CR, LF), as the runner reads it.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a file name for the `file` property: every character that
/// would hide itself or act on a terminal (the runner's log shows the
/// command) written as `\u{...}`, then the property escapes.
fn escape_file(name: &str) -> String {
    escape_property(&crate::base::shown::visible(name))
}

/// Escapes a property value: the message escapes, and `:` and `,`.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The GitHub format, with the documents' paths as annotations name them,
/// made once every document is known.
#[derive(Default)]
pub struct Github {
    paths: Option<Vec<String>>,
}

impl super::Emitter for Github {
    fn findings(&mut self, report: &Report, findings: &[Diagnostic], out: &mut dyn Write) -> io::Result<()> {
        let paths = self.paths.get_or_insert_with(|| annotation_paths(report));
        write_github_findings(paths, findings, out)
    }

    fn end(&mut self, report: &Report, out: &mut dyn Write) -> io::Result<()> {
        write_github_end(report, out)
    }
}

/// Each document's path as annotations name it.
fn annotation_paths(report: &Report) -> Vec<String> {
    let root = repository_root();
    report
        .documents
        .iter()
        .map(|document| annotation_path(document, root.as_deref()))
        .collect()
}

/// One workflow command a finding; `paths` are [`annotation_paths`].
fn write_github_findings(paths: &[String], findings: &[Diagnostic], out: &mut dyn Write) -> io::Result<()> {
    for diagnostic in findings {
        let span = diagnostic.primary();
        let command = match diagnostic.level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Info => "notice",
        };
        let mut properties = vec![
            ("file", escape_file(&paths[span.doc])),
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

/// A notice for the annotations GitHub would not show.
fn write_github_end(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let hidden: usize = [Level::Error, Level::Warning, Level::Info]
        .into_iter()
        .map(|level| report.count(level).saturating_sub(SHOWN_PER_LEVEL))
        .sum();
    if hidden > 0 {
        let message = format!(
            "feedlint found {}; GitHub shows {SHOWN_PER_LEVEL} annotations of each level per step, so {hidden} are not shown here: the job log lists every finding, and --format sarif uploads them all to code scanning",
            super::summary_line(report)
        );
        writeln!(out, "::notice title=feedlint::{}", escape_data(&message))?;
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
