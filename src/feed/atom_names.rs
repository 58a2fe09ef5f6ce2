//! The Atom element names a document uses, found once, and the parts of an
//! Atom document the core rules read.

use super::{FeedDoc, ATOM_NS};
use crate::xml::{Node, NodeList, Tree};

/// The Atom elements the core rules look for among an element's children.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomName {
    Id,
    Title,
    Subtitle,
    Updated,
    Published,
    Author,
    Contributor,
    Name,
    Summary,
    Content,
    Rights,
    Source,
    Link,
    Category,
    Generator,
    Icon,
    Logo,
    Email,
    Uri,
    Entry,
}

impl AtomName {
    pub const ALL: [AtomName; 20] = [
        AtomName::Id,
        AtomName::Title,
        AtomName::Subtitle,
        AtomName::Updated,
        AtomName::Published,
        AtomName::Author,
        AtomName::Contributor,
        AtomName::Name,
        AtomName::Summary,
        AtomName::Content,
        AtomName::Rights,
        AtomName::Source,
        AtomName::Link,
        AtomName::Category,
        AtomName::Generator,
        AtomName::Icon,
        AtomName::Logo,
        AtomName::Email,
        AtomName::Uri,
        AtomName::Entry,
    ];

    pub fn local(self) -> &'static str {
        match self {
            AtomName::Id => "id",
            AtomName::Title => "title",
            AtomName::Subtitle => "subtitle",
            AtomName::Updated => "updated",
            AtomName::Published => "published",
            AtomName::Author => "author",
            AtomName::Contributor => "contributor",
            AtomName::Name => "name",
            AtomName::Summary => "summary",
            AtomName::Content => "content",
            AtomName::Rights => "rights",
            AtomName::Source => "source",
            AtomName::Link => "link",
            AtomName::Category => "category",
            AtomName::Generator => "generator",
            AtomName::Icon => "icon",
            AtomName::Logo => "logo",
            AtomName::Email => "email",
            AtomName::Uri => "uri",
            AtomName::Entry => "entry",
        }
    }
}

/// Where each [`AtomName`] stands in the document's table of names, looked
/// up once: children are then matched by number, not by their text.
#[derive(Debug, Clone, Copy, Default)]
pub struct AtomNames([Option<usize>; 20]);

impl AtomNames {
    pub(crate) fn of(xml: &Tree<'_>) -> Self {
        let mut indices = [None; 20];
        for name in AtomName::ALL {
            indices[name as usize] = xml.name_index_of(Some(ATOM_NS), name.local());
        }
        AtomNames(indices)
    }

    /// Whether `node` is the Atom element `name`.
    pub fn is(&self, node: Node<'_, '_>, name: AtomName) -> bool {
        let index = self.0[name as usize];
        index.is_some() && node.name_index() == index
    }

    /// Which of `names` the element `node` is, if any.
    pub fn which(&self, node: Node<'_, '_>, names: &[AtomName]) -> Option<AtomName> {
        let index = node.name_index()?;
        names.iter().copied().find(|name| self.0[*name as usize] == Some(index))
    }
}

/// The children of the feed, its entries and their sources that Atom's
/// text, person, category and vocabulary rules read, gathered in one pass
/// when the first of them asks.
#[derive(Default)]
pub struct AtomParts<'a, 'input> {
    /// `atom:title`, `subtitle`, `summary`, `rights` and `content`.
    pub texts: NodeList<'a, 'input>,
    /// Those of `texts` with a `src`, or a `type` other than `text` and
    /// `html`: the only ones the rules on types, XHTML, Base64 and `src`
    /// have anything to say of (few or none, in most feeds).
    pub remarkable_texts: NodeList<'a, 'input>,
    /// `atom:author` and `atom:contributor`.
    pub persons: NodeList<'a, 'input>,
    pub categories: NodeList<'a, 'input>,
    /// `atom:icon`, `atom:logo` and `atom:generator` of the feed and sources.
    pub values: NodeList<'a, 'input>,
    /// The persons' `atom:name`, `atom:uri` and `atom:email`.
    pub person_values: NodeList<'a, 'input>,
    /// Children in the Atom namespace that RFC 4287 does not define where
    /// they stand, each with its parent.
    pub undefined: Vec<(Node<'a, 'input>, Node<'a, 'input>)>,
    /// Second and later copies of an element a feed, an entry or a person
    /// may hold once, each with its parent and the first copy.
    pub duplicates: Vec<(Node<'a, 'input>, Node<'a, 'input>, Node<'a, 'input>)>,
    /// The Atom elements (where RFC 4287 puts them) with an attribute
    /// without a namespace that RFC 4287 does not define on them, each with
    /// its name (`None`: a feed, an entry, a source or a person, which have
    /// no attribute of their own).
    pub undefined_attributes: Vec<(Node<'a, 'input>, Option<AtomName>)>,
}

/// The attributes without a namespace RFC 4287 defines, by element; every
/// other Atom element has none (`xml:base` and `xml:lang` are in the XML
/// namespace, so never asked about).
pub const ATOM_ATTRIBUTES: &[(AtomName, &[&str])] = &[
    (AtomName::Title, &["type"]),
    (AtomName::Subtitle, &["type"]),
    (AtomName::Summary, &["type"]),
    (AtomName::Rights, &["type"]),
    (AtomName::Content, &["type", "src"]),
    (AtomName::Link, &["href", "rel", "type", "hreflang", "title", "length"]),
    (AtomName::Category, &["term", "scheme", "label"]),
    (AtomName::Generator, &["uri", "version"]),
];

/// For each name of a document, as an attribute's name: the rows of
/// [`ATOM_ATTRIBUTES`] that define it, as bits, or that it has a
/// namespace; worked out the first time the name is met, so that each
/// attribute is then judged by a table lookup, not by its text.
struct AttributeRows {
    rows: Vec<u16>,
}

impl AttributeRows {
    const UNKNOWN: u16 = u16::MAX;
    const NAMESPACED: u16 = 1 << 14;

    fn new(names: usize) -> Self {
        AttributeRows {
            rows: vec![Self::UNKNOWN; names],
        }
    }

    fn of(&mut self, xml: &Tree<'_>, index: usize) -> u16 {
        if self.rows[index] == Self::UNKNOWN {
            let name = xml.name_at(index);
            self.rows[index] = match name.namespace() {
                Some(_) => Self::NAMESPACED,
                None => ATOM_ATTRIBUTES
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, defined))| defined.contains(&name.name()))
                    .fold(0, |bits, (row, _)| bits | 1 << row),
            };
        }
        self.rows[index]
    }

    /// Whether `element`, the Atom element `name` (`None`: one without
    /// attributes of its own), has an attribute without a namespace that
    /// RFC 4287 does not define on it.
    fn has_undefined(&mut self, xml: &Tree<'_>, element: Node<'_, '_>, name: Option<AtomName>) -> bool {
        let row = name.and_then(|name| ATOM_ATTRIBUTES.iter().position(|(n, _)| *n == name));
        element.attributes().any(|a| {
            let bits = self.of(xml, a.name_index());
            bits & Self::NAMESPACED == 0 && row.is_none_or(|row| bits & (1 << row) == 0)
        })
    }
}

/// The children RFC 4287 defines for each Atom container, as bit sets of
/// [`AtomName`]s.
pub(crate) const fn name_set(names: &[AtomName]) -> u32 {
    let mut set = 0;
    let mut i = 0;
    while i < names.len() {
        set |= 1 << names[i] as u32;
        i += 1;
    }
    set
}

pub(crate) const SOURCE_CHILDREN: u32 = name_set(&[
    AtomName::Author,
    AtomName::Category,
    AtomName::Contributor,
    AtomName::Generator,
    AtomName::Icon,
    AtomName::Id,
    AtomName::Link,
    AtomName::Logo,
    AtomName::Rights,
    AtomName::Subtitle,
    AtomName::Title,
    AtomName::Updated,
]);

pub(crate) const FEED_CHILDREN: u32 = SOURCE_CHILDREN | name_set(&[AtomName::Entry]);

pub(crate) const ENTRY_CHILDREN: u32 = name_set(&[
    AtomName::Author,
    AtomName::Category,
    AtomName::Content,
    AtomName::Contributor,
    AtomName::Id,
    AtomName::Link,
    AtomName::Published,
    AtomName::Rights,
    AtomName::Source,
    AtomName::Summary,
    AtomName::Title,
    AtomName::Updated,
]);

pub(crate) const PERSON_CHILDREN: u32 = name_set(&[AtomName::Name, AtomName::Uri, AtomName::Email]);

/// What each container may hold at most once (RFC 4287 §4.1.1, §4.1.2,
/// §3.2); RFC 4287 sets no such limit on `atom:source`.
pub(crate) const ONCE_IN_FEED: u32 = name_set(&[
    AtomName::Generator,
    AtomName::Icon,
    AtomName::Id,
    AtomName::Logo,
    AtomName::Rights,
    AtomName::Subtitle,
    AtomName::Title,
    AtomName::Updated,
]);

pub(crate) const ONCE_IN_ENTRY: u32 = name_set(&[
    AtomName::Content,
    AtomName::Id,
    AtomName::Published,
    AtomName::Rights,
    AtomName::Source,
    AtomName::Summary,
    AtomName::Title,
    AtomName::Updated,
]);

pub(crate) const ONCE_IN_PERSON: u32 = PERSON_CHILDREN;

/// What a name of the document is to Atom's rules: one of the
/// [`AtomName`]s, another name in the Atom namespace, or neither.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum AtomClass {
    Known(AtomName),
    OtherAtom,
    Foreign,
}

/// One pass over the containers' children, each classified by a table
/// lookup on its name's number.
/// The parts of an Atom Feed Document (its `head`, then its entries) or an
/// Atom Entry Document (its one entry, without a head).
pub(crate) fn gather_atom_parts<'a, 'input>(
    feed: &FeedDoc<'a, 'input>,
    head: Option<Node<'a, 'input>>,
) -> AtomParts<'a, 'input> {
    let xml = feed.xml;
    let mut classes = vec![AtomClass::Foreign; xml.name_count()];
    for (index, class) in classes.iter_mut().enumerate() {
        if xml.name_at(index).namespace() == Some(ATOM_NS) {
            *class = AtomClass::OtherAtom;
        }
    }
    for name in AtomName::ALL {
        if let Some(index) = feed.atom_names.0[name as usize] {
            classes[index] = AtomClass::Known(name);
        }
    }
    let class_of = |node: Node| node.name_index().map_or(AtomClass::Foreign, |i| classes[i]);
    // Sized for a typical entry (a title, a summary or content, an author
    // with a name): the lists are made once instead of grown.
    let entries = feed.entries.len() + 1;
    let mut parts = AtomParts {
        texts: NodeList::with_capacity(entries * 3),
        persons: NodeList::with_capacity(entries),
        person_values: NodeList::with_capacity(entries),
        ..AtomParts::default()
    };
    // Each container with the children it may hold, and those only once.
    let mut containers: Vec<(Node<'a, 'input>, u32, u32)> = Vec::with_capacity(entries * 2);
    containers.extend(head.map(|head| (head, FEED_CHILDREN, ONCE_IN_FEED)));
    containers.extend(feed.entries.iter().map(|e| (e.node, ENTRY_CHILDREN, ONCE_IN_ENTRY)));
    let mut attribute_rows = AttributeRows::new(xml.name_count());
    let mut at = 0;
    while at < containers.len() {
        let (container, allowed, once) = containers[at];
        at += 1;
        if attribute_rows.has_undefined(xml, container, None) {
            parts.undefined_attributes.push((container, None));
        }
        let mut firsts: [Option<Node<'a, 'input>>; AtomName::ALL.len()] = [None; AtomName::ALL.len()];
        for child in container.children() {
            let name = match class_of(child) {
                AtomClass::Foreign => continue,
                AtomClass::OtherAtom => {
                    parts.undefined.push((container, child));
                    continue;
                }
                AtomClass::Known(name) if allowed & (1 << name as u32) == 0 => {
                    parts.undefined.push((container, child));
                    continue;
                }
                AtomClass::Known(name) => name,
            };
            // A container's own attributes are looked at when it is walked.
            let container_too = matches!(
                name,
                AtomName::Entry | AtomName::Author | AtomName::Contributor | AtomName::Source
            );
            if !container_too && attribute_rows.has_undefined(xml, child, Some(name)) {
                parts.undefined_attributes.push((child, Some(name)));
            }
            let bit = 1 << name as u32;
            if once & bit != 0 {
                match firsts[name as usize] {
                    Some(first) => parts.duplicates.push((container, child, first)),
                    None => firsts[name as usize] = Some(child),
                }
            }
            match name {
                AtomName::Title | AtomName::Subtitle | AtomName::Summary | AtomName::Rights | AtomName::Content => {
                    parts.texts.push(child);
                    let remarkable = child.attributes().any(|a| match a.name() {
                        "src" => a.namespace().is_none(),
                        "type" => a.namespace().is_none() && !matches!(a.value(), "text" | "html"),
                        _ => false,
                    });
                    if remarkable {
                        parts.remarkable_texts.push(child);
                    }
                }
                AtomName::Author | AtomName::Contributor => {
                    parts.persons.push(child);
                    containers.push((child, PERSON_CHILDREN, ONCE_IN_PERSON));
                }
                AtomName::Category => parts.categories.push(child),
                AtomName::Icon | AtomName::Logo | AtomName::Generator => parts.values.push(child),
                AtomName::Name | AtomName::Uri | AtomName::Email => parts.person_values.push(child),
                // A source holds its feed's metadata, each once as in the
                // feed (RFC 4287 §4.2.11, §4.1.1).
                AtomName::Source => containers.push((child, SOURCE_CHILDREN, ONCE_IN_FEED)),
                _ => {}
            }
        }
    }
    parts
}
