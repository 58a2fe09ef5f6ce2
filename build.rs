//! Generates [`RuleId`], the enum of rule ids, from the rule documents:
//! every rule has its `rules/ID.md`, so the file names are the ids, and a
//! new rule's id exists as soon as its documentation does. The enum's
//! variants are the ids in alphabetical order (`archive-orphan` is
//! `ArchiveOrphan`), which is also the order findings sort in.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
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
