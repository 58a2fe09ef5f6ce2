//! The library's modules depend on each other one way only: a test reads
//! every `crate::` path in `src/` and fails on any cycle between top-level
//! modules (the stages of a run each build on the ones before them, and
//! nothing below them reaches back up).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The top-level module a file belongs to: `src/rules/chains.rs` is `rules`.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap();
    let first = relative.components().next().unwrap().as_os_str().to_string_lossy();
    first.trim_end_matches(".rs").to_owned()
}

/// The identifiers after each `crate::` in `text`, comments left out.
fn crate_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let ident: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if ident.is_empty() && rest.starts_with('{') {
                // `use crate::{a, b::c}`: each top-level name in the braces.
                let inner = &rest[1..rest.find('}').unwrap_or(rest.len())];
                found.extend(inner.split(',').map(|part| {
                    part.trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect::<String>()
                }));
            } else {
                found.push(ident);
            }
        }
    }
    found
}

/// `pub use module::{A, B}` in lib.rs: which module each re-exported name is from.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for line in lib.lines().filter(|l| l.starts_with("pub use ")) {
        let path = line.trim_start_matches("pub use ").trim_end_matches(';');
        let (module, names) = path.split_once("::").unwrap();
        for name in names.trim_matches(|c| c == '{' || c == '}').split(',') {
            map.insert(name.trim().to_owned(), module.to_owned());
        }
    }
    map
}

#[test]
fn modules_do_not_depend_on_each_other_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let reexported = reexports(&lib);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files
        .iter()
        .map(|f| module_of(&src, f))
        .filter(|m| m != "lib" && m != "main")
        .collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = module_of(&src, file);
        if from == "lib" || from == "main" {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for name in crate_paths(&text) {
            let to = if modules.contains(&name) {
                name
            } else if let Some(module) = reexported.get(&name) {
                module.clone()
            } else {
                continue;
            };
            if to != from {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    assert!(edges.len() > 5, "the graph was read: {edges:?}");

    // Depth-first search; a node met again while on the path closes a cycle.
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    for module in &modules {
        if let Some(cycle) = visit(module, &edges, &mut Vec::new(), &mut done) {
            panic!("modules depend on each other in a circle: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn the_reader_of_paths_finds_them() {
    let text =
        "use crate::{feed::FeedDoc, set};\nuse crate::rules::Rule; // crate::engine\nlet x = crate::iri::check(y);";
    assert_eq!(crate_paths(text), ["feed", "set", "rules", "iri"]);
}

#[test]
fn the_code_compares_rule_ids_never_their_spellings() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let spelled = regex::Regex::new(r#"\.rule\s*[!=]=\s*"|"[a-z0-9-]+"\s*[!=]=\s*[a-z_.]*\.rule\b"#).unwrap();
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if spelled.is_match(line) && !line.trim_start().starts_with("//") {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "compare RuleIds, not strings:\n{}", found.join("\n"));
    // The check finds what it looks for.
    assert!(spelled.is_match(r#"if d.rule == "not-a-feed" {"#));
}
