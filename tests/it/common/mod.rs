//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test crate uses a part

pub mod http;

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

/// A fresh, empty directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    // Every test of the binary runs in this one process: a number of its
    // own keeps two tests that pick the same name apart.
    static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("feedlint-test-{}-{n}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Standard output, then standard error, as a person reading a failed
/// command would want them.
pub fn said(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The JSON report on standard output.
pub fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("not JSON; stderr: {}", stderr(output)))
}

/// The rule ids of a JSON report's diagnostics, in order.
pub fn rules_of(report: &Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap().to_owned())
        .collect()
}

/// The messages of a JSON report's diagnostics, in order.
pub fn messages(report: &Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect()
}

/// What an Atom feed's head must hold besides its links (RFC 4287 §4.1.1),
/// for the documents tests write: a title, an id, an update time, an author.
pub const ATOM_HEAD: &str = "<title>t</title><id>tag:example.org,2024:feed</id><updated>2024-01-01T00:00:00Z</updated><author><name>a</name></author>";

/// Each finding of a JSON report as a field of it and a field of its
/// primary span (`("rule", "line_start")`), in report order.
pub fn finding_keys(report: &Value, field: &str, span_field: &str) -> Vec<(String, u64)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d[field].as_str().unwrap().to_owned(),
                d["spans"][0][span_field].as_u64().unwrap(),
            )
        })
        .collect()
}

/// A podcast whose `count` episodes each write a legacy explicit value
/// (`yes`), each with a safe fix to `true`.
pub fn legacy_explicit_podcast(count: usize) -> String {
    let items: String = (0..count)
        .map(|n| format!("<item><title>Episode {n}</title><itunes:explicit>yes</itunes:explicit></item>\n"))
        .collect();
    format!(
        "<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel>\
         <title>Show</title><link>https://example.org/</link><description>A show.</description>\n{items}</channel></rss>\n"
    )
}
