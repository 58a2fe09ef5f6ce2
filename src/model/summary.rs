//! The compact, owned facts about a document that the checks across
//! documents need. It is made before the DOM is dropped, so memory grows
//! with the summaries, not with the documents. Places are already resolved
//! to lines and columns, but name no document: a set rule, which knows the
//! document it reads, makes a [`Span`] of one with [`Location::in_doc`].

use url::Url;

pub use crate::findings::diagnostic::Location;
use crate::findings::diagnostic::{small, DocId, Span};
use crate::text::date::{self, Instant};
use std::hash::BuildHasher;

use crate::base::hash::FastState;
use crate::feed::{child_text, start_tag, DocKind, FeedDoc, Relation, ATOM_NS};
use crate::findings::source::Source;

#[derive(Debug, Clone)]
pub struct NavLink {
    /// The RFC 5005 navigation relation.
    pub rel: Relation,
    /// The resolved target without fragment, when it resolves.
    pub target: Option<Url>,
    /// The `href` value (or the start tag when there is none).
    pub span: Location,
    /// The `href` is written as a `file:` URL: never read, whatever it
    /// names (a document from elsewhere must not point feedlint at files).
    pub file_href: bool,
}

/// A value of the document with where it is written.
#[derive(Debug, Clone)]
pub struct Located<T> {
    pub value: T,
    pub span: Location,
}

/// A value the pages of a feed share, kept compact: compared by its hash,
/// shown shortened (a title may be megabytes long).
#[derive(Debug, Clone)]
pub struct SharedValue {
    pub hash: u64,
    pub shown: String,
    pub span: Location,
}

/// An entry's identity and update time. A run keeps one per entry of every
/// document, so it is small and its id lives in the `id_text` of its
/// document's summary (one allocation per document, not per entry:
/// many small long-lived allocations scattered among each freed DOM would
/// keep its pages in use).
#[derive(Debug, Clone)]
pub struct EntrySummary {
    /// `atom:id`, or the RSS `guid`: a range of `id_text`.
    id: (u32, u32),
    /// The id's hash ([`FastState`]), taken while its text is at hand: the
    /// set rules look every entry of a run up by id, and hashing the text
    /// there would read it again from wherever the summary put it.
    pub id_hash: u64,
    pub updated: Option<Instant>,
    /// The hash of an RSS item's first enclosure URL (a JSON Feed item's
    /// `url`): two episodes of a paged podcast (two items of a paged JSON
    /// Feed) are told apart by it.
    pub media_hash: Option<u64>,
    /// The id's text.
    at: Location,
}

impl EntrySummary {
    /// Where the id's text is, in document `doc`.
    pub fn span(&self, doc: DocId) -> Span {
        self.at.in_doc(doc)
    }

    /// Where the id's text is, in its document.
    pub fn location(&self) -> &Location {
        &self.at
    }
}

/// A media file a document names, gathered only for `--check-media`: an
/// episode's enclosure or transcript, or a podcast's artwork
/// (`itunes:image`).
#[derive(Debug, Clone)]
pub struct MediaRef {
    /// The URL, resolved where it is relative: an http(s) URL, parsed only
    /// if it is asked (a feed may name thousands).
    pub url: String,
    /// Where the URL is written.
    pub at: Location,
    pub kind: MediaKind,
}

#[derive(Debug, Clone)]
pub enum MediaKind {
    /// An RSS `enclosure` or an Atom `link rel="enclosure"`, with its
    /// `type` and `length` as written.
    Enclosure {
        media_type: Option<Located<String>>,
        length: Option<Located<String>>,
    },
    /// An `itunes:image`: the show's, or an episode's.
    Artwork,
    /// An episode's `podcast:transcript`: read by players in web pages,
    /// from another origin.
    Transcript,
}

impl MediaRef {
    /// The http(s) enclosures of an RSS feed's items (or an Atom feed's
    /// entries) and the artwork of its channel and items (feed and
    /// entries), in document order.
    pub fn gather(feed: &FeedDoc<'_, '_>, source: &Source) -> Vec<MediaRef> {
        let Some(head) = feed.head.filter(|_| matches!(feed.kind, DocKind::Rss | DocKind::Atom)) else {
            return Vec::new();
        };
        let mut at = source.locator();
        let mut found = Vec::new();
        for parent in std::iter::once(head).chain(feed.entries.iter().map(|entry| entry.node)) {
            for child in parent.children() {
                // An RSS item's enclosure, an Atom entry's enclosure link
                // (RFC 4287 §4.2.7.2), or artwork: by the attribute that
                // holds its URL.
                let in_episode = parent != head;
                let enclosure = match feed.kind {
                    DocKind::Rss => in_episode && child.has_tag_name(None, "enclosure"),
                    _ => {
                        in_episode
                            && child.has_tag_name(Some(ATOM_NS), "link")
                            && child.attribute("rel").is_some_and(|rel| rel.trim() == "enclosure")
                    }
                };
                let transcript = in_episode && child.has_tag_name(Some(crate::feed::PODCAST_NS), "transcript");
                if !enclosure && !transcript && !child.has_tag_name(Some(crate::feed::ITUNES_NS), "image") {
                    continue;
                }
                let holder = if (enclosure && feed.kind == DocKind::Rss) || transcript {
                    "url"
                } else {
                    "href"
                };
                let Some(url) = child.attribute_node(holder) else {
                    continue;
                };
                // Asked as written: an absolute URL needs no base, nor the
                // normal form links are compared in.
                let written = url.value().trim();
                // A value that is no IRI is the URL rules' finding
                // (rss-invalid-url, itunes-invalid-image, the Atom IRI
                // rules): no request is made of it, and nothing more said.
                if crate::text::iri::check_iri_reference(written).is_err() {
                    continue;
                }
                let resolved = if crate::text::iri::has_scheme(written) {
                    written.to_owned()
                } else {
                    match feed.resolve(child, written) {
                        Ok(resolved) => resolved.into(),
                        Err(_) => continue,
                    }
                };
                let scheme = resolved.split_once(':').map_or("", |(scheme, _)| scheme);
                if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
                    continue;
                }
                let attribute = |name: &str| child.attribute_node(name).filter(|_| enclosure);
                let (media_type, length) = (attribute("type"), attribute("length"));
                let range = |attribute: Option<crate::xml::Attribute>| attribute.map(|a| a.range_value());
                let [written, type_at, length_at] =
                    locate_in_order(&mut at, [Some(url.range_value()), range(media_type), range(length)]);
                let located = |attribute: Option<crate::xml::Attribute>, span: Option<Location>| {
                    Some(Located {
                        value: attribute?.value().trim().to_owned(),
                        span: span?,
                    })
                };
                let kind = if enclosure {
                    MediaKind::Enclosure {
                        media_type: located(media_type, type_at),
                        length: located(length, length_at),
                    }
                } else if transcript {
                    MediaKind::Transcript
                } else {
                    MediaKind::Artwork
                };
                let Some(written) = written else { continue };
                found.push(MediaRef {
                    url: resolved,
                    at: written,
                    kind,
                });
            }
        }
        found
    }

    /// Every place a finding about it may point at.
    fn places(&self) -> impl Iterator<Item = &Location> {
        let (media_type, length) = match &self.kind {
            MediaKind::Enclosure { media_type, length } => (media_type.as_ref(), length.as_ref()),
            MediaKind::Artwork | MediaKind::Transcript => (None, None),
        };
        std::iter::once(&self.at)
            .chain(media_type.map(|t| &t.span))
            .chain(length.map(|l| &l.span))
    }
}

/// Locates `ranges`, close together and written in any order, in document
/// order: the order a locator is asked in.
fn locate_in_order<const N: usize>(
    at: &mut crate::findings::source::Locator,
    ranges: [Option<std::ops::Range<usize>>; N],
) -> [Option<Location>; N] {
    let mut order: [usize; N] = std::array::from_fn(|i| i);
    order.sort_by_key(|&i| ranges[i].as_ref().map_or(0, |range| range.start));
    let mut located = [const { None }; N];
    for i in order {
        located[i] = ranges[i].clone().map(|range| at.locate(range));
    }
    located
}

#[derive(Debug, Clone)]
pub struct DocSummary {
    pub kind: DocKind,
    /// Whether it is checked as a podcast ([`crate::feed::Podcast`]).
    pub podcast: bool,
    /// The version an RSS document names, where it is one of RSS 2.0's
    /// forerunners (`0.91`, `0.92`): what the page calls it.
    pub rss_version: Option<&'static str>,
    /// The RSS channel's title and `podcast:guid`, which the pages of a
    /// paged feed share.
    pub channel_title: Option<SharedValue>,
    pub podcast_guid: Option<SharedValue>,
    /// A JSON Feed's `feed_url` as written: the feed's identifier, which
    /// the pages of a paged JSON Feed share.
    pub json_feed_url: Option<SharedValue>,
    /// The root element's start tag: where findings about the whole
    /// document point.
    pub root: Location,
    /// The first `self` link's target, and its `href`.
    pub self_link: Option<Located<Url>>,
    /// The first `fh:archive` and `fh:complete` of the head section.
    pub archive_marker: Option<Location>,
    pub complete_marker: Option<Location>,
    /// Whether a `current` link names another document than this one.
    pub current_elsewhere: bool,
    /// Head-section navigation links, in document order.
    pub links: Vec<NavLink>,
    /// The navigation relations a head-section link's `rel` misspells
    /// (`prevArchive`): `link-relation-typo` reports the link, and the
    /// rules on a missing relation leave the document to it.
    pub misspelt: Vec<Relation>,
    /// Feed-level `atom:id`.
    pub feed_id: Option<Located<String>>,
    /// Feed-level update time: `atom:updated`, or RSS `lastBuildDate`.
    pub feed_updated: Option<Located<Instant>>,
    pub entries: Vec<EntrySummary>,
    /// The tombstones' refs, then the entries' ids, one after the other.
    id_text: String,
    /// The `ref` of every tombstone that is a child of the feed: a range of
    /// `id_text` (one allocation per document, as the entries' ids), and
    /// where the value is written.
    tombstone_refs: Vec<TombstoneRef>,
    /// The media the document names, gathered only when the run checks
    /// them ([`crate::Options::media`]).
    pub media: Vec<MediaRef>,
    /// The targets of links in entries' HTML that may be files of the
    /// document's own site, where written (`content-link-missing`): set by
    /// the analysis, which reads the HTML with the rules' reader.
    pub content_links: Vec<Located<Url>>,
    /// The web page the feed says it is the feed of: Atom's `alternate`
    /// link, an RSS channel's `link`, a JSON Feed's `home_page_url`.
    pub home: Option<Url>,
    /// The WebSub hubs the document names, in it or in its `Link` header
    /// (there: at its root), gathered only when the run asks them
    /// ([`crate::Options::hubs`]).
    pub hubs: Vec<Located<Url>>,
}

/// The links a chain check follows, each with its relation and place.
fn nav_links(feed: &FeedDoc<'_, '_>, at: &mut crate::findings::source::Locator<'_>) -> Vec<NavLink> {
    // The first link of each relation is the one followed: a second with
    // another target (a `prev` beside a `previous`) is
    // duplicate-navigation-link's one finding, not a second chain.
    let mut followed: Vec<crate::feed::Relation> = Vec::new();
    feed.links
        .iter()
        .filter_map(|l| {
            let rel = l.rel.followed_as()?;
            if followed.contains(&rel) {
                return None;
            }
            followed.push(rel);
            Some(NavLink {
                rel,
                target: l.target.clone(),
                span: at.locate(l.span()),
                file_href: l
                    .href
                    .and_then(|href| href.trim_start().get(..5))
                    .is_some_and(|scheme| scheme.eq_ignore_ascii_case("file:")),
            })
        })
        .collect()
}

/// The web page a feed says it is the feed of: an RSS channel's `link`,
/// else the first head-level `alternate` link (Atom's, or an RSS channel's
/// `atom:link`).
fn home_of(feed: &FeedDoc<'_, '_>) -> Option<Url> {
    let channel_link = feed
        .head
        .filter(|_| feed.kind == DocKind::Rss)
        .and_then(|channel| child_text(channel, None, "link"))
        .and_then(|text| resolved(feed.url, text.value));
    channel_link.or_else(|| {
        feed.links
            .iter()
            .find(|link| link.rel.as_str() == "alternate")
            .and_then(|link| link.target.clone())
    })
}

/// A reference written in a document, resolved against its URL (taken
/// alone where the document has none).
fn resolved(base: Option<&Url>, href: &str) -> Option<Url> {
    let href = href.trim();
    match base {
        Some(base) => base.join(href).ok(),
        None => Url::parse(href).ok(),
    }
}

/// When the feed says it was last updated (Atom's `updated`, RSS's
/// `lastBuildDate`), where it says it is a date.
fn feed_updated(
    feed: &FeedDoc<'_, '_>,
    at: &mut crate::findings::source::Locator<'_>,
) -> Option<Located<date::Instant>> {
    let head = feed.head?;
    let (text, instant) = match feed.kind {
        DocKind::Rss => {
            let text = child_text(head, None, "lastBuildDate")?;
            let instant = date::parse_rfc822(text.value).ok()?;
            (text, instant)
        }
        _ => {
            let text = child_text(head, Some(ATOM_NS), "updated")?;
            let instant = date::parse_rfc3339(text.value).ok()?;
            (text, instant)
        }
    };
    Some(Located {
        value: instant,
        span: at.locate(text.range),
    })
}

/// A tombstone's ref (its bytes in the summary's id text) and its place.
type TombstoneRef = ((u32, u32), Location);

/// The tombstones' refs and the entries' ids, kept in one text (the
/// refs first), with the refs' places and each entry's summary.
fn ids(
    feed: &FeedDoc<'_, '_>,
    hasher: &FastState,
    at: &mut crate::findings::source::Locator<'_>,
) -> (String, Vec<TombstoneRef>, Vec<EntrySummary>) {
    // An Entry Document's entry is published on its own, beside the feeds
    // that hold it (an AtomPub member): it is no entry of a chain, and no
    // duplicate of theirs.
    let in_chains = feed.kind != DocKind::AtomEntry;
    let tombstone_refs = || {
        feed.everywhere
            .tombstones
            .iter()
            .filter(|t| t.parent_element().is_some_and(|p| p.id() == feed.root.id()))
            .filter_map(|t| t.attribute_node("ref"))
    };
    // Grown as the ids come (each is read once), then trimmed to its
    // length: a run keeps it to its end.
    let mut id_text = String::with_capacity(tombstone_refs().map(|r| r.value().len()).sum::<usize>());
    let mut refs = Vec::with_capacity(tombstone_refs().count());
    for reference in tombstone_refs() {
        let start = id_text.len();
        id_text.push_str(reference.value());
        refs.push(((small(start), small(id_text.len())), at.locate(reference.range_value())));
    }
    let mut entries = Vec::with_capacity(feed.entries.len());
    let ids = feed
        .entries
        .iter()
        .filter(|_| in_chains)
        .filter_map(|entry| Some((entry, entry.id()?)));
    for (entry, id) in ids {
        let start = id_text.len();
        id_text.push_str(id.value);
        entries.push(EntrySummary {
            id: (small(start), small(id_text.len())),
            id_hash: hasher.hash_one(id.value),
            updated: entry.updated_at.clone(),
            media_hash: (feed.kind == DocKind::Rss)
                .then(|| entry.node.children().find(|c| c.has_tag_name(None, "enclosure")))
                .flatten()
                .and_then(|enclosure| enclosure.attribute("url"))
                .map(|url| hasher.hash_one(url.trim())),
            at: at.locate(id.range.clone()),
        });
    }
    id_text.shrink_to_fit();
    (id_text, refs, entries)
}

impl DocSummary {
    pub fn of(feed: &FeedDoc<'_, '_>, source: &Source) -> Self {
        // One locator for every span, asked mostly in document order.
        let mut at = source.locator();
        let root = at.locate(start_tag(feed.root));
        let archive_marker = feed.archive.first().map(|m| at.locate(start_tag(*m)));
        let complete_marker = feed.complete.first().map(|m| at.locate(start_tag(*m)));
        let self_link = feed.self_link().and_then(|l| {
            Some(Located {
                value: l.target.clone()?,
                span: at.locate(l.span()),
            })
        });
        let links = nav_links(feed, &mut at);
        // Only a relation that is neither a navigation one nor `self` can
        // misspell one (most links are those, or alternate).
        let misspelt = feed
            .links
            .iter()
            .filter(|l| matches!(l.rel, crate::feed::Rel::Other(_)))
            .filter_map(|l| Relation::of(crate::feed::intended_relation(l.rel.as_str())?))
            .collect();
        let feed_updated = feed_updated(feed, &mut at);
        let feed_id = feed
            .head
            .filter(|_| feed.kind == DocKind::Atom)
            .and_then(|head| child_text(head, Some(ATOM_NS), "id"))
            .map(|text| Located {
                value: text.value.to_owned(),
                span: at.locate(text.range),
            });
        let hasher = FastState::default();
        let (id_text, tombstone_refs, entries) = ids(feed, &hasher, &mut at);
        let channel = feed.head.filter(|_| feed.kind == DocKind::Rss);
        let mut located = |text: crate::feed::Text| SharedValue {
            hash: hasher.hash_one(text.value),
            shown: crate::findings::diagnostic::shorten(text.value).to_string(),
            span: at.locate(text.range),
        };
        let channel_title = channel.and_then(|c| child_text(c, None, "title")).map(&mut located);
        let podcast_guid = channel
            .and_then(|c| child_text(c, Some(crate::feed::PODCAST_NS), "guid"))
            .map(&mut located);
        let rss_version = (feed.kind == DocKind::Rss)
            .then(|| match feed.xml.root_element().attribute("version").map(str::trim) {
                Some("0.91") => Some("0.91"),
                Some("0.92") => Some("0.92"),
                _ => None,
            })
            .flatten();
        DocSummary {
            kind: feed.kind,
            podcast: feed.is_podcast(),
            rss_version,
            channel_title,
            podcast_guid,
            json_feed_url: None,
            root,
            self_link,
            archive_marker,
            complete_marker,
            current_elsewhere: feed.links_with(Relation::Current).any(|l| feed.points_elsewhere(l)),
            links,
            misspelt,
            feed_id,
            feed_updated,
            entries,
            id_text,
            tombstone_refs,
            media: Vec::new(),
            content_links: Vec::new(),
            home: home_of(feed),
            hubs: Vec::new(),
        }
    }

    /// A JSON Feed's summary: its root object, its `feed_url` (where it says
    /// it is: its self place), its `next_url` (a paging chain's next link)
    /// and its items' ids.
    pub fn of_json(feed: &crate::feed::json_feed::JsonFeed<'_, '_>, source: &Source) -> Self {
        let mut at = source.locator();
        let root = at.locate(crate::feed::json_feed::opening(feed.root));
        // `feed_url` identifies the feed, and every page of a paged feed
        // carries the first page's: it is this document's self link only
        // where it may name this document, by its file name (as a self
        // link places a file only where its path ends in the file's).
        let self_link = feed
            .string("feed_url")
            .zip(feed.feed_url())
            .filter(|(_, value)| {
                feed.url.is_some_and(|url| {
                    crate::text::iri::comparison_key(url) == crate::text::iri::comparison_key(value)
                        || crate::text::iri::file_name(url)
                            .is_some_and(|name| crate::text::iri::file_name(value) == Some(name))
                })
            })
            .map(|((_, range), value)| Located {
                value,
                span: at.locate(range),
            });
        // `next_url` is a paging chain's next link (JSON Feed 1.1,
        // Top-level: "the URL of a feed that provides the next n items").
        let links = feed
            .string("next_url")
            .map(|(href, range)| {
                let href = href.trim();
                let target = resolved(feed.url, href);
                NavLink {
                    rel: Relation::Next,
                    file_href: href.get(..5).is_some_and(|scheme| scheme.eq_ignore_ascii_case("file:")),
                    target: target.map(|mut url| {
                        url.set_fragment(None);
                        url
                    }),
                    span: at.locate(range),
                }
            })
            .into_iter()
            .collect();
        let hasher = FastState::default();
        let json_feed_url = feed.string("feed_url").map(|(href, range)| SharedValue {
            hash: hasher.hash_one(href.trim()),
            shown: crate::findings::diagnostic::shorten(href).to_string(),
            span: at.locate(range),
        });
        let mut id_text = String::new();
        let mut entries = Vec::new();
        for item in feed.items() {
            let Some((id, range)) = crate::feed::json_feed::string(item, "id") else {
                continue;
            };
            let start = id_text.len();
            id_text.push_str(id);
            // The item's `url` tells two items of one id apart, as an
            // enclosure tells two episodes apart.
            let url = crate::feed::json_feed::string(item, "url").map(|(url, _)| url.trim());
            entries.push(EntrySummary {
                id: (small(start), small(id_text.len())),
                id_hash: hasher.hash_one(id),
                updated: None,
                media_hash: url.map(|url| hasher.hash_one(url)),
                at: at.locate(range),
            });
        }
        id_text.shrink_to_fit();
        DocSummary {
            kind: DocKind::JsonFeed,
            podcast: false,
            rss_version: None,
            channel_title: None,
            podcast_guid: None,
            json_feed_url,
            root,
            self_link,
            archive_marker: None,
            complete_marker: None,
            current_elsewhere: false,
            links,
            misspelt: Vec::new(),
            feed_id: None,
            feed_updated: None,
            entries,
            id_text,
            tombstone_refs: Vec::new(),
            media: Vec::new(),
            content_links: Vec::new(),
            home: feed
                .string("home_page_url")
                .and_then(|(href, _)| resolved(feed.url, href)),
            hubs: Vec::new(),
        }
    }

    /// The `ref` of every tombstone that is a child of the feed, and where
    /// it is written.
    pub fn tombstone_refs(&self) -> impl Iterator<Item = (&str, &Location)> {
        self.tombstone_refs
            .iter()
            .map(|&(range, ref at)| (self.id_text(range), at))
    }

    /// An entry's id.
    pub fn id(&self, entry: &EntrySummary) -> &str {
        self.id_text(entry.id)
    }

    /// A range of `id_text`.
    fn id_text(&self, (start, end): (u32, u32)) -> &str {
        &self.id_text[start as usize..end as usize]
    }

    /// How the document writes a link of this relation: a JSON Feed's next
    /// link is its `next_url` member, what its author knows it by.
    pub fn written(&self, rel: Relation) -> &'static str {
        match (self.kind, rel) {
            (DocKind::JsonFeed, Relation::Next) => "next_url",
            _ => rel.as_str(),
        }
    }

    /// The first navigation link with this relation.
    pub fn link(&self, rel: Relation) -> Option<&NavLink> {
        self.links.iter().find(|l| l.rel == rel)
    }

    pub fn self_iri(&self) -> Option<&Url> {
        self.self_link.as_ref().map(|l| &l.value)
    }

    /// The archive marker, else the root element: where findings about an
    /// archive as a whole point.
    pub fn archive_span(&self) -> &Location {
        self.archive_marker.as_ref().unwrap_or(&self.root)
    }

    /// An archive by its marker, or by a `current` link to another document.
    pub fn is_archive_like(&self) -> bool {
        self.is_archive() || self.current_elsewhere
    }

    pub fn is_archive(&self) -> bool {
        self.archive_marker.is_some()
    }

    /// Every span, so that the report can set their document.
    /// Every place a set finding may point at, for the text format's
    /// snippets.
    pub fn places(&self) -> impl Iterator<Item = crate::text::snippet::Place> + '_ {
        std::iter::once(&self.root)
            .chain(self.self_link.iter().map(|l| &l.span))
            .chain(self.archive_marker.iter())
            .chain(self.complete_marker.iter())
            .chain(self.links.iter().map(|l| &l.span))
            .chain(self.feed_id.iter().map(|l| &l.span))
            .chain(self.feed_updated.iter().map(|l| &l.span))
            .chain(self.tombstone_refs.iter().map(|(_, at)| at))
            .chain(self.entries.iter().map(|e| &e.at))
            .chain(self.media.iter().flat_map(MediaRef::places))
            .chain(self.content_links.iter().map(|l| &l.span))
            .map(Location::start_place)
    }
}
