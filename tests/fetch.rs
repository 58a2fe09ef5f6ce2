//! Linting deployed feeds over HTTP, against a small server that each test
//! starts on 127.0.0.1 (no outside network). The server answers a bounded
//! number of connections and stops with the test process.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod common;
use common::{json, messages, rules_of};

struct Reply {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
    delay: Duration,
}

fn ok(body: String) -> Reply {
    Reply {
        status: 200,
        headers: vec![("Content-Type", "application/atom+xml".into())],
        body: body.into_bytes(),
        delay: Duration::ZERO,
    }
}

fn status(code: u16) -> Reply {
    Reply {
        status: code,
        headers: Vec::new(),
        body: b"no".to_vec(),
        delay: Duration::ZERO,
    }
}

type Handler = dyn Fn(&str, &str) -> Reply + Send + Sync;

/// A test server: its base URL, and the requests it saw (path, user agent).
struct Server {
    base: String,
    requests: Arc<Mutex<Vec<(String, String)>>>,
}

impl Server {
    fn start(handler: impl Fn(&str, &str) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Handler> = Arc::new(handler);
        let seen = Arc::clone(&requests);
        let server_base = base.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().take(200).flatten() {
                let (handler, seen, base) = (Arc::clone(&handler), Arc::clone(&seen), server_base.clone());
                std::thread::spawn(move || answer(stream, &*handler, &seen, &base));
            }
        });
        Server { base, requests }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn hits(&self, path: &str) -> usize {
        self.requests.lock().unwrap().iter().filter(|(p, _)| p == path).count()
    }
}

fn answer(mut stream: TcpStream, handler: &Handler, seen: &Mutex<Vec<(String, String)>>, base: &str) {
    stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let path = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
    let agent = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("user-agent: ")
                .or_else(|| l.strip_prefix("User-Agent: "))
        })
        .unwrap_or_default()
        .to_owned();
    seen.lock().unwrap().push((path.clone(), agent));
    let reply = handler(&path, base);
    std::thread::sleep(reply.delay);
    let mut response = format!(
        "HTTP/1.1 {} X\r\nContent-Length: {}\r\nConnection: close\r\n",
        reply.status,
        reply.body.len()
    );
    for (name, value) in &reply.headers {
        response.push_str(&format!("{name}: {value}\r\n"));
    }
    response.push_str("\r\n");
    let _ = stream
        .write_all(response.as_bytes())
        .and_then(|()| stream.write_all(&reply.body));
}

/// An Atom feed document at `path` with the given links.
fn feed(path: &str, archive: bool, links: &[(&str, &str)]) -> String {
    let marker = if archive { "<fh:archive/>" } else { "" };
    let links: String = links
        .iter()
        .map(|(rel, href)| format!("<link rel=\"{rel}\" href=\"{href}\"/>"))
        .collect();
    format!(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:fh=\"http://purl.org/syndication/history/1.0\">\
         <title>t</title><id>tag:example.org,2024:feed</id><updated>2024-01-01T00:00:00Z</updated>{marker}\
         <link rel=\"self\" href=\"{path}\"/>{links}<entry><id>tag:example.org,2024:{path}</id><updated>2024-01-01T00:00:00Z</updated></entry></feed>"
    )
}

/// A subscription document `/index.atom` whose prev-archive is `archive`.
fn index(archive: &str) -> Reply {
    ok(feed("/index.atom", false, &[("prev-archive", archive)]))
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
    let agents: Vec<String> = server.requests.lock().unwrap().iter().map(|(_, a)| a.clone()).collect();
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
    assert_eq!(server.requests.lock().unwrap().len(), 5);
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
        _ => Reply {
            headers: vec![("Content-Encoding", "deflate".into())],
            body: compress(false, feed("/1.atom", true, &[("current", "/index.atom")])),
            ..ok(String::new())
        },
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/index.atom")]));
    assert_eq!(report["summary"]["documents"], 2, "{:?}", messages(&report));
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
fn urls_and_paths_do_not_mix() {
    let output = feedlint(&["http://127.0.0.1:9/index.atom", "examples/site"]);
    assert_eq!(output.status.code(), Some(2));
}
