//! What users read: the JSON examples in docs/editors.md and
//! docs/cli-contract.md have the shape of a real run's output (the same
//! keys at every level: the report, its summary and tool, a diagnostic, a
//! span, a fix and its edits, a suppression), and every link of the README
//! and the docs leads somewhere.

use std::collections::BTreeSet;
use std::process::Command;

use serde_json::Value;

/// The `json` code block that follows `after` in `file`.
fn example(file: &str, after: &str) -> Value {
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    let from = text.find(after).unwrap_or_else(|| panic!("{file}: no '{after}'"));
    let block = text[from..]
        .split("```json\n")
        .nth(1)
        .unwrap()
        .split("\n```")
        .next()
        .unwrap();
    serde_json::from_str(block).unwrap_or_else(|e| panic!("{file}: the example is not JSON: {e}"))
}

/// Every path of object keys in `value`, arrays read through their first
/// element: `diagnostics[].spans[].file`.
fn shape(value: &Value, at: &str, into: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let path = format!("{at}.{key}");
                into.insert(path.clone());
                shape(inner, &path, into);
            }
        }
        Value::Array(items) => {
            if let Some(first) = items.first() {
                shape(first, &format!("{at}[]"), into);
            }
        }
        _ => {}
    }
}

fn shape_of(value: &Value) -> BTreeSet<String> {
    let mut paths = BTreeSet::new();
    shape(value, "", &mut paths);
    paths
}

/// A real run with a finding that has a fix and another document, and a
/// suppression that suppressed something.
fn real() -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args([
            "--format",
            "json",
            "examples/site",
            "testsuite/rules/unused-suppression/pass-with-reason.atom",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let mut report: Value = serde_json::from_slice(&output.stdout).unwrap();
    // The first diagnostic with a fix and a secondary span stands for all.
    let diagnostics = report["diagnostics"].as_array_mut().unwrap();
    let at = diagnostics
        .iter()
        .position(|d| !d["fix"].is_null() && d["spans"].as_array().unwrap().len() > 1)
        .or_else(|| diagnostics.iter().position(|d| !d["fix"].is_null()))
        .expect("a finding with a fix");
    diagnostics.swap(0, at);
    report
}

#[test]
fn the_readme_json_example_has_the_shape_of_a_real_run() {
    let readme = example("docs/editors.md", "The JSON is one object:");
    assert_eq!(shape_of(&readme), shape_of(&real()));
}

#[test]
fn the_contract_json_example_has_the_shape_of_a_real_run() {
    let contract = example("docs/cli-contract.md", "## JSON (`--format json`)");
    assert_eq!(shape_of(&contract), shape_of(&real()));
    // The documentation URL is absolute, on the main branch.
    assert!(contract["diagnostics"][0]["url"]
        .as_str()
        .unwrap()
        .starts_with("https://github.com/feedlint/feedlint/blob/main/rules/"));
}

/// GitHub's anchor for a heading: lower case, punctuation dropped but `-`
/// and `_`, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The README and the `docs/` pages it sends readers to: every link to a
/// file of the repository names one that is there, and every `#anchor` a
/// heading of the page it names.
#[test]
fn every_link_of_the_readme_and_the_docs_leads_somewhere() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|extension| extension == "md") {
            pages.push(path);
        }
    }
    let headings = |page: &std::path::Path| -> Vec<String> {
        let text = std::fs::read_to_string(page).unwrap();
        let mut fenced = false;
        text.lines()
            .filter(|line| {
                if line.starts_with("```") {
                    fenced = !fenced;
                }
                !fenced && line.starts_with('#')
            })
            .map(|line| anchor(line.trim_start_matches('#')))
            .collect()
    };
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for (at, _) in text.match_indices("](") {
            let target: String = text[at + 2..]
                .chars()
                .take_while(|c| *c != ')' && !c.is_whitespace())
                .collect();
            if target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let linked = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            checked += 1;
            if !linked.exists() {
                broken.push(format!("{}: {target}: no such file", page.display()));
            } else if !fragment.is_empty() && !headings(&linked).contains(&fragment.to_owned()) {
                broken.push(format!("{}: {target}: no such heading", page.display()));
            }
        }
    }
    assert!(checked > 200, "{checked} links");
    assert!(broken.is_empty(), "{broken:#?}");
}
