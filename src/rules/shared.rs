//! What the rules of several groups share: reading elements and their
//! namespace declarations, and the fixes that rename or remove.

use crate::feed::{DocKind, FeedDoc};
use crate::findings::diagnostic::Pending;
use crate::findings::fix::{self, Fix};
use crate::rules::Checker;
use crate::xml::Node;
use std::ops::Range;

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

/// The fix that writes a link's relation as `relation` (safe: only where the
/// rule knows the relation meant).
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
pub(crate) fn children_named<'a, 'i>(
    parent: crate::xml::Node<'a, 'i>,
    name: Option<usize>,
) -> impl Iterator<Item = crate::xml::Node<'a, 'i>> {
    parent
        .children()
        .filter(move |child| name.is_some() && child.name_index() == name)
}

/// Whether `parent` has a child whose name is the document's name number
/// `name` (`None`: a name the document never uses).
pub(crate) fn has_child(parent: crate::xml::Node, name: Option<usize>) -> bool {
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

/// The fix that writes the right URI in the declaration the element's
/// namespace comes from (every element under it is fixed with it).
pub(crate) fn correct_namespace<'t>(
    feed: &FeedDoc<'_, 't>,
    declarations: &mut Declarations<'t>,
    node: Node,
    namespace: &str,
    expected: &str,
) -> Option<Fix> {
    let text = feed.xml.input_text();
    let declaration = declarations.in_scope(text, node, written_prefix(text, node))?;
    (declaration.value == namespace).then(|| {
        Fix::safe(
            format!("Declare the namespace as \"{expected}\""),
            vec![fix::replace(declaration.value_at, expected)],
        )
    })
}

/// One finding of a value rule: where, what, how to fix it.
pub(crate) struct Bad {
    pub(crate) at: Range<usize>,
    pub(crate) message: String,
    pub(crate) help: String,
}

pub(crate) fn report_all(cx: &mut Checker, findings: Vec<Bad>, label: &str, note: &str) {
    for Bad { at, message, help } in findings {
        cx.report(
            Checker::at(at, message)
                .label(label.to_owned())
                .note(note.to_owned())
                .help(help),
        );
    }
}

/// The RSS channel, and its items.
pub(crate) fn rss_channel<'a, 'i>(feed: &FeedDoc<'a, 'i>) -> Option<Node<'a, 'i>> {
    feed.head.filter(|_| feed.kind == DocKind::Rss)
}

/// The RSS children (no namespace) of `parent` named `local`.
pub(crate) fn rss_children<'a, 'i>(parent: Node<'a, 'i>, local: &'static str) -> impl Iterator<Item = Node<'a, 'i>> {
    parent.children().filter(move |child| child.has_tag_name(None, local))
}

/// A place of a grouped finding, and its own fix.
type Place = (Range<usize>, Option<Fix>);

/// Reports one finding per key (a tag's name, a value), at its first
/// place, with how many more there are and the next few as secondary
/// places, and one fix for all of them where each has its own: a
/// generator repeats a mistake in every episode, and it is one thing to
/// change, not thousands.
pub(crate) fn report_grouped<K: std::hash::Hash + Eq + Clone>(
    cx: &mut Checker,
    places: Vec<(K, Range<usize>, Option<Fix>)>,
    finding: impl Fn(Range<usize>, &K, usize) -> Pending,
) {
    /// The places shown beside the first.
    const SHOWN: usize = 9;
    let mut by_key: Vec<(K, Vec<Place>)> = Vec::new();
    let mut index: crate::base::hash::FastMap<K, usize> = crate::base::hash::FastMap::default();
    for (key, at, fix) in places {
        match index.get(&key) {
            Some(&i) => by_key[i].1.push((at, fix)),
            None => {
                index.insert(key.clone(), by_key.len());
                by_key.push((key, vec![(at, fix)]));
            }
        }
    }
    for (key, places) in by_key {
        let mut pending = finding(places[0].0.clone(), &key, places.len() - 1);
        for (at, _) in places.iter().skip(1).take(SHOWN) {
            pending = pending.secondary(at.clone(), "here too");
        }
        // One fix for every place, as safe as the first, where each has
        // its own.
        let edits: Option<Vec<_>> = places
            .iter()
            .map(|(_, fix)| fix.as_ref().map(|f| f.edits.clone()))
            .collect();
        if let (Some(edits), Some(first)) = (edits, places[0].1.clone()) {
            pending = pending.fix_if(Some(Fix {
                edits: edits.into_iter().flatten().collect(),
                ..first
            }));
        }
        cx.report(pending);
    }
}

/// "in 3 more places", or nothing.
pub(crate) fn more(n: usize) -> String {
    match n {
        0 => String::new(),
        1 => " (and in 1 more place)".to_owned(),
        n => format!(" (and in {n} more places)"),
    }
}
