//! Where the files of a run are published when nobody said: learned from
//! the documents' own `self` links.
//!
//! A `self` link that is an absolute http(s) URL whose path ends with the
//! file's own path below some folder (`https://example.org/blog/index.atom`
//! for `site/blog/index.atom`) publishes that folder at the link's prefix
//! (`site/` at `https://example.org/`), for every file below it. The
//! longest such ending is taken: every document of one consistently
//! published tree then names the same folder and prefix, so agreeing self
//! links give one placement and contradicting ones meet on one folder.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

use percent_encoding::percent_decode_str;
use url::Url;

use crate::base::hash::{FastMap, FastSet};
use crate::findings::diagnostic::DocId;
use crate::text::iri;

/// A folder published at a URL, as a document's `self` link says.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The folder, canonical.
    pub folder: PathBuf,
    /// Where it is published, ending in `/`.
    pub prefix: Url,
}

/// How a document may take its URL from its `self` link while it is
/// analyzed (relative references resolve against that URL).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Learning {
    /// Its URL is given: `--url`, or a base URL with the directory it
    /// names (`--root`, a config's).
    Off,
    /// Nothing is given: a self link that places the file is its URL.
    Free,
    /// A base URL is given without the directory it names: a self link
    /// below the base URL places that directory.
    Within(Url),
}

impl Learning {
    /// Whether `url`, the self link's, may be the document's URL.
    pub(crate) fn takes(&self, url: &Url) -> bool {
        match self {
            Learning::Off => false,
            Learning::Free => true,
            Learning::Within(base) => url.as_str().starts_with(base.as_str()),
        }
    }
}

/// Where the file at `canonical` is published, as `self_url` says: an
/// http(s) URL without a query whose path ends with at least the file's
/// name. `None` for any other self link (a feed proxy's URL, a directory
/// URL, a `tag:` IRI): it says nothing about the tree.
pub fn placement(self_url: &Url, canonical: &Path) -> Option<Placement> {
    if !matches!(self_url.scheme(), "http" | "https") || self_url.query().is_some() {
        return None;
    }
    let segments: Vec<&str> = self_url.path_segments()?.collect();
    let names: Vec<&OsStr> = canonical
        .components()
        .filter_map(|component| match component {
            Component::Normal(name) => Some(name),
            _ => None,
        })
        .collect();
    let shared = segments
        .iter()
        .rev()
        .zip(names.iter().rev())
        .take_while(|(segment, name)| {
            !segment.is_empty() && percent_decode_str(segment).eq(name.as_encoded_bytes().iter().copied())
        })
        .count();
    if shared == 0 {
        return None;
    }
    let folder = canonical.ancestors().nth(shared)?.to_path_buf();
    let mut prefix = self_url.clone();
    prefix.set_fragment(None);
    {
        let mut path = prefix.path_segments_mut().ok()?;
        for _ in 0..shared {
            path.pop();
        }
        path.push("");
    }
    Some(Placement { folder, prefix })
}

impl Placement {
    /// The URL of a path below the folder.
    pub fn url_of(&self, canonical: &Path) -> Option<Url> {
        url_below(&self.prefix, canonical.strip_prefix(&self.folder).ok()?)
    }
}

/// The URL of a relative path below a directory's URL: each component a
/// path segment, percent-encoded as it needs.
pub(crate) fn url_below(directory: &Url, relative: &Path) -> Option<Url> {
    let mut url = directory.clone();
    {
        let mut path = url.path_segments_mut().ok()?;
        path.pop_if_empty();
        for component in relative.components() {
            path.push(&component.as_os_str().to_string_lossy());
        }
    }
    Some(url)
}

/// What the run's self links say together.
#[derive(Debug, Default)]
pub(crate) struct Agreement {
    /// One placement a folder, with the document whose self link stands
    /// for it: the one most self links give where they disagree.
    pub placements: Vec<(Placement, DocId)>,
    /// The documents whose self link places their folder elsewhere: each
    /// with the document that stands for the placement taken.
    pub dissent: Vec<(DocId, DocId)>,
}

/// The placements the documents' self links agree on. Self links
/// contradict each other only where they place one folder at two
/// prefixes (see the module's comment); the prefix most of them give is
/// taken (the first given, on a tie). A prefix that self links give to
/// several folders (copies of one site, test fixtures) publishes none of
/// them: which copy a URL would name is unknown.
pub(crate) fn agree(placements: &[(DocId, &Placement)]) -> Agreement {
    let mut folders_of: FastMap<Cow<'_, str>, &Path> = FastMap::default();
    let mut copied: FastSet<Cow<'_, str>> = FastSet::default();
    for (_, placement) in placements {
        let key = iri::comparison_key(&placement.prefix);
        match folders_of.get(&key) {
            Some(folder) if *folder != placement.folder => {
                copied.insert(key);
            }
            Some(_) => {}
            None => {
                folders_of.insert(key, &placement.folder);
            }
        }
    }
    let mut by_folder: FastMap<&Path, Vec<(&Url, Vec<DocId>)>> = FastMap::default();
    let mut folders: Vec<&Path> = Vec::new();
    for (doc, placement) in placements {
        if copied.contains(&iri::comparison_key(&placement.prefix)) {
            continue;
        }
        let prefixes = by_folder.entry(&placement.folder).or_insert_with(|| {
            folders.push(&placement.folder);
            Vec::new()
        });
        let key = iri::comparison_key(&placement.prefix);
        match prefixes
            .iter_mut()
            .find(|(prefix, _)| iri::comparison_key(prefix) == key)
        {
            Some((_, docs)) => docs.push(*doc),
            None => prefixes.push((&placement.prefix, vec![*doc])),
        }
    }
    let mut agreement = Agreement::default();
    for folder in folders {
        let mut prefixes = by_folder.remove(folder).unwrap_or_default();
        // Stable: on a tie the prefix given first is taken.
        prefixes.sort_by_key(|(_, docs)| std::cmp::Reverse(docs.len()));
        let mut prefixes = prefixes.into_iter();
        let Some((prefix, docs)) = prefixes.next() else {
            continue;
        };
        let standing = docs[0];
        agreement.placements.push((
            Placement {
                folder: folder.to_path_buf(),
                prefix: prefix.clone(),
            },
            standing,
        ));
        for (_, docs) in prefixes {
            agreement.dissent.extend(docs.into_iter().map(|doc| (doc, standing)));
        }
    }
    agreement
}

/// The directory a base URL names, as the self links place it: the
/// placement's folder, below it by what the base URL adds to its prefix.
/// `None` where the placement is not above the base URL.
pub(crate) fn root_for(base: &Url, placement: &Placement) -> Option<PathBuf> {
    let rest = base.as_str().strip_prefix(placement.prefix.as_str())?;
    let mut root = placement.folder.clone();
    for segment in rest.split('/').filter(|s| !s.is_empty()) {
        let name = percent_decode_str(segment).decode_utf8().ok()?;
        if name == "." || name == ".." || name.contains('/') {
            return None;
        }
        root.push(&*name);
    }
    Some(root)
}

/// The most common of `candidates` (the first given, on a tie).
pub(crate) fn most_common<T: std::hash::Hash + Eq + Clone>(candidates: &[T]) -> Option<T> {
    let mut counted: FastMap<&T, (usize, std::cmp::Reverse<usize>)> = FastMap::default();
    for (i, candidate) in candidates.iter().enumerate() {
        counted.entry(candidate).or_insert((0, std::cmp::Reverse(i))).0 += 1;
    }
    counted
        .into_iter()
        .max_by_key(|(_, rank)| *rank)
        .map(|(candidate, _)| candidate.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[test]
    fn a_self_link_places_the_folder_its_path_ends_in() {
        let placed = placement(
            &url("https://example.org/blog/index.atom"),
            Path::new("/srv/site/blog/index.atom"),
        )
        .unwrap();
        assert_eq!(placed.folder, Path::new("/srv/site"));
        assert_eq!(placed.prefix.as_str(), "https://example.org/");
        let placed = placement(
            &url("https://example.org/~me/feeds/a%20b.atom"),
            Path::new("/srv/out/feeds/a b.atom"),
        )
        .unwrap();
        assert_eq!(placed.folder, Path::new("/srv/out"));
        assert_eq!(placed.prefix.as_str(), "https://example.org/~me/");
        assert_eq!(
            placed
                .url_of(Path::new("/srv/out/feeds/archive/1.atom"))
                .unwrap()
                .as_str(),
            "https://example.org/~me/feeds/archive/1.atom"
        );
    }

    #[test]
    fn self_links_that_say_nothing_of_the_tree_place_nothing() {
        let file = Path::new("/srv/site/feed.atom");
        for other in [
            "https://feeds.example.net/example",
            "https://example.org/feed/",
            "https://example.org/feed.atom?format=atom",
            "file:///srv/site/feed.atom",
            "tag:example.org,2024:feed.atom",
            "https://example.org/other.atom",
        ] {
            assert_eq!(placement(&url(other), file), None, "{other}");
        }
    }

    #[test]
    fn the_prefix_most_self_links_give_is_taken_and_the_others_dissent() {
        let a = Placement {
            folder: "/site".into(),
            prefix: url("https://example.org/"),
        };
        let b = Placement {
            folder: "/site".into(),
            prefix: url("https://cdn.example.net/"),
        };
        let nested = Placement {
            folder: "/site/podcast".into(),
            prefix: url("https://podcast.example.net/"),
        };
        let agreement = agree(&[(0, &b), (1, &a), (2, &a), (3, &nested)]);
        assert_eq!(agreement.placements, vec![(a.clone(), 1), (nested.clone(), 3)]);
        assert_eq!(agreement.dissent, vec![(0, 1)]);
        // A copy of the podcast elsewhere makes its prefix name no folder.
        let copy = Placement {
            folder: "/fixtures/podcast".into(),
            prefix: url("https://podcast.example.net/"),
        };
        let agreement = agree(&[(0, &a), (1, &nested), (2, &copy)]);
        assert_eq!(agreement.placements, vec![(a, 0)]);
        assert!(agreement.dissent.is_empty());
    }

    #[test]
    fn a_base_url_names_the_folder_the_self_links_place_at_it() {
        let placed = Placement {
            folder: "/srv/site".into(),
            prefix: url("https://example.org/"),
        };
        assert_eq!(
            root_for(&url("https://example.org/"), &placed),
            Some(PathBuf::from("/srv/site"))
        );
        assert_eq!(
            root_for(&url("https://example.org/blog/"), &placed),
            Some(PathBuf::from("/srv/site/blog"))
        );
        assert_eq!(root_for(&url("https://example.com/"), &placed), None);
        assert_eq!(most_common(&[1, 2, 2, 1, 3]), Some(1));
        assert_eq!(most_common(&[1, 2, 2]), Some(2));
    }
}
