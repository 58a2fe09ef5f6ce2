//! The parsed document: a compact tree of byte ranges into the input.
//!
//! Nodes are kept in document order in one vector, so a subtree is a run of
//! consecutive nodes and an element's first child, if any, is the node right
//! after it. Strings are ranges: into the input when the value is written
//! there as it is, into one arena otherwise (values with references, line
//! ends to normalize, or text from entity replacement). White space alone
//! between markup is not kept as a node: no rule reads it, and in an
//! indented feed it would be a third of the nodes.

use std::ops::Range;
use std::sync::OnceLock;

/// A string held by the document: a range of the input or of the arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Str {
    pub start: u32,
    pub end: u32,
    pub in_arena: bool,
}

impl Str {
    pub fn input(range: Range<usize>) -> Str {
        Str {
            start: range.start as u32,
            end: range.end as u32,
            in_arena: false,
        }
    }
}

/// An element's or attribute's name: namespace (0: none) and local name
/// (a range of `Tree::name_text`).
#[derive(Debug, Clone, Copy)]
pub(super) struct NameData {
    pub namespace: u32,
    pub start: u32,
    pub end: u32,
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Kind {
    Root,
    Element {
        name: u32,
        /// The first of this element's attributes in `Tree::attributes`
        /// (the last is marked), or [`NONE`].
        attributes: u32,
        /// The element has an `xml:base` attribute.
        has_base: bool,
    },
    Text(Str),
    /// Text with references, CDATA sections or line ends to normalize,
    /// decoded when first read into `Tree::decoded[index]`.
    RawText(u32),
    Comment(Str),
    ProcessingInstruction,
}

/// A node in 24 bytes: its range, parent and next sibling, and two words
/// whose meaning its kind (the top bits of the parent word) gives.
#[derive(Debug, Clone, Copy)]
pub(super) struct NodeData {
    /// What the node covers in the input: an element from its `<` through
    /// its end tag. A node made by an entity reference covers the reference.
    pub start: u32,
    pub end: u32,
    /// The kind's tag in the top three bits, the parent's id below.
    parent_and_tag: u32,
    /// [`NONE`] for the last child.
    pub next_sibling: u32,
    a: u32,
    b: u32,
}

/// Node ids take 29 bits: a document may have this many nodes (it would
/// take gigabytes of input to reach).
pub(super) const MAX_NODES: u32 = (1 << 29) - 1;
const NO_PARENT: u32 = MAX_NODES;
const TAG_SHIFT: u32 = 29;
const ROOT: u32 = 0;
const ELEMENT: u32 = 1;
/// Text that is exactly the node's range of the input.
const TEXT_INPUT: u32 = 2;
const TEXT_ARENA: u32 = 3;
const RAW_TEXT: u32 = 4;
/// A comment in the input: its text is the range less `<!--` and `-->`.
const COMMENT_INPUT: u32 = 5;
const COMMENT_ARENA: u32 = 6;
const PROCESSING_INSTRUCTION: u32 = 7;
/// In an element's name word: the element has an `xml:base`.
const HAS_BASE: u32 = 1 << 31;

impl NodeData {
    pub fn new(kind: Kind, start: u32, end: u32, parent: Option<u32>) -> Self {
        let (tag, a, b) = match kind {
            Kind::Root => (ROOT, 0, 0),
            Kind::Element {
                name,
                attributes,
                has_base,
            } => (ELEMENT, if has_base { name | HAS_BASE } else { name }, attributes),
            Kind::Text(s) if s.in_arena => (TEXT_ARENA, s.start, s.end),
            Kind::Text(s) => {
                debug_assert_eq!((s.start, s.end), (start, end));
                (TEXT_INPUT, 0, 0)
            }
            Kind::RawText(index) => (RAW_TEXT, index, 0),
            Kind::Comment(s) if s.in_arena => (COMMENT_ARENA, s.start, s.end),
            Kind::Comment(s) => {
                debug_assert_eq!((s.start, s.end), (start + 4, end - 3));
                (COMMENT_INPUT, 0, 0)
            }
            Kind::ProcessingInstruction => (PROCESSING_INSTRUCTION, 0, 0),
        };
        NodeData {
            start,
            end,
            parent_and_tag: parent.unwrap_or(NO_PARENT) | (tag << TAG_SHIFT),
            next_sibling: NONE,
            a,
            b,
        }
    }

    pub fn kind(&self) -> Kind {
        let arena = |start, end| Str {
            start,
            end,
            in_arena: true,
        };
        match self.parent_and_tag >> TAG_SHIFT {
            ROOT => Kind::Root,
            ELEMENT => Kind::Element {
                name: self.a & !HAS_BASE,
                attributes: self.b,
                has_base: self.a & HAS_BASE != 0,
            },
            TEXT_INPUT => Kind::Text(Str::input(self.start as usize..self.end as usize)),
            TEXT_ARENA => Kind::Text(arena(self.a, self.b)),
            RAW_TEXT => Kind::RawText(self.a),
            COMMENT_INPUT => Kind::Comment(Str::input(self.start as usize + 4..self.end as usize - 3)),
            COMMENT_ARENA => Kind::Comment(arena(self.a, self.b)),
            _ => Kind::ProcessingInstruction,
        }
    }

    pub fn parent(&self) -> u32 {
        match self.parent_and_tag & MAX_NODES {
            NO_PARENT => NONE,
            parent => parent,
        }
    }

    fn tag(&self) -> u32 {
        self.parent_and_tag >> TAG_SHIFT
    }

    /// Gives an element the name `remap` maps its name to.
    pub(super) fn rename(&mut self, remap: &[u32]) {
        if self.tag() == ELEMENT {
            self.a = remap[(self.a & !HAS_BASE) as usize] | (self.a & HAS_BASE);
        }
    }
}

pub(super) const NONE: u32 = u32::MAX;

/// An attribute in 12 bytes: its name and flags, and where its value is
/// written. A value that differs from what is written (references, white
/// space normalized) is kept in `Tree::attribute_values`: most values
/// are written as they are, and an attribute-heavy document would pay a
/// word for each.
#[derive(Debug, Clone, Copy)]
pub(super) struct AttributeData {
    /// The name's id, and the `SPECIFIED`, `LAST` and `NORMALIZED` flags in
    /// the top bits.
    name_and_flags: u32,
    /// The value as written, without quotes: in the start tag, in the
    /// default's literal in the internal subset, or the entity reference
    /// that made the element.
    pub value_start: u32,
    pub value_end: u32,
}

/// Written in the start tag (or made by an entity), not defaulted by the DTD.
const SPECIFIED: u32 = 1 << 29;
/// The element's last attribute.
const LAST: u32 = 1 << 30;
/// The value differs from what is written: see `Tree::attribute_values`.
const NORMALIZED: u32 = 1 << 31;
const NAME_BITS: u32 = SPECIFIED - 1;

/// Name ids take 29 bits, as node ids do.
pub(super) const MAX_NAMES: u32 = NAME_BITS;

impl AttributeData {
    /// `normalized`: the value is not the text written between
    /// `value_start` and `value_end` (it is in `Tree::attribute_values`).
    pub fn new(name: u32, (value_start, value_end): (u32, u32), normalized: bool, specified: bool) -> Self {
        debug_assert!(name <= NAME_BITS);
        let mut name_and_flags = name;
        if specified {
            name_and_flags |= SPECIFIED;
        }
        if normalized {
            name_and_flags |= NORMALIZED;
        }
        AttributeData {
            name_and_flags,
            value_start,
            value_end,
        }
    }

    pub fn name(&self) -> u32 {
        self.name_and_flags & NAME_BITS
    }

    /// Gives the attribute the name `remap` maps its name to.
    pub(super) fn rename(&mut self, remap: &[u32]) {
        self.name_and_flags = remap[self.name() as usize] | (self.name_and_flags & !NAME_BITS);
    }

    pub fn specified(&self) -> bool {
        self.name_and_flags & SPECIFIED != 0
    }

    pub fn last(&self) -> bool {
        self.name_and_flags & LAST != 0
    }

    pub fn mark_last(&mut self) {
        self.name_and_flags |= LAST;
    }
}

/// The first reference to an entity feedlint could not expand because its
/// declaration, if any, is in a part of the DTD it does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadEntity {
    pub name: String,
    pub range: Range<usize>,
    /// The entity is declared as external (its text is in another file).
    pub declared_external: bool,
}

/// A well-formed, namespace-well-formed document.
pub struct Tree<'input> {
    pub(super) text: &'input str,
    pub(super) nodes: Vec<NodeData>,
    pub(super) attributes: Vec<AttributeData>,
    /// Attribute values that differ from what is written (references,
    /// white space normalized), in the arena, by the attribute's index in
    /// `attributes` (ascending: attributes are added in order).
    pub(super) attribute_values: Vec<(u32, Str)>,
    pub(super) names: Vec<NameData>,
    /// How many elements have each name: what a reader of the tree can
    /// size its lists by before it walks.
    pub(super) name_uses: Vec<u32>,
    /// Namespace names; index 0 is "no namespace".
    pub(super) namespaces: StringTable,
    pub(super) arena: String,
    /// Every distinct local name, once.
    pub(super) name_text: String,
    /// The decoded values of [`Kind::RawText`] nodes, each made once when
    /// first read (a large document's rules read it from several threads).
    pub(super) decoded: Vec<OnceLock<Box<str>>>,
    pub(super) unread_entity: Option<UnreadEntity>,
    /// The errors read past, where the tree was parsed recovering (see
    /// [`super::parse_recovering`]); none otherwise.
    pub(crate) recovered: Vec<Recovered>,
    /// The namespace names read as others ([`Tree::alias_namespaces`]):
    /// each as written, and what it is read as.
    pub(super) aliases: Vec<(String, &'static str)>,
}

impl std::fmt::Debug for Tree<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tree({} nodes)", self.nodes.len())
    }
}

/// Nodes of one document, kept in 4 bytes each (a rule's list of every
/// `atom:link` of a large feed would otherwise take 16 bytes a link).
#[derive(Clone, Default)]
pub struct NodeList<'a, 'input> {
    doc: Option<&'a Tree<'input>>,
    ids: Vec<u32>,
}

impl<'a, 'input> NodeList<'a, 'input> {
    /// An empty list with room for `n` nodes.
    pub fn with_capacity(n: usize) -> Self {
        NodeList {
            doc: None,
            ids: Vec::with_capacity(n),
        }
    }

    pub fn push(&mut self, node: Node<'a, 'input>) {
        self.doc = Some(node.doc);
        self.ids.push(node.id);
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    pub fn get(&self, index: usize) -> Option<Node<'a, 'input>> {
        Some(self.doc?.node(*self.ids.get(index)?))
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Node<'a, 'input>> + ExactSizeIterator + '_ {
        self.ids.iter().map(|&id| self.doc.expect("a node was pushed").node(id))
    }
}

impl std::fmt::Debug for NodeList<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Strings kept in one string, by index.
#[derive(Debug, Default)]
pub(crate) struct StringTable {
    text: String,
    spans: Vec<(u32, u32)>,
}

impl StringTable {
    /// Adds a string; its index.
    pub fn push(&mut self, s: &str) -> u32 {
        let start = self.text.len() as u32;
        self.text.push_str(s);
        self.spans.push((start, self.text.len() as u32));
        self.spans.len() as u32 - 1
    }

    #[inline(always)]
    pub fn get(&self, index: u32) -> &str {
        let (start, end) = self.spans[index as usize];
        &self.text[start as usize..end as usize]
    }

    /// A string's bytes: compared without slicing the text at character
    /// boundaries, which is checked on every slice of a `str`.
    #[inline]
    pub fn bytes(&self, index: u32) -> &[u8] {
        let (start, end) = self.spans[index as usize];
        &self.text.as_bytes()[start as usize..end as usize]
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Makes string `index` read as `s` from now on.
    pub(super) fn replace(&mut self, index: u32, s: &str) {
        let start = self.text.len() as u32;
        self.text.push_str(s);
        self.spans[index as usize] = (start, self.text.len() as u32);
    }
}

/// A node's index in its document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    pub fn get(self) -> usize {
        self.0 as usize
    }
}

impl<'input> Tree<'input> {
    /// The well-formedness errors the parse read past (see
    /// [`super::parse_recovering`]): the document is not well-formed if
    /// there are any.
    pub fn recovered(&self) -> &[Recovered] {
        &self.recovered
    }

    pub(super) fn str(&self, s: Str) -> &str {
        let range = s.start as usize..s.end as usize;
        if s.in_arena {
            &self.arena[range]
        } else {
            &self.text[range]
        }
    }

    /// The text the document was parsed from.
    pub fn input_text(&self) -> &'input str {
        self.text
    }

    /// The document node, parent of the root element.
    pub fn root(&self) -> Node<'_, 'input> {
        self.node(0)
    }

    /// The attribute at `index`, as [`Node::indexed_attributes`] gave it.
    pub fn attribute_at(&self, index: u32) -> Attribute<'_, 'input> {
        Attribute {
            doc: self,
            data: &self.attributes[index as usize],
        }
    }

    pub fn root_element(&self) -> Node<'_, 'input> {
        self.root()
            .children()
            .find(Node::is_element)
            .expect("a parsed document has a root element")
    }

    pub fn descendants(&self) -> Descendants<'_, 'input> {
        self.root().descendants()
    }

    pub fn get_node(&self, id: NodeId) -> Option<Node<'_, 'input>> {
        (id.get() < self.nodes.len()).then(|| self.node(id.0))
    }

    /// How many distinct element and attribute names the document has:
    /// [`Node::name_index`] is below it.
    pub fn name_count(&self) -> usize {
        self.names.len()
    }

    /// How many elements have the name with this index.
    pub fn elements_named(&self, index: usize) -> usize {
        self.name_uses[index] as usize
    }

    /// How many elements have this expanded name.
    pub fn count_elements(&self, namespace: Option<&str>, local: &str) -> usize {
        self.name_index_of(namespace, local)
            .map_or(0, |index| self.elements_named(index))
    }

    /// The index of an expanded name (see [`Node::name_index`]), if the
    /// document has it.
    pub fn name_index_of(&self, namespace: Option<&str>, local: &str) -> Option<usize> {
        (0..self.name_count()).find(|&i| {
            let name = self.name_at(i);
            name.namespace() == namespace && name.name() == local
        })
    }

    /// Every attribute with the expanded name `namespace`/`local`, in
    /// document order: one pass over the attributes, none over the nodes.
    pub fn attributes_named(
        &self,
        namespace: Option<&str>,
        local: &str,
    ) -> impl Iterator<Item = Attribute<'_, 'input>> {
        let name = self.name_index_of(namespace, local).map(|i| i as u32);
        self.attributes
            .iter()
            .filter(move |data| Some(data.name()) == name)
            .map(move |data| Attribute { doc: self, data })
    }

    /// The name with this index (see [`Node::name_index`]).
    pub fn name_at(&self, index: usize) -> ExpandedName<'_> {
        self.name(index as u32)
    }

    /// The first reference to an entity whose declaration was not read.
    pub fn unread_entity(&self) -> Option<&UnreadEntity> {
        self.unread_entity.as_ref()
    }

    fn node(&self, id: u32) -> Node<'_, 'input> {
        Node { id, doc: self }
    }

    #[inline(always)]
    fn name(&self, name: u32) -> ExpandedName<'_> {
        let name = self.names[name as usize];
        ExpandedName {
            namespace: (name.namespace != 0).then(|| self.namespaces.get(name.namespace)),
            name: &self.name_text[name.start as usize..name.end as usize],
        }
    }

    /// Whether name `name` is `local` in `namespace`, compared as bytes,
    /// local name first (most names differ there, and in length).
    #[inline(always)]
    fn name_is(&self, name: u32, namespace: Option<&str>, local: &str) -> bool {
        let name = self.names[name as usize];
        let text = &self.name_text.as_bytes()[name.start as usize..name.end as usize];
        text == local.as_bytes()
            && match namespace {
                None => name.namespace == 0,
                Some(uri) => name.namespace != 0 && self.namespaces.bytes(name.namespace) == uri.as_bytes(),
            }
    }
}

/// A namespace name (absent for no namespace) and a local name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExpandedName<'a> {
    namespace: Option<&'a str>,
    name: &'a str,
}

impl<'a> ExpandedName<'a> {
    pub fn namespace(&self) -> Option<&'a str> {
        self.namespace
    }

    pub fn name(&self) -> &'a str {
        self.name
    }
}

/// What an attribute is asked for by: a local name without namespace, or
/// a namespace and a local name.
pub trait AttributeName {
    /// Whether the document's name `name` is this one.
    fn matches(&self, doc: &Tree<'_>, name: u32) -> bool;
}

impl AttributeName for &str {
    #[inline]
    fn matches(&self, doc: &Tree<'_>, name: u32) -> bool {
        doc.name_is(name, None, self)
    }
}

impl AttributeName for (&str, &str) {
    #[inline]
    fn matches(&self, doc: &Tree<'_>, name: u32) -> bool {
        doc.name_is(name, Some(self.0), self.1)
    }
}

/// A node: its document and its index there (16 bytes: rules keep many).
#[derive(Clone, Copy)]
pub struct Node<'a, 'input> {
    id: u32,
    doc: &'a Tree<'input>,
}

impl std::fmt::Debug for Node<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.data().kind() {
            Kind::Element { .. } => write!(f, "Element({:?})", self.tag_name()),
            kind => write!(f, "{kind:?}"),
        }
    }
}

impl PartialEq for Node<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && std::ptr::eq(self.doc, other.doc)
    }
}

impl Eq for Node<'_, '_> {}

impl<'a, 'input> Node<'a, 'input> {
    #[inline]
    fn data(&self) -> &'a NodeData {
        &self.doc.nodes[self.id as usize]
    }

    pub fn id(&self) -> NodeId {
        NodeId(self.id)
    }

    pub fn tree(&self) -> &'a Tree<'input> {
        self.doc
    }

    /// Byte range in the input: an element from `<` through its end tag.
    pub fn range(&self) -> Range<usize> {
        self.data().start as usize..self.data().end as usize
    }

    pub fn is_element(&self) -> bool {
        self.data().tag() == ELEMENT
    }

    pub fn is_text(&self) -> bool {
        matches!(self.data().tag(), TEXT_INPUT | TEXT_ARENA | RAW_TEXT)
    }

    pub fn is_comment(&self) -> bool {
        matches!(self.data().tag(), COMMENT_INPUT | COMMENT_ARENA)
    }

    /// An element's name; empty for other nodes.
    #[inline(always)]
    pub fn tag_name(&self) -> ExpandedName<'a> {
        let data = self.data();
        if data.tag() == ELEMENT {
            self.doc.name(data.a & !HAS_BASE)
        } else {
            ExpandedName {
                namespace: None,
                name: "",
            }
        }
    }

    /// An element's name as an index into the document's distinct names
    /// (see [`Tree::name_at`]): a pass over every element can classify
    /// the few names once and then look each element up in a table.
    #[inline]
    pub fn name_index(&self) -> Option<usize> {
        let data = self.data();
        (data.tag() == ELEMENT).then_some((data.a & !HAS_BASE) as usize)
    }

    /// Whether the element has an `xml:base` attribute (known from parsing:
    /// asked for every ancestor of every link, so not searched for).
    pub fn has_xml_base(&self) -> bool {
        matches!(self.data().kind(), Kind::Element { has_base: true, .. })
    }

    #[inline(always)]
    pub fn has_tag_name(&self, namespace: Option<&str>, local: &str) -> bool {
        let data = self.data();
        data.tag() == ELEMENT && self.doc.name_is(data.a & !HAS_BASE, namespace, local)
    }

    /// A text node's or comment's text; an element's first child's text,
    /// if that child is text.
    pub fn text(&self) -> Option<&'a str> {
        // By the kind's tag, not the whole `Kind`: asked of every id, date
        // and text construct of a feed.
        match self.data().tag() {
            TEXT_INPUT => Some(&self.doc.text[self.range()]),
            ELEMENT => self.first_child().filter(Node::is_text).and_then(|child| child.text()),
            _ => match self.data().kind() {
                Kind::Text(s) | Kind::Comment(s) => Some(self.doc.str(s)),
                Kind::RawText(index) => Some(self.doc.decoded[index as usize].get_or_init(|| {
                    let mut value = String::with_capacity(self.range().len());
                    decode_text(&self.doc.text[self.range()], &mut value);
                    value.into_boxed_str()
                })),
                _ => None,
            },
        }
    }

    /// The attributes, in the order written, then those defaulted by the
    /// DTD. Namespace declarations are not attributes here.
    pub fn attributes(&self) -> Attributes<'a, 'input> {
        let all = &self.doc.attributes;
        let range = match self.data().kind() {
            Kind::Element { attributes, .. } if attributes != NONE => {
                let start = attributes as usize;
                let count = all[start..]
                    .iter()
                    .position(AttributeData::last)
                    .map_or(all.len() - start, |i| i + 1);
                start..start + count
            }
            _ => 0..0,
        };
        Attributes {
            doc: self.doc,
            inner: all[range].iter(),
        }
    }

    /// The attributes with their indexes in the document, which
    /// [`Tree::attribute_at`] takes: a list of attributes kept by index
    /// costs 4 bytes an attribute and no search to read back.
    pub fn indexed_attributes(&self) -> impl Iterator<Item = (u32, Attribute<'a, 'input>)> + use<'a, 'input> {
        let start = match self.data().kind() {
            Kind::Element { attributes, .. } if attributes != NONE => attributes,
            _ => 0,
        };
        (start..).zip(self.attributes())
    }

    pub fn attribute_node(&self, name: impl AttributeName) -> Option<Attribute<'a, 'input>> {
        self.attributes().find(|a| name.matches(a.doc, a.data.name()))
    }

    pub fn attribute(&self, name: impl AttributeName) -> Option<&'a str> {
        self.attribute_node(name).map(|a| a.value())
    }

    pub fn has_attribute(&self, name: impl AttributeName) -> bool {
        self.attribute_node(name).is_some()
    }

    /// The start tag (`<name ...>` or `<name .../>`), where findings about
    /// an element point. For other nodes, their range.
    /// The bytes between the element's start tag and its end tag, as
    /// written (empty for `<a/>`).
    pub fn content_range(&self) -> Range<usize> {
        let (from, end) = (self.start_tag().end, self.range().end);
        let inside = self.doc.text.get(from..end).unwrap_or_default();
        from..inside.rfind("</").map_or(from, |at| from + at)
    }

    pub fn start_tag(&self) -> Range<usize> {
        let range = self.range();
        if !self.is_element() || self.doc.text.as_bytes().get(range.start) != Some(&b'<') {
            return range;
        }
        let text = self.doc.text;
        let from = self
            .attributes()
            .rfind(|a| a.data.specified())
            .map_or(range.start, |a| a.range().end);
        let end = memchr::memchr(b'>', &text.as_bytes()[from..range.end]).map_or(range.end, |i| from + i + 1);
        range.start..end
    }

    pub fn parent(&self) -> Option<Node<'a, 'input>> {
        (self.data().parent() != NONE).then(|| self.doc.node(self.data().parent()))
    }

    pub fn parent_element(&self) -> Option<Node<'a, 'input>> {
        self.parent().filter(Node::is_element)
    }

    /// This node, then its parent, and so on up to the document node.
    pub fn ancestors(&self) -> impl Iterator<Item = Node<'a, 'input>> + use<'a, 'input> {
        std::iter::successors(Some(*self), Node::parent)
    }

    pub fn first_child(&self) -> Option<Node<'a, 'input>> {
        let next = self.id + 1;
        let data = self.doc.nodes.get(next as usize)?;
        (data.parent() == self.id).then(|| self.doc.node(next))
    }

    pub fn next_sibling(&self) -> Option<Node<'a, 'input>> {
        (self.data().next_sibling != NONE).then(|| self.doc.node(self.data().next_sibling))
    }

    /// The nodes after this one in document order, its own subtree first.
    pub fn following(&self) -> impl Iterator<Item = Node<'a, 'input>> + use<'a, 'input> {
        let doc = self.doc;
        (self.id + 1..doc.nodes.len() as u32).map(move |id| doc.node(id))
    }

    pub fn children(&self) -> impl Iterator<Item = Node<'a, 'input>> + use<'a, 'input> {
        std::iter::successors(self.first_child(), Node::next_sibling)
    }

    /// This node and every node below it, in document order.
    pub fn descendants(&self) -> Descendants<'a, 'input> {
        // The subtree ends where the next sibling of the node or of its
        // nearest ancestor that has one begins.
        let end = self
            .ancestors()
            .find_map(|n| n.next_sibling())
            .map_or(self.doc.nodes.len() as u32, |n| n.id);
        Descendants {
            doc: self.doc,
            next: self.id,
            end,
        }
    }
}

pub struct Descendants<'a, 'input> {
    doc: &'a Tree<'input>,
    next: u32,
    end: u32,
}

impl<'a, 'input> Iterator for Descendants<'a, 'input> {
    type Item = Node<'a, 'input>;

    fn next(&mut self) -> Option<Self::Item> {
        (self.next < self.end).then(|| {
            self.next += 1;
            self.doc.node(self.next - 1)
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.end - self.next) as usize;
        (left, Some(left))
    }
}

#[derive(Clone, Copy)]
pub struct Attribute<'a, 'input> {
    doc: &'a Tree<'input>,
    data: &'a AttributeData,
}

impl std::fmt::Debug for Attribute<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Attribute({:?}={:?})", self.expanded_name(), self.value())
    }
}

impl<'a> Attribute<'a, '_> {
    fn expanded_name(&self) -> ExpandedName<'a> {
        self.doc.name(self.data.name())
    }

    pub fn name(&self) -> &'a str {
        self.expanded_name().name
    }

    pub fn namespace(&self) -> Option<&'a str> {
        self.expanded_name().namespace
    }

    /// The number of the attribute's expanded name in the document's table
    /// of names ([`Tree::name_at`]), shared with the elements' names.
    pub fn name_index(&self) -> usize {
        self.data.name() as usize
    }

    /// The normalized value (XML 1.0 §3.3.3).
    pub fn value(&self) -> &'a str {
        if self.data.name_and_flags & NORMALIZED != 0 {
            let values = &self.doc.attribute_values;
            let at = values
                .binary_search_by_key(&self.index(), |&(attribute, _)| attribute)
                .expect("a normalized value is kept for each attribute marked so");
            self.doc.str(values[at].1)
        } else {
            &self.doc.text[self.range_value()]
        }
    }

    /// The attribute's index in the document's attributes: where its data
    /// stands in that slice (the handle holds a reference into it).
    fn index(&self) -> u32 {
        let first = self.doc.attributes.as_ptr() as usize;
        let index = (self.data as *const AttributeData as usize - first) / std::mem::size_of::<AttributeData>();
        debug_assert!(index < self.doc.attributes.len());
        index as u32
    }

    /// `name="value"`. (A defaulted attribute covers the default's literal;
    /// an attribute made by an entity reference covers the reference.)
    pub fn range(&self) -> Range<usize> {
        let bytes = self.doc.text.as_bytes();
        let (value_start, value_end) = (self.data.value_start as usize, self.data.value_end as usize);
        let quoted = value_start > 0 && matches!(bytes[value_start - 1], b'"' | b'\'');
        if !quoted {
            return value_start..value_end;
        }
        if !self.data.specified() {
            return value_start - 1..value_end + 1;
        }
        // Back from the opening quote over `=` and white space, then over
        // the name: a name holds no white space, and white space precedes it.
        let mut start = value_start - 1;
        while start > 0 && matches!(bytes[start - 1], b'=' | b' ' | b'\t' | b'\n' | b'\r') {
            start -= 1;
        }
        while start > 0 && !matches!(bytes[start - 1], b' ' | b'\t' | b'\n' | b'\r') {
            start -= 1;
        }
        start..value_end + 1
    }

    /// The value as written, without its quotes.
    pub fn range_value(&self) -> Range<usize> {
        self.data.value_start as usize..self.data.value_end as usize
    }

    /// Written in the start tag, not defaulted by the DTD.
    pub fn is_specified(&self) -> bool {
        self.data.specified()
    }
}

pub struct Attributes<'a, 'input> {
    doc: &'a Tree<'input>,
    inner: std::slice::Iter<'a, AttributeData>,
}

impl<'a, 'input> Iterator for Attributes<'a, 'input> {
    type Item = Attribute<'a, 'input>;

    fn next(&mut self) -> Option<Self::Item> {
        self.inner.next().map(|data| Attribute { doc: self.doc, data })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for Attributes<'_, '_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|data| Attribute { doc: self.doc, data })
    }
}

impl ExactSizeIterator for Attributes<'_, '_> {}

/// Decodes text as the parser found it well-formed: character and
/// predefined entity references, CDATA sections, and line ends (CR LF and
/// CR become LF).
pub(crate) fn decode_text(raw: &str, out: &mut String) {
    let mut rest = raw;
    while let Some(i) = memchr::memchr3(b'&', b'<', b'\r', rest.as_bytes()) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if let Some(section) = rest.strip_prefix("<![CDATA[") {
            let end = section.find("]]>").unwrap_or(section.len());
            push_line_ends_normalized(&section[..end], out);
            rest = section.get(end + 3..).unwrap_or("");
        } else if let Some(after) = rest.strip_prefix('&') {
            let end = after.find(';').unwrap_or(after.len());
            out.extend(reference_char(&after[..end]));
            rest = after.get(end + 1..).unwrap_or("");
        } else if let Some(after) = rest.strip_prefix('\r') {
            out.push('\n');
            rest = after.strip_prefix('\n').unwrap_or(after);
        } else {
            // A '<' the parser would not have left in text.
            out.push('<');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
}

fn push_line_ends_normalized(text: &str, out: &mut String) {
    let mut rest = text;
    while let Some(i) = memchr::memchr(b'\r', rest.as_bytes()) {
        out.push_str(&rest[..i]);
        out.push('\n');
        rest = &rest[i + 1..];
        rest = rest.strip_prefix('\n').unwrap_or(rest);
    }
    out.push_str(rest);
}

/// The character a character reference or predefined entity names
/// (without `&` and `;`).
pub(crate) fn reference_char(name: &str) -> Option<char> {
    let code = match name.strip_prefix('#') {
        Some(hex) if hex.starts_with('x') => u32::from_str_radix(&hex[1..], 16).ok()?,
        Some(decimal) => decimal.parse().ok()?,
        None => return super::chars::predefined(name),
    };
    char::from_u32(code)
}

/// A well-formedness error the parser read past, because XML leaves one
/// clear reading of the document (the document is still not well-formed):
/// the rest of the document is parsed as if the error were not there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovered {
    /// The bytes in error.
    pub at: std::ops::Range<usize>,
    pub message: String,
    pub kind: RecoveredKind,
}

/// What a recovered error is, and so how it is fixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecoveredKind {
    /// White space before the XML declaration (`at`): deleting it fixes it.
    SpaceBeforeDeclaration,
    /// An XML declaration (`at`) after comments or processing
    /// instructions: moving it to the start fixes it.
    DeclarationNotFirst,
}
