//! The GitHub Action (`action.yml`): its lint step is run here as the
//! runner runs it (bash, with the inputs in the environment), against the
//! binary under test; and every input it reads is one it declares.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{scratch, stdout};

fn action() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/action.yml")).unwrap()
}

/// The `run: |` script of the step named `name`, dedented.
fn step_script(action: &str, name: &str) -> String {
    let lines: Vec<&str> = action.lines().collect();
    let step = lines
        .iter()
        .position(|line| line.trim() == format!("- name: {name}"))
        .unwrap_or_else(|| panic!("no step named {name}"));
    let run = step
        + lines[step..]
            .iter()
            .position(|line| line.trim() == "run: |")
            .expect("a run: | block");
    let indent = lines[run].len() - lines[run].trim_start().len() + 2;
    lines[run + 1..]
        .iter()
        .take_while(|line| line.trim().is_empty() || line.len() - line.trim_start().len() >= indent)
        .map(|line| line.get(indent..).unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_lint_step_annotates_fails_and_writes_sarif() {
    let script = step_script(&action(), "Lint");
    let dir = scratch("action");
    let site = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/site");
    let bin = Path::new(env!("CARGO_BIN_EXE_feedlint")).parent().unwrap();
    let outputs = dir.join("github-output");
    let output = Command::new("bash")
        .args(["-c", &script])
        .current_dir(&dir)
        .env("FEEDLINT_BIN", bin)
        .env("FEEDLINT_PATHS", site.to_str().unwrap())
        .env("FEEDLINT_ARGS", "--fail-on error --warn archive-missing-marker")
        .env("FEEDLINT_SARIF", "true")
        .env("FEEDLINT_SARIF_FILE", dir.join("runner-temp.sarif"))
        .env("GITHUB_OUTPUT", &outputs)
        .output()
        .unwrap();
    // The example site has errors: the step fails, after annotating.
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout(&output).contains("::error file="), "{}", stdout(&output));
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("runner-temp.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert!(!sarif["runs"][0]["results"].as_array().unwrap().is_empty());
    assert_eq!(
        std::fs::read_to_string(&outputs).unwrap().trim(),
        format!("sarif-file={}", dir.join("runner-temp.sarif").display())
    );
    // Without SARIF, and on a clean tree, the step passes and writes none.
    let clean = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/sets/valid");
    let output = Command::new("bash")
        .args(["-c", &script])
        .current_dir(&dir)
        .env("FEEDLINT_BIN", bin)
        .env("FEEDLINT_PATHS", clean.to_str().unwrap())
        .env("FEEDLINT_ARGS", "")
        .env("FEEDLINT_SARIF", "false")
        .env_remove("GITHUB_OUTPUT")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_lint_step_reads_a_path_a_line_and_never_takes_one_for_an_option() {
    let script = step_script(&action(), "Lint");
    let dir = scratch("action-paths");
    let feed = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/rules/link-relation-typo/fail-typos.atom");
    std::fs::copy(&feed, dir.join("with space.atom")).unwrap();
    std::fs::copy(&feed, dir.join("--version")).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_feedlint")).parent().unwrap();
    let output = Command::new("bash")
        .args(["-c", &script])
        .current_dir(&dir)
        .env("FEEDLINT_BIN", bin)
        .env("FEEDLINT_PATHS", "with space.atom\r\n\n--version\n")
        .env("FEEDLINT_ARGS", "")
        .env("FEEDLINT_SARIF", "false")
        .env_remove("GITHUB_OUTPUT")
        .output()
        .unwrap();
    let shown = stdout(&output);
    // Warnings only: the step passes, having annotated both files.
    assert_eq!(output.status.code(), Some(0), "{shown}");
    assert!(shown.contains("file=with space.atom,"), "{shown}");
    assert!(shown.contains("file=--version,"), "{shown}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_revision_is_the_pinned_commit_and_a_cache_key_is_never_a_branch() {
    let script = step_script(&action(), "Resolve the revision");
    let dir = scratch("action-revision");
    let commit = "0123456789abcdef0123456789abcdef01234567";
    let resolve = |version: &str, action_ref: &str| {
        let outputs = dir.join("github-output");
        let _ = std::fs::remove_file(&outputs);
        // A commit is used as it is: nothing is asked of the network.
        let output = Command::new("bash")
            .args(["-c", &script])
            .current_dir(&dir)
            .env("FEEDLINT_VERSION", version)
            .env("FEEDLINT_ACTION_REF", action_ref)
            .env("GITHUB_OUTPUT", &outputs)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        std::fs::read_to_string(&outputs).unwrap()
    };
    // The workflow's `uses: feedlint/feedlint@COMMIT` is what is built.
    assert!(resolve("", commit).contains(&format!("commit={commit}\n")));
    // An explicit version wins.
    let other = "89abcdef0123456789abcdef0123456789abcdef";
    assert!(resolve(other, commit).contains(&format!("commit={other}\n")));
    // The cache step runs only with a commit to name it.
    assert!(action().contains("if: steps.revision.outputs.commit != '' && inputs.cache != 'false'"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_actions_the_action_uses_are_pinned_to_commits() {
    let action = action();
    let uses: Vec<&str> = action
        .lines()
        .filter_map(|line| line.trim().strip_prefix("uses: "))
        .collect();
    assert_eq!(uses.len(), 2, "{uses:?}");
    for used in uses {
        let (_, revision) = used.split_once('@').unwrap();
        assert!(
            revision.len() == 40 && revision.bytes().all(|b| b.is_ascii_hexdigit()),
            "{used} is not pinned to a commit"
        );
    }
}

#[test]
fn every_input_the_action_reads_is_declared() {
    let action = action();
    let declared: Vec<&str> = action
        .split("\ninputs:\n")
        .nth(1)
        .unwrap()
        .split("\noutputs:\n")
        .next()
        .unwrap()
        .lines()
        .filter(|line| line.starts_with("  ") && !line.starts_with("   ") && line.ends_with(':'))
        .map(|line| line.trim().trim_end_matches(':'))
        .collect();
    assert_eq!(declared, ["paths", "args", "version", "cache", "sarif"]);
    for (at, _) in action.match_indices("inputs.") {
        let name: String = action[at + "inputs.".len()..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        assert!(declared.contains(&name.as_str()), "inputs.{name} is not declared");
    }
}

/// What `cargo install` and crates.io get: the sources, the rule
/// documents, the licences and the docs; no tests, fixtures or benchmarks.
#[test]
fn the_package_holds_what_an_install_needs_and_nothing_else() {
    let output = Command::new(env!("CARGO"))
        .args(["package", "--list", "--allow-dirty", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let mut tops: Vec<String> = stdout(&output)
        .lines()
        .map(|path| path.split('/').next().unwrap().to_owned())
        .collect();
    tops.dedup();
    assert_eq!(
        tops,
        [
            ".cargo_vcs_info.json",
            "CHANGELOG.md",
            "Cargo.lock",
            "Cargo.toml",
            "Cargo.toml.orig",
            "LICENSE-APACHE",
            "LICENSE-MIT",
            "README.md",
            "build.rs",
            "rules",
            "src",
        ]
    );
}
