//! Runs every fixture under `testsuite/`: each file's findings must equal
//! the markers in its XML comments, exactly (see testsuite/README.md).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use feedlint::rules::{Group, Scope};
use feedlint::{lint, lint_bytes, report, rules, Input, Options, Report};
use url::Url;

const FIXTURE_ORIGIN: &str = "https://fixtures.example/";

fn testsuite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite")
}

/// Single-document fixtures: every file outside `testsuite/sets/`,
/// `testsuite/hostile/` (which `tests/hostile.rs` runs) and
/// `testsuite/sites/` (whole trees, which `tests/it/cli.rs` runs).
fn fixtures() -> Vec<PathBuf> {
    let sets = testsuite().join("sets");
    let hostile = testsuite().join("hostile");
    let sites = testsuite().join("sites");
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(testsuite())
        .sort_by_file_name()
        .into_iter()
        .map(|entry| entry.expect("testsuite is readable").into_path())
        .filter(|path| path.is_file() && ![&sets, &hostile, &sites].iter().any(|dir| path.starts_with(dir)))
        .filter(|path| {
            !matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("out" | "md" | "toml" | "fixed" | "markers")
            )
        })
        .collect();
    files.sort();
    files
}

/// The fixture's name relative to the project, as findings show it.
fn relative(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// Fixtures are published under a fixed origin, so that relative links and
/// self references behave the same on every machine. A file whose name
/// contains `no-url` is linted as standard input without `--url` is.
fn fixture_url(path: &Path) -> Option<Url> {
    let name = relative(path);
    if name.contains("no-url") {
        return None;
    }
    Some(
        Url::parse(FIXTURE_ORIGIN)
            .unwrap()
            .join(name.trim_start_matches("testsuite/"))
            .unwrap(),
    )
}

/// The RSS Best Practices Profile's rules (`rss-profile`), and the podcast
/// rules that ask for PSP-1's required and recommended elements (and the
/// info that a feed with audio is not checked as a podcast), are turned off
/// for every fixture but their own: they ask for a self link, a guid,
/// artwork, ... that the minimal documents of the other rules leave out,
/// and would add the same findings to nearly every RSS fixture.
fn without_the_profile(options: Options, path: &Path) -> Options {
    let mut levels = options.levels().clone();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite");
    let own_rule = path
        .strip_prefix(root.join("rules"))
        .or_else(|_| path.strip_prefix(root.join("sets")))
        .ok()
        .and_then(|rest| rest.components().next())
        .and_then(|rule| rule.as_os_str().to_str().map(str::to_owned));
    let asks_for_more = |rule: &&&rules::Rule| {
        rule.groups.contains(&feedlint::settings::select::Group::RssProfile)
            || matches!(
                rule.id,
                feedlint::RuleId::PodcastMissingElement
                    | feedlint::RuleId::PodcastMissingRecommended
                    | feedlint::RuleId::PodcastNotDeclared
            )
    };
    for rule in rules::RULES.iter().filter(asks_for_more) {
        if own_rule.as_deref() != Some(rule.id.as_str()) {
            levels.set(rule.id.as_str(), None).unwrap();
        }
    }
    options.with_levels(levels)
}

fn lint_fixture(path: &Path, keep_sources: bool) -> Report {
    let bytes = fs::read(path).unwrap();
    let options = without_the_profile(Options::default(), path).keeping_sources(keep_sources);
    let url = fixture_url(path);
    lint_bytes(&relative(path), url.as_ref().map(Url::as_str), &bytes, &options).unwrap()
}

/// `(rule, line)` → count, from `{rule}`, `{rule:+N}`, `{rule:-N}` and
/// `{rule:N}` markers inside XML comments.
fn expected_markers(text: &str) -> BTreeMap<(String, usize), usize> {
    let mut expected = BTreeMap::new();
    let mut rest = 0;
    while let Some(open) = text[rest..].find("<!--").map(|i| rest + i) {
        let close = text[open..].find("-->").map_or(text.len(), |i| open + i);
        let comment = &text[open..close];
        let mut at = 0;
        while let Some(start) = comment[at..].find('{').map(|i| at + i) {
            let Some(end) = comment[start..].find('}').map(|i| start + i) else {
                break;
            };
            at = end + 1;
            let marker = &comment[start + 1..end];
            let (rule, position) = marker.split_once(':').unwrap_or((marker, ""));
            if rule.is_empty()
                || !rule
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            {
                continue;
            }
            let own_line = text[..open + start].matches('\n').count() + 1;
            let line = match position {
                "" => own_line,
                p if p.starts_with('+') => own_line + p[1..].parse::<usize>().expect("marker offset"),
                p if p.starts_with('-') => own_line - p[1..].parse::<usize>().expect("marker offset"),
                p => p.parse().expect("marker line"),
            };
            *expected.entry((rule.to_owned(), line)).or_default() += 1;
        }
        rest = close;
    }
    expected
}

fn actual_findings(report: &Report) -> BTreeMap<(String, usize), usize> {
    let mut actual = BTreeMap::new();
    for diagnostic in &report.diagnostics {
        *actual
            .entry((diagnostic.rule.to_string(), diagnostic.primary().line_start))
            .or_default() += 1;
    }
    actual
}

/// The text that holds a fixture's markers: the fixture itself, as
/// feedlint reads it (transcoded); for a JSON fixture, which has no
/// comments, the file `NAME.json.markers` beside it (markers with their
/// lines, `<!-- {rule:N} -->`), if any.
fn fixture_text(path: &Path) -> String {
    if path.extension().is_some_and(|e| e == "json") {
        return fs::read_to_string(format!("{}.markers", path.display())).unwrap_or_default();
    }
    let bytes = fs::read(path).unwrap();
    match feedlint::findings::source::decode(bytes) {
        Ok(text) | Err((text, _)) => text,
    }
}

#[test]
fn every_fixture_reports_exactly_its_markers() {
    let mut failures = Vec::new();
    for path in fixtures() {
        let expected = expected_markers(&fixture_text(&path));
        let report = lint_fixture(&path, false);
        let actual = actual_findings(&report);
        if expected == actual {
            continue;
        }
        let mut lines = vec![format!("{}:", relative(&path))];
        for (key, n) in &expected {
            let got = actual.get(key).copied().unwrap_or(0);
            if got < *n {
                lines.push(format!("  missing {}x {} on line {}", n - got, key.0, key.1));
            }
        }
        for diagnostic in &report.diagnostics {
            let key = (diagnostic.rule.to_string(), diagnostic.primary().line_start);
            if actual[&key] > expected.get(&key).copied().unwrap_or(0) {
                lines.push(format!(
                    "  unexpected {} on line {}: {}",
                    key.0, key.1, diagnostic.message
                ));
            }
        }
        failures.push(lines.join("\n"));
    }
    assert!(
        failures.is_empty(),
        "{} fixture(s) differ from their markers:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The Podcasting 2.0 namespace's readers "must also recognize" its older
/// name "as identical": every fixture that declares the namespace gets the
/// same findings, rule and line, with the older name written instead, and
/// one `podcast-namespace-legacy` info more at each declaration.
#[test]
fn the_podcast_namespace_older_name_is_checked_as_the_namespace() {
    const CURRENT: &str = "https://podcastindex.org/namespace/1.0";
    const OLDER: &str = "https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md";
    let mut compared = 0;
    let mut failures = Vec::new();
    for path in fixtures() {
        let text = fixture_text(&path);
        let declarations = text.matches(&format!("\"{CURRENT}\"")).count();
        if declarations == 0 {
            continue;
        }
        let older = text.replace(&format!("\"{CURRENT}\""), &format!("\"{OLDER}\""));
        let options = without_the_profile(Options::default(), &path);
        let url = fixture_url(&path);
        let report = lint_bytes(
            &relative(&path),
            url.as_ref().map(Url::as_str),
            older.as_bytes(),
            &options,
        )
        .unwrap();
        let mut expected = actual_findings(&lint_fixture(&path, false));
        let mut actual = actual_findings(&report);
        let infos: usize = actual
            .iter()
            .filter(|((rule, _), _)| rule == "podcast-namespace-legacy")
            .map(|(_, n)| n)
            .sum();
        actual.retain(|(rule, _), _| rule != "podcast-namespace-legacy");
        expected.retain(|(rule, _), _| rule != "podcast-namespace-legacy");
        if actual != expected || infos != declarations {
            failures.push(format!(
                "{}: {infos} infos for {declarations} declarations; with the current name {expected:?}, with the older {actual:?}",
                relative(&path)
            ));
        }
        compared += 1;
    }
    assert!(compared >= 20, "fixtures declaring the namespace: {compared}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Set cases: each directory `testsuite/sets/GROUP/CASE/` is linted
/// together, as `feedlint CASE/` would, with its `feedlint.toml` if it has
/// one.
fn set_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = walkdir::WalkDir::new(testsuite().join("sets"))
        .min_depth(2)
        .max_depth(2)
        .sort_by_file_name()
        .into_iter()
        .map(|entry| entry.expect("testsuite is readable").into_path())
        .filter(|path| path.is_dir())
        .collect();
    cases.sort();
    cases
}

/// A set case's settings: its `feedlint.toml`, read as the command line
/// reads one.
fn case_options(case: &Path) -> Options {
    let path = case.join("feedlint.toml");
    if !path.exists() {
        return without_the_profile(Options::default(), case);
    }
    let config = feedlint::settings::config::load(&path).expect("the case's feedlint.toml is valid");
    let options = without_the_profile(Options::default().with_levels(config.levels), case);
    // The base URL names the case's directory, as the command line takes
    // a config's base-url to name the config's.
    match config.base_url {
        Some(base_url) => options.with_base_url(&base_url).unwrap().with_base_root(case),
        None => options,
    }
}

fn case_files(case: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(case)
        .into_iter()
        .map(|entry| entry.unwrap().into_path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e != "toml" && e != "markers"))
        .collect();
    files.sort();
    files
}

/// `(file, rule, line)` → count over a set case.
type SetFindings = BTreeMap<(String, String, usize), usize>;

#[test]
fn every_set_case_reports_exactly_its_markers() {
    let cases = set_cases();
    assert!(cases.len() >= 20, "testsuite/sets holds the set cases");
    let mut failures = Vec::new();
    for case in cases {
        let mut expected = SetFindings::new();
        for file in case_files(&case) {
            for ((rule, line), n) in expected_markers(&fixture_text(&file)) {
                expected.insert((relative(&file), rule, line), n);
            }
        }
        let report = lint(vec![Input::Path(case.clone())], &case_options(&case));
        assert!(report.failures.is_empty(), "{:?}", report.failures);
        let mut actual = SetFindings::new();
        for d in &report.diagnostics {
            let file = relative(Path::new(&report.documents[d.primary().doc].name));
            *actual
                .entry((file, d.rule.to_string(), d.primary().line_start))
                .or_default() += 1;
        }
        if expected == actual {
            continue;
        }
        let mut lines = vec![format!("{}:", relative(&case))];
        for (key, n) in &expected {
            let got = actual.get(key).copied().unwrap_or(0);
            if got < *n {
                lines.push(format!("  missing {} in {} on line {}", key.1, key.0, key.2));
            }
        }
        for d in &report.diagnostics {
            let file = relative(Path::new(&report.documents[d.primary().doc].name));
            let key = (file, d.rule.to_string(), d.primary().line_start);
            if actual[&key] > expected.get(&key).copied().unwrap_or(0) {
                lines.push(format!(
                    "  unexpected {} in {} on line {}: {}",
                    key.1, key.0, key.2, d.message
                ));
            }
        }
        failures.push(lines.join("\n"));
    }
    assert!(
        failures.is_empty(),
        "{} set case(s) differ from their markers:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn valid_documents_have_no_markers_and_no_findings() {
    let valid = testsuite().join("valid");
    let files: Vec<PathBuf> = fixtures().into_iter().filter(|p| p.starts_with(&valid)).collect();
    assert!(files.len() >= 8, "testsuite/valid holds the RFC examples");
    for path in files {
        assert!(
            expected_markers(&fixture_text(&path)).is_empty(),
            "{} has markers",
            relative(&path)
        );
        let report = lint_fixture(&path, false);
        assert_eq!(
            report.documents.len(),
            1,
            "{} was not linted as a feed",
            relative(&path)
        );
        let found: Vec<_> = report
            .diagnostics
            .iter()
            .map(|d| format!("{}: {}", d.rule, d.message))
            .collect();
        assert!(found.is_empty(), "{}: {found:#?}", relative(&path));
    }
}

/// Rules that no fixture can fire (they need a server, or a file larger
/// than a fixture should be), and the test file that fires each.
const TESTED_ELSEWHERE: [(&str, &str); 34] = [
    ("archive-unavailable", "tests/it/fetch.rs"),
    ("artwork-not-rgb", "tests/it/media.rs"),
    ("artwork-not-square", "tests/it/media.rs"),
    ("artwork-wrong-format", "tests/it/media.rs"),
    ("artwork-wrong-size", "tests/it/media.rs"),
    ("charset-mismatch", "tests/it/fetch.rs"),
    ("fetch-failed", "tests/it/fetch.rs"),
    ("fetch-limit-reached", "tests/it/fetch.rs"),
    ("file-too-large", "tests/hostile.rs"),
    ("http-archive-no-store", "tests/it/http.rs"),
    ("http-bot-challenge", "tests/it/http.rs"),
    ("http-etag-ignored", "tests/it/http.rs"),
    ("http-etag-unstable", "tests/it/http.rs"),
    ("http-feed-too-large", "tests/it/http.rs"),
    ("http-last-modified-ignored", "tests/it/http.rs"),
    ("http-no-compression", "tests/it/http.rs"),
    ("http-no-cors", "tests/it/http.rs"),
    ("http-no-validator", "tests/it/http.rs"),
    ("http-temporary-redirect", "tests/it/http.rs"),
    ("internal-error", "tests/it/mutation.rs"),
    ("media-head-refused", "tests/it/media.rs"),
    ("media-length-mismatch", "tests/it/media.rs"),
    ("media-limit-reached", "tests/it/media.rs"),
    ("media-no-byte-ranges", "tests/it/media.rs"),
    ("media-redirects-to-https", "src/rules/media/mod.rs"),
    ("media-transcript-no-cors", "tests/it/media.rs"),
    ("media-type-mismatch", "tests/it/media.rs"),
    ("media-unavailable", "tests/it/media.rs"),
    ("media-unreachable", "tests/it/media.rs"),
    ("unexpected-content-type", "tests/it/fetch.rs"),
    ("websub-header-mismatch", "tests/it/websub.rs"),
    ("websub-hub-only-in-headers", "tests/it/websub.rs"),
    ("websub-hub-unreachable", "tests/it/websub.rs"),
    ("websub-topic-mismatch", "tests/it/websub.rs"),
];

/// Each registered rule has `rules/ID.md`, a directory of fixtures with at
/// least one that fires it and one `pass*` fixture; nothing is left over.
#[test]
fn every_rule_has_docs_and_firing_and_passing_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    for rule in rules::RULES {
        let id = rule.id.as_str();
        let doc = root.join("rules").join(format!("{}.md", id));
        match fs::read_to_string(&doc) {
            Ok(text) => {
                for section in [
                    "## What it checks",
                    "## Why",
                    "## Specification",
                    "## Example",
                    "## Passes",
                ] {
                    if !text.contains(section) {
                        problems.push(format!("rules/{}.md has no \"{section}\" section", id));
                    }
                }
            }
            Err(_) => problems.push(format!("rules/{}.md is missing", id)),
        }
        if let Some((_, file)) = TESTED_ELSEWHERE.iter().find(|(tested, _)| *tested == id) {
            let tests = fs::read_to_string(root.join(file)).unwrap();
            if !tests.contains(id) {
                problems.push(format!("{file} does not check {}", id));
            }
            continue;
        }
        let needs_documents = rule.scope != Scope::Set;
        let needs_sets = rule.scope != Scope::Doc;
        if needs_documents {
            let dir = testsuite().join("rules").join(id);
            let files: Vec<PathBuf> = fixtures().into_iter().filter(|p| p.starts_with(&dir)).collect();
            let fires = files.iter().any(|p| {
                expected_markers(&fixture_text(p))
                    .keys()
                    .any(|(marked, _)| marked == id)
            });
            let passes = files
                .iter()
                .any(|p| p.file_name().unwrap().to_string_lossy().starts_with("pass"));
            if !fires {
                problems.push(format!("no fixture in testsuite/rules/{} fires {}", id, id));
            }
            if !passes {
                problems.push(format!("no pass* fixture in testsuite/rules/{}", id));
            }
        }
        if needs_sets {
            let dir = testsuite().join("sets").join(id);
            let cases: Vec<PathBuf> = set_cases().into_iter().filter(|p| p.starts_with(&dir)).collect();
            let fires = cases.iter().flat_map(|c| case_files(c)).any(|f| {
                expected_markers(&fixture_text(&f))
                    .keys()
                    .any(|(marked, _)| marked == id)
            });
            let passes = cases
                .iter()
                .any(|c| c.file_name().unwrap().to_string_lossy().starts_with("pass"));
            if !fires {
                problems.push(format!("no case in testsuite/sets/{} fires {}", id, id));
            }
            if !passes {
                problems.push(format!("no pass* case in testsuite/sets/{}", id));
            }
        }
    }
    for entry in fs::read_dir(root.join("rules")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let id = name.trim_end_matches(".md");
        if id.parse::<feedlint::RuleId>().is_err() {
            problems.push(format!("rules/{name} documents no registered rule"));
        }
    }
    for group in ["rules", "sets"] {
        for entry in fs::read_dir(testsuite().join(group)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.parse::<feedlint::RuleId>().is_err() && !(group == "sets" && name == "valid") {
                problems.push(format!("testsuite/{group}/{name} is for no registered rule"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `NAME.out` beside a fixture holds its text rendering; `FEEDLINT_BLESS=1`
/// rewrites it.
#[test]
fn text_renderings_match_their_snapshots() {
    let bless = std::env::var_os("FEEDLINT_BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    let mut count = 0;
    for path in fixtures() {
        let snapshot = PathBuf::from(format!("{}.out", path.display()));
        if !snapshot.exists() {
            continue;
        }
        count += 1;
        let mut rendered = Vec::new();
        report::write(&lint_fixture(&path, true), report::Format::Text, false, &mut rendered).unwrap();
        let rendered = String::from_utf8(rendered).unwrap();
        if bless {
            fs::write(&snapshot, &rendered).unwrap();
        } else if fs::read_to_string(&snapshot).unwrap() != rendered {
            failures.push(format!(
                "{} differs from its rendering:\n{rendered}",
                relative(&snapshot)
            ));
        }
    }
    assert!(count > 0, "no .out snapshots found");
    assert!(
        failures.is_empty(),
        "{}\n(run with FEEDLINT_BLESS=1 to accept)",
        failures.join("\n")
    );
}

#[test]
fn markers_are_read_as_documented() {
    let text = "<a>\n<!-- {x-y} {x-y:+1} -->\n<b/>\n<!-- {z:1} not {Marker} -->\n</a>";
    let markers = expected_markers(text);
    let keys: Vec<_> = markers.keys().cloned().collect();
    assert_eq!(
        keys,
        vec![("x-y".to_owned(), 2), ("x-y".to_owned(), 3), ("z".to_owned(), 1)]
    );
}

/// Whether generated text that differs is written (`FEEDLINT_BLESS=1`)
/// rather than reported.
fn blessing() -> bool {
    std::env::var_os("FEEDLINT_BLESS").is_some_and(|v| v == "1")
}

/// The header line of a rule's documentation, as its declaration says.
fn doc_header(rule: &rules::Rule) -> String {
    format!(
        "Level: **{}** · Scope: **{}** · Spec: {}",
        rule.level,
        rule.scope.as_str(),
        rule.spec
    )
}

/// The list of rules in docs/rules.md, written whole from the rules and their
/// groups: a heading, the summary and a table for each group, holding the
/// rules whose first group it is (a new group or rule touches no test).
fn rules_page_section() -> String {
    let mut out = String::new();
    for group in Group::ALL {
        let rules: Vec<&rules::Rule> = rules::RULES
            .iter()
            .copied()
            .filter(|rule| rule.groups[0] == group)
            .collect();
        if rules.is_empty() {
            continue;
        }
        let summary = group.summary();
        let mut chars = summary.chars();
        let summary: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        out.push_str(&format!(
            "## {}\n\n{summary} (group `{}`).\n\n| rule | level | scope | finds |\n|---|---|---|---|\n",
            group.title(),
            group.name()
        ));
        for rule in rules {
            out.push_str(&format!(
                "| [`{id}`](../rules/{id}.md) | {} | {} | {} |\n",
                rule.level,
                rule.scope.as_str(),
                rule.summary,
                id = rule.id
            ));
        }
        out.push('\n');
    }
    out
}

/// docs/rules.md with its list of rules written from `RULES`.
fn rules_page_with_generated_tables(readme: &str) -> String {
    const START: &str =
        "<!-- rules: generated from the rules and their groups by tests/it/testsuite.rs (FEEDLINT_BLESS=1 rewrites it) -->\n";
    const END: &str = "<!-- end of rules -->\n";
    let (before, rest) = readme.split_once(START).expect("docs/rules.md's list of rules starts");
    let (_, after) = rest.split_once(END).expect("docs/rules.md's list of rules ends");
    format!("{before}{START}{}{END}{after}", rules_page_section())
}

#[test]
fn the_rules_page_and_every_doc_header_are_written_from_the_rules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut differs = Vec::new();
    for rule in rules::RULES {
        let path = root.join("rules").join(format!("{}.md", rule.id));
        let text = fs::read_to_string(&path).unwrap();
        let mut lines: Vec<&str> = text.split('\n').collect();
        let expected = doc_header(rule);
        let at = lines.iter().position(|line| line.starts_with("Level: **"));
        assert_eq!(at, Some(2), "{}: the header line is the third", path.display());
        if lines[2] != expected {
            differs.push(format!("{}: {:?}, declared {expected:?}", path.display(), lines[2]));
            lines[2] = &expected;
            if blessing() {
                fs::write(&path, lines.join("\n")).unwrap();
            }
        }
    }
    let readme_path = root.join("docs/rules.md");
    let readme = fs::read_to_string(&readme_path).unwrap();
    let generated = rules_page_with_generated_tables(&readme);
    if generated != readme {
        let old: Vec<&str> = readme.lines().collect();
        let new: Vec<&str> = generated.lines().collect();
        let changed: Vec<String> = new
            .iter()
            .filter(|line| line.starts_with("| [") && !old.contains(line))
            .map(|line| format!("docs/rules.md should have: {line}"))
            .collect();
        differs.extend(changed);
        differs.push("docs/rules.md: its list of rules differs from RULES".to_owned());
        if blessing() {
            fs::write(&readme_path, generated).unwrap();
        }
    }
    assert!(
        differs.is_empty() || blessing(),
        "generated from RULES, and different (FEEDLINT_BLESS=1 writes them):\n{}",
        differs.join("\n")
    );
}

/// Where each rule is declared: its id's variant (`ArchiveOrphan`) and
/// the file under `src/rules/` (`rfc5005/chains/mod.rs`), read from the
/// `rule!` declarations before a file's unit tests.
fn declared_rules(dir: &Path, found: &mut BTreeMap<String, String>) {
    let declaration = regex::Regex::new(r"static \w+: Rule = rule!\(\s*(\w+),").unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            declared_rules(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = fs::read_to_string(&path).unwrap();
            let code = text.split("\n#[cfg(test)]").next().unwrap_or_default();
            let file = path.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
            for declared in declaration.captures_iter(code) {
                found.insert(declared[1].to_owned(), file.clone());
            }
        }
    }
}

/// The rules written outside their first group's folder.
fn misplaced_rules(declared: &BTreeMap<String, String>) -> Vec<String> {
    rules::RULES
        .iter()
        .filter_map(|rule| {
            let file = declared.get(&format!("{:?}", rule.id))?;
            let folder = rule.groups[0].folder();
            (!file.starts_with(&format!("{folder}/"))).then(|| {
                format!(
                    "{}: in src/rules/{file}, its group {}'s folder is src/rules/{folder}/",
                    rule.id,
                    rule.groups[0].name()
                )
            })
        })
        .collect()
}

#[test]
fn every_rule_is_written_in_its_first_groups_folder() {
    let mut declared = BTreeMap::new();
    declared_rules(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules"), &mut declared);
    assert_eq!(declared.len(), rules::RULES.len(), "every rule's declaration was read");
    assert_eq!(misplaced_rules(&declared), Vec::<String>::new());
    // The check fails where it should: a rule written in another folder.
    let mut moved = declared.clone();
    moved.insert("ArchiveOrphan".to_owned(), "atom/links.rs".to_owned());
    assert_eq!(
        misplaced_rules(&moved),
        ["archive-orphan: in src/rules/atom/links.rs, its group rfc5005's folder is src/rules/rfc5005/"]
    );
}

/// One finding per cause: over the whole testsuite, no two findings point
/// at the same place, unless both are for something missing (a missing
/// element points at the element that should hold it, and two missing
/// elements are two causes). See CONTRIBUTING, "One finding per cause".
#[test]
fn no_two_findings_share_a_place_but_two_absences() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(["--format", "json", "--exit-zero", "--max-per-rule", "0"])
        .arg(root.join("rules"))
        .arg(root.join("sets"))
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert!(
        diagnostics.len() > 200,
        "the testsuite was linted: {}",
        diagnostics.len()
    );
    let shared = shared_places(diagnostics);
    assert!(shared.is_empty(), "two findings for one place:\n{}", shared.join("\n"));
}

/// The places two findings point at, but where both are for something
/// missing.
fn shared_places(diagnostics: &[serde_json::Value]) -> Vec<String> {
    let mut by_place: std::collections::BTreeMap<(String, u64, u64), Vec<String>> = Default::default();
    for d in diagnostics {
        let span = &d["spans"][0];
        let place = (
            d["file"].as_str().unwrap().to_owned(),
            span["byte_start"].as_u64().unwrap(),
            span["byte_end"].as_u64().unwrap(),
        );
        by_place
            .entry(place)
            .or_default()
            .push(d["rule"].as_str().unwrap().to_owned());
    }
    by_place
        .iter()
        .filter(|(_, rules)| rules.len() > 1 && !rules.iter().all(|rule| rule.contains("missing")))
        .map(|((file, start, _), rules)| format!("{file} at byte {start}: {rules:?}"))
        .collect()
}

#[test]
fn shared_places_are_found_and_two_absences_allowed() {
    let finding = |rule: &str, start: u64| serde_json::json!({"file": "a.rss", "rule": rule, "spans": [{"byte_start": start, "byte_end": start + 4}]});
    let two_causes = [finding("atom-missing-id", 0), finding("atom-missing-updated", 0)];
    assert!(shared_places(&two_causes).is_empty());
    let one_cause = [
        finding("rss-invalid-schedule", 9),
        finding("rss-invalid-email", 9),
        finding("atom-missing-id", 20),
    ];
    assert_eq!(
        shared_places(&one_cause),
        ["a.rss at byte 9: [\"rss-invalid-schedule\", \"rss-invalid-email\"]"]
    );
}
