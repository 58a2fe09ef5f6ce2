//! Batch mode (`--urls-from`), against small servers on loopback
//! addresses: records for every input, shards that split a list by host,
//! and a resumed run that lints only what is left.

use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::common;
use common::http::{honour_conditions, ok, status, Seen, Server};
use common::{scratch, stderr};
use serde_json::Value;

fn feedlint(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn records(output: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

fn atom(id: bool) -> String {
    let id = if id { "<id>tag:example.org,2024:feed</id>" } else { "" };
    format!(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title>{id}<updated>2024-01-01T00:00:00Z</updated>\
         <author><name>a</name></author></feed>"
    )
}

#[test]
fn every_input_gets_one_record_clean_ones_included() {
    let server = Server::start(|path, _| match path {
        "/clean.atom" => ok(atom(true)),
        "/broken.atom" => ok(atom(false)),
        _ => status(404),
    });
    let list = format!(
        "# a directory's list\n{}\n{{\"id\": \"feed-7\", \"url\": \"{}\"}}\n{}\n\n{{\"id\": 8}}\n",
        server.url("/clean.atom"),
        server.url("/broken.atom"),
        server.url("/gone.atom"),
    );
    let output = feedlint(&["--urls-from", "-"], &list);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let records = records(&output);
    assert_eq!(records.len(), 4, "{records:#?}");
    let by_line = |line: u64| {
        records
            .iter()
            .find(|r| r["line"] == line)
            .unwrap_or_else(|| panic!("line {line}"))
    };
    let clean = by_line(2);
    assert_eq!(
        (clean["status"].as_str(), clean["valid"].as_bool()),
        (Some("linted"), Some(true))
    );
    assert_eq!(clean["format"], "atom");
    assert_eq!(clean["final_url"], server.url("/clean.atom"));
    assert_eq!(clean["findings"], serde_json::json!([]));
    let broken = by_line(3);
    assert_eq!(broken["id"], "feed-7");
    assert_eq!(broken["counts"]["errors"], 1);
    assert_eq!(broken["findings"][0]["rule"], "atom-missing-id");
    assert_eq!(broken["findings"][0]["spans"][0]["line_start"], 1);
    let gone = by_line(4);
    assert_eq!(gone["status"], "failed");
    assert!(gone["error"].as_str().unwrap().contains("404"), "{gone}");
    let unreadable = by_line(6);
    assert_eq!(
        (unreadable["status"].as_str(), unreadable["url"].is_null()),
        (Some("failed"), true)
    );
    // Every input once: the server was asked for each URL once.
    assert_eq!(server.hits("/clean.atom"), 1);
}

#[test]
fn shards_split_a_list_by_host_and_together_cover_it() {
    // Twenty hosts, loopback addresses whose port answers nothing: each
    // input fails fast, and no traffic leaves the machine.
    let list: String = (1..=20).map(|n| format!("http://127.0.0.{n}:9/feed.xml\n")).collect();
    let mut seen = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let output = feedlint(&["--urls-from", "-", "--shard", &shard, "--timeout", "2"], &list);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let urls: Vec<String> = records(&output)
            .iter()
            .map(|r| r["url"].as_str().unwrap().to_owned())
            .collect();
        assert!(!urls.is_empty() && urls.len() < 20, "shard {shard}: {urls:?}");
        seen.extend(urls);
    }
    let distinct: BTreeSet<&String> = seen.iter().collect();
    assert_eq!((seen.len(), distinct.len()), (20, 20), "{seen:?}");
    for wrong in ["0/3", "4/3", "1/0", "two"] {
        let output = feedlint(&["--urls-from", "-", "--shard", wrong], "");
        assert_eq!(output.status.code(), Some(2), "{wrong}");
    }
}

#[test]
fn a_resumed_run_lints_only_what_is_left_and_appends() {
    let server = Server::start(|path, _| match path {
        "/a.atom" | "/b.atom" | "/c.atom" => ok(atom(true)),
        _ => status(404),
    });
    let dir = scratch("batch-resume");
    let out = dir.join("records.jsonl");
    let out = out.to_str().unwrap();
    let first = format!(
        "{}\n{{\"id\": 2, \"url\": \"{}\"}}\n",
        server.url("/a.atom"),
        server.url("/b.atom")
    );
    let output = feedlint(&["--urls-from", "-", "-o", out], &first);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // A run cut off mid-record leaves a partial line: its input runs again.
    std::fs::OpenOptions::new()
        .append(true)
        .open(out)
        .unwrap()
        .write_all(b"{\"id\": 3, \"url\": \"ht")
        .unwrap();
    let all = format!("{first}{{\"id\": 3, \"url\": \"{}\"}}\n", server.url("/c.atom"));
    let output = feedlint(&["--urls-from", "-", "--resume", out, "-o", out], &all);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        (server.hits("/a.atom"), server.hits("/b.atom"), server.hits("/c.atom")),
        (1, 1, 1)
    );
    let text = std::fs::read_to_string(out).unwrap();
    // The cut line stays on its own; every other line is a whole record.
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    let whole: Vec<Value> = lines
        .iter()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    assert_eq!(whole.len(), 3, "{text}");
    assert!(whole.iter().all(|record| record["status"] == "linted"), "{text}");
    // Batch flags make sense only in a batch; its records are JSON Lines.
    assert_eq!(
        feedlint(&["--shard", "1/2", "examples/site"], "").status.code(),
        Some(2)
    );
    assert_eq!(
        feedlint(&["--urls-from", "-", "--format", "sarif"], "").status.code(),
        Some(2)
    );
    assert_eq!(
        feedlint(&["--urls-from", "-", "examples/site"], "").status.code(),
        Some(2)
    );
}

#[test]
fn a_rerun_with_the_http_cache_asks_only_conditionally() {
    let server = Server::start(|path, _| match path {
        "/a.atom" | "/b.atom" => ok(atom(true)),
        _ => status(404),
    });
    let cache = scratch("batch-cache");
    let cache = cache.to_str().unwrap();
    let list = format!("{}\n{}\n", server.url("/a.atom"), server.url("/b.atom"));
    let first = feedlint(&["--urls-from", "-", "--http-cache", cache], &list);
    assert_eq!(output_records(&first), 2);
    let before = server.seen().len();
    let again = feedlint(&["--urls-from", "-", "--http-cache", cache], &list);
    // Written as each finishes: compared by line.
    let by_line = |output: &Output| {
        let mut all = records(output);
        all.sort_by_key(|record| record["line"].as_u64());
        all
    };
    assert_eq!(by_line(&again), by_line(&first));
    let asked: Vec<Seen> = server.seen()[before..].to_vec();
    // One request an input, each with the tag the cache holds.
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(asked.iter().all(Seen::conditional), "{asked:?}");
}

/// The records of a batch that exited 0.
fn output_records(output: &Output) -> usize {
    assert_eq!(output.status.code(), Some(0), "{}", stderr(output));
    records(output).len()
}

#[test]
fn one_host_is_asked_one_request_at_a_time_and_as_far_apart_as_told() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};
    // The server counts the requests it is answering at once (each takes
    // 150 ms): the gate is judged by that count, not by a clock.
    let arrivals = Arc::new(Mutex::new(Vec::new()));
    let (in_flight, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (seen, now_in, peak) = (Arc::clone(&arrivals), Arc::clone(&in_flight), Arc::clone(&most));
    // Requests are what the gate lets in, whichever input makes them: the
    // conditional request an input makes after its first (for the http
    // rules) counts as any other.
    let server = Server::start_seeing(move |request, _| {
        seen.lock().unwrap().push(Instant::now());
        peak.fetch_max(now_in.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(150));
        now_in.fetch_sub(1, Ordering::SeqCst);
        if request.conditional() {
            honour_conditions(request, ok(atom(true)))
        } else if request.path.ends_with(".atom") {
            ok(atom(true))
        } else {
            status(404)
        }
    });
    let list: String = (0..4)
        .map(|n| format!("{}\n", server.url(&format!("/{n}.atom"))))
        .collect();
    // The most requests answered at once, and the gaps between arrivals.
    let run = |args: &[&str]| {
        arrivals.lock().unwrap().clear();
        most.store(0, Ordering::SeqCst);
        let mut all = vec!["--urls-from", "-", "--jobs", "4"];
        all.extend_from_slice(args);
        let output = feedlint(&all, &list);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert_eq!(records(&output).len(), 4);
        let mut at = arrivals.lock().unwrap().clone();
        at.sort();
        let gaps: Vec<Duration> = at.windows(2).map(|pair| pair[1] - pair[0]).collect();
        (most.load(Ordering::SeqCst), gaps)
    };
    // One at a time by default, though four workers are free; each input
    // asks twice (its feed, then conditionally).
    let (alone, gaps) = run(&[]);
    assert_eq!(alone, 1);
    assert_eq!(gaps.len() + 1, 8, "{gaps:?}");
    // Four at once let in: the four answers overlap.
    let (together, _) = run(&["--host-jobs", "4"]);
    assert!(together > 1, "{together} at once");
    // Four at once, but 300 ms between the starts of any two requests (an
    // input's second one too): a lower bound the gate keeps however loaded
    // the machine is.
    let (_, spaced) = run(&["--host-jobs", "4", "--host-delay", "0.3"]);
    assert!(
        spaced.iter().all(|gap| *gap >= Duration::from_millis(270)),
        "{spaced:?}"
    );
    assert_eq!(
        feedlint(&["--host-delay", "1", "examples/site"], "").status.code(),
        Some(2)
    );
}
