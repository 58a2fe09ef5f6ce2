//! WebSub on fetched feeds: the `Link` header against the document, the
//! topic against the URL fetched, and `--check-hub`, against small servers
//! each test starts on 127.0.0.1 (no outside network).

use std::process::{Command, Output};

use crate::common;
use common::http::{ok, status, Reply, Server};
use common::{json, messages, rules_of};

/// An RSS feed whose channel holds `links` (already written `atom:link`s).
fn rss(links: &str) -> String {
    format!(
        "<rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\"><channel><title>t</title>\
         <link>https://example.org/</link><description>d</description>{links}\
         <item><title>i</title><guid>https://example.org/i</guid></item></channel></rss>"
    )
}

fn link(rel: &str, href: &str) -> String {
    format!("<atom:link rel=\"{rel}\" href=\"{href}\"/>")
}

/// `body` served with a `Link` header.
fn with_links(body: String, header: String) -> Reply {
    let mut reply = ok(body);
    reply.headers = vec![("Content-Type", "application/rss+xml".into()), ("Link", header)];
    reply
}

fn feedlint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .output()
        .unwrap()
}

/// The messages of the report's WebSub findings, in order.
fn websub_messages(report: &serde_json::Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"].as_str().unwrap().starts_with("websub-"))
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect()
}

/// The requests the server answered, less the conditional ones the http
/// rules make.
fn asked(server: &Server) -> usize {
    server.seen().iter().filter(|seen| !seen.conditional()).count()
}

fn websub_rules(report: &serde_json::Value) -> Vec<String> {
    rules_of(report)
        .into_iter()
        .filter(|rule| rule.starts_with("websub-"))
        .collect()
}

#[test]
fn header_and_document_that_agree_give_nothing() {
    let server = Server::start(|path, base| match path {
        "/feed.xml" => with_links(
            rss(&(link("hub", "https://hub.example.net/") + &link("self", &format!("{base}/feed.xml")))),
            format!("<https://hub.example.net/>; rel=\"hub\", <{base}/feed.xml>; rel=\"self\""),
        ),
        _ => status(404),
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/feed.xml")]));
    assert_eq!(websub_rules(&report), Vec::<String>::new(), "{:?}", messages(&report));
}

#[test]
fn a_header_that_names_another_topic_or_other_hubs() {
    let server = Server::start(|path, base| match path {
        "/topic" => with_links(
            rss(&(link("hub", "https://hub.example.net/") + &link("self", &format!("{base}/rss.xml")))),
            format!("<https://hub.example.net/>; rel=\"hub\", <{base}/topic>; rel=\"self\""),
        ),
        "/hubs" => with_links(
            rss(&(link("hub", "https://hub.example.net/") + &link("self", &format!("{base}/hubs")))),
            format!("<https://other-hub.example.net/>; rel=\"hub\", <{base}/hubs>; rel=\"self\""),
        ),
        _ => status(404),
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/topic")]));
    // The document's self names another file than the one fetched, and
    // the header says so: one finding at it (that the topic is not the URL
    // fetched follows from it).
    assert_eq!(websub_rules(&report), ["websub-header-mismatch"]);
    assert!(
        websub_messages(&report)[0].contains("the Link header's self URL is"),
        "{:?}",
        messages(&report)
    );
    let report = json(&feedlint(&["--format", "json", &server.url("/hubs")]));
    assert_eq!(websub_rules(&report), ["websub-header-mismatch"]);
    let message = &websub_messages(&report)[0];
    assert!(
        message.contains("the header only names https://other-hub.example.net/")
            && message.contains("the document only names https://hub.example.net/"),
        "{message}"
    );
}

#[test]
fn a_hub_named_in_the_header_only() {
    let server = Server::start(|path, base| match path {
        "/feed.xml" => with_links(
            rss(&link("self", &format!("{base}/feed.xml"))),
            format!("<https://hub.example.net/>; rel=\"hub\", <{base}/feed.xml>; rel=\"self\""),
        ),
        // A hub in the header, and no topic anywhere.
        "/no-topic.xml" => with_links(rss(""), "<https://hub.example.net/>; rel=\"hub\"".to_owned()),
        _ => status(404),
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/feed.xml")]));
    assert_eq!(websub_rules(&report), ["websub-hub-only-in-headers"]);
    assert!(websub_messages(&report)[0].contains("names the hub https://hub.example.net/, the document none"));
    let report = json(&feedlint(&["--format", "json", &server.url("/no-topic.xml")]));
    // No topic is the finding; where the hub is written waits for it.
    assert_eq!(websub_rules(&report), ["websub-missing-self"]);
    // A topic in the header is a topic: the document's hub is enough.
    let server = Server::start(|_, base| {
        with_links(
            rss(&link("hub", "https://hub.example.net/")),
            format!("<{base}/feed.xml>; rel=\"self\""),
        )
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/feed.xml")]));
    assert_eq!(websub_rules(&report), Vec::<String>::new(), "{:?}", messages(&report));
}

#[test]
fn a_topic_that_is_another_url_than_the_one_fetched() {
    let server = Server::start(|path, base| match path {
        "/feed.xml" => ok(rss(
            &(link("hub", "https://hub.example.net/") + &link("self", "https://feeds.example.net/example"))
        )),
        // Redirected: the URL asked for is the topic.
        "/old.xml" => Reply {
            status: 301,
            headers: vec![("Location", format!("{base}/new.xml"))],
            body: Vec::new(),
            delay: std::time::Duration::ZERO,
        },
        "/new.xml" => ok(rss(
            &(link("hub", "https://hub.example.net/") + &link("self", &format!("{base}/old.xml")))
        )),
        _ => status(404),
    });
    let report = json(&feedlint(&["--format", "json", &server.url("/feed.xml")]));
    assert_eq!(websub_rules(&report), ["websub-topic-mismatch"]);
    assert_eq!(report["diagnostics"][0]["level"], "info");
    assert!(messages(&report)[0]
        .starts_with("subscribers subscribe to https://feeds.example.net/example, not to http://127.0.0.1:"));
    let report = json(&feedlint(&["--format", "json", &server.url("/old.xml")]));
    assert_eq!(websub_rules(&report), Vec::<String>::new(), "{:?}", messages(&report));
    // A later page reached by next names the feed's topic, not its own:
    // only the page named is judged.
    let paged = Server::start(|path, base| {
        let hub = link("hub", "https://hub.example.net/") + &link("self", &format!("{base}/feed.xml"));
        match path {
            "/feed.xml" => ok(rss(&(hub + &link("next", &format!("{base}/page-2.xml"))))),
            "/page-2.xml" => ok(rss(&hub)),
            _ => status(404),
        }
    });
    let report = json(&feedlint(&["--format", "json", &paged.url("/feed.xml")]));
    assert_eq!(report["summary"]["documents"], 2);
    assert_eq!(websub_rules(&report), Vec::<String>::new(), "{:?}", messages(&report));
}

#[test]
fn check_hub_asks_each_hub_once_by_head_and_never_subscribes() {
    let server = Server::start_seeing(|seen, base| match seen.path.as_str() {
        "/feed.xml" => ok(rss(&(link("hub", &format!("{base}/hub"))
            + &link("hub", &format!("{base}/gone"))
            + &link("hub", "http://127.0.0.1:9/closed")
            + &link("self", &format!("{base}/feed.xml"))))),
        "/page-2.xml" => ok(rss(
            &(link("hub", &format!("{base}/hub")) + &link("self", &format!("{base}/page-2.xml")))
        )),
        // A hub answers a request without hub.mode as it likes: it is there.
        "/hub" => status(405),
        "/gone" => status(410),
        _ => status(404),
    });
    let output = feedlint(&[
        "--format",
        "json",
        "--check-hub",
        &server.url("/feed.xml"),
        &server.url("/page-2.xml"),
    ]);
    let report = json(&output);
    assert_eq!(
        websub_rules(&report),
        ["websub-hub-unreachable", "websub-hub-unreachable"],
        "{:?}",
        messages(&report)
    );
    let said = messages(&report);
    assert!(said.iter().any(|m| m.ends_with("/gone answers HTTP 410")), "{said:?}");
    assert!(
        said.iter()
            .any(|m| m.contains("http://127.0.0.1:9/closed gives no answer")),
        "{said:?}"
    );
    let hub_requests: Vec<(String, String)> = server
        .seen()
        .into_iter()
        .filter(|seen| seen.path == "/hub" || seen.path == "/gone")
        .map(|seen| (seen.method, seen.path))
        .collect();
    // Named by both feeds, asked once; HEAD only, never a POST.
    assert_eq!(hub_requests.len(), 2, "{hub_requests:?}");
    assert!(
        hub_requests.iter().all(|(method, _)| method == "HEAD"),
        "{hub_requests:?}"
    );
    // Without the flag, no hub is asked.
    let before = asked(&server);
    let report = json(&feedlint(&["--format", "json", &server.url("/feed.xml")]));
    assert_eq!(websub_rules(&report), Vec::<String>::new());
    assert_eq!(asked(&server), before + 1);
    // With --ignore websub, none either.
    let report = json(&feedlint(&[
        "--format",
        "json",
        "--check-hub",
        "--ignore",
        "websub",
        &server.url("/feed.xml"),
    ]));
    assert_eq!(websub_rules(&report), Vec::<String>::new());
    assert_eq!(asked(&server), before + 2);
}

#[test]
fn check_hub_from_a_file_meets_the_address_policy() {
    let dir = common::scratch("websub-check-hub-file");
    let feed = dir.join("feed.xml");
    std::fs::write(
        &feed,
        rss(&(link("hub", "http://127.0.0.1:9/hub") + &link("self", "https://example.org/feed.xml"))),
    )
    .unwrap();
    let report = json(&feedlint(&["--format", "json", "--check-hub", feed.to_str().unwrap()]));
    assert_eq!(websub_rules(&report), ["websub-hub-unreachable"]);
    assert!(messages(&report)[0].contains("refused"), "{:?}", messages(&report));
    let output = feedlint(&["--check-hub", "--fix", feed.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
}
