//! The rule registry: every rule is a `static Rule` with its metadata and,
//! for document rules, the function that checks it, declared next to that
//! function. [`RULES`] lists them all; nothing else needs to know a rule.

// Text is never sliced at a byte offset that is not checked to be a
// character boundary (`get`, `split_at_checked`): a wide character there
// would panic, and take the document's findings with it.
#![warn(clippy::string_slice)]

use std::ops::Range;
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::feed::FeedDoc;
use crate::findings::diagnostic::{DocId, Span};
use crate::findings::diagnostic::{Folding, Level, Pending};
use crate::findings::fix::{self, Fix};
use crate::findings::rule_id::{RuleId, RuleMap};
use crate::model::set::FeedSet;

use crate::model::summary::Location;
pub use group::Group;

mod archive;
mod atom;
mod chains;
pub mod fetching;
mod group;
mod identity;
mod itunes;
mod links;
mod markers;
pub mod media;
mod paging;
mod podcast;
mod podcast_vocabulary;
mod podcasting;
mod profile;
mod rss;
mod tombstones;
mod values;
mod vocabulary;
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
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id.as_str())
    }
}

/// Declares a rule. Its id is the [`RuleId`] variant of its `rules/ID.md`
/// (`ArchiveOrphan` for `rules/archive-orphan.md`).
macro_rules! rule {
    ($id:ident, $level:ident, $scope:ident, $check:expr, groups: [$($group:ident),+ $(,)?], summary: $summary:literal, spec: $spec:literal $(,)?) => {
        $crate::rules::rule!($id, $level, $scope, $check, set: None, groups: [$($group),+], summary: $summary, spec: $spec)
    };
    ($id:ident, $level:ident, $scope:ident, $check:expr, set: $set:expr, groups: [$($group:ident),+ $(,)?], summary: $summary:literal, spec: $spec:literal $(,)?) => {
        $crate::rules::Rule {
            id: $crate::findings::rule_id::RuleId::$id,
            level: $crate::findings::diagnostic::Level::$level,
            scope: $crate::rules::Scope::$scope,
            groups: &[$($crate::rules::Group::$group),+],
            summary: $summary,
            spec: $spec,
            check: $check,
            set_check: $set,
        }
    };
}
pub(crate) use rule;

/// Every rule, in the order of the catalog.
pub static RULES: &[&Rule] = &[
    &xml::XML_MALFORMED,
    &xml::EXTERNAL_DTD_NOT_READ,
    &xml::UNKNOWN_DOCUMENT,
    &xml::NOT_A_FEED,
    &xml::ATOM_WRONG_NAMESPACE,
    &xml::FILE_TOO_LARGE,
    &xml::INTERNAL_ERROR,
    &markers::FH_MARKER_MISPLACED,
    &markers::FH_MARKER_NOT_EMPTY,
    &markers::FH_MARKER_DUPLICATE,
    &markers::FH_UNKNOWN_ELEMENT,
    &markers::NAMESPACE_NEAR_MISS,
    &markers::EXTENSION_NAMESPACE_NEAR_MISS,
    &markers::MIXED_COMPLETE_ARCHIVE,
    &markers::MIXED_COMPLETE_PAGED,
    &markers::MIXED_PAGED_ARCHIVED,
    &archive::ARCHIVE_MISSING_MARKER,
    &archive::ARCHIVE_MISSING_CURRENT,
    &archive::NEXT_ARCHIVE_UNSEALED,
    &archive::SELF_REFERENCING_LINK,
    &archive::DUPLICATE_NAVIGATION_LINK,
    &archive::LEGACY_PREVIOUS_ARCHIVE,
    &archive::ARCHIVE_MISSING_SELF,
    &chains::MISSING_PREV_ARCHIVE,
    &chains::MISSING_NEXT_ARCHIVE,
    &chains::ARCHIVE_CHAIN_ASYMMETRIC,
    &chains::ARCHIVE_CHAIN_CYCLE,
    &chains::ARCHIVE_LINK_DANGLING,
    &chains::ARCHIVE_CURRENT_MISMATCH,
    &chains::ARCHIVE_ORPHAN,
    &chains::ARCHIVE_SELF_MISMATCH,
    &chains::SELF_LINK_MISMATCH,
    &chains::ARCHIVE_ID_MISMATCH,
    &chains::ARCHIVE_ORDER,
    &paging::PAGING_PREV_ALIAS,
    &paging::LINK_RELATION_TYPO,
    &paging::NAVIGATION_LINK_IN_ENTRY,
    &paging::PAGING_LINK_PAST_END,
    &chains::PAGING_CHAIN_ASYMMETRIC,
    &chains::PAGING_CHAIN_CYCLE,
    &chains::PAGING_LINK_DANGLING,
    &chains::PAGING_GUID_REUSED,
    &chains::PAGING_ENCLOSURE_REUSED,
    &chains::PAGING_CHANNEL_MISMATCH,
    &links::LINK_MISSING_HREF,
    &links::INVALID_LINK_RELATION,
    &links::INVALID_IRI,
    &links::UNRESOLVABLE_RELATIVE_IRI,
    &identity::INVALID_DATE,
    &identity::RSS_INVALID_DATE,
    &identity::RSS_WRONG_DAY_NAME,
    &identity::AMBIGUOUS_DUPLICATE_ENTRY,
    &identity::MALFORMED_UUID_URN,
    &tombstones::DELETED_ENTRY_MISSING_REF,
    &tombstones::DELETED_ENTRY_MISSING_WHEN,
    &tombstones::DELETED_ENTRY_INVALID_REF,
    &tombstones::DUPLICATE_DELETED_ENTRY,
    &tombstones::EQUIVALENT_DELETED_ENTRY,
    &tombstones::DELETED_ENTRY_CARDINALITY,
    &tombstones::DELETED_ENTRY_INVALID_BY,
    &tombstones::DELETED_ENTRY_INVALID_COMMENT,
    &tombstones::DELETED_ENTRY_MISPLACED,
    &tombstones::DELETED_ENTRY_MISSING_SOURCE,
    &tombstones::DELETED_ENTRY_MAC_SIGNATURE,
    &tombstones::DELETED_ENTRY_STILL_PRESENT,
    &tombstones::DELETED_ENTRY_SUPERSEDED,
    &tombstones::DELETED_ENTRY_AFTER_FEED_UPDATE,
    &tombstones::DELETED_ENTRY_UNKNOWN_REF,
    &xml::UNUSED_SUPPRESSION,
    &fetching::ARCHIVE_UNAVAILABLE,
    &fetching::FETCH_FAILED,
    &fetching::FETCH_LIMIT_REACHED,
    &fetching::CHARSET_MISMATCH,
    &media::MEDIA_UNAVAILABLE,
    &media::MEDIA_UNREACHABLE,
    &media::MEDIA_REDIRECTS_TO_HTTPS,
    &media::MEDIA_TYPE_MISMATCH,
    &media::MEDIA_LENGTH_MISMATCH,
    &media::MEDIA_NO_BYTE_RANGES,
    &media::MEDIA_HEAD_REFUSED,
    &media::ARTWORK_WRONG_FORMAT,
    &media::ARTWORK_WRONG_SIZE,
    &media::ARTWORK_NOT_SQUARE,
    &media::ARTWORK_NOT_RGB,
    &media::MEDIA_LIMIT_REACHED,
    &fetching::UNEXPECTED_CONTENT_TYPE,
    &atom::ATOM_MISSING_ID,
    &atom::ATOM_MISSING_TITLE,
    &atom::ATOM_MISSING_UPDATED,
    &atom::ATOM_MISSING_AUTHOR,
    &atom::ATOM_DUPLICATE_ELEMENT,
    &atom::ATOM_ENTRY_MISSING_ALTERNATE,
    &atom::ATOM_ENTRY_MISSING_SUMMARY,
    &atom::ATOM_INVALID_TYPE,
    &atom::ATOM_XHTML_MISSING_DIV,
    &atom::ATOM_XHTML_FOREIGN_ELEMENT,
    &atom::ATOM_PERSON_MISSING_NAME,
    &atom::ATOM_CATEGORY_MISSING_TERM,
    &atom::ATOM_INVALID_CONTENT_SRC,
    &atom::ATOM_XML_CONTENT_NOT_A_DOCUMENT,
    &atom::ATOM_RELATIVE_CATEGORY_SCHEME,
    &rss::RSS_MISSING_CHANNEL_TITLE,
    &rss::RSS_MISSING_CHANNEL_LINK,
    &rss::RSS_MISSING_CHANNEL_DESCRIPTION,
    &rss::RSS_ITEM_MISSING_TITLE_AND_DESCRIPTION,
    &rss::RSS_DUPLICATE_ELEMENT,
    &rss::RSS_REPEATED_AUTHOR,
    &rss::RSS_ENCLOSURE_MISSING_ATTRIBUTE,
    &rss::RSS_INVALID_SCHEDULE,
    &rss::RSS_IMAGE_MISSING_ELEMENT,
    &rss::RSS_TEXT_INPUT_MISSING_ELEMENT,
    &rss::RSS_CLOUD_MISSING_ATTRIBUTE,
    &rss::RSS_SOURCE_MISSING_URL,
    &rss::RSS_INVALID_IS_PERMALINK,
    &rss::RSS_INVALID_GUID,
    &rss::RSS_PERMALINK_NOT_HTTP,
    &values::RSS_INVALID_TEXT_INPUT_NAME,
    &vocabulary::EXTENSION_INVALID,
    &vocabulary::ATOM_UNDEFINED_ELEMENT,
    &vocabulary::ATOM_UNDEFINED_ATTRIBUTE,
    &vocabulary::APP_ELEMENT_MISPLACED,
    &vocabulary::ATOM_METADATA_AFTER_ENTRIES,
    &vocabulary::ATOM_ELEMENT_IN_TEXT,
    &values::ATOM_INVALID_ID,
    &values::ATOM_ID_NOT_NORMALIZED,
    &values::ATOM_INVALID_EMAIL,
    &values::ATOM_DUPLICATE_ALTERNATE,
    &values::ATOM_INVALID_LINK_ATTRIBUTE,
    &values::ATOM_CONTENT_NOT_BASE64,
    &values::ATOM_VALUE_WHITESPACE,
    &values::INVALID_LANGUAGE_TAG,
    &rss::RSS_MISSING_VERSION,
    &rss::RSS_MISSING_CHANNEL,
    &vocabulary::RSS_UNKNOWN_ELEMENT,
    &vocabulary::RSS_ELEMENT_IN_TEXT,
    &vocabulary::RSS_UNKNOWN_ATTRIBUTE,
    &values::RSS_INVALID_URL,
    &values::RSS_INVALID_EMAIL,
    &values::RSS_INVALID_ENCLOSURE,
    &values::RSS_INVALID_IMAGE,
    &values::RSS_INVALID_CLOUD,
    &profile::RSS_MISSING_SELF_LINK,
    &profile::RSS_ITEM_MISSING_GUID,
    &profile::RSS_CONTACT_MISSING_NAME,
    &profile::RSS_ITEM_BEFORE_CHANNEL_ELEMENT,
    &profile::RSS_IMAGE_MISMATCH,
    &profile::RSS_TEXT_INPUT,
    &profile::RSS_CONTENT_WITHOUT_DESCRIPTION,
    &profile::RSS_COMMENTS_WITHOUT_BUILD_DATE,
    &profile::RSS_MARKUP_IN_PLAIN_TEXT,
    &itunes::ITUNES_INVALID_EXPLICIT,
    &itunes::ITUNES_EXPLICIT_LEGACY,
    &itunes::ITUNES_INVALID_DURATION,
    &itunes::ITUNES_INVALID_NUMBER,
    &itunes::ITUNES_INVALID_TYPE,
    &itunes::ITUNES_VALUE_WITHOUT_EFFECT,
    &itunes::ITUNES_UNKNOWN_CATEGORY,
    &itunes::ITUNES_RETIRED_CATEGORY,
    &itunes::ITUNES_SERIAL_MISSING_EPISODE,
    &itunes::ITUNES_INVALID_IMAGE,
    &itunes::ITUNES_INVALID_NEW_FEED_URL,
    &itunes::ITUNES_UNSUPPORTED_ENCLOSURE,
    &itunes::ITUNES_INVALID_LANGUAGE,
    &podcast::PODCAST_NOT_DECLARED,
    &podcast::PODCAST_MISSING_ELEMENT,
    &podcast::PODCAST_MISSING_RECOMMENDED,
    &podcast::PODCAST_DESCRIPTION_TOO_LONG,
    &podcast::PODCAST_ENCLOSURE_TYPE_MISMATCH,
    &podcast::PODCAST_DUPLICATE_ENCLOSURE,
    &podcast::PODCAST_NON_ASCII_URL,
    &podcasting::PODCAST_UNKNOWN_ELEMENT,
    &podcasting::PODCAST_MISPLACED_ELEMENT,
    &podcasting::PODCAST_REPEATED_ELEMENT,
    &podcasting::PODCAST_MISSING_ATTRIBUTE,
    &podcasting::PODCAST_MISSING_CHILD,
    &podcasting::PODCAST_INVALID_VALUE,
    &podcasting::PODCAST_UNKNOWN_SLUG,
    &podcasting::PODCAST_VALUE_TOO_LONG,
    &podcasting::PODCAST_GUID_NOT_UUIDV5,
    &podcasting::PODCAST_GUID_NOT_FROM_FEED_URL,
    &podcasting::PODCAST_UNKNOWN_PERSON_ROLE,
    &podcasting::PODCAST_LIVE_ITEM_ENDS_BEFORE_START,
    &podcasting::PODCAST_INVALID_RRULE,
    &podcasting::PODCAST_UNKNOWN_MEDIUM,
    &podcasting::PODCAST_LIST_WITH_ITEMS,
    &podcasting::PODCAST_VALUE_SPLIT_OUT_OF_RANGE,
];

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

/// How many findings of a rule to keep as it runs (0: all); the rest are
/// counted in one more finding.
pub type FoldLimit<'f> = &'f (dyn Fn(&'static Rule) -> usize + Sync);

/// Runs `rules` over the document, each rule on its own thread when asked
/// (a large document). The findings come in the order of `rules` either way;
/// of each rule, as many as `limit` says and one that counts the rest.
pub fn check_document(
    feed: &FeedDoc<'_, '_>,
    rules: &[&'static Rule],
    parallel: bool,
    limit: FoldLimit<'_>,
) -> Vec<(&'static Rule, Pending)> {
    if parallel {
        // One task per rule: a few rules cost most, and each must be free
        // to go to whichever thread is idle.
        let per_rule: Vec<Vec<_>> = rules
            .par_iter()
            .with_max_len(1)
            .map(|rule| {
                let mut checker = Checker::new(feed, limit);
                checker.run(rule);
                checker.into_findings()
            })
            .collect();
        return per_rule.into_iter().flatten().collect();
    }
    let mut checker = Checker::new(feed, limit);
    for rule in rules {
        checker.run(rule);
    }
    checker.into_findings()
}

/// What a document rule is handed: the document, and a place to report.
pub struct Checker<'d, 'a, 'input> {
    pub feed: &'d FeedDoc<'a, 'input>,
    rule: &'static Rule,
    found: Vec<(&'static Rule, Pending)>,
    limit: FoldLimit<'d>,
    folding: Folding<Range<usize>>,
}

impl<'d, 'a, 'input> Checker<'d, 'a, 'input> {
    pub fn new(feed: &'d FeedDoc<'a, 'input>, limit: FoldLimit<'d>) -> Self {
        Checker {
            feed,
            rule: &xml::XML_MALFORMED,
            found: Vec::new(),
            limit,
            folding: Folding::new(0),
        }
    }

    /// Runs one rule over the document.
    pub fn run(&mut self, rule: &'static Rule) {
        if let Some(check) = rule.check {
            self.rule = rule;
            self.folding = Folding::new((self.limit)(rule));
            let before = self.found.len();
            if let Err(panic) = crate::base::contain::contained(|| check(self)) {
                // What the rule found before it stopped may be half a
                // finding's worth: only the internal error stands for it.
                self.found.truncate(before);
                self.folding = Folding::new(0);
                let what = format!("the rule {}", rule.id);
                self.found
                    .push((&xml::INTERNAL_ERROR, xml::internal_error(0..0, &what, &panic)));
                return;
            }
            let folding = std::mem::replace(&mut self.folding, Folding::new(0));
            self.found.extend(folding.finish(rule.id).map(|fold| (rule, fold)));
        }
    }

    /// Reports a finding of the rule being run.
    pub fn report(&mut self, finding: Pending) {
        if self.folding.keep(&finding) {
            self.found.push((self.rule, finding));
        }
    }

    /// Shorthand for a finding with a message and nothing else yet.
    pub fn at(range: Range<usize>, message: impl Into<String>) -> Pending {
        Pending::new(range, message)
    }

    pub fn into_findings(self) -> Vec<(&'static Rule, Pending)> {
        self.found
    }
}

/// The fix that writes a link's relation as `relation` (safe: only where the
/// rule knows the relation meant).
/// Elements as a finding names them: the first twelve, each as `name`
/// writes it, then how many more (a channel may hold thousands).
pub(crate) fn elements_listed(elements: &[crate::xml::Node], name: impl Fn(&crate::xml::Node) -> String) -> String {
    let listed: Vec<String> = elements.iter().take(12).map(name).collect();
    match elements.len() {
        n if n > 12 => format!("{} and {} more", listed.join(", "), n - 12),
        _ => listed.join(", "),
    }
}

/// An unqualified attribute of `element` that is a near miss of the name
/// `meant`, which the element lacks (`herf` for a missing `href`): what the
/// rule on the missing attribute points at, and no other rule reports.
pub(crate) fn misspelt_attribute<'a, 'i>(
    element: crate::xml::Node<'a, 'i>,
    meant: &str,
) -> Option<crate::xml::Attribute<'a, 'i>> {
    element
        .attributes()
        .find(|a| a.namespace().is_none() && a.name() != meant && crate::findings::rule_id::is_near(a.name(), meant))
}

/// The safe fix that renames an attribute as written (`herf` to `href`).
pub(crate) fn rename_attribute(feed: &FeedDoc, attribute: crate::xml::Attribute, to: &str) -> Option<Fix> {
    let at = attribute.range();
    let written = feed.xml.input_text().get(at.clone())?;
    (attribute.is_specified() && written.starts_with(attribute.name())).then(|| {
        Fix::safe(
            format!("Rename {} to {to}", attribute.name()),
            vec![fix::replace(at.start..at.start + attribute.name().len(), to)],
        )
    })
}

pub(crate) fn rename_relation(link: &crate::feed::Link, relation: &str) -> Option<Fix> {
    let at = link.rel_range.clone()?;
    Some(Fix::safe(
        format!("Write rel=\"{relation}\""),
        vec![fix::replace(at, relation)],
    ))
}

/// The edit that removes an element (and its line, when it stands alone).
pub(crate) fn remove(feed: &FeedDoc, node: crate::xml::Node) -> fix::Edit {
    fix::remove_element(feed.xml.input_text(), node.range())
}

/// The children of `parent` whose name is the document's name number
/// `name`: a document's names are numbered once, so each child is matched
/// by a number, not by its text.
fn children_named<'a, 'i>(
    parent: crate::xml::Node<'a, 'i>,
    name: Option<usize>,
) -> impl Iterator<Item = crate::xml::Node<'a, 'i>> {
    parent
        .children()
        .filter(move |child| name.is_some() && child.name_index() == name)
}

/// Whether `parent` has a child whose name is the document's name number
/// `name` (`None`: a name the document never uses).
fn has_child(parent: crate::xml::Node, name: Option<usize>) -> bool {
    children_named(parent, name).next().is_some()
}

pub(crate) use crate::xml::{declarations, Declaration};

/// How many ancestors a fix looks through for a namespace declaration:
/// declarations stand on the element or near it (a root element's are
/// within reach in any feed), and the bound keeps a fix for each element of
/// a deeply nested document linear.
const DECLARATION_SEARCH_DEPTH: usize = 64;

/// The namespace declarations of elements as written, each start tag read
/// once however many findings ask (a root may declare 100,000 prefixes).
#[derive(Default)]
pub(crate) struct Declarations<'t> {
    by_element:
        crate::base::hash::FastMap<crate::xml::NodeId, crate::base::hash::FastMap<Option<&'t str>, Declaration<'t>>>,
}

impl<'t> Declarations<'t> {
    /// The declaration in scope at `node` for `prefix` (`None`: the default
    /// namespace): the nearest one on it or its nearest ancestors; `None`
    /// past them, and then no fix is made.
    pub(crate) fn in_scope(
        &mut self,
        text: &'t str,
        node: crate::xml::Node,
        prefix: Option<&str>,
    ) -> Option<Declaration<'t>> {
        let elements = std::iter::once(node).chain(node.ancestors()).filter(|n| n.is_element());
        for element in elements.take(DECLARATION_SEARCH_DEPTH + 1) {
            let declared = self
                .by_element
                .entry(element.id())
                .or_insert_with(|| declarations(text, element).map(|d| (d.prefix, d)).collect());
            if let Some(found) = declared.get(&prefix) {
                return Some(found.clone());
            }
        }
        None
    }
}

/// A prefix that names `namespace` at `node` (the nearest declaration of a
/// prefix wins, so one bound again closer in is not taken).
pub(crate) fn prefix_in_scope(text: &str, node: crate::xml::Node, namespace: &str) -> Option<String> {
    let mut seen: crate::base::hash::FastSet<&str> = crate::base::hash::FastSet::default();
    for element in std::iter::once(node).chain(node.ancestors()).filter(|n| n.is_element()) {
        for declaration in declarations(text, element) {
            let Some(prefix) = declaration.prefix else { continue };
            if declaration.value == namespace && !seen.contains(prefix) {
                return Some(prefix.to_owned());
            }
            seen.insert(prefix);
        }
    }
    None
}

/// The prefix of an element's name as written (`None`: unprefixed).
pub(crate) fn written_prefix<'t>(text: &'t str, element: crate::xml::Node) -> Option<&'t str> {
    let tag = text.get(element.start_tag())?;
    let name = tag.strip_prefix('<')?;
    let name = name
        .split(|c: char| c.is_whitespace() || c == '/' || c == '>')
        .next()
        .unwrap_or_default();
    name.split_once(':').map(|(prefix, _)| prefix)
}

/// What a set rule is handed.
pub struct SetChecker<'s, 'r> {
    pub set: &'s FeedSet<'r>,
    rule: &'static Rule,
    found: Vec<(&'static Rule, Pending<Span>)>,
}

impl<'s, 'r> SetChecker<'s, 'r> {
    pub fn new(set: &'s FeedSet<'r>) -> Self {
        SetChecker {
            set,
            rule: &xml::XML_MALFORMED,
            found: Vec::new(),
        }
    }

    pub fn run(&mut self, rule: &'static Rule) {
        if let Some(check) = rule.set_check {
            self.rule = rule;
            let before = self.found.len();
            if let Err(panic) = crate::base::contain::contained(|| check(self)) {
                self.found.truncate(before);
                // A set rule reads every document: the finding stands at the
                // start of the first one that is reported.
                let Some(doc) = self.set.documents().iter().position(|d| !d.context) else {
                    return;
                };
                let start = crate::text::snippet::Place::START;
                let at = Location::between(start, start).in_doc(doc);
                let what = format!("the rule {} (over the set of documents)", rule.id);
                self.found
                    .push((&xml::INTERNAL_ERROR, xml::internal_error(at, &what, &panic)));
            }
        }
    }

    /// Reports a finding of the rule being run. Findings past
    /// `--max-per-rule` are folded when the report is assembled, after
    /// suppressions.
    pub fn report(&mut self, finding: Pending<Span>) {
        self.found.push((self.rule, finding));
    }

    /// Runs `check` on each of `parts` (groups of documents that the rule
    /// checks independently: chains, archive groups) in parallel, each
    /// part with a checker of its own, and reports their findings in the
    /// order of the parts. The set stage waits for every document; a rule
    /// that looks at every entry of the run would otherwise keep one core
    /// busy while the others wait.
    pub fn for_each_part<T: Sync>(&mut self, parts: &[T], check: impl Fn(&mut SetChecker<'s, 'r>, &T) + Sync) {
        let (set, rule) = (self.set, self.rule);
        let found: Vec<Vec<_>> = parts
            .par_iter()
            .map(|part| {
                let mut checker = SetChecker {
                    set,
                    rule,
                    found: Vec::new(),
                };
                check(&mut checker, part);
                checker.found
            })
            .collect();
        self.found.extend(found.into_iter().flatten());
    }

    /// A finding at a place of document `doc`'s summary.
    pub fn at(doc: DocId, at: &Location, message: impl Into<String>) -> Pending<Span> {
        Pending::new(at.in_doc(doc), message)
    }

    pub fn into_findings(self) -> Vec<(&'static Rule, Pending<Span>)> {
        self.found
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;

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
            let found = check_document(&feed, &rules, parallel, &no_limit);
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
