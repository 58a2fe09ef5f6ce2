//! Feed discovery (group `discovery`) where a run sees a site's pages
//! otherwise than in a set case: a web page given as a URL (served on
//! 127.0.0.1, no outside network), and walks where the rules must say
//! nothing or read no page at all.

use std::process::{Command, Output};

use crate::common;
use common::http::{ok, Reply, Server};
use common::{json, messages, rules_of, stderr};

fn feedlint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .output()
        .unwrap()
}

const ATOM: &str = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title><id>tag:example.org,2024:feed</id>\
    <updated>2024-01-01T00:00:00Z</updated><author><name>a</name></author><link rel=\"self\" href=\"/feed.atom\"/>\
    <entry><title>e</title><link href=\"https://example.org/e\"/><id>tag:example.org,2024:e</id>\
    <updated>2024-01-01T00:00:00Z</updated><summary>s</summary></entry></feed>";

/// A page that advertises `/feed.atom` as `media_type`.
fn page(media_type: &str) -> Reply {
    Reply {
        headers: vec![("Content-Type", "text/html; charset=utf-8".into())],
        body: format!("<!DOCTYPE html><html><head><title>Site</title>\n<link rel=\"alternate\" type=\"{media_type}\" href=\"/feed.atom\"></head><body></body></html>").into_bytes(),
        ..ok(String::new())
    }
}

#[test]
fn a_page_given_as_a_url_is_judged_against_the_feed_it_names() {
    let server = Server::start(|path, _| match path {
        "/wrong" => page("application/rss+xml"),
        "/right" => page("application/atom+xml"),
        "/gone" => Reply {
            body: String::from_utf8(page("application/atom+xml").body)
                .unwrap()
                .replace("/feed.atom", "/moved.atom")
                .into_bytes(),
            ..page("")
        },
        "/moved.atom" => common::http::status(404),
        _ => ok(ATOM.to_owned()),
    });
    // The page names the Atom feed as RSS: one finding, at the page's
    // type attribute, the feed pointed at beside it.
    let output = feedlint(&["--format", "json", &server.url("/wrong")]);
    let report = json(&output);
    assert_eq!(
        rules_of(&report),
        ["discovery-type-mismatch"],
        "{:?}",
        messages(&report)
    );
    let finding = &report["diagnostics"][0];
    assert_eq!(finding["file"], server.url("/wrong"));
    assert_eq!(finding["spans"][0]["line_start"], 2);
    assert_eq!(finding["spans"][1]["file"], server.url("/feed.atom"));
    assert_eq!(report["summary"]["documents"], 1, "{report}");
    assert_eq!(report["summary"]["pages"], 1, "{report}");
    assert_eq!(report["summary"]["kinds"]["atom"], 1, "{report}");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    // Named by its own type: nothing, and the page still counted.
    let output = feedlint(&["--format", "json", &server.url("/right")]);
    let report = json(&output);
    assert_eq!(rules_of(&report), Vec::<String>::new(), "{:?}", messages(&report));
    assert_eq!(report["summary"]["pages"], 1, "{report}");
    assert_eq!(output.status.code(), Some(0));
    // The feed it names answers 404: the page's finding, at its href, and
    // no failure of the run (the page was linted).
    let output = feedlint(&["--format", "json", &server.url("/gone")]);
    let report = json(&output);
    assert_eq!(
        rules_of(&report),
        ["discovery-link-dangling"],
        "{:?}",
        messages(&report)
    );
    assert_eq!(report["diagnostics"][0]["file"], server.url("/gone"));
    assert_eq!(report["diagnostics"][0]["spans"][0]["column_start"], 57);
    assert_eq!(report["failures"].as_array().unwrap().len(), 0, "{report}");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    // With the group off, the page is not kept.
    let output = feedlint(&["--format", "json", "--ignore", "discovery", &server.url("/wrong")]);
    let report = json(&output);
    assert_eq!(rules_of(&report), Vec::<String>::new(), "{:?}", messages(&report));
    assert_eq!(report["summary"]["pages"], 0, "{report}");
}

/// Writes a site: `files` as (path, text) below a new directory.
fn site(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

const BROKEN_LAYOUT: &str =
    "<!DOCTYPE html><html><head><link rel=\"alternate\" type=\"application/atom+xml\" href=\"feed.atom\"></head></html>";

#[test]
fn a_tree_nobody_publishes_is_not_judged_and_the_group_off_reads_no_page() {
    // No base URL and no self link: the folder is no known site, and the
    // same relative link that breaks on a published site says nothing.
    let feed = ATOM.replace("<link rel=\"self\" href=\"/feed.atom\"/>", "");
    let dir = site(&[
        ("feed.atom", &feed),
        ("index.html", BROKEN_LAYOUT),
        ("2024/post/index.html", BROKEN_LAYOUT),
    ]);
    let root = dir.path().to_str().unwrap();
    let report = json(&feedlint(&["--format", "json", root]));
    assert_eq!(rules_of(&report), Vec::<String>::new(), "{:?}", messages(&report));
    assert_eq!(report["summary"]["pages"], 2, "{report}");
    // Published at a base URL, it is judged.
    let output = feedlint(&["--format", "json", "--base-url", "https://example.org/", root]);
    let report = json(&output);
    assert_eq!(
        rules_of(&report),
        ["discovery-relative-link"],
        "{:?}",
        messages(&report)
    );
    // The group off: no page is kept, nothing is said of them.
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--base-url",
        "https://example.org/",
        "--ignore",
        "discovery",
        root,
    ]));
    assert_eq!(rules_of(&report), Vec::<String>::new(), "{:?}", messages(&report));
    assert_eq!(report["summary"]["pages"], 0, "{report}");
    assert_eq!(report["summary"]["documents"], 1, "{report}");
}

#[test]
fn a_walk_of_pages_without_a_feed_still_says_it_found_no_feed() {
    let dir = site(&[("index.html", BROKEN_LAYOUT)]);
    let output = feedlint(&["--base-url", "https://example.org/", dir.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("no feed found"), "{}", stderr(&output));
}
