//! `--check-media`: what the servers of a podcast's enclosures and artwork
//! answer, against test servers on loopback (and, for a redirect to a
//! private address, on addresses of a network namespace the test makes).
//! No request leaves the machine.

use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common;
use common::http::{status, Reply, Seen, Server};
use common::{json, messages, rules_of, scratch, stderr};

/// The bytes of an enclosure: large enough that a whole body differs from
/// one byte.
fn episode_bytes() -> Vec<u8> {
    vec![0x49; 5000]
}

/// A PNG's first bytes: the signature and the header chunk.
fn png(width: u32, height: u32, colour_type: u8) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.extend(width.to_be_bytes());
    bytes.extend(height.to_be_bytes());
    bytes.extend([8, colour_type, 0, 0, 0, 0, 0, 0, 0]);
    bytes.extend([0u8; 200]);
    bytes
}

/// A JPEG's first bytes: an APP0 segment, then a baseline frame header of
/// `components` components.
fn jpeg(width: u16, height: u16, components: u8) -> Vec<u8> {
    let mut bytes = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10];
    bytes.extend(b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
    bytes.extend([0xFF, 0xC0, 0x00, 8 + 3 * components, 8]);
    bytes.extend(height.to_be_bytes());
    bytes.extend(width.to_be_bytes());
    bytes.push(components);
    for id in 1..=components {
        bytes.extend([id, 0x11, 0]);
    }
    bytes.extend([0u8; 200]);
    bytes
}

/// How a media server treats a file.
#[derive(Clone, Copy)]
struct Serving {
    /// Answers HEAD (else 405).
    head: bool,
    /// Takes byte ranges (Accept-Ranges, 206).
    ranges: bool,
}

const WELL: Serving = Serving {
    head: true,
    ranges: true,
};

/// The answer of a media server to `seen`, for a file of `body`.
fn serve_file(seen: &Seen, body: &[u8], content_type: &str, serving: Serving) -> Reply {
    let mut headers = vec![("Content-Type", content_type.to_owned())];
    if serving.ranges {
        headers.push(("Accept-Ranges", "bytes".to_owned()));
    }
    if seen.method == "HEAD" && !serving.head {
        return status(405);
    }
    let range = seen
        .range
        .as_deref()
        .and_then(|range| range.strip_prefix("bytes=0-"))
        .and_then(|last| last.parse::<usize>().ok());
    match range {
        Some(last) if serving.ranges && seen.method == "GET" => {
            let end = last.min(body.len() - 1);
            headers.push(("Content-Range", format!("bytes 0-{end}/{}", body.len())));
            Reply {
                status: 206,
                headers,
                body: body[..=end].to_vec(),
                delay: Duration::ZERO,
            }
        }
        _ => Reply {
            status: 200,
            headers,
            body: body.to_vec(),
            delay: Duration::ZERO,
        },
    }
}

/// An RSS podcast at `base` + `/feed.xml`: its artwork, and one episode
/// for each enclosure (URL, type, length).
fn podcast(base: &str, artwork: &str, enclosures: &[(&str, &str, &str)]) -> String {
    let items: String = enclosures
        .iter()
        .enumerate()
        .map(|(n, (url, media_type, length))| {
            format!(
                "<item><title>Episode {n}</title><guid isPermaLink=\"false\">ep-{n}</guid>\
                 <pubDate>Mon, 06 Jan 2025 09:00:00 GMT</pubDate>\
                 <enclosure url=\"{url}\" type=\"{media_type}\" length=\"{length}\"/></item>"
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?>\n<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\" \
         xmlns:atom=\"http://www.w3.org/2005/Atom\"><channel><title>Show</title><link>https://example.org/</link>\
         <description>A show.</description><language>en</language>\
         <atom:link rel=\"self\" href=\"{base}/feed.xml\" type=\"application/rss+xml\"/>\
         <itunes:image href=\"{artwork}\"/><itunes:category text=\"News\"/><itunes:explicit>false</itunes:explicit>\
         {items}</channel></rss>"
    )
}

fn rss(body: String) -> Reply {
    Reply {
        status: 200,
        headers: vec![("Content-Type", "application/rss+xml".into())],
        body: body.into_bytes(),
        delay: Duration::ZERO,
    }
}

fn feedlint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .output()
        .unwrap()
}

/// The media findings of a JSON report, as (rule, message).
fn media_findings(output: &Output) -> Vec<(String, String)> {
    let report = json(output);
    rules_of(&report)
        .into_iter()
        .zip(messages(&report))
        .filter(|(rule, _)| rule.starts_with("media-") || rule.starts_with("artwork-"))
        .collect()
}

/// Lints `/feed.xml` of `server` with --check-media (and `extra`).
fn check(server: &Server, extra: &[&str]) -> Output {
    let url = server.url("/feed.xml");
    let mut args = vec!["--format", "json", "--check-media"];
    args.extend(extra);
    args.push(&url);
    feedlint(&args)
}

/// A server of one podcast: `/feed.xml`, `/ep.mp3` served as `episode`
/// says, `/art.png` (or whatever the artwork path is) as `art` says.
fn media_server(
    art_path: &'static str,
    art: Vec<u8>,
    art_type: &'static str,
    art_serving: Serving,
    episode: Serving,
    declared_length: &'static str,
) -> Server {
    Server::start_seeing(move |seen, base| match seen.path.as_str() {
        "/feed.xml" => rss(podcast(
            base,
            &format!("{base}{art_path}"),
            &[(&format!("{base}/ep.mp3"), "audio/mpeg", declared_length)],
        )),
        "/ep.mp3" => serve_file(seen, &episode_bytes(), "audio/mpeg", episode),
        path if path == art_path => serve_file(seen, &art, art_type, art_serving),
        _ => status(404),
    })
}

#[test]
fn media_that_answers_head_and_ranges_has_no_finding() {
    let server = media_server("/art.png", png(3000, 3000, 2), "image/png", WELL, WELL, "5000");
    let output = check(&server, &[]);
    assert_eq!(
        media_findings(&output),
        Vec::<(String, String)>::new(),
        "{}",
        stderr(&output)
    );
    // The enclosure: one HEAD, which names byte ranges. The artwork: HEAD,
    // then its first bytes.
    let asked: Vec<(String, String, Option<String>)> = server
        .seen()
        .into_iter()
        .filter(|seen| seen.path != "/feed.xml")
        .map(|seen| (seen.method, seen.path, seen.range))
        .collect();
    assert!(asked.contains(&("HEAD".into(), "/ep.mp3".into(), None)), "{asked:?}");
    assert!(
        asked.contains(&("GET".into(), "/art.png".into(), Some("bytes=0-65535".into()))),
        "{asked:?}"
    );
    assert_eq!(asked.len(), 3, "{asked:?}");
    // Without --check-media, no media is asked.
    let before = server.seen().len();
    let output = feedlint(&["--format", "json", &server.url("/feed.xml")]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(server.seen().len(), before + 1);
    // Nor with every media rule ignored.
    let output = check(&server, &["--ignore", "media"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(server.seen().len(), before + 2);
}

#[test]
fn a_server_that_refuses_head_is_asked_with_a_ranged_get() {
    let refusing = Serving {
        head: false,
        ranges: true,
    };
    let server = media_server("/art.png", png(1400, 1400, 6), "image/png", refusing, refusing, "5000");
    let output = check(&server, &[]);
    // The enclosure's size comes from the 206's Content-Range: it agrees.
    assert_eq!(
        media_findings(&output),
        [(
            "media-head-refused".to_owned(),
            format!(
                "{} refuses HEAD requests, though it serves the image to GET",
                server.url("/art.png")
            )
        )]
    );
    let ranged = server
        .seen()
        .into_iter()
        .filter(|seen| seen.path == "/ep.mp3" && seen.method == "GET")
        .map(|seen| seen.range)
        .collect::<Vec<_>>();
    assert_eq!(ranged, [Some("bytes=0-0".to_owned())]);
}

#[test]
fn a_server_without_byte_ranges_and_a_wrong_length() {
    let whole = Serving {
        head: true,
        ranges: false,
    };
    let server = media_server("/art.png", png(3000, 3000, 2), "image/png", WELL, whole, "0");
    let output = check(&server, &[]);
    let found = media_findings(&output);
    let url = server.url("/ep.mp3");
    assert_eq!(
        found,
        [
            (
                "media-no-byte-ranges".to_owned(),
                format!("{url} takes no byte-range request: its server answers Range: bytes=0-0 with the whole file")
            ),
            (
                "media-length-mismatch".to_owned(),
                format!("length is 0, but {url} is 5,000 bytes")
            ),
        ],
    );
}

#[test]
fn cmyk_and_small_artwork_and_artwork_of_another_format() {
    let cmyk = media_server("/art.jpg", jpeg(3000, 3000, 4), "image/jpeg", WELL, WELL, "5000");
    let found = media_findings(&check(&cmyk, &[]));
    assert_eq!(
        found,
        [(
            "artwork-not-rgb".to_owned(),
            format!("{} is a CMYK image, not RGB", cmyk.url("/art.jpg"))
        )]
    );
    let small = media_server("/art.png", png(1200, 1200, 2), "image/png", WELL, WELL, "5000");
    let found = media_findings(&check(&small, &[]));
    assert_eq!(
        found,
        [(
            "artwork-wrong-size".to_owned(),
            format!(
                "{} is 1200 x 1200 pixels, outside 1400 to 3000 on a side",
                small.url("/art.png")
            )
        )]
    );
    let tall = media_server("/art.png", png(1400, 2000, 0), "image/png", WELL, WELL, "5000");
    let rules: Vec<String> = media_findings(&check(&tall, &[]))
        .into_iter()
        .map(|(rule, _)| rule)
        .collect();
    assert_eq!(rules, ["artwork-not-rgb", "artwork-not-square"]);
    // A JPEG named .png; a WebP named .jpg.
    let misnamed = media_server("/art.png", jpeg(1400, 1400, 3), "image/png", WELL, WELL, "5000");
    let found = media_findings(&check(&misnamed, &[]));
    assert_eq!(
        found,
        [(
            "artwork-wrong-format".to_owned(),
            format!(
                "{} is a JPEG image, but its extension names PNG",
                misnamed.url("/art.png")
            )
        )]
    );
    let webp = b"RIFF\x24\0\0\0WEBPVP8X\x0a\0\0\0\0\0\0\0\x77\x05\0\x77\x05\0".to_vec();
    let other = media_server("/art.jpg", webp, "image/webp", WELL, WELL, "5000");
    let found = media_findings(&check(&other, &[]));
    assert_eq!(found[0].0, "artwork-wrong-format", "{found:?}");
    assert_eq!(
        found[0].1,
        format!("{} is a WebP image, not JPEG or PNG", other.url("/art.jpg"))
    );
}

#[test]
fn missing_media_a_wrong_type_and_a_hanging_server() {
    let server = Server::start_seeing(|seen, base| match seen.path.as_str() {
        "/feed.xml" => rss(podcast(
            base,
            &format!("{base}/gone.png"),
            &[
                (&format!("{base}/ep.mp3"), "audio/mpeg", "5000"),
                (&format!("{base}/m4a.mp3"), "audio/mpeg", "5000"),
                (&format!("{base}/hang.mp3"), "audio/mpeg", "5000"),
            ],
        )),
        "/m4a.mp3" => serve_file(seen, &episode_bytes(), "audio/x-m4a", WELL),
        "/hang.mp3" => Reply {
            delay: Duration::from_secs(30),
            ..serve_file(seen, &episode_bytes(), "audio/mpeg", WELL)
        },
        _ => status(404),
    });
    let started = Instant::now();
    let output = check(&server, &["--timeout", "1"]);
    assert!(started.elapsed() < Duration::from_secs(15), "{:?}", started.elapsed());
    let found = media_findings(&output);
    let (gone, missing, m4a, hang) = (
        server.url("/gone.png"),
        server.url("/ep.mp3"),
        server.url("/m4a.mp3"),
        server.url("/hang.mp3"),
    );
    assert_eq!(
        found,
        [
            ("media-unavailable".to_owned(), format!("{gone} answers HTTP 404")),
            ("media-unavailable".to_owned(), format!("{missing} answers HTTP 404")),
            (
                "media-type-mismatch".to_owned(),
                format!("type is \"audio/mpeg\", but {m4a} is served as audio/x-m4a")
            ),
            (
                "media-unreachable".to_owned(),
                format!("{hang} was not checked: no complete answer within --timeout")
            ),
        ],
    );
    // A 404 to HEAD is asked again with GET, as a server that refuses
    // HEAD would be.
    let methods: Vec<String> = server
        .seen()
        .into_iter()
        .filter(|seen| seen.path == "/ep.mp3")
        .map(|seen| seen.method)
        .collect();
    assert_eq!(methods, ["HEAD", "GET"]);
    assert_eq!(
        json(&output)["summary"]["errors"].as_u64(),
        Some(2),
        "{}",
        stderr(&output)
    );
}

#[test]
fn at_most_two_requests_to_one_host_and_max_media_per_run() {
    let busy = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let (in_handler, peak) = (Arc::clone(&busy), Arc::clone(&most));
    let server = Server::start_seeing(move |seen, base| {
        if seen.path == "/feed.xml" {
            let urls: Vec<String> = (0..12).map(|n| format!("{base}/ep{n}.mp3")).collect();
            let enclosures: Vec<(&str, &str, &str)> = urls.iter().map(|u| (u.as_str(), "audio/mpeg", "5000")).collect();
            return rss(podcast(base, &format!("{base}/art.png"), &enclosures));
        }
        let now = in_handler.fetch_add(1, Ordering::SeqCst) + 1;
        peak.fetch_max(now, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(100));
        in_handler.fetch_sub(1, Ordering::SeqCst);
        if seen.path == "/art.png" {
            serve_file(seen, &png(3000, 3000, 2), "image/png", WELL)
        } else {
            serve_file(seen, &episode_bytes(), "audio/mpeg", WELL)
        }
    });
    let output = check(&server, &["--jobs", "8", "--max-media", "6"]);
    let found = media_findings(&output);
    // The artwork and five episodes were asked: the seventh URL is the
    // first one not asked.
    assert_eq!(
        found,
        [(
            "media-limit-reached".to_owned(),
            format!(
                "the media check stopped at 6 URLs (--max-media); 7 more media URLs, {} first, were not asked",
                server.url("/ep5.mp3")
            )
        )]
    );
    let asked = server.seen().iter().filter(|seen| seen.path != "/feed.xml").count();
    assert_eq!(asked, 7, "the artwork's HEAD and GET, five enclosures' HEAD");
    assert!(
        most.load(Ordering::SeqCst) <= 2,
        "{} at once",
        most.load(Ordering::SeqCst)
    );
    assert_eq!(most.load(Ordering::SeqCst), 2, "two at once, not one by one");
}

#[test]
fn a_local_file_asks_media_under_the_strict_policy() {
    let server = media_server("/art.png", png(3000, 3000, 2), "image/png", WELL, WELL, "5000");
    let dir = scratch("media-local");
    let feed = dir.join("feed.xml");
    std::fs::write(
        &feed,
        podcast(
            "https://example.org",
            &server.url("/art.png"),
            &[(&server.url("/ep.mp3"), "audio/mpeg", "5000")],
        ),
    )
    .unwrap();
    let feed = feed.to_str().unwrap();
    // A file has no start URL: loopback is refused, without connecting.
    let output = feedlint(&["--format", "json", "--check-media", feed]);
    let found = media_findings(&output);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found
            .iter()
            .all(|(rule, message)| rule == "media-unreachable" && message.contains("refused to connect to 127.0.0.1")),
        "{found:?}"
    );
    assert_eq!(server.seen().len(), 0);
    // The user may open it.
    let output = feedlint(&["--format", "json", "--check-media", "--allow-private-addresses", feed]);
    assert_eq!(media_findings(&output), Vec::<(String, String)>::new());
    assert_eq!(server.seen().len(), 3);
    // Fixing and checking media are separate runs.
    let output = feedlint(&["--check-media", "--fix", feed]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--check-media asks servers"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn progress_is_shown_on_a_terminal_after_a_second() {
    let server = Server::start_seeing(|seen, base| match seen.path.as_str() {
        "/feed.xml" => {
            let urls: Vec<String> = (0..6).map(|n| format!("{base}/ep{n}.mp3")).collect();
            let enclosures: Vec<(&str, &str, &str)> = urls.iter().map(|u| (u.as_str(), "audio/mpeg", "5000")).collect();
            rss(podcast(base, &format!("{base}/art.png"), &enclosures))
        }
        "/art.png" => serve_file(seen, &png(3000, 3000, 2), "image/png", WELL),
        _ => Reply {
            delay: Duration::from_millis(500),
            ..serve_file(seen, &episode_bytes(), "audio/mpeg", WELL)
        },
    });
    // `script` gives the run a terminal; standard error shows the count.
    let command = format!(
        "{} --check-media --format concise {}",
        env!("CARGO_BIN_EXE_feedlint"),
        server.url("/feed.xml")
    );
    let output = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(shown.contains("feedlint: checked "), "{shown}");
    assert!(shown.contains(" of 7 media URLs"), "{shown}");
    assert!(
        !shown.contains("checked 1 of 7"),
        "nothing in the first second: {shown}"
    );
    // Not on a pipe.
    let output = check(&server, &[]);
    assert!(!stderr(&output).contains("media URLs"), "{}", stderr(&output));
}

/// Set in the copy of the test binary that runs inside a network
/// namespace of its own.
const IN_NAMESPACE: &str = "FEEDLINT_TEST_IN_NETWORK_NAMESPACE";

fn redirect(to: String) -> Reply {
    Reply {
        headers: vec![("Location", to)],
        ..status(302)
    }
}

#[test]
fn a_redirect_from_a_public_start_to_a_private_address_is_never_followed() {
    const NAME: &str = "media::a_redirect_from_a_public_start_to_a_private_address_is_never_followed";
    if std::env::var_os(IN_NAMESPACE).is_none() {
        // Again, in a new user and network namespace: its own loopback
        // interface, which the test gives a public and a private address.
        // Nothing outside the namespace can be reached from it.
        let output = Command::new("unshare")
            .args(["--user", "--map-root-user", "--net", "--"])
            .arg(std::env::current_exe().unwrap())
            .args(["--exact", NAME, "--nocapture", "--test-threads", "1"])
            .env(IN_NAMESPACE, "1")
            .output()
            .unwrap();
        let said = common::said(&output);
        assert!(output.status.success(), "{said}");
        assert!(said.contains("1 passed"), "{said}");
        return;
    }
    for args in [
        &["link", "set", "lo", "up"][..],
        &["addr", "add", "93.184.215.14/32", "dev", "lo"][..],
        &["addr", "add", "10.0.0.5/32", "dev", "lo"][..],
    ] {
        let status = Command::new("ip").args(args).status().unwrap();
        assert!(status.success(), "ip {args:?}");
    }
    let private = Server::start_on("10.0.0.5", |seen, _| match seen.path.as_str() {
        "/art.png" => serve_file(seen, &png(3000, 3000, 2), "image/png", WELL),
        _ => serve_file(seen, &episode_bytes(), "audio/mpeg", WELL),
    });
    let inside = private.base.clone();
    // 93.184.215.14 is a public address; here it is the namespace's own.
    let public = Server::start_on("93.184.215.14", move |seen, base| match seen.path.as_str() {
        "/feed.xml" => rss(podcast(
            base,
            &format!("{base}/art.png"),
            &[(&format!("{base}/ep.mp3"), "audio/mpeg", "5000")],
        )),
        path => redirect(format!("{inside}{path}")),
    });
    // The private server answers whoever asks it directly.
    assert!(std::net::TcpStream::connect(private.base.trim_start_matches("http://")).is_ok());
    let output = check(&public, &[]);
    let found = media_findings(&output);
    assert_eq!(found.len(), 2, "{found:?}");
    for (rule, message) in &found {
        assert_eq!(rule, "media-unreachable");
        assert!(message.contains("refused to connect to 10.0.0.5"), "{message}");
    }
    assert_eq!(public.seen().len(), 3, "the feed, and the first hop of each media URL");
    assert!(private.seen().is_empty(), "{:?}", private.seen());
}

/// `examples/podcast/` as a host serves it: its two hosts are one
/// loopback server here, told apart by path.
const PODCAST_HOST: &str = "https://podcast.example.org";
const MEDIA_HOST: &str = "https://media.example.org";

/// docs/podcasts.md shows what `--check-media` prints for
/// `examples/podcast/` served with realistic faults: a missing episode, a
/// re-encoded one, a CMYK artwork, a small episode image. Each line it
/// quotes is what the run prints (the loopback server named as the hosts).
#[test]
fn the_readme_shows_what_check_media_prints_for_the_podcast_example() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let served = |text: String, base: &str| text.replace(PODCAST_HOST, base).replace(MEDIA_HOST, base);
    let server = Server::start_seeing(move |seen, base| {
        let path = seen.path.as_str();
        if path.ends_with(".rss") {
            return match std::fs::read_to_string(root.join("examples/podcast").join(&path[1..])) {
                Ok(text) => rss(served(text, base)),
                Err(_) => status(404),
            };
        }
        let file = |size: usize, content_type: &str| {
            let mut headers = vec![
                ("Content-Type", content_type.to_owned()),
                ("Accept-Ranges", "bytes".to_owned()),
            ];
            headers.push(("Content-Length", size.to_string()));
            Reply {
                status: 200,
                headers,
                body: Vec::new(),
                delay: Duration::ZERO,
            }
        };
        match path {
            "/liftoff/8.mp3" => status(404),
            "/liftoff/9.mp3" => file(25_013_760, "audio/mpeg"),
            mp3 if mp3.starts_with("/liftoff/") => file(24_986_239, "audio/mpeg"),
            "/artwork.jpg" => serve_file(seen, &jpeg(3000, 3000, 4), "image/jpeg", WELL),
            "/5.jpg" => serve_file(seen, &jpeg(1200, 1200, 3), "image/jpeg", WELL),
            image if image.ends_with(".jpg") => serve_file(seen, &jpeg(1400, 1400, 3), "image/jpeg", WELL),
            transcript if transcript.ends_with(".vtt") => {
                let mut reply = file(2_000, "text/vtt");
                reply.headers.push(("Access-Control-Allow-Origin", "*".to_owned()));
                reply
            }
            _ => status(404),
        }
    });
    let url = server.url("/feed.rss");
    let output = feedlint(&["--format", "json", "--check-media", &url]);
    let report = json(&output);
    let printed: Vec<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| {
            let rule = d["rule"].as_str().unwrap();
            rule.starts_with("media-") || rule.starts_with("artwork-")
        })
        .map(|d| {
            let message = d["message"].as_str().unwrap();
            let message = message
                .replace(&format!("{}/liftoff/", server.base), &format!("{MEDIA_HOST}/liftoff/"))
                .replace(&server.base, PODCAST_HOST);
            format!(
                "{}[{}]: {message}",
                d["level"].as_str().unwrap(),
                d["rule"].as_str().unwrap()
            )
        })
        .collect();
    let page = std::fs::read_to_string(root.join("docs/podcasts.md")).unwrap();
    let section = &page[page.find("## Checking the media").unwrap()..];
    let start = section.find("```text\n").unwrap() + "```text\n".len();
    let shown: Vec<&str> = section[start..start + section[start..].find("```").unwrap()]
        .lines()
        .collect();
    assert_eq!(
        shown, printed,
        "docs/podcasts.md shows {shown:#?}, the run prints {printed:#?}"
    );
}

#[test]
fn an_atom_entrys_enclosure_link_is_asked_too() {
    let server = Server::start_seeing(|seen, base| match seen.path.as_str() {
        "/feed.xml" => Reply {
            status: 200,
            headers: vec![("Content-Type", "application/atom+xml".into())],
            body: format!(
                "<feed xmlns=\"http://www.w3.org/2005/Atom\">{}<link rel=\"self\" href=\"{base}/feed.xml\"/>\
                 <entry><title>e</title><id>tag:example.org,2024:1</id><updated>2024-01-01T00:00:00Z</updated>\
                 <link href=\"https://example.org/1\"/>\
                 <link rel=\"enclosure\" href=\"{base}/ep.mp3\" type=\"audio/mpeg\" length=\"7\"/></entry></feed>",
                common::ATOM_HEAD
            )
            .into_bytes(),
            delay: Duration::ZERO,
        },
        "/ep.mp3" => serve_file(seen, &episode_bytes(), "audio/mpeg", WELL),
        _ => status(404),
    });
    let found = media_findings(&check(&server, &[]));
    assert_eq!(
        found,
        [(
            "media-length-mismatch".to_owned(),
            format!("length is 7, but {} is 5,000 bytes", server.url("/ep.mp3"))
        )]
    );
}

#[test]
fn max_time_bounds_the_walk_and_the_media_check_together() {
    let server = Server::start_seeing(|seen, base| match seen.path.as_str() {
        "/feed.xml" => {
            let urls: Vec<String> = (0..4).map(|n| format!("{base}/ep{n}.mp3")).collect();
            let enclosures: Vec<(&str, &str, &str)> = urls.iter().map(|u| (u.as_str(), "audio/mpeg", "5000")).collect();
            rss(podcast(base, &format!("{base}/art.png"), &enclosures))
        }
        _ => Reply {
            delay: Duration::from_secs(20),
            ..status(404)
        },
    });
    let started = Instant::now();
    let output = check(&server, &["--max-time", "2", "--timeout", "10"]);
    assert!(started.elapsed() < Duration::from_secs(8), "{:?}", started.elapsed());
    let found = media_findings(&output);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "media-limit-reached");
    assert!(
        found[0]
            .1
            .starts_with("the media check ran out of time after 2 seconds (--max-time); 5 more media URLs"),
        "{found:?}"
    );
}

#[test]
fn a_url_no_request_can_be_made_of_is_said_so() {
    let dir = scratch("media-not-a-url");
    let feed = dir.join("feed.xml");
    let podcast = podcast(
        "https://example.org",
        "https://example.org/art.png",
        &[
            ("http://exa%20mple.org/1.mp3", "audio/mpeg", "1"),
            ("http://exa mple.org/2.mp3", "audio/mpeg", "1"),
        ],
    );
    // Only the episodes' files; the artwork is left out, so nothing is asked.
    std::fs::write(
        &feed,
        podcast.replace("<itunes:image href=\"https://example.org/art.png\"/>", ""),
    )
    .unwrap();
    let output = feedlint(&["--format", "json", "--check-media", feed.to_str().unwrap()]);
    // An IRI whose host is no host: said by the media check alone. A value
    // that is no IRI at all is rss-invalid-url's, and the media check says
    // nothing more of it.
    assert_eq!(
        media_findings(&output),
        [(
            "media-unreachable".to_owned(),
            "http://exa%20mple.org/1.mp3 was not checked: it is not a valid URL: invalid international domain name"
                .to_owned()
        )]
    );
    assert_eq!(
        rules_of(&json(&output))
            .iter()
            .filter(|rule| *rule == "rss-invalid-url")
            .count(),
        1
    );
}

#[test]
fn two_origins_of_one_address_share_its_two_requests_at_once() {
    // Two servers on one address (two ports, so two origins): the media
    // of both is asked at most two at once in all, not two at once each.
    let busy = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let slow_file = |busy: Arc<AtomicUsize>, most: Arc<AtomicUsize>| {
        move |seen: &Seen| {
            let now = busy.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(100));
            busy.fetch_sub(1, Ordering::SeqCst);
            serve_file(seen, &episode_bytes(), "audio/mpeg", WELL)
        }
    };
    let other_file = slow_file(Arc::clone(&busy), Arc::clone(&most));
    let other = Server::start_seeing(move |seen, _| other_file(seen));
    let other_base = other.url("");
    let own_file = slow_file(Arc::clone(&busy), Arc::clone(&most));
    let server = Server::start_seeing(move |seen, base| {
        if seen.path == "/feed.xml" {
            let urls: Vec<String> = (0..6)
                .map(|n| format!("{base}/ep{n}.mp3"))
                .chain((0..6).map(|n| format!("{other_base}/ep{n}.mp3")))
                .collect();
            let enclosures: Vec<(&str, &str, &str)> = urls.iter().map(|u| (u.as_str(), "audio/mpeg", "5000")).collect();
            return rss(podcast(base, &format!("{base}/ep0.mp3"), &enclosures));
        }
        own_file(seen)
    });
    let output = check(&server, &["--jobs", "8"]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!other.seen().is_empty(), "the other origin's media was asked");
    assert_eq!(most.load(Ordering::SeqCst), 2, "two at once to the address, in all");
}

#[test]
fn redirects_spend_the_media_check_s_requests() {
    // Every file redirects five times before it is served: the check makes
    // two requests a URL asked, hops included, and says what it left.
    let server = Server::start_seeing(move |seen, base| {
        if seen.path == "/feed.xml" {
            let urls: Vec<String> = (0..5).map(|n| format!("{base}/ep{n}.mp3")).collect();
            let enclosures: Vec<(&str, &str, &str)> = urls.iter().map(|u| (u.as_str(), "audio/mpeg", "5")).collect();
            return rss(podcast(base, &format!("{base}/ep0.mp3"), &enclosures));
        }
        let hops = seen.path.matches("/r").count();
        if hops < 5 {
            return redirect(format!("{base}/r{}", seen.path));
        }
        serve_file(seen, &episode_bytes(), "audio/mpeg", WELL)
    });
    let output = check(&server, &["--max-media", "6"]);
    let asked = server.seen().iter().filter(|seen| seen.path != "/feed.xml").count();
    // Six URLs (the artwork and five episodes; ep0.mp3 twice, as artwork
    // and as an enclosure) allow twelve requests.
    assert_eq!(
        asked,
        12,
        "{:?}",
        server.seen().iter().map(|s| &s.path).collect::<Vec<_>>()
    );
    let found = media_findings(&output);
    assert!(
        found.iter().any(|(rule, message)| rule == "media-limit-reached"
            && message.contains("the media check made the 12 requests its 6 URLs allow (2 a URL, redirects included)")),
        "{found:?}"
    );
}

#[test]
fn transcripts_are_asked_as_a_web_page_asks_them() {
    let server = Server::start_seeing(|seen, base| match seen.path.as_str() {
        "/feed.xml" => rss(format!(
            "<?xml version=\"1.0\"?>\n<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\">\
             <channel><title>Show</title><link>https://example.org/</link><description>A show.</description>\
             <item><title>One</title><guid isPermaLink=\"false\">ep-1</guid>\
             <podcast:transcript url=\"{base}/open.vtt\" type=\"text/vtt\"/>\
             <podcast:transcript url=\"{base}/closed.vtt\" type=\"text/vtt\"/>\
             <podcast:transcript url=\"{base}/gone.vtt\" type=\"text/vtt\"/></item></channel></rss>"
        )),
        // CORS to a request that names its origin, as S3 and CDNs answer.
        "/open.vtt" => {
            let mut reply = serve_file(seen, b"WEBVTT\n", "text/vtt", WELL);
            if let Some(origin) = seen.header("origin") {
                reply.headers.push(("Access-Control-Allow-Origin", origin));
            }
            reply
        }
        "/closed.vtt" => serve_file(seen, b"WEBVTT\n", "text/vtt", WELL),
        _ => status(404),
    });
    let found = media_findings(&check(&server, &[]));
    let rules: Vec<&str> = found.iter().map(|(rule, _)| rule.as_str()).collect();
    assert_eq!(rules, ["media-transcript-no-cors", "media-unavailable"], "{found:?}");
    assert!(found[0].1.contains("/closed.vtt"), "{found:?}");
    assert!(found[1].1.contains("/gone.vtt answers HTTP 404"), "{found:?}");
    // One HEAD each, naming an origin.
    let asked: Vec<Seen> = server
        .seen()
        .into_iter()
        .filter(|seen| seen.path.ends_with(".vtt"))
        .collect();
    assert_eq!(asked.len(), 3, "{asked:?}");
    assert!(
        asked
            .iter()
            .all(|seen| seen.method == "HEAD" && seen.header("origin").is_some()),
        "{asked:?}"
    );
}
