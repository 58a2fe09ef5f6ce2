//! The typed view over a parsed document that rules read: what kind of
//! document it is, its head section, its navigation links with resolved
//! targets, and its feed-history markers; and a JSON Feed's (`json_feed`).

use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::xml::{Node, NodeId, Tree};
use url::Url;

use crate::base::hash::FastMap;
use crate::text::date;
use crate::text::iri;

mod atom_names;
mod entries;
mod gathering;
pub mod json_feed;
pub mod media;
pub mod placement;
mod relations;
mod text;

pub use atom_names::*;
pub use entries::*;
pub use gathering::*;
pub use relations::*;
pub use text::*;

pub const ATOM_NS: &str = "http://www.w3.org/2005/Atom";

pub const FH_NS: &str = "http://purl.org/syndication/history/1.0";

pub const AT_NS: &str = "http://purl.org/atompub/tombstones/1.0";

pub const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

pub const DS_NS: &str = "http://www.w3.org/2000/09/xmldsig#";

pub const XHTML_NS: &str = "http://www.w3.org/1999/xhtml";

/// Apple's iTunes podcast tags.
pub const ITUNES_NS: &str = "http://www.itunes.com/dtds/podcast-1.0.dtd";

/// The Podcasting 2.0 namespace.
pub const PODCAST_NS: &str = "https://podcastindex.org/namespace/1.0";

/// The Podcasting 2.0 namespace's older name, which its readers "must also
/// recognize ... as identical" (`1.0.md`): a document's names in it are
/// read as [`PODCAST_NS`]'s ([`Tree::alias_namespaces`]).
pub const PODCAST_LEGACY_NS: &str = "https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md";

/// The podcast namespace a document's namespace name is read as, where it
/// is not that name: the Podcasting 2.0 namespace's older name, which its
/// readers "must also recognize ... as identical", and a near miss of
/// either podcast namespace (`https://www.itunes.com/...`). A near miss is
/// `extension-namespace-near-miss`'s one finding, at its declaration; the
/// podcast rules read its elements as the namespace's, so that no element
/// is also said to be missing.
pub fn podcast_namespace_read_as(namespace: &str) -> Option<&'static str> {
    if namespace == PODCAST_LEGACY_NS {
        return Some(PODCAST_NS);
    }
    intended_extension_namespace(namespace)
        .map(|(meant, _)| meant)
        .filter(|meant| *meant == ITUNES_NS || *meant == PODCAST_NS)
}

/// Whether an RSS document is checked as a podcast, and why: the podcast
/// standards' required elements are asked of podcasts only, so a blog
/// whose items carry an MP3, or whose generator declares the iTunes
/// namespace on every feed, is not held to them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Podcast {
    /// Not a podcast: another kind of document, or an RSS feed that uses
    /// neither podcast namespace.
    No,
    /// It uses the iTunes or the Podcasting 2.0 namespace (or writes
    /// either almost right): an element in one, or episodes with audio or
    /// video beside a declaration of one.
    InUse,
    /// The user selected the podcast groups by name, so every RSS feed of
    /// the run is checked as one.
    Selected,
}

impl Podcast {
    /// What an RSS document shows itself to be. PSP-1 calls a podcast "a
    /// collection of episodes with associated audio and/or video content":
    /// a declaration alone does not make one (Squarespace declares the
    /// iTunes namespace on every blog feed, and some WordPress themes do),
    /// so the namespace must be used, by an element, or declared beside
    /// items that carry audio or video.
    fn shown_by(xml: &Tree<'_>, root: Node<'_, '_>, channel: Option<Node<'_, '_>>, items: &[Entry]) -> Podcast {
        let is_podcast_namespace = |namespace: &str| {
            let meant = podcast_namespace_read_as(namespace).unwrap_or(namespace);
            meant == ITUNES_NS || meant == PODCAST_NS
        };
        // Each namespace once: a document's names share a few namespaces,
        // and a near miss is judged by a key made from the text.
        let mut seen = crate::base::hash::FastSet::default();
        let element_in_namespace = (0..xml.name_count())
            .filter(|&at| xml.elements_named(at) > 0)
            .filter_map(|at| xml.name_at(at).namespace())
            .any(|namespace| seen.insert(namespace) && is_podcast_namespace(namespace));
        if element_in_namespace {
            return Podcast::InUse;
        }
        let text = xml.input_text();
        let declares = std::iter::once(root)
            .chain(channel)
            .flat_map(|element| crate::xml::declarations(text, element))
            .any(|declaration| is_podcast_namespace(declaration.value));
        let episodes = || {
            items.iter().any(|item| {
                item.node
                    .children()
                    .any(|child| child.has_tag_name(None, "enclosure") && media::carries_media(child))
            })
        };
        if declares && episodes() {
            Podcast::InUse
        } else {
            Podcast::No
        }
    }
}

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

/// The extension namespaces whose near misses are worth a word: each with
/// what it is called. A near miss only loses the extension (the document
/// stays conformant), unlike one of [`intended_namespace`]'s.
pub const EXTENSION_NAMESPACES: [(&str, &str); 6] = [
    ("http://purl.org/rss/1.0/modules/content/", "RSS content module"),
    ("http://purl.org/dc/elements/1.1/", "Dublin Core elements"),
    ("http://purl.org/dc/terms/", "Dublin Core terms"),
    ("http://search.yahoo.com/mrss/", "Media RSS"),
    ("http://www.itunes.com/dtds/podcast-1.0.dtd", "iTunes podcast"),
    ("https://podcastindex.org/namespace/1.0", "Podcasting 2.0"),
];

/// The extension namespace (of [`EXTENSION_NAMESPACES`]) that `namespace`
/// was almost certainly meant to be, with its name.
pub fn intended_extension_namespace(namespace: &str) -> Option<(&'static str, &'static str)> {
    // The known namespaces' keys are made once per process.
    static KEYS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let keys = KEYS.get_or_init(|| {
        EXTENSION_NAMESPACES
            .iter()
            .map(|(known, _)| near_miss_key(known))
            .collect()
    });
    if EXTENSION_NAMESPACES.iter().any(|(known, _)| *known == namespace) {
        return None;
    }
    let key = near_miss_key(namespace);
    keys.iter()
        .position(|known| *known == key)
        .map(|at| EXTENSION_NAMESPACES[at])
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

/// An RSS `pubDate` or `lastBuildDate`, read.
pub struct RssDate<'a, 'input> {
    pub node: Node<'a, 'input>,
    pub text: Text<'a>,
    pub read: Result<date::Rfc822Date, date::DateError>,
}

/// A parsed feed document as the rules see it.
pub struct FeedDoc<'a, 'input> {
    pub xml: &'a Tree<'input>,
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
    /// The RSS channel's and items' dates, each read once for the rules
    /// that ask (whether it is a date, whether its day name is right).
    rss_dates: OnceLock<Vec<RssDate<'a, 'input>>>,
    /// Whether it is checked as a podcast.
    pub podcast: Podcast,
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
    pub fn new(xml: &'a Tree<'input>, kind: DocKind, url: Option<&'a Url>) -> Self {
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
        if kind == DocKind::Rss {
            doc.podcast = Podcast::shown_by(xml, doc.root, doc.head, &entries);
        }
        (doc.links, doc.complete, doc.archive, doc.entries) = (links, complete, archive, entries);
        if kind == DocKind::AtomEntry {
            // The document's one entry is its root.
            doc.entries.extend(Entry::of(&EntryNames::of(xml, kind), doc.root));
        }
        doc
    }

    /// Checks an RSS document as a podcast whatever it declares: the user
    /// selected the podcast groups by name.
    pub fn check_as_podcast(&mut self) {
        if self.kind == DocKind::Rss && self.podcast == Podcast::No {
            self.podcast = Podcast::Selected;
        }
    }

    pub fn is_podcast(&self) -> bool {
        self.podcast != Podcast::No
    }

    /// Where the first `self` link of the head section points, resolved
    /// against `url`, found without gathering anything else: the run reads
    /// it to learn where a document is published before linting it.
    pub fn self_target(xml: &'a Tree<'input>, kind: DocKind, url: Option<&'a Url>) -> Option<Url> {
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
    fn bare(xml: &'a Tree<'input>, kind: DocKind, url: Option<&'a Url>, atom_names: AtomNames) -> Self {
        let root = xml.root_element();
        let head = match kind {
            DocKind::Atom => Some(root),
            DocKind::Rss => root.children().find(|n| n.has_tag_name(None, "channel")),
            DocKind::DeletedEntry | DocKind::AtomEntry | DocKind::JsonFeed => None,
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
            rss_dates: OnceLock::new(),
            podcast: Podcast::No,
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

    /// The `pubDate` and `lastBuildDate` elements of an RSS channel and its
    /// items, in document order, each read as an RFC 822 date once.
    pub fn rss_dates(&self) -> &[RssDate<'a, 'input>] {
        self.rss_dates.get_or_init(|| {
            let Some(channel) = self.head.filter(|_| self.kind == DocKind::Rss) else {
                return Vec::new();
            };
            let names = [
                self.xml.name_index_of(None, "pubDate"),
                self.xml.name_index_of(None, "lastBuildDate"),
            ];
            if names == [None, None] {
                return Vec::new();
            }
            std::iter::once(channel)
                .chain(self.entries.iter().map(|e| e.node))
                .flat_map(|parent| {
                    parent
                        .children()
                        .filter(|n| n.name_index().is_some() && names.contains(&n.name_index()))
                })
                .map(|node| {
                    let text = Text::of(node);
                    RssDate {
                        node,
                        read: date::read_rfc822(text.value),
                        text,
                    }
                })
                .collect()
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

    /// Whether an RSS document is checked as a podcast, by the shapes
    /// generators write.
    #[test]
    fn a_podcast_is_told_by_use_not_by_a_declaration_alone() {
        let podcast = |rss: &str| {
            let xml = crate::xml::parse(rss).unwrap();
            FeedDoc::new(&xml, DocKind::Rss, None).is_podcast()
        };
        let itunes = "xmlns:itunes='http://www.itunes.com/dtds/podcast-1.0.dtd'";
        let audio = "<enclosure url='https://example.org/1.mp3' length='1' type='audio/mpeg'/>";
        let untyped = "<enclosure url='https://example.org/1.m4a?x=1' length='1'/>";
        let pdf = "<enclosure url='https://example.org/1.pdf' length='1' type='application/pdf'/>";
        let feed = |declared: &str, channel: &str, item: &str| {
            format!("<rss version='2.0' {declared}><channel><title>t</title>{channel}<item><title>i</title>{item}</item></channel></rss>")
        };
        // A declaration alone (Squarespace, some WordPress themes).
        assert!(!podcast(&feed(itunes, "", "")));
        assert!(!podcast(&feed(itunes, "", pdf)));
        // Audio or video beside the declaration, by type or by extension.
        assert!(podcast(&feed(itunes, "", audio)));
        assert!(podcast(&feed(itunes, "", untyped)));
        // Audio without a declaration is a blog with a recording.
        assert!(!podcast(&feed("", "", audio)));
        // An element in either namespace, wherever it is declared, under
        // either name of Podcasting 2.0, or almost the iTunes one.
        assert!(podcast(&feed(itunes, "<itunes:author>a</itunes:author>", "")));
        assert!(podcast(&feed(
            "",
            "<p:locked xmlns:p='https://podcastindex.org/namespace/1.0'>no</p:locked>",
            ""
        )));
        assert!(podcast(&feed(
            "xmlns:podcast='https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md'",
            "<podcast:locked>no</podcast:locked>",
            ""
        )));
        assert!(podcast(&feed(
            "xmlns:itunes='https://www.itunes.com/dtds/podcast-1.0.dtd'",
            "<itunes:author>a</itunes:author>",
            ""
        )));
        // An attribute in the namespace is not an element of it.
        assert!(!podcast(&feed(itunes, "<image itunes:x='1'/>", "")));
    }

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
    fn near_misses_of_extensions_name_the_extension() {
        for (miss, meant) in [
            ("http://purl.org/dc/elements/1.1", "http://purl.org/dc/elements/1.1/"),
            ("https://purl.org/dc/terms", "http://purl.org/dc/terms/"),
            (
                "http://purl.org/rss/1.0/modules/Content/",
                "http://purl.org/rss/1.0/modules/content/",
            ),
            ("http://search.yahoo.com/mrss", "http://search.yahoo.com/mrss/"),
            (
                "http://www.itunes.com/DTDs/Podcast-1.0.dtd",
                "http://www.itunes.com/dtds/podcast-1.0.dtd",
            ),
            (
                "http://podcastindex.org/namespace/1.0",
                "https://podcastindex.org/namespace/1.0",
            ),
        ] {
            assert_eq!(
                intended_extension_namespace(miss).map(|(ns, _)| ns),
                Some(meant),
                "{miss}"
            );
        }
        for (right, _) in EXTENSION_NAMESPACES {
            assert_eq!(intended_extension_namespace(right), None, "{right}");
        }
        assert_eq!(
            intended_extension_namespace("http://purl.org/dc/elements/1.1/extra"),
            None
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
