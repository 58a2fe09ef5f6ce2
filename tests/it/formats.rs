//! The machine formats on one case with errors, warnings, an info, a
//! secondary span in another document and a span over several lines.

use std::path::Path;
use std::process::{Command, Output};

use crate::common;
use common::{stdout, ATOM_HEAD};

use serde_json::Value;

const SITE: &str = "examples/site";
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
    let sarif: Value = serde_json::from_slice(&feedlint(&["--format", "sarif", SITE, MULTILINE]).stdout).unwrap();
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
    // missing-prev-archive: primary in index.rss, secondary in the archive.
    let missing = results.iter().find(|r| r["ruleId"] == "missing-prev-archive").unwrap();
    let primary = &missing["locations"][0]["physicalLocation"];
    assert_eq!(primary["artifactLocation"]["uri"], "examples/site/podcast/index.rss");
    assert_eq!(primary["region"]["startLine"], 2);
    let related = &missing["relatedLocations"][0];
    assert_eq!(
        related["physicalLocation"]["artifactLocation"]["uri"],
        "examples/site/podcast/archive/2023.rss"
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
    assert_eq!(lines.len(), 10);
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
    let links = "<link rel=\"prev\" href=\"https://example.org/p\"/>".repeat(12);
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
