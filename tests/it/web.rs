//! `feedlint serve`: the web page in a real headless Chromium (driven over
//! WebDriver by chromedriver), through its three ways in, asserting what a
//! person sees; and the JSON API and the server's limits over HTTP. Every
//! request goes to loopback: the server under test, and a test server of
//! feeds for the URL checks.
//!
//! The browser test needs Debian's `chromium` and `chromium-driver`; where
//! they are missing it says it was skipped, unless
//! `FEEDLINT_BROWSER_REQUIRED` is set (CI installs them and sets it).

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{scratch, stderr, ATOM_HEAD};
use serde_json::{json, Value};

/// A `feedlint serve` on a free loopback port, stopped when dropped.
struct Served {
    child: Child,
    base: String,
}

impl Served {
    /// With `--allow-private-addresses`: the test's feeds are on loopback.
    fn start(extra: &[&str]) -> Served {
        Served::start_with(&[&["--allow-private-addresses"], extra].concat())
    }

    fn start_with(args: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_feedlint"))
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let base = line
            .trim()
            .strip_prefix("feedlint: serving on ")
            .unwrap_or_else(|| panic!("no address said: {line:?}"))
            .trim_end_matches('/')
            .to_owned();
        Served { child, base }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A loopback HTTP server of fixed documents, each answered after `delay`.
fn feeds_server(documents: Vec<(&'static str, String)>, delay: Duration) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let documents = Arc::new(documents);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let documents = Arc::clone(&documents);
            std::thread::spawn(move || answer(stream, &documents, delay));
        }
    });
    base
}

/// Answers as a well-kept server does: with an `ETag` of each document,
/// honoured (304 to a matching `If-None-Match`), and CORS open to all.
fn answer(mut stream: TcpStream, documents: &[(&str, String)], delay: Duration) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    let mut if_none_match = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).map_or(true, |n| n == 0) || header == "\r\n" {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.trim().eq_ignore_ascii_case("if-none-match") {
                if_none_match = Some(value.trim().to_owned());
            }
        }
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/");
    std::thread::sleep(delay);
    let reply = match documents.iter().find(|(p, _)| *p == path) {
        Some((_, body)) => {
            let etag = crate::common::http::etag_of(body.as_bytes());
            if if_none_match.as_deref() == Some(etag.as_str()) {
                format!("HTTP/1.1 304 Not Modified\r\nETag: {etag}\r\nConnection: close\r\n\r\n")
            } else {
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/atom+xml\r\nETag: {etag}\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                )
            }
        }
        None => "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_owned(),
    };
    let _ = stream.write_all(reply.as_bytes());
}

/// An HTTP client that hands back every status as it is.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// Posts a JSON request to the API: the status, and the body as JSON.
fn post_api(agent: &ureq::Agent, base: &str, request: &Value) -> (u16, Value) {
    let mut response = agent
        .post(format!("{base}/api/lint"))
        .header("Content-Type", "application/json")
        .send(request.to_string().as_bytes())
        .unwrap();
    let status = response.status().as_u16();
    (
        status,
        serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap(),
    )
}

fn atom(self_href: &str, links: &[(&str, &str)], archive: bool, title: &str) -> String {
    let links: String = links
        .iter()
        .map(|(rel, href)| format!("  <link rel=\"{rel}\" href=\"{href}\"/>\n"))
        .collect();
    let head = ATOM_HEAD.replace("<title>t</title>", &format!("<title>{title}</title>"));
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:fh=\"http://purl.org/syndication/history/1.0\">\n  {head}\n  <link rel=\"self\" href=\"{self_href}\"/>\n{links}{}</feed>\n",
        if archive { "  <fh:archive/>\n" } else { "" }
    )
}

/// An archive whose next-archive names its subscription document: one
/// error, with an unsafe fix (remove the link).
fn unsealed() -> String {
    atom(
        "https://example.org/archive/2024-02.atom",
        &[("current", "../index.atom"), ("next-archive", "../index.atom")],
        true,
        "t",
    )
}

#[test]
fn the_api_answers_with_the_json_report() {
    let served = Served::start(&[]);
    let agent = agent();
    let mut response = agent
        .post(format!("{}/api/lint?name=archive.atom", served.base))
        .header("Content-Type", "application/atom+xml")
        .send(unsealed().as_bytes())
        .unwrap();
    assert_eq!(response.status(), 200);
    let report: Value = serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
    assert_eq!(report["diagnostics"][0]["rule"], "next-archive-unsealed");
    assert_eq!(report["diagnostics"][0]["file"], "archive.atom");
    assert_eq!(report["summary"]["errors"], 1);
    // The page's verdict and what the document is, in the summary.
    assert_eq!(report["summary"]["valid"], false);
    assert_eq!(report["summary"]["kinds"]["atom"], 1);
    // Several documents as one set: a chain finding across them.
    let index = atom("https://example.org/index.atom", &[], false, "t");
    let archive = atom(
        "https://example.org/2003-11.atom",
        &[("current", "https://example.org/index.atom")],
        true,
        "t",
    );
    let request = json!({ "documents": [
        { "name": "index.atom", "text": index },
        { "name": "2003-11.atom", "text": archive },
    ]});
    let (_, report) = post_api(&agent, &served.base, &request);
    assert_eq!(report["diagnostics"][0]["rule"], "missing-prev-archive", "{report}");
    assert_eq!(report["diagnostics"][0]["spans"][1]["file"], "2003-11.atom");
    // A URL, fetched with its chain.
    let feeds = feeds_server(
        vec![
            (
                "/feed.atom",
                atom("/feed.atom", &[("prev-archive", "/2024-01.atom")], false, "t"),
            ),
            (
                "/2024-01.atom",
                atom("/2024-01.atom", &[("current", "/feed.atom")], true, "t"),
            ),
        ],
        Duration::ZERO,
    );
    let (_, report) = post_api(&agent, &served.base, &json!({ "url": format!("{feeds}/feed.atom") }));
    assert_eq!(report["summary"]["documents"], 2, "{report}");
    assert_eq!(report["summary"]["valid"], true, "{report}");
    assert_eq!(report["summary"]["kinds"]["atom"], 2, "{report}");
    // A failure in people's words, not the network library's.
    let (_, report) = post_api(&agent, &served.base, &json!({ "url": "http://127.0.0.1:9/feed.atom" }));
    let message = report["failures"][0]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("the server refused the connection: nothing answers at 127.0.0.1"),
        "{report}"
    );
    // A request it cannot read is 400, with the reason.
    let (status, error) = post_api(&agent, &served.base, &json!({ "nothing": 1 }));
    assert_eq!(status, 400);
    assert!(error["error"].as_str().unwrap().contains("lint request"), "{error}");
}

/// A podcast whose one episode's file is `enclosure`.
fn podcast(enclosure: &str) -> String {
    format!(
        "<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>Show</title>\
         <link>https://example.org/</link><description>A show.</description>\
         <item><title>One</title><guid isPermaLink=\"false\">one</guid>\
         <enclosure url=\"{enclosure}\" type=\"audio/mpeg\" length=\"5000\"/></item></channel></rss>"
    )
}

#[test]
fn serve_checks_media_only_when_started_with_it() {
    // Every path of this server answers 404.
    let media = feeds_server(Vec::new(), Duration::ZERO);
    let request = json!({ "documents": [{ "name": "feed.rss", "text": podcast(&format!("{media}/ep.mp3")) }] });
    let agent = agent();
    let media_rules = |report: &Value| -> Vec<String> {
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["rule"].as_str().unwrap().to_owned())
            .filter(|rule| rule.starts_with("media-"))
            .collect()
    };
    let plain = Served::start(&[]);
    let (_, report) = post_api(&agent, &plain.base, &request);
    assert_eq!(media_rules(&report), Vec::<String>::new(), "{report}");
    let checking = Served::start(&["--check-media"]);
    let (_, report) = post_api(&agent, &checking.base, &request);
    assert_eq!(media_rules(&report), ["media-unavailable"], "{report}");
    // A stranger's feed never leads the server to a private address.
    let strict = Served::start_with(&["--check-media"]);
    let (_, report) = post_api(&agent, &strict.base, &request);
    assert_eq!(media_rules(&report), ["media-unreachable"], "{report}");
}

#[test]
fn the_server_bounds_bodies_and_jobs() {
    let served = Served::start(&["--jobs", "1", "--max-body", "65536"]);
    let agent = agent();
    // A body over the limit is refused.
    let big = vec![b'x'; 100_000];
    let response = agent
        .post(format!("{}/api/lint", served.base))
        .header("Content-Type", "application/atom+xml")
        .send(big.as_slice())
        .unwrap();
    assert_eq!(response.status(), 413);
    // One job, four waiting: of ten slow checks at once, some are told to
    // come back later, with Retry-After, and the others are answered.
    let slow = feeds_server(vec![("/slow.atom", unsealed())], Duration::from_millis(1500));
    let handles: Vec<_> = (0..10)
        .map(|_| {
            let (agent, base, slow) = (agent.clone(), served.base.clone(), slow.clone());
            std::thread::spawn(move || {
                let response = agent
                    .post(format!("{base}/api/lint"))
                    .header("Content-Type", "application/json")
                    .send(json!({ "url": format!("{slow}/slow.atom") }).to_string().as_bytes())
                    .unwrap();
                (
                    response.status().as_u16(),
                    response.headers().get("retry-after").is_some(),
                )
            })
        })
        .collect();
    let answers: Vec<(u16, bool)> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let busy = answers.iter().filter(|(status, _)| *status == 503).count();
    assert!(busy >= 1, "{answers:?}");
    assert!(answers
        .iter()
        .filter(|(status, _)| *status == 503)
        .all(|(_, retry)| *retry));
    assert!(answers.iter().any(|(status, _)| *status == 200), "{answers:?}");
    // A private address is refused unless the server allows it.
    let strict = Served::start_with(&[]);
    let (_, report) = post_api(&agent, &strict.base, &json!({ "url": format!("{slow}/slow.atom") }));
    let refused = report["failures"][0]["message"].as_str().unwrap_or_default();
    assert!(
        refused.contains("refused to connect to 127.0.0.1, a loopback address"),
        "{report}"
    );
}

/// A raw HTTP/1.1 request of `body` to `path`, on a fresh connection; the
/// status and the whole response.
fn raw_post(base: &str, path: &str, content_type: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let headers = format!("Content-Type: {content_type}\r\nContent-Length: {}\r\n", body.len());
    let response = raw_request(base, &format!("POST {path}"), &headers, body);
    let status = std::str::from_utf8(&response[..12.min(response.len())])
        .ok()
        .and_then(|line| line.get(9..12))
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (status, response)
}

/// A raw HTTP/1.1 request (`METHOD PATH`, more header lines, a body) on a
/// fresh connection that it closes; the whole response.
fn raw_request(base: &str, line: &str, headers: &str, body: &[u8]) -> Vec<u8> {
    use std::io::Read as _;
    let address = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!("{line} HTTP/1.1\r\nHost: {address}\r\n{headers}Connection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    response
}

/// The most resident memory a process has had, in kB.
fn peak_kb(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A `multipart/form-data` body of `files` (name, bytes) as the page's
/// upload form sends them; its content type and the body.
fn multipart(files: &[(String, Vec<u8>)]) -> (String, Vec<u8>) {
    multipart_with(files, None)
}

/// [`multipart`], with the form's "Published under" field where given.
fn multipart_with(files: &[(String, Vec<u8>)], published: Option<&str>) -> (String, Vec<u8>) {
    let boundary = "feedlint-test-boundary";
    let mut body = Vec::new();
    if let Some(published) = published {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"published\"\r\n\r\n{published}\r\n")
                .as_bytes(),
        );
    }
    for (name, bytes) in files {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"{name}\"\r\nContent-Type: application/atom+xml\r\n\r\n").as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

#[test]
fn a_start_tag_over_millions_of_lines_makes_a_small_page() {
    let served = Served::start(&[]);
    // One uploaded feed of nearly 8 MB (the body limit) whose start tag
    // spans 8 million lines, with nothing in it: the findings of what it
    // lacks are at the start tag, and show its first and last lines.
    let mut feed = String::from("<feed xmlns=\"http://www.w3.org/2005/Atom\"");
    feed.push_str(&"\n".repeat(8_000_000));
    feed.push_str("></feed>\n");
    let (content_type, body) = multipart(&[("feed.atom".to_owned(), feed.into_bytes())]);
    assert!(body.len() < 8 * 1024 * 1024);
    let before = peak_kb(served.child.id());
    let (status, page) = raw_post(&served.base, "/upload", &content_type, &body);
    let page = String::from_utf8_lossy(&page);
    assert_eq!(status, 200, "{}", &page[..page.len().min(2000)]);
    assert!(
        page.contains("more lines of the span"),
        "{}",
        &page[..page.len().min(20_000)]
    );
    assert!(page.contains("8000001"), "the span's last line is shown");
    // Measured: 1.3 GB before the lines of a span were bounded.
    assert!(page.len() < 200_000, "a page of {} bytes", page.len());
    // The server holds the text, its tree, findings and a small page: well
    // under 20 times the body (it made a 1.3 GB page, at 2.7 GB, before).
    let grown = peak_kb(served.child.id()).saturating_sub(before);
    assert!(grown < 20 * body.len() / 1024, "the server grew by {grown} kB");
}

#[test]
fn the_page_counts_lines_as_the_command_line_does() {
    let served = Served::start(&[]);
    // Lines ended by a lone CR (old Mac files): the finding is on line 3,
    // and the page shows and marks that line.
    let feed = format!(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\">\r{ATOM_HEAD}\r<link rel=\"prev_archive\" href=\"a.atom\"/></feed>\r"
    );
    let form: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("text", &feed)
        .finish();
    let (status, page) = raw_post(
        &served.base,
        "/check",
        "application/x-www-form-urlencoded",
        form.as_bytes(),
    );
    let page = String::from_utf8_lossy(&page);
    assert_eq!(status, 200);
    assert!(page.contains("line 3, column"), "{page}");
    assert!(
        page.contains(
            "<span class=\"line-number\" aria-hidden=\"true\">3</span>&lt;link rel=&quot;<mark>prev_archive</mark>"
        ),
        "{page}"
    );
}

#[test]
fn a_page_of_many_findings_shows_what_fits_and_says_how_many_more() {
    let served = Served::start(&[]);
    // Twenty uploaded feeds of 150 entries, each entry with findings that
    // quote a long value: 2,000 findings (the server's most), each a few
    // kilobytes of page.
    let long = "x".repeat(900);
    let entries: String = (0..150)
        .map(|n| {
            format!(
                "<entry><title>{long}</title><id>urn:e:{n}</id><id>urn:f:{n}</id><updated>bad {long}</updated></entry>"
            )
        })
        .collect();
    let feed = format!("<feed xmlns=\"http://www.w3.org/2005/Atom\">{ATOM_HEAD}{entries}</feed>");
    let files: Vec<(String, Vec<u8>)> = (0..20)
        .map(|n| (format!("f{n}.atom"), feed.clone().into_bytes()))
        .collect();
    let (content_type, body) = multipart(&files);
    let (status, page) = raw_post(&served.base, "/upload", &content_type, &body);
    let page = String::from_utf8_lossy(&page);
    assert_eq!(status, 200, "{}", &page[..page.len().min(3000)]);
    assert!(page.len() < 3 * 1024 * 1024, "a page of {} bytes", page.len());
    // Each finding is shown (a card for each rule, a line for each
    // repeat), or the page says how many of a document's it leaves out.
    let shown = page.matches("data-rule=\"").count();
    assert!(
        shown >= 2000 || page.contains("of this document not shown here"),
        "{shown} findings shown: {}",
        &page[page.len().saturating_sub(5000)..]
    );
}

/// A raw HTTP/1.1 GET with `headers`; the whole response.
fn raw_get(base: &str, path: &str, headers: &str) -> Vec<u8> {
    raw_request(base, &format!("GET {path}"), headers, b"")
}

/// A response's head, lower-cased, and its body.
fn split_response(response: &[u8]) -> (String, &[u8]) {
    let end = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    (
        String::from_utf8_lossy(&response[..end]).to_lowercase(),
        &response[end + 4..],
    )
}

#[test]
fn pages_forbid_scripts_and_framing_and_downloads_are_compressed() {
    use std::io::Read as _;
    let served = Served::start(&[]);
    let form: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("text", &unsealed())
        .append_pair("published", "//dave:SECRET@example.org/feed.atom")
        .finish();
    let (status, page) = raw_post(
        &served.base,
        "/check",
        "application/x-www-form-urlencoded",
        form.as_bytes(),
    );
    let (head, body) = split_response(&page);
    let body = String::from_utf8_lossy(body).into_owned();
    // The "Published at" URL is not a URL here, and its password is not shown.
    assert!(!body.contains("SECRET"), "{body}");
    assert_eq!(status, 400, "{head}");
    let form: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("text", &unsealed())
        .append_pair("published", "https://dave:SECRET@example.org/feed.atom")
        .finish();
    let (status, page) = raw_post(
        &served.base,
        "/check",
        "application/x-www-form-urlencoded",
        form.as_bytes(),
    );
    let page = String::from_utf8_lossy(&page).into_owned();
    assert_eq!(status, 200);
    assert!(
        page.contains("dave:***@example.org") && !page.contains("SECRET"),
        "{page}"
    );
    for path in ["/", "/no-such-page", "/rules"] {
        let (head, _) = split_response(&raw_get(&served.base, path, ""));
        assert!(
            head.contains("content-security-policy: default-src 'self'; frame-ancestors 'none'"),
            "{path}: {head}"
        );
        assert!(head.contains("x-content-type-options: nosniff"), "{path}: {head}");
        assert!(head.contains("x-frame-options: deny"), "{path}: {head}");
    }
    // A run's downloads: gzip to a client that accepts it, plain to others.
    let form: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("text", &unsealed())
        .finish();
    let (status, page) = raw_post(
        &served.base,
        "/check",
        "application/x-www-form-urlencoded",
        form.as_bytes(),
    );
    assert_eq!(status, 200);
    let page = String::from_utf8_lossy(&page).into_owned();
    let at = page.find("/runs/").unwrap();
    let id = &page[at + "/runs/".len()..at + "/runs/".len() + 32];
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    for file in ["report.json", "report.sarif"] {
        let path = format!("/runs/{id}/{file}");
        let plain = raw_get(&served.base, &path, "");
        let (head, body) = split_response(&plain);
        assert!(!head.contains("content-encoding"), "{head}");
        let report: Value = serde_json::from_slice(body).unwrap();
        let gzipped = raw_get(&served.base, &path, "Accept-Encoding: br, gzip\r\n");
        let (head, compressed) = split_response(&gzipped);
        assert!(head.contains("content-encoding: gzip"), "{head}");
        assert!(compressed.len() < body.len(), "{} vs {}", compressed.len(), body.len());
        let mut unzipped = Vec::new();
        flate2::read::GzDecoder::new(compressed)
            .read_to_end(&mut unzipped)
            .unwrap();
        assert_eq!(serde_json::from_slice::<Value>(&unzipped).unwrap(), report);
    }
}

#[test]
fn serve_applies_a_whole_config_or_refuses_it_at_start() {
    let dir = scratch("serve-config");
    // Levels and selection apply to every check: the unsealed archive's
    // finding is turned off.
    let config = dir.join("feedlint.toml");
    std::fs::write(&config, "[rules]\nnext-archive-unsealed = \"off\"\n").unwrap();
    let served = Served::start(&["--config", config.to_str().unwrap()]);
    let (status, report) = post_api(
        &agent(),
        &served.base,
        &json!({ "documents": [{ "name": "a.atom", "text": unsealed() }] }),
    );
    assert_eq!(status, 200);
    let rules: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert!(!rules.contains(&"next-archive-unsealed"), "{report}");
    // What names files or folders cannot apply, and is said at once.
    for line in ["exclude = [\"drafts/\"]", "base-url = \"https://example.org/\""] {
        std::fs::write(&config, format!("{line}\n")).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_feedlint"))
            .args(["serve", "--listen", "127.0.0.1:0", "--config", config.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(10) {
                let _ = child.kill();
                panic!("the server started with {line:?} in its config");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{line}");
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(said.contains("cannot apply to `feedlint serve`"), "{said}");
    }
}

#[test]
fn slow_bodies_hold_no_job_slot() {
    let served = Served::start(&["--jobs", "1"]);
    // Ten clients trickle a body a byte every 300 ms: more than the one
    // job and its four places in the queue.
    let address = served.base.trim_start_matches("http://").to_owned();
    let trickles: Vec<_> = (0..10)
        .map(|_| {
            let address = address.clone();
            std::thread::spawn(move || {
                use std::io::Read as _;
                let mut stream = TcpStream::connect(&address).unwrap();
                let head = format!("POST /api/lint HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/atom+xml\r\nContent-Length: 1000\r\n\r\n");
                stream.write_all(head.as_bytes()).unwrap();
                let started = Instant::now();
                stream.set_read_timeout(Some(Duration::from_millis(300))).unwrap();
                let mut response = Vec::new();
                while started.elapsed() < Duration::from_secs(30) {
                    if stream.write_all(b" ").is_err() {
                        break;
                    }
                    let mut buffer = [0; 4096];
                    match stream.read(&mut buffer) {
                        Ok(0) => break,
                        Ok(n) => response.extend_from_slice(&buffer[..n]),
                        Err(_) => {}
                    }
                    if !response.is_empty() {
                        break;
                    }
                }
                (String::from_utf8_lossy(&response).into_owned(), started.elapsed())
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    // Meanwhile, another client's ordinary check is answered at once.
    let started = Instant::now();
    let feed = unsealed();
    let mut paste = connect_from("127.0.0.2", &served.base);
    let post = format!(
        "POST /api/lint HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/atom+xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{feed}",
        feed.len()
    );
    paste.write_all(post.as_bytes()).unwrap();
    assert_eq!(status_of(&mut paste), 200);
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    // The tricklers' address holds its share of the readers (8), cut off
    // soon after the grace period; its others were refused at once.
    let mut cut = 0;
    for trickle in trickles {
        let (response, took) = trickle.join().unwrap();
        assert!(
            response.starts_with("HTTP/1.1 408") || response.starts_with("HTTP/1.1 503"),
            "{response}"
        );
        cut += usize::from(response.starts_with("HTTP/1.1 408"));
        assert!(took < Duration::from_secs(15), "{took:?}");
    }
    assert_eq!(cut, 8);
}

#[test]
fn idle_connections_time_out_and_never_keep_a_newcomer_out() {
    use std::io::Read as _;
    let served = Served::start(&["--header-timeout", "2", "--max-connections", "64"]);
    let address = served.base.trim_start_matches("http://").to_owned();
    // 300 connections: half send nothing, half their headers a byte at a
    // time; far past the cap of 64.
    let mut held: Vec<TcpStream> = (0..300)
        .map(|n| {
            let mut stream = TcpStream::connect(&address).unwrap();
            if n % 2 == 1 {
                let _ = stream.write_all(b"GET / HT");
            }
            stream
        })
        .collect();
    // A newcomer gets its page in under a second.
    let started = Instant::now();
    let response = agent().get(format!("{}/", served.base)).call().unwrap();
    assert_eq!(response.status(), 200);
    assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
    // The last connection held, idle, is closed by the header timeout.
    let last = held.last_mut().unwrap();
    last.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let started = Instant::now();
    let mut buffer = [0; 256];
    let read = last.read(&mut buffer);
    assert!(
        matches!(read, Ok(0)) || read.is_err() || String::from_utf8_lossy(&buffer).contains("408"),
        "{read:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    // A kept-alive connection that asks nothing more is closed as soon.
    let mut kept = TcpStream::connect(&address).unwrap();
    kept.write_all(format!("GET / HTTP/1.1\r\nHost: {address}\r\n\r\n").as_bytes())
        .unwrap();
    kept.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut page = Vec::new();
    let started = Instant::now();
    let _ = kept.read_to_end(&mut page);
    assert!(String::from_utf8_lossy(&page).starts_with("HTTP/1.1 200"));
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
}

/// chromedriver on a free loopback port, stopped when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn chromedriver() -> Option<Driver> {
    let driver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .into_iter()
        .find(|path| Path::new(path).is_file())?;
    let port = TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if started.elapsed() > Duration::from_secs(20) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Some(Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_page_in_a_real_browser() {
    let Some(driver) = chromedriver().filter(|_| Path::new("/usr/bin/chromium").is_file()) else {
        assert!(
            std::env::var_os("FEEDLINT_BROWSER_REQUIRED").is_none(),
            "FEEDLINT_BROWSER_REQUIRED is set, but chromium or chromedriver is missing"
        );
        let _ = writeln!(
            std::io::stderr(),
            "web: skipped the browser test: Debian's chromium and chromium-driver are not installed"
        );
        return;
    };
    let served = Served::start(&[]);
    let client = session(&driver, "chromium-profile", &[]).await;
    let mut result = browse(&client, &served.base).await;
    if result.is_ok() {
        result = beginners_paths(&client, &served.base).await;
    }
    if result.is_ok() {
        result = every_page_type_accessible(&client, &served.base, "light").await;
    }
    if result.is_ok() {
        result = the_other_items_on_the_page(&client, &served.base).await;
    }
    if result.is_ok() {
        result = a_json_feed_pasted(&client, &served.base).await;
    }
    if result.is_ok() {
        let small = Served::start(&["--max-body", "1048576"]);
        result = a_paste_too_large(&client, &small.base).await;
    }
    if result.is_ok() {
        let checking = Served::start(&["--check-media"]);
        result = media_checked(&client, &checking.base).await;
    }
    let _ = client.close().await;
    if result.is_ok() {
        let dark = session(&driver, "chromium-profile-dark", &["--force-dark-mode"]).await;
        result = in_the_dark(&dark, &served.base).await;
        if result.is_ok() {
            result = every_page_type_accessible(&dark, &served.base, "dark").await;
        }
        let _ = dark.close().await;
    }
    drop(driver);
    result.unwrap();
}

/// How the matrix reaches a kind of page.
enum Reach {
    Get(String),
    Paste(String),
    Upload(Vec<std::path::PathBuf>),
    /// The first link `css` finds on the page reached before.
    Follow(&'static str),
}

/// axe-core on every kind of page the server makes, in the colour scheme
/// the session has, at a desktop's and a phone's width: 0 violations, and
/// no page wider than a phone's screen.
async fn every_page_type_accessible(
    client: &fantoccini::Client,
    base: &str,
    scheme: &str,
) -> Result<(), fantoccini::error::CmdError> {
    let Some(axe) = axe_script() else { return Ok(()) };
    let feeds = feeds_server(
        vec![("/feed.atom", atom("https://example.org/old/feed.atom", &[], false, "t"))],
        Duration::ZERO,
    );
    let chain = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/sets/valid/atom-chain");
    let pages = [
        ("the front page", Reach::Get("/".to_owned())),
        ("the API page", Reach::Get("/api".to_owned())),
        ("the fetch help", Reach::Get("/help/fetching".to_owned())),
        ("the rules", Reach::Get("/rules".to_owned())),
        ("a rule", Reach::Get("/rules/archive-link-dangling".to_owned())),
        ("an unknown rule", Reach::Get("/rules/archive-orphn".to_owned())),
        (
            "a valid paste",
            Reach::Paste(atom("https://example.org/feed.atom", &[], false, "t")),
        ),
        ("a result with a fix", Reach::Paste(unsealed())),
        ("the numbered source", Reach::Follow("a.place")),
        ("a result of many findings", Reach::Paste(blog_with_bad_items(60))),
        ("a checked URL", Reach::Get(format!("/check?url={feeds}/feed.atom"))),
        (
            "an unreachable URL",
            Reach::Get("/check?url=http://127.0.0.1:9/feed.atom".to_owned()),
        ),
        (
            "a refused URL",
            Reach::Get("/check?url=ftp://example.org/feed".to_owned()),
        ),
        (
            "an upload",
            Reach::Upload(vec![chain.join("index.atom"), chain.join("archive/2003-11.atom")]),
        ),
        ("an upload of nothing", Reach::Upload(Vec::new())),
        ("a download gone", Reach::Get("/runs/gone/report.json".to_owned())),
    ];
    for (width, height) in [(1200, 1600), (375, 800)] {
        client.set_window_size(width, height).await?;
        for (what, reach) in &pages {
            match reach {
                Reach::Get(path) => client.goto(&format!("{base}{path}")).await?,
                Reach::Paste(text) => {
                    client.goto(&format!("{base}/")).await?;
                    fill_and_submit(client, "text", text).await?;
                    wait_for_page(client, "/check").await?;
                }
                Reach::Upload(files) => {
                    let files: Vec<&Path> = files.iter().map(|file| file.as_path()).collect();
                    upload(client, base, &files).await?;
                }
                Reach::Follow(css) => {
                    let href = client.find(fantoccini::Locator::Css(css)).await?.attr("href").await?;
                    client.goto(&format!("{base}{}", href.unwrap_or_default())).await?;
                }
            }
            client
                .wait()
                .at_most(Duration::from_secs(30))
                .for_element(fantoccini::Locator::Css("footer"))
                .await?;
            let violations = accessibility_violations(client, &axe).await?;
            assert!(
                violations.is_empty(),
                "axe-core on {what}, {scheme}, {width} px wide: {violations:#?}"
            );
            let widths = client
                .execute(
                    "return [document.documentElement.scrollWidth, window.innerWidth];",
                    vec![],
                )
                .await?;
            assert!(
                widths[0].as_u64() <= widths[1].as_u64(),
                "{what}, {scheme}, {width} px wide, is wider than the screen: {widths}"
            );
        }
    }
    client.set_window_size(1200, 1600).await?;
    Ok(())
}

/// What the page says and does, read in the browser: the self link held
/// to "Published at", a refused connection in people's words, the kind of
/// document named, the verdict and findings as headings, the source box
/// in words, a finding's line in the numbered source, the badge shown on
/// a valid result, skipped files named, chains in order, and the fixed
/// file's count.
async fn the_other_items_on_the_page(
    client: &fantoccini::Client,
    base: &str,
) -> Result<(), fantoccini::error::CmdError> {
    let rules_shown = || async {
        let mut rules = Vec::new();
        for rule in client
            .find_all(fantoccini::Locator::Css("article.finding a.rule"))
            .await?
        {
            rules.push(rule.text().await?);
        }
        Ok::<_, fantoccini::error::CmdError>(rules)
    };
    // "Published at" holds the self link to it.
    client.goto(&format!("{base}/")).await?;
    client
        .execute(
            "document.getElementById('published').value = arguments[0];",
            vec![json!("https://example.org/feed.atom")],
        )
        .await?;
    fill_and_submit(
        client,
        "text",
        &atom("https://example.org/old/feed.atom", &[], false, "t"),
    )
    .await?;
    wait_for_page(client, "/check").await?;
    assert_eq!(rules_shown().await?, ["self-link-mismatch"]);
    // A refused connection, in people's words.
    client.goto(&format!("{base}/")).await?;
    fill_and_submit(client, "url", "127.0.0.1:9/feed.atom").await?;
    wait_for_page(client, "/check").await?;
    let said = text_of(client, "main").await?;
    assert!(said.contains("the server refused the connection"), "{said}");
    // The kind named; the verdict and each finding headings; the source
    // box said in words, its numbers not read out.
    client.goto(&format!("{base}/")).await?;
    let old_rss = "<rss version=\"0.91\"><channel><title>t</title><link>https://example.org/</link>\n<description>d</description><language>en</language>\n<item><title>t</title><pubDate>soon</pubDate></item></channel></rss>";
    fill_and_submit(client, "text", old_rss).await?;
    wait_for_page(client, "/check").await?;
    let read = client
        .execute(
            "return [document.querySelector('.verdict p').textContent, \
                     document.querySelector('.verdict h2.big').textContent, \
                     document.querySelectorAll('article.finding h3').length > 0, \
                     document.querySelector('p.sr-only').textContent, \
                     [...document.querySelectorAll('pre.source .line-number')].every(n => n.getAttribute('aria-hidden') == 'true')];",
            vec![],
        )
        .await?;
    assert!(
        read[0].as_str().unwrap_or_default().starts_with("RSS 0.91 feed:"),
        "{read}"
    );
    assert_eq!(read[1], json!("Not valid"), "{read}");
    assert_eq!(read[2], json!(true), "{read}");
    assert!(
        read[3].as_str().unwrap_or_default().starts_with("Source, lines "),
        "{read}"
    );
    assert_eq!(read[4], json!(true), "{read}");
    // A finding's line leads to that line of the numbered source.
    let place = client.find(fantoccini::Locator::Css("article.finding a.place")).await?;
    let line = place.text().await?;
    place.click().await?;
    wait_for_page(client, "/runs/").await?;
    let target = client
        .execute(
            "const t = document.querySelector('li:target'); return [t.id, t.textContent];",
            vec![],
        )
        .await?;
    let number = line.trim_start_matches("line ").split(',').next().unwrap();
    assert_eq!(target[0], json!(format!("L{number}")), "{line}: {target}");
    assert!(target[1].as_str().unwrap_or_default().contains("<item>"), "{target}");
    // A valid URL's result shows its badge, from the verdict just made.
    let feeds = feeds_server(
        vec![("/feed.atom", atom("/feed.atom", &[], false, "t"))],
        Duration::ZERO,
    );
    client.goto(&format!("{base}/")).await?;
    fill_and_submit(client, "url", &format!("{feeds}/feed.atom")).await?;
    wait_for_page(client, "/check").await?;
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(fantoccini::Locator::Css("section.share img"))
        .await?;
    let shown = client
        .execute(
            "const img = document.querySelector('section.share img'); \
             return img.decode().then(() => [img.naturalWidth, img.alt]).catch(e => [0, String(e)]);",
            vec![],
        )
        .await?;
    assert_eq!(shown, json!([84, "The badge: feed, valid"]));
    // A folder with a file that is no feed names it, and lists the
    // documents as their chains run.
    let site = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/site");
    upload_folder(client, base, &site).await?;
    let said = text_of(client, "p.hint").await?;
    assert_eq!(said, "sitemap.xml was skipped: it is no feed.");
    let order = client
        .execute(
            "return [...document.querySelectorAll('section.document h2')].map(h => h.textContent);",
            vec![],
        )
        .await?;
    assert_eq!(
        order,
        json!([
            "feed/index.atom",
            "feed/archive/2024-02.atom",
            "feed/archive/2024-01.atom",
            "podcast/index.rss",
            "podcast/archive/2023.rss"
        ])
    );
    // The fixed file says what it holds and what it left out.
    client.goto(&format!("{base}/")).await?;
    let both = unsealed().replace("<fh:archive/>", "<fh:archive>true</fh:archive>");
    fill_and_submit(client, "text", &both).await?;
    wait_for_page(client, "/check").await?;
    let fixed = text_of(client, "p.downloads.fixed").await?;
    assert!(
        fixed.contains("with 1 fix applied, each safe to apply. 1 fix left out: it changes what the feed says"),
        "{fixed}"
    );
    Ok(())
}

/// A paste over the server's limit, refused unread: the page says so and
/// gives the URL form, and Back returns to the paste, filled in still.
async fn a_paste_too_large(client: &fantoccini::Client, base: &str) -> Result<(), fantoccini::error::CmdError> {
    client.goto(&format!("{base}/")).await?;
    let paste = format!(
        "<rss version=\"2.0\"><channel>{}</channel></rss>",
        "<!-- x -->".repeat(150_000)
    );
    fill_and_submit(client, "text", &paste).await?;
    wait_for_page(client, "/check").await?;
    assert_eq!(text_of(client, "h1").await?, "Too large");
    let said = text_of(client, "p.problem").await?;
    assert!(
        said.contains("Your browser's Back button returns to the form as you sent it"),
        "{said}"
    );
    client.find(fantoccini::Locator::Css("#again-url")).await?;
    client.back().await?;
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(fantoccini::Locator::Css("#text"))
        .await?;
    let kept = client
        .execute("return document.getElementById('text').value.length;", vec![])
        .await?;
    assert_eq!(
        kept.as_u64(),
        Some(paste.len() as u64),
        "the paste is in its form again"
    );
    Ok(())
}

/// A server started with `--check-media`: its page says so, and a pasted
/// podcast whose episode file is missing shows the finding in the page's
/// words.
async fn media_checked(client: &fantoccini::Client, base: &str) -> Result<(), fantoccini::error::CmdError> {
    let media = feeds_server(Vec::new(), Duration::ZERO);
    client.goto(&format!("{base}/")).await?;
    let said = text_of(client, "p.lead.media").await?;
    assert!(said.starts_with("This server also checks a podcast's media"), "{said}");
    fill_and_submit(client, "text", &podcast(&format!("{media}/ep.mp3"))).await?;
    wait_for_page(client, "/check").await?;
    let rules = client
        .find_all(fantoccini::Locator::Css("article.finding a.rule"))
        .await?;
    let mut names = Vec::new();
    for rule in rules {
        names.push(rule.text().await?);
    }
    assert!(names.iter().any(|name| name == "media-unavailable"), "{names:?}");
    let page = client.source().await?;
    assert!(page.contains(&format!("{media}/ep.mp3 answers HTTP 404")), "{page}");
    Ok(())
}

/// A WebDriver session with headless Chromium, with `extra` arguments.
async fn session(driver: &Driver, profile: &str, extra: &[&str]) -> fantoccini::Client {
    let profile = scratch(profile);
    let mut args = vec![
        "--headless".to_owned(),
        "--no-sandbox".to_owned(),
        "--disable-gpu".to_owned(),
        "--disable-dev-shm-usage".to_owned(),
        "--disable-background-networking".to_owned(),
        "--disable-component-update".to_owned(),
        "--disable-sync".to_owned(),
        "--no-first-run".to_owned(),
        "--window-size=1200,1600".to_owned(),
        format!("--user-data-dir={}", profile.display()),
    ];
    args.extend(extra.iter().map(|arg| (*arg).to_owned()));
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_owned(),
        json!({ "binary": "/usr/bin/chromium", "args": args }),
    );
    fantoccini::ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&driver.url)
        .await
        .expect("a WebDriver session with headless Chromium")
}

/// A result page where the system is dark: the page is dark too, its text
/// light; a screenshot of it is kept beside the light one.
async fn in_the_dark(client: &fantoccini::Client, base: &str) -> Result<(), fantoccini::error::CmdError> {
    client.goto(&format!("{base}/")).await?;
    fill_and_submit(client, "text", &unsealed()).await?;
    wait_for_page(client, "/check").await?;
    let colours = client
        .execute(
            "const s = getComputedStyle(document.body); return [matchMedia('(prefers-color-scheme: dark)').matches, s.backgroundColor, s.color];",
            vec![],
        )
        .await?;
    assert_eq!(colours[0], json!(true), "{colours}");
    let brightness = |css: &Value| -> u32 {
        let digits: Vec<u32> = css
            .as_str()
            .unwrap_or_default()
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse().ok())
            .take(3)
            .collect();
        digits.iter().sum()
    };
    assert!(
        brightness(&colours[1]) < 150 && brightness(&colours[2]) > 450,
        "{colours}"
    );
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join("result-page-dark.png"), client.screenshot().await?).unwrap();
    // The marked text is the page's light ink on the dark mark, not the
    // browser's black (2.83:1).
    let mark = client
        .execute(
            "return getComputedStyle(document.querySelector('pre.source mark')).color;",
            vec![],
        )
        .await?;
    assert!(brightness(&mark) > 450, "{mark}");
    if let Some(axe) = axe_script() {
        let violations = accessibility_violations(client, &axe).await?;
        assert!(violations.is_empty(), "axe-core on a dark result: {violations:#?}");
    }
    // On a phone's width, no page is wider than the screen: a result with
    // its source and fix, the rules' table, the front page.
    client.set_window_size(375, 800).await?;
    let result = client.current_url().await?.to_string();
    for address in [result, format!("{base}/rules"), format!("{base}/")] {
        if !address.ends_with("/check") {
            client.goto(&address).await?;
        }
        let widths = client
            .execute(
                "return [document.documentElement.scrollWidth, window.innerWidth];",
                vec![],
            )
            .await?;
        assert!(widths[0].as_u64() <= widths[1].as_u64(), "{address}: {widths}");
        if let Some(axe) = axe_script() {
            let violations = accessibility_violations(client, &axe).await?;
            assert!(
                violations.is_empty(),
                "axe-core on {address}, dark, on a phone: {violations:#?}"
            );
        }
    }
    std::fs::write(shots.join("front-page-dark-phone.png"), client.screenshot().await?).unwrap();
    Ok(())
}

/// The text of the first element `css` finds, waiting for it to appear
/// (after a click, the next page loads, and an element found on the page
/// that is going away goes stale: it is looked for again).
async fn text_of(client: &fantoccini::Client, css: &str) -> Result<String, fantoccini::error::CmdError> {
    let started = Instant::now();
    loop {
        let found = client
            .wait()
            .at_most(Duration::from_secs(30))
            .for_element(fantoccini::Locator::Css(css))
            .await;
        match found {
            Ok(element) => match element.text().await {
                Err(e) if e.is_stale_element_reference() && started.elapsed() < Duration::from_secs(30) => continue,
                text => return text,
            },
            Err(e) => return Err(e),
        }
    }
}

/// Waits for the page at a path starting with `path` to be the one shown.
async fn wait_for_page(client: &fantoccini::Client, path: &str) -> Result<(), fantoccini::error::CmdError> {
    let started = Instant::now();
    while !client.current_url().await?.path().starts_with(path) {
        if started.elapsed() > Duration::from_secs(30) {
            panic!("no page at {path} came: {}", client.current_url().await?);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(fantoccini::Locator::Css("footer"))
        .await?;
    Ok(())
}

/// Fills a field through the DOM (typing a whole feed key by key would only
/// be slower), then submits its form with a click, as a person would.
async fn fill_and_submit(
    client: &fantoccini::Client,
    field: &str,
    value: &str,
) -> Result<(), fantoccini::error::CmdError> {
    client
        .execute(
            "document.getElementById(arguments[0]).value = arguments[1];",
            vec![json!(field), json!(value)],
        )
        .await?;
    let form = client
        .find(fantoccini::Locator::Css(&format!("#{field}")))
        .await?
        .find(fantoccini::Locator::XPath("ancestor::form"))
        .await?;
    form.find(fantoccini::Locator::Css("button[type=submit]"))
        .await?
        .click()
        .await
}

/// A JSON Feed pasted: its verdict, what it is, and its finding's rule and
/// marked source, as for XML.
async fn a_json_feed_pasted(client: &fantoccini::Client, base: &str) -> Result<(), fantoccini::error::CmdError> {
    client.goto(&format!("{base}/")).await?;
    let feed = "{\n  \"version\": \"https://jsonfeed.org/version/1.1\",\n  \"title\": \"Example\",\n  \"home_page_url\": \"see our site\",\n  \"items\": []\n}\n";
    fill_and_submit(client, "text", feed).await?;
    wait_for_page(client, "/check").await?;
    assert_eq!(text_of(client, ".verdict .big").await?, "Not valid");
    let rule = client.find(fantoccini::Locator::Css("article.finding a.rule")).await?;
    assert_eq!(rule.text().await?, "json-feed-invalid-url");
    assert_eq!(
        text_of(client, "article.finding pre.source mark").await?,
        "\"see our site\""
    );
    let page = client.source().await?;
    assert!(page.contains("JSON Feed"), "the page names what it checked");
    Ok(())
}

/// Chooses a whole folder in the upload form, and sends it.
async fn upload_folder(
    client: &fantoccini::Client,
    base: &str,
    folder: &Path,
) -> Result<(), fantoccini::error::CmdError> {
    client.goto(&format!("{base}/")).await?;
    let input = client.find(fantoccini::Locator::Css("#folder")).await?;
    input.send_keys(&folder.display().to_string()).await?;
    input
        .find(fantoccini::Locator::XPath("ancestor::form//button[@type='submit']"))
        .await?
        .click()
        .await?;
    wait_for_page(client, "/upload").await
}

/// Chooses files in the upload form, as a person picks them, and sends them.
async fn upload(client: &fantoccini::Client, base: &str, files: &[&Path]) -> Result<(), fantoccini::error::CmdError> {
    client.goto(&format!("{base}/")).await?;
    let field = client.find(fantoccini::Locator::Css("#files")).await?;
    let paths: Vec<String> = files.iter().map(|path| path.display().to_string()).collect();
    if paths.is_empty() {
        // No files chosen: the browser holds the form back (its field is
        // required); sent all the same, as an old browser would, the
        // server's page says what is missing.
        client
            .execute("document.getElementById('files').form.noValidate = true;", vec![])
            .await?;
    } else {
        field.send_keys(&paths.join("\n")).await?;
    }
    field
        .find(fantoccini::Locator::XPath("ancestor::form//button[@type='submit']"))
        .await?
        .click()
        .await?;
    wait_for_page(client, "/upload").await
}

async fn browse(client: &fantoccini::Client, base: &str) -> Result<(), fantoccini::error::CmdError> {
    // 1. By direct input: the verdict, the rule id linked to its
    // documentation, the marked source line, the fix as a diff.
    client.goto(&format!("{base}/")).await?;
    assert_eq!(text_of(client, "h1").await?, "Check a feed");
    fill_and_submit(client, "text", &unsealed()).await?;
    wait_for_page(client, "/check").await?;
    assert_eq!(text_of(client, ".verdict .big").await?, "Not valid");
    let rule = client.find(fantoccini::Locator::Css("article.finding a.rule")).await?;
    assert_eq!(rule.text().await?, "next-archive-unsealed");
    assert_eq!(
        rule.attr("href").await?.as_deref(),
        Some("/rules/next-archive-unsealed")
    );
    assert_eq!(
        text_of(client, "article.finding pre.source mark").await?,
        "../index.atom"
    );
    let marked_line = client
        .execute(
            "return document.querySelector('article.finding pre.source mark').parentElement.textContent.split('\\n').find(l => l.includes('../index.atom') && l.includes('next-archive'));",
            vec![],
        )
        .await?;
    assert!(
        marked_line
            .as_str()
            .unwrap()
            .contains("<link rel=\"next-archive\" href=\"../index.atom\"/>"),
        "{marked_line}"
    );
    let removed = text_of(client, "details.fix pre.diff .del").await?;
    assert!(
        removed.starts_with('-') && removed.contains("next-archive"),
        "{removed}"
    );
    let screenshot = client.screenshot().await?;
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join("result-page.png"), &screenshot).unwrap();
    if std::env::var_os("FEEDLINT_UPDATE_SCREENSHOT").is_some() {
        std::fs::write(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/result-page.png"),
            &screenshot,
        )
        .unwrap();
    }
    // The JSON download is the same run's report.
    let json_link = client
        .find(fantoccini::Locator::Css(".downloads a[href$='report.json']"))
        .await?
        .attr("href")
        .await?
        .unwrap();
    let mut response = agent().get(format!("{base}{json_link}")).call().unwrap();
    let report: Value = serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
    assert_eq!(report["diagnostics"][0]["rule"], "next-archive-unsealed");
    // The rule's documentation, served by the binary.
    client.goto(&format!("{base}/rules/next-archive-unsealed")).await?;
    assert_eq!(text_of(client, "main h1").await?, "next-archive-unsealed");
    assert_eq!(text_of(client, "section.rule-doc h2").await?, "What it means");

    // 1b. A podcast is named as one: it is held to more than other RSS.
    client.goto(&format!("{base}/")).await?;
    let podcast = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/rules/itunes-invalid-language/fail-countries.rss"),
    )
    .unwrap();
    fill_and_submit(client, "text", &podcast).await?;
    wait_for_page(client, "/check").await?;
    let verdict = text_of(client, ".verdict").await?;
    assert!(verdict.contains("RSS 2.0 podcast: 2 errors"), "{verdict}");

    // 2. By upload: two files checked together, a chain finding across them.
    let dir = scratch("web-upload");
    let index = dir.join("index.atom");
    let archive = dir.join("2003-11.atom");
    std::fs::write(&index, atom("https://example.org/index.atom", &[], false, "t")).unwrap();
    std::fs::write(
        &archive,
        atom(
            "https://example.org/2003-11.atom",
            &[("current", "https://example.org/index.atom")],
            true,
            "t",
        ),
    )
    .unwrap();
    upload(client, base, &[&index, &archive]).await?;
    assert_eq!(text_of(client, "h1 .checked").await?, "2 uploaded files");
    assert_eq!(text_of(client, "article.finding a.rule").await?, "missing-prev-archive");
    let related = text_of(client, "article.finding ul.related").await?;
    assert!(related.contains("2003-11.atom"), "{related}");

    // 3. By URL: a loopback server's feed, its archive followed; the page
    // has an address that can be shared.
    let feeds = feeds_server(
        vec![
            (
                "/feed.atom",
                atom("/feed.atom", &[("prev-archive", "/2024-01.atom")], false, "t"),
            ),
            (
                "/2024-01.atom",
                atom(
                    "/2024-01.atom",
                    &[("current", "/feed.atom"), ("next-archive", "/feed.atom")],
                    true,
                    "t",
                ),
            ),
        ],
        Duration::ZERO,
    );
    client.goto(&format!("{base}/")).await?;
    fill_and_submit(client, "url", &format!("{feeds}/feed.atom")).await?;
    wait_for_page(client, "/check").await?;
    let address = client.current_url().await?;
    assert!(address.as_str().starts_with(&format!("{base}/check?url=")), "{address}");
    assert_eq!(text_of(client, ".verdict .big").await?, "Not valid");
    let documents = client.find_all(fantoccini::Locator::Css("section.document h2")).await?;
    assert_eq!(documents.len(), 2, "the archive is followed");
    assert_eq!(
        text_of(client, "article.finding a.rule").await?,
        "next-archive-unsealed"
    );

    // 4. Markup in a feed, a file name or a URL is shown as text, never run.
    let hostile = atom(
        "https://example.org/index.atom",
        &[("prev-archive", "https://example.org/index.atom")],
        false,
        "<![CDATA[<script>window.__pwned = 1</script>]]>",
    );
    let nothing_ran = "return [window.__pwned, document.querySelectorAll('script, img').length];";
    client.goto(&format!("{base}/")).await?;
    fill_and_submit(client, "text", &hostile).await?;
    wait_for_page(client, "/check").await?;
    let page_text = text_of(client, "main").await?;
    assert!(
        page_text.contains("<script>window.__pwned = 1</script>"),
        "shown as text: {page_text}"
    );
    assert_eq!(client.execute(nothing_ran, vec![]).await?, json!([null, 0]));
    let named = dir.join("<img src=x onerror=window.__pwned=1>.atom");
    std::fs::write(&named, &hostile).unwrap();
    upload(client, base, &[&named]).await?;
    assert!(text_of(client, "h1 .checked").await?.contains("<img src=x onerror"));
    assert_eq!(client.execute(nothing_ran, vec![]).await?, json!([null, 0]));
    for (query, shown) in [
        // Not a URL: said so, the text as given.
        (
            "%3Cscript%3Ewindow.__pwned=1%3C/script%3E",
            "<script>window.__pwned=1</script>",
        ),
        // A URL: shown as it parses, percent-encoded.
        (
            "http://127.0.0.1:1/%3Cscript%3Ewindow.__pwned=1%3C/script%3E",
            "/%3Cscript%3Ewindow.__pwned=1%3C/script%3E",
        ),
    ] {
        client.goto(&format!("{base}/check?url={query}")).await?;
        let text = text_of(client, "main").await?;
        assert!(text.contains(shown), "{text}");
        assert_eq!(client.execute(nothing_ran, vec![]).await?, json!([null, 0]));
    }
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

/// The files of a testsuite set, each as a browser names it: by its file
/// name alone (files chosen one by one), or by its path in the folder
/// chosen, the folder first.
fn set_files(set: &str, as_folder: bool) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/sets").join(set);
    let mut files: Vec<(String, Vec<u8>)> = walk_files(&root)
        .into_iter()
        .map(|path| {
            let name = if as_folder {
                let folder = root.file_name().unwrap().to_string_lossy().into_owned();
                format!("{folder}/{}", path.strip_prefix(&root).unwrap().display())
            } else {
                path.file_name().unwrap().to_string_lossy().into_owned()
            };
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// Every file below `root`, in no order.
fn walk_files(root: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}

/// The verdict a result page gives, and the rules of its findings.
fn verdict_and_rules(page: &str) -> (String, Vec<String>) {
    let verdict = page
        .split("<h2 class=\"big\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .unwrap_or_default()
        .to_owned();
    // Each finding shown, a card or a repeat's line, names its rule.
    let rules = page
        .split("data-rule=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect();
    (verdict, rules)
}

fn post_form(base: &str, fields: &[(&str, &str)]) -> (u16, String) {
    let body: String = fields
        .iter()
        .map(|(name, value)| {
            format!(
                "{name}={}",
                url::form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>()
            )
        })
        .collect::<Vec<_>>()
        .join("&");
    let (status, response) = raw_post(base, "/check", "application/x-www-form-urlencoded", body.as_bytes());
    (status, String::from_utf8_lossy(&response).into_owned())
}

fn post_upload(base: &str, files: &[(String, Vec<u8>)]) -> (u16, String) {
    post_upload_published(base, files, None)
}

/// Uploads files with "Published under" filled in, when `published` is.
fn post_upload_published(base: &str, files: &[(String, Vec<u8>)], published: Option<&str>) -> (u16, String) {
    let (content_type, body) = multipart_with(files, published);
    let (status, response) = raw_post(base, "/upload", &content_type, &body);
    (status, String::from_utf8_lossy(&response).into_owned())
}

#[test]
fn a_folder_upload_gives_the_command_lines_findings_on_every_set() {
    // Each set of testsuite/sets uploaded as its folder: the findings of
    // `feedlint SET`, rule for rule, a missing file named as there
    // (archive-link-dangling, paging-link-dangling), not only orphans.
    let served = Served::start(&[]);
    let sets = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/sets");
    let mut cases: Vec<String> = Vec::new();
    for rule in std::fs::read_dir(&sets).unwrap() {
        for case in std::fs::read_dir(rule.unwrap().path()).unwrap() {
            let case = case.unwrap().path();
            if case.is_dir() {
                cases.push(case.strip_prefix(&sets).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    cases.sort();
    assert!(cases.len() > 40, "{cases:?}");
    // What the page does not do as the command line does, not compared:
    // select rule groups (a set's own config selecting `podcast`).
    const NOT_ON_THE_PAGE: [&str; 2] = ["podcast-missing-element/selected", "podcast-not-declared/pass-selected"];
    let mut differ = Vec::new();
    for case in cases.iter().filter(|case| !NOT_ON_THE_PAGE.contains(&case.as_str())) {
        let cli = Command::new(env!("CARGO_BIN_EXE_feedlint"))
            .args(["--format", "json", "--exit-zero"])
            .arg(sets.join(case))
            .output()
            .unwrap();
        let mut expected = common::rules_of(&common::json(&cli));
        expected.sort();
        // A set's base-url is the page's "Published under".
        let config = std::fs::read_to_string(sets.join(case).join("feedlint.toml")).unwrap_or_default();
        let published = config
            .lines()
            .find_map(|line| line.strip_prefix("base-url = "))
            .map(|value| value.trim_matches('"'));
        let (_, page) = post_upload_published(&served.base, &set_files(case, true), published);
        let (_, mut got) = verdict_and_rules(&page);
        got.sort();
        if got != expected {
            differ.push(format!("{case}: the command line {expected:?}, the upload {got:?}"));
        }
    }
    // The bundled examples too (the podcast's pages name a missing page).
    for example in ["podcast", "site"] {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(example);
        let cli = Command::new(env!("CARGO_BIN_EXE_feedlint"))
            .args(["--format", "json", "--exit-zero"])
            .arg(&root)
            .output()
            .unwrap();
        let mut expected = common::rules_of(&common::json(&cli));
        expected.sort();
        let files: Vec<(String, Vec<u8>)> = walk_files(&root)
            .into_iter()
            .map(|path| {
                let within = path.strip_prefix(&root).unwrap().display();
                (format!("{example}/{within}"), std::fs::read(&path).unwrap())
            })
            .collect();
        let (_, page) = post_upload(&served.base, &files);
        let (_, mut got) = verdict_and_rules(&page);
        got.sort();
        if got != expected {
            differ.push(format!(
                "examples/{example}: the command line {expected:?}, the upload {got:?}"
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // The case the page missed: a folder lacking an archive names it.
    let (_, page) = post_upload(
        &served.base,
        &set_files("archive-link-dangling/fail-missing-file", true),
    );
    assert!(page.contains("archive-link-dangling"), "{page}");
}

#[test]
fn an_upload_names_the_files_it_skipped_and_takes_a_folder_with_or_without_its_slash() {
    let served = Served::start(&[]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/site");
    let files: Vec<(String, Vec<u8>)> = walk_files(&root)
        .into_iter()
        .map(|path| {
            let name = format!("site/{}", path.strip_prefix(&root).unwrap().display());
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    let (status, page) = post_upload(&served.base, &files);
    assert_eq!(status, 200);
    assert!(page.contains("sitemap.xml was skipped: it is no feed."), "{page}");
    // Two files that are no feeds, named together; none when all are feeds.
    let mut more = files.clone();
    more.push(("site/robots.txt".to_owned(), b"User-agent: *".to_vec()));
    let (_, page) = post_upload(&served.base, &more);
    assert!(page.contains("2 files were skipped, no feeds: "), "{page}");
    let feeds: Vec<_> = files
        .into_iter()
        .filter(|(name, _)| !name.ends_with("sitemap.xml"))
        .collect();
    let (_, page) = post_upload(&served.base, &feeds);
    assert!(!visible_text(&page).contains("skipped"), "{page}");
    // "Published under" names a folder, with its closing slash or without:
    // the same page either way (a self link placed elsewhere is found).
    let pages: Vec<(String, Vec<String>)> = ["https://example.org/", "https://example.org"]
        .into_iter()
        .map(|published| verdict_and_rules(&post_upload_published(&served.base, &feeds, Some(published)).1))
        .collect();
    assert_eq!(pages[0], pages[1]);
    assert!(!pages[0].1.contains(&"self-link-mismatch".to_owned()), "{pages:?}");
    let elsewhere = verdict_and_rules(&post_upload_published(&served.base, &feeds, Some("https://example.org/blog")).1);
    assert!(elsewhere.1.contains(&"self-link-mismatch".to_owned()), "{elsewhere:?}");
}

#[test]
fn documents_are_listed_as_their_chains_run() {
    let served = Served::start(&[]);
    let names_in_order = |page: &str| -> Vec<String> {
        page.split("<section class=\"document\"><h2>")
            .skip(1)
            .map(|rest| rest.split("</h2>").next().unwrap().to_owned())
            .collect()
    };
    // The subscription document, then its archives newest first, whatever
    // the names' order.
    let (_, page) = post_upload(&served.base, &set_files("valid/atom-chain", true));
    assert_eq!(
        names_in_order(&page),
        [
            "index.atom",
            "archive/2003-11.atom",
            "archive/2003-10.atom",
            "archive/2003-09.atom"
        ],
        "{page}"
    );
    // Pages, the first one first, and a document no chain reaches last.
    let page_of = |n: usize, next: Option<&str>| {
        let links: Vec<(&str, &str)> = next.map(|next| ("next", next)).into_iter().collect();
        atom(&format!("https://example.org/p{n}.atom"), &links, false, "t")
    };
    let files = vec![
        (
            "a-lone.atom".to_owned(),
            atom("https://example.org/a-lone.atom", &[], false, "t").into_bytes(),
        ),
        ("p1.atom".to_owned(), page_of(1, Some("p2.atom")).into_bytes()),
        ("p2.atom".to_owned(), page_of(2, Some("p3.atom")).into_bytes()),
        ("p3.atom".to_owned(), page_of(3, None).into_bytes()),
    ];
    for files in [files.clone(), files.into_iter().rev().collect()] {
        let (_, page) = post_upload(&served.base, &files);
        assert_eq!(
            names_in_order(&page),
            ["p1.atom", "p2.atom", "p3.atom", "a-lone.atom"],
            "{page}"
        );
    }
}

#[test]
fn uploads_and_pastes_resolve_like_files() {
    let served = Served::start(&[]);
    // The valid chain, chosen file by file (the browser sends names only)
    // and as a folder (paths in it): valid, as by URL and on the command
    // line. It was "Not valid: 12 errors", every one unresolvable.
    for as_folder in [false, true] {
        let (status, page) = post_upload(&served.base, &set_files("valid/atom-chain", as_folder));
        let (verdict, rules) = verdict_and_rules(&page);
        assert_eq!(
            (status, verdict.as_str()),
            (200, "Valid"),
            "folder {as_folder}: {rules:?}"
        );
        assert!(page.contains("4 Atom 1.0 feeds: no findings."), "{page}");
    }
    // The asymmetric chain: the command line's findings, by upload too.
    let set =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/sets/archive-chain-asymmetric/fail-skipped-archive");
    let mut expected = common::rules_of(&common::json(
        &Command::new(env!("CARGO_BIN_EXE_feedlint"))
            .args(["--format", "json"])
            .arg(&set)
            .output()
            .unwrap(),
    ));
    expected.sort();
    assert_eq!(expected, ["archive-chain-asymmetric", "archive-orphan"]);
    for as_folder in [false, true] {
        let (_, page) = post_upload(
            &served.base,
            &set_files("archive-chain-asymmetric/fail-skipped-archive", as_folder),
        );
        let (verdict, mut rules) = verdict_and_rules(&page);
        rules.sort();
        assert_eq!(
            (verdict.as_str(), rules),
            ("Not valid", expected.clone()),
            "folder {as_folder}"
        );
    }
    // A feed with root-relative links, alone: no findings on the command
    // line, none by upload or by paste.
    let feed = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title><id>urn:x:feed</id><updated>2024-01-01T00:00:00Z</updated><author><name>a</name></author>\
         <link rel=\"self\" href=\"/feed.atom\"/><link rel=\"alternate\" href=\"/\"/>\
         <link rel=\"prev-archive\" href=\"/archive/2003-11.atom\"/></feed>";
    let dir = scratch("web-root-relative");
    std::fs::write(dir.join("feed.atom"), feed).unwrap();
    let cli = Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(["--format", "json"])
        .arg(dir.join("feed.atom"))
        .output()
        .unwrap();
    assert!(common::rules_of(&common::json(&cli)).is_empty());
    let (_, page) = post_upload(&served.base, &[("feed.atom".to_owned(), feed.as_bytes().to_vec())]);
    assert_eq!(verdict_and_rules(&page), ("Valid".to_owned(), Vec::new()));
    let (_, page) = post_form(&served.base, &[("text", feed)]);
    assert_eq!(verdict_and_rules(&page), ("Valid".to_owned(), Vec::new()));
    assert!(page.contains("fill in Published at to check these links"), "{page}");
    // Published at takes http(s) only, and the page keeps the paste.
    let (status, page) = post_form(&served.base, &[("text", feed), ("published", "file:///etc/passwd")]);
    assert_eq!(status, 400);
    assert!(page.contains("is not an http:// or https:// URL"), "{page}");
    assert!(page.contains("Check again") && page.contains("urn:x:feed"), "{page}");
    // A folder's other files are skipped, as a walk skips them; a binary
    // file chosen alone says what it is.
    let mut folder = set_files("valid/atom-chain", true);
    folder.push((
        "atom-chain/logo.png".to_owned(),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
    ));
    let (_, page) = post_upload(&served.base, &folder);
    assert_eq!(verdict_and_rules(&page).0, "Valid", "{page}");
    let (status, page) = post_upload(
        &served.base,
        &[("logo.png".to_owned(), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec())],
    );
    assert_eq!(status, 400);
    assert!(page.contains("logo.png is a binary file, not a text feed."), "{page}");
    // A web page pasted is said to be one, not taken apart as broken XML;
    // broken XML cites XML 1.0, not RFC 6721 (it is no Deleted Entry
    // Document).
    let (_, page) = post_form(
        &served.base,
        &[("text", "<!DOCTYPE html>\n<html><body><p>Hi<br></body></html>")],
    );
    assert_eq!(
        verdict_and_rules(&page),
        ("Not valid".to_owned(), vec!["not-a-feed".to_owned()])
    );
    assert!(page.contains("not a feed: this is a web page (HTML)"), "{page}");
    let (_, page) = post_form(
        &served.base,
        &[("text", "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>")],
    );
    assert_eq!(verdict_and_rules(&page).1, ["xml-malformed"]);
    assert!(
        page.contains("Specification: XML 1.0") && !page.contains("RFC 6721"),
        "{page}"
    );
    // An empty paste says so, with the numbers of nothing.
    let (status, page) = post_form(&served.base, &[("text", "  \n ")]);
    assert_eq!(status, 400);
    assert!(page.contains("The paste is empty"), "{page}");
}

#[test]
fn a_paste_over_the_limit_says_how_large_it_is() {
    let served = Served::start(&["--max-body", "1048576"]);
    let text = "x".repeat(3 * 1024 * 1024);
    let (status, page) = post_form(&served.base, &[("text", &text)]);
    assert_eq!(status, 413);
    assert!(
        page.contains("the paste is 3.1 MB; the limit is 1 MiB; check it by URL instead"),
        "{page}"
    );
    // Refused unread, the paste cannot come back; the URL form is there.
    assert!(page.contains("id=\"again-url\""), "{page}");
}

/// The fixed file a result page offers, downloaded.
fn fixed_download(served: &Served, page: &str) -> Vec<u8> {
    let link = page
        .split("href=\"/runs/")
        .find(|rest| rest.split('"').next().is_some_and(|href| href.ends_with("/fixed")))
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no download of the fixed file: {page}"));
    let mut response = agent().get(format!("{}/runs/{link}", served.base)).call().unwrap();
    response.body_mut().read_to_vec().unwrap()
}

#[test]
fn the_fixed_file_is_what_fix_writes() {
    let served = Served::start(&[]);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/rules/fh-marker-duplicate/fail-twice.atom");
    let text = std::fs::read_to_string(&fixture).unwrap();
    let (_, page) = post_form(&served.base, &[("text", &text)]);
    assert!(page.contains("Download the fixed file"));
    let downloaded = fixed_download(&served, &page);
    let dir = scratch("web-fixed");
    let copy = dir.join("fail-twice.atom");
    std::fs::write(&copy, &text).unwrap();
    let fixed = Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .arg("--fix")
        .arg(&copy)
        .output()
        .unwrap();
    assert!(fixed.status.code().is_some());
    let written = std::fs::read(&copy).unwrap();
    assert_ne!(written, text.as_bytes(), "the fixture has a fix");
    assert_eq!(downloaded, written, "the download is --fix's output byte for byte");
    assert!(page.contains(" with 1 fix applied, each safe to apply."), "{page}");
    assert!(!page.contains("left out"), "{page}");
    // A finding whose fix changes meaning is for a person: with no safe
    // fix beside it, no download.
    let (_, page) = post_form(&served.base, &[("text", &unsealed())]);
    assert!(page.contains("changes meaning: review it"), "{page}");
    assert!(!page.contains("Download the fixed file"), "{page}");
    // Beside a safe one, the download holds the safe one and says which it
    // left out, and why; as --fix does, which leaves it too.
    let both = unsealed().replace("<fh:archive/>", "<fh:archive>true</fh:archive>");
    let (_, page) = post_form(&served.base, &[("text", &both)]);
    assert!(page.contains(" with 1 fix applied, each safe to apply. 1 fix left out: it changes what the feed says, so it is yours to review and make (Remove the next-archive link, <a href=\"/rules/next-archive-unsealed\">"), "{page}");
    let downloaded = String::from_utf8(fixed_download(&served, &page)).unwrap();
    assert!(
        downloaded.contains("<fh:archive/>") && downloaded.contains("next-archive"),
        "{downloaded}"
    );
}

/// The text a person reads on a page: its tags and the style sheet left
/// out, entities as written.
fn visible_text(page: &str) -> String {
    let body = page.split("<body>").nth(1).unwrap_or(page);
    let mut text = String::new();
    let mut in_tag = false;
    for c in body.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

#[test]
fn urls_are_taken_as_people_type_them_and_failures_worded_for_people() {
    let served = Served::start(&[]);
    let feeds = feeds_server(
        vec![("/feed.atom", atom("/feed.atom", &[], false, "t"))],
        Duration::ZERO,
    );
    let host = feeds.trim_start_matches("http://");
    // No scheme: https:// is tried first; the server speaks only http, so
    // the TLS handshake gets no answer and the http:// address is checked,
    // and said.
    let page =
        String::from_utf8_lossy(&raw_get(&served.base, &format!("/check?url={host}/feed.atom"), "")).into_owned();
    assert!(
        page.contains(&format!(
            "No scheme was given: https://{host}/feed.atom could not be reached ("
        )),
        "{page}"
    );
    assert!(
        page.contains(&format!("so http://{host}/feed.atom was checked")),
        "{page}"
    );
    assert_eq!(verdict_and_rules(&page).0, "Valid", "{page}");
    // feed: in any case, in the page and in the POST API.
    for typed in [format!("FEED://{host}/feed.atom"), format!("feed:{feeds}/feed.atom")] {
        let page = String::from_utf8_lossy(&raw_get(&served.base, &format!("/check?url={typed}"), "")).into_owned();
        assert_eq!(verdict_and_rules(&page).0, "Valid", "{typed}: {page}");
        let agent = ureq::Agent::new_with_defaults();
        let (status, report) = post_api(&agent, &served.base, &json!({ "url": typed }));
        assert_eq!(status, 200, "{typed}: {report}");
        assert!(
            report["failures"].as_array().is_none_or(Vec::is_empty),
            "{typed}: {report}"
        );
    }
    // Failures in people's words: a missing page, a refused connection.
    let page =
        String::from_utf8_lossy(&raw_get(&served.base, &format!("/check?url={feeds}/missing.atom"), "")).into_owned();
    assert!(page.contains("404 Not Found: is the address right?"), "{page}");
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let page = String::from_utf8_lossy(&raw_get(
        &served.base,
        &format!("/check?url=http://127.0.0.1:{port}/feed.atom"),
        "",
    ))
    .into_owned();
    assert!(
        page.contains("the server refused the connection: nothing answers at 127.0.0.1 on that port"),
        "{page}"
    );
    // With a link to why that happens and what to do, as the W3C's
    // validator links its fetch errors to their help.
    assert!(
        page.contains("<a href=\"/help/fetching#refused\">Why this happens, and what to do</a>"),
        "{page}"
    );
    let help = String::from_utf8_lossy(&raw_get(&served.base, "/help/fetching", "")).into_owned();
    for anchor in [
        "no-such-host",
        "refused",
        "secure-connection",
        "timeout",
        "not-found",
        "refused-to-give",
        "server-error",
        "not-a-feed",
    ] {
        assert!(
            help.contains(&format!("<section class=\"help\" id=\"{anchor}\">")),
            "{anchor}: {help}"
        );
    }
}

#[test]
fn the_page_names_what_it_checked_and_heads_its_verdict_and_findings() {
    let served = Served::start(&[]);
    let rss = |version: &str, item: &str| {
        format!("<rss version=\"{version}\"><channel><title>t</title><link>https://example.org/</link><description>d</description><language>en</language>{item}</channel></rss>")
    };
    for (text, named) in [
        (rss("0.91", ""), "RSS 0.91 feed"),
        (rss("0.92", ""), "RSS 0.92 feed"),
        (
            rss("2.0", "<item><title>Fish & chips</title></item>"),
            "RSS feed, not well-formed",
        ),
        (
            "<!DOCTYPE html>\n<html><body><p>Hi</p></body></html>".to_owned(),
            "web page (HTML)",
        ),
    ] {
        let (_, page) = post_form(&served.base, &[("text", &text)]);
        assert!(page.contains(&format!("{named}:")), "{named}: {page}");
        assert!(!page.contains("RSS 2.0 feed"), "{named}: {page}");
    }
    // The verdict is a heading, and so is each finding.
    let (_, page) = post_form(
        &served.base,
        &[(
            "text",
            &rss("2.0", "<item><title>t</title><pubDate>soon</pubDate></item>"),
        )],
    );
    assert!(page.contains("<h2 class=\"big\">Not valid</h2>"), "{page}");
    assert!(
        page.contains("<article class=\"finding error\"") && page.contains("<h3><span class=\"level\">error</span>"),
        "{page}"
    );
}

#[test]
fn the_api_answers_json_when_asked_and_says_what_it_takes() {
    let served = Served::start(&[]);
    // Asked for JSON, a refusal is JSON too, not a page.
    for path in [
        "/check?url=ftp://example.org/feed&format=json",
        "/check?url=&format=json",
    ] {
        let response = raw_get(&served.base, path, "");
        let (head, body) = split_response(&response);
        assert!(head.starts_with("http/1.1 400"), "{path}: {head}");
        assert!(head.contains("content-type: application/json"), "{path}: {head}");
        let error: Value = serde_json::from_slice(body).unwrap();
        assert!(error["error"].is_string(), "{path}: {error}");
    }
    // An empty body is no document to check.
    let (status, body) = raw_post(&served.base, "/api/lint", "application/atom+xml", b"  \n");
    assert_eq!(status, 400);
    assert!(String::from_utf8_lossy(&body).contains("the body is empty"));
    // The API page names every way in.
    let page = String::from_utf8_lossy(&raw_get(&served.base, "/api", "")).into_owned();
    for way in [
        "POST /api/lint",
        "GET /api/lint?url=",
        "GET /check?url=",
        "&amp;format=json",
        "GET /badge?url=",
    ] {
        assert!(page.contains(way), "{way}: {page}");
    }
}

#[test]
fn every_problem_page_keeps_a_way_to_try_again() {
    let served = Served::start(&[]);
    // An empty URL: the URL form, to fill in.
    let page = String::from_utf8_lossy(&raw_get(&served.base, "/check?url=", "")).into_owned();
    assert!(page.contains("id=\"again-url\""), "{page}");
    // An upload with no files, or a binary one: the way back to the form.
    for files in [
        Vec::new(),
        vec![("logo.png".to_owned(), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec())],
    ] {
        let (status, page) = post_upload(&served.base, &files);
        assert_eq!(status, 400);
        assert!(page.contains("href=\"/#by-upload\""), "{page}");
    }
}

#[test]
fn the_small_words_are_right() {
    let served = Served::start(&[]);
    // A URL pasted into the feed box: the URL form, filled in.
    let (status, page) = post_form(&served.base, &[("text", " https://example.org/feed.atom \n")]);
    assert_eq!(status, 400);
    assert!(
        page.contains("A URL, not a feed") && page.contains("value=\"https://example.org/feed.atom\""),
        "{page}"
    );
    // Counts name the levels found only; each way in has its own button.
    let feed = "<rss version=\"2.0\"><channel><title>t</title><link>https://example.org/</link><description>d</description><item><title>t</title><pubDate>soon</pubDate></item></channel></rss>";
    let (_, page) = post_form(&served.base, &[("text", feed)]);
    assert!(!page.contains("0 infos") && !page.contains("0 warnings"), "{page}");
    let front = String::from_utf8_lossy(&raw_get(&served.base, "/", "")).into_owned();
    for button in ["Check the URL", "Check the text", "Check the files", "Check the folder"] {
        assert!(front.contains(&format!(">{button}</button>")), "{button}");
    }
}

#[test]
fn published_at_holds_the_self_link_to_it() {
    // A pasted feed whose self link names another place than the one
    // filled in: the self link is reported, as the command line reports
    // it against a base URL; the same feed where it says is valid.
    let served = Served::start(&[]);
    let feed = atom("https://example.org/old/feed.atom", &[], false, "t");
    let (_, page) = post_form(
        &served.base,
        &[("text", &feed), ("published", "https://example.org/feed.atom")],
    );
    assert_eq!(verdict_and_rules(&page).1, ["self-link-mismatch"], "{page}");
    assert!(
        page.contains("but it was read at https://example.org/feed.atom"),
        "{page}"
    );
    let (_, page) = post_form(
        &served.base,
        &[("text", &feed), ("published", "https://example.org/old/feed.atom")],
    );
    assert_eq!(verdict_and_rules(&page), ("Valid".to_owned(), Vec::new()), "{page}");
}

#[test]
fn pages_speak_web_words_not_flags() {
    let served = Served::start_with(&[]);
    // A private address, refused: the server's rule, not a flag.
    let page =
        String::from_utf8_lossy(&raw_get(&served.base, "/check?url=http://127.0.0.1:9/feed.atom", "")).into_owned();
    assert!(
        page.contains("this server does not fetch private or local addresses; paste or upload the feed instead"),
        "{page}"
    );
    // A URL without a scheme gets https://, and the page says so and
    // keeps it in its form.
    let page = String::from_utf8_lossy(&raw_get(&served.base, "/check?url=127.0.0.1:9/feed.atom", "")).into_owned();
    assert!(
        page.contains("No scheme was given: checked https://127.0.0.1:9/feed.atom"),
        "{page}"
    );
    assert!(page.contains("value=\"https://127.0.0.1:9/feed.atom\""), "{page}");
    let mut pages = vec![page];
    for path in [
        "/",
        "/api",
        "/help/fetching",
        "/rules",
        "/check?url=feed://127.0.0.1:9/x",
        "/check?url=ftp://example.org/x",
    ] {
        pages.push(String::from_utf8_lossy(&raw_get(&served.base, path, "")).into_owned());
    }
    let (_, unsealed_page) = post_form(&served.base, &[("text", &unsealed())]);
    pages.push(unsealed_page);
    let (_, unresolvable) = post_form(
        &served.base,
        &[("text", &format!("<feed xmlns=\"http://www.w3.org/2005/Atom\">{ATOM_HEAD}<link xml:base=\"urn:x:y\" rel=\"alternate\" href=\"a\"/></feed>"))],
    );
    assert!(unresolvable.contains("unresolvable-relative-iri"), "{unresolvable}");
    pages.push(unresolvable);
    for page in &pages {
        let text = visible_text(page);
        assert!(!text.contains("--"), "a flag on a page: {text}");
    }
}

#[test]
fn every_rule_page_speaks_the_pages_words() {
    let served = Served::start_with(&[]);
    let index = String::from_utf8_lossy(&raw_get(&served.base, "/rules", "")).into_owned();
    let ids: Vec<&str> = index
        .split("href=\"/rules/")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    let documented = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"))
        .unwrap()
        .count();
    assert_eq!(ids.len(), documented, "/rules lists every rule");
    let command_line_words = [
        "command line",
        "command-line",
        "linted tree",
        "linted set",
        "linted director",
        "linted documents",
        "feedlint.toml",
        "config",
        "standard input",
        "stdin",
        "exit status",
        "exit code",
        "flag",
        "feedlint explain",
        "feedlint rules",
    ];
    let mut pages = vec![("/rules".to_owned(), index.clone())];
    for id in &ids {
        let path = format!("/rules/{id}");
        let page = String::from_utf8_lossy(&raw_get(&served.base, &path, "")).into_owned();
        for heading in ["What it means", "An example", "How to fix it"] {
            assert!(
                page.contains(&format!("<h2>{heading}</h2>")),
                "{path} has no {heading:?}"
            );
        }
        pages.push((path, page));
    }
    let unknown = String::from_utf8_lossy(&raw_get(&served.base, "/rules/archive-orphn", "")).into_owned();
    assert!(unknown.starts_with("HTTP/1.1 404"), "{unknown}");
    assert!(
        unknown.contains("Did you mean <a href=\"/rules/archive-orphan\">"),
        "{unknown}"
    );
    pages.push(("/rules/archive-orphn".to_owned(), unknown));
    for (path, page) in &pages {
        let text = visible_text(page).to_lowercase();
        for word in command_line_words {
            assert!(!text.contains(word), "{path} says {word:?}: {text}");
        }
        let flag = text.match_indices("--").find(|&(at, _)| {
            text[at + 2..].starts_with(|c: char| c.is_ascii_lowercase())
                && !text[..at].ends_with(|c: char| c.is_alphanumeric())
        });
        assert!(flag.is_none(), "{path} names a flag: {text}");
    }
}

/// axe-core's script, where it is installed (`.ci/run` installs it from
/// npm into `target/axe`; `FEEDLINT_AXE` names another copy).
fn axe_script() -> Option<String> {
    let path = std::env::var_os("FEEDLINT_AXE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/axe/node_modules/axe-core/axe.min.js"));
    match std::fs::read_to_string(&path) {
        Ok(script) => Some(script),
        Err(_) => {
            assert!(
                std::env::var_os("FEEDLINT_AXE_REQUIRED").is_none(),
                "FEEDLINT_AXE_REQUIRED is set, but axe-core is not at {}",
                path.display()
            );
            let _ = writeln!(
                std::io::stderr(),
                "web: skipped the accessibility check: axe-core is not installed"
            );
            None
        }
    }
}

/// axe-core's violations on the page shown, by rule id with how many
/// elements each (the script is run in the page by WebDriver, which the
/// pages' script policy does not govern).
async fn accessibility_violations(
    client: &fantoccini::Client,
    axe: &str,
) -> Result<Vec<String>, fantoccini::error::CmdError> {
    client.execute(axe, vec![]).await?;
    let found = client
        .execute_async(
            "const done = arguments[arguments.length - 1];\n\
             axe.run(document, { resultTypes: ['violations'] })\n\
               .then(r => done(r.violations.map(v => v.id + ' (' + v.nodes.length + '): ' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '))))\n\
               .catch(e => done(['axe failed: ' + e]));",
            vec![],
        )
        .await?;
    Ok(serde_json::from_value(found).unwrap_or_default())
}

/// The paths a beginner takes: a chain uploaded file by file and as a
/// folder, each page's words, and every kind of page accessible.
async fn beginners_paths(client: &fantoccini::Client, base: &str) -> Result<(), fantoccini::error::CmdError> {
    let chain = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/sets/valid/atom-chain");
    let files: Vec<std::path::PathBuf> = [
        "index.atom",
        "archive/2003-09.atom",
        "archive/2003-10.atom",
        "archive/2003-11.atom",
    ]
    .iter()
    .map(|file| chain.join(file))
    .collect();
    let chosen: Vec<&Path> = files.iter().map(std::path::PathBuf::as_path).collect();
    upload(client, base, &chosen).await?;
    assert_eq!(text_of(client, ".verdict .big").await?, "Valid");
    assert!(!text_of(client, "main").await?.contains("--"));
    // The folder, chosen whole: its paths are kept.
    upload_folder(client, base, &chain).await?;
    assert_eq!(text_of(client, ".verdict .big").await?, "Valid");
    assert_eq!(text_of(client, "h1 .checked").await?, "4 uploaded files");
    // The asymmetric chain, uploaded: the command line's two findings.
    let asymmetric =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/sets/archive-chain-asymmetric/fail-skipped-archive");
    let files: Vec<std::path::PathBuf> = ["index.atom", "2003-09.atom", "2003-10.atom", "2003-11.atom"]
        .iter()
        .map(|file| asymmetric.join(file))
        .collect();
    let chosen: Vec<&Path> = files.iter().map(std::path::PathBuf::as_path).collect();
    upload(client, base, &chosen).await?;
    assert_eq!(text_of(client, ".verdict .big").await?, "Not valid");
    let mut rules = Vec::new();
    for rule in client
        .find_all(fantoccini::Locator::Css("article.finding a.rule"))
        .await?
    {
        rules.push(rule.text().await?);
    }
    rules.sort();
    assert_eq!(rules, ["archive-chain-asymmetric", "archive-orphan"]);
    // A folder lacking an archive, chosen whole: the missing file named,
    // as on the command line (it was "Valid, no findings").
    let missing = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/sets/archive-link-dangling/fail-missing-file");
    upload_folder(client, base, &missing).await?;
    assert_eq!(text_of(client, ".verdict .big").await?, "Valid, with remarks");
    assert_eq!(
        text_of(client, "article.finding a.rule").await?,
        "archive-link-dangling"
    );
    // A blog with sixty bad items: a card per rule, each rule's repeats a
    // line each under their count, errors first, and a summary of the
    // rules at the top of the document; the whole page about two screens.
    client.goto(&format!("{base}/")).await?;
    fill_and_submit(client, "text", &blog_with_bad_items(60)).await?;
    wait_for_page(client, "/check").await?;
    let layout = client
        .execute(
            "return [document.querySelectorAll('article.finding').length, \
                     document.querySelectorAll('details.repeats').length, \
                     document.querySelector('nav.rules-found li').className, \
                     document.documentElement.scrollHeight / window.innerHeight];",
            vec![],
        )
        .await?;
    let (cards, repeats, first_level, screens) = (
        layout[0].as_u64().unwrap(),
        layout[1].as_u64().unwrap(),
        layout[2].as_str().unwrap_or_default().to_owned(),
        layout[3].as_f64().unwrap(),
    );
    assert!(
        cards <= 6 && (2..=cards).contains(&repeats),
        "{cards} cards, {repeats} lists of repeats"
    );
    assert_eq!(first_level, "error");
    assert!(screens < 3.0, "the page is {screens:.1} screens tall");
    let summary = text_of(client, "details.repeats summary").await?;
    assert!(summary.contains("× 59 more: lines"), "{summary}");
    // The form to check again is reached in a few key presses (it was 613
    // on a blog's result), and a skip link leads past it to the findings.
    let keys = client
        .execute(
            "const stops = [...document.querySelectorAll('a[href], button, input, textarea, select, summary')]; \
             const again = [...document.querySelectorAll('section.retry button')].pop(); \
             return [stops.indexOf(again), stops[0].getAttribute('href'), \
                     [...document.querySelectorAll('a.skip')].map(a => a.getAttribute('href'))];",
            vec![],
        )
        .await?;
    assert!((1..12).contains(&keys[0].as_i64().unwrap()), "{keys}");
    assert_eq!(keys[1], json!("#main"));
    assert_eq!(keys[2], json!(["#main", "#findings"]));
    if let Some(axe) = axe_script() {
        let violations = accessibility_violations(client, &axe).await?;
        assert!(violations.is_empty(), "axe-core on the grouped result: {violations:#?}");
    }
    // An address typed without a scheme is taken by the field (a
    // type=url field refused it), and checked at http:// where https://
    // gets no answer.
    let feeds = feeds_server(
        vec![("/feed.atom", atom("/feed.atom", &[], false, "t"))],
        Duration::ZERO,
    );
    client.goto(&format!("{base}/")).await?;
    fill_and_submit(
        client,
        "url",
        &format!("{}/feed.atom", feeds.trim_start_matches("http://")),
    )
    .await?;
    wait_for_page(client, "/check").await?;
    assert_eq!(text_of(client, ".verdict .big").await?, "Valid");
    assert!(text_of(client, "p.hint").await?.contains("was checked"));
    // The badge renders, as an image in a page would show it.
    client
        .goto(&format!("{base}/badge?url=http://127.0.0.1:9/feed.atom"))
        .await?;
    let rendered = client
        .execute(
            "const svg = document.querySelector('svg'); const box = svg.getBoundingClientRect(); return [svg.querySelector('title').textContent, box.width > 100, box.height == 20];",
            vec![],
        )
        .await?;
    assert_eq!(rendered, json!(["feed: could not be checked", true, true]));
    // Check again, in place: the paste comes back in its form.
    client.goto(&format!("{base}/")).await?;
    fill_and_submit(client, "text", &unsealed()).await?;
    wait_for_page(client, "/check").await?;
    let again = client.find(fantoccini::Locator::Css("#again-text")).await?;
    assert!(again.prop("value").await?.unwrap_or_default().contains("next-archive"));
    // (Every kind of page is checked by every_page_type_accessible.)
    let Some(axe) = axe_script() else { return Ok(()) };
    // The check finds what it looks for: a field without a label.
    client
        .execute(
            "document.querySelector('main').appendChild(document.createElement('input'));",
            vec![],
        )
        .await?;
    let violations = accessibility_violations(client, &axe).await?;
    assert!(violations.iter().any(|v| v.starts_with("label")), "{violations:?}");
    Ok(())
}

#[test]
fn a_badge_from_a_short_lived_cache_and_the_json_report_by_get() {
    let served = Served::start(&[]);
    let valid = atom("/feed.atom", &[], false, "t");
    let feeds = feeds_server(
        vec![
            ("/feed.atom", valid),
            ("/broken.atom", unsealed()),
            ("/asked-by-page.atom", unsealed()),
        ],
        Duration::from_millis(800),
    );
    let badge_of = |path: &str| {
        let started = Instant::now();
        let query: String = url::form_urlencoded::byte_serialize(format!("{feeds}{path}").as_bytes()).collect();
        let mut response = agent()
            .get(format!("{}/badge?url={query}", served.base))
            .call()
            .unwrap();
        let content_type = response.headers()["content-type"].to_str().unwrap().to_owned();
        let max_age: u64 = response.headers()["cache-control"]
            .to_str()
            .unwrap()
            .strip_prefix("max-age=")
            .and_then(|age| age.parse().ok())
            .unwrap();
        let svg = response.body_mut().read_to_string().unwrap();
        (format!("{content_type}; max-age={max_age}"), svg, started.elapsed())
    };
    let (content_type, svg, first) = badge_of("/feed.atom");
    // Fresh, the badge may be kept as long as the server keeps its verdict.
    assert_eq!(content_type, "image/svg+xml; max-age=600");
    assert!(svg.starts_with("<svg") && svg.contains("feed: valid"), "{svg}");
    assert!(first >= Duration::from_millis(800), "the first badge checks the feed");
    // Asked again, the badge comes from the cache: the feed is not fetched.
    let (again_type, again, second) = badge_of("/feed.atom");
    assert_eq!(again, svg);
    // From the cache, no longer than the verdict has left there (a wide
    // margin: a loaded machine may take seconds between the two requests).
    let left: u64 = again_type.rsplit('=').next().unwrap().parse().unwrap();
    assert!((300..=600).contains(&left), "{again_type}");
    assert!(second < Duration::from_millis(400), "{second:?}");
    assert!(badge_of("/broken.atom").1.contains("feed: not valid"));
    assert!(badge_of("/missing.atom").1.contains("feed: could not be checked"));
    // The JSON report by GET, for scripts, in the shape of the command
    // line's JSON format.
    let query: String = url::form_urlencoded::byte_serialize(format!("{feeds}/broken.atom").as_bytes()).collect();
    for path in [
        format!("/check?url={query}&format=json"),
        format!("/api/lint?url={query}"),
    ] {
        let mut response = agent().get(format!("{}{path}", served.base)).call().unwrap();
        let report: Value = serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
        assert!(
            common::rules_of(&report).contains(&"next-archive-unsealed".to_owned()),
            "{path}: {report}"
        );
        assert_eq!(report["summary"]["documents"], 1);
    }
    // A URL that gives a web page: its feed link is followed, and the page
    // says so.
    let site = feeds_server(
        vec![
            (
                "/",
                "<!DOCTYPE html><html><head><link rel=\"alternate\" type=\"application/atom+xml\" href=\"/feed.atom\"></head><body><p>Hi<br></body></html>".to_owned(),
            ),
            ("/feed.atom", atom("/feed.atom", &[], false, "t")),
        ],
        Duration::ZERO,
    );
    let page = String::from_utf8_lossy(&raw_get(&served.base, &format!("/check?url={site}/"), "")).into_owned();
    assert!(
        page.contains(&format!("is a web page; found a feed at {site}/feed.atom")),
        "{page}"
    );
    assert_eq!(verdict_and_rules(&page).0, "Valid", "{page}");
    // A valid feed's result page gives the badge to copy, linked to the
    // page, and shows it.
    let valid_query: String = url::form_urlencoded::byte_serialize(format!("{feeds}/feed.atom").as_bytes()).collect();
    let page = String::from_utf8_lossy(&raw_get(&served.base, &format!("/check?url={valid_query}"), "")).into_owned();
    assert!(page.contains("Show it off"), "{page}");
    assert!(page.contains(&format!("/badge?url={valid_query}")), "{page}");
    assert!(
        page.contains(&format!(
            "<img src=\"badge?url={valid_query}\" alt=\"The badge: feed, valid\">"
        )),
        "{page}"
    );
    // A feed that is not valid has no badge to show off yet.
    let page = String::from_utf8_lossy(&raw_get(&served.base, &format!("/check?url={query}"), "")).into_owned();
    assert!(!page.contains("Show it off"), "{page}");
    assert!(
        page.contains("Once the feed is valid, this page offers its badge"),
        "{page}"
    );
    // The page's verdict is the badge's: asked right after, it comes from
    // the cache (the feed answers after 800 ms).
    let asked: String =
        url::form_urlencoded::byte_serialize(format!("{feeds}/asked-by-page.atom").as_bytes()).collect();
    raw_get(&served.base, &format!("/check?url={asked}"), "");
    // No speed is measured: a fetch cannot answer before the feed's 800 ms,
    // so an answer sooner came from the cache, however loaded the machine.
    let (_, svg, taken) = badge_of("/asked-by-page.atom");
    assert!(svg.contains("feed: not valid"), "{svg}");
    assert!(taken < Duration::from_millis(800), "{taken:?}");
}

/// A blog's RSS feed whose `count` items each have a bad date, a relative
/// link and an author that is no address: the shape of a real blog's
/// result page.
fn blog_with_bad_items(count: usize) -> String {
    let items: String = (0..count)
        .map(|n| {
            format!(
                "\n<item><title>Post {n}</title><link>/posts/{n}</link><guid>https://example.org/posts/{n}</guid>\
                 <pubDate>yesterday at {n}</pubDate><author>The Editor</author><description>A post.</description></item>"
            )
        })
        .collect();
    format!(
        "<rss version=\"2.0\"><channel><title>A blog</title><link>https://example.org/</link>\
         <description>Posts.</description>{items}\n</channel></rss>"
    )
}

#[test]
fn repeats_are_grouped_and_counted_whole() {
    let served = Served::start(&[]);
    // 150 entries with a broken date each: the first 100 findings shown,
    // the other 50 on one line, and all 150 counted in the verdict.
    let entries: String = (0..150)
        .map(|n| format!("\n<entry><title>e</title><id>urn:e:{n}</id><updated>bad</updated><link href=\"https://example.org/{n}\"/></entry>"))
        .collect();
    let feed = format!("<feed xmlns=\"http://www.w3.org/2005/Atom\">{ATOM_HEAD}{entries}</feed>");
    let (_, page) = post_form(&served.base, &[("text", &feed)]);
    // One card, the 99 other findings shown a line each under the count
    // of all the repeats, and the line for the 50 past them.
    assert_eq!(page.matches("<article class=\"finding error\"").count(), 1, "{page}");
    assert_eq!(page.matches("data-rule=\"invalid-date\"").count(), 101);
    assert!(page.contains("invalid-date × 149 more: lines 3, 4, 5, …"), "{page}");
    assert!(page.contains("50 more, first at line 102"), "{page}");
    assert!(page.contains("href=\"#d0-r0\">invalid-date</a> × 150"), "{page}");
    assert!(page.contains("150 errors"), "{page}");
    assert!(!visible_text(&page).contains("--"));
}

#[test]
fn a_findings_line_leads_to_the_numbered_source_and_reads_aloud_in_words() {
    let served = Served::start(&[]);
    let (_, page) = post_form(&served.base, &[("text", &blog_with_bad_items(1200))]);
    // The 79th item's date: its "line N" links to that line of the source.
    let at = page.find("line 80, column").unwrap_or_else(|| panic!("{page}"));
    let link = page[..at].rsplit("href=\"").next().unwrap().split('"').next().unwrap();
    assert!(link.ends_with("?line=80#L80"), "{link}");
    let view = |line: usize| {
        let path = link.replace("?line=80#L80", &format!("?line={line}"));
        String::from_utf8_lossy(&raw_get(&served.base, &path, "")).into_owned()
    };
    let first = view(80);
    assert!(first.starts_with("HTTP/1.1 200"), "{first}");
    assert!(first.contains("<ol class=\"numbered\" start=\"1\">"), "{first}");
    assert!(
        first.contains("<li id=\"L80\"><code>&lt;item&gt;&lt;title&gt;Post 78&lt;/title&gt;"),
        "{first}"
    );
    // One window of lines, not the document; the next one a link away.
    let later = view(701);
    assert!(later.contains("<ol class=\"numbered\" start=\"501\">"), "{later}");
    assert!(later.contains("<li id=\"L701\"><code>&lt;item&gt;&lt;title&gt;Post 699&lt;/title&gt;"));
    assert!(!later.contains("id=\"L1001\""));
    assert!(later.contains("?line=1001\">lines 1001–1202</a>"), "{later}");
    // A finding's other places in one document, with one label, are one
    // line (they were a line each).
    assert!(
        page.contains("<li>pasted document: here too, lines 3, 4, 5, 6, 7, 8, 9, 10, 11</li>"),
        "{page}"
    );
    // Context lines are marked so, for a phone to leave out.
    assert!(
        page.contains("<span class=\"context\"><span class=\"line-number\" aria-hidden=\"true\">1</span>"),
        "{page}"
    );
    // A source no run kept is a page that says so.
    let gone = String::from_utf8_lossy(&raw_get(&served.base, "/runs/nothing/source/0?line=3", "")).into_owned();
    assert!(gone.starts_with("HTTP/1.1 404"), "{gone}");
    // A finding's box is said in words; its line numbers and caret are not
    // read out.
    assert!(
        page.contains("<p class=\"sr-only\">Source, lines 1 to 4; marked on line 2: "),
        "{page}"
    );
    assert!(
        page.contains("<span class=\"line-number\" aria-hidden=\"true\">2</span>"),
        "{page}"
    );
    assert!(!page.contains("<span class=\"line-number\">"), "{page}");
}

#[test]
fn an_upload_feedlint_fails_on_shows_the_internal_error_and_the_other_files() {
    // A debug build panics in the analysis of a document named
    // feedlint-test-panic.*: the page shows that document's internal error
    // and the other file's findings, and the server goes on serving.
    let served = Served::start(&[]);
    let ordinary = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/rules/archive-missing-current/fail-no-current.atom"),
    )
    .unwrap();
    let files = [
        ("feedlint-test-panic.atom".to_owned(), ordinary.clone()),
        ("ordinary.atom".to_owned(), ordinary),
    ];
    let (content_type, body) = multipart(&files);
    for _ in 0..2 {
        let (status, page) = raw_post(&served.base, "/upload", &content_type, &body);
        let page = String::from_utf8_lossy(&page);
        assert_eq!(status, 200, "{page}");
        assert!(page.contains("internal-error"), "{page}");
        assert!(page.contains("archive-missing-current"), "{page}");
    }
}

/// A connection to `base` from the loopback address `source` (a second
/// client on one machine: 127.0.0.2 is loopback as 127.0.0.1 is).
fn connect_from(source: &str, base: &str) -> TcpStream {
    let address: std::net::SocketAddr = base.trim_start_matches("http://").parse().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .unwrap();
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
        socket.connect(address).await.unwrap().into_std().unwrap()
    });
    stream.set_nonblocking(false).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    stream
}

/// The status of a response read from `stream` (0: none).
fn status_of(stream: &mut TcpStream) -> u16 {
    use std::io::Read as _;
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    std::str::from_utf8(&response[..12.min(response.len())])
        .ok()
        .and_then(|line| line.get(9..12))
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

#[test]
fn silent_bodies_from_one_address_leave_the_readers_to_everyone_else() {
    // 64 connections from one address announce a body and send nothing:
    // that address holds its share of the 64 body readers, the rest are
    // refused at once, and another client's paste and a check by URL (no
    // body, no reader) are answered as ever. Before, the 64 held every
    // reader and every other request was answered 503.
    let served = Served::start(&[]);
    let address = served.base.trim_start_matches("http://").to_owned();
    let head = format!(
        "POST /api/lint HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/atom+xml\r\nContent-Length: 100000\r\n\r\n"
    );
    let mut silent: Vec<TcpStream> = (0..64)
        .map(|_| {
            let mut stream = connect_from("127.0.0.1", &served.base);
            stream.write_all(head.as_bytes()).unwrap();
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let feed = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/rules/archive-missing-current/fail-no-current.atom"),
    )
    .unwrap();
    let mut paste = connect_from("127.0.0.2", &served.base);
    let post = format!(
        "POST /api/lint?name=feed.atom HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/atom+xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        feed.len()
    );
    paste.write_all(post.as_bytes()).unwrap();
    paste.write_all(&feed).unwrap();
    assert_eq!(status_of(&mut paste), 200, "another client's paste");
    let mut by_url = connect_from("127.0.0.1", &served.base);
    let get = format!("GET /api/lint?url=http%3A%2F%2F127.0.0.1%3A9%2Ffeed.atom HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    by_url.write_all(get.as_bytes()).unwrap();
    assert_ne!(status_of(&mut by_url), 503, "a check by URL takes no body reader");
    // The flooding address got its share (cut after the grace, 408); the
    // others were refused at once.
    let statuses: Vec<u16> = silent.iter_mut().map(status_of).collect();
    assert_eq!(
        statuses.iter().filter(|&&status| status == 503).count(),
        56,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|&&status| status == 408).count(),
        8,
        "{statuses:?}"
    );
}

/// The CPU time the process `pid` has used so far, in clock ticks
/// (/proc/PID/stat: user and system).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command name, which is in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[test]
fn the_fixed_file_holds_every_fix_and_only_a_page_makes_it() {
    let served = Served::start(&[]);
    let feed = common::legacy_explicit_podcast(1000);
    // The API offers no fixed file, and makes none: it lints once, where
    // the page lints again to fix (at least twice more), so the page costs
    // the server well over one and a half times the API's CPU.
    let before = cpu_ticks(served.child.id());
    for _ in 0..3 {
        let (status, _) = raw_post(&served.base, "/api/lint", "application/rss+xml", feed.as_bytes());
        assert_eq!(status, 200);
    }
    let api = cpu_ticks(served.child.id()) - before;
    let before = cpu_ticks(served.child.id());
    let mut page = String::new();
    for _ in 0..3 {
        page = post_form(&served.base, &[("text", &feed)]).1;
    }
    let with_fixed = cpu_ticks(served.child.id()) - before;
    eprintln!("page {with_fixed} ticks, API {api} ticks");
    assert!(with_fixed * 2 > api * 3, "page {with_fixed} ticks, API {api} ticks");
    // And the page's fixed file holds all 1,000 fixes.
    let downloaded = String::from_utf8(fixed_download(&served, &page)).unwrap();
    assert_eq!(
        downloaded.matches("<itunes:explicit>true</itunes:explicit>").count(),
        1000
    );
}

#[test]
fn the_links_to_copy_name_the_public_url_not_the_host_a_client_sent() {
    // The badge and result links a page gives are made from --public-url;
    // a request's Host (or X-Forwarded-Host, unless --trust-proxy) names
    // nothing in them.
    let feeds = feeds_server(
        vec![("/feed.atom", atom("/feed.atom", &[], false, "t"))],
        Duration::ZERO,
    );
    let feed: String = url::form_urlencoded::byte_serialize(format!("{feeds}/feed.atom").as_bytes()).collect();
    let shared = |served: &Served, headers: &str| {
        let page = String::from_utf8_lossy(&raw_request(
            &served.base,
            &format!("GET /check?url={feed}"),
            headers,
            b"",
        ))
        .into_owned();
        let at = page.find("id=\"badge-markdown\"").unwrap_or_else(|| panic!("{page}"));
        page[at..]
            .split("value=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .to_owned()
    };
    let served = Served::start(&["--public-url", "https://feeds.example.org/validator/"]);
    let markdown = shared(&served, "X-Forwarded-Host: evil.example\r\n");
    assert!(
        markdown.contains(&format!("(https://feeds.example.org/validator/badge?url={feed})")),
        "{markdown}"
    );
    assert!(!markdown.contains("evil"), "{markdown}");
    // Behind a proxy it trusts, its forwarded host and scheme.
    let proxied = Served::start(&["--trust-proxy"]);
    let markdown = shared(
        &proxied,
        "X-Forwarded-Host: feeds.example.net\r\nX-Forwarded-Proto: https\r\n",
    );
    assert!(markdown.contains("(https://feeds.example.net/badge?url="), "{markdown}");
    // Without either, the forwarded headers are ignored.
    let plain = Served::start(&[]);
    let markdown = shared(&plain, "X-Forwarded-Host: evil.example\r\n");
    assert!(!markdown.contains("evil"), "{markdown}");
    // And a public URL that is no http(s) address is refused at start.
    let output = Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(["serve", "--public-url", "ftp://feeds.example.org/"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

/// `serve --health-check` (a container's health check) asks `/healthz` of
/// the server on `--listen`: 0 when it answers 200, 1 when it does not.
#[test]
fn the_health_check_says_whether_the_server_answers() {
    let check = |listen: &str| {
        Command::new(env!("CARGO_BIN_EXE_feedlint"))
            .args(["serve", "--listen", listen, "--health-check"])
            .output()
            .unwrap()
    };
    let served = Served::start_with(&[]);
    let listen = served.base.trim_start_matches("http://").to_owned();
    let healthy = check(&listen);
    assert_eq!(healthy.status.code(), Some(0), "{}", stderr(&healthy));
    assert!(healthy.stdout.is_empty() && healthy.stderr.is_empty());
    // Listening on every address, it is asked on loopback.
    let port = listen.rsplit_once(':').unwrap().1;
    assert_eq!(check(&format!("0.0.0.0:{port}")).status.code(), Some(0));
    let response = raw_get(&served.base, "/healthz", "");
    let (head, body) = split_response(&response);
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert_eq!(body, b"ok\n");
    drop(served);
    let gone = check(&listen);
    assert_eq!(gone.status.code(), Some(1));
    assert!(
        stderr(&gone).contains(&format!("no healthy server at {listen}")),
        "{}",
        stderr(&gone)
    );
    // A server that answers something else is not feedlint's, or not well.
    let other = feeds_server(Vec::new(), Duration::ZERO);
    let other = check(other.trim_start_matches("http://"));
    assert_eq!(other.status.code(), Some(1));
    assert!(
        stderr(&other).contains("it answered \"HTTP/1.1 404 Not Found\""),
        "{}",
        stderr(&other)
    );
}

#[test]
fn json_feeds_by_paste_upload_and_api() {
    let served = Served::start(&[]);
    // Pasted: checked as JSON, not as broken XML.
    let feed = r#"{"version": "https://jsonfeed.org/version/1.1", "title": "t", "items": [{"id": "1"}]}"#;
    let (status, page) = post_form(&served.base, &[("text", feed)]);
    let (verdict, rules) = verdict_and_rules(&page);
    assert_eq!((status, verdict.as_str()), (200, "Not valid"));
    assert_eq!(rules, ["json-feed-missing-member"]);
    // The paged example uploaded as its folder: the command line's findings.
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/json-feed");
    let files: Vec<(String, Vec<u8>)> = ["feed.json", "feed-2.json"]
        .iter()
        .map(|name| (format!("json-feed/{name}"), std::fs::read(example.join(name)).unwrap()))
        .collect();
    let (status, page) = post_upload(&served.base, &files);
    let (verdict, mut rules) = verdict_and_rules(&page);
    rules.sort();
    assert_eq!((status, verdict.as_str()), (200, "Not valid"), "{page}");
    assert_eq!(rules, ["json-feed-url-mismatch", "paging-link-dangling"]);
    // The API, sent as application/feed+json.
    let mut response = agent()
        .post(format!("{}/api/lint?name=feed.json", served.base))
        .header("Content-Type", "application/feed+json")
        .send(feed.as_bytes())
        .unwrap();
    assert_eq!(response.status(), 200);
    let report: Value = serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
    assert_eq!(report["diagnostics"][0]["rule"], "json-feed-missing-member");
    assert_eq!(report["summary"]["kinds"]["json-feed"], 1);
    // A URL, paged through by its next_url (relative here: said, and
    // resolved against the URL fetched, as readers do).
    let page = |next: &str, id: &str| {
        format!(
            r#"{{"version": "https://jsonfeed.org/version/1.1", "title": "t", {next}"items": [{{"id": "{id}", "content_text": "x"}}]}}"#
        )
    };
    let feeds = feeds_server(
        vec![
            ("/feed.json", page(r#""next_url": "feed-2.json", "#, "2")),
            ("/feed-2.json", page("", "1")),
        ],
        Duration::ZERO,
    );
    let agent = agent();
    let (_, report) = post_api(&agent, &served.base, &json!({ "url": format!("{feeds}/feed.json") }));
    assert_eq!(report["summary"]["documents"], 2, "{report}");
    assert_eq!(report["summary"]["kinds"]["json-feed"], 2, "{report}");
    assert_eq!(common::rules_of(&report), ["json-feed-relative-url"], "{report}");
}
