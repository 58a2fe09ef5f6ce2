//! The links, IRIs and names gathered in one walk over a document.

use std::borrow::Cow;
use std::ops::Range;

use url::Url;

use super::{start_tag, Rel, ATOM_NS, AT_NS, FH_NS, PODCAST_NS, XML_NS};
use crate::text::iri;
use crate::xml::{Attribute, ExpandedName, Node, NodeList, Tree};

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
pub(crate) struct IriPlace {
    /// The attribute's index in the document.
    pub(crate) attribute: u32,
    pub(crate) valid: bool,
    pub(crate) is_base: bool,
}

/// Elements and attributes found anywhere in the document, in document
/// order. Kept compactly (4 bytes a node): a large feed has hundreds of
/// thousands of links and dates.
#[derive(Default)]
pub struct Gathered<'a, 'input> {
    /// The document, to read back the attributes kept by index.
    pub(crate) doc: Option<&'a Tree<'input>>,
    /// Every element in the feed-history namespace.
    pub fh_elements: NodeList<'a, 'input>,
    /// Every `atom:link`: head section, entries, sources, deleted entries.
    pub atom_links: NodeList<'a, 'input>,
    /// For each of `atom_links`, its `href` and `rel` and whether it is an
    /// alternate link; read through [`Gathered::links`].
    pub(crate) link_attributes: Vec<LinkAttributes>,
    /// The `type`, `length` and `hreflang` attributes of the links, by
    /// their index in the document; read through [`Gathered::link_values`].
    pub(crate) link_values: Vec<(u32, LinkValue)>,
    /// The elements of the attributes whose value must be an IRI reference
    /// (`xml:base` anywhere, `href` on `atom:link`, `ref` on
    /// `at:deleted-entry`), and the attribute's place on it and its validity;
    /// read through [`Gathered::iri_attributes`].
    pub(crate) iri_elements: NodeList<'a, 'input>,
    pub(crate) iri_places: Vec<IriPlace>,
    /// Comments that start with `feedlint-disable`.
    pub suppressions: NodeList<'a, 'input>,
    /// Every `at:deleted-entry`, wherever it stands.
    pub tombstones: NodeList<'a, 'input>,
    /// Every element in the Podcasting 2.0 namespace.
    pub podcast_elements: NodeList<'a, 'input>,
    /// Every `atom:id`, `atom:updated` and `atom:published`.
    pub atom_ids: NodeList<'a, 'input>,
    /// For each of `atom_ids`, whether no id rule has anything to say of
    /// it (see [`is_unremarkable_id`]); read through [`Gathered::remarkable_atom_ids`].
    pub(crate) unremarkable_ids: Vec<bool>,
    pub atom_dates: NodeList<'a, 'input>,
    /// Elements named like a feed-history, tombstone or Atom element that
    /// matters (`complete`, `archive`, `deleted-entry`, `link`) but in some
    /// other namespace.
    pub lookalikes: NodeList<'a, 'input>,
    /// The byte ranges of the outermost `atom:source` elements, in document
    /// order: what is inside one is the source feed's metadata.
    pub(crate) sources: Vec<Range<usize>>,
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

    pub(crate) fn attribute_at(&self, index: u32) -> Attribute<'a, 'input> {
        self.doc.expect("gathered from a document").attribute_at(index)
    }

    pub(crate) fn optional_attribute(&self, index: u32) -> Option<Attribute<'a, 'input>> {
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

    pub(crate) fn of(xml: &'a Tree<'input>) -> Self {
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
            podcast_elements: NodeList::with_capacity(size(NameClass::Podcast)),
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
                    .is_some_and(|t| t.trim_start().starts_with(crate::findings::suppress::PREFIX))
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
                NameClass::Podcast => gathered.podcast_elements.push(node),
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
            if is_link || is_tombstone || node.has_xml_base() {
                gathered.gather_attributes(node, is_link, is_tombstone);
            }
        }
        gathered
    }

    /// The attributes of a link, a tombstone or an element with an
    /// `xml:base` that the rules read: each that must be an IRI (checked
    /// once, here), and a link's href, rel, type, length and hreflang.
    #[inline]
    fn gather_attributes(&mut self, node: Node<'a, 'input>, is_link: bool, is_tombstone: bool) {
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
                    self.link_values.push((index, kind));
                    (false, false)
                }
                _ => (false, false),
            };
            if carries_iri {
                self.iri_elements.push(node);
                self.iri_places.push(IriPlace {
                    attribute: index,
                    valid: iri::check_iri_reference(attribute.value()).is_ok(),
                    is_base,
                });
            }
        }
        if is_link {
            self.link_attributes.push(link);
        }
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
pub(crate) struct LinkAttributes {
    pub(crate) href: u32,
    pub(crate) rel: u32,
    pub(crate) alternate: bool,
}

pub(crate) const ABSENT: u32 = u32::MAX;

/// Whether an `atom:id`'s text is one that no id rule (`atom-invalid-id`,
/// `atom-id-not-normalized`, `malformed-uuid-urn`) remarks on: a plain
/// absolute IRI without an authority ([`iri::is_plain_absolute_iri`]: it
/// holds no `%`, so its only normalization is a lowercase scheme), with a
/// lowercase scheme, and no UUID URN to check. Decided once in the pass
/// over all nodes instead of by each rule.
pub(crate) fn is_unremarkable_id(value: &str) -> bool {
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
pub(crate) enum NameClass {
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
    /// Any element in the Podcasting 2.0 namespace.
    Podcast,
    Other,
}

impl NameClass {
    pub(crate) fn of(name: ExpandedName<'_>) -> Self {
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
            (Some(PODCAST_NS), _) => NameClass::Podcast,
            (Some(_), "complete" | "archive" | "deleted-entry" | "link") => NameClass::Lookalike,
            _ => NameClass::Other,
        }
    }

    const COUNT: usize = NameClass::Other as usize + 1;
}
