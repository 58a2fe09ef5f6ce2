//! The rules, one folder per group: `xml`, `rfc5005`, `rfc6721`, `atom`,
//! `rss` (with the RSS profile), `podcast` (Apple's tags and Podcasting
//! 2.0), `json_feed`, `content`, `discovery`, `websub`, `http`, `media`, `fetch`. Every rule is a `static Rule` with its metadata
//! and, for document rules, the function that checks it, declared next to
//! that function, in its first group's folder ([`Group::folder`]);
//! [`RULES`], written by `build.rs` from those declarations, lists them
//! all. What a check is given is in [`checker`], what several groups'
//! rules share in `shared`.

// Text is never sliced at a byte offset that is not checked to be a
// character boundary (`get`, `split_at_checked`): a wide character there
// would panic, and take the document's findings with it.
#![warn(clippy::string_slice)]

use std::sync::OnceLock;

use crate::findings::diagnostic::Level;
use crate::findings::rule_id::{RuleId, RuleMap};

pub use checker::{check_document, check_json_document, Checker, FoldLimit, JsonChecker, SetChecker};
pub use group::Group;
pub(crate) use shared::{
    children_named, correct_namespace, elements_listed, has_child, misspelt_attribute, prefix_in_scope, remove,
    rename_attribute, rename_relation, Declarations,
};

mod atom;
pub mod checker;
pub(crate) mod content;
pub mod discovery;
pub mod fetch;
mod group;
pub mod http;
pub mod json_feed;
pub mod media;
mod podcast;
mod rfc5005;
mod rfc6721;
mod rss;
mod shared;
pub mod websub;
pub mod xml;

/// What a rule needs to see to decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// One document.
    Doc,
    /// The documents of a logical feed together.
    Set,
    /// Partly decidable from one document, partly from the set.
    DocAndSet,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Doc => "doc",
            Scope::Set => "set",
            Scope::DocAndSet => "doc + set",
        }
    }
}

/// A document rule: reads the document, reports through the checker.
pub type DocCheck = fn(&mut Checker<'_, '_, '_>);

/// The check of one JSON Feed document.
pub type JsonCheck = fn(&mut JsonChecker<'_, '_, '_>);

/// A set rule: reads the summaries of all documents.
pub type SetCheck = fn(&mut SetChecker<'_, '_>);

pub struct Rule {
    /// Stable id: users write it in configs, so it never changes. Its
    /// documentation (`rules/ID.md`, for `feedlint explain`) is
    /// [`RuleId::doc`].
    pub id: RuleId,
    pub level: Level,
    pub scope: Scope,
    /// The groups it is selected by (`--select rfc5005`): one, or two for
    /// a rule that checks Atom and RSS alike. Each is one of
    /// [`crate::settings::select::GROUPS`].
    pub groups: &'static [Group],
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// The section of the specification the rule enforces.
    pub spec: &'static str,
    /// The check on one document; `None` for set rules and for findings
    /// the engine itself makes (e.g. `xml-malformed`).
    pub check: Option<DocCheck>,
    /// The check across the documents of a run, for `set` and `doc + set`
    /// rules.
    pub set_check: Option<SetCheck>,
    /// The check on one JSON Feed document, for the `json-feed` rules.
    pub json_check: Option<JsonCheck>,
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id.as_str())
    }
}

/// Declares a rule. Its id is the [`RuleId`] variant of its `rules/ID.md`
/// (`ArchiveOrphan` for `rules/archive-orphan.md`).
macro_rules! rule {
    ($id:ident, $level:ident, $scope:ident, json: $json:expr, groups: [$($group:ident),+ $(,)?], summary: $summary:literal, spec: $spec:literal $(,)?) => {
        $crate::rules::rule!(@all $id, $level, $scope, None, None, $json, [$($group),+], $summary, $spec)
    };
    ($id:ident, $level:ident, $scope:ident, $check:expr, groups: [$($group:ident),+ $(,)?], summary: $summary:literal, spec: $spec:literal $(,)?) => {
        $crate::rules::rule!(@all $id, $level, $scope, $check, None, None, [$($group),+], $summary, $spec)
    };
    ($id:ident, $level:ident, $scope:ident, $check:expr, set: $set:expr, groups: [$($group:ident),+ $(,)?], summary: $summary:literal, spec: $spec:literal $(,)?) => {
        $crate::rules::rule!(@all $id, $level, $scope, $check, $set, None, [$($group),+], $summary, $spec)
    };
    (@all $id:ident, $level:ident, $scope:ident, $check:expr, $set:expr, $json:expr, [$($group:ident),+], $summary:literal, $spec:literal) => {
        $crate::rules::Rule {
            id: $crate::findings::rule_id::RuleId::$id,
            level: $crate::findings::diagnostic::Level::$level,
            scope: $crate::rules::Scope::$scope,
            groups: &[$($crate::rules::Group::$group),+],
            summary: $summary,
            spec: $spec,
            check: $check,
            set_check: $set,
            json_check: $json,
        }
    };
}
pub(crate) use rule;

include!(concat!(env!("OUT_DIR"), "/rules.rs"));

/// The rule of an id.
pub fn by_id(id: RuleId) -> &'static Rule {
    static BY_ID: OnceLock<RuleMap<Option<&'static Rule>>> = OnceLock::new();
    let by_id = BY_ID.get_or_init(|| {
        let mut map = RuleMap::filled(None);
        for &rule in RULES {
            map[rule.id] = Some(rule);
        }
        map
    });
    by_id[id].expect("every rule id is in RULES (tested)")
}

#[cfg(test)]
mod registry_tests {
    use super::*;
    use crate::feed::FeedDoc;
    use crate::findings::diagnostic::Pending;

    fn panics(_: &mut Checker) {
        panic!("a rule's bug");
    }

    /// A rule like any other but for its bug.
    static PANICKING: Rule = rule!(
        ArchiveMissingCurrent, Error, Doc, Some(panics),
        groups: [Rfc5005],
        summary: "panics",
        spec: "none",
    );

    #[test]
    fn a_panicking_rule_is_one_internal_error_naming_it_and_the_other_rules_report() {
        crate::base::contain::install_hook();
        let text = "<feed xmlns='http://www.w3.org/2005/Atom'><title>t</title><entry><title>e</title></entry></feed>";
        let xml = crate::xml::parse(text).unwrap();
        let feed = FeedDoc::new(&xml, crate::feed::DocKind::Atom, None);
        let no_limit = |_: &'static Rule| 0;
        let rules: Vec<&'static Rule> = vec![&PANICKING, &atom::ATOM_MISSING_ID];
        for parallel in [false, true] {
            let found = check_document(&feed, &rules, parallel, &no_limit, &crate::findings::remedy::Plain);
            let errors: Vec<&Pending> = found
                .iter()
                .filter(|(rule, _)| rule.id == RuleId::InternalError)
                .map(|(_, pending)| pending)
                .collect();
            assert_eq!(errors.len(), 1);
            assert!(
                errors[0].message.contains("the rule archive-missing-current stopped"),
                "{}",
                errors[0].message
            );
            assert!(
                errors[0].notes[0].contains("a rule's bug (at src/rules/mod.rs:"),
                "{:?}",
                errors[0].notes
            );
            assert!(found.iter().any(|(rule, _)| rule.id == RuleId::AtomMissingId));
        }
    }

    #[test]
    fn every_rule_id_has_exactly_one_rule() {
        let mut seen = RuleMap::filled(0);
        for rule in RULES {
            seen[rule.id] += 1;
        }
        for (id, &count) in seen.iter() {
            assert_eq!(count, 1, "{id}: listed {count} times in RULES");
            assert_eq!(by_id(id).id, id);
        }
    }
}
