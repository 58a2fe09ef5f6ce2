//! The library is laid out by folders, and the folders are its stages:
//! each builds on the ones before it, and nothing reaches back up. The
//! order is written once, as `src/lib.rs` declares the folders (lowest
//! first; the binary's `cli/` comes last). A test reads every `crate::`
//! (and `super::`) path in `src/` and fails on an import of a later
//! folder; another fails on modules of one folder that import each other
//! in a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The stages, lowest first, as `lib.rs` declares them: each a folder of
/// `src/`, with what its `mod.rs` says it is (its first line).
fn stages_of(lib: &str) -> Vec<String> {
    let mut stages: Vec<String> = lib
        .lines()
        .filter_map(|line| line.strip_prefix("pub mod ")?.strip_suffix(';'))
        .map(str::to_owned)
        .collect();
    stages.push("cli".to_owned());
    stages
}

fn stages() -> Vec<String> {
    stages_of(&std::fs::read_to_string(src().join("lib.rs")).unwrap())
}

/// The first line of a folder's `mod.rs`: what the stage is.
fn summary_of(stage: &str) -> String {
    let text = std::fs::read_to_string(src().join(stage).join("mod.rs")).unwrap();
    text.lines()
        .next()
        .and_then(|line| line.strip_prefix("//! "))
        .unwrap_or_default()
        .to_owned()
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

/// A module path as (folder, module of the folder): `feed::placement::X`
/// is `("feed", "placement")`; a folder's own `mod.rs` is `""`.
fn unit_of_path(path: &str) -> (String, String) {
    let mut parts = path.split("::");
    let folder = parts.next().unwrap_or_default().to_owned();
    let module = parts
        .next()
        .filter(|part| part.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .unwrap_or_default()
        .to_owned();
    (folder, module)
}

/// The module path a file is: `src/rules/rfc5005/chains/paging.rs` is
/// `rules::rfc5005::chains::paging`, `src/feed/mod.rs` is `feed`.
fn path_of_file(file: &Path) -> String {
    let relative = file.strip_prefix(src()).unwrap().with_extension("");
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .filter(|part| part != "mod")
        .collect();
    parts.join("::")
}

/// The module paths after each `crate::` in `text` (and each `super::`,
/// read from `module`, the file's own path), comments left out, and the
/// unit tests at the end of a file too (a test may drive a whole run).
fn crate_paths(text: &str, module: &str, is_mod_rs: bool) -> Vec<String> {
    let path_chars = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    let code = text.split("\n#[cfg(test)]\nmod tests").next().unwrap_or_default();
    // `super::` in `a/b.rs` is `a`; in `a/b/mod.rs` too.
    let parent = match (is_mod_rs, module.rsplit_once("::")) {
        (false, Some((parent, _))) => format!("{parent}::"),
        (false, None) => String::new(),
        (true, _) => match module.rsplit_once("::") {
            Some((parent, _)) => format!("{parent}::"),
            None => String::new(),
        },
    };
    let mut found = Vec::new();
    for line in code.lines() {
        let code = line.split("//").next().unwrap_or_default();
        for (prefix, base) in [("crate::", String::new()), ("super::", parent.clone())] {
            let mut rest = code;
            while let Some(at) = rest.find(prefix) {
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

/// `pub use folder::module::{A, B}` in lib.rs: the folder each re-exported
/// name is from.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    let mut statement = String::new();
    for line in lib.lines() {
        if line.starts_with("pub use ") || !statement.is_empty() {
            statement.push_str(line);
        }
        if statement.ends_with(';') {
            let path = statement.trim_start_matches("pub use ").trim_end_matches(';');
            let (folder, rest) = path.split_once("::").unwrap();
            let names = rest.rsplit_once("::").map_or(rest, |(_, names)| names);
            for name in names.trim_matches(|c| c == '{' || c == '}').split(',') {
                map.insert(name.trim().to_owned(), folder.to_owned());
            }
            statement.clear();
        }
    }
    map
}

/// An import from one module to another: (from, to), each as
/// [`unit_of_path`] gives it.
type Import = ((String, String), (String, String));

/// Every import of the library's files (the binary's `cli/` imports the
/// library by its name, and nothing imports it).
fn imports() -> Vec<Import> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let reexported = reexports(&lib);
    let stages = stages();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut found = Vec::new();
    for file in &files {
        let module = path_of_file(file);
        if matches!(module.as_str(), "lib" | "main") || module.starts_with("cli") {
            continue;
        }
        let from = unit_of_path(&module);
        let text = std::fs::read_to_string(file).unwrap();
        let is_mod_rs = file.file_name().is_some_and(|name| name == "mod.rs");
        for path in crate_paths(&text, &module, is_mod_rs) {
            let to = unit_of_path(&path);
            let to = if stages.contains(&to.0) {
                to
            } else if let Some(folder) = reexported.get(&to.0) {
                (folder.clone(), String::new())
            } else {
                continue;
            };
            if to != from {
                found.push((from.clone(), to));
            }
        }
    }
    found
}

/// The imports that run up the stages, said as a reader would want them.
fn upward(stages: &[String], imports: &[Import]) -> Vec<String> {
    let stage_of = |folder: &str| stages.iter().position(|stage| stage == folder);
    let mut found: BTreeSet<String> = BTreeSet::new();
    for ((from, _), (to, _)) in imports {
        let (Some(below), Some(above)) = (stage_of(from), stage_of(to)) else {
            continue;
        };
        if above > below {
            found.insert(format!("{from}/ imports {to}/, a later stage"));
        }
    }
    found.into_iter().collect()
}

#[test]
fn the_folders_are_the_stages() {
    let stages = stages();
    assert!(stages.len() > 10, "the stages were read from lib.rs: {stages:?}");
    // Every folder of src/ is a stage, and every stage a folder that says
    // what it is; src/ holds no module but the crate roots.
    let mut folders = Vec::new();
    let mut loose = Vec::new();
    for entry in std::fs::read_dir(src()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            folders.push(name);
        } else if name.ends_with(".rs") && name != "lib.rs" && name != "main.rs" {
            loose.push(name);
        }
    }
    assert_eq!(loose, Vec::<String>::new(), "put these in the folder of their stage");
    let unstaged: Vec<&String> = folders.iter().filter(|folder| !stages.contains(folder)).collect();
    assert_eq!(
        unstaged,
        Vec::<&String>::new(),
        "declare these in lib.rs, in their stage's place"
    );
    let unsaid: Vec<&String> = stages.iter().filter(|stage| summary_of(stage).is_empty()).collect();
    assert_eq!(
        unsaid,
        Vec::<&String>::new(),
        "say in mod.rs's first line what each stage is"
    );
}

#[test]
fn no_folder_imports_a_later_one() {
    let (stages, imports) = (stages(), imports());
    let folders: BTreeSet<&String> = imports.iter().map(|((from, _), _)| from).collect();
    assert!(folders.len() > 10, "the imports were read: {folders:?}");
    assert_eq!(upward(&stages, &imports), Vec::<String>::new());
    // The check fails where it should: an import of a later stage is named.
    let wrong = vec![(
        ("feed".to_owned(), "placement".to_owned()),
        ("run".to_owned(), "engine".to_owned()),
    )];
    assert_eq!(upward(&stages, &wrong), ["feed/ imports run/, a later stage"]);
}

/// The first circle among `edges`, if any, as the path that closes it.
fn circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
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
    edges
        .keys()
        .find_map(|node| visit(node, edges, &mut Vec::new(), &mut done))
}

#[test]
fn no_modules_depend_on_each_other_in_a_circle() {
    // Across folders, the stages' order forbids a circle; inside a folder,
    // its modules (not counting the folder's own mod.rs, which declares
    // them) import each other one way only.
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for ((from_folder, from), (to_folder, to)) in imports() {
        if from_folder != to_folder {
            edges.entry(from_folder).or_default().insert(to_folder);
        } else if !from.is_empty() && !to.is_empty() {
            edges
                .entry(format!("{from_folder}::{from}"))
                .or_default()
                .insert(format!("{to_folder}::{to}"));
        }
    }
    assert!(edges.len() > 20, "the graph was read: {edges:?}");
    if let Some(cycle) = circle(&edges) {
        panic!("modules depend on each other in a circle: {}", cycle.join(" -> "));
    }
    let mut looped = BTreeMap::new();
    looped.insert(
        "rules::itunes".to_owned(),
        BTreeSet::from(["rules::podcast".to_owned()]),
    );
    looped.insert(
        "rules::podcast".to_owned(),
        BTreeSet::from(["rules::itunes".to_owned()]),
    );
    assert_eq!(
        circle(&looped),
        Some(vec![
            "rules::itunes".to_owned(),
            "rules::podcast".to_owned(),
            "rules::itunes".to_owned()
        ])
    );
}

#[test]
fn the_reader_of_paths_finds_them() {
    let text = "use crate::{feed::FeedDoc, model::set};\nuse crate::rules::Rule; // crate::run\nlet x = crate::text::iri::check(y);\nuse super::placement::{self, Placement};";
    let units: Vec<(String, String)> = crate_paths(text, "site::learning", false)
        .iter()
        .map(|p| unit_of_path(p))
        .collect();
    let named: Vec<String> = units
        .iter()
        .map(|(folder, module)| format!("{folder}/{module}"))
        .collect();
    assert_eq!(named, ["feed/", "model/set", "rules/", "text/iri", "site/placement"]);
    assert_eq!(stages_of("pub mod base;\npub mod text;\n"), ["base", "text", "cli"]);
    let reexported =
        reexports("pub use run::engine::{lint, InMemory};\npub use settings::options::{\n    Options,\n};\n");
    assert_eq!(reexported["InMemory"], "run");
    assert_eq!(reexported["Options"], "settings");
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
            if written.len() > feedlint::base::shown::MAX_TEXT || escapes {
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

/// The first sentence of a folder's `mod.rs`, its intra-doc links as
/// plain code.
fn first_sentence_of(stage: &str) -> String {
    let text = std::fs::read_to_string(src().join(stage).join("mod.rs")).unwrap();
    let paragraph: Vec<&str> = text
        .lines()
        .map_while(|line| line.strip_prefix("//!"))
        .map(str::trim)
        .take_while(|line| !line.is_empty())
        .collect();
    let paragraph = paragraph.join(" ");
    let sentence = match paragraph.find(". ") {
        Some(end) => &paragraph[..=end],
        None => &paragraph,
    };
    let link = regex::Regex::new(r"\[(`[^`]+`)\](\([^)]*\))?").unwrap();
    link.replace_all(sentence, "$1").into_owned()
}

/// CONTRIBUTING's map of the house: each folder, in stage order, with
/// what it is.
fn map_of_the_house() -> String {
    stages()
        .iter()
        .map(|stage| format!("- `src/{stage}/`: {}\n", first_sentence_of(stage)))
        .collect()
}

#[test]
fn contributing_maps_the_folders_as_they_are() {
    const START: &str = "<!-- folders: generated from src/lib.rs and each folder's mod.rs -->\n";
    const END: &str = "<!-- end of folders -->\n";
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("CONTRIBUTING.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let (before, rest) = text.split_once(START).expect("CONTRIBUTING's map starts");
    let (old, after) = rest.split_once(END).expect("CONTRIBUTING's map ends");
    let map = map_of_the_house();
    assert!(
        map.contains("- `src/base/`: ") && map.contains("- `src/cli/`: "),
        "{map}"
    );
    if old != map {
        if std::env::var_os("FEEDLINT_BLESS").is_some_and(|v| v == "1") {
            std::fs::write(&path, format!("{before}{START}{map}{END}{after}")).unwrap();
        } else {
            panic!("CONTRIBUTING's map of the folders differs (FEEDLINT_BLESS=1 rewrites it):\n{map}");
        }
    }
}

/// Where a text may name a command-line flag: the command line itself, the
/// output formats it writes (their words are for a terminal), and the
/// resolver that refuses what a front door was given, by its name.
const FLAGS_SPOKEN_IN: &[&str] = &["src/cli/", "src/report/", "src/settings/"];

/// The string literals of `text` (before its unit tests) that name a flag.
fn flags_named(text: &str) -> Vec<String> {
    let literal = regex::Regex::new(r#""((?:[^"\\]|\\.)*)""#).unwrap();
    let flag = regex::Regex::new(r"(^|[^-\w])--[a-z][a-z-]+").unwrap();
    let code = text.split("\n#[cfg(test)]").next().unwrap_or_default();
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .flat_map(|line| {
            literal
                .captures_iter(line)
                .map(|found| found[1].to_owned())
                .collect::<Vec<_>>()
        })
        .filter(|literal| flag.is_match(literal))
        .collect()
}

#[test]
fn no_library_text_names_a_flag() {
    // Limits and remedies are types (findings::remedy): each front door
    // words them, the command line by its flags, the page by its numbers.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut named = Vec::new();
    for file in &files {
        let name = file.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        if FLAGS_SPOKEN_IN.iter().any(|place| name.starts_with(place)) {
            continue;
        }
        for literal in flags_named(&std::fs::read_to_string(file).unwrap()) {
            named.push(format!("{name}: {literal}"));
        }
    }
    assert_eq!(named, Vec::<String>::new(), "name a Limit or a Remedy instead");
    // The check fails where it should.
    let text = "fn f() -> &'static str {\n    \"raise --max-time to follow the whole chain\"\n}\nconst A: &str = \"en--us\";\n";
    assert_eq!(flags_named(text), ["raise --max-time to follow the whole chain"]);
}

/// The fields of `pub struct NAME` in `text` that are visible outside its
/// module.
fn visible_fields(text: &str, name: &str) -> Vec<String> {
    let start = format!("pub struct {name} {{");
    let Some(at) = text.find(&start) else {
        return vec![format!("no struct {name}")];
    };
    let body = &text[at + start.len()..];
    let body = &body[..body.find("\n}").unwrap_or(body.len())];
    body.lines()
        .map(str::trim)
        .filter(|line| line.starts_with("pub"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn resolved_settings_change_only_through_methods() {
    // Options is resolved once (Options::resolve) and then changed only by
    // its methods (with_words, with_media, ...), as ripgrep's HiArgs: no
    // front door reaches into a field and patches it.
    let path = src().join("settings/options.rs");
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(visible_fields(&text, "Options"), Vec::<String>::new());
    // The check fails where it should.
    let open = "pub struct Options {\n    /// Levels.\n    pub levels: Levels,\n    words: W,\n}\n";
    assert_eq!(visible_fields(open, "Options"), ["pub levels: Levels,"]);
}
