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
            .map(|i| format!("<item><title>m</title><guid>tag:example.org,2024:{n}/m{i}</guid></item>"))
            .collect();
        let feed = format!(
            "<rss version=\"2.0\"><channel><title>t</title><link>https://example.org/</link><description>d</description>\
             <atom:link xmlns:atom=\"http://www.w3.org/2005/Atom\" rel=\"prev-archive\" href=\"https://example.org/gone-{n}.rss\"/>\
             <item><title>a</title><guid>tag:example.org,2024:{n}/a</guid></item>\
             <!-- feedlint-disable-next rss-invalid-guid --><item><title>b</title><guid>tag:example.org,2024:{n}/b</guid></item>\
             <!-- feedlint-disable-next rss-invalid-date --><item><title>c</title><guid>tag:example.org,2024:{n}/c</guid></item>\
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
