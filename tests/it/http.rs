//! How a fetched feed is served (group `http`): each rule against a small
//! server on 127.0.0.1 that misbehaves in exactly one way, and silence on
//! one that serves well (no outside network).

use std::process::{Command, Output};

use crate::common;
use common::http::{etag_of, honour_conditions, ok, status, Reply, Seen, Server};
use common::{json, messages, rules_of, stderr};

/// An Atom feed at `path` (an archive where `archive`) with `links` and
/// `padding` bytes of entry text.
fn feed(path: &str, archive: bool, links: &[(&str, &str)], padding: usize) -> String {
    let marker = if archive { "<fh:archive/>" } else { "" };
    let links: String = links
        .iter()
        .map(|(rel, href)| format!("<link rel=\"{rel}\" href=\"{href}\"/>"))
        .collect();
    let text = "a".repeat(padding);
    format!(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:fh=\"http://purl.org/syndication/history/1.0\">\
         <title>t</title><id>tag:example.org,2024:feed</id><updated>2024-01-01T00:00:00Z</updated>\
         <author><name>a</name></author>{marker}<link rel=\"self\" href=\"{path}\"/>{links}\
         <entry><title>e</title><link href=\"https://example.org{path}/entry\"/><id>tag:example.org,2024:{path}</id>\
         <updated>2024-01-01T00:00:00Z</updated><summary>{text}</summary></entry></feed>"
    )
}

fn plain(path: &str) -> String {
    feed(path, false, &[], 0)
}

fn feedlint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .output()
        .unwrap()
}

/// The `http` rules of the JSON report of `url`, in report order.
fn http_rules(url: &str, more: &[&str]) -> Vec<String> {
    let mut args = vec!["--format", "json", url];
    args.extend_from_slice(more);
    let report = json(&feedlint(&args));
    rules_of(&report)
        .into_iter()
        .filter(|rule| rule.starts_with("http-"))
        .collect()
}

/// `reply` with `name` set to `value` (replaced where it was there).
fn with(mut reply: Reply, name: &'static str, value: &str) -> Reply {
    reply.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    reply.headers.push((name, value.to_owned()));
    reply
}

fn without(mut reply: Reply, name: &str) -> Reply {
    reply.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    reply
}

#[test]
fn a_well_served_feed_gives_nothing_and_is_asked_again_once_conditionally() {
    let server = Server::start(|path, _| match path {
        "/feed.atom" => ok(plain("/feed.atom")),
        _ => status(404),
    });
    assert_eq!(http_rules(&server.url("/feed.atom"), &[]), Vec::<String>::new());
    let seen = server.seen();
    assert_eq!(seen.len(), 2, "{seen:?}");
    let tag = etag_of(plain("/feed.atom").as_bytes());
    assert_eq!(seen[0].header("if-none-match"), None);
    assert_eq!(seen[1].header("if-none-match"), Some(tag));
    assert_eq!(seen[1].header("origin").as_deref(), Some("https://feedlint.invalid"));
    // Turned off, the rules ask nothing more.
    let before = server.seen().len();
    assert_eq!(
        http_rules(&server.url("/feed.atom"), &["--ignore", "http"]),
        Vec::<String>::new()
    );
    assert_eq!(server.seen().len(), before + 1);
}

#[test]
fn no_validator() {
    let server = Server::start(|_, _| without(ok(plain("/feed.atom")), "etag"));
    assert_eq!(http_rules(&server.url("/feed.atom"), &[]), ["http-no-validator"]);
    // Nothing to ask conditionally with.
    assert_eq!(server.seen().len(), 1);
    let server = Server::start(|_, _| {
        with(
            without(ok(plain("/feed.atom")), "etag"),
            "Last-Modified",
            "Sat, 28 Nov 2026 10:00:00 GMT",
        )
    });
    assert!(!http_rules(&server.url("/feed.atom"), &[]).contains(&"http-no-validator".to_owned()));
}

#[test]
fn an_etag_the_server_does_not_honour() {
    // Answered whole whatever the request says: start_seeing does not
    // honour conditions.
    let server = Server::start_seeing(|_, _| ok(plain("/feed.atom")));
    let url = server.url("/feed.atom");
    let report = json(&feedlint(&["--format", "json", &url]));
    let rules: Vec<String> = rules_of(&report)
        .into_iter()
        .filter(|r| r.starts_with("http-"))
        .collect();
    assert_eq!(rules, ["http-etag-ignored"]);
    assert!(
        messages(&report)[0].contains("If-None-Match: \""),
        "{:?}",
        messages(&report)
    );
}

#[test]
fn a_last_modified_date_the_server_does_not_honour() {
    let date = "Sat, 28 Nov 2026 10:00:00 GMT";
    let server =
        Server::start_seeing(move |_, _| with(without(ok(plain("/feed.atom")), "etag"), "Last-Modified", date));
    assert_eq!(
        http_rules(&server.url("/feed.atom"), &[]),
        ["http-last-modified-ignored"]
    );
    assert_eq!(server.seen()[1].header("if-modified-since").as_deref(), Some(date));
    // Honoured: nothing.
    let server = Server::start_seeing(move |seen: &Seen, _| {
        if seen.header("if-modified-since").as_deref() == Some(date) {
            status(304)
        } else {
            with(without(ok(plain("/feed.atom")), "etag"), "Last-Modified", date)
        }
    });
    assert_eq!(http_rules(&server.url("/feed.atom"), &[]), Vec::<String>::new());
}

#[test]
fn an_etag_that_changes_while_the_body_does_not() {
    let asked = std::sync::atomic::AtomicUsize::new(0);
    let server = Server::start_seeing(move |seen, _| {
        let n = asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        honour_conditions(seen, with(ok(plain("/feed.atom")), "ETag", &format!("\"machine-{n}\"")))
    });
    assert_eq!(http_rules(&server.url("/feed.atom"), &[]), ["http-etag-unstable"]);
}

#[test]
fn a_feed_that_changed_between_the_two_requests_says_nothing() {
    let asked = std::sync::atomic::AtomicUsize::new(0);
    let server = Server::start_seeing(move |seen, _| {
        let n = asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        honour_conditions(seen, ok(feed("/feed.atom", false, &[], n)))
    });
    assert_eq!(http_rules(&server.url("/feed.atom"), &[]), Vec::<String>::new());
}

#[test]
fn no_store_on_an_archive_not_on_the_subscription_document() {
    let server = Server::start(|path, _| match path {
        "/index.atom" => with(
            ok(feed("/index.atom", false, &[("prev-archive", "/1.atom")], 0)),
            "Cache-Control",
            "no-store",
        ),
        "/1.atom" => with(
            ok(feed("/1.atom", true, &[("current", "/index.atom")], 0)),
            "Cache-Control",
            "private, no-store",
        ),
        _ => status(404),
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/index.atom")]));
    let found: Vec<(String, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"].as_str().unwrap().starts_with("http-"))
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_owned(),
                f["file"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "http-archive-no-store");
    assert!(found[0].1.ends_with("/1.atom"), "{found:?}");
}

#[test]
fn a_large_feed_sent_uncompressed_and_one_sent_with_gzip() {
    let large = feed("/feed.atom", false, &[], 150_000);
    let body = large.clone();
    let server = Server::start(move |_, _| ok(body.clone()));
    assert_eq!(http_rules(&server.url("/feed.atom"), &[]), ["http-no-compression"]);
    let server = gzipped(&large);
    let report = json(&feedlint(&["--format", "json", &server.url("/feed.atom")]));
    // Decoded and linted whole: a valid feed, nothing of the http group.
    assert_eq!(rules_of(&report), Vec::<String>::new(), "{:?}", messages(&report));
    // A small feed is not judged.
    let server = Server::start(|_, _| ok(plain("/feed.atom")));
    assert_eq!(http_rules(&server.url("/feed.atom"), &[]), Vec::<String>::new());
}

#[test]
fn a_feed_over_ten_megabytes() {
    let server = gzipped(&feed("/feed.atom", false, &[], 10_000_001));
    assert_eq!(http_rules(&server.url("/feed.atom"), &[]), ["http-feed-too-large"]);
    // Just under: nothing.
    let server = gzipped(&feed("/feed.atom", false, &[], 9_999_000));
    assert_eq!(http_rules(&server.url("/feed.atom"), &[]), Vec::<String>::new());
}

/// A server of `text`, sent with gzip.
fn gzipped(text: &str) -> Server {
    use std::io::Write;
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gzip.write_all(text.as_bytes()).unwrap();
    let compressed = gzip.finish().unwrap();
    Server::start(move |_, _| {
        let mut reply = with(ok(String::new()), "Content-Encoding", "gzip");
        reply.body = compressed.clone();
        reply
    })
}

#[test]
fn cors_on_the_named_feed_in_either_answer() {
    let server = Server::start(|path, _| match path {
        "/index.atom" => without(
            ok(feed("/index.atom", false, &[("prev-archive", "/1.atom")], 0)),
            "access-control-allow-origin",
        ),
        "/1.atom" => without(
            ok(feed("/1.atom", true, &[("current", "/index.atom")], 0)),
            "access-control-allow-origin",
        ),
        _ => status(404),
    });
    // The feed named, not its archive.
    assert_eq!(http_rules(&server.url("/index.atom"), &[]), ["http-no-cors"]);
    // A server that answers CORS only to a request with an Origin.
    let server = Server::start_seeing(|seen, _| {
        let reply = without(ok(plain("/feed.atom")), "access-control-allow-origin");
        let reply = match seen.header("origin") {
            Some(origin) => with(reply, "Access-Control-Allow-Origin", &origin),
            None => reply,
        };
        honour_conditions(seen, reply)
    });
    assert_eq!(http_rules(&server.url("/feed.atom"), &[]), Vec::<String>::new());
}

#[test]
fn a_temporary_redirect_not_a_permanent_one() {
    let server = Server::start(|path, base| match path {
        "/feed" => with(status(302), "Location", &format!("{base}/feed.atom")),
        "/moved" => with(status(301), "Location", &format!("{base}/feed.atom")),
        "/feed.atom" => ok(plain("/feed.atom")),
        _ => status(404),
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/feed")]));
    let found: Vec<&serde_json::Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "http-temporary-redirect")
        .collect();
    assert_eq!(found.len(), 1, "{:?}", messages(&report));
    assert!(
        found[0]["message"].as_str().unwrap().contains("answers 302"),
        "{found:?}"
    );
    assert_eq!(http_rules(&server.url("/moved"), &[]), Vec::<String>::new());
}

/// Cloudflare's challenge page, as its headers and first bytes have it.
fn challenge() -> Reply {
    let mut reply = status(403);
    reply.headers = vec![
        ("Content-Type", "text/html; charset=UTF-8".into()),
        ("cf-mitigated", "challenge".into()),
    ];
    reply.body = b"<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script src=\"/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1\"></script></body></html>".to_vec();
    reply
}

#[test]
fn a_bot_challenge_in_place_of_an_archive_or_the_feed() {
    let server = Server::start(|path, _| match path {
        "/index.atom" => ok(feed("/index.atom", false, &[("prev-archive", "/1.atom")], 0)),
        "/1.atom" => challenge(),
        "/2.atom" => without(challenge(), "cf-mitigated"),
        _ => status(404),
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/index.atom")]));
    let rules = rules_of(&report);
    // The challenge, not an archive withheld (403).
    assert_eq!(rules, ["http-bot-challenge"], "{:?}", messages(&report));
    assert!(messages(&report)[0].contains("Cloudflare's bot challenge"));
    // The feed named behind one: the run's error, in the same words, by
    // the page's marks where no header says so.
    let output = feedlint(&[&server.url("/2.atom")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("HTTP status 403 with Cloudflare's bot challenge"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_cached_run_asks_only_conditionally_and_reads_the_same() {
    let server = Server::start(|path, _| match path {
        "/index.atom" => ok(feed("/index.atom", false, &[("prev-archive", "/1.atom")], 0)),
        "/1.atom" => ok(feed("/1.atom", true, &[("current", "/index.atom")], 0)),
        _ => status(404),
    });
    let cache = common::scratch("http-cache");
    let cache = cache.to_str().unwrap();
    let url = server.url("/index.atom");
    let first = json(&feedlint(&["--format", "json", "--http-cache", cache, &url]));
    let asked_first = server.seen().len();
    // Each document once, and once more conditionally.
    assert_eq!(asked_first, 4);
    let again = json(&feedlint(&["--format", "json", "--http-cache", cache, &url]));
    let seen = server.seen();
    let second: Vec<&Seen> = seen[asked_first..].iter().collect();
    // One request a document, each conditional, each answered 304: the
    // cached bodies are linted, with the same findings.
    assert_eq!(second.len(), 2, "{second:?}");
    assert!(
        second
            .iter()
            .all(|seen| seen.header("if-none-match").is_some() && seen.header("origin").is_some()),
        "{second:?}"
    );
    assert_eq!(again["summary"]["documents"], 2);
    assert_eq!(rules_of(&again), rules_of(&first));
}

#[test]
fn a_cached_run_judges_the_server_by_its_one_conditional_request() {
    let server = Server::start_seeing(|_, _| ok(plain("/feed.atom")));
    let cache = common::scratch("http-cache-ignored");
    let cache = cache.to_str().unwrap();
    let url = server.url("/feed.atom");
    assert_eq!(http_rules(&url, &["--http-cache", cache]), ["http-etag-ignored"]);
    let before = server.seen().len();
    assert_eq!(http_rules(&url, &["--http-cache", cache]), ["http-etag-ignored"]);
    assert_eq!(server.seen().len(), before + 1);
    // Files are not fetched: the flag is refused there.
    let output = feedlint(&["--http-cache", cache, "examples/site"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--http-cache"), "{}", stderr(&output));
}
