//! Rule selection as ruff users know it: `--select` and `--ignore` (and the
//! config's `select` and `ignore`) name rules by id (`archive-orphan`), by
//! prefix (`atom-`, `rss-`), by group (`rfc5005`, `rfc6721`, `atom-core`,
//! `rss-core`, `rss-profile`, `itunes`, `podcast`, `xml`, `media`, `fetch`) or all of them (`all`). Where a rule is
//! both selected and ignored, the more specific selector wins: an id over
//! a prefix, a longer prefix over a shorter, a prefix over a group, a
//! group over `all`; on a tie, ignoring wins.

use crate::findings::rule_id::{RuleId, UnknownRule};

pub use crate::rules::Group;

/// The groups a rule is in, as its declaration says: one, or two where it
/// checks both Atom and RSS.
pub fn groups_of(id: RuleId) -> &'static [Group] {
    crate::rules::by_id(id).groups
}

/// A rule's groups as users write them, joined by `separator`.
pub fn group_names(id: RuleId, separator: &str) -> String {
    let names: Vec<&str> = groups_of(id).iter().map(|group| group.name()).collect();
    names.join(separator)
}

/// One word of `--select` or `--ignore`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    All,
    Group(Group),
    /// The start of rule ids (`atom-`): every rule whose id begins so.
    Prefix(String),
    Rule(RuleId),
}

impl Selector {
    /// Reads a selector: `all`, a group, a rule id, or the start of at
    /// least one rule id. Anything else is an error with a "did you mean".
    pub fn parse(word: &str) -> Result<Selector, UnknownSelector> {
        if word.eq_ignore_ascii_case("all") {
            return Ok(Selector::All);
        }
        if let Some(group) = Group::ALL.iter().find(|group| group.name() == word) {
            return Ok(Selector::Group(*group));
        }
        match word.parse::<RuleId>() {
            Ok(id) => Ok(Selector::Rule(id)),
            Err(_) if !word.is_empty() && RuleId::ALL.iter().any(|id| id.as_str().starts_with(word)) => {
                Ok(Selector::Prefix(word.to_owned()))
            }
            Err(unknown) => Err(UnknownSelector(unknown)),
        }
    }

    fn matches(&self, id: RuleId) -> bool {
        match self {
            Selector::All => true,
            Selector::Group(group) => groups_of(id).contains(group),
            Selector::Prefix(prefix) => id.as_str().starts_with(prefix.as_str()),
            Selector::Rule(rule) => *rule == id,
        }
    }

    /// How narrowly it names rules: the more specific selector wins.
    fn specificity(&self) -> usize {
        match self {
            Selector::All => 0,
            Selector::Group(_) => 1,
            Selector::Prefix(prefix) => 2 + prefix.len(),
            Selector::Rule(_) => usize::MAX,
        }
    }
}

/// A word that is neither `all`, a group, a rule id nor the start of one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownSelector(UnknownRule);

impl std::fmt::Display for UnknownSelector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let groups: Vec<&str> = Group::ALL.iter().map(|group| group.name()).collect();
        write!(
            f,
            "{}; a selector is a rule id, the start of rule ids (atom-, rss-), a group ({}) or all",
            self.0,
            groups.join(", ")
        )
    }
}

impl std::error::Error for UnknownSelector {}

/// What `--select` and `--ignore` (or a config's `select` and `ignore`)
/// say together.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// `None`: nothing narrows the rules on.
    pub select: Option<Vec<Selector>>,
    pub ignore: Vec<Selector>,
}

impl Selection {
    /// Whether the selection turns the rule on (`Some(true)`), off
    /// (`Some(false)`), or says nothing of it.
    pub fn decides(&self, id: RuleId) -> Option<bool> {
        self.decides_over(None, id)
    }

    /// [`Selection::decides`] for this selection over `under` (a
    /// config's): a `select` here replaces the one there, and the ignored
    /// rules add up.
    pub fn decides_over(&self, under: Option<&Selection>, id: RuleId) -> Option<bool> {
        let most_specific = |selectors: &mut dyn Iterator<Item = &Selector>| {
            selectors
                .filter(|selector| selector.matches(id))
                .map(Selector::specificity)
                .max()
        };
        let under_ignore = under.map(|u| u.ignore.as_slice()).unwrap_or_default();
        let ignored = most_specific(&mut self.ignore.iter().chain(under_ignore));
        let select = self.select.as_deref().or_else(|| under?.select.as_deref());
        let selected = select.map(|select| most_specific(&mut select.iter()));
        match (selected, ignored) {
            (Some(Some(select)), Some(ignore)) => Some(select > ignore),
            (Some(Some(_)), None) => Some(true),
            (Some(None), _) => Some(false),
            (None, Some(_)) => Some(false),
            (None, None) => None,
        }
    }

    /// Whether the `select` in effect over `under` (a config's) names one
    /// of `groups` by name: more than turning its rules on, that says what
    /// the user means the documents to be (a podcast, for `podcast`).
    pub fn names_group_over(&self, under: Option<&Selection>, groups: &[Group]) -> bool {
        let select = self.select.as_deref().or_else(|| under?.select.as_deref());
        select
            .unwrap_or_default()
            .iter()
            .any(|selector| matches!(selector, Selector::Group(group) if groups.contains(group)))
    }

    pub fn is_empty(&self) -> bool {
        self.select.is_none() && self.ignore.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selection(select: Option<&[&str]>, ignore: &[&str]) -> Selection {
        let parse = |words: &[&str]| words.iter().map(|w| Selector::parse(w).unwrap()).collect::<Vec<_>>();
        Selection {
            select: select.map(parse),
            ignore: parse(ignore),
        }
    }

    #[test]
    fn every_rule_is_in_a_group_and_every_group_has_rules() {
        for id in RuleId::ALL {
            let groups = groups_of(id);
            assert!(!groups.is_empty(), "{id}");
            assert!(groups.iter().all(|g| Group::ALL.contains(g)), "{id}");
        }
        for group in Group::ALL {
            assert!(RuleId::ALL.iter().any(|id| groups_of(*id).contains(&group)), "{group}");
        }
        assert_eq!(groups_of(RuleId::ArchiveOrphan), [Group::Rfc5005]);
        assert_eq!(groups_of(RuleId::DeletedEntryMissingRef), [Group::Rfc6721]);
        assert_eq!(groups_of(RuleId::RssInvalidGuid), [Group::RssCore]);
        assert_eq!(groups_of(RuleId::AtomMissingId), [Group::AtomCore]);
    }

    #[test]
    fn selectors_are_ids_prefixes_groups_or_all() {
        assert_eq!(
            Selector::parse("archive-orphan"),
            Ok(Selector::Rule(RuleId::ArchiveOrphan))
        );
        assert_eq!(Selector::parse("atom-"), Ok(Selector::Prefix("atom-".into())));
        assert_eq!(Selector::parse("rfc5005"), Ok(Selector::Group(Group::Rfc5005)));
        assert_eq!(Selector::parse("ALL"), Ok(Selector::All));
        let error = Selector::parse("archive-orhpan").unwrap_err().to_string();
        assert!(error.contains("did you mean 'archive-orphan'"), "{error}");
        assert!(error.contains("rfc5005"), "{error}");
        assert!(Selector::parse("").is_err());
        assert!(Selector::parse("xyz-").is_err());
    }

    #[test]
    fn the_more_specific_selector_wins() {
        let s = selection(Some(&["rfc5005"]), &["archive-orphan"]);
        assert_eq!(s.decides(RuleId::ArchiveOrphan), Some(false));
        assert_eq!(s.decides(RuleId::ArchiveOrder), Some(true));
        assert_eq!(s.decides(RuleId::AtomMissingId), Some(false), "not selected");
        let s = selection(Some(&["archive-orphan"]), &["rfc5005"]);
        assert_eq!(s.decides(RuleId::ArchiveOrphan), Some(true));
        assert_eq!(s.decides(RuleId::ArchiveOrder), Some(false));
        let s = selection(None, &["rss-"]);
        assert_eq!(s.decides(RuleId::RssInvalidGuid), Some(false));
        assert_eq!(s.decides(RuleId::AtomMissingId), None, "nothing said");
        let s = selection(Some(&["all"]), &["atom-core"]);
        assert_eq!(s.decides(RuleId::AtomMissingId), Some(false));
        assert_eq!(s.decides(RuleId::XmlMalformed), Some(true));
        // A tie: ignoring wins.
        assert_eq!(
            selection(Some(&["xml"]), &["xml"]).decides(RuleId::XmlMalformed),
            Some(false)
        );
        // The command line's select replaces the config's; ignores add up.
        let config = selection(Some(&["rss-core"]), &["rss-invalid-guid"]);
        let cli = selection(Some(&["atom-core"]), &[]);
        assert_eq!(cli.decides_over(Some(&config), RuleId::AtomMissingId), Some(true));
        assert_eq!(cli.decides_over(Some(&config), RuleId::RssInvalidDate), Some(false));
        let none = Selection::default();
        assert_eq!(none.decides_over(Some(&config), RuleId::RssInvalidDate), Some(true));
        assert_eq!(none.decides_over(Some(&config), RuleId::RssInvalidGuid), Some(false));
    }
}
