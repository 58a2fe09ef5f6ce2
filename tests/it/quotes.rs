//! The podcast rules quote the texts that make their findings: each quote
//! a podcast or iTunes rule gives a body (`PSP-1: "..."`, `Apple, A
//! Podcaster's Guide to RSS: "..."`, `Podcasting 2.0, 1.0.md: "..."`), in
//! its code or in its documentation, is found word for word in that
//! body's text in `../shared/spec/podcast-namespace/`: a requirement is
//! never put in the mouth of a text that does not make it.
//!
//! The texts stand beside the project in CI (`FEEDLINT_SPEC_REQUIRED`);
//! a clone of the project alone skips this test and says so.

use std::path::{Path, PathBuf};

use regex::Regex;

const REQUIRED: &str = "FEEDLINT_SPEC_REQUIRED";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A text as a quote is compared with it: HTML markup (not the feed
/// elements it names, `<item>`), Markdown's links, bullets and emphasis
/// left out, entities read, typographic quotes straight, white space
/// collapsed.
fn plain(text: &str) -> String {
    let html = Regex::new(
        r"</?(?:a|b|i|p|br|code|strong|em|div|span|table|thead|tbody|tr|th|td|ul|ol|li|sup|img|pre)\b[^<>]*>",
    )
    .unwrap();
    let links = Regex::new(r"\[([^\]]*)\]\([^)]*\)").unwrap();
    let bullets = Regex::new(r"(?m)^\s*[-*] ").unwrap();
    let text = html.replace_all(text, " ");
    let text = links.replace_all(&text, "$1");
    let text = bullets.replace_all(&text, " ");
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", " ")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
        .replace(['\u{2018}', '\u{2019}'], "'")
        .replace(['\u{201C}', '\u{201D}'], "\"")
        .replace(['`', '*'], "")
        .replace("\\_", "_");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // Markup left out leaves a space before the punctuation after it.
    Regex::new(r" ([.,;:])").unwrap().replace_all(&text, "$1").into_owned()
}

/// Each body's text, by the name the rules give it.
fn bodies(dir: &Path) -> Vec<(&'static str, String)> {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut podcasting = read("1.0.md");
    let mut tags: Vec<_> = std::fs::read_dir(dir.join("tags"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    tags.sort();
    for tag in tags {
        podcasting.push_str(&std::fs::read_to_string(tag).unwrap());
    }
    vec![
        ("PSP-1", plain(&read("psp-1.md"))),
        ("Apple", plain(&read("itunes_reference.md"))),
        ("Podcasting 2.0", plain(&podcasting)),
    ]
}

/// A quote's parts, as the text must hold each: split where the quote
/// leaves words out (`...`, `[...]`, `…`) or stands for a value
/// (`{name}`, ` N `).
fn parts(quote: &str) -> Vec<String> {
    let gaps = Regex::new(r"\[\.\.\.\]|\.\.\.|…|\{[^}]*\}|\bN\b").unwrap();
    gaps.split(&plain(quote))
        .map(|part| part.trim().trim_end_matches([',', ';', ':']).trim().to_owned())
        .filter(|part| part.split_whitespace().count() >= 2)
        .collect()
}

/// Every quote given a body: (where, bodies, quote). In the code, the
/// quote's marks are escaped (`PSP-1: \"...\"`); in a document they are
/// not (`> PSP-1, <item>: "..."`).
fn quotes() -> Vec<(String, Vec<String>, String)> {
    let body = r"(PSP-1|Apple|Podcasting 2\.0)";
    let escaped = Regex::new(&format!(
        r#"{body}(?: and {body})?(?:, [^:"\\]*)?: \\"((?:[^"\\]|\\[^"])*)\\""#
    ))
    .unwrap();
    let plain_marks = Regex::new(&format!(r#"{body}(?: and {body})?(?:, [^:"]*)?: "([^"]*)""#)).unwrap();
    let mut found = Vec::new();
    let mut sources: Vec<PathBuf> = walkdir::WalkDir::new(root().join("src/rules/podcast"))
        .into_iter()
        .map(|entry| entry.unwrap().into_path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .collect();
    sources.sort();
    for path in sources {
        let text = std::fs::read_to_string(&path).unwrap();
        for quote in escaped.captures_iter(&text) {
            let named = [quote.get(1), quote.get(2)]
                .into_iter()
                .flatten()
                .map(|m| m.as_str().to_owned());
            found.push((
                path.display().to_string(),
                named.collect(),
                quote[3].replace("\\\"", "\""),
            ));
        }
    }
    let podcast_rules = feedlint::rules::RULES.iter().filter(|rule| {
        rule.groups.iter().any(|g| {
            matches!(
                g,
                feedlint::settings::select::Group::Podcast | feedlint::settings::select::Group::Itunes
            )
        })
    });
    for rule in podcast_rules {
        let path = root().join("rules").join(format!("{}.md", rule.id));
        let text = std::fs::read_to_string(&path).unwrap();
        let Some(spec) = text.split("## Specification").nth(1) else {
            continue;
        };
        let spec = spec.split("\n## ").next().unwrap_or_default();
        for quote in plain_marks.captures_iter(spec) {
            let named = [quote.get(1), quote.get(2)]
                .into_iter()
                .flatten()
                .map(|m| m.as_str().to_owned());
            found.push((path.display().to_string(), named.collect(), quote[3].to_owned()));
        }
    }
    found
}

#[test]
fn every_podcast_rule_quotes_the_text_it_names() {
    let dir = root().join("../shared/spec/podcast-namespace");
    if !dir.join("psp-1.md").is_file() {
        assert!(
            std::env::var_os(REQUIRED).is_none(),
            "the podcast texts are not at {} ({REQUIRED} is set)",
            dir.display()
        );
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "quotes: skipped: the podcast texts are not at {}; {REQUIRED}=1 makes this an error",
            dir.display()
        );
        return;
    }
    let bodies = bodies(&dir);
    let quotes = quotes();
    let mut wrong = Vec::new();
    for (place, named, quote) in &quotes {
        for name in named {
            let text = &bodies.iter().find(|(body, _)| body == name).unwrap().1;
            for part in parts(quote) {
                if !text.contains(&part) {
                    wrong.push(format!("{place}: {name} does not say \"{part}\""));
                }
            }
        }
    }
    assert!(quotes.len() >= 30, "quotes found: {}", quotes.len());
    assert!(wrong.is_empty(), "{} misquotes:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn a_quote_is_read_in_parts_around_what_it_leaves_out() {
    // A part of one word says too little to be looked for.
    assert_eq!(
        parts("The explicit value can be one of the following: True [...] False"),
        ["The explicit value can be one of the following: True"]
    );
    assert_eq!(
        parts("Please do not exceed N characters for the node value"),
        ["Please do not exceed", "characters for the node value"]
    );
    assert_eq!(plain("it&nbsp;won’t <code>&lt;guid&gt;</code>"), "it won't <guid>");
}

/// PSP-1 requires a self link and a guid on every episode; Apple's guide
/// names no self link and recommends the guid: their findings quote PSP-1
/// alone, and Apple's "Required tags" only where Apple requires the tag.
#[test]
fn a_requirement_is_quoted_from_the_text_that_makes_it() {
    let feed = "<rss version='2.0' xmlns:itunes='http://www.itunes.com/dtds/podcast-1.0.dtd'><channel>\
        <title>t</title><link>https://example.org/</link><description>d</description><language>en</language>\
        <itunes:category text='Science'/><itunes:explicit>false</itunes:explicit><itunes:image href='https://example.org/a.jpg'/>\
        <item><title>1</title><enclosure url='https://example.org/1.mp3' length='1' type='audio/mpeg'/></item>\
        <item><enclosure url='https://example.org/2.mp3' length='1' type='audio/mpeg'/><description>2</description><guid>2</guid></item>\
        </channel></rss>";
    let report = feedlint::lint_bytes("feed.rss", None, feed.as_bytes(), &feedlint::Options::default()).unwrap();
    let notes = |message: &str| -> Vec<String> {
        let finding = report
            .diagnostics
            .iter()
            .find(|d| d.rule == feedlint::RuleId::PodcastMissingElement && d.message == message)
            .unwrap_or_else(|| panic!("no finding \"{message}\": {:#?}", report.diagnostics));
        finding.notes.iter().map(|n| n.to_string()).collect()
    };
    let apple_requires = "Apple: \"Required tags must be present";
    for message in ["this podcast has no atom:link rel=\"self\"", "this episode has no guid"] {
        let notes = notes(message);
        assert!(
            notes.iter().any(|n| n.starts_with("PSP-1: \"Required elements")),
            "{notes:?}"
        );
        assert!(!notes.iter().any(|n| n.starts_with(apple_requires)), "{notes:?}");
    }
    let notes = notes("this episode has no title");
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with(apple_requires) && n.ends_with("(title among them)")),
        "{notes:?}"
    );
}
