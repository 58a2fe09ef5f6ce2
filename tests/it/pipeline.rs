//! The pipeline's last stage: findings assembled per document, in
//! parallel, and given to a sink a chunk of documents at a time, in the
//! same order a kept report has them.

use feedlint::{Diagnostic, Input, Level, Options, Report, Sink};

use crate::common;
use common::scratch;

/// Records what a sink is given.
#[derive(Default)]
struct Recorder {
    started_with: Option<usize>,
    chunks: Vec<Vec<(String, usize, String)>>,
}

impl Sink for Recorder {
    fn start(&mut self, report: &Report) {
        assert!(self.chunks.is_empty(), "start comes before any finding");
        self.started_with = Some(report.documents.len());
    }

    fn findings(&mut self, report: &Report, findings: Vec<Diagnostic>) {
        self.chunks.push(findings.iter().map(|d| key(report, d)).collect());
    }
}

fn key(report: &Report, diagnostic: &Diagnostic) -> (String, usize, String) {
    let primary = diagnostic.primary();
    (
        report.documents[primary.doc].name.clone(),
        primary.byte_start,
        diagnostic.rule.to_string(),
    )
}

#[test]
fn findings_are_given_a_chunk_at_a_time_in_report_order() {
    let dir = scratch("pipeline-chunks");
    // 700 feeds with findings of their own (guids that are not links, one
    // suppressed, one suppression unused) and of the set (each names a
    // previous archive that is not there): more findings than one chunk
    // takes.
    for n in 0..700 {
        let more: String = (0..30)
            .map(|i| format!("<item><title>m</title><guid>{n}/m{i}</guid></item>"))
            .collect();
        let feed = format!(
            "<rss version=\"2.0\"><channel><title>t</title><link>https://example.org/</link><description>d</description>\
             <atom:link xmlns:atom=\"http://www.w3.org/2005/Atom\" rel=\"prev-archive\" href=\"https://example.org/gone-{n}.rss\"/>\
             <item><title>a</title><guid>{n}/a</guid></item>\
             <!-- feedlint-disable-next rss-invalid-guid --><item><title>b</title><guid>{n}/b</guid></item>\
             <!-- feedlint-disable-next rss-invalid-date --><item><title>c</title><guid>{n}/c</guid></item>\
             {more}</channel></rss>"
        );
        std::fs::write(dir.join(format!("{n:04}.rss")), feed).unwrap();
    }
    let options = Options::default().with_base_url("https://example.org/").unwrap();
    let kept = feedlint::lint(vec![Input::Path(dir.clone())], &options);
    let mut recorder = Recorder::default();
    let streamed = feedlint::lint_into(vec![Input::Path(dir.clone())], &options, &mut recorder);

    assert_eq!(recorder.started_with, Some(700));
    assert!(streamed.diagnostics.is_empty(), "a streamed report keeps no findings");
    let given: Vec<_> = recorder.chunks.iter().flatten().cloned().collect();
    let expected: Vec<_> = kept.diagnostics.iter().map(|d| key(&kept, d)).collect();
    assert_eq!(given, expected);
    // Each feed: two guid findings (one suppressed), one unused suppression,
    // and the set's finding about its missing archive.
    let rules: std::collections::BTreeSet<&str> = given.iter().map(|(_, _, rule)| rule.as_str()).collect();
    assert!(
        rules.contains("rss-invalid-guid") && rules.contains("unused-suppression"),
        "{rules:?}"
    );
    assert!(rules.len() >= 3, "a set rule's finding too: {rules:?}");
    // A chunk ends at 4,096 documents or past 16,384 findings (with the
    // findings of the document that passes the mark).
    assert!(given.len() > 20_000, "{} findings", given.len());
    assert!(recorder.chunks.len() >= 2, "{} chunks", recorder.chunks.len());
    for chunk in &recorder.chunks {
        let documents: std::collections::BTreeSet<&str> = chunk.iter().map(|(name, _, _)| name.as_str()).collect();
        assert!(documents.len() <= 4096, "{} documents in one chunk", documents.len());
        assert!(chunk.len() < 16_384 + 40, "{} findings in one chunk", chunk.len());
    }
    for level in [Level::Error, Level::Warning, Level::Info] {
        assert_eq!(streamed.count(level), kept.count(level));
    }
    assert_eq!(streamed.shown(), kept.diagnostics.len());
    let _ = std::fs::remove_dir_all(dir);
}

/// A blank line before `<?xml` (a template's) is reported, and the feed is
/// then checked as if it were not there: every fixture that starts with
/// its declaration gets, with a newline before it, the same findings one
/// line down, and the one for the newline.
#[test]
fn a_newline_before_the_declaration_is_reported_and_read_past() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/rules");
    let dir = common::scratch("newline-before-declaration");
    let mut compared = 0;
    for rule_dir in std::fs::read_dir(&root).unwrap() {
        for fixture in std::fs::read_dir(rule_dir.unwrap().path()).unwrap() {
            let path = fixture.unwrap().path();
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let extension = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
            if !text.starts_with("<?xml ") || !["atom", "rss", "xml", "atomdeleted"].contains(&extension) {
                continue;
            }
            let findings = |text: &str| -> Vec<(String, u64)> {
                let copy = dir.join(format!("doc.{extension}"));
                std::fs::write(&copy, text).unwrap();
                let report = common::json(
                    &std::process::Command::new(env!("CARGO_BIN_EXE_feedlint"))
                        .args(["--format", "json", "--max-per-rule", "0"])
                        .arg(&copy)
                        .output()
                        .unwrap(),
                );
                let mut found = common::finding_keys(&report, "rule", "line_start");
                found.sort();
                found
            };
            let before = findings(&text);
            if before.iter().any(|(rule, _)| rule == "xml-malformed") {
                continue;
            }
            let mut expected: Vec<(String, u64)> = before.into_iter().map(|(rule, line)| (rule, line + 1)).collect();
            expected.push(("xml-malformed".to_owned(), 1));
            expected.sort();
            assert_eq!(findings(&format!("\n{text}")), expected, "{}", path.display());
            compared += 1;
        }
    }
    assert!(compared > 50, "only {compared} fixtures start with their declaration");
}
