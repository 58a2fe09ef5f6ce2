//! Integration tests of the `feedlint` binary: exit statuses, formats,
//! standard input, directory walking, determinism.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common;
use common::{json, rules_of, scratch, stderr, stdout, ATOM_HEAD};

use serde_json::{json, Value};

fn feedlint(args: &[&str]) -> Output {
    run(args, None, &[])
}

fn run(args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_feedlint"));
    command
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("feedlint runs");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or_default()).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("exited normally")
}

const WARNING_ONLY: &str = "testsuite/rules/archive-missing-current/fail-no-current.atom";

#[test]
fn exit_0_when_clean() {
    let output = feedlint(&["testsuite/sets/valid/atom-chain", "testsuite/sets/valid/rss-chain"]);
    assert_eq!(code(&output), 0, "{}", stdout(&output));
    assert!(stdout(&output).contains("feedlint: no findings"), "{}", stdout(&output));
}

#[test]
fn exit_1_on_an_error() {
    let output = feedlint(&["examples/site"]);
    assert_eq!(code(&output), 1);
    assert!(stdout(&output).contains("error[next-archive-unsealed]"));
}

#[test]
fn exit_2_on_a_missing_path_but_the_others_are_linted() {
    let output = feedlint(&[
        "--format",
        "concise",
        "no/such/file.atom",
        "examples/site/feed/index.atom",
    ]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains("no/such/file.atom"), "{}", stderr(&output));
    assert!(stdout(&output).contains("navigation-link-in-entry"));
}

#[test]
fn usage_errors_are_exit_2_with_one_line_naming_the_accepted_values() {
    let cases: [(&[&str], &str); 7] = [
        (&["--format", "xml", "."], "accepted: text, concise, json, json-lines"),
        (&["--format", "jsn", "."], "did you mean 'json'?"),
        (
            &["--formt", "json", "."],
            "unknown option '--formt'; did you mean '--format'?",
        ),
        (&["--max-file-size", "5000000000", "."], "not in 1..=4294967295"),
        (&["--allow", "no-such-rule", "."], "unknown rule 'no-such-rule'"),
        (&["--fail-on", "fatal", "."], "accepted: error, warning, info"),
        (&["--frobnicate", "."], "unknown option '--frobnicate'"),
    ];
    for (args, expected) in cases {
        let output = feedlint(args);
        assert_eq!(code(&output), 2, "{args:?}");
        let err = stderr(&output);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

#[test]
fn fail_on_exit_zero_and_deny_warnings() {
    assert_eq!(code(&feedlint(&[WARNING_ONLY])), 0);
    assert_eq!(code(&feedlint(&["--fail-on", "warning", WARNING_ONLY])), 1);
    assert_eq!(code(&feedlint(&["--deny", "warnings", WARNING_ONLY])), 1);
    assert_eq!(code(&feedlint(&["--deny", "warnings", "--exit-zero", WARNING_ONLY])), 0);
    assert_eq!(code(&feedlint(&["--deny", "archive-missing-current", WARNING_ONLY])), 1);
    let raised = json(&feedlint(&["--format", "json", "--deny", "warnings", WARNING_ONLY]));
    assert_eq!(raised["diagnostics"][0]["level"], "error");
}

#[test]
fn allow_turns_a_rule_off_and_the_last_flag_wins() {
    let off = json(&feedlint(&[
        "--format",
        "json",
        "--allow",
        "archive-missing-current",
        WARNING_ONLY,
    ]));
    assert_eq!(off["summary"]["warnings"], 0);
    let on_again = json(&feedlint(&[
        "--format",
        "json",
        "--allow",
        "archive-missing-current",
        "--warn",
        "archive-missing-current",
        WARNING_ONLY,
    ]));
    assert_eq!(rules_of(&on_again), ["archive-missing-current"]);
}

/// Field for field as cli-contract.md shows it.
#[test]
fn json_matches_the_contract() {
    let report = json(&feedlint(&["--format", "json", "examples/site"]));
    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(
        keys(&report),
        ["diagnostics", "failures", "summary", "suppressions", "tool", "version"]
    );
    assert_eq!(report["version"], 1);
    assert_eq!(report["tool"]["name"], "feedlint");
    assert_eq!(report["tool"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        keys(&report["summary"]),
        [
            "context",
            "documents",
            "dropped",
            "errors",
            "folded",
            "infos",
            "kinds",
            "pages",
            "podcasts",
            "valid",
            "warnings"
        ]
    );
    assert_eq!(report["summary"]["folded"], 0);
    assert_eq!(
        report["summary"]["kinds"],
        json!({"atom": 3, "atom-entry": 0, "deleted-entry": 0, "rss": 2, "json-feed": 0, "other": 0})
    );
    assert_eq!(report["summary"]["valid"], false, "one error");
    assert_eq!(
        report["summary"]["podcasts"], 0,
        "examples/site declares no podcast namespace"
    );
    assert_eq!(report["summary"]["documents"], 5, "sitemap.xml is skipped");
    assert_eq!(report["summary"]["errors"], 1);
    assert_eq!(report["summary"]["warnings"], 6);
    assert_eq!(report["summary"]["infos"], 1);

    let unsealed = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "next-archive-unsealed")
        .expect("the example's mistake is found");
    assert_eq!(
        keys(unsealed),
        ["file", "fix", "folded", "help", "level", "message", "notes", "rule", "spans", "spec", "url"]
    );
    assert_eq!(unsealed["folded"], 0);
    // Its fix removes the link: it changes what consumers see, so unsafe.
    let fix = &unsealed["fix"];
    assert_eq!(keys(fix), ["applicability", "edits", "title"]);
    assert_eq!(fix["applicability"], "unsafe");
    assert_eq!(fix["title"], "Remove the next-archive link");
    let edit = &fix["edits"][0];
    assert_eq!(
        keys(edit),
        [
            "byte_end",
            "byte_start",
            "column_end",
            "column_start",
            "line_end",
            "line_start",
            "replacement"
        ]
    );
    assert_eq!(
        (edit["line_start"].as_u64(), edit["column_start"].as_u64()),
        (Some(12), Some(1))
    );
    assert_eq!(
        (edit["line_end"].as_u64(), edit["column_end"].as_u64()),
        (Some(13), Some(1))
    );
    assert_eq!(edit["replacement"], "");
    // A finding without a fix says so with null.
    let without = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["fix"].is_null());
    assert!(without.is_some());
    assert_eq!(unsealed["level"], "error");
    assert_eq!(unsealed["file"], "examples/site/feed/archive/2024-02.atom");
    assert_eq!(unsealed["spec"], "RFC 5005 §4");
    assert_eq!(
        unsealed["url"],
        "https://github.com/feedlint/feedlint/blob/main/rules/next-archive-unsealed.md"
    );
    assert!(unsealed["help"].is_string());
    assert!(unsealed["notes"].as_array().unwrap().iter().all(Value::is_string));

    let spans = unsealed["spans"].as_array().unwrap();
    assert_eq!(spans.len(), 2);
    assert_eq!(
        keys(&spans[0]),
        [
            "byte_end",
            "byte_start",
            "column_end",
            "column_start",
            "file",
            "is_primary",
            "label",
            "line_end",
            "line_start"
        ]
    );
    assert_eq!(spans[0]["is_primary"], true);
    assert_eq!(spans[1]["is_primary"], false);
    // The primary span is the href value of the next-archive link: line 12,
    // `  <link rel="next-archive" href="../index.atom"/>`.
    let text = std::fs::read_to_string("examples/site/feed/archive/2024-02.atom").unwrap();
    let (start, end) = (
        spans[0]["byte_start"].as_u64().unwrap() as usize,
        spans[0]["byte_end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&text[start..end], "../index.atom");
    assert_eq!(spans[0]["line_start"], 12);
    assert_eq!(spans[0]["column_start"], 34);
    assert_eq!(spans[0]["line_end"], 12);
    assert_eq!(spans[0]["column_end"], 47);
    assert_eq!(spans[0]["file"], unsealed["file"]);
}

#[test]
fn diagnostics_are_sorted_by_file_then_offset() {
    let report = json(&feedlint(&[
        "--format",
        "json",
        "examples/site",
        "testsuite/rules/invalid-iri",
    ]));
    let keys = common::finding_keys(&report, "file", "byte_start");
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
}

#[test]
fn output_does_not_depend_on_the_thread_count() {
    let args = ["--format", "json", "testsuite", "examples"];
    let one = run(&args, None, &[("RAYON_NUM_THREADS", "1")]);
    let four = run(&args, None, &[("RAYON_NUM_THREADS", "4")]);
    assert!(!one.stdout.is_empty());
    assert_eq!(one.stdout, four.stdout);
}

#[test]
fn stdin_with_and_without_url() {
    let feed = std::fs::read("examples/site/feed/archive/2024-02.atom").unwrap();
    // Without --url, the absolute self link gives the base: the relative
    // links resolve as with the URL (no false unresolvable-relative-iri).
    let without = json(&run(&["--format", "json", "-"], Some(&feed), &[]));
    assert_eq!(rules_of(&without), ["next-archive-unsealed"]);
    assert_eq!(without["diagnostics"][0]["file"], "-");
    // An xml:base gives one too; with neither, relative links cannot be
    // resolved.
    let text = String::from_utf8(feed.clone()).unwrap();
    let relative_self = text.replace("https://example.org/feed/archive/2024-02.atom", "2024-02.atom");
    let rules = rules_of(&json(&run(
        &["--format", "json", "-"],
        Some(relative_self.as_bytes()),
        &[],
    )));
    assert_eq!(
        rules.iter().filter(|r| *r == "unresolvable-relative-iri").count(),
        4,
        "{rules:?}"
    );
    let based = relative_self.replacen(
        "<feed xmlns=",
        "<feed xml:base=\"https://example.org/feed/archive/\" xmlns=",
        1,
    );
    let rules = rules_of(&json(&run(&["--format", "json", "-"], Some(based.as_bytes()), &[])));
    assert_eq!(rules, ["next-archive-unsealed"]);

    let with = json(&run(
        &[
            "--format",
            "json",
            "--url",
            "https://example.org/feed/archive/2024-02.atom",
            "-",
        ],
        Some(&feed),
        &[],
    ));
    assert_eq!(rules_of(&with), ["next-archive-unsealed"]);
}

#[test]
fn url_names_one_document_only() {
    let output = feedlint(&["--url", "https://example.org/", "examples/site"]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains("--url"));
}

#[test]
fn walking_skips_other_xml_but_named_files_are_reported() {
    let walked = json(&feedlint(&["--format", "json", "examples/site"]));
    assert!(!rules_of(&walked).contains(&"unknown-document".to_owned()));
    let named = json(&feedlint(&["--format", "json", "examples/site/sitemap.xml"]));
    assert_eq!(rules_of(&named), ["not-a-feed"]);
    assert_eq!(named["summary"]["errors"], 1);
}

#[test]
fn a_malformed_file_does_not_stop_the_others() {
    let dir = scratch("malformed");
    std::fs::write(
        dir.join("a-broken.atom"),
        "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title></feed>",
    )
    .unwrap();
    std::fs::write(dir.join("b-binary.atom"), [0xFFu8, 0xD8, 0xFF, 0x00, 0x10]).unwrap();
    std::fs::copy(WARNING_ONLY, dir.join("c-fine.atom")).unwrap();
    let report = json(&feedlint(&["--format", "json", dir.to_str().unwrap()]));
    // The binary file is named .atom, so it is reported too.
    assert_eq!(
        rules_of(&report),
        ["xml-malformed", "xml-malformed", "archive-missing-current"]
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A walked file whose extension says feed is reported on whatever it
/// holds; other walked files are linted only when they are feeds.
#[test]
fn walked_files_named_as_feeds_never_pass_silently() {
    let dir = scratch("named-as-feeds");
    std::fs::write(dir.join("empty.atom"), "").unwrap();
    std::fs::write(dir.join("error-page.rss"), "<html><body>502 Bad Gateway</body></html>").unwrap();
    std::fs::write(dir.join("no-namespace.atom"), "<feed><title>t</title></feed>").unwrap();
    std::fs::write(
        dir.join("sitemap.xml"),
        "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"/>",
    )
    .unwrap();
    let report = json(&feedlint(&["--format", "json", dir.to_str().unwrap()]));
    let found: Vec<(String, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let file = d["file"].as_str().unwrap();
            let name = Path::new(file).file_name().unwrap().to_string_lossy().into_owned();
            (name, d["rule"].as_str().unwrap().to_owned())
        })
        .collect();
    let expected = [
        ("empty.atom", "xml-malformed"),
        ("error-page.rss", "not-a-feed"),
        ("no-namespace.atom", "atom-wrong-namespace"),
    ];
    let expected: Vec<(String, String)> = expected.iter().map(|(f, r)| (f.to_string(), r.to_string())).collect();
    assert_eq!(found, expected);
    assert_eq!(report["summary"]["documents"], 3, "the sitemap is skipped");
}

#[test]
fn hidden_directories_are_not_walked() {
    let dir = scratch("hidden");
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    std::fs::copy(WARNING_ONLY, dir.join(".git").join("feed.atom")).unwrap();
    let report = json(&feedlint(&["--format", "json", dir.to_str().unwrap()]));
    assert_eq!(report["summary"]["documents"], 0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn concise_is_one_line_a_finding() {
    // The file alone gets the whole site's verdict on it: its self link
    // publishes examples/site/, whose archive it links with a misspelt
    // relation. The misspelling is the cause: one finding, at the link (not
    // also missing-prev-archive on the document).
    let output = feedlint(&["--format", "concise", "examples/site/podcast/index.rss"]);
    assert_eq!(
        stdout(&output),
        "examples/site/podcast/index.rss:9:21: warning[link-relation-typo] rel=\"prevArchive\" is not a registered relation; did you mean \"prev-archive\"?\n"
    );
}

#[test]
fn json_lines_ends_with_a_summary() {
    let output = feedlint(&["--format", "json-lines", "examples/site"]);
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 9);
    assert_eq!(lines[0]["rule"], "archive-missing-marker");
    assert_eq!(lines[8]["summary"]["documents"], 5);
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let piped = feedlint(&[WARNING_ONLY]);
    assert!(!stdout(&piped).contains('\u{1b}'));
    let forced = feedlint(&["--color", "always", WARNING_ONLY]);
    assert!(stdout(&forced).contains('\u{1b}'));
    let never = run(&["--color", "never", WARNING_ONLY], None, &[("NO_COLOR", "1")]);
    assert!(!stdout(&never).contains('\u{1b}'));
}

#[test]
fn rules_and_explain() {
    let listed: Value = serde_json::from_slice(&feedlint(&["rules", "--format", "json"]).stdout).unwrap();
    let ids: Vec<&str> = listed["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), feedlint::rules::RULES.len());
    assert!(ids.contains(&"next-archive-unsealed"));
    let text = stdout(&feedlint(&["rules"]));
    assert!(text
        .lines()
        .any(|l| l.starts_with("self-referencing-link") && l.contains("error")));
    // Aligned columns: every summary starts in the same column.
    let columns: std::collections::BTreeSet<usize> = text
        .lines()
        .zip(feedlint::rules::RULES)
        .map(|(line, rule)| line.find(rule.summary).unwrap())
        .collect();
    assert_eq!(columns.len(), 1, "{text}");
    let typo = feedlint(&["explain", "archive-orphn"]);
    assert!(
        stderr(&typo).contains("did you mean 'archive-orphan'?"),
        "{}",
        stderr(&typo)
    );

    let explained = feedlint(&["explain", "self-referencing-link"]);
    assert_eq!(code(&explained), 0);
    let doc = std::fs::read_to_string(Path::new("rules/self-referencing-link.md")).unwrap();
    assert_eq!(stdout(&explained), doc);
    assert_eq!(code(&feedlint(&["explain", "no-such-rule"])), 2);
}

#[test]
fn base_url_maps_files_to_published_urls() {
    // With the archive published where its self link says, its relative
    // next-archive still names the subscription document.
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--base-url",
        "https://example.org/",
        "examples/site",
    ]));
    assert!(rules_of(&report).contains(&"next-archive-unsealed".to_owned()));
    // A self link equal to the mapped URL makes a link to it self-referencing.
    let dir = scratch("base-url");
    std::fs::write(
        dir.join("index.atom"),
        format!(r#"<feed xmlns="http://www.w3.org/2005/Atom">{ATOM_HEAD}<link rel="next" href="https://example.org/news/index.atom"/></feed>"#),
    )
    .unwrap();
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--base-url",
        "https://example.org/news",
        dir.to_str().unwrap(),
    ]));
    assert_eq!(rules_of(&report), ["self-referencing-link"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn set_findings_show_both_documents() {
    let case = "testsuite/sets/missing-prev-archive/fail-subscription";
    let text = stdout(&feedlint(&["--color", "never", case]));
    assert!(text.contains("error[missing-prev-archive]"), "{text}");
    assert!(text.contains(&format!("┌─ {case}/index.atom:3:1")), "{text}");
    assert!(text.contains(&format!("┌─ {case}/2003-11.atom:")), "{text}");
    assert!(text.contains("this archive names it as current"), "{text}");

    let report = json(&feedlint(&["--format", "json", case]));
    let spans = report["diagnostics"][0]["spans"].as_array().unwrap();
    assert_eq!(spans[0]["file"], format!("{case}/index.atom"));
    assert_eq!(spans[1]["file"], format!("{case}/2003-11.atom"));
}

#[test]
fn root_relative_links_connect_with_and_without_base_url() {
    // With or without --base-url, "/feed/..." leads to the file below the
    // root of the tree, and the documents connect.
    let case = "testsuite/sets/valid/published-root-relative";
    for args in [
        vec!["--format", "json", case],
        vec!["--format", "json", "--base-url", "https://example.org/", case],
    ] {
        let report = json(&feedlint(&args));
        assert_eq!(report["diagnostics"], Value::Array(vec![]), "{args:?}");
    }
    // They are connected both ways: give the archive another feed id, and
    // the chain check sees it.
    let dir = scratch("root-relative");
    std::fs::create_dir_all(dir.join("feed")).unwrap();
    std::fs::copy(format!("{case}/feed/index.atom"), dir.join("feed/index.atom")).unwrap();
    let archive = std::fs::read_to_string(format!("{case}/feed/2003-11.atom")).unwrap();
    std::fs::write(dir.join("feed/2003-11.atom"), archive.replace("0af6</id>", "0af7</id>")).unwrap();
    let path = dir.to_str().unwrap();
    for args in [
        vec!["--format", "json", path],
        vec!["--format", "json", "--base-url", "https://example.org/", path],
    ] {
        assert_eq!(rules_of(&json(&feedlint(&args))), ["archive-id-mismatch"], "{args:?}");
    }
    // Remove the archive: with --base-url its URL is in the tree, so the
    // link dangles.
    std::fs::remove_file(dir.join("feed/2003-11.atom")).unwrap();
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--base-url",
        "https://example.org/",
        path,
    ]));
    assert_eq!(rules_of(&report), ["archive-link-dangling"]);
    let _ = std::fs::remove_dir_all(dir);

    // Without a base URL, the root of the tree stands for "/": an archive
    // without a self link is still reached by a root-relative link, and
    // naming the subscription document alone reads it as context.
    let dir = scratch("root-relative-no-self");
    std::fs::create_dir_all(dir.join("feed")).unwrap();
    std::fs::copy(format!("{case}/feed/index.atom"), dir.join("feed/index.atom")).unwrap();
    let archive = std::fs::read_to_string(format!("{case}/feed/2003-11.atom")).unwrap();
    let without_self = archive.replace(r#"<link rel="self" href="/feed/2003-11.atom"/>"#, "");
    assert_ne!(archive, without_self);
    std::fs::write(dir.join("feed/2003-11.atom"), without_self).unwrap();
    let path = dir.to_str().unwrap();
    let report = json(&feedlint(&["--format", "json", path]));
    assert_eq!(rules_of(&report), ["archive-missing-self"], "no archive-orphan");
    let index = dir.join("feed/index.atom");
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--root",
        path,
        index.to_str().unwrap(),
    ]));
    assert_eq!(report["summary"]["context"], 1, "{report}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_large_document_is_linted_on_all_threads_with_the_same_findings() {
    // Over 1 MiB, a document's rules run in parallel with its summary and
    // each other; the report must not depend on how the work was split.
    let dir = scratch("large-document");
    let path = dir.join("large.atom");
    let mut text = String::from(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:base=\"https://example.org/\"><title>t</title><id>tag:example.org,2024:large</id><updated>2024-01-01T00:00:00Z</updated>",
    );
    for n in 0..4000 {
        let nav = if n % 100 == 0 {
            "<link rel=\"next\" href=\"page/2\"/>"
        } else {
            ""
        };
        let date = if n % 200 == 0 {
            "2024-01-01"
        } else {
            "2024-01-01T00:00:00Z"
        };
        text.push_str(&format!(
            "<entry><id>tag:example.org,2024:{}</id><title>t</title><updated>{date}</updated>{nav}<link href=\"posts/{n}\"/><summary>{}</summary></entry>",
            n % 3990,
            "s".repeat(200)
        ));
    }
    text.push_str("</feed>");
    assert!(text.len() > 1024 * 1024);
    std::fs::write(&path, &text).unwrap();
    let args = ["--format", "json", path.to_str().unwrap()];
    let one = run(&args, None, &[("RAYON_NUM_THREADS", "1")]);
    let two = run(&args, None, &[("RAYON_NUM_THREADS", "2")]);
    assert_eq!(stdout(&one), stdout(&two));
    let rules = rules_of(&json(&two));
    let count = |id: &str| rules.iter().filter(|r| *r == id).count();
    assert_eq!(count("navigation-link-in-entry"), 40, "{rules:?}");
    assert_eq!(count("invalid-date"), 20, "{rules:?}");
    // Ids 0-9 come twice; those whose copies both have the full date.
    assert_eq!(count("ambiguous-duplicate-entry"), 9, "{rules:?}");
}

/// Runs feedlint with its standard output and error going where the test
/// says (a closed pipe, a full device), and returns its exit status.
fn run_into(args: &[&str], stdout: Stdio, stderr: Stdio) -> std::process::ExitStatus {
    Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .status()
        .expect("feedlint runs")
}

/// The write end of a pipe whose read end is already closed: every write
/// to it fails with EPIPE, as `feedlint ... | head -1` once head is done.
fn closed_pipe() -> Stdio {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: pipe fills two new descriptors; each is owned exactly once below.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    unsafe {
        libc::close(fds[0]);
        Stdio::from_raw_fd(fds[1])
    }
}

fn dev_full() -> Stdio {
    Stdio::from(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap())
}

fn captured_stderr(name: &str) -> (Stdio, std::path::PathBuf) {
    let path = scratch(name).join("stderr");
    (Stdio::from(std::fs::File::create(&path).unwrap()), path)
}

#[test]
fn a_closed_pipe_ends_quietly_with_the_status_of_the_run() {
    let (err, err_path) = captured_stderr("closed-pipe");
    let status = run_into(&["--deny", "warnings", WARNING_ONLY], closed_pipe(), err);
    assert_eq!(status.code(), Some(1), "the run found an error");
    assert_eq!(std::fs::read_to_string(&err_path).unwrap(), "");
    for args in [
        &["explain", "archive-orphan"][..],
        &["rules"][..],
        &["completions", "bash"][..],
    ] {
        let (err, err_path) = captured_stderr("closed-pipe-explain");
        let status = run_into(args, closed_pipe(), err);
        assert_eq!(status.code(), Some(0), "{args:?}");
        assert_eq!(std::fs::read_to_string(&err_path).unwrap(), "", "{args:?}");
    }
}

#[test]
fn a_full_disk_is_one_line_and_exit_2() {
    for args in [
        &[WARNING_ONLY][..],
        &["explain", "archive-orphan"][..],
        &["rules"][..],
        &["completions", "zsh"][..],
    ] {
        let (err, err_path) = captured_stderr("full-disk");
        let status = run_into(args, dev_full(), err);
        assert_eq!(status.code(), Some(2), "{args:?}");
        let said = std::fs::read_to_string(&err_path).unwrap();
        assert_eq!(said.lines().count(), 1, "{said}");
        assert!(said.starts_with("feedlint: error: cannot write the report"), "{said}");
    }
}

#[test]
fn a_full_standard_error_is_no_panic() {
    let status = run_into(
        &["--format", "concise", "no-such-file.atom", WARNING_ONLY],
        Stdio::null(),
        dev_full(),
    );
    assert_eq!(status.code(), Some(2), "the missing file still fails the run");
    let status = run_into(&["--timeout", "0", "http://127.0.0.1:9/"], Stdio::null(), dev_full());
    assert_eq!(status.code(), Some(2));
}

#[test]
fn absurd_timeouts_are_usage_errors() {
    for value in ["1e20", "nan", "inf", "0", "-1", "x"] {
        let output = feedlint(&[&format!("--timeout={value}"), "http://127.0.0.1:9/"]);
        assert_eq!(code(&output), 2, "{value}");
        let said = stderr(&output);
        assert_eq!(said.lines().count(), 1, "{said}");
        assert!(said.contains("--timeout"), "{said}");
    }
}

#[test]
fn a_file_name_that_is_not_utf8_is_linted_and_shown_lossily() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("non-utf8-name");
    let name = std::ffi::OsStr::from_bytes(b"feed-\xff.atom");
    std::fs::copy(WARNING_ONLY, dir.join(name)).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .arg("--format")
        .arg("concise")
        .arg(dir.join(name))
        .arg(WARNING_ONLY)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("feed-\u{FFFD}.atom:9:3: warning[archive-missing-current]"),
        "{text}"
    );
    assert!(text.contains(&format!("{WARNING_ONLY}:9:3:")), "{text}");
}

#[test]
fn a_rule_shows_at_most_max_per_rule_findings_a_document_and_counts_the_rest() {
    let dir = scratch("folding");
    let path = dir.join("dates.atom");
    let mut text = format!("<feed xmlns=\"http://www.w3.org/2005/Atom\">{ATOM_HEAD}\n");
    for n in 0..250 {
        text.push_str(&format!(
            "<entry><id>urn:x:{n}</id><updated>never</updated><title>e</title><link href=\"https://example.org/{n}\"/></entry>\n"
        ));
    }
    text.push_str("</feed>\n");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();

    let report = json(&feedlint(&["--format", "json", path]));
    let dates: Vec<&Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "invalid-date")
        .collect();
    assert_eq!(dates.len(), 101, "the first 100, then one for the rest");
    assert!(dates[..100].iter().all(|d| d["folded"] == 0));
    let fold = dates[100];
    assert_eq!(fold["folded"], 150);
    assert_eq!(fold["spans"][0]["line_start"], 102, "at the first finding not shown");
    assert!(fold["message"]
        .as_str()
        .unwrap()
        .contains("150 more invalid-date findings"));
    assert_eq!(report["summary"]["folded"], 150);

    let concise = stdout(&feedlint(&["--format", "concise", "--max-per-rule", "10", path]));
    assert_eq!(concise.matches("error[invalid-date]").count(), 11, "{concise}");
    assert!(
        concise.contains(":12:34: error[invalid-date] 240 more invalid-date findings"),
        "{concise}"
    );

    let all = stdout(&feedlint(&["--format", "concise", "--max-per-rule", "0", path]));
    assert_eq!(all.matches("error[invalid-date]").count(), 250);
    assert!(!all.contains("more invalid-date"));

    let text = stdout(&feedlint(&["--max-per-rule", "10", path]));
    assert!(text.contains("(240 more not shown: see --max-per-rule)"), "{text}");

    // Suppressions meet every finding before the rest are folded: 200
    // suppressed, 50 left, of which 10 shown; no suppression is unused.
    let suppressed = dir.join("suppressed.atom");
    let mut text = String::from("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title>\n");
    for n in 0..250 {
        let comment = if n < 200 {
            "<!-- feedlint-disable-next invalid-date -->"
        } else {
            ""
        };
        text.push_str(&format!(
            "{comment}<entry><id>urn:x:{n}</id><updated>never</updated></entry>\n"
        ));
    }
    text.push_str("</feed>\n");
    std::fs::write(&suppressed, text).unwrap();
    let concise = stdout(&feedlint(&[
        "--format",
        "concise",
        "--max-per-rule",
        "10",
        suppressed.to_str().unwrap(),
    ]));
    assert_eq!(concise.matches("error[invalid-date]").count(), 11, "{concise}");
    assert!(
        concise.contains(":212:") && concise.contains("40 more invalid-date findings"),
        "{concise}"
    );
    assert!(!concise.contains("unused-suppression"), "{concise}");
}

#[test]
fn unknown_rule_ids_get_a_suggestion() {
    let output = feedlint(&["--allow", "archive-orphn", WARNING_ONLY]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("did you mean 'archive-orphan'?"),
        "{}",
        stderr(&output)
    );

    let dir = scratch("suggestion");
    let path = dir.join("feed.atom");
    std::fs::write(
        &path,
        "<feed xmlns=\"http://www.w3.org/2005/Atom\"><!-- feedlint-disable invalid-dat --><title>t</title></feed>",
    )
    .unwrap();
    let report = json(&feedlint(&["--format", "json", path.to_str().unwrap()]));
    let unused = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "unused-suppression")
        .expect("the unknown id is reported");
    assert!(
        unused["help"]
            .as_str()
            .unwrap()
            .contains("did you mean 'invalid-date'?"),
        "{unused}"
    );
}

#[test]
fn statistics_count_findings_per_rule_folded_ones_included() {
    let dir = scratch("statistics");
    let links = "<link rel=\"prev\" href=\"https://example.org/p\"/>".repeat(12);
    let feed = dir.join("feed.atom");
    std::fs::write(
        &feed,
        format!("<feed xmlns=\"http://www.w3.org/2005/Atom\">{ATOM_HEAD}{links}</feed>"),
    )
    .unwrap();
    let feed = feed.to_str().unwrap();
    let output = feedlint(&["--statistics", "--max-per-rule", "3", feed]);
    assert_eq!(code(&output), 0, "infos only");
    assert_eq!(stdout(&output), "12  info     paging-prev-alias\n");
    let counted = json(&feedlint(&["--statistics", "--format", "json", feed]));
    assert_eq!(counted[0]["rule"], "paging-prev-alias");
    assert_eq!(counted[0]["count"], 12);
}

#[test]
fn output_file_takes_the_report_and_the_status_stays() {
    let dir = scratch("output-file");
    let target = dir.join("report.json");
    let output = feedlint(&[
        "--format",
        "json",
        "--output-file",
        target.to_str().unwrap(),
        "examples/site",
    ]);
    assert_eq!(code(&output), 1, "the site has errors");
    assert_eq!(stdout(&output), "");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    assert!(written["summary"]["errors"].as_u64().unwrap() > 0);
    let unwritable = dir.join("no/such/dir/report.json");
    let output = feedlint(&["-o", unwritable.to_str().unwrap(), "examples/site"]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("cannot write the report to"),
        "{}",
        stderr(&output)
    );
}

/// pre-commit splits the files of a hook across processes unless told not
/// to, and set findings need every file in one run.
#[test]
fn pre_commit_hooks_run_as_one_process() {
    let hooks = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml")).unwrap();
    let blocks: Vec<&str> = hooks.split("\n- id: ").skip(1).collect();
    assert_eq!(blocks.len(), 3, "{hooks}");
    for block in blocks {
        assert!(block.contains("\n  require_serial: true\n"), "{block}");
        // Installed through the Python package (pyproject.toml).
        assert!(block.contains("\n  language: python\n"), "{block}");
    }
    assert!(!hooks.contains("|xml|"), "every .xml file is not a feed");
    // pre-commit matches `files` with Python's re.search: the same here.
    let files = hooks.lines().find_map(|line| line.strip_prefix("  files: ")).unwrap();
    let files = regex::Regex::new(files).unwrap();
    for feed in [
        "feed.atom",
        "public/feed.xml",
        "public/feed.json",
        "feed-2.json",
        "feeds.json",
    ] {
        assert!(files.is_match(feed), "{feed}");
    }
    for other in ["package.json", "sitemap.xml", "feedback.json", "tsconfig.json"] {
        assert!(!files.is_match(other), "{other}");
    }
}

/// However many inputs reach a file, it is linted once: twice, it would be
/// its own duplicate entry and its archives would be orphans.
#[test]
fn overlapping_inputs_lint_each_file_once() {
    let alone = json(&feedlint(&["--format", "json", "examples/site"]));
    for args in [
        &["examples/site", "examples/site"][..],
        &["examples/site", "examples/site/feed/index.atom"][..],
        &["./examples/site", "examples/site/"][..],
    ] {
        let mut all = vec!["--format", "json"];
        all.extend_from_slice(args);
        let report = json(&feedlint(&all));
        assert_eq!(report["summary"], alone["summary"], "{args:?}");
        assert_eq!(rules_of(&report), rules_of(&alone), "{args:?}");
    }
}

/// A run that lints nothing fails: a wrong path in CI must not pass green.
#[test]
fn paths_without_any_feed_fail_the_run() {
    let dir = scratch("no-feeds");
    std::fs::write(
        dir.join("sitemap.xml"),
        "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"/>",
    )
    .unwrap();
    let output = feedlint(&[dir.to_str().unwrap()]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains("no feed found in"), "{}", stderr(&output));
    let report = json(&feedlint(&["--format", "json", dir.to_str().unwrap()]));
    assert!(report["failures"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("no feed found in"));
    // Standard input is always a document, named as a feed: one that is
    // no feed is an error, not a failure of the run.
    let piped = run(&["--format", "concise", "-"], Some(b"<x/>"), &[]);
    assert_eq!(code(&piped), 1, "{}", stderr(&piped));
    assert!(stdout(&piped).contains("error[not-a-feed]"), "{}", stdout(&piped));
}

/// Walking skips what .gitignore, hidden paths, --exclude and the config's
/// exclude say, and nothing else.
#[test]
fn walking_respects_gitignore_hidden_and_exclusions() {
    let dir = scratch("walk-exclusions");
    for sub in [
        "public",
        "public/drafts",
        "public/.cache",
        "public/old",
        "public/tmp",
        "public/2024",
    ] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::copy(WARNING_ONLY, dir.join(sub).join("feed.atom")).unwrap();
    }
    std::fs::write(dir.join("public/.gitignore"), "drafts/\n").unwrap();
    let linted = |args: &[&str], config: Option<&str>| -> Vec<String> {
        let config_path = dir.join("feedlint.toml");
        let _ = std::fs::remove_file(&config_path);
        let mut all = vec!["--format", "json"];
        if let Some(text) = config {
            std::fs::write(&config_path, text).unwrap();
            all.extend(["--config", config_path.to_str().unwrap()]);
        }
        all.extend_from_slice(args);
        let public = dir.join("public");
        all.push(public.to_str().unwrap());
        let report = json(&feedlint(&all));
        let mut files: Vec<String> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let file = d["file"].as_str().unwrap();
                file.rsplit('/').nth(1).unwrap().to_owned()
            })
            .collect();
        files.sort();
        files
    };
    assert_eq!(linted(&[], None), ["2024", "old", "public", "tmp"]);
    assert_eq!(
        linted(&["--exclude", "old/", "--exclude", "tmp"], None),
        ["2024", "public"]
    );
    assert_eq!(linted(&[], Some("exclude = [\"/2024/\"]\n")), ["old", "public", "tmp"]);
    let bad = feedlint(&["--exclude", "a{b", dir.to_str().unwrap()]);
    assert_eq!(code(&bad), 2);
    assert!(stderr(&bad).contains("invalid --exclude glob"), "{}", stderr(&bad));
}

#[test]
fn completions_know_the_options() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let output = feedlint(&["completions", shell]);
        assert_eq!(code(&output), 0, "{shell}");
        let script = stdout(&output);
        for option in ["--format", "--exclude", "--statistics"] {
            assert!(script.contains(option.trim_start_matches('-')), "{shell}: {option}");
        }
    }
}

/// A base URL names one directory, and every file keeps its path below
/// it: files named from two directories get two URLs, `--root` and a
/// config's directory say which directory is published.
#[test]
fn base_urls_map_a_root_and_files_keep_their_paths() {
    let dir = scratch("base-root");
    // Each document links to its own published URL: self-referencing-link
    // fires exactly when the file is mapped to that URL.
    for section in ["blog", "news"] {
        std::fs::create_dir_all(dir.join(section)).unwrap();
        std::fs::write(
            dir.join(section).join("index.atom"),
            format!(r#"<feed xmlns="http://www.w3.org/2005/Atom">{ATOM_HEAD}<link rel="next" href="https://example.org/{section}/index.atom"/></feed>"#),
        )
        .unwrap();
    }
    let blog = dir.join("blog/index.atom");
    let news = dir.join("news/index.atom");
    let (blog, news) = (blog.to_str().unwrap(), news.to_str().unwrap());
    let self_links = |args: &[&str]| {
        let mut all = vec!["--format", "json"];
        all.extend_from_slice(args);
        let output = feedlint(&all);
        assert_ne!(code(&output), 2, "{}", stderr(&output));
        rules_of(&json(&output))
            .iter()
            .filter(|r| *r == "self-referencing-link")
            .count()
    };
    // Two named files: the directory that holds both is the root.
    assert_eq!(self_links(&["--base-url", "https://example.org/", blog, news]), 2);
    // One named file: its own directory is the root (and its URL is
    // https://example.org/index.atom), unless --root says otherwise.
    assert_eq!(self_links(&["--base-url", "https://example.org/", blog]), 0);
    assert_eq!(
        self_links(&[
            "--base-url",
            "https://example.org/",
            "--root",
            dir.to_str().unwrap(),
            blog
        ]),
        1
    );
    // A config's base-url names the config's directory.
    let config = dir.join("feedlint.toml");
    std::fs::write(&config, "base-url = \"https://example.org/\"\n").unwrap();
    assert_eq!(
        self_links(&["--config", config.to_str().unwrap(), dir.join("blog").to_str().unwrap()]),
        1
    );
    std::fs::remove_file(&config).unwrap();
}

/// Naming some files of a chain (the changed files of a commit) checks them
/// against the whole chain: the files they link to are read as context,
/// including in hidden directories, and nothing is reported in those.
#[test]
fn linked_files_are_read_as_context_for_the_chains() {
    let chain = "testsuite/sets/valid/atom-chain";
    let index = format!("{chain}/index.atom");
    let oldest = format!("{chain}/archive/2003-09.atom");
    let report = json(&feedlint(&["--format", "json", &index, &oldest]));
    assert_eq!(
        rules_of(&report),
        Vec::<String>::new(),
        "no archive-orphan: the middle archives are read"
    );
    assert_eq!(report["summary"]["documents"], 2);
    assert_eq!(report["summary"]["context"], 2);
    let text = stdout(&feedlint(&["--color", "never", &index, &oldest]));
    assert!(
        text.contains("in 2 documents (and 2 other documents read for the chains, not reported on)"),
        "{text}"
    );

    // An archive in a hidden directory is skipped by the walk, yet read
    // when a document links to it: not dangling, and not reported on.
    let dir = scratch("hidden-archive");
    std::fs::create_dir_all(dir.join(".archive")).unwrap();
    for file in ["index.atom", "archive/2003-11.atom"] {
        let text = std::fs::read_to_string(format!("{chain}/{file}")).unwrap();
        let text = text.replace("archive/", ".archive/");
        let target = dir.join(file.replace("archive/", ".archive/"));
        std::fs::write(target, text).unwrap();
    }
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--allow",
        "missing-prev-archive",
        dir.to_str().unwrap(),
    ]));
    let found = rules_of(&report);
    assert!(!found.contains(&"archive-link-dangling".to_owned()), "{found:?}");
    assert_eq!(report["summary"]["context"], 1, "{report}");
}

/// The committed tree `testsuite/sites/walk/` (see its README): what a
/// publisher's walk reads, skips and reads as context.
#[test]
fn a_site_tree_is_walked_as_publishers_expect() {
    let public = "testsuite/sites/walk/public";
    let files = |report: &Value| -> Vec<String> {
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{} {}",
                    d["file"].as_str().unwrap().trim_start_matches(public),
                    d["rule"].as_str().unwrap()
                )
            })
            .collect()
    };
    let report = json(&feedlint(&["--format", "json", public]));
    // drafts/ is in .gitignore, the sitemap is not a feed, the archive in
    // .archive/ is read for the chain but not reported on.
    assert_eq!(
        files(&report),
        ["/empty.atom xml-malformed", "/old/old.atom xml-malformed"]
    );
    assert_eq!(report["summary"]["documents"], 3);
    assert_eq!(report["summary"]["context"], 1);
    let report = json(&feedlint(&["--format", "json", "--exclude", "old/", public]));
    assert_eq!(files(&report), ["/empty.atom xml-malformed"]);
    assert!(
        Path::new(public).join("drafts/draft.atom").is_file(),
        "the ignored draft is committed, so the test sees .gitignore at work"
    );
}

/// The VS Code problem matcher shipped under editors/ reads every line of
/// the concise format, with the place, level and rule of its finding.
#[test]
fn the_vscode_problem_matcher_reads_the_concise_format() {
    let tasks: Value = serde_json::from_str(&std::fs::read_to_string("editors/vscode/tasks.json").unwrap()).unwrap();
    let pattern = &tasks["tasks"][0]["problemMatcher"]["pattern"];
    let regex = regex::Regex::new(pattern["regexp"].as_str().unwrap()).unwrap();
    let group = |name: &str| pattern[name].as_u64().unwrap() as usize;
    let concise = stdout(&feedlint(&["--format", "concise", "examples/site"]));
    let report = json(&feedlint(&["--format", "json", "examples/site"]));
    let lines: Vec<&str> = concise.lines().collect();
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert_eq!(lines.len(), diagnostics.len(), "{concise}");
    for (line, diagnostic) in lines.iter().zip(diagnostics) {
        let captures = regex.captures(line).unwrap_or_else(|| panic!("not matched: {line}"));
        let primary = &diagnostic["spans"][0];
        assert_eq!(&captures[group("file")], diagnostic["file"].as_str().unwrap());
        assert_eq!(
            captures[group("line")].parse::<u64>().unwrap(),
            primary["line_start"].as_u64().unwrap()
        );
        assert_eq!(
            captures[group("column")].parse::<u64>().unwrap(),
            primary["column_start"].as_u64().unwrap()
        );
        assert_eq!(&captures[group("severity")], diagnostic["level"].as_str().unwrap());
        assert_eq!(&captures[group("code")], diagnostic["rule"].as_str().unwrap());
        assert_eq!(&captures[group("message")], diagnostic["message"].as_str().unwrap());
    }
}

#[test]
fn walked_atom_entry_documents_are_linted() {
    let dir = scratch("walked-entry-documents");
    // An AtomPub member resource saved as .xml, without an author, beside
    // an XML file of another vocabulary whose root is also named entry.
    std::fs::write(
        dir.join("post.xml"),
        "<entry xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title><id>tag:example.org,2024:1</id><updated>2024-01-01T00:00:00Z</updated><link href=\"https://example.org/1\"/></entry>",
    )
    .unwrap();
    std::fs::write(
        dir.join("other.xml"),
        "<entry xmlns=\"urn:example:log\"><line>x</line></entry>",
    )
    .unwrap();
    let output = feedlint(&["--format", "json", dir.to_str().unwrap()]);
    let report = json(&output);
    assert_eq!(rules_of(&report), ["atom-missing-author"], "{report}");
    assert_eq!(report["summary"]["documents"], 1, "{report}");
}

#[test]
fn a_walked_feed_of_another_vocabulary_is_left_alone_but_a_named_one_is_not() {
    let dir = scratch("other-vocabulary-feed");
    std::fs::write(
        dir.join("products.xml"),
        "<feed xmlns=\"urn:example:product-feed\"><product id=\"1\"/></feed>",
    )
    .unwrap();
    // Walked, it is another vocabulary's XML, skipped like a sitemap.
    let walked = feedlint(&["--format", "json", dir.to_str().unwrap()]);
    assert_eq!(code(&walked), 2, "no feed found: {}", stderr(&walked));
    // Named, it is meant as a feed, and is none.
    let named = json(&feedlint(&[
        "--format",
        "json",
        dir.join("products.xml").to_str().unwrap(),
    ]));
    assert_eq!(rules_of(&named), ["atom-wrong-namespace"]);
}

/// Every rule documentation link feedlint prints (text, JSON, SARIF,
/// `feedlint rules --format json`) resolves from the day it is printed: the
/// repository's main branch, a file that exists in `rules/`.
#[test]
fn every_printed_rule_doc_url_names_a_file_in_rules() {
    let base = "https://github.com/feedlint/feedlint/blob/main/rules/";
    let site = "examples/site";
    let mut printed = String::new();
    for format in ["text", "json", "sarif"] {
        printed.push_str(&stdout(&feedlint(&["--format", format, "--color", "never", site])));
    }
    printed.push_str(&stdout(&feedlint(&["rules", "--format", "json"])));
    let mut urls = 0;
    for (at, _) in printed.match_indices("https://github.com/feedlint/") {
        let url: String = printed[at..]
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, '"' | ')' | ','))
            .collect();
        if url == "https://github.com/feedlint/feedlint" {
            continue; // the project's own page (SARIF's informationUri)
        }
        let file = url
            .strip_prefix(base)
            .unwrap_or_else(|| panic!("{url} is not a rule document on the main branch"));
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("rules").join(file).is_file(),
            "{url} names no file in rules/"
        );
        urls += 1;
    }
    assert!(urls > 100, "only {urls} links printed");
    // The text format names `feedlint explain` first: it works offline.
    let text = stdout(&feedlint(&["--color", "never", site]));
    assert!(
        text.contains("= see: feedlint explain next-archive-unsealed, or https://"),
        "{text}"
    );
}

#[test]
fn the_licenses_the_manifest_declares_are_there() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    assert!(manifest.contains("license = \"MIT OR Apache-2.0\""));
    for (file, words) in [
        ("LICENSE-MIT", "Permission is hereby granted, free of charge"),
        ("LICENSE-APACHE", "Version 2.0, January 2004"),
    ] {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(text.contains(words), "{file}");
    }
}

/// Suppressions with a reason in parentheses; `feedlint-disable-next-line`
/// as eslint users write it; a malformed directive is one finding that
/// says which forms are accepted; an unknown id gets a "did you mean".
#[test]
fn suppressions_carry_reasons_and_malformed_ones_say_the_accepted_forms() {
    let dir = scratch("reasons");
    let item = |comment: &str, n: usize| {
        format!("<item><title>{n}</title>\n  <!-- {comment} -->\n  <guid>item-{n}</guid></item>\n")
    };
    let feed = [
        "<rss version=\"2.0\"><channel><title>t</title><link>https://example.org/</link><description>d</description>\n"
            .to_owned(),
        item("feedlint-disable-next rss-invalid-guid (kept for an old reader)", 1),
        item("feedlint-disable-next-line rss-invalid-guid", 2),
        item("feedlint-disable-next: rss-invalid-guid", 3),
        item("feedlint-disable-next rss-invalid-giud", 4),
        "</channel></rss>\n".to_owned(),
    ]
    .concat();
    std::fs::write(dir.join("feed.rss"), feed).unwrap();
    let path = dir.join("feed.rss");
    // The profile's self-link warning is beside the point here.
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--ignore",
        "rss-profile",
        path.to_str().unwrap(),
    ]));
    let suppressions = report["suppressions"].as_array().unwrap();
    assert_eq!(suppressions.len(), 2, "{report}");
    assert_eq!(suppressions[0]["reason"], "kept for an old reader");
    assert_eq!(suppressions[0]["line"], 3);
    assert_eq!(suppressions[0]["suppressed"], 1);
    assert_eq!(suppressions[1]["directive"], "feedlint-disable-next-line");
    assert!(suppressions[1]["reason"].is_null());
    let findings: Vec<(String, u64)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_owned(),
                d["spans"][0]["line_start"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        findings,
        [
            ("unused-suppression".to_owned(), 9),
            ("rss-invalid-guid".to_owned(), 10),
            ("unused-suppression".to_owned(), 12),
            ("rss-invalid-guid".to_owned(), 13),
        ]
    );
    let malformed = &report["diagnostics"][0];
    assert_eq!(
        malformed["message"],
        "'feedlint-disable-next:' is not a feedlint suppression, so it suppresses nothing"
    );
    assert!(malformed["notes"][0]
        .as_str()
        .unwrap()
        .contains("feedlint-disable-next RULE[, RULE] [(reason)]"));
    assert_eq!(
        report["diagnostics"][2]["help"],
        "did you mean 'rss-invalid-guid'? (see 'feedlint rules')"
    );
    // --statistics counts the suppressions that say why and those that do not.
    let statistics = stdout(&feedlint(&["--statistics", path.to_str().unwrap()]));
    assert!(
        statistics.contains("2 findings suppressed by 2 suppressions: 1 with a reason, 1 without"),
        "{statistics}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The command line's messages say what to do.
#[test]
fn cli_messages_say_what_to_do() {
    // `explain` without a rule: how to call it, and the rules.
    let explain = feedlint(&["explain"]);
    assert_eq!(code(&explain), 0);
    assert!(stdout(&explain).starts_with("Usage: feedlint explain RULE"));
    assert!(stdout(&explain).contains("  next-archive-unsealed "));
    // An option of another command says which takes it.
    let wrong = feedlint(&["rules", "--base-url", "https://example.org/"]);
    assert_eq!(code(&wrong), 2);
    assert!(
        stderr(&wrong).contains("'--base-url' is an option of linting (feedlint [OPTIONS] [PATHS]...), not of 'feedlint rules'; 'feedlint rules' accepts --format, --help"),
        "{}",
        stderr(&wrong)
    );
    let wrong = feedlint(&["explain", "--format", "json", "archive-orphan"]);
    assert!(
        stderr(&wrong)
            .contains("'--format' is an option of linting (feedlint [OPTIONS] [PATHS]...) and 'feedlint rules'"),
        "{}",
        stderr(&wrong)
    );
    // ruff's spelling of --format.
    let ruff = feedlint(&["--output-format", "json", WARNING_ONLY]);
    assert_eq!(code(&ruff), 2);
    assert!(stderr(&ruff).contains("did you mean '--format'?"), "{}", stderr(&ruff));
    // --statistics where it has no place is a usage error.
    for format in ["sarif", "github"] {
        let output = feedlint(&["--statistics", "--format", format, WARNING_ONLY]);
        assert_eq!(code(&output), 2, "{format}");
        assert!(stderr(&output).contains("--statistics"), "{}", stderr(&output));
    }
    // Other schemes are said not to be fetched.
    let ftp = feedlint(&["ftp://example.org/feed.atom"]);
    assert_eq!(code(&ftp), 2);
    assert!(
        stderr(&ftp)
            .contains("ftp://example.org/feed.atom is not fetched: feedlint fetches http:// and https:// URLs only"),
        "{}",
        stderr(&ftp)
    );
    // An empty directory: "no feed found", and the summary says it failed,
    // as the exit status does.
    let empty = scratch("empty-dir");
    let output = feedlint(&[empty.to_str().unwrap()]);
    assert_eq!(code(&output), 2);
    assert!(stdout(&output).starts_with("feedlint: failed: "), "{}", stdout(&output));
    assert!(stderr(&output).contains("no feed found in"), "{}", stderr(&output));
}

#[test]
fn concise_ends_with_the_totals_on_standard_error_and_honours_color() {
    let output = feedlint(&["--format", "concise", "examples/site"]);
    assert!(
        !stdout(&output).contains("feedlint: found"),
        "standard output is one line a finding"
    );
    assert!(
        stderr(&output).trim_end().ends_with("feedlint: found: 1 error, 6 warnings and 1 info in 5 documents; examples/site/ is published at https://example.org/, as the self links say"),
        "{}",
        stderr(&output)
    );
    let quiet = feedlint(&["--format", "concise", "--quiet", "examples/site"]);
    assert!(!stderr(&quiet).contains("found"), "{}", stderr(&quiet));
    let colored = feedlint(&["--format", "concise", "--color", "always", "examples/site"]);
    assert!(
        stdout(&colored).contains("\u{1b}[1;31merror[next-archive-unsealed]\u{1b}[0m"),
        "{}",
        stdout(&colored)
    );
    assert!(!stdout(&output).contains('\u{1b}'));
}

#[test]
fn config_mistakes_are_said_at_once() {
    let dir = scratch("config-mistakes");
    std::fs::copy(WARNING_ONLY, dir.join("feed.atom")).unwrap();
    std::fs::write(
        dir.join("feedlint.toml"),
        "[rules]\narchive-missing-current = \"warn\"\nnope = \"off\"\narchive-order = \"fatal\"\n",
    )
    .unwrap();
    let output = feedlint(&[dir.join("feed.atom").to_str().unwrap()]);
    assert_eq!(code(&output), 2);
    let said = stderr(&output);
    let errors: Vec<&str> = said.lines().filter(|l| l.starts_with("feedlint: error: ")).collect();
    assert_eq!(errors.len(), 2, "{}", stderr(&output));
    assert!(errors[0].contains("feedlint.toml:3: unknown rule 'nope'"));
    assert!(errors[1].contains("feedlint.toml:4: invalid level 'fatal'"));
    std::fs::write(
        dir.join("feedlint.toml"),
        "[rules]\narchive-missing-current = \"warn\"\n",
    )
    .unwrap();
    assert_eq!(
        code(&feedlint(&[dir.join("feed.atom").to_str().unwrap()])),
        0,
        "warn is a level"
    );
}

/// The summary line names podcasts: they are held to more than other RSS.
#[test]
fn the_summary_line_names_podcasts() {
    let podcast = "testsuite/rules/itunes-invalid-language/fail-countries.rss";
    let blog = "testsuite/rules/itunes-invalid-language/pass-blog.rss";
    let alone = stdout(&feedlint(&[podcast]));
    assert!(alone.contains("in 1 RSS 2.0 podcast"), "{alone}");
    let both = stdout(&feedlint(&[podcast, blog]));
    assert!(both.contains("in 2 documents (1 RSS 2.0 podcast)"), "{both}");
    let report = json(&feedlint(&["--format", "json", podcast, blog]));
    assert_eq!(report["summary"]["podcasts"], 1);
    // Selecting the group by name checks every RSS feed as a podcast.
    let selected = json(&feedlint(&[
        "--format",
        "json",
        "--select",
        "all,podcast",
        podcast,
        blog,
    ]));
    assert_eq!(selected["summary"]["podcasts"], 2);
    let blog_alone = stdout(&feedlint(&[blog]));
    assert!(blog_alone.contains("in 1 document"), "{blog_alone}");
}

/// docs/podcasts.md shows the run on examples/podcast: each line of the
/// output it quotes is what the run prints.
#[test]
fn the_podcasts_page_shows_what_the_podcast_example_prints() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/podcasts.md")).unwrap();
    let section = &readme[readme.find("# For podcasters").unwrap()..];
    let start = section.find("```text\n").unwrap() + "```text\n".len();
    let shown = &section[start..start + section[start..].find("```").unwrap()];
    let output = feedlint(&["examples/podcast/"]);
    assert_eq!(code(&output), 1);
    let printed = stdout(&output);
    for line in shown.lines().filter(|line| !line.is_empty()) {
        assert!(
            printed.contains(line),
            "docs/podcasts.md shows {line:?}, the run prints:\n{printed}"
        );
    }
    assert!(shown.contains("error[paging-guid-reused]") && shown.contains("in 3 RSS 2.0 podcasts"));
}

#[test]
fn the_version_names_the_commit_it_was_built_from() {
    let output = feedlint(&["--version"]);
    assert_eq!(output.status.code(), Some(0));
    let said = String::from_utf8(output.stdout).unwrap();
    // Set by the release script, or read from the clone's HEAD; a build of
    // the published crate (no clone) says the version alone.
    let commit = option_env!("FEEDLINT_COMMIT").map(str::to_owned).or_else(|| {
        let head = Command::new("git")
            .args(["rev-parse", "--short=12", "HEAD"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()?;
        head.status
            .success()
            .then(|| String::from_utf8_lossy(&head.stdout).trim().to_owned())
    });
    let version = env!("CARGO_PKG_VERSION");
    match commit {
        Some(commit) => assert_eq!(said, format!("feedlint {version} ({commit})\n")),
        None => assert_eq!(said, format!("feedlint {version}\n")),
    }
}

#[test]
fn a_mistyped_command_is_named() {
    let output = feedlint(&["explian"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(
            "cannot read explian: No such file or directory (os error 2); did you mean the command `explain`?"
        ),
        "{}",
        stderr(&output)
    );
    // A path that is no command's near miss is only a path.
    let output = feedlint(&["no-such-feed"]);
    assert!(!stderr(&output).contains("did you mean"), "{}", stderr(&output));
}

/// The README shows the concise run on examples/json-feed: a paged JSON
/// Feed, its defects found across its pages; what it shows is what the run
/// prints, line for line.
#[test]
fn the_readme_shows_what_the_json_feed_example_prints() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let command = "$ feedlint --format concise examples/json-feed/\n";
    let start = readme.find(command).unwrap() + command.len();
    let shown = &readme[start..start + readme[start..].find("```").unwrap()];
    let output = feedlint(&["--format", "concise", "examples/json-feed/"]);
    assert_eq!(code(&output), 1);
    assert_eq!(shown, stdout(&output));
    assert!(
        shown.contains("json-feed-url-mismatch") && shown.contains("paging-link-dangling"),
        "{shown}"
    );
}

/// PHP's `json_encode` escapes slashes: such a JSON Feed is found in a walk.
#[test]
fn a_walk_finds_a_json_feed_with_escaped_slashes() {
    let dir = common::scratch("json-feed-escaped-slashes");
    std::fs::write(
        dir.join("feed.json"),
        r#"{"version":"https:\/\/jsonfeed.org\/version\/1.1","title":"t","items":[{"id":"1","content_text":"x","url":"https:\/\/example.org\/1"}]}"#,
    )
    .unwrap();
    std::fs::write(dir.join("package.json"), r#"{"name":"site","version":"1.0.0"}"#).unwrap();
    let output = feedlint(&["--format", "json", dir.to_str().unwrap()]);
    let report = common::json(&output);
    assert_eq!(report["summary"]["documents"], 1, "{report}");
    assert_eq!(report["summary"]["kinds"]["json-feed"], 1);
}
