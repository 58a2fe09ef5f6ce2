//! Linting deployed feeds over HTTP, against a small server that each test
//! starts on 127.0.0.1 (no outside network). The server answers a bounded
//! number of connections and stops with the test process.

use std::io::Write;
use std::net::TcpListener;
use std::process::{Command, Output};
use std::time::Duration;

use crate::common;
use common::http::{ok, status, typed, Reply, Server};
use common::{json, messages, rules_of, stderr, stdout};

/// An Atom feed document at `path` with the given links.
fn feed(path: &str, archive: bool, links: &[(&str, &str)]) -> String {
    let marker = if archive { "<fh:archive/>" } else { "" };
    let links: String = links
        .iter()
        .map(|(rel, href)| format!("<link rel=\"{rel}\" href=\"{href}\"/>"))
        .collect();
    format!(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:fh=\"http://purl.org/syndication/history/1.0\">\
         <title>t</title><id>tag:example.org,2024:feed</id><updated>2024-01-01T00:00:00Z</updated>\
         <author><name>a</name></author>{marker}<link rel=\"self\" href=\"{path}\"/>{links}\
         <entry><title>e</title><link href=\"https://example.org{path}/entry\"/><id>tag:example.org,2024:{path}</id>\
         <updated>2024-01-01T00:00:00Z</updated></entry></feed>"
    )
}

/// A subscription document `/index.atom` whose prev-archive is `archive`.
fn index(archive: &str) -> Reply {
    ok(feed("/index.atom", false, &[("prev-archive", archive)]))
}

/// `url` linted as JSON with the `http` rules off: for tests whose servers
/// answer with only the headers the test is about.
fn lint_text_only(url: &str) -> Output {
    feedlint(&["--format", "json", "--ignore", "http", url])
}

fn feedlint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_clean_chain_is_fetched_and_linted_as_a_set() {
    let server = Server::start(|path, _| match path {
        "/index.atom" => index("/archive/2.atom"),
        "/archive/2.atom" => ok(feed(
            "/archive/2.atom",
            true,
            &[("current", "/index.atom"), ("prev-archive", "1.atom")],
        )),
        "/archive/1.atom" => ok(feed(
            "/archive/1.atom",
            true,
            &[("current", "/index.atom"), ("next-archive", "2.atom")],
        )),
        _ => status(404),
    });
    let output = feedlint(&["--format", "json", &server.url("/index.atom")]);
    let report = json(&output);
    assert_eq!(rules_of(&report), Vec::<String>::new());
    assert_eq!(report["summary"]["documents"], 3);
    assert_eq!(output.status.code(), Some(0));
    // current links back to the subscription document: fetched once.
    assert_eq!(server.hits("/index.atom"), 1);
    let agents: Vec<String> = server
        .requests
        .lock()
        .unwrap()
        .iter()
        .map(|seen| seen.agent.clone())
        .collect();
    assert!(
        agents
            .iter()
            .all(|a| *a == format!("feedlint/{}", env!("CARGO_PKG_VERSION"))),
        "{agents:?}"
    );
}

#[test]
fn a_cycle_is_fetched_once_and_reported() {
    let server = Server::start(|path, _| match path {
        "/index.atom" => index("/a.atom"),
        "/a.atom" => ok(feed(
            "/a.atom",
            true,
            &[("current", "/index.atom"), ("prev-archive", "/b.atom")],
        )),
        "/b.atom" => ok(feed(
            "/b.atom",
            true,
            &[("current", "/index.atom"), ("prev-archive", "/a.atom")],
        )),
        _ => status(404),
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/index.atom")]));
    assert!(
        rules_of(&report).contains(&"archive-chain-cycle".to_owned()),
        "{:?}",
        rules_of(&report)
    );
    assert_eq!((server.hits("/a.atom"), server.hits("/b.atom")), (1, 1));
    let file = report["diagnostics"][0]["file"].as_str().unwrap();
    assert!(file.starts_with("http://127.0.0.1:"), "findings name the URL: {file}");
}

#[test]
fn an_endless_chain_stops_at_max_documents() {
    let server = Server::start(|path, _| {
        let n: u64 = path
            .trim_start_matches("/page/")
            .trim_end_matches(".atom")
            .parse()
            .unwrap_or(0);
        ok(feed(
            path,
            n > 0,
            &[
                ("current", "/page/0.atom"),
                ("prev-archive", &format!("/page/{}.atom", n + 1)),
            ],
        ))
    });
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--max-documents",
        "5",
        &server.url("/page/0.atom"),
    ]));
    assert_eq!(report["summary"]["documents"], 5);
    // Five documents, each asked for once (and once more conditionally).
    assert_eq!(server.seen().iter().filter(|seen| !seen.conditional()).count(), 5);
    assert!(rules_of(&report).contains(&"fetch-limit-reached".to_owned()));
    assert!(messages(&report).iter().any(|m| m.contains("--max-documents")));
    // The chain was not walked to its end: no guessing about unknown refs.
    assert!(!rules_of(&report).contains(&"deleted-entry-unknown-ref".to_owned()));
}

#[test]
fn an_oversized_body_is_cut_by_max_bytes() {
    let server = Server::start(|path, _| match path {
        "/index.atom" => index("/big.atom"),
        "/big.atom" => ok(format!(
            "{}<!--{}-->",
            feed("/big.atom", true, &[]),
            "x".repeat(64 * 1024)
        )),
        _ => status(404),
    });
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--max-bytes",
        "8192",
        &server.url("/index.atom"),
    ]));
    assert_eq!(rules_of(&report), ["fetch-limit-reached"]);
    assert!(
        messages(&report)[0].contains("8192 bytes (--max-bytes)"),
        "{:?}",
        messages(&report)
    );
}

#[test]
fn a_slow_server_is_cut_by_timeout() {
    let server = Server::start(|path, _| match path {
        "/index.atom" => index("/slow.atom"),
        _ => Reply {
            delay: Duration::from_secs(4),
            ..ok(feed("/slow.atom", true, &[]))
        },
    });
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--timeout",
        "0.5",
        &server.url("/index.atom"),
    ]));
    assert_eq!(rules_of(&report), ["fetch-limit-reached"]);
    assert!(messages(&report)[0].contains("(--timeout)"), "{:?}", messages(&report));
}

#[test]
fn a_redirect_loop_is_cut_by_max_redirects() {
    let server = Server::start(|path, base| match path {
        "/index.atom" => index("/loop"),
        _ => Reply {
            headers: vec![("Location", format!("{base}/loop"))],
            ..status(302)
        },
    });
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--max-redirects",
        "3",
        &server.url("/index.atom"),
    ]));
    assert_eq!(rules_of(&report), ["fetch-limit-reached"]);
    assert!(
        messages(&report)[0].contains("3 redirects (--max-redirects)"),
        "{:?}",
        messages(&report)
    );
    assert!(server.hits("/loop") <= 4);
}

#[test]
fn a_withheld_archive_and_a_failing_page() {
    let server = Server::start(|path, _| match path {
        "/index.atom" => ok(feed("/index.atom", false, &[("prev-archive", "/gone.atom")])),
        "/search" => ok(feed("/search", false, &[("next", "/search?page=2")])),
        "/gone.atom" => status(410),
        _ => status(500),
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/index.atom")]));
    assert_eq!(rules_of(&report), ["archive-unavailable"]);
    assert!(messages(&report)[0].contains("HTTP 410"));
    assert_eq!(report["diagnostics"][0]["level"], "warning");
    let report = json(&feedlint(&["--format", "json", &server.url("/search")]));
    assert_eq!(rules_of(&report), ["fetch-failed"]);
    assert!(
        messages(&report)[0].contains("HTTP status 500"),
        "{:?}",
        messages(&report)
    );
}

#[test]
fn same_origin_keeps_the_walk_home() {
    let server = Server::start(|path, base| match path {
        // The same server, named by another origin.
        "/index.atom" => index(&format!("{}/archive.atom", base.replace("127.0.0.1", "localhost"))),
        _ => ok(feed("/archive.atom", true, &[("current", "/index.atom")])),
    });
    let home = json(&feedlint(&[
        "--format",
        "json",
        "--same-origin",
        &server.url("/index.atom"),
    ]));
    assert_eq!(home["summary"]["documents"], 1);
    assert_eq!(server.hits("/archive.atom"), 0);
    // Without it the archive is fetched, and its current link, relative to
    // the other origin, names a third URL.
    let away = json(&feedlint(&["--format", "json", &server.url("/index.atom")]));
    assert_eq!(away["summary"]["documents"], 3);
    assert_eq!(server.hits("/archive.atom"), 1);
}

#[test]
fn compressed_bodies_are_decoded() {
    use flate2::write::{GzEncoder, ZlibEncoder};
    let compress = |gzip: bool, text: String| -> Vec<u8> {
        if gzip {
            let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::default());
            encoder.write_all(text.as_bytes()).unwrap();
            encoder.finish().unwrap()
        } else {
            let mut encoder = ZlibEncoder::new(Vec::new(), flate2::Compression::default());
            encoder.write_all(text.as_bytes()).unwrap();
            encoder.finish().unwrap()
        }
    };
    let server = Server::start(move |path, _| match path {
        "/index.atom" => Reply {
            headers: vec![("Content-Encoding", "gzip".into())],
            body: compress(true, feed("/index.atom", false, &[("prev-archive", "/1.atom")])),
            ..ok(String::new())
        },
        "/1.atom" => Reply {
            headers: vec![("Content-Encoding", "deflate".into())],
            body: compress(
                false,
                feed(
                    "/1.atom",
                    true,
                    &[("current", "/index.atom"), ("prev-archive", "/0.atom")],
                ),
            ),
            ..ok(String::new())
        },
        // Raw deflate, without the zlib wrapper: what many servers send.
        _ => Reply {
            headers: vec![("Content-Encoding", "deflate".into())],
            body: {
                let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
                encoder
                    .write_all(
                        feed(
                            "/0.atom",
                            true,
                            &[("current", "/index.atom"), ("next-archive", "/1.atom")],
                        )
                        .as_bytes(),
                    )
                    .unwrap();
                encoder.finish().unwrap()
            },
            ..ok(String::new())
        },
    });
    let report = json(&lint_text_only(&server.url("/index.atom")));
    assert_eq!(report["summary"]["documents"], 3, "{:?}", messages(&report));
    assert_eq!(rules_of(&report), Vec::<String>::new());
}

#[test]
fn the_named_url_failing_is_exit_2() {
    let closed = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let output = feedlint(&[&format!("http://127.0.0.1:{closed}/index.atom")]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&output.stderr).lines().count(), 1);

    let server = Server::start(|path, _| match path {
        "/page.html" => Reply {
            headers: vec![("Content-Type", "text/html".into())],
            ..ok("<html><body>hi</body></html>".into())
        },
        _ => status(404),
    });
    for (path, expected) in [("/page.html", "not a feed"), ("/missing.atom", "HTTP status 404")] {
        let output = feedlint(&[&server.url(path)]);
        assert_eq!(output.status.code(), Some(2), "{path}");
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
}

#[test]
fn max_documents_zero_is_a_usage_error() {
    let output = feedlint(&["--max-documents", "0", "http://127.0.0.1:9/index.atom"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--max-documents"), "{}", stderr(&output));
}

#[test]
fn urls_and_paths_do_not_mix() {
    let output = feedlint(&["http://127.0.0.1:9/index.atom", "examples/site"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn links_to_link_local_and_private_addresses_are_refused_without_connecting() {
    // The start is loopback, so its links may stay on loopback; the cloud
    // metadata address and a private address are refused by the resolver
    // before any connection (neither address needs to exist).
    let server = Server::start(|path, base| match path {
        "/index.atom" => ok(feed(
            "/index.atom",
            false,
            &[
                ("prev-archive", "http://169.254.169.254/latest/meta-data/"),
                ("next", "http://10.0.0.5/page2.atom"),
                ("previous", &format!("{base}/loopback.atom")),
            ],
        )),
        _ => ok(feed("/loopback.atom", false, &[])),
    });
    let started = std::time::Instant::now();
    let output = feedlint(&["--format", "json", "--timeout", "30", &server.url("/index.atom")]);
    // A connection attempt to an unreachable address would wait for the timeout.
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    let report = json(&output);
    let refused: Vec<String> = messages(&report)
        .into_iter()
        .filter(|m| m.contains("refused to connect"))
        .collect();
    assert_eq!(refused.len(), 2, "{:?}", messages(&report));
    assert!(
        refused
            .iter()
            .any(|m| m.contains("169.254.169.254") && m.contains("link-local")),
        "{refused:?}"
    );
    assert!(
        refused.iter().any(|m| m.contains("10.0.0.5") && m.contains("private")),
        "{refused:?}"
    );
    assert!(rules_of(&report).iter().filter(|r| *r == "fetch-failed").count() == 2);
    // The loopback link was followed.
    assert_eq!(server.hits("/loopback.atom"), 1);
    assert_eq!(report["summary"]["documents"], 2);
}

#[test]
fn a_redirect_is_checked_hop_by_hop() {
    let server = Server::start(|path, _| match path {
        "/index.atom" => ok(feed("/index.atom", false, &[("prev-archive", "/moved.atom")])),
        "/moved.atom" => Reply {
            headers: vec![("Location", "http://169.254.169.254/latest/meta-data/".into())],
            ..status(302)
        },
        "/start-moved.atom" => Reply {
            headers: vec![("Location", "http://[fe80::1]/feed.atom".into())],
            ..status(301)
        },
        _ => status(404),
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/index.atom")]));
    assert_eq!(rules_of(&report), ["fetch-failed"]);
    assert!(
        messages(&report)[0].contains("169.254.169.254"),
        "{:?}",
        messages(&report)
    );
    // A start URL may be anywhere, but not its redirects.
    let output = feedlint(&[&server.url("/start-moved.atom")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("refused to connect to fe80::1"),
        "{}",
        stderr(&output)
    );
    // (What --allow-private-addresses lifts is tested on the decision itself,
    // in src/fetch/policy.rs: tests never connect beyond loopback.)
}

#[test]
fn same_origin_applies_to_every_redirect() {
    let elsewhere = Server::start(|_, _| ok(feed("/other.atom", true, &[])));
    let target = elsewhere.url("/other.atom");
    let server = Server::start(move |path, _| match path {
        "/index.atom" => ok(feed("/index.atom", false, &[("prev-archive", "/archive.atom")])),
        _ => Reply {
            headers: vec![("Location", target.clone())],
            ..status(301)
        },
    });
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--same-origin",
        &server.url("/index.atom"),
    ]));
    assert_eq!(rules_of(&report), ["fetch-failed"]);
    assert!(
        messages(&report)[0].contains("--same-origin"),
        "{:?}",
        messages(&report)
    );
    assert_eq!(elsewhere.requests.lock().unwrap().len(), 0);
}

#[test]
fn a_password_is_never_printed_and_goes_to_its_own_origin_only() {
    let other = Server::start(|_, _| status(404));
    let other_archive = other.url("/elsewhere.atom");
    let server = Server::start(move |path, _| match path {
        "/index.atom" => ok(feed(
            "/index.atom",
            false,
            &[("prev-archive", "archive.atom"), ("next", &other_archive)],
        )),
        _ => status(503),
    });
    let start = server.url("/index.atom").replace("http://", "http://alice:s3cret@");
    for format in ["text", "concise", "json", "json-lines", "sarif", "github"] {
        let output = feedlint(&["--format", format, &start]);
        let printed = format!("{}{}", stdout(&output), stderr(&output));
        assert!(!printed.contains("s3cret"), "{format}: {printed}");
        assert!(printed.contains("alice:***@"), "{format}: {printed}");
    }
    // The failing start URL's message is masked too.
    let output = feedlint(&[&start.replace("/index.atom", "/gone.atom")]);
    assert!(!stderr(&output).contains("s3cret"), "{}", stderr(&output));
    // Sent to its own origin, for the start URL and the relative link alike
    // ("alice:s3cret" in Basic), never to the other origin.
    let requests = server.requests.lock().unwrap().clone();
    assert!(requests.iter().any(|seen| seen.path == "/archive.atom"));
    assert!(
        requests
            .iter()
            .all(|seen| seen.authorization.as_deref() == Some("Basic YWxpY2U6czNjcmV0")),
        "{requests:?}"
    );
    let elsewhere = other.requests.lock().unwrap().clone();
    assert!(!elsewhere.is_empty());
    assert!(
        elsewhere.iter().all(|seen| seen.authorization.is_none()),
        "{elsewhere:?}"
    );
}

#[test]
fn the_http_charset_is_honoured() {
    // Latin-1 bytes, no declaration: only the header says how to read them.
    let latin1 = |declaration: &str| -> Vec<u8> {
        let mut body = declaration.as_bytes().to_vec();
        body.extend(
            feed("/index.atom", false, &[])
                .replace("<title>t</title>", "<title>caf\u{e9}</title>")
                .chars()
                .map(|c| c as u8),
        );
        body
    };
    let server = Server::start(move |path, _| {
        let declaration = if path == "/declared.atom" {
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>"
        } else {
            ""
        };
        Reply {
            headers: vec![("Content-Type", "application/atom+xml; charset=ISO-8859-1".into())],
            body: latin1(declaration),
            ..ok(String::new())
        }
    });
    let report = json(&lint_text_only(&server.url("/index.atom")));
    assert_eq!(rules_of(&report), Vec::<String>::new(), "{:?}", messages(&report));
    // The declaration says otherwise: the header wins, and a warning says so.
    let report = json(&lint_text_only(&server.url("/declared.atom")));
    assert_eq!(rules_of(&report), ["charset-mismatch"]);
    assert!(messages(&report)[0].contains("header wins"), "{:?}", messages(&report));
    assert_eq!(report["diagnostics"][0]["level"], "warning");
    // It points at the declaration's encoding name.
    let span = &report["diagnostics"][0]["spans"][0];
    assert_eq!(
        (span["line_start"].as_u64(), span["column_start"].as_u64()),
        (Some(1), Some(31)),
        "{span}"
    );
}

#[test]
fn max_time_cuts_a_slow_walk() {
    // An endless chain of archives, each answering after 300 ms.
    let server = Server::start(|path, _| {
        let n: u32 = path
            .trim_start_matches("/a")
            .trim_end_matches(".atom")
            .parse()
            .unwrap_or(0);
        Reply {
            delay: Duration::from_millis(300),
            ..ok(feed(path, n > 0, &[("prev-archive", &format!("/a{}.atom", n + 1))]))
        }
    });
    let started = std::time::Instant::now();
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--max-time",
        "1",
        &server.url("/a0.atom"),
    ]));
    assert!(started.elapsed() < Duration::from_secs(4), "{:?}", started.elapsed());
    let limit = messages(&report)
        .into_iter()
        .zip(rules_of(&report))
        .filter(|(_, rule)| rule == "fetch-limit-reached")
        .map(|(message, _)| message)
        .collect::<Vec<_>>();
    assert_eq!(limit.len(), 1, "{:?}", messages(&report));
    assert!(limit[0].contains("--max-time"), "{limit:?}");
    let documents = report["summary"]["documents"].as_u64().unwrap();
    assert!((2..=4).contains(&documents), "{documents}");
}

#[test]
fn concurrent_and_sequential_walks_print_the_same_report() {
    // Two start URLs, each with a chain, answering at different speeds.
    let server = Server::start(|path, _| {
        let (chain, n) = path
            .trim_start_matches('/')
            .trim_end_matches(".atom")
            .split_once('-')
            .unwrap_or(("x", "0"));
        let n: u32 = n.parse().unwrap_or(0);
        let delay = Duration::from_millis(u64::from((n * 37 + chain.len() as u32 * 11) % 60));
        let links = if n < 6 {
            vec![("prev-archive".to_owned(), format!("/{chain}-{}.atom", n + 1))]
        } else {
            vec![("next".to_owned(), "/missing.atom".to_owned())]
        };
        let links: Vec<(&str, &str)> = links.iter().map(|(r, h)| (r.as_str(), h.as_str())).collect();
        if path == "/missing.atom" {
            return status(404);
        }
        Reply {
            delay,
            ..ok(feed(path, n > 0, &links))
        }
    });
    let (a, b) = (server.url("/a-0.atom"), server.url("/bb-0.atom"));
    let run = |jobs: &str, format: &str| {
        stdout(&feedlint(&[
            "--format",
            format,
            "--jobs",
            jobs,
            "--max-documents",
            "11",
            &a,
            &b,
        ]))
    };
    for format in ["json", "text"] {
        let sequential = run("1", format);
        assert!(sequential.contains("fetch-limit-reached"), "{sequential}");
        for _ in 0..3 {
            assert_eq!(run("8", format), sequential, "{format}");
        }
    }
}

#[test]
fn a_feed_served_as_a_web_page_and_a_web_page_that_names_its_feed() {
    let server = Server::start(move |path, _| {
        match path {
        "/" => Reply {
            headers: vec![("Content-Type", "text/html; charset=utf-8".into())],
            body: b"<!DOCTYPE html><html><head><link rel=\"alternate\" type=\"application/atom+xml\" href=\"/index.atom\"></head><body><p>Hi<br></body></html>".to_vec(),
            ..ok(String::new())
        },
        "/page" => Reply {
            headers: vec![("Content-Type", "text/html".into())],
            body: b"<p>no feed here<br>".to_vec(),
            ..ok(String::new())
        },
        "/as-html.atom" => Reply {
            headers: vec![("Content-Type", "text/html; charset=utf-8".into())],
            body: feed("/as-html.atom", false, &[]).into_bytes(),
            ..ok(String::new())
        },
        _ => ok(feed("/index.atom", false, &[])),
    }
    });
    // A feed served as text/html: one warning, at its root element.
    let report = json(&lint_text_only(&server.url("/as-html.atom")));
    assert_eq!(
        rules_of(&report),
        ["unexpected-content-type"],
        "{:?}",
        messages(&report)
    );
    assert_eq!(report["diagnostics"][0]["level"], "warning");
    // Served as a feed: nothing.
    let report = json(&feedlint(&["--format", "json", &server.url("/index.atom")]));
    assert_eq!(rules_of(&report), Vec::<String>::new());
    // A web page that names its feed: the feed is checked in its place,
    // and a warning says so.
    let output = feedlint(&["--format", "json", &server.url("/")]);
    let report = json(&output);
    assert_eq!(rules_of(&report), Vec::<String>::new(), "{:?}", messages(&report));
    assert_eq!(report["summary"]["documents"], 1, "{report}");
    assert!(
        stderr(&output).contains(&format!("is a web page; found a feed at {}", server.url("/index.atom"))),
        "{}",
        stderr(&output)
    );
    // A page that names none, by its content type alone: said to be a web
    // page, not broken XML.
    let output = feedlint(&["--format", "json", &server.url("/page")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("it is a web page, not a feed"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_invalid_redirect_is_said_without_its_password() {
    // No URL parser takes the Location (a space in the host), so it is
    // echoed as the server wrote it: its password masked all the same.
    let server = Server::start(|path, base| match path {
        "/index.atom" => index(&format!("{base}/moved")),
        _ => Reply {
            headers: vec![("Location", "http://dave:SECRET@exa mple.org/feed.atom".to_owned())],
            ..status(302)
        },
    });
    let output = feedlint(&["--format", "json", &server.url("/index.atom")]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(said.contains("is not a valid URL"), "{said}");
    assert!(said.contains("dave:"), "{said}");
    assert!(!said.contains("SECRET"), "{said}");
}

#[test]
fn a_self_link_naming_another_address_than_the_one_fetched_is_said() {
    // The feed at /feed.atom says it is at /old/feed.atom: one warning at
    // its self link. A self link naming a feed proxy (another file name)
    // says nothing of where the file is, and is left alone, as in a tree.
    let server = Server::start(|path, _| match path {
        "/feed.atom" => ok(feed("/old/feed.atom", false, &[])),
        "/proxied.atom" => ok(feed("https://feeds.example.net/liftoff", false, &[])),
        "/right.atom" => ok(feed("/right.atom", false, &[])),
        _ => status(404),
    });
    let output = feedlint(&["--format", "json", &server.url("/feed.atom")]);
    assert_eq!(rules_of(&json(&output)), ["self-link-mismatch"]);
    assert!(
        messages(&json(&output))[0].contains(&format!("but it was read at {}", server.url("/feed.atom"))),
        "{:?}",
        messages(&json(&output))
    );
    for quiet in ["/proxied.atom", "/right.atom"] {
        let output = feedlint(&["--format", "json", &server.url(quiet)]);
        assert_eq!(rules_of(&json(&output)), Vec::<String>::new(), "{quiet}");
    }
}

/// A page of a paged JSON Feed, served as `application/feed+json`.
fn json_page(base: &str, next: Option<&str>, id: &str) -> Reply {
    let next = next.map_or_else(String::new, |next| format!(",\"next_url\":\"{base}{next}\""));
    typed(
        ok(format!(
            "{{\"version\":\"https://jsonfeed.org/version/1.1\",\"title\":\"t\",\
             \"feed_url\":\"{base}/feed.json\"{next},\"items\":[{{\"id\":\"{id}\",\"content_text\":\"x\"}}]}}"
        )),
        "application/feed+json",
    )
}

#[test]
fn a_json_feed_is_paged_through_by_next_url() {
    let server = Server::start(|path, base| match path {
        "/feed.json" => json_page(base, Some("/feed-2.json"), "3"),
        "/feed-2.json" => json_page(base, Some("/feed-3.json"), "2"),
        "/feed-3.json" => json_page(base, None, "1"),
        _ => status(404),
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/feed.json")]));
    assert_eq!(rules_of(&report), Vec::<String>::new(), "{:?}", messages(&report));
    assert_eq!(report["summary"]["documents"], 3);
    assert_eq!(report["summary"]["kinds"]["json-feed"], 3);
    // The last page names a page that is not there: said at its next_url.
    let server = Server::start(|path, base| match path {
        "/feed.json" => json_page(base, Some("/feed-2.json"), "2"),
        "/feed-2.json" => json_page(base, Some("/feed-3.json"), "1"),
        _ => status(404),
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/feed.json")]));
    assert_eq!(rules_of(&report), ["archive-unavailable"]);
    assert!(
        messages(&report)[0].contains("/feed-3.json answers HTTP 404"),
        "{:?}",
        messages(&report)
    );
    assert_eq!(server.hits("/feed-3.json"), 1);
    // A feed_url that names this file at another address: the fetched
    // URL wins, and the feed_url is said, as a self link is.
    let elsewhere = Server::start(|path, _| match path {
        "/feed.json" => json_page("https://example.org", None, "1"),
        _ => status(404),
    });
    let report = json(&feedlint(&["--format", "json", &elsewhere.url("/feed.json")]));
    assert_eq!(rules_of(&report), ["self-link-mismatch"], "{:?}", messages(&report));
    // Under --max-documents, as every walk.
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--max-documents",
        "1",
        &server.url("/feed.json"),
    ]));
    assert_eq!(rules_of(&report), ["fetch-limit-reached"]);
}
