//! The documents of a run seen together: an index from URLs and `self`
//! IRIs to documents, the archive and paging graphs, and the reconstruction
//! walks that RFC 5005 §4.2 describes. Everything here works on
//! [`DocSummary`]s; no DOM is alive any more. Every walk is iterative and
//! visits each document once, so a 10,000-document chain costs linear time.

use std::borrow::Cow;
use std::path::PathBuf;

use url::Url;

use crate::base::hash::FastMap;
use crate::feed::Relation;
pub use crate::feed::{ARCHIVE_RELATIONS, PAGING_RELATIONS};
use crate::findings::diagnostic::DocId;
use crate::model::document::Document;
use crate::model::redirects::Redirects;
use crate::model::summary::{DocSummary, NavLink};
use crate::text::iri;

/// The relations that lead one way through a chain, and so can loop.
pub const CYCLE_RELATIONS: [Relation; 4] = [
    Relation::PrevArchive,
    Relation::NextArchive,
    Relation::Previous,
    Relation::Next,
];

/// Where documents are expected: a URL prefix under which a linked
/// document should be among those read (see `archive-link-dangling`), and
/// the directory published there, when it is one.
#[derive(Debug, Clone)]
pub struct UrlSpace {
    pub url: Url,
    pub directory: Option<PathBuf>,
    /// The directory stands for `/` too, as a web server serves the tree:
    /// a root-relative link (`/feed/2024.atom`) of a document known by its
    /// `file:` URL resolves to `file:///feed/2024.atom`, which names
    /// `DIRECTORY/feed/2024.atom`.
    pub root_relative: bool,
    /// For an upload's space: what the folder uploaded holds.
    pub uploaded: Option<std::sync::Arc<Uploaded>>,
}

/// What a folder uploaded (to the web page) holds, for the links into it.
#[derive(Debug, Default)]
pub struct Uploaded {
    /// The paths of its files below its URL, decoded (feeds or not: a page
    /// or an image a link names).
    pub paths: std::collections::HashSet<String>,
    /// Its `_redirects` file's rules.
    pub redirects: Redirects,
}

impl UrlSpace {
    /// A space of URLs that name no directory.
    pub fn of(url: Url) -> UrlSpace {
        UrlSpace {
            url,
            directory: None,
            root_relative: false,
            uploaded: None,
        }
    }

    /// The file a URL of this space names, if it is below it.
    fn file_of(&self, url: &Url) -> Option<PathBuf> {
        let rest = url.as_str().strip_prefix(self.url.as_str())?;
        Self::below(self.directory.clone()?, rest)
    }

    /// The file a root-relative `file:` URL names below the directory.
    fn root_relative_file_of(&self, url: &Url) -> Option<PathBuf> {
        if !self.root_relative || url.scheme() != "file" {
            return None;
        }
        Self::below(self.directory.clone()?, url.path())
    }

    fn below(mut path: PathBuf, rest: &str) -> Option<PathBuf> {
        let rest = rest.split(['?', '#']).next().unwrap_or_default();
        for segment in rest.split('/').filter(|s| !s.is_empty()) {
            let segment = percent_encoding::percent_decode_str(segment).decode_utf8_lossy();
            if segment == ".." || segment == "." {
                return None;
            }
            path.push(&*segment);
        }
        Some(path)
    }
}

/// Whether a web server would serve something for `path` of a tree: the
/// file, a folder's `index.html`, or `path.html`.
fn served_from(path: &std::path::Path) -> bool {
    let mut with_html = path.as_os_str().to_owned();
    with_html.push(".html");
    path.is_file() || path.join("index.html").is_file() || std::path::Path::new(&with_html).is_file()
}

/// A subscription document and the archives its `prev-archive` links reach.
#[derive(Debug)]
pub struct Chain {
    pub subscription: DocId,
    /// The archives in walk order: newest first.
    pub archives: Vec<DocId>,
    /// The walk ended at a document without `prev-archive`: every archive
    /// of the logical feed is in the set.
    pub complete: bool,
}

pub struct FeedSet<'r> {
    docs: &'r [Document],
    /// By URL and by self IRI, with the fast hasher: every link of every
    /// document is looked up here, and SipHash over URLs cost more than
    /// the rest of the lookup.
    /// Keyed by the comparable form of each URL ([`iri::comparison_key`]):
    /// link targets are in that form, so equivalent IRIs (RFC 3986 §6.2.2)
    /// find the same document.
    by_url: FastMap<Cow<'r, str>, DocId>,
    by_self: FastMap<&'r str, DocId>,
    url_spaces: &'r [UrlSpace],
    /// The spaces by URL: each link target looks up the prefixes of its
    /// own URL (there may be a space a folder of the run).
    spaces_by_url: FastMap<&'r str, usize>,
    /// The space whose directory stands for `/`, if one does.
    root_relative: Option<&'r UrlSpace>,
    /// Each space's `_redirects`, read the first time a link into it
    /// names no file.
    redirects: Vec<std::sync::OnceLock<Redirects>>,
    /// Connected components over archive links, and over paging links.
    archive_group: Vec<DocId>,
    paging_group: Vec<DocId>,
    /// Connected components over `prev-archive` and `next-archive` alone:
    /// the archives that name each other in sequence.
    sequence_group: Vec<DocId>,
    pub chains: Vec<Chain>,
    /// The chain (index into `chains`) that reaches each document.
    chain_of: Vec<Option<usize>>,
    /// Whether another document names each document as its `current`.
    named_current: Vec<bool>,
    /// The cycles of each relation that can form one, found once: the
    /// cycle rules and the asymmetry rules both ask.
    cycles: Vec<(Relation, Vec<Vec<DocId>>)>,
}

impl<'r> FeedSet<'r> {
    pub fn new(docs: &'r [Document], url_spaces: &'r [UrlSpace]) -> Self {
        let mut by_url = FastMap::default();
        let mut by_self: FastMap<&str, Vec<DocId>> = FastMap::default();
        for (id, doc) in docs.iter().enumerate() {
            // Every document the run read has its URL indexed, so that a link
            // to a malformed one is not taken for a missing one.
            for url in doc.url.iter().chain(&doc.aliases) {
                by_url.entry(iri::comparison_key(url)).or_insert(id);
            }
            if let Some(self_iri) = doc.summary.as_deref().and_then(DocSummary::self_iri) {
                by_self.entry(self_iri.as_str()).or_default().push(id);
            }
        }
        // A self IRI that several documents claim names none of them: unrelated
        // feeds linted together (test fixtures, mirrors) often share one.
        let by_self = by_self
            .into_iter()
            .filter_map(|(iri, docs)| (docs.len() == 1).then(|| (iri, docs[0])))
            .collect();
        let mut set = FeedSet {
            docs,
            by_url,
            by_self,
            url_spaces,
            spaces_by_url: url_spaces
                .iter()
                .enumerate()
                .rev()
                .map(|(i, space)| (space.url.as_str(), i))
                .collect(),
            root_relative: url_spaces.iter().find(|space| space.root_relative),
            redirects: url_spaces.iter().map(|_| std::sync::OnceLock::new()).collect(),
            archive_group: Vec::new(),
            paging_group: Vec::new(),
            sequence_group: Vec::new(),
            chains: Vec::new(),
            chain_of: vec![None; docs.len()],
            named_current: vec![false; docs.len()],
            cycles: Vec::new(),
        };
        let named: Vec<DocId> = set
            .edges(Relation::Current)
            .filter(|(from, _, to)| from != to)
            .map(|(_, _, to)| to)
            .collect();
        for doc in named {
            set.named_current[doc] = true;
        }
        set.archive_group = set.components(&ARCHIVE_RELATIONS);
        set.paging_group = set.components(&PAGING_RELATIONS);
        set.sequence_group = set.components(&[Relation::PrevArchive, Relation::NextArchive]);
        set.walk_chains();
        set.cycles = CYCLE_RELATIONS
            .iter()
            .map(|rel| (*rel, find_cycles(&set, *rel)))
            .collect();
        set
    }

    /// The documents that were linted as feeds, in report order.
    pub fn feeds(&self) -> impl Iterator<Item = (DocId, &'r DocSummary)> + '_ {
        self.docs
            .iter()
            .enumerate()
            .filter_map(|(id, doc)| Some((id, doc.summary.as_deref()?)))
    }

    pub fn summary(&self, doc: DocId) -> &'r DocSummary {
        self.docs[doc].summary.as_ref().expect("only feeds are linked")
    }

    /// Every document of the run, by [`DocId`].
    pub fn documents(&self) -> &'r [Document] {
        self.docs
    }

    pub fn document(&self, doc: DocId) -> &'r Document {
        &self.docs[doc]
    }

    pub fn name(&self, doc: DocId) -> &'r str {
        &self.docs[doc].name
    }

    /// The feed document a link target names: by its URL, else by its
    /// `self` IRI.
    pub fn resolve(&self, target: &Url) -> Option<DocId> {
        self.by_url
            .get(target.as_str())
            .or_else(|| self.by_self.get(target.as_str()))
            .copied()
            .filter(|doc| self.docs[*doc].summary.is_some())
    }

    /// Whether any document the run read (a feed or not) has this URL.
    pub fn was_read(&self, target: &Url) -> bool {
        self.by_url.contains_key(target.as_str()) || self.by_self.contains_key(target.as_str())
    }

    /// How a message names a link target: the document's name when it is
    /// in the set; the file's path, as the user would type it, when it
    /// names one (the user's files are named by their paths, never by
    /// `file:` URLs the run made up); else the IRI.
    pub fn describe(&self, target: Option<&Url>) -> String {
        let Some(url) = target else {
            return "an unresolvable reference".to_owned();
        };
        if let Some(doc) = self.resolve(url) {
            return self.name(doc).to_owned();
        }
        let file = self.space_of(url).and_then(|space| space.file_of(url)).or_else(|| {
            let root_relative = self.root_relative.and_then(|space| space.root_relative_file_of(url));
            root_relative.or_else(|| url.to_file_path().ok())
        });
        file.map_or_else(|| url.to_string(), |file| crate::base::shown::shown_path(&file))
    }

    /// How a link in document `from` could name document `to`: relative
    /// to `from`'s URL where both are known and relative references reach
    /// (`2024-02.atom`), else `to`'s URL, else its name.
    pub fn reference(&self, from: DocId, to: DocId) -> String {
        let target = self.docs[to].url.as_ref();
        let relative = self.docs[from]
            .url
            .as_ref()
            .zip(target)
            .filter(|(from, to)| from.origin() == to.origin() || from.scheme() == "file" && to.scheme() == "file")
            .and_then(|(from, to)| from.make_relative(to));
        match (relative, target) {
            (Some(relative), _) if !relative.is_empty() => relative,
            (_, Some(url)) if url.scheme() != "file" => url.to_string(),
            _ => self.name(to).to_owned(),
        }
    }

    /// The document the first `rel` link of `doc` leads to.
    pub fn follow(&self, doc: DocId, rel: Relation) -> Option<DocId> {
        self.resolve(self.summary(doc).link(rel)?.target.as_ref()?)
    }

    /// Whether links can name `doc` at all: it has a URL or a `self` IRI.
    pub fn has_identity(&self, doc: DocId) -> bool {
        self.docs[doc].url.is_some() || self.summary(doc).self_iri().is_some()
    }

    /// Whether `target` names `doc`, by its URL or its `self` IRI.
    pub fn identifies(&self, target: &Url, doc: DocId) -> bool {
        let document = &self.docs[doc];
        document.url.as_ref() == Some(target)
            || document.aliases.contains(target)
            || self.summary(doc).self_iri() == Some(target)
    }

    /// Whether `url` lies under a linted directory (its `--base-url` or its
    /// `file:` URL): a document is expected there if one is linked.
    pub fn in_url_space(&self, url: &Url) -> bool {
        self.space_of(url).is_some() || url.scheme() == "file" && self.root_relative.is_some()
    }

    /// Whether the published tree a URL lies in has something a web server
    /// serves for it (the file, its folder's `index.html`, the name with
    /// `.html`: the pretty URLs static hosts serve), and the file's name as
    /// shown; `None` where the URL lies in no tree known to be published: a
    /// `file:` URL counts only below a tree given as the root (a directory
    /// that merely holds what was linted is no site).
    pub fn site_has(&self, url: &Url) -> Option<(bool, String)> {
        if url.scheme() == "file" && self.root_relative.is_none() {
            return None;
        }
        if let Some(index) = self.space_index_of(url) {
            let space = &self.url_spaces[index];
            if let Some(uploaded) = &space.uploaded {
                let rest = url.as_str().strip_prefix(space.url.as_str())?;
                let rest = rest.split(['?', '#']).next().unwrap_or_default();
                let rest = percent_encoding::percent_decode_str(rest).decode_utf8().ok()?;
                let folder = if rest.is_empty() || rest.ends_with('/') {
                    ""
                } else {
                    "/"
                };
                let there = [
                    rest.to_string(),
                    format!("{rest}.html"),
                    format!("{rest}{folder}index.html"),
                ]
                .iter()
                .any(|candidate| uploaded.paths.contains(candidate))
                    || uploaded.redirects.cover(url.path());
                return Some((there, rest.into_owned()));
            }
            let path = space.file_of(url)?;
            let there = served_from(&path) || self.redirected(index, url);
            return Some((there, crate::base::shown::shown_path(&path)));
        }
        let space = self.root_relative?;
        let path = space.root_relative_file_of(url)?;
        let index = self.url_spaces.iter().position(|s| std::ptr::eq(s, space))?;
        let there = served_from(&path) || self.redirected(index, url);
        Some((there, crate::base::shown::shown_path(&path)))
    }

    /// Whether the `_redirects` file of space `index`'s directory answers
    /// the URL's path though no file is there: only where the directory is
    /// what the host publishes at `/` (its URL's path is `/`, or it stands
    /// for `/`), where hosts read that file.
    fn redirected(&self, index: usize, url: &Url) -> bool {
        let space = &self.url_spaces[index];
        let Some(directory) = space
            .directory
            .as_ref()
            .filter(|_| space.root_relative || space.url.path() == "/")
        else {
            return false;
        };
        self.redirects[index]
            .get_or_init(|| Redirects::of(directory))
            .cover(url.path())
    }

    /// The space a URL is below: the one of its prefixes (those ending in
    /// `/`) that is a space's URL, the longest.
    fn space_of(&self, url: &Url) -> Option<&'r UrlSpace> {
        self.space_index_of(url).map(|i| &self.url_spaces[i])
    }

    fn space_index_of(&self, url: &Url) -> Option<usize> {
        let url = url.as_str();
        url.char_indices()
            .rev()
            .filter(|(_, c)| *c == '/')
            .find_map(|(at, _)| self.spaces_by_url.get(&url[..=at]).copied())
    }

    /// The link where a chain's walk stopped because it dangles: the last
    /// document reached names, by `prev-archive`, a document that is not
    /// there, so every older archive is cut off.
    pub fn dangling_end(&self, chain: &Chain) -> Option<(DocId, &'r NavLink)> {
        let last = chain.archives.last().copied().unwrap_or(chain.subscription);
        let link = self.summary(last).link(Relation::PrevArchive)?;
        self.dangles(link.target.as_ref()?).then_some((last, link))
    }

    /// Whether a link target lies where a document is expected, but none
    /// was read there: the link dangles.
    pub fn dangles(&self, target: &Url) -> bool {
        self.in_url_space(target) && !self.was_read(target)
    }

    /// The archive chain (connected by archive links) a document is in,
    /// named by its smallest document.
    pub fn group_of(&self, doc: DocId) -> DocId {
        self.archive_group[doc]
    }

    /// The archives that name each other in sequence (by `prev-archive` and
    /// `next-archive`, not `current`) with a document, named by the
    /// smallest.
    pub fn sequence_of(&self, doc: DocId) -> DocId {
        self.sequence_group[doc]
    }

    /// The paged feed (connected by paging links) a document is in.
    pub fn paging_group_of(&self, doc: DocId) -> DocId {
        self.paging_group[doc]
    }

    /// The cycles that following `rel` links makes (one of
    /// [`CYCLE_RELATIONS`]), each starting at its smallest document.
    pub fn cycles(&self, rel: Relation) -> &[Vec<DocId>] {
        self.cycles
            .iter()
            .find(|(r, _)| *r == rel)
            .map_or(&[], |(_, cycles)| cycles)
    }

    /// Whether another document names `doc` as its `current`: then it is a
    /// subscription document.
    pub fn is_named_current(&self, doc: DocId) -> bool {
        self.named_current[doc]
    }

    pub fn chain_of(&self, doc: DocId) -> Option<&Chain> {
        self.chain_of[doc].map(|i| &self.chains[i])
    }

    /// Every `rel` link of every document that leads to a document of the
    /// set: (from, link, to).
    pub fn edges(&self, rel: Relation) -> impl Iterator<Item = (DocId, &'r NavLink, DocId)> + '_ {
        self.feeds().flat_map(move |(from, summary)| {
            summary
                .links
                .iter()
                .filter(move |l| l.rel == rel)
                .filter_map(move |l| Some((from, l, self.resolve(l.target.as_ref()?)?)))
        })
    }

    /// Union-find over the links with these relations.
    fn components(&self, relations: &[Relation]) -> Vec<DocId> {
        let mut parent: Vec<DocId> = (0..self.docs.len()).collect();
        fn root(parent: &mut [DocId], mut x: DocId) -> DocId {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for &rel in relations {
            let edges: Vec<(DocId, DocId)> = self.edges(rel).map(|(a, _, b)| (a, b)).collect();
            for (a, b) in edges {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
        (0..self.docs.len()).map(|x| root(&mut parent, x)).collect()
    }

    /// Walks `prev-archive` from every subscription document, as RFC 5005
    /// §4.2 reconstructs a feed. A document is claimed by the first walk
    /// that reaches it, so the walks together visit each document once.
    fn walk_chains(&mut self) {
        let subscriptions: Vec<DocId> = self
            .feeds()
            .filter(|(_, s)| is_subscription(s))
            .map(|(id, _)| id)
            .collect();
        for subscription in subscriptions {
            if self.chain_of[subscription].is_some() {
                continue;
            }
            let index = self.chains.len();
            self.chain_of[subscription] = Some(index);
            let mut archives = Vec::new();
            let mut at = subscription;
            let complete = loop {
                let Some(link) = self.summary(at).link(Relation::PrevArchive) else {
                    break at != subscription;
                };
                let Some(next) = link.target.as_ref().and_then(|t| self.resolve(t)) else {
                    break false;
                };
                if self.chain_of[next].is_some() {
                    break false;
                }
                self.chain_of[next] = Some(index);
                archives.push(next);
                at = next;
            };
            self.chains.push(Chain {
                subscription,
                archives,
                complete,
            });
        }
    }
}

/// A subscription document: not an archive (no `fh:archive`, no `current`
/// link elsewhere), not complete, and it links to archives.
/// Where a link is written, to tell links apart: its document and the
/// byte its `href` starts at.
pub type LinkKey = (DocId, usize);

pub fn link_key(doc: DocId, link: &NavLink) -> LinkKey {
    (doc, link.span.in_doc(doc).byte_start)
}

pub fn is_subscription(summary: &DocSummary) -> bool {
    !summary.is_archive()
        && !summary.current_elsewhere
        && summary.complete_marker.is_none()
        && summary.link(Relation::PrevArchive).is_some()
}

/// Finds the cycles of a graph in which each document has at most one
/// successor (its first `rel` link), in linear time. Each cycle is
/// returned once, starting at its smallest document; loops of one document
/// are left to `self-referencing-link`.
fn find_cycles(set: &FeedSet, rel: Relation) -> Vec<Vec<DocId>> {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; set.docs.len()];
    let mut found = Vec::new();
    for (start, _) in set.feeds() {
        let mut path = Vec::new();
        let mut at = Some(start);
        while let Some(doc) = at {
            match state[doc] {
                NEW => {
                    state[doc] = ON_PATH;
                    path.push(doc);
                    at = set.follow(doc, rel);
                }
                ON_PATH => {
                    let begin = path.iter().position(|d| *d == doc).expect("on the path");
                    let mut cycle = path[begin..].to_vec();
                    if cycle.len() > 1 {
                        let smallest = (0..cycle.len()).min_by_key(|i| cycle[*i]).expect("not empty");
                        cycle.rotate_left(smallest);
                        found.push(cycle);
                    }
                    break;
                }
                _ => break,
            }
        }
        for doc in path {
            state[doc] = DONE;
        }
    }
    found
}
