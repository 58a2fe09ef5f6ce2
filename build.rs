//! Generates what is known of the rules from where they are written, so
//! that no list of them is kept by hand:
//!
//! - [`RuleId`], the enum of rule ids, from the rule documents: every rule
//!   has its `rules/ID.md`, so the file names are the ids, and a new rule's
//!   id exists as soon as its documentation does. The enum's variants are
//!   the ids in alphabetical order (`archive-orphan` is `ArchiveOrphan`),
//!   which is also the order findings sort in.
//! - `RULES`, every rule's `static`, from the `rule!` declarations under
//!   `src/rules/`: by first group (in `Group::ALL`'s order), then by id.

use std::fmt::Write as _;
use std::path::Path;

/// The package's folder, as cargo says it when it runs the script (not as
/// it was when the script was compiled: one build folder may serve copies
/// of the package in other places, a pre-commit clone or a maturin build).
fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(std::path::PathBuf::from)
        .expect("cargo sets CARGO_MANIFEST_DIR")
}

fn main() {
    write_rule_ids();
    write_registry();
    write_version();
}

/// The version `--version` prints: the package's, and the commit it was
/// built from where that is known: `FEEDLINT_COMMIT` where the release
/// script sets it, else the clone's `HEAD`; a build of the published crate
/// (no clone, nothing set) says the version alone.
fn write_version() {
    println!("cargo:rerun-if-env-changed=FEEDLINT_COMMIT");
    let root = manifest_dir();
    let root = root.as_path();
    let git = root.join(".git");
    let commit = std::env::var("FEEDLINT_COMMIT")
        .ok()
        .filter(|commit| !commit.trim().is_empty())
        .or_else(|| head_commit(&git));
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    let full = match commit {
        Some(commit) => format!("{version} ({})", commit.trim()),
        None => version.to_owned(),
    };
    println!("cargo:rustc-env=FEEDLINT_VERSION={full}");
}

/// The short commit `HEAD` names in the clone at `git`, read from its
/// files (no `git` program needed); rebuilt when `HEAD` moves.
fn head_commit(git: &Path) -> Option<String> {
    let head_file = git.join("HEAD");
    if !head_file.is_file() {
        return None;
    }
    println!("cargo:rerun-if-changed={}", head_file.display());
    let head = std::fs::read_to_string(&head_file).ok()?;
    let commit = match head.trim().strip_prefix("ref: ") {
        Some(reference) => {
            let loose = git.join(reference);
            println!("cargo:rerun-if-changed={}", loose.display());
            println!("cargo:rerun-if-changed={}", git.join("packed-refs").display());
            match std::fs::read_to_string(&loose) {
                Ok(commit) => commit,
                // A packed ref: "<commit> <ref>" lines.
                Err(_) => std::fs::read_to_string(git.join("packed-refs"))
                    .ok()?
                    .lines()
                    .find_map(|line| line.strip_suffix(reference)?.strip_suffix(' ').map(str::to_owned))?,
            }
        }
        None => head,
    };
    let commit = commit.trim();
    (commit.len() >= 12 && commit.bytes().all(|b| b.is_ascii_hexdigit())).then(|| commit[..12].to_owned())
}

fn write_rule_ids() {
    let dir = manifest_dir().join("rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut ids: Vec<String> = std::fs::read_dir(&dir)
        .expect("the rules/ directory of rule documents")
        .map(|entry| entry.expect("a readable rules/ entry").file_name())
        .filter_map(|name| name.to_str()?.strip_suffix(".md").map(str::to_owned))
        .collect();
    ids.sort();
    for id in &ids {
        assert!(
            !id.is_empty()
                && id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "rules/{id}.md: a rule id is lowercase ASCII letters, digits and hyphens"
        );
    }
    let variant = |id: &str| -> String {
        id.split('-')
            .map(|word| {
                let mut chars = word.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_ascii_uppercase().to_string() + chars.as_str()
                })
            })
            .collect()
    };
    let mut out = String::new();
    out.push_str("/// A rule's id: one variant per `rules/ID.md`, in alphabetical order.\n");
    out.push_str("#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n");
    out.push_str("pub enum RuleId {\n");
    for id in &ids {
        writeln!(out, "    /// `{id}`\n    {},", variant(id)).unwrap();
    }
    out.push_str("}\n\nimpl RuleId {\n");
    writeln!(
        out,
        "    /// How many rules there are.\n    pub const COUNT: usize = {};",
        ids.len()
    )
    .unwrap();
    out.push_str("    /// Every id, in alphabetical order.\n    pub const ALL: [RuleId; Self::COUNT] = [\n");
    for id in &ids {
        writeln!(out, "        RuleId::{},", variant(id)).unwrap();
    }
    out.push_str("    ];\n\n    /// The id as users write it.\n    pub const fn as_str(self) -> &'static str {\n        match self {\n");
    for id in &ids {
        writeln!(out, "            RuleId::{} => \"{id}\",", variant(id)).unwrap();
    }
    out.push_str("        }\n    }\n\n    /// The rule's documentation, `rules/ID.md`.\n    pub const fn doc(self) -> &'static str {\n        match self {\n");
    for id in &ids {
        writeln!(
            out,
            "            RuleId::{} => include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/rules/{id}.md\")),",
            variant(id)
        )
        .unwrap();
    }
    out.push_str("        }\n    }\n}\n");
    let target = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR set by cargo")).join("rule_ids.rs");
    std::fs::write(target, out).expect("writing rule_ids.rs");
}

/// A rule declared in `src/rules/`: its `static`'s path from the `rules`
/// module, its id's variant and its first group.
struct Declared {
    path: String,
    variant: String,
    group: String,
}

/// The `rule!` declarations of a file (before its unit tests), as
/// `static NAME: Rule = rule!(Variant, ..., groups: [Group, ...]`.
fn declared_in(text: &str, module: &str, found: &mut Vec<Declared>) {
    let code = text.split("\n#[cfg(test)]").next().unwrap_or_default();
    let mut rest = code;
    while let Some(at) = rest.find("static ") {
        rest = &rest[at + "static ".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let after = rest[name.len()..].trim_start();
        let Some(call) = after.strip_prefix(": Rule = rule!(") else {
            continue;
        };
        let variant: String = call
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        let groups = call.find("groups: [").map(|at| &call[at + "groups: [".len()..]);
        let group: String = groups
            .map(|groups| groups.chars().take_while(|c| c.is_ascii_alphanumeric()).collect())
            .unwrap_or_default();
        assert!(
            !variant.is_empty() && !group.is_empty(),
            "{module}::{name}: a rule! declaration as the others are written"
        );
        let path = if module.is_empty() {
            name
        } else {
            format!("{module}::{name}")
        };
        found.push(Declared { path, variant, group });
    }
}

fn declared_under(dir: &Path, module: &str, found: &mut Vec<Declared>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/rules/ is readable")
        .map(|entry| entry.expect("a readable src/rules/ entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("UTF-8 file names")
            .to_owned();
        let child = match module {
            "" => stem.clone(),
            _ => format!("{module}::{stem}"),
        };
        if path.is_dir() {
            declared_under(&path, &child, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let own = if stem == "mod" { module } else { child.as_str() };
            let text = std::fs::read_to_string(&path).expect("a readable rule file");
            declared_in(&text, own, found);
        }
    }
}

fn write_registry() {
    let dir = manifest_dir().join("src/rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut declared = Vec::new();
    declared_under(&dir, "", &mut declared);
    // Group::ALL's order, read from where it is written.
    let groups_text = std::fs::read_to_string(dir.join("group.rs")).expect("src/rules/group.rs");
    let all = groups_text
        .split("pub const ALL")
        .nth(1)
        .expect("Group::ALL in group.rs");
    let all = &all[..all.find("];").expect("Group::ALL's end")];
    let order: Vec<&str> = all
        .split("Group::")
        .skip(1)
        .map(|name| name.trim_end_matches(|c: char| !c.is_ascii_alphanumeric()))
        .collect();
    let rank = |group: &str| {
        order
            .iter()
            .position(|g| *g == group)
            .unwrap_or_else(|| panic!("group {group} is not in Group::ALL"))
    };
    declared.sort_by(|a, b| (rank(&a.group), &a.variant).cmp(&(rank(&b.group), &b.variant)));
    let mut out = String::new();
    out.push_str("/// Every rule: by its first group (in [`Group::ALL`]'s order), then by\n");
    out.push_str("/// id. Written by build.rs from the `rule!` declarations under\n");
    out.push_str("/// `src/rules/`.\n");
    out.push_str("pub static RULES: &[&Rule] = &[\n");
    for rule in &declared {
        writeln!(out, "    &{},", rule.path).unwrap();
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR set by cargo")).join("rules.rs");
    std::fs::write(target, out).expect("writing rules.rs");
}
