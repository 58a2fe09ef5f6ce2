//! The machine formats on one case with errors, warnings, an info, a
//! secondary span in another document and a span over several lines.

use std::path::Path;
use std::process::{Command, Output};

use crate::common;
use common::{json, rules_of, scratch, stdout, ATOM_HEAD};

use serde_json::Value;

const SITE: &str = "examples/site";
/// A subscription document its archive names as current, which has no
/// prev-archive: a finding with its secondary span in another document.
const MISSING_PREV_ARCHIVE: &str = "testsuite/sets/missing-prev-archive/fail-subscription";
/// Its root element's start tag, the primary span, spans lines 3 and 4.
const MULTILINE: &str = "testsuite/rules/deleted-entry-missing-source/fail-document.atomdeleted";

fn feedlint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

#[test]
fn sarif_is_valid_sarif_2_1_0() {
    let output = feedlint(&["--format", "sarif", SITE, MULTILINE]);
    assert_eq!(output.status.code(), Some(1));
    let sarif: Value = serde_json::from_slice(&output.stdout).unwrap();
    let schema: Value = serde_json::from_str(include_str!("../data/sarif-schema-2.1.0.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // The fixes were validated too: the site's unsealed next-archive has one.
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let fixed = results
        .iter()
        .find(|r| r["ruleId"] == "next-archive-unsealed")
        .expect("the site's mistake is found");
    let change = &fixed["fixes"][0]["artifactChanges"][0];
    assert!(
        change["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("2024-02.atom"),
        "{change}"
    );
    assert_eq!(change["replacements"][0]["insertedContent"]["text"], "");
    // A document that breaks the schema is caught, so the check is real.
    let mut broken = sarif.clone();
    broken["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(!validator.is_valid(&broken));
}

#[test]
fn inputs_that_cannot_be_linted_are_in_json_and_sarif_too() {
    let json: Value =
        serde_json::from_slice(&feedlint(&["--format", "json", "no/such.atom", MULTILINE]).stdout).unwrap();
    let failures = json["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0]["input"], "no/such.atom");
    assert!(failures[0]["message"]
        .as_str()
        .unwrap()
        .starts_with("cannot read no/such.atom: "));
    assert_eq!(json["summary"]["documents"], 1, "the other file is still linted");
    let clean: Value = serde_json::from_slice(&feedlint(&["--format", "json", MULTILINE]).stdout).unwrap();
    assert_eq!(clean["failures"], Value::Array(Vec::new()));

    let lines = stdout(&feedlint(&["--format", "json-lines", "no/such.atom"]));
    let last: Value = serde_json::from_str(lines.lines().last().unwrap()).unwrap();
    assert_eq!(last["failures"][0]["input"], "no/such.atom");

    let output = feedlint(&["--format", "sarif", "no/such.atom", MULTILINE]);
    assert_eq!(output.status.code(), Some(2));
    let sarif: Value = serde_json::from_slice(&output.stdout).unwrap();
    let schema: Value = serde_json::from_str(include_str!("../data/sarif-schema-2.1.0.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    assert!(validator.is_valid(&sarif));
    let invocation = &sarif["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let notification = &invocation["toolExecutionNotifications"][0];
    assert_eq!(notification["level"], "error");
    assert!(notification["message"]["text"]
        .as_str()
        .unwrap()
        .contains("no/such.atom"));
}

#[test]
fn sarif_has_what_code_scanning_reads() {
    let sarif: Value =
        serde_json::from_slice(&feedlint(&["--format", "sarif", SITE, MULTILINE, MISSING_PREV_ARCHIVE]).stdout)
            .unwrap();
    let run = &sarif["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "feedlint");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert!(driver["informationUri"].as_str().unwrap().starts_with("https://"));
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), feedlint::rules::RULES.len());
    for rule in rules {
        for field in ["shortDescription", "fullDescription", "help"] {
            assert!(
                rule[field]["text"].as_str().is_some_and(|t| !t.is_empty()),
                "{} {field}",
                rule["id"]
            );
        }
        assert!(rule["helpUri"]
            .as_str()
            .unwrap()
            .ends_with(&format!("rules/{}.md", rule["id"].as_str().unwrap())));
        assert!(rule["defaultConfiguration"]["level"].is_string());
    }
    let results = run["results"].as_array().unwrap();
    let levels: Vec<&str> = results.iter().map(|r| r["level"].as_str().unwrap()).collect();
    for level in ["error", "warning", "note"] {
        assert!(levels.contains(&level), "{level} in {levels:?}");
    }
    // missing-prev-archive: primary in index.atom, secondary in the archive.
    let missing = results.iter().find(|r| r["ruleId"] == "missing-prev-archive").unwrap();
    let primary = &missing["locations"][0]["physicalLocation"];
    assert_eq!(
        primary["artifactLocation"]["uri"],
        format!("{MISSING_PREV_ARCHIVE}/index.atom")
    );
    assert_eq!(primary["region"]["startLine"], 3);
    let related = &missing["relatedLocations"][0];
    assert_eq!(
        related["physicalLocation"]["artifactLocation"]["uri"],
        format!("{MISSING_PREV_ARCHIVE}/2003-11.atom")
    );
    assert_eq!(related["message"]["text"], "this archive names it as current");
    assert_eq!(
        rules[missing["ruleIndex"].as_u64().unwrap() as usize]["id"],
        "missing-prev-archive"
    );
    let fingerprints: std::collections::HashSet<&str> = results
        .iter()
        .map(|r| r["partialFingerprints"]["feedlint/v1"].as_str().unwrap())
        .collect();
    assert_eq!(fingerprints.len(), results.len(), "fingerprints are distinct");
    let multiline = results
        .iter()
        .find(|r| r["ruleId"] == "deleted-entry-missing-source")
        .unwrap();
    let region = &multiline["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (region["startLine"].as_u64(), region["endLine"].as_u64()),
        (Some(3), Some(4))
    );
}

#[test]
fn github_annotations() {
    let output = stdout(&feedlint(&["--format", "github", SITE, MULTILINE]));
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines.len(), 9);
    assert!(lines.contains(
        &"::error file=examples/site/feed/archive/2024-02.atom,line=12,endLine=12,col=34,endColumn=47,title=feedlint (next-archive-unsealed)::next-archive points at the subscription document, which is not a sealed archive%0Ahelp: remove the next-archive link until the following archive is complete"
    ), "{output}");
    assert!(lines.iter().any(|l| l.starts_with("::warning file=examples/site/podcast/index.rss,line=9,endLine=9,col=21,endColumn=32,title=feedlint (link-relation-typo)::")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("::notice file=examples/site/feed/index.atom,")));
    // Over several lines: no columns.
    let multiline = lines
        .iter()
        .find(|l| l.contains("deleted-entry-missing-source"))
        .unwrap();
    assert!(
        multiline.starts_with(&format!(
            "::warning file={MULTILINE},line=3,endLine=4,title=feedlint (deleted-entry-missing-source)::"
        )),
        "{multiline}"
    );
}

#[test]
fn github_paths_are_from_the_repository_root_and_truncation_is_said() {
    // From a subdirectory, with `./`: the path GitHub knows is from the
    // work tree's root.
    let output = Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(["--format", "github", "./site/feed/index.atom"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"))
        .env_remove("GITHUB_WORKSPACE")
        .output()
        .unwrap();
    let text = stdout(&output);
    assert!(
        text.lines().all(|l| l.contains("file=examples/site/feed/index.atom,")),
        "{text}"
    );

    // In a workflow, from GITHUB_WORKSPACE; more findings of a level than
    // GitHub shows end with a notice that says so.
    let workspace = common::scratch("github-workspace");
    let links = "<link rel=\"prevArchive\" href=\"https://example.org/p\"/>".repeat(12);
    std::fs::create_dir_all(workspace.join("public")).unwrap();
    std::fs::write(
        workspace.join("public/feed.atom"),
        format!("<feed xmlns=\"http://www.w3.org/2005/Atom\">{ATOM_HEAD}{links}</feed>"),
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(["--format", "github", "public/feed.atom"])
        .current_dir(&workspace)
        .env("GITHUB_WORKSPACE", &workspace)
        .output()
        .unwrap();
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 13, "{text}");
    assert!(
        lines[..12]
            .iter()
            .all(|l| l.starts_with("::warning file=public/feed.atom,")),
        "{text}"
    );
    assert!(
        lines[12].starts_with("::notice title=feedlint::feedlint found no errors, 12 warnings"),
        "{text}"
    );
    assert!(lines[12].contains("so 2 are not shown here"), "{text}");
}

#[test]
fn json_lines_has_the_same_diagnostics_as_json() {
    let json: Value = serde_json::from_slice(&feedlint(&["--format", "json", SITE, MULTILINE]).stdout).unwrap();
    let lines: Vec<Value> = stdout(&feedlint(&["--format", "json-lines", SITE, MULTILINE]))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (last, diagnostics) = lines.split_last().unwrap();
    assert_eq!(Value::Array(diagnostics.to_vec()), json["diagnostics"]);
    assert_eq!(last["summary"], json["summary"]);
}

#[test]
fn help_lists_every_format_with_one_line() {
    let help = stdout(&feedlint(&["--help"]));
    for (format, line) in [
        ("text", "Source snippets with labels, notes and help"),
        ("concise", "One line a finding"),
        ("json", "One JSON object with every finding"),
        ("json-lines", "One JSON object a line"),
        ("sarif", "SARIF 2.1.0"),
        ("github", "GitHub Actions workflow commands"),
    ] {
        assert!(
            help.lines()
                .any(|l| l.trim_start().starts_with(&format!("- {format}:")) && l.contains(line)),
            "{format}: {help}"
        );
    }
}

#[test]
fn text_shows_a_repeated_defect_once_with_its_places_and_other_formats_each() {
    // Five items with ISO 8601 dates and relative guids, and one item with
    // a different date mistake: the text shows the first of each repeated
    // defect in full and lists the others' lines; the different mistake
    // stands alone; concise and json keep one finding per place.
    let dir = scratch("repeats");
    let mut feed = String::from(
        "<rss version=\"2.0\"><channel><title>t</title><link>https://example.org/</link><description>d</description>\n",
    );
    for n in 1..=5 {
        feed.push_str(&format!(
            "<item><title>t{n}</title><guid>g{n}</guid><pubDate>2024-01-0{n}T00:00:00Z</pubDate></item>\n"
        ));
    }
    feed.push_str("<item><title>t6</title><guid>https://example.org/6</guid><pubDate>Tue, 03 Jun 2003 09:39:21 CEST</pubDate></item>\n");
    feed.push_str("</channel></rss>\n");
    let file = dir.join("repeats.rss");
    std::fs::write(&file, feed).unwrap();
    let path = file.to_str().unwrap();
    let text = stdout(&feedlint(&[path]));
    assert_eq!(text.matches("error[rss-invalid-date]").count(), 2, "{text}");
    assert_eq!(text.matches("error[rss-invalid-guid]").count(), 1, "{text}");
    assert_eq!(
        text.matches("= and 4 more like this, at lines 3, 4, 5, 6 (--format concise lists each)")
            .count(),
        2,
        "{text}"
    );
    assert!(text.contains("found: 11 errors"), "{text}");
    let concise = stdout(&feedlint(&["--format", "concise", path]));
    assert_eq!(concise.matches("rss-invalid-date").count(), 6, "{concise}");
    assert_eq!(concise.matches("rss-invalid-guid").count(), 5, "{concise}");
    let report = json(&feedlint(&["--format", "json", "--ignore", "rss-profile", path]));
    assert_eq!(rules_of(&report).len(), 11);
}

/// A JSON Feed finding has the same place in every format: line 4, column
/// 20 to 34, where the value is written.
#[test]
fn a_json_feed_finding_has_its_place_in_every_format() {
    let file = "testsuite/rules/json-feed-invalid-url/fail-words.json";
    let concise = stdout(&feedlint(&["--format", "concise", file]));
    assert!(
        concise.starts_with(&format!("{file}:4:20: error[json-feed-invalid-url]")),
        "{concise}"
    );
    let github = stdout(&feedlint(&["--format", "github", file]));
    assert!(
        github.starts_with(&format!("::error file={file},line=4,endLine=4,col=20,endColumn=34,")),
        "{github}"
    );
    let line: serde_json::Value = serde_json::from_str(
        stdout(&feedlint(&["--format", "json-lines", file]))
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        (
            line["spans"][0]["line_start"].as_u64(),
            line["spans"][0]["column_start"].as_u64()
        ),
        (Some(4), Some(20))
    );
    let sarif: serde_json::Value = serde_json::from_slice(&feedlint(&["--format", "sarif", file]).stdout).unwrap();
    let region = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (
            region["startLine"].as_u64(),
            region["startColumn"].as_u64(),
            region["endColumn"].as_u64()
        ),
        (Some(4), Some(20), Some(34))
    );
    let text = stdout(&feedlint(&["--format", "text", file]));
    assert!(
        text.contains("4 │   \"home_page_url\": \"see our site\",\n  │                    ^^^^^^^^^^^^^^ no URL"),
        "{text}"
    );
}
