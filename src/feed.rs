//! The typed view over a parsed document that rules read: what kind of
//! document it is, its head section, its navigation links with resolved
//! targets, and its feed-history markers.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::xml::{Attribute, Document, ExpandedName, Node, NodeId, NodeList};
use url::Url;

use crate::date::{self, Instant};
use crate::hash::FastMap;
use crate::iri;

pub const ATOM_NS: &str = "http://www.w3.org/2005/Atom";
pub const FH_NS: &str = "http://purl.org/syndication/history/1.0";
pub const AT_NS: &str = "http://purl.org/atompub/tombstones/1.0";
pub const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";
pub const DS_NS: &str = "http://www.w3.org/2000/09/xmldsig#";
pub const XHTML_NS: &str = "http://www.w3.org/1999/xhtml";

/// The form in which near misses compare equal: no scheme, no `www.`, no
/// trailing `/` or `#`, lower case, and no trailing version segment.
fn near_miss_key(uri: &str) -> String {
    let uri = uri.trim().to_ascii_lowercase();
    let uri = uri
        .strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))
        .unwrap_or(&uri);
    let uri = uri.strip_prefix("www.").unwrap_or(uri);
    let uri = uri.trim_end_matches(['/', '#']);
    let (head, last) = uri.rsplit_once('/').unwrap_or(("", uri));
    let is_version =
        !last.is_empty() && last.chars().all(|c| c.is_ascii_digit() || c == '.') && !last.starts_with("20");
    if is_version && !head.is_empty() {
        head.to_owned()
    } else {
        uri.to_owned()
    }
}

/// The namespace feedlint knows (feed-history, tombstones, Atom) that
/// `namespace` was almost certainly meant to be: the same but for case,
/// scheme, `www.`, a trailing `/` or `#`, or the version segment.
pub fn intended_namespace(namespace: &str) -> Option<&'static str> {
    let key = near_miss_key(namespace);
    [FH_NS, AT_NS, ATOM_NS]
        .into_iter()
        .find(|known| *known != namespace && near_miss_key(known) == key)
}

/// Prefix that makes a relation an IRI naming a registered relation.
const IANA_RELATION_PREFIX: &str = "http://www.iana.org/assignments/relation/";

/// An RFC 5005 relation that ties the documents of a logical feed together:
/// what the set checks follow. Typed, so that a misspelled relation does
/// not compile (a string would silently match nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relation {
    PrevArchive,
    NextArchive,
    Current,
    First,
    Last,
    Previous,
    Next,
}

impl Relation {
    pub const ALL: [Relation; 7] = [
        Relation::PrevArchive,
        Relation::NextArchive,
        Relation::Current,
        Relation::First,
        Relation::Last,
        Relation::Previous,
        Relation::Next,
    ];

    /// The relation as written (after [`normalize_relation`]).
    pub const fn as_str(self) -> &'static str {
        match self {
            Relation::PrevArchive => "prev-archive",
            Relation::NextArchive => "next-archive",
            Relation::Current => "current",
            Relation::First => "first",
            Relation::Last => "last",
            Relation::Previous => "previous",
            Relation::Next => "next",
        }
    }

    /// The navigation relation a normalized relation names, if any.
    pub fn of(normalized: &str) -> Option<Relation> {
        Relation::ALL.into_iter().find(|r| r.as_str() == normalized)
    }
}

impl std::fmt::Display for Relation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The relations of paged feeds (RFC 5005 §3).
pub const PAGING_RELATIONS: [Relation; 4] = [Relation::First, Relation::Last, Relation::Previous, Relation::Next];
/// The relations of archived feeds (RFC 5005 §4).
pub const ARCHIVE_RELATIONS: [Relation; 3] = [Relation::PrevArchive, Relation::NextArchive, Relation::Current];

/// A link's relation, normalized (see [`normalize_relation`]) and typed
/// where the rules follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rel {
    Navigation(Relation),
    /// `self` (RFC 4287 §4.2.7.2).
    Itself,
    /// Any other relation, normalized: `alternate`, `prev`, extension IRIs.
    Other(String),
}

impl Rel {
    /// The relation of a `rel` attribute's value (`None`: absent).
    pub fn of(rel: Option<&str>) -> Rel {
        // Navigation relations and `self` first, without allocating.
        if let Some(relation) = navigation_relation(rel) {
            return Rel::Navigation(relation);
        }
        let normalized = normalize_relation(rel);
        if normalized == "self" {
            Rel::Itself
        } else {
            Rel::Other(normalized)
        }
    }

    /// The navigation relation, if it is one.
    pub fn navigation(&self) -> Option<Relation> {
        match self {
            Rel::Navigation(relation) => Some(*relation),
            _ => None,
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            Rel::Navigation(relation) => relation.as_str(),
            Rel::Itself => "self",
            Rel::Other(other) => other,
        }
    }
}

impl PartialEq<Relation> for Rel {
    fn eq(&self, other: &Relation) -> bool {
        *self == Rel::Navigation(*other)
    }
}

impl std::fmt::Display for Rel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    /// An Atom Feed Document: root `atom:feed`.
    Atom,
    /// An Atom Entry Document (RFC 4287 §2): root `atom:entry`, one entry
    /// standing alone, with no feed to inherit from.
    AtomEntry,
    /// An RSS document: root `rss`, the `channel` is the head section.
    Rss,
    /// A Deleted Entry Document (RFC 6721 §4): root `at:deleted-entry`.
    DeletedEntry,
}

impl DocKind {
    pub fn of_root(root: Node<'_, '_>) -> Option<DocKind> {
        let name = root.tag_name();
        match (name.namespace(), name.name()) {
            (Some(ATOM_NS), "feed") => Some(DocKind::Atom),
            (Some(ATOM_NS), "entry") => Some(DocKind::AtomEntry),
            (None, "rss") => Some(DocKind::Rss),
            (Some(AT_NS), "deleted-entry") => Some(DocKind::DeletedEntry),
            _ => None,
        }
    }

    /// An Atom Feed or Entry Document: the Atom core rules read it.
    pub fn is_atom(self) -> bool {
        matches!(self, DocKind::Atom | DocKind::AtomEntry)
    }
}

pub fn is(node: Node<'_, '_>, namespace: &str, name: &str) -> bool {
    node.has_tag_name(Some(namespace), name)
}

pub fn is_atom_link(node: Node<'_, '_>) -> bool {
    is(node, ATOM_NS, "link")
}

/// The start tag of an element (`<name ...>`), where findings about the
/// element point: never the whole subtree.
pub fn start_tag(node: Node<'_, '_>) -> Range<usize> {
    node.start_tag()
}

/// The value of an attribute, without its quotes.
pub fn attribute_value_range(node: Node<'_, '_>, name: &str) -> Option<Range<usize>> {
    node.attributes()
        .find(|a| a.name() == name && a.namespace().is_none())
        .map(|a| a.range_value())
}

/// A relation as RFC 4287 §4.2.7.2 and RFC 5005 compare it: absent means
/// `alternate`, the IANA registry prefix is dropped, and registered names
/// compare ASCII case-insensitively.
pub fn normalize_relation(rel: Option<&str>) -> String {
    // No trimming: a padded value is no relation (RFC 4287 §4.2.7.2 allows
    // no whitespace), so it must not be read as the name inside it.
    let rel = rel.unwrap_or("alternate");
    let rel = rel.strip_prefix(IANA_RELATION_PREFIX).unwrap_or(rel);
    if rel.contains(':') {
        rel.to_owned()
    } else {
        rel.to_ascii_lowercase()
    }
}

/// The RFC 5005 navigation relation a `rel` value names, if any, compared
/// as [`normalize_relation`] does but without allocating (it is asked for
/// every link of every entry).
pub fn navigation_relation(rel: Option<&str>) -> Option<Relation> {
    let rel = rel?;
    let rel = rel.strip_prefix(IANA_RELATION_PREFIX).unwrap_or(rel);
    Relation::ALL
        .into_iter()
        .find(|relation| relation.as_str().eq_ignore_ascii_case(rel))
}

/// The base URI in scope for an element: the document URL, then every
/// `xml:base` from the root down (XML Base §4.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Base {
    Known(Url),
    /// No `xml:base` in scope and the document has no URL.
    Missing,
    /// An `xml:base` in scope could not be resolved; `at` is its value.
    Broken {
        at: Range<usize>,
    },
}

/// What the rules need to know of the base URI in scope without building
/// it. An element under many nested relative `xml:base`s has a base as
/// long as all of them together: building it for every element would take
/// time and memory quadratic in the depth, so only references that are
/// resolved (links, tombstones) build theirs ([`FeedDoc::base`]); the
/// others ask for this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BaseKind {
    /// No `xml:base` in scope and the document has no URL.
    Missing,
    /// An `xml:base` in scope could not be resolved; `at` is its value.
    Broken { at: Range<usize> },
    /// A hierarchical URL of this scheme: every relative path, query or
    /// fragment joins onto it.
    Hierarchical { scheme: Arc<str> },
    /// A URL that is not hierarchical (`urn:`, `mailto:`, `tag:`): an
    /// absolute `xml:base` or the document's URL, never longer than that.
    Opaque(Arc<Url>),
}

impl BaseKind {
    pub fn of(base: &Base) -> BaseKind {
        match base {
            Base::Missing => BaseKind::Missing,
            Base::Broken { at } => BaseKind::Broken { at: at.clone() },
            Base::Known(url) if url.cannot_be_a_base() => BaseKind::Opaque(Arc::new(url.clone())),
            Base::Known(url) => BaseKind::Hierarchical {
                scheme: url.scheme().into(),
            },
        }
    }

    /// Whether a reference joins onto this base: a network-path reference
    /// (`//host/...`) brings an authority of its own, which must make a URL
    /// with the base's scheme.
    pub fn joins(&self, reference: &str) -> bool {
        match self {
            BaseKind::Hierarchical { scheme } if reference.starts_with("//") => {
                Url::parse(&format!("{scheme}:{reference}")).is_ok()
            }
            BaseKind::Hierarchical { .. } => true,
            _ => false,
        }
    }
}

/// An element's text, trimmed, and where it stands in the document.
#[derive(Debug, Clone)]
pub struct Text<'a> {
    pub value: &'a str,
    /// The trimmed text, or the start tag of an empty element.
    pub range: Range<usize>,
}

impl<'a> Text<'a> {
    pub fn of(node: Node<'a, '_>) -> Text<'a> {
        let Some(child) = node.first_child().filter(Node::is_text) else {
            return Text {
                value: "",
                range: start_tag(node),
            };
        };
        let value = child.text().unwrap_or_default().trim();
        if value.is_empty() {
            return Text {
                value,
                range: start_tag(node),
            };
        }
        let input = node.document().input_text();
        // Text written plainly is a slice of the document: its place is
        // where the slice is. Decoded text (references, CDATA) is placed
        // by trimming what is written.
        let offset = (value.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
        let range = if offset <= input.len() && value.len() <= input.len() - offset {
            offset..offset + value.len()
        } else {
            let range = child.range();
            let raw = &input[range.clone()];
            let lead = raw.len() - raw.trim_start().len();
            let trail = raw.len() - raw.trim_end().len();
            range.start + lead..range.end - trail
        };
        Text { value, range }
    }
}

/// The text of the first child element of `parent` with this name.
pub fn child_text<'a>(parent: Node<'a, '_>, namespace: Option<&str>, name: &str) -> Option<Text<'a>> {
    parent
        .children()
        .find(|n| n.has_tag_name(namespace, name))
        .map(Text::of)
}

/// An Atom entry or an RSS item, with its identity and update time.
/// A feed keeps one per entry while it is checked, so the id and update
/// time are kept as their elements (a word each), their texts read when
/// asked: 56 bytes an entry instead of 112.
#[derive(Debug, Clone)]
pub struct Entry<'a, 'input> {
    pub node: Node<'a, 'input>,
    /// `atom:id`, or the RSS `guid`.
    id_element: Option<NodeId>,
    /// `atom:updated`; RSS defines no update time for items.
    updated_element: Option<NodeId>,
    /// `updated` as an instant, when it is a valid date.
    pub updated_at: Option<Instant>,
}

/// The names an entry is read by, looked up once per document: each child
/// is then matched by its name's number, not its text.
struct EntryNames {
    entry: Option<usize>,
    id: Option<usize>,
    updated: Option<usize>,
}

impl EntryNames {
    fn of(xml: &Document<'_>, kind: DocKind) -> Self {
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
    fn of(names: &EntryNames, node: Node<'a, 'input>) -> Option<Self> {
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

    fn text_of(&self, element: NodeId) -> Text<'a> {
        let element = self.node.document().get_node(element);
        Text::of(element.expect("an element of the entry's own document"))
    }
}

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
    fn of(xml: &Document<'_>) -> Self {
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
}

/// The children RFC 4287 defines for each Atom container, as bit sets of
/// [`AtomName`]s.
const fn name_set(names: &[AtomName]) -> u32 {
    let mut set = 0;
    let mut i = 0;
    while i < names.len() {
        set |= 1 << names[i] as u32;
        i += 1;
    }
    set
}
const SOURCE_CHILDREN: u32 = name_set(&[
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
const FEED_CHILDREN: u32 = SOURCE_CHILDREN | name_set(&[AtomName::Entry]);
const ENTRY_CHILDREN: u32 = name_set(&[
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
const PERSON_CHILDREN: u32 = name_set(&[AtomName::Name, AtomName::Uri, AtomName::Email]);

/// What each container may hold at most once (RFC 4287 §4.1.1, §4.1.2,
/// §3.2); RFC 4287 sets no such limit on `atom:source`.
const ONCE_IN_FEED: u32 = name_set(&[
    AtomName::Generator,
    AtomName::Icon,
    AtomName::Id,
    AtomName::Logo,
    AtomName::Rights,
    AtomName::Subtitle,
    AtomName::Title,
    AtomName::Updated,
]);
const ONCE_IN_ENTRY: u32 = name_set(&[
    AtomName::Content,
    AtomName::Id,
    AtomName::Published,
    AtomName::Rights,
    AtomName::Source,
    AtomName::Summary,
    AtomName::Title,
    AtomName::Updated,
]);
const ONCE_IN_PERSON: u32 = PERSON_CHILDREN;

/// What a name of the document is to Atom's rules: one of the
/// [`AtomName`]s, another name in the Atom namespace, or neither.
#[derive(Clone, Copy, PartialEq, Eq)]
enum AtomClass {
    Known(AtomName),
    OtherAtom,
    Foreign,
}

/// One pass over the containers' children, each classified by a table
/// lookup on its name's number.
/// The parts of an Atom Feed Document (its `head`, then its entries) or an
/// Atom Entry Document (its one entry, without a head).
fn gather_atom_parts<'a, 'input>(feed: &FeedDoc<'a, 'input>, head: Option<Node<'a, 'input>>) -> AtomParts<'a, 'input> {
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
    let mut at = 0;
    while at < containers.len() {
        let (container, allowed, once) = containers[at];
        at += 1;
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

/// One `atom:link`, with what the rules need of it.
#[derive(Debug, Clone)]
pub struct Link<'a, 'input> {
    pub node: Node<'a, 'input>,
    pub rel: Rel,
    pub rel_range: Option<Range<usize>>,
    pub href: Option<&'a str>,
    pub href_range: Option<Range<usize>>,
    /// The absolute target with any fragment removed, when it resolves.
    pub target: Option<Url>,
}

impl Link<'_, '_> {
    /// What findings about the link point at: its `href`, else its start tag.
    pub fn span(&self) -> Range<usize> {
        self.href_range.clone().unwrap_or_else(|| start_tag(self.node))
    }

    /// What findings about the relation point at.
    pub fn rel_span(&self) -> Range<usize> {
        self.rel_range.clone().unwrap_or_else(|| start_tag(self.node))
    }

    /// The key two targets are compared by: the resolved IRI in its
    /// comparable form, else the `href` with its percent-encoding normalized
    /// (for documents without a URL).
    pub fn target_key(&self) -> Option<Cow<'_, str>> {
        match (&self.target, self.href) {
            (Some(url), _) => Some(Cow::Borrowed(url.as_str())),
            (None, href) => href.map(iri::normalize_percent_encoding),
        }
    }
}

/// A parsed feed document as the rules see it.
pub struct FeedDoc<'a, 'input> {
    pub xml: &'a Document<'input>,
    pub kind: DocKind,
    pub root: Node<'a, 'input>,
    /// `atom:feed`, or the RSS `channel`; `None` for Deleted Entry Documents
    /// and channel-less RSS.
    pub head: Option<Node<'a, 'input>>,
    pub url: Option<&'a Url>,
    /// The URL as link targets are compared with it ([`iri::comparison_key`]).
    url_key: Option<Cow<'a, str>>,
    /// Head-section `atom:link` elements, in document order.
    pub links: Vec<Link<'a, 'input>>,
    /// Head-section `fh:complete` and `fh:archive` elements.
    pub complete: Vec<Node<'a, 'input>>,
    pub archive: Vec<Node<'a, 'input>>,
    /// The entries: `atom:entry` children of the feed, or RSS `item`s.
    pub entries: Vec<Entry<'a, 'input>>,
    /// What the rules look at anywhere in the document, gathered in one
    /// pass over its nodes so that no rule walks the whole tree again.
    pub everywhere: Gathered<'a, 'input>,
    /// The base URI made by each element that carries an `xml:base`
    /// (behind a lock: a large document's rules run on several threads).
    bases: Mutex<FastMap<NodeId, Arc<Base>>>,
    /// The kind of base each element that carries an `xml:base` makes.
    base_kinds: Mutex<FastMap<NodeId, BaseKind>>,
    /// The base URI outside every `xml:base`: the document's URL.
    pub document_base: Arc<Base>,
    /// Where the first `self` link is in `links`: asked for per link, so
    /// found once (a head may hold 100,000 links).
    self_index: Option<usize>,
    /// The Atom names the core rules match children by.
    pub atom_names: AtomNames,
    atom_parts: OnceLock<AtomParts<'a, 'input>>,
}

/// An attribute whose value must be an IRI reference, checked once.
#[derive(Clone, Copy)]
pub struct IriAttribute<'a, 'input> {
    pub node: Node<'a, 'input>,
    pub attribute: Attribute<'a, 'input>,
    /// Whether the value is a syntactically valid IRI reference.
    pub valid: bool,
    /// Whether it is an `xml:base` (else an `href` or a `ref`).
    pub is_base: bool,
}

/// Where [`Gathered`] found an IRI attribute on its element.
#[derive(Debug, Clone, Copy)]
struct IriPlace {
    /// The attribute's index in the document.
    attribute: u32,
    valid: bool,
    is_base: bool,
}

/// Elements and attributes found anywhere in the document, in document
/// order. Kept compactly (4 bytes a node): a large feed has hundreds of
/// thousands of links and dates.
#[derive(Default)]
pub struct Gathered<'a, 'input> {
    /// The document, to read back the attributes kept by index.
    doc: Option<&'a Document<'input>>,
    /// Every element in the feed-history namespace.
    pub fh_elements: NodeList<'a, 'input>,
    /// Every `atom:link`: head section, entries, sources, deleted entries.
    pub atom_links: NodeList<'a, 'input>,
    /// For each of `atom_links`, its `href` and `rel` and whether it is an
    /// alternate link; read through [`Gathered::links`].
    link_attributes: Vec<LinkAttributes>,
    /// The `type`, `length` and `hreflang` attributes of the links, by
    /// their index in the document; read through [`Gathered::link_values`].
    link_values: Vec<(u32, LinkValue)>,
    /// The elements of the attributes whose value must be an IRI reference
    /// (`xml:base` anywhere, `href` on `atom:link`, `ref` on
    /// `at:deleted-entry`), and the attribute's place on it and its validity;
    /// read through [`Gathered::iri_attributes`].
    iri_elements: NodeList<'a, 'input>,
    iri_places: Vec<IriPlace>,
    /// Comments that start with `feedlint-disable`.
    pub suppressions: NodeList<'a, 'input>,
    /// Every `at:deleted-entry`, wherever it stands.
    pub tombstones: NodeList<'a, 'input>,
    /// Every `atom:id`, `atom:updated` and `atom:published`.
    pub atom_ids: NodeList<'a, 'input>,
    /// For each of `atom_ids`, whether no id rule has anything to say of
    /// it (see [`is_unremarkable_id`]); read through [`Gathered::remarkable_atom_ids`].
    unremarkable_ids: Vec<bool>,
    pub atom_dates: NodeList<'a, 'input>,
    /// Elements named like a feed-history, tombstone or Atom element that
    /// matters (`complete`, `archive`, `deleted-entry`, `link`) but in some
    /// other namespace.
    pub lookalikes: NodeList<'a, 'input>,
    /// The byte ranges of the outermost `atom:source` elements, in document
    /// order: what is inside one is the source feed's metadata.
    sources: Vec<Range<usize>>,
}

impl<'a, 'input> Gathered<'a, 'input> {
    /// Every attribute whose value must be an IRI reference, in document order.
    pub fn iri_attributes(&self) -> impl Iterator<Item = IriAttribute<'a, 'input>> + '_ {
        self.iri_elements.iter().zip(&self.iri_places).map(
            |(
                node,
                &IriPlace {
                    attribute,
                    valid,
                    is_base,
                },
            )| IriAttribute {
                node,
                attribute: self.attribute_at(attribute),
                valid,
                is_base,
            },
        )
    }

    fn attribute_at(&self, index: u32) -> Attribute<'a, 'input> {
        self.doc.expect("gathered from a document").attribute_at(index)
    }

    fn optional_attribute(&self, index: u32) -> Option<Attribute<'a, 'input>> {
        (index != ABSENT).then(|| self.attribute_at(index))
    }

    /// Every `atom:link` with its `href` and `rel`, in document order.
    pub fn links(&self) -> impl Iterator<Item = AtomLink<'a, 'input>> + '_ {
        self.atom_links
            .iter()
            .zip(&self.link_attributes)
            .map(|(node, attributes)| AtomLink {
                node,
                href: self.optional_attribute(attributes.href),
                rel: self.optional_attribute(attributes.rel),
                alternate: attributes.alternate,
            })
    }

    /// The `atom:id`s an id rule may remark on: all but the plainly valid,
    /// normalized ones (nearly all, in most feeds), in document order.
    pub fn remarkable_atom_ids(&self) -> impl Iterator<Item = Node<'a, 'input>> + '_ {
        self.atom_ids
            .iter()
            .zip(&self.unremarkable_ids)
            .filter_map(|(node, &unremarkable)| (!unremarkable).then_some(node))
    }

    /// Whether `node` stands inside an `atom:source`: a copy of the source
    /// feed's metadata (RFC 4287 §4.2.11), not the document's own. Found by
    /// a binary search over the sources' ranges, so asking for every node
    /// of a deeply nested document stays linear.
    pub fn in_atom_source(&self, node: Node<'_, '_>) -> bool {
        let start = node.range().start;
        let after = self.sources.partition_point(|source| source.start <= start);
        after > 0 && self.sources[after - 1].end > start && self.sources[after - 1].start < start
    }

    /// The `type`, `length` and `hreflang` attributes of every `atom:link`,
    /// with their element, in document order.
    pub fn link_values(&self) -> impl Iterator<Item = (LinkValue, Attribute<'a, 'input>)> + '_ {
        self.link_values
            .iter()
            .map(|&(index, kind)| (kind, self.attribute_at(index)))
    }

    /// The elements that carry an `xml:base`, in document order.
    pub fn xml_base_carriers(&self) -> impl Iterator<Item = Node<'a, 'input>> + '_ {
        self.iri_elements
            .iter()
            .zip(&self.iri_places)
            .filter_map(|(node, place)| place.is_base.then_some(node))
    }

    fn of(xml: &'a Document<'input>) -> Self {
        // The document's few distinct names, classified once: each element
        // is then one table lookup, not a comparison of its name's text.
        let classes: Vec<NameClass> = (0..xml.name_count()).map(|i| NameClass::of(xml.name_at(i))).collect();
        // The parser counted the elements of each name: every list is
        // allocated once, at its size, instead of growing as it fills.
        let mut sizes = [0; NameClass::COUNT];
        for (index, class) in classes.iter().enumerate() {
            sizes[*class as usize] += xml.elements_named(index);
        }
        let size = |class: NameClass| sizes[class as usize];
        let may_carry_iri = size(NameClass::AtomLink) + size(NameClass::Tombstone);
        let mut gathered = Gathered {
            doc: Some(xml),
            fh_elements: NodeList::with_capacity(size(NameClass::History)),
            atom_links: NodeList::with_capacity(size(NameClass::AtomLink)),
            link_attributes: Vec::with_capacity(size(NameClass::AtomLink)),
            // Most links carry a type or a length (an enclosure both).
            link_values: Vec::with_capacity(size(NameClass::AtomLink)),
            iri_elements: NodeList::with_capacity(may_carry_iri),
            iri_places: Vec::with_capacity(may_carry_iri),
            suppressions: NodeList::default(),
            tombstones: NodeList::with_capacity(size(NameClass::Tombstone)),
            atom_ids: NodeList::with_capacity(size(NameClass::AtomId)),
            unremarkable_ids: Vec::with_capacity(size(NameClass::AtomId)),
            atom_dates: NodeList::with_capacity(size(NameClass::AtomDate)),
            lookalikes: NodeList::with_capacity(size(NameClass::Lookalike)),
            sources: Vec::new(),
        };
        // Where the text construct the walk is in ends: an atom:updated or
        // atom:link quoted in XHTML content is content (RFC 4287 §4.1.3.3),
        // which no metadata rule reads.
        let mut content_end = 0;
        for node in xml.descendants() {
            if node.is_comment() {
                if node
                    .text()
                    .is_some_and(|t| t.trim_start().starts_with(crate::suppress::PREFIX))
                {
                    gathered.suppressions.push(node);
                }
                continue;
            }
            let Some(name) = node.name_index() else {
                continue;
            };
            let class = if node.range().start < content_end {
                NameClass::Other
            } else {
                classes[name]
            };
            let (is_link, is_tombstone) = (class == NameClass::AtomLink, class == NameClass::Tombstone);
            match class {
                NameClass::AtomText => content_end = node.range().end,
                NameClass::AtomLink => gathered.atom_links.push(node),
                NameClass::AtomId => {
                    gathered.atom_ids.push(node);
                    let value = node.text().unwrap_or_default().trim();
                    gathered.unremarkable_ids.push(is_unremarkable_id(value));
                }
                NameClass::AtomDate => gathered.atom_dates.push(node),
                NameClass::Tombstone => gathered.tombstones.push(node),
                NameClass::History => gathered.fh_elements.push(node),
                NameClass::Lookalike => gathered.lookalikes.push(node),
                NameClass::AtomSource => {
                    // A source inside another adds nothing to the outer one.
                    let range = node.range();
                    if gathered.sources.last().is_none_or(|outer| outer.end <= range.start) {
                        gathered.sources.push(range);
                    }
                }
                NameClass::Other => {}
            }
            // Only these elements can carry an attribute that must be an IRI.
            if !(is_link || is_tombstone || node.has_xml_base()) {
                continue;
            }
            let mut link = LinkAttributes {
                href: ABSENT,
                rel: ABSENT,
                alternate: true,
            };
            for (index, attribute) in node.indexed_attributes() {
                let (carries_iri, is_base) = match (attribute.namespace(), attribute.name()) {
                    (Some(XML_NS), "base") => (true, true),
                    (None, "href") => {
                        if is_link && link.href == ABSENT {
                            link.href = index;
                        }
                        (is_link, false)
                    }
                    (None, "ref") => (is_tombstone, false),
                    (None, "rel") => {
                        link.rel = index;
                        // Only a value ending in "alternate" can name it.
                        let value = attribute.value().as_bytes();
                        link.alternate = value.len() >= 9
                            && value[value.len() - 9..].eq_ignore_ascii_case(b"alternate")
                            && Rel::of(Some(attribute.value())).as_str() == "alternate";
                        (false, false)
                    }
                    (None, name @ ("type" | "length" | "hreflang")) if is_link => {
                        let kind = match name {
                            "type" => LinkValue::Type,
                            "length" => LinkValue::Length,
                            _ => LinkValue::Hreflang,
                        };
                        gathered.link_values.push((index, kind));
                        (false, false)
                    }
                    _ => (false, false),
                };
                if carries_iri {
                    gathered.iri_elements.push(node);
                    gathered.iri_places.push(IriPlace {
                        attribute: index,
                        valid: iri::check_iri_reference(attribute.value()).is_ok(),
                        is_base,
                    });
                }
            }
            if is_link {
                gathered.link_attributes.push(link);
            }
        }
        gathered
    }
}

/// An `atom:link` with the attributes most rules read, found in the pass
/// over all nodes.
#[derive(Clone, Copy)]
pub struct AtomLink<'a, 'input> {
    pub node: Node<'a, 'input>,
    pub href: Option<Attribute<'a, 'input>>,
    pub rel: Option<Attribute<'a, 'input>>,
    /// No `rel`, or `rel="alternate"` (RFC 4287 §4.2.7.2).
    pub alternate: bool,
}

/// What [`Gathered::links`] reads a link by: attribute indexes in the
/// document ([`ABSENT`] for none), 12 bytes a link.
#[derive(Clone, Copy)]
struct LinkAttributes {
    href: u32,
    rel: u32,
    alternate: bool,
}

const ABSENT: u32 = u32::MAX;

/// Whether an `atom:id`'s text is one that no id rule (`atom-invalid-id`,
/// `atom-id-not-normalized`, `malformed-uuid-urn`) remarks on: a plain
/// absolute IRI without an authority ([`iri::is_plain_absolute_iri`]: it
/// holds no `%`, so its only normalization is a lowercase scheme), with a
/// lowercase scheme, and no UUID URN to check. Decided once in the pass
/// over all nodes instead of by each rule.
fn is_unremarkable_id(value: &str) -> bool {
    iri::is_plain_absolute_iri(value)
        && !value.bytes().take_while(|&b| b != b':').any(|b| b.is_ascii_uppercase())
        && !value.get(..9).is_some_and(|p| p.eq_ignore_ascii_case("urn:uuid:"))
}

/// Which of an `atom:link`'s constrained attributes one is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkValue {
    Type,
    Length,
    Hreflang,
}

/// What [`Gathered::of`] does with an element of a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NameClass {
    AtomLink,
    AtomId,
    /// `atom:updated`, `atom:published`.
    AtomDate,
    AtomSource,
    /// `atom:title`, `subtitle`, `summary`, `rights`, `content`: what is
    /// inside them is content (XHTML, or markup that should not be there),
    /// never the feed's metadata.
    AtomText,
    Tombstone,
    /// Any element in the feed-history namespace.
    History,
    /// Named like a feed-history, tombstone or Atom element that matters,
    /// in another namespace.
    Lookalike,
    Other,
}

impl NameClass {
    fn of(name: ExpandedName<'_>) -> Self {
        match (name.namespace(), name.name()) {
            (Some(ATOM_NS), "link") => NameClass::AtomLink,
            (Some(ATOM_NS), "id") => NameClass::AtomId,
            (Some(ATOM_NS), "updated" | "published") => NameClass::AtomDate,
            (Some(ATOM_NS), "source") => NameClass::AtomSource,
            (Some(ATOM_NS), "title" | "subtitle" | "summary" | "rights" | "content") => NameClass::AtomText,
            (Some(ATOM_NS), _) => NameClass::Other,
            (Some(AT_NS), "deleted-entry") => NameClass::Tombstone,
            (Some(AT_NS), _) => NameClass::Other,
            (Some(FH_NS), _) => NameClass::History,
            (Some(_), "complete" | "archive" | "deleted-entry" | "link") => NameClass::Lookalike,
            _ => NameClass::Other,
        }
    }

    const COUNT: usize = NameClass::Other as usize + 1;
}

/// Documents at least this large are read on all cores: the pass over all
/// nodes beside the pass over the head section, and the rules beside the
/// summary and each other. Below it, the documents of a run keep the cores
/// busy and splitting one would only add overhead.
pub const LARGE_DOCUMENT: usize = 1024 * 1024;

/// Runs two closures, on two threads for a large document.
pub fn both<A: Send, B: Send>(large: bool, a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    if large {
        rayon::join(a, b)
    } else {
        (a(), b())
    }
}

/// The head section's children that the rules read.
#[derive(Default)]
struct HeadParts<'a, 'input> {
    links: Vec<Link<'a, 'input>>,
    complete: Vec<Node<'a, 'input>>,
    archive: Vec<Node<'a, 'input>>,
    entries: Vec<Entry<'a, 'input>>,
}

impl<'a, 'input> FeedDoc<'a, 'input> {
    pub fn new(xml: &'a Document<'input>, kind: DocKind, url: Option<&'a Url>) -> Self {
        let mut doc = Self::bare(xml, kind, url, AtomNames::of(xml));
        let large = xml.input_text().len() >= LARGE_DOCUMENT;
        let (everywhere, parts) = both(large, || Gathered::of(xml), || doc.head_parts());
        let HeadParts {
            links,
            complete,
            archive,
            entries,
        } = parts;
        doc.everywhere = everywhere;
        doc.self_index = links.iter().position(|l| l.rel == Rel::Itself);
        (doc.links, doc.complete, doc.archive, doc.entries) = (links, complete, archive, entries);
        if kind == DocKind::AtomEntry {
            // The document's one entry is its root.
            doc.entries.extend(Entry::of(&EntryNames::of(xml, kind), doc.root));
        }
        doc
    }

    /// Where the first `self` link of the head section points, resolved
    /// against `url`, found without gathering anything else: the run reads
    /// it to learn where a document is published before linting it.
    pub fn self_target(xml: &'a Document<'input>, kind: DocKind, url: Option<&'a Url>) -> Option<Url> {
        // Links are found by namespace and name: no Atom name is looked up.
        let doc = Self::bare(xml, kind, url, AtomNames::default());
        let link = doc
            .head?
            .children()
            .filter(|child| is_atom_link(*child))
            .find(|child| Rel::of(child.attribute("rel")) == Rel::Itself)?;
        doc.link(link).target
    }

    /// The document with its root and head found and nothing gathered.
    fn bare(xml: &'a Document<'input>, kind: DocKind, url: Option<&'a Url>, atom_names: AtomNames) -> Self {
        let root = xml.root_element();
        let head = match kind {
            DocKind::Atom => Some(root),
            DocKind::Rss => root.children().find(|n| n.has_tag_name(None, "channel")),
            DocKind::DeletedEntry | DocKind::AtomEntry => None,
        };
        FeedDoc {
            xml,
            kind,
            root,
            head,
            url,
            url_key: url.map(iri::comparison_key),
            links: Vec::new(),
            complete: Vec::new(),
            archive: Vec::new(),
            entries: Vec::new(),
            everywhere: Gathered::default(),
            bases: Mutex::new(FastMap::default()),
            base_kinds: Mutex::new(FastMap::default()),
            document_base: Arc::new(url.cloned().map_or(Base::Missing, Base::Known)),
            self_index: None,
            atom_names,
            atom_parts: OnceLock::new(),
        }
    }

    fn head_parts(&self) -> HeadParts<'a, 'input> {
        let mut parts = HeadParts::default();
        let Some(head) = self.head else {
            return parts;
        };
        let entries = match self.kind {
            DocKind::Rss => self.xml.count_elements(None, "item"),
            _ => self.xml.count_elements(Some(ATOM_NS), "entry"),
        };
        parts.entries.reserve_exact(entries);
        let names = EntryNames::of(self.xml, self.kind);
        // Entries first: they are most of the children, and tell themselves
        // by their name's number, not its text.
        for child in head.children().filter(Node::is_element) {
            if let Some(entry) = Entry::of(&names, child) {
                parts.entries.push(entry);
            } else if is_atom_link(child) {
                parts.links.push(self.link(child));
            } else if is(child, FH_NS, "complete") {
                parts.complete.push(child);
            } else if is(child, FH_NS, "archive") {
                parts.archive.push(child);
            }
        }
        parts
    }

    /// Reads an `atom:link` anywhere in the document.
    pub fn link(&self, node: Node<'a, 'input>) -> Link<'a, 'input> {
        let href = node.attribute("href");
        let target = href.and_then(|href| self.resolve(node, href).ok());
        Link {
            node,
            rel: Rel::of(node.attribute("rel")),
            rel_range: attribute_value_range(node, "rel"),
            href,
            href_range: attribute_value_range(node, "href"),
            target,
        }
    }

    /// Resolves a reference found on `node` (its own `xml:base` applies, as
    /// XML Base says for attributes of the element that carries it).
    pub fn resolve(&self, node: Node<'a, 'input>, reference: &str) -> Result<Url, Base> {
        if iri::check_iri_reference(reference).is_err() {
            return Err(Base::Missing);
        }
        if iri::has_scheme(reference) {
            return Url::parse(reference).map(iri::comparable).map_err(|_| Base::Missing);
        }
        match &*self.base(node) {
            Base::Known(base) => base
                .join(reference)
                .map(iri::comparable)
                .map_err(|_| Base::Known(base.clone())),
            other => Err(other.clone()),
        }
    }

    /// The base URI in scope at `node`, its own `xml:base` included.
    /// Each `xml:base` is resolved once per document and remembered, so a
    /// feed with 100,000 relative links under one `xml:base` parses it once
    /// (and shares it: the base is not copied per link).
    pub fn base(&self, node: Node<'a, 'input>) -> Arc<Base> {
        // The elements that carry an xml:base, innermost first, down to the
        // nearest one already resolved.
        let mut chain = Vec::new();
        let mut base = None;
        {
            let cache = self.bases.lock().unwrap_or_else(PoisonError::into_inner);
            for carrier in node.ancestors().filter(Node::has_xml_base) {
                if let Some(known) = cache.get(&carrier.id()) {
                    base = Some(known.clone());
                    break;
                }
                chain.push(carrier);
            }
        }
        let mut base = base.unwrap_or_else(|| self.document_base.clone());
        for carrier in chain.into_iter().rev() {
            base = Arc::new(self.resolve_base(&base, carrier));
            self.bases
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(carrier.id(), base.clone());
        }
        base
    }

    /// The kind of base URI in scope at `node`, its own `xml:base`
    /// included, worked out without building it: in time and memory linear
    /// in the number of `xml:base`s, however deeply they nest.
    pub fn base_kind(&self, node: Node<'a, 'input>) -> BaseKind {
        let mut chain = Vec::new();
        let mut kinds = self.base_kinds.lock().unwrap_or_else(PoisonError::into_inner);
        let mut kind = None;
        for carrier in node.ancestors().filter(Node::has_xml_base) {
            if let Some(known) = kinds.get(&carrier.id()) {
                kind = Some(known.clone());
                break;
            }
            chain.push(carrier);
        }
        let mut kind = kind.unwrap_or_else(|| BaseKind::of(&self.document_base));
        for carrier in chain.into_iter().rev() {
            kind = Self::carrier_kind(kind, carrier);
            kinds.insert(carrier.id(), kind.clone());
        }
        kind
    }

    /// The kind of base an element's own `xml:base` makes, from its
    /// parent's: what [`Self::resolve_base`] would build.
    fn carrier_kind(parent: BaseKind, carrier: Node<'a, 'input>) -> BaseKind {
        let Some(attribute) = carrier.attribute_node((XML_NS, "base")) else {
            return parent;
        };
        let value = attribute.value();
        let broken = || BaseKind::Broken {
            at: attribute.range_value(),
        };
        if iri::check_iri_reference(value).is_err() {
            broken()
        } else if iri::has_scheme(value) {
            Url::parse(value).map_or_else(|_| broken(), |url| BaseKind::of(&Base::Known(url)))
        } else {
            match parent {
                BaseKind::Broken { .. } => parent,
                // A relative reference joined onto a hierarchical URL keeps
                // its scheme and stays hierarchical.
                BaseKind::Hierarchical { .. } if parent.joins(value) => parent,
                _ => broken(),
            }
        }
    }

    /// The base URI an element's own `xml:base` makes, from its parent's.
    fn resolve_base(&self, parent: &Base, carrier: Node<'a, 'input>) -> Base {
        let Some(attribute) = carrier.attribute_node((XML_NS, "base")) else {
            return parent.clone();
        };
        let value = attribute.value();
        let next = if iri::check_iri_reference(value).is_err() {
            None
        } else if iri::has_scheme(value) {
            Url::parse(value).ok()
        } else {
            match parent {
                Base::Known(url) if !url.cannot_be_a_base() => url.join(value).ok(),
                Base::Broken { .. } => return parent.clone(),
                _ => None,
            }
        };
        next.map_or_else(
            || Base::Broken {
                at: attribute.range_value(),
            },
            Base::Known,
        )
    }

    /// The first `self` link's target.
    pub fn self_link(&self) -> Option<&Link<'a, 'input>> {
        self.self_index.map(|i| &self.links[i])
    }

    pub fn links_with(&self, rel: Relation) -> impl Iterator<Item = &Link<'a, 'input>> + '_ {
        self.links.iter().filter(move |l| l.rel == rel)
    }

    pub fn first_link(&self, rel: Relation) -> Option<&Link<'a, 'input>> {
        self.links.iter().find(|l| l.rel == rel)
    }

    pub fn has_link(&self, rel: Relation) -> bool {
        self.first_link(rel).is_some()
    }

    /// Whether a link points at this very document: its URL or its `self` IRI.
    pub fn is_self_target(&self, link: &Link<'_, '_>) -> bool {
        let Some(key) = link.target_key() else {
            return false;
        };
        self.url_key.as_deref() == Some(&*key)
            || self
                .self_link()
                .filter(|s| !std::ptr::eq(*s, link))
                .and_then(Link::target_key)
                .is_some_and(|self_key| self_key == key)
    }

    /// Whether `link` leads to a document other than this one.
    pub fn points_elsewhere(&self, link: &Link<'_, '_>) -> bool {
        link.target_key().is_some() && !self.is_self_target(link)
    }

    /// The text, person and category children of the Atom feed, its
    /// entries and their sources (empty for other documents).
    pub fn atom_parts(&self) -> &AtomParts<'a, 'input> {
        self.atom_parts.get_or_init(|| match self.kind {
            DocKind::Atom => gather_atom_parts(self, self.head),
            DocKind::AtomEntry => gather_atom_parts(self, None),
            _ => AtomParts::default(),
        })
    }

    /// Whether `node` is a direct child of the head section.
    pub fn in_head(&self, node: Node<'_, '_>) -> bool {
        self.head
            .is_some_and(|head| node.parent_element().is_some_and(|p| p.id() == head.id()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_its_id_and_update_time_from_its_elements() {
        let text = "<feed xmlns='http://www.w3.org/2005/Atom'><entry><title>t</title>\
            <id> tag:example.org,2024:1 </id><updated>2024-01-02T03:04:05Z</updated></entry>\
            <entry><id>tag:example.org,2024:2</id></entry></feed>";
        let xml = crate::xml::parse(text).unwrap();
        let feed = FeedDoc::new(&xml, DocKind::Atom, None);
        let [first, second] = &feed.entries[..] else {
            panic!("two entries: {:?}", feed.entries);
        };
        let id = first.id().unwrap();
        assert_eq!(
            (id.value, &text[id.range.clone()]),
            ("tag:example.org,2024:1", "tag:example.org,2024:1")
        );
        assert_eq!(first.updated().unwrap().value, "2024-01-02T03:04:05Z");
        assert!(first.updated_at.is_some() && first.has_updated());
        assert_eq!(second.id().unwrap().value, "tag:example.org,2024:2");
        assert!(second.updated().is_none() && second.updated_at.is_none() && !second.has_updated());
        // Kept per entry of a feed while it is checked: two words for the
        // id and update time, not two texts (sizes of a 64-bit target).
        if cfg!(target_pointer_width = "64") {
            assert_eq!(std::mem::size_of::<Entry>(), 56);
        }
    }

    #[test]
    fn unremarkable_ids_are_valid_normalized_and_not_uuid_urns() {
        for id in [
            "tag:example.org,2024:post-1",
            "TAG:example.org,2024:post-1",
            "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a",
            "URN:UUID:x",
            "http://example.org/a",
            "tag:a%2fb",
            "tag:a b",
            "posts/1",
            "x-y:a#b",
            "",
        ] {
            if is_unremarkable_id(id) {
                assert!(iri::check_iri_reference(id).is_ok() && iri::has_scheme(id), "{id}");
                assert!(iri::id_normalization(id).is_none(), "{id}");
                assert!(!id.to_ascii_lowercase().starts_with("urn:uuid:"), "{id}");
            }
        }
        assert!(is_unremarkable_id("tag:example.org,2024:post-1"));
        assert!(
            !is_unremarkable_id("TAG:example.org,2024:post-1"),
            "the scheme's case is a remark"
        );
    }

    #[test]
    fn near_misses_name_the_intended_namespace() {
        for miss in [
            "https://purl.org/syndication/history/1.0",
            "http://purl.org/syndication/history/1.0/",
            "http://purl.org/syndication/history",
            "http://purl.org/syndication/history/2.0",
            "http://PURL.org/syndication/History/1.0",
            "http://www.purl.org/syndication/history/1.0#",
        ] {
            assert_eq!(intended_namespace(miss), Some(FH_NS), "{miss}");
        }
        assert_eq!(intended_namespace("http://www.w3.org/2005/atom"), Some(ATOM_NS));
        assert_eq!(
            intended_namespace("http://purl.org/atompub/tombstones/1.0/"),
            Some(AT_NS)
        );
        for other in [
            FH_NS,
            ATOM_NS,
            "http://www.w3.org/2005",
            "http://purl.org/atom/ns#",
            "http://example.org/tasks",
        ] {
            assert_eq!(intended_namespace(other), None, "{other}");
        }
    }

    #[test]
    fn relations_are_normalized() {
        assert_eq!(normalize_relation(None), "alternate");
        assert_eq!(normalize_relation(Some("Prev-Archive")), "prev-archive");
        assert_eq!(
            normalize_relation(Some("http://www.iana.org/assignments/relation/next")),
            "next"
        );
        assert_eq!(
            normalize_relation(Some("http://example.org/Rel")),
            "http://example.org/Rel"
        );
    }
}

#[cfg(test)]
mod relation_tests {
    use super::{normalize_relation, Rel, Relation};

    #[test]
    fn relations_read_as_rfc_5005_names_them() {
        for relation in Relation::ALL {
            assert_eq!(Relation::of(relation.as_str()), Some(relation));
            assert_eq!(Rel::of(Some(relation.as_str())), relation);
        }
        assert_eq!(Rel::of(Some("NEXT-Archive")), Relation::NextArchive);
        assert_eq!(Rel::of(Some("Self")), Rel::Itself);
        assert_eq!(Rel::of(Some("prev")), Rel::Other("prev".to_owned()));
        assert_eq!(Rel::of(None), Rel::Other("alternate".to_owned()));
        assert_eq!(
            Rel::of(Some("urn:X:Rel")).as_str(),
            "urn:X:Rel",
            "extension IRIs keep their case"
        );
        let registered = normalize_relation(Some("http://www.iana.org/assignments/relation/Prev-Archive"));
        assert_eq!(Relation::of(&registered), Some(Relation::PrevArchive));
        assert_eq!(Relation::of("prev"), None, "the alias is not a navigation relation");
        assert_eq!(Relation::NextArchive.to_string(), "next-archive");
    }
}
