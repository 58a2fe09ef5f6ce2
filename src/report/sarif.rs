//! `--format sarif`: SARIF 2.1.0 as GitHub code scanning reads it.

use std::io::{self, Write};
use std::path::Path;

use serde::Serialize;
use serde_json::{json, Value};

use super::json::Streamed;

use crate::findings::diagnostic::{Diagnostic, Level, Span};
use crate::model::document::Document;
use crate::report::Report;
use crate::rules::{self, Rule};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

fn level(level: Level) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Info => "note",
    }
}

fn help_uri(rule: &Rule) -> String {
    super::rule_doc_url(rule.id)
}

/// The first paragraph of a rule document's "What it checks".
fn full_description(rule: &Rule) -> &'static str {
    let section = rule.id.doc().split("## What it checks").nth(1).unwrap_or(rule.summary);
    section.trim_start().split("\n\n").next().unwrap_or(rule.summary).trim()
}

fn rule_descriptor(rule: &Rule) -> Value {
    json!({
        "id": rule.id.as_str(),
        "shortDescription": { "text": rule.summary },
        "fullDescription": { "text": full_description(rule) },
        "help": { "text": rule.id.doc(), "markdown": rule.id.doc() },
        "helpUri": help_uri(rule),
        "defaultConfiguration": { "level": level(rule.level) },
        "properties": { "tags": [format!("scope:{}", rule.scope.as_str().replace(" + ", "+"))], "spec": rule.spec },
    })
}

/// A URI for the artifact: the path relative to the current directory
/// (the repository root in CI), else the document's URL.
fn artifact_uri(document: &Document) -> String {
    let Some(path) = &document.path else {
        return document
            .url
            .as_ref()
            .map_or_else(|| "stdin".to_owned(), |url| url.to_string());
    };
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| {
            std::path::absolute(path)
                .ok()?
                .strip_prefix(cwd)
                .ok()
                .map(Path::to_path_buf)
        })
        .unwrap_or_else(|| path.clone());
    let text = relative.to_string_lossy().replace('\\', "/");
    let mut uri = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b'+' | b'@' => {
                uri.push(byte as char)
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri
}

fn location(uri: &str, span: &Span) -> Value {
    json!({
        "physicalLocation": {
            "artifactLocation": { "uri": uri },
            "region": {
                "startLine": span.line_start,
                "startColumn": span.column_start,
                "endLine": span.line_end,
                "endColumn": span.column_end,
            }
        }
    })
}

/// A stable fingerprint: FNV-1a over what identifies the finding, without
/// its line, so that it survives edits above it.
fn fingerprint(diagnostic: &Diagnostic, uri: &str, occurrence: usize) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [
        diagnostic.rule.as_str(),
        uri,
        &diagnostic.message,
        &occurrence.to_string(),
    ] {
        for byte in part.bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// A SARIF `fix` (§3.55): one `artifactChange` of the finding's file, its
/// replacements in lines and columns (Unicode code points, as the run's
/// `columnKind` says) and bytes.
fn fix_object(fix: &crate::findings::fix::Fix<crate::findings::diagnostic::Location>, uri: &str, doc: usize) -> Value {
    let replacements: Vec<Value> = fix
        .edits
        .iter()
        .map(|edit| {
            let at = edit.at.in_doc(doc);
            json!({
                "deletedRegion": {
                    "startLine": at.line_start,
                    "startColumn": at.column_start,
                    "endLine": at.line_end,
                    "endColumn": at.column_end,
                    "byteOffset": at.byte_start,
                    "byteLength": at.byte_end - at.byte_start,
                },
                "insertedContent": { "text": edit.replacement },
            })
        })
        .collect();
    json!({
        "description": { "text": format!("{} ({})", fix.title, fix.applicability.as_str()) },
        "artifactChanges": [{
            "artifactLocation": { "uri": uri },
            "replacements": replacements,
        }],
    })
}

/// The SARIF log, its keys in the order `serde_json` writes an object's
/// (sorted), with the results written one by one from the report.
#[derive(Serialize)]
struct Log<R> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    runs: [Run<R>; 1],
    version: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<R> {
    column_kind: &'static str,
    invocations: Value,
    results: R,
    tool: Value,
}

/// SARIF 2.1.0: one document, written whole at the end.
pub struct Sarif;

impl super::Emitter for Sarif {
    fn findings(
        &mut self,
        _report: &Report,
        _findings: &[crate::findings::diagnostic::Diagnostic],
        _out: &mut dyn Write,
    ) -> io::Result<()> {
        Ok(())
    }

    fn end(&mut self, report: &Report, out: &mut dyn Write) -> io::Result<()> {
        write_sarif(report, &mut super::SeparatorsEscaped::new(out))
    }
}

fn write_sarif(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let uris: Vec<String> = report.documents.iter().map(artifact_uri).collect();
    let mut seen = std::collections::HashMap::new();
    let results = report.diagnostics.iter().map(|diagnostic| {
        let primary = diagnostic.primary();
        let uri = &uris[primary.doc];
        let occurrence = seen
            .entry((diagnostic.rule, uri.as_str(), diagnostic.message.as_str()))
            .or_insert(0usize);
        *occurrence += 1;
        let related: Vec<Value> = diagnostic.spans[1..]
            .iter()
            .enumerate()
            .map(|(i, span)| {
                let mut related = location(&uris[span.doc], span);
                related["id"] = json!(i + 1);
                related["message"] = json!({ "text": span.label.as_deref().unwrap_or_default() });
                related
            })
            .collect();
        let mut text = diagnostic.message.clone();
        if let Some(help) = &diagnostic.help {
            text.push_str("\nhelp: ");
            text.push_str(help);
        }
        let mut result = json!({
            "ruleId": diagnostic.rule.as_str(),
            "ruleIndex": rules::RULES.iter().position(|r| r.id == diagnostic.rule).unwrap_or_default(),
            "level": level(diagnostic.level),
            "message": { "text": text },
            "locations": [location(uri, primary)],
            "relatedLocations": related,
            "partialFingerprints": { "feedlint/v1": fingerprint(diagnostic, uri, *occurrence) },
        });
        if let Some(fix) = &diagnostic.fix {
            result["fixes"] = json!([fix_object(fix, uri, primary.doc)]);
        }
        result
    });
    let log = Log {
        schema: SCHEMA,
        runs: [Run {
            column_kind: "unicodeCodePoints",
            invocations: json!([{
                // What could not be linted at all: the run failed for it.
                "executionSuccessful": report.failures.is_empty(),
                "toolExecutionNotifications": report.failures.iter().map(|failure| json!({
                    "level": "error",
                    "message": { "text": failure.to_string() },
                })).collect::<Vec<_>>(),
            }]),
            results: Streamed::new(results),
            tool: json!({
                "driver": {
                    "name": "feedlint",
                    "version": env!("CARGO_PKG_VERSION"),
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "informationUri": REPOSITORY,
                    "rules": rules::RULES.iter().map(|r| rule_descriptor(r)).collect::<Vec<_>>(),
                }
            }),
        }],
        version: "2.1.0",
    };
    serde_json::to_writer_pretty(&mut *out, &log)?;
    writeln!(out)
}
