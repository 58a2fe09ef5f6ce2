//! An entry of a feed, with its id and update time read when asked.

use super::{DocKind, Text, ATOM_NS};
use crate::text::date::{self, Instant};
use crate::xml::{Node, NodeId, Tree};

/// An Atom entry or an RSS item, with its identity and update time.
/// A feed keeps one per entry while it is checked, so the id and update
/// time are kept as their elements (a word each), their texts read when
/// asked: 56 bytes an entry instead of 112.
#[derive(Debug, Clone)]
pub struct Entry<'a, 'input> {
    pub node: Node<'a, 'input>,
    /// `atom:id`, or the RSS `guid`.
    pub(crate) id_element: Option<NodeId>,
    /// `atom:updated`; RSS defines no update time for items.
    pub(crate) updated_element: Option<NodeId>,
    /// `updated` as an instant, when it is a valid date.
    pub updated_at: Option<Instant>,
}

/// The names an entry is read by, looked up once per document: each child
/// is then matched by its name's number, not its text.
pub(crate) struct EntryNames {
    pub(crate) entry: Option<usize>,
    pub(crate) id: Option<usize>,
    pub(crate) updated: Option<usize>,
}

impl EntryNames {
    pub(crate) fn of(xml: &Tree<'_>, kind: DocKind) -> Self {
        let find = |namespace, local| xml.name_index_of(namespace, local);
        match kind {
            DocKind::Rss => EntryNames {
                entry: find(None, "item"),
                id: find(None, "guid"),
                updated: None,
            },
            _ => EntryNames {
                entry: find(Some(ATOM_NS), "entry"),
                id: find(Some(ATOM_NS), "id"),
                updated: find(Some(ATOM_NS), "updated"),
            },
        }
    }
}

impl<'a, 'input> Entry<'a, 'input> {
    /// The entry an element is, if it is one: its first id and first
    /// update time, found in one pass over its children.
    pub(crate) fn of(names: &EntryNames, node: Node<'a, 'input>) -> Option<Self> {
        if node.name_index().is_none() || node.name_index() != names.entry {
            return None;
        }
        let (mut id, mut updated) = (None, None);
        for child in node.children() {
            let Some(name) = child.name_index().map(Some) else {
                continue;
            };
            if name == names.id && id.is_none() {
                id = Some(child);
            } else if name == names.updated && updated.is_none() {
                updated = Some(child);
            }
            if id.is_some() && (updated.is_some() || names.updated.is_none()) {
                break;
            }
        }
        Some(Entry {
            node,
            id_element: id.map(|id| id.id()),
            updated_element: updated.map(|updated| updated.id()),
            updated_at: updated.and_then(|u| date::parse_rfc3339(Text::of(u).value).ok()),
        })
    }

    /// `atom:id`, or the RSS `guid`.
    pub fn id(&self) -> Option<Text<'a>> {
        self.id_element.map(|id| self.text_of(id))
    }

    /// `atom:updated`; RSS defines no update time for items.
    pub fn updated(&self) -> Option<Text<'a>> {
        self.updated_element.map(|updated| self.text_of(updated))
    }

    pub fn has_id(&self) -> bool {
        self.id_element.is_some()
    }

    pub fn has_updated(&self) -> bool {
        self.updated_element.is_some()
    }

    pub(crate) fn text_of(&self, element: NodeId) -> Text<'a> {
        let element = self.node.tree().get_node(element);
        Text::of(element.expect("an element of the entry's own document"))
    }
}
