//! Fixes, `--fix` and `--diff`, on copies of the fixtures (the fixtures
//! themselves are never written): each fix gives the file committed beside
//! its fixture as `NAME.fixed`, and the fixed file no longer has the
//! finding. `FEEDLINT_BLESS=1 cargo test --test it fixes::` rewrites the
//! `.fixed` files.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;
use common::{json, rules_of, scratch, stdout};

/// The fixture each fix is shown on.
const FIXED: [&str; 36] = [
    "podcast-non-ascii-url/fail-non-ascii.rss",
    "itunes-unknown-category/fail-not-written-as-apple.rss",
    "itunes-invalid-image/fail-url-as-text.rss",
    "itunes-unsupported-enclosure/fail-type-not-apples.rss",
    "itunes-unsupported-enclosure/fail-unknown-types.rss",
    "itunes-invalid-image/fail-spaces.rss",
    "itunes-value-padded/fail-spaces.rss",
    "itunes-explicit-legacy/fail-legacy.rss",
    "itunes-explicit-legacy/fail-repeated.rss",
    "podcast-namespace-legacy/fail-older-name.rss",
    "podcast-namespace-legacy/fail-on-channel.rss",
    "itunes-value-without-effect/fail-meant-yes.rss",
    "link-missing-href/fail-misspelt.atom",
    "atom-category-missing-term/fail-misspelt.atom",
    "rss-wrong-day-name/fail-wrong-day.rss",
    "extension-namespace-near-miss/fail-near-misses.rss",
    "rss-element-in-text/fail-html-in-description.rss",
    "xml-malformed/fail-space-before-declaration.atom",
    "xml-malformed/fail-declaration-after-comment.atom",
    "paging-prev-alias/fail-prev.atom",
    "legacy-previous-archive/fail-archive.atom",
    "link-relation-typo/fail-typos.atom",
    "namespace-near-miss/fail-near-misses.atom",
    "fh-marker-not-empty/fail-child.rss",
    "fh-marker-duplicate/fail-twice.atom",
    "archive-missing-marker/fail-current.atom",
    "archive-missing-marker/fail-next-archive.rss",
    "duplicate-deleted-entry/fail-same-ref-and-when.atom",
    "unused-suppression/fail-stale.atom",
    "next-archive-unsealed/fail-next-is-current.atom",
    "atom-value-whitespace/fail-padded.atom",
    "json-feed-deprecated-author/fail-author-only.json",
    "json-feed-version-mismatch/fail-1.1-members.json",
    "content-relative-link/fail-root-relative.rss",
    "content-relative-link/fail-gatsby-14133.rss",
    "content-protocol-relative-link/fail-html.atom",
];

fn feedlint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .output()
        .unwrap()
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/rules")
}

/// A copy of a fixture in a fresh directory of its own.
fn copy(fixture: &str, test: &str) -> PathBuf {
    let dir = scratch(&format!("{test}-{}", fixture.replace('/', "-")));
    let copy = dir.join(Path::new(fixture).file_name().unwrap());
    fs::copy(fixtures().join(fixture), &copy).unwrap();
    copy
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn every_fix_gives_its_expected_file_and_clears_its_finding() {
    let bless = std::env::var_os("FEEDLINT_BLESS").is_some();
    let mut problems = Vec::new();
    for fixture in FIXED {
        let rule = fixture.split('/').next().unwrap();
        let file = copy(fixture, "fix");
        let before = json(&feedlint(&["--format", "json", "--exit-zero", path(&file)]));
        assert!(
            rules_of(&before).iter().any(|r| r == rule),
            "{fixture} does not fire {rule}"
        );
        let output = feedlint(&[
            "--fix",
            "--unsafe-fixes",
            "--format",
            "json",
            "--exit-zero",
            path(&file),
        ]);
        let after = json(&output);
        let fixed = fs::read_to_string(&file).unwrap();
        let expected_path = fixtures().join(format!("{fixture}.fixed"));
        if bless {
            fs::write(&expected_path, &fixed).unwrap();
        }
        match fs::read_to_string(&expected_path) {
            Ok(expected) if expected == fixed => {}
            Ok(_) => problems.push(format!(
                "{fixture}: the fixed file differs from {fixture}.fixed:\n{fixed}"
            )),
            Err(_) => problems.push(format!("{fixture}.fixed is missing")),
        }
        if rules_of(&after).iter().any(|r| r == rule) {
            problems.push(format!("{fixture}: {rule} still fires after --fix"));
        }
        // The report after --fix is the report of the fixed file.
        let fresh = json(&feedlint(&["--format", "json", "--exit-zero", path(&file)]));
        assert_eq!(rules_of(&fresh), rules_of(&after), "{fixture}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn fix_applies_only_safe_fixes_unless_asked() {
    let file = copy("next-archive-unsealed/fail-next-is-current.atom", "safe");
    let original = fs::read(&file).unwrap();
    let report = json(&feedlint(&["--fix", "--format", "json", path(&file)]));
    assert_eq!(fs::read(&file).unwrap(), original, "an unsafe fix needs --unsafe-fixes");
    assert!(rules_of(&report).iter().any(|r| r == "next-archive-unsealed"));
    let unsealed = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "next-archive-unsealed")
        .unwrap();
    assert_eq!(unsealed["fix"]["applicability"], "unsafe");
}

#[test]
fn files_without_fixes_are_not_rewritten() {
    let dir = scratch("untouched");
    let clean = dir.join("clean.atom");
    let fixable = dir.join("fixable.atom");
    fs::copy(fixtures().join("paging-prev-alias/pass-previous.atom"), &clean).unwrap();
    fs::copy(fixtures().join("paging-prev-alias/fail-prev.atom"), &fixable).unwrap();
    let modified = |p: &Path| fs::metadata(p).unwrap().modified().unwrap();
    let clean_before = modified(&clean);
    std::thread::sleep(std::time::Duration::from_millis(20));
    let output = feedlint(&["--fix", "--format", "concise", path(&dir)]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(modified(&clean), clean_before, "a file with no fix is never written");
    assert!(fs::read_to_string(&fixable).unwrap().contains("rel=\"previous\""));
    // No temporary file is left behind.
    let names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn diff_prints_the_fixes_and_writes_nothing() {
    let file = copy("paging-prev-alias/fail-prev.atom", "diff");
    let original = fs::read(&file).unwrap();
    let output = feedlint(&["--diff", path(&file)]);
    assert_eq!(output.status.code(), Some(1), "a diff to apply is exit status 1");
    let diff = stdout(&output);
    assert!(diff.contains(&format!("--- {}", path(&file))), "{diff}");
    assert!(diff.contains("-  <link rel=\"prev\" "), "{diff}");
    assert!(diff.contains("+  <link rel=\"previous\" "), "{diff}");
    assert_eq!(fs::read(&file).unwrap(), original);
    let clean = copy("paging-prev-alias/pass-previous.atom", "diff");
    let output = feedlint(&["--diff", path(&clean)]);
    assert_eq!((output.status.code(), stdout(&output).as_str()), (Some(0), ""));
}

#[test]
fn fixes_that_meet_converge_over_rounds() {
    // Two unused ids in one comment: removing each takes the separator
    // next to it, so the edits overlap and wait for a second round; the
    // comment, then naming nothing, goes in a third.
    let dir = scratch("rounds");
    let file = dir.join("rounds.atom");
    fs::write(
        &file,
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <!-- feedlint-disable fh-marker-duplicate, paging-prev-alias -->\n  <title>t</title>\n  <id>tag:example.org,2024:f</id>\n  <updated>2024-01-01T00:00:00Z</updated>\n  <author><name>a</name></author>\n</feed>\n",
    )
    .unwrap();
    let report = json(&feedlint(&["--fix", "--format", "json", path(&file)]));
    assert_eq!(rules_of(&report), Vec::<String>::new());
    let fixed = fs::read_to_string(&file).unwrap();
    assert!(!fixed.contains("feedlint-disable"), "{fixed}");
    assert!(
        fixed.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>t</title>"),
        "{fixed}"
    );
}

#[test]
fn a_file_that_is_not_utf8_gets_no_fix() {
    let dir = scratch("latin1");
    let file = dir.join("latin1.atom");
    let mut bytes = b"<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>caf\xe9</title>\n  <link rel=\"prev\" href=\"https://example.org/search?page=1\"/>\n</feed>\n".to_vec();
    bytes.shrink_to_fit();
    fs::write(&file, &bytes).unwrap();
    let report = json(&feedlint(&["--format", "json", "--exit-zero", path(&file)]));
    let alias = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "paging-prev-alias")
        .expect("the finding is there");
    assert!(alias["fix"].is_null(), "{alias}");
    feedlint(&["--fix", path(&file)]);
    assert_eq!(fs::read(&file).unwrap(), bytes);
}

#[test]
fn fix_applies_every_fix_of_a_rule_however_many() {
    // --max-per-rule (100) folds the findings a report shows; a round of
    // fixing sees every finding, so 1,000 wrong day names are 1,000 fixes
    // (eight rounds of 100 left 200).
    let dir = scratch("fix-every-wrong-day");
    let path = dir.join("news.rss");
    let items: String = (0..1000)
        .map(|n| format!("<item><title>Post {n}</title><pubDate>Mon, 04 Jun 2003 09:39:21 GMT</pubDate></item>\n"))
        .collect();
    let feed = format!(
        "<rss version=\"2.0\"><channel><title>News</title><link>https://example.org/</link><description>d</description>\n{items}</channel></rss>\n"
    );
    fs::write(&path, feed).unwrap();
    let output = feedlint(&["--fix", path.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("applied 1000 fixes to 1 file"), "{said}");
    let fixed = fs::read_to_string(&path).unwrap();
    assert_eq!(fixed.matches("<pubDate>Wed, 04 Jun 2003").count(), 1000);
    // A value repeated on every episode is one finding, and its one fix
    // writes every place.
    let path = dir.join("show.rss");
    fs::write(&path, common::legacy_explicit_podcast(1000)).unwrap();
    let output = feedlint(&["--fix", path.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("applied 1 fix to 1 file"), "{said}");
    let fixed = fs::read_to_string(&path).unwrap();
    assert_eq!(fixed.matches("<itunes:explicit>true</itunes:explicit>").count(), 1000);
    assert!(!fixed.contains(">yes<"));
}
