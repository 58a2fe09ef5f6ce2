//! The GitHub Action (`action.yml`): its lint step is run here as the
//! runner runs it (bash, with the inputs in the environment), against the
//! binary under test; and every input it reads is one it declares.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
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

/// A repository standing in for feedlint's: `main` two commits ahead of
/// the commit an annotated tag `v0.1.0` names. Its commits, oldest first.
fn repository_with_a_release(dir: &Path) -> (PathBuf, String, String) {
    let repo = dir.join("feedlint.git");
    let git = |args: &[&str]| {
        let output = Command::new("git")
            .args(args)
            .current_dir(&repo)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.org")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.org")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        stdout(&output).trim().to_owned()
    };
    std::fs::create_dir_all(&repo).unwrap();
    git(&["init", "-q", "-b", "main"]);
    git(&["commit", "-q", "--allow-empty", "-m", "released"]);
    git(&["tag", "-a", "v0.1.0", "-m", "feedlint 0.1.0"]);
    let released = git(&["rev-parse", "HEAD"]);
    git(&["commit", "-q", "--allow-empty", "-m", "after"]);
    let after = git(&["rev-parse", "HEAD"]);
    (repo, released, after)
}

#[test]
fn a_release_is_downloaded_and_a_revision_with_none_is_built_under_its_commit() {
    let script = step_script(&action(), "Resolve the revision");
    let dir = scratch("action-revision");
    let (repo, released, after) = repository_with_a_release(&dir);
    let resolve = |version: &str, action_ref: &str| {
        let outputs = dir.join("github-output");
        let _ = std::fs::remove_file(&outputs);
        // The repository asked is the local one: nothing reaches a network.
        let output = Command::new("bash")
            .args(["-c", &script])
            .current_dir(&dir)
            .env("FEEDLINT_VERSION", version)
            .env("FEEDLINT_ACTION_REF", action_ref)
            .env("FEEDLINT_REPOSITORY", &repo)
            .env("GITHUB_OUTPUT", &outputs)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let said = std::fs::read_to_string(&outputs).unwrap();
        let get = |key: &str| {
            said.lines()
                .find_map(|line| line.strip_prefix(&format!("{key}=")))
                .unwrap()
                .to_owned()
        };
        (get("release"), get("commit"), stdout(&output))
    };
    // A version, with or without its `v`, is a release.
    assert_eq!(resolve("0.2.0", "main").0, "v0.2.0");
    assert_eq!(resolve("", "v0.2.0").0, "v0.2.0");
    // A `uses:` line pinned to the commit a release tag names downloads
    // that release.
    assert_eq!(resolve("", &released).0, "v0.1.0");
    // A commit with no release is built, cached under that commit.
    let (release, commit, notice) = resolve("", &after);
    assert_eq!((release.as_str(), commit.as_str()), ("", after.as_str()));
    assert!(notice.contains("is no release: feedlint is built from it"), "{notice}");
    // A branch is built under the commit it is at now; an explicit
    // version wins over the `uses:` line.
    let (release, commit, _) = resolve("main", &released);
    assert_eq!((release.as_str(), commit.as_str()), ("", after.as_str()));
    // A name that resolves to nothing is built without the cache.
    let (release, commit, warned) = resolve("no-such-branch", "");
    assert_eq!((release.as_str(), commit.as_str()), ("", ""));
    assert!(warned.contains("did not resolve to a commit"), "{warned}");
    // The cache serves builds only, and only under a commit.
    assert!(action().contains(
        "if: steps.revision.outputs.release == '' && steps.revision.outputs.commit != '' && inputs.cache != 'false'"
    ));
    let _ = std::fs::remove_dir_all(dir);
}

/// The runner's `RUNNER_ARCH` for this machine.
fn runner_arch() -> &'static str {
    match std::env::consts::ARCH {
        "aarch64" => "ARM64",
        _ => "X64",
    }
}

#[cfg(target_os = "linux")]
#[test]
fn the_release_download_installs_only_an_archive_its_checksums_list() {
    use crate::common::http::{status, Reply, Server};
    let script = step_script(&action(), "Download the release");
    let dir = scratch("action-download");
    // A release on loopback, as GitHub serves one: /v0.1.0/NAME.
    let binary = crate::release::stripped_binary(&dir);
    let target = format!("{}-unknown-linux-musl", std::env::consts::ARCH);
    let version = env!("CARGO_PKG_VERSION");
    let releases = dir.join("releases");
    let tag = format!("v{version}");
    crate::release::pack(&target, &binary, &releases, &tag);
    let summed = Command::new("python3")
        .args(["release/package.py", "checksums", releases.join(&tag).to_str().unwrap()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(summed.status.success(), "{}", String::from_utf8_lossy(&summed.stderr));
    let served = releases.clone();
    let server = Server::start(
        move |path, _| match std::fs::read(served.join(path.trim_start_matches('/'))) {
            Ok(body) => Reply {
                status: 200,
                headers: vec![("Content-Type", "application/octet-stream".into())],
                body,
                delay: std::time::Duration::ZERO,
            },
            Err(_) => status(404),
        },
    );
    let install = |release: &str, root: &Path| {
        Command::new("bash")
            .args(["-c", &script])
            .current_dir(&dir)
            .env("FEEDLINT_RELEASE", release)
            .env("FEEDLINT_DOWNLOADS", &server.base)
            .env("FEEDLINT_ROOT", root)
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", runner_arch())
            .output()
            .unwrap()
    };
    let root = dir.join("installed");
    let output = install(&tag, &root);
    assert!(
        output.status.success(),
        "{}{}",
        stdout(&output),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout(&output).contains("as SHA256SUMS lists"), "{}", stdout(&output));
    let installed = Command::new(root.join("bin/feedlint"))
        .arg("--version")
        .output()
        .unwrap();
    let tested = Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .arg("--version")
        .output()
        .unwrap();
    assert_eq!(stdout(&installed), stdout(&tested));
    // The lint step runs what was installed.
    let lint = Command::new("bash")
        .args(["-c", &step_script(&action(), "Lint")])
        .current_dir(&dir)
        .env("FEEDLINT_BIN", root.join("bin"))
        .env(
            "FEEDLINT_PATHS",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/site"),
        )
        .env("FEEDLINT_ARGS", "")
        .env("FEEDLINT_SARIF", "false")
        .env_remove("GITHUB_OUTPUT")
        .output()
        .unwrap();
    assert!(stdout(&lint).contains("::error file="), "{}", stdout(&lint));
    // A release that is not there is an error that says how to build one.
    let missing = install("v9.9.9", &dir.join("none"));
    assert!(!missing.status.success());
    assert!(
        stdout(&missing).contains("is v9.9.9 a release?"),
        "{}",
        stdout(&missing)
    );
    assert!(!dir.join("none/bin/feedlint").exists());
    // An archive that is not the one SHA256SUMS lists is not installed.
    let archive = releases.join(&tag).join(format!("feedlint-{version}-{target}.tar.gz"));
    std::fs::OpenOptions::new()
        .append(true)
        .open(&archive)
        .unwrap()
        .write_all(b"x")
        .unwrap();
    let tampered = install(&tag, &dir.join("tampered"));
    assert!(!tampered.status.success());
    assert!(
        stdout(&tampered).contains("is not the file the release's SHA256SUMS lists"),
        "{}",
        stdout(&tampered)
    );
    assert!(!dir.join("tampered/bin/feedlint").exists());
    // A runner feedlint has no build for is told so.
    let output = Command::new("bash")
        .args(["-c", &script])
        .env("FEEDLINT_RELEASE", &tag)
        .env("FEEDLINT_DOWNLOADS", &server.base)
        .env("FEEDLINT_ROOT", dir.join("arm32"))
        .env("RUNNER_OS", "Linux")
        .env("RUNNER_ARCH", "ARM")
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        stdout(&output).contains("have no build for Linux on ARM"),
        "{}",
        stdout(&output)
    );
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
