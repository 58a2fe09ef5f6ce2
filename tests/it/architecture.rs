//! The library's modules depend on each other one way only: each stage
//! builds on the ones before it, and nothing reaches back up. The stages
//! are written once, in [`STAGES`]; a test reads every `crate::` (and
//! `super::`) path in `src/` and fails on an import of a later stage, and
//! on any cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The stages, lowest first: a module may use its own stage and the ones
/// before it. A unit is a top-level module, or a submodule named here on
/// its own (`site::placement`, what one document's self link says, is
/// made while a document is analyzed; the rest of `site` works on the
/// whole run).
const STAGES: &[(&str, &[&str])] = &[
    (
        "foundations, knowing nothing of feeds",
        &[
            "alloc",
            "contain",
            "descriptors",
            "exclude",
            "fix",
            "hash",
            "html",
            "secret",
            "shown",
            "syntax",
        ],
    ),
    (
        "text: rule ids, snippets, dates, IRIs, XML",
        &["date", "iri", "rule_id", "snippet", "xml"],
    ),
    (
        "findings, decoded sources, suppressions",
        &["diagnostic", "source", "suppress"],
    ),
    (
        "one document's facts, and the set they form",
        &["document", "feed", "set", "site::placement", "summary"],
    ),
    (
        "the rules, and the settings that select them",
        &["config", "options", "rules", "select"],
    ),
    ("where files are published, given or learned", &["site"]),
    ("discover: from paths to documents, read", &["discover"]),
    ("analyze: one document", &["analyze"]),
    ("the report, and the formats that write it", &["report"]),
    ("assemble: the set checks, made into the report", &["assemble"]),
    ("the run, stage after stage", &["engine"]),
    ("what a run is given to and made from", &["fetch", "fix_files"]),
    ("the servers", &["server", "web"]),
    ("the command line", &["cli"]),
];

fn stage_of(unit: &str) -> Option<usize> {
    STAGES.iter().position(|(_, units)| units.contains(&unit))
}

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

/// The unit a module path names: `site::placement::Placement` is
/// `site::placement`, `rules::chains` is `rules`.
fn unit_of_path(path: &str) -> String {
    let mut parts = path.split("::");
    let first = parts.next().unwrap_or_default();
    match parts.next() {
        Some(second) if stage_of(&format!("{first}::{second}")).is_some() => format!("{first}::{second}"),
        _ => first.to_owned(),
    }
}

/// The unit a file belongs to: `src/rules/chains/paging.rs` is `rules`,
/// `src/site/placement.rs` is `site::placement`.
fn unit_of_file(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    unit_of_path(&parts.join("::"))
}

/// The module paths after each `crate::` in `text` (and each `super::`,
/// read as `crate::` then the top-level module `top`), comments left out,
/// and the unit tests at the end of a file too (a test may drive a whole
/// run).
fn crate_paths(text: &str, top: &str) -> Vec<String> {
    let path_chars = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    let code = text.split("\n#[cfg(test)]\nmod tests").next().unwrap_or_default();
    let mut found = Vec::new();
    for line in code.lines() {
        let code = line.split("//").next().unwrap_or_default();
        for (prefix, base) in [("crate::", String::new()), ("super::", format!("{top}::"))] {
            let mut rest = code;
            while let Some(at) = rest.find(prefix) {
                // `crate::x::super::` is no path of ours; `super::super` is
                // rare enough to read as the parent.
                rest = &rest[at + prefix.len()..];
                if rest.starts_with('{') {
                    // `use crate::{a, b::c}`: each path in the braces.
                    let inner = &rest[1..rest.find('}').unwrap_or(rest.len())];
                    found.extend(inner.split(',').map(|part| {
                        let path: String = part.trim().chars().take_while(|c| path_chars(*c)).collect();
                        format!("{base}{}", path.trim_end_matches(':'))
                    }));
                } else {
                    let path: String = rest.chars().take_while(|c| path_chars(*c)).collect();
                    found.push(format!("{base}{}", path.trim_end_matches(':')));
                }
            }
        }
    }
    found.retain(|path| !path.is_empty() && !path.ends_with("::"));
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

/// Every unit's imports of other units.
fn imports() -> (BTreeSet<String>, BTreeMap<String, BTreeSet<String>>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let reexported = reexports(&lib);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let units: BTreeSet<String> = files
        .iter()
        .map(|f| unit_of_file(&src, f))
        .filter(|m| m != "lib" && m != "main")
        .collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = unit_of_file(&src, file);
        if from == "lib" || from == "main" {
            continue;
        }
        let top = from.split("::").next().unwrap().to_owned();
        let text = std::fs::read_to_string(file).unwrap();
        for path in crate_paths(&text, &top) {
            let unit = unit_of_path(&path);
            let to = if units.contains(&unit) {
                unit
            } else if let Some(module) = reexported.get(&unit) {
                module.clone()
            } else {
                continue;
            };
            if to != from {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    (units, edges)
}

#[test]
fn no_stage_imports_a_later_one() {
    let (units, edges) = imports();
    assert!(edges.len() > 20, "the graph was read: {edges:?}");
    let unstaged: Vec<&String> = units.iter().filter(|unit| stage_of(unit).is_none()).collect();
    assert!(
        unstaged.is_empty(),
        "give each module its stage in STAGES (tests/it/architecture.rs): {unstaged:?}"
    );
    let mut upward = Vec::new();
    for (from, tos) in &edges {
        for to in tos {
            let (below, above) = (stage_of(from).unwrap(), stage_of(to).unwrap());
            if above > below {
                upward.push(format!(
                    "{from} ({}) imports {to} ({})",
                    STAGES[below].0, STAGES[above].0
                ));
            }
        }
    }
    assert!(upward.is_empty(), "imports of a later stage:\n{}", upward.join("\n"));
}

#[test]
fn modules_do_not_depend_on_each_other_in_a_circle() {
    let (units, edges) = imports();
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
    for unit in &units {
        if let Some(cycle) = visit(unit, &edges, &mut Vec::new(), &mut done) {
            panic!("modules depend on each other in a circle: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn the_reader_of_paths_finds_them() {
    let text = "use crate::{feed::FeedDoc, set};\nuse crate::rules::Rule; // crate::engine\nlet x = crate::iri::check(y);\nuse super::placement::{self, Placement};";
    let units: Vec<String> = crate_paths(text, "site").iter().map(|p| unit_of_path(p)).collect();
    assert_eq!(units, ["feed", "set", "rules", "iri", "site::placement"]);
    assert_eq!(unit_of_path("site::published::Published"), "site");
    // An import of a later stage is one the test sees as such.
    assert!(stage_of("analyze") > stage_of("site::placement"));
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

/// The most lines a source file may have. Past it, a file holds parts
/// that have names of their own: it is split where they are. The XML
/// parser is one state machine, read as one, and the one exception.
const MOST_LINES: usize = 1_000;
const LONGER_BY_DESIGN: &[&str] = &["src/xml/parser/mod.rs"];

/// The files of `files` (relative to `root`) over [`MOST_LINES`], but the
/// ones long by design.
fn too_long(root: &Path, files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .filter_map(|file| {
            let name = file.strip_prefix(root).unwrap_or(file).to_string_lossy().into_owned();
            let lines = std::fs::read_to_string(file).ok()?.lines().count();
            (lines > MOST_LINES && !LONGER_BY_DESIGN.contains(&name.as_str())).then(|| format!("{name}: {lines} lines"))
        })
        .collect()
}

#[test]
fn no_source_file_passes_a_thousand_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    assert!(files.len() > 50, "the files were read: {}", files.len());
    assert_eq!(
        too_long(root, &files),
        Vec::<String>::new(),
        "split these where their parts have names"
    );
    // The check fails where it should: a long file is named.
    let dir = crate::common::scratch("architecture-long-file");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let long = dir.join("src/long.rs");
    std::fs::write(&long, "// a line\n".repeat(MOST_LINES + 1)).unwrap();
    assert_eq!(too_long(&dir, &[long]), ["src/long.rs: 1001 lines"]);
}

#[test]
fn the_notes_helps_and_labels_written_in_the_code_show_as_they_are() {
    // A finding's borrowed texts are the code's own literals, and are shown
    // without a look at their characters (shown::showable_text): none may
    // be longer than a finding's text may be, nor hold a character that
    // hides itself (written as an escape in the source).
    let literal = regex::Regex::new(r#"\.(?:note|help|label)\(\s*"((?:[^"\\]|\\.)*)""#).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut read = 0;
    let mut wrong = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for found in literal.captures_iter(&text) {
            read += 1;
            let written = &found[1];
            // Escapes that make a control or a \u{...} character; a quoted
            // quote or backslash shows as it is.
            let unescaped = written.replace("\\\\", "");
            let escapes = ["\\n", "\\r", "\\t", "\\0", "\\x", "\\u{"]
                .iter()
                .any(|escape| unescaped.contains(escape));
            if written.len() > feedlint::shown::MAX_TEXT || escapes {
                wrong.push(format!("{}: {}", file.display(), &written[..written.len().min(80)]));
            }
        }
    }
    assert!(read > 300, "the literals were read: {read}");
    assert_eq!(wrong, Vec::<String>::new());
}

/// The most lines a function may have: past it, it does several things,
/// each of which has a name. The page's templates (maud markup, read as
/// the page it makes) are the exception.
const MOST_FUNCTION_LINES: usize = 100;
const TEMPLATES: &[&str] = &["src/web/page.rs"];

/// The functions of `text` longer than [`MOST_FUNCTION_LINES`]: each
/// `fn` with a body, to the brace that closes it (braces in strings,
/// characters and comments not counted).
fn long_functions(text: &str) -> Vec<(usize, usize, String)> {
    let starts_fn = regex::Regex::new(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?fn\s+\w+").unwrap();
    let strings = regex::Regex::new(r#""(\\.|[^"\\])*"|'(\\.|[^'\\])'"#).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        if !starts_fn.is_match(lines[at]) || lines[at].trim_end().ends_with(';') {
            at += 1;
            continue;
        }
        let (mut depth, mut opened, mut end) = (0i64, false, at);
        while end < lines.len() {
            let code = strings.replace_all(lines[end], "\"\"");
            let code = code.split("//").next().unwrap_or_default();
            depth += code.matches('{').count() as i64 - code.matches('}').count() as i64;
            opened |= code.contains('{');
            if opened && depth <= 0 {
                break;
            }
            end += 1;
        }
        let length = end - at + 1;
        if length > MOST_FUNCTION_LINES {
            found.push((at + 1, length, lines[at].trim().to_owned()));
        }
        at = if opened { end + 1 } else { at + 1 };
    }
    found
}

#[test]
fn no_function_passes_a_hundred_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut long = Vec::new();
    for file in &files {
        let name = file.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        if TEMPLATES.contains(&name.as_str()) {
            continue;
        }
        for (line, length, head) in long_functions(&std::fs::read_to_string(file).unwrap()) {
            long.push(format!("{name}:{line}: {length} lines: {head}"));
        }
    }
    assert_eq!(long, Vec::<String>::new(), "split these where their parts have names");
    // The check fails where it should: a long function is named.
    let body = "    let x = 1;\n".repeat(MOST_FUNCTION_LINES);
    let text = format!("fn short() {{\n}}\n\npub(crate) fn long() {{\n{body}}}\n");
    assert_eq!(
        long_functions(&text),
        [(4, MOST_FUNCTION_LINES + 2, "pub(crate) fn long() {".to_owned())]
    );
}
