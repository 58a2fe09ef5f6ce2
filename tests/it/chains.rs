//! Archive chains across many documents, linted in memory.

use feedlint::{lint_in_memory, InMemory, Options, Report};
use url::Url;

const ORIGIN: &str = "https://example.org/";

fn url(path: &str) -> Url {
    Url::parse(ORIGIN).unwrap().join(path).unwrap()
}

/// An archive `n` of `count`: archive 0 is the oldest; the newest is
/// followed by the subscription document.
fn archive(n: usize, count: usize, prev: Option<usize>) -> InMemory {
    let path = format!("archive/{n}.atom");
    let mut links = format!("<link rel=\"current\" href=\"{ORIGIN}index.atom\"/>");
    if let Some(prev) = prev {
        links += &format!("<link rel=\"prev-archive\" href=\"{prev}.atom\"/>");
    }
    if n + 1 < count {
        links += &format!("<link rel=\"next-archive\" href=\"{}.atom\"/>", n + 1);
    }
    let xml = format!(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:fh=\"http://purl.org/syndication/history/1.0\">\
         <title>t</title><id>tag:example.org,2024:feed</id><updated>2024-01-01T00:00:00Z</updated>\
         <author><name>a</name></author><fh:archive/><link rel=\"self\" href=\"{n}.atom\"/>{links}\
         <entry><title>e</title><link href=\"https://example.org/entries/{n}\"/>\
         <id>tag:example.org,2024:entry-{n}</id><updated>2024-01-01T00:00:00Z</updated></entry></feed>"
    );
    InMemory {
        url: Some(url(&path).into()),
        name: path,
        bytes: xml.into_bytes(),
    }
}

fn chain(count: usize, oldest_prev: Option<usize>) -> Report {
    let mut documents: Vec<_> = (0..count)
        .map(|n| archive(n, count, n.checked_sub(1).or(oldest_prev)))
        .collect();
    let index = format!(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:at=\"http://purl.org/atompub/tombstones/1.0\">\
         <title>t</title><id>tag:example.org,2024:feed</id><updated>2024-02-01T00:00:00Z</updated>\
         <author><name>a</name></author><link rel=\"self\" href=\"index.atom\"/><link rel=\"prev-archive\" href=\"archive/{}.atom\"/>\
         <at:deleted-entry ref=\"tag:example.org,2024:entry-0\" when=\"2024-01-15T00:00:00Z\"/></feed>",
        count - 1
    );
    documents.push(InMemory {
        name: "index.atom".to_owned(),
        url: Some(url("index.atom").into()),
        bytes: index.into_bytes(),
    });
    lint_in_memory(documents, &[ORIGIN], &Options::default()).unwrap()
}

/// Every walk over the chain is iterative and visits each document once:
/// ten thousand archives are linted without a finding and without
/// exhausting the stack.
#[test]
fn a_ten_thousand_document_chain_is_clean() {
    let report = chain(10_000, None);
    assert_eq!(report.documents.len(), 10_001);
    let found: Vec<_> = report
        .diagnostics
        .iter()
        .take(5)
        .map(|d| format!("{}: {}", d.rule, d.message))
        .collect();
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn a_cycle_at_the_end_of_a_long_chain_is_reported_once() {
    let report = chain(10_000, Some(5_000));
    let cycles: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule == feedlint::RuleId::ArchiveChainCycle)
        .collect();
    assert_eq!(
        cycles.len(),
        1,
        "{:#?}",
        cycles.iter().map(|d| &d.message).collect::<Vec<_>>()
    );
    // 5,001 archives on the cycle: the message names a few and counts them.
    assert!(
        cycles[0].message.contains("after 5001 documents"),
        "{}",
        cycles[0].message
    );
    assert!(cycles[0].message.contains("… (4993 more)"), "{}", cycles[0].message);
    assert_eq!(cycles[0].spans.len(), 8);
}
