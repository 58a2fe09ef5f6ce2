//! feedlint.toml: discovery, overrides, precedence of the command line,
//! errors; and suppressions of set findings.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;
use common::{scratch, ATOM_HEAD};

use serde_json::Value;

fn feedlint_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn rules_of(output: &Output) -> Vec<String> {
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{}@{}", d["rule"].as_str().unwrap(), d["level"].as_str().unwrap()))
        .collect()
}

/// An archive without self and current links: archive-missing-self (info)
/// and archive-missing-current (warning).
const ARCHIVE: &str = r#"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:fh="http://purl.org/syndication/history/1.0"><title>t</title><id>tag:example.org,2024:feed</id><updated>2024-01-01T00:00:00Z</updated><author><name>a</name></author><fh:archive/></feed>"#;

fn site(name: &str, config: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("public/legacy")).unwrap();
    std::fs::write(dir.join("public/feed.atom"), ARCHIVE).unwrap();
    std::fs::write(dir.join("public/legacy/old.atom"), ARCHIVE).unwrap();
    std::fs::write(dir.join("feedlint.toml"), config).unwrap();
    dir
}

const CONFIG: &str = r#"
[rules]
archive-missing-self = "off"
archive-missing-current = "error"

[[overrides]]
files = ["public/legacy/**"]
rules = { archive-missing-current = "off", archive-missing-self = "warning" }
"#;

#[test]
fn config_is_found_upwards_and_overrides_apply_per_path() {
    let dir = site("discovery", CONFIG);
    // Run from a subdirectory: the file above is found.
    let output = feedlint_in(&dir.join("public"), &["--format", "json", "."]);
    assert_eq!(
        rules_of(&output),
        ["archive-missing-current@error", "archive-missing-self@warning"]
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["diagnostics"][0]["file"], "./feed.atom");
    assert_eq!(report["diagnostics"][1]["file"], "./legacy/old.atom");
    let _ = std::fs::remove_dir_all(dir);
}

/// The config is found from the paths linted, not from where feedlint
/// runs: a CI job linting `site/public` from elsewhere gets the site's.
#[test]
fn config_is_found_from_the_linted_path() {
    let dir = site("from-path", CONFIG);
    let elsewhere = scratch("from-path-elsewhere");
    let public = dir.join("public");
    for target in [public.clone(), public.join("feed.atom")] {
        let output = feedlint_in(&elsewhere, &["--format", "json", target.to_str().unwrap()]);
        let found = rules_of(&output);
        assert_eq!(found[0], "archive-missing-current@error", "{target:?}");
        assert!(!found.contains(&"archive-missing-self@info".to_owned()), "{target:?}");
    }
    // Paths under different configs: each config's levels apply below it.
    let other = site("from-path-other", "[rules]\narchive-missing-current = \"off\"\n");
    let other_public = other.join("public");
    let both = [
        "--format",
        "json",
        public.to_str().unwrap(),
        other_public.to_str().unwrap(),
    ];
    let output = feedlint_in(&elsewhere, &both);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let current_in = |tree: &Path| {
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["rule"] == "archive-missing-current")
            .filter(|d| Path::new(d["file"].as_str().unwrap()).starts_with(tree))
            .count()
    };
    assert_eq!(current_in(&public), 1, "{report}");
    assert_eq!(current_in(&other_public), 0, "off in the other tree's config: {report}");
    assert!(
        output.stderr.is_empty(),
        "nothing to say: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    // A second config's base URL maps its own tree: a document there that
    // links to its own published URL links to itself.
    std::fs::write(other.join("feedlint.toml"), "base-url = \"https://other.example/\"\n").unwrap();
    std::fs::write(
        other_public.join("self.atom"),
        format!(r#"<feed xmlns="http://www.w3.org/2005/Atom">{ATOM_HEAD}<link rel="next" href="https://other.example/public/self.atom"/></feed>"#),
    )
    .unwrap();
    let output = feedlint_in(&elsewhere, &both);
    assert!(
        rules_of(&output).contains(&"self-referencing-link@error".to_owned()),
        "{:?}",
        rules_of(&output)
    );
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
    // Its exclude list applies to its tree alone.
    std::fs::write(other.join("feedlint.toml"), "exclude = [\"legacy/\"]\n").unwrap();
    let output = feedlint_in(&elsewhere, &both);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let files: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["file"].as_str().unwrap())
        .collect();
    assert!(
        files.iter().any(|f| f.ends_with("from-path/public/legacy/old.atom")),
        "{files:?}"
    );
    assert!(
        !files
            .iter()
            .any(|f| f.ends_with("from-path-other/public/legacy/old.atom")),
        "{files:?}"
    );
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(other);
}

#[test]
fn command_line_flags_win_over_the_file() {
    let dir = site("precedence", CONFIG);
    let output = feedlint_in(
        &dir,
        &[
            "--format",
            "json",
            "--warn",
            "archive-missing-current",
            "--allow",
            "archive-missing-self",
            "public",
        ],
    );
    assert_eq!(
        rules_of(&output),
        ["archive-missing-current@warning", "archive-missing-current@warning"]
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn config_flag_names_another_file_and_base_url_comes_from_it() {
    let dir = site("explicit", "");
    std::fs::write(
        dir.join("other.toml"),
        "base-url = \"https://example.org/\"\n[rules]\narchive-missing-current = \"off\"\n",
    )
    .unwrap();
    // The archive's relative self link is resolved against the base URL: its
    // self link now exists, so archive-missing-self is the only finding.
    std::fs::write(
        dir.join("public/feed.atom"),
        ARCHIVE.replace("<fh:archive/>", "<fh:archive/><link rel=\"self\" href=\"feed.atom\"/>"),
    )
    .unwrap();
    let output = feedlint_in(
        &dir,
        &["--format", "json", "--config", "other.toml", "public/feed.atom"],
    );
    assert_eq!(rules_of(&output), Vec::<String>::new());
    let output = feedlint_in(
        &dir,
        &["--format", "json", "--config", "other.toml", "public/legacy/old.atom"],
    );
    assert_eq!(rules_of(&output), ["archive-missing-self@info"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_bad_config_is_exit_2_naming_file_line_and_accepted_values() {
    for (config, expected) in [
        (
            "[rules]\nnot-a-rule = \"off\"\n",
            "feedlint.toml:2: unknown rule 'not-a-rule'",
        ),
        (
            "\n[rules]\narchive-order = \"loud\"\n",
            "feedlint.toml:3: invalid level 'loud' for rule 'archive-order'; accepted: error, warning, info, off",
        ),
        (
            "colour = true\n",
            "feedlint.toml:1: unknown key `colour`, expected one of `base-url`, `rules`, `overrides`",
        ),
    ] {
        let dir = site("bad", config);
        let output = feedlint_in(&dir, &["public"]);
        assert_eq!(output.status.code(), Some(2), "{config}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
        let _ = std::fs::remove_dir_all(dir);
    }
    let dir = scratch("missing-config");
    let output = feedlint_in(&dir, &["--config", "nope.toml", "."]);
    assert_eq!(output.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(dir);
}

/// Every mistake of a config is said in one run, in the file's order: a
/// user fixes them all at once, not one a run.
#[test]
fn every_mistake_of_a_config_is_said_at_once() {
    let config = "base_url = \"https://example.org/\"\nselect = \"rss-\"\n\n[rules]\narchive-orphn = \"warn\"\npaging-prev-alias = 1\n\n[output]\nformat = \"yaml\"\n\n[[overrides]]\nfile = [\"a/**\"]\n\n[[overrides]]\nfiles = \"a/**\"\n";
    let dir = site("all-at-once", config);
    let output = feedlint_in(&dir, &["public"]);
    assert_eq!(output.status.code(), Some(2));
    let said: Vec<String> = String::from_utf8(output.stderr)
        .unwrap()
        .lines()
        .map(|line| {
            line.split_once("feedlint.toml:")
                .map_or(line, |(_, rest)| rest)
                .to_owned()
        })
        .collect();
    assert_eq!(
        said,
        [
            "1: unknown key `base_url`; did you mean `base-url`?",
            "2: select: invalid type: string \"rss-\", expected a sequence",
            "5: unknown rule 'archive-orphn'; did you mean 'archive-orphan'? (see 'feedlint rules' for the accepted ids)",
            "6: the level of `paging-prev-alias` must be a string: \"error\", \"warning\", \"info\" or \"off\"",
            "8: unknown key `output`, expected one of `base-url`, `rules`, `overrides`, `exclude`, `root`, `select`, `ignore`",
            "11: an override needs `files`, the globs it applies to",
            "12: unknown key `file` in an override, expected `files` or `rules`",
            // A `files` of the wrong type is one mistake, not two.
            "15: files: invalid type: string \"a/**\", expected a sequence",
        ]
    );
    // Syntax errors too, as many as the parser recovers from.
    let dir = site("all-at-once-syntax", "base-url = \n[rules\nx = = 1\n");
    let output = feedlint_in(&dir, &["public"]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.lines().count() >= 2, "{stderr}");
    assert!(
        stderr.contains("feedlint.toml:1:") && stderr.contains("feedlint.toml:2:"),
        "{stderr}"
    );
}

#[test]
fn set_findings_are_suppressed_in_their_primary_document() {
    let dir = scratch("suppress-set");
    let index = |comment: &str| {
        format!(
            "<feed xmlns=\"http://www.w3.org/2005/Atom\">{comment}\n{ATOM_HEAD}<link rel=\"self\" href=\"index.atom\"/></feed>"
        )
    };
    std::fs::write(dir.join("2003-11.atom"), format!(r#"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:fh="http://purl.org/syndication/history/1.0">{ATOM_HEAD}<fh:archive/><link rel="self" href="2003-11.atom"/><link rel="current" href="index.atom"/></feed>"#)).unwrap();
    std::fs::write(dir.join("index.atom"), index("")).unwrap();
    let found = rules_of(&feedlint_in(&dir, &["--format", "json", "."]));
    assert_eq!(found, ["missing-prev-archive@error"]);
    // The finding points at the root element, which a comment before it
    // cannot precede inside the document; disable it for the rest of the file.
    std::fs::write(
        dir.join("index.atom"),
        format!("<!-- feedlint-disable missing-prev-archive -->\n{}", index("")),
    )
    .unwrap();
    assert_eq!(
        rules_of(&feedlint_in(&dir, &["--format", "json", "."])),
        Vec::<String>::new()
    );
    // Once the link is there, the comment is stale.
    std::fs::write(
        dir.join("index.atom"),
        format!(
            "<!-- feedlint-disable missing-prev-archive -->\n{}",
            index("<link rel=\"prev-archive\" href=\"2003-11.atom\"/>")
        ),
    )
    .unwrap();
    assert_eq!(
        rules_of(&feedlint_in(&dir, &["--format", "json", "."])),
        ["unused-suppression@warning"]
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `--select` and `--ignore`, and the config's `select` and `ignore`: by
/// id, by the start of ids, by group, or all; the more specific wins, and
/// a rule set on the command line keeps its setting.
#[test]
fn rules_are_selected_by_id_prefix_and_group() {
    let dir = site("select", "");
    let lint = |args: &[&str]| {
        let mut all = vec!["--format", "json"];
        all.extend(args);
        all.push("public");
        rules_of(&feedlint_in(&dir, &all))
    };
    let everything = lint(&[]);
    assert!(everything.contains(&"archive-missing-self@info".to_owned()));
    assert!(everything.contains(&"archive-missing-current@warning".to_owned()));
    assert_eq!(lint(&["--select", "rfc5005"]), everything, "both are RFC 5005's");
    assert!(lint(&["--select", "atom-core,rss-"]).is_empty());
    assert_eq!(
        lint(&["--select", "rfc5005", "--ignore", "archive-missing-self"]),
        ["archive-missing-current@warning", "archive-missing-current@warning"]
    );
    assert_eq!(
        lint(&["--ignore", "archive-", "--select", "archive-missing-self"]),
        ["archive-missing-self@info", "archive-missing-self@info"],
        "the id is more specific than the prefix"
    );
    assert_eq!(
        lint(&["--select", "xml", "--deny", "archive-missing-current"]),
        ["archive-missing-current@error", "archive-missing-current@error"],
        "--deny names the rule: it is on"
    );
    // The config's select and ignore; the command line's select replaces
    // the config's, and ignores add up.
    std::fs::write(dir.join("feedlint.toml"), "select = [\"archive-missing-self\"]\n").unwrap();
    assert_eq!(lint(&[]), ["archive-missing-self@info", "archive-missing-self@info"]);
    assert_eq!(
        lint(&["--select", "archive-missing-current"]),
        ["archive-missing-current@warning", "archive-missing-current@warning"]
    );
    std::fs::write(dir.join("feedlint.toml"), "ignore = [\"rfc5005\"]\n").unwrap();
    assert!(lint(&[]).is_empty());
    // A word that names nothing is a usage error with a "did you mean".
    let output = feedlint_in(&dir, &["--select", "archive-missing-slef", "public"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("did you mean 'archive-missing-self'"), "{stderr}");
    std::fs::write(dir.join("feedlint.toml"), "select = [\"rfc5006\"]\n").unwrap();
    let output = feedlint_in(&dir, &["public"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("feedlint.toml:1: unknown rule 'rfc5006'"));
    // `feedlint rules` says which groups each rule is in, and lists them.
    let listed = String::from_utf8(feedlint_in(&dir, &["rules"]).stdout).unwrap();
    assert!(listed
        .lines()
        .any(|l| l.starts_with("archive-orphan") && l.contains(" rfc5005 ")));
    assert!(listed.contains("Groups, for --select and --ignore"));
    assert!(listed.lines().any(|l| l.trim_start().starts_with("rfc6721 ")));
    let _ = std::fs::remove_dir_all(dir);
}
