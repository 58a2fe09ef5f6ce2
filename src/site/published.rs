//! The published trees of a run: the tree linted with its base URL (given,
//! or learned from the self links), other configs' trees, and the folders
//! the self links place; files map to URLs through them and back.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use url::Url;

use crate::base::hash::FastMap;
use crate::model::document::Document;
use crate::model::set::UrlSpace;
use crate::settings::config::deepest_above;
use crate::settings::options::Options;

use super::boundary::Boundary;
use crate::feed::placement::{self, Learning, Placement};

/// The tree linted: its root directory, made canonical, and where it is
/// published. With a base URL, files map to URLs below it; without one,
/// the root stands for `/` as a web server would serve the tree, so that a
/// root-relative link (`/feed/2024.atom`) still leads to the file
/// (`ROOT/feed/2024.atom`), whose `file:` URL is kept. Other trees of the
/// run may be published at URLs of their own (a second config's).
pub(crate) struct Published {
    main: Tree,
    /// Whether the main root was given (`--root`, a config's directory)
    /// rather than taken as the directory that holds every path linted.
    root_given: bool,
    /// Whether the self links placed the main root ([`Published::settle_root`]).
    root_placed: bool,
    /// Trees below other configs, with their own base URLs.
    more: Vec<Tree>,
    /// Folders the documents' `self` links publish (see [`crate::site`]).
    learned: Vec<Tree>,
    /// Which of `learned` more than one document places, whose documents
    /// link to each other, or a linted directory holds
    /// ([`Published::confirm`]): trees the run reads whole and judges links
    /// into. One feed's self link alone (a feed saved to a downloads
    /// folder) makes no site of its folder.
    confirmed: Vec<bool>,
    /// `learned` by folder and by base URL: there may be one a folder of
    /// the run, and each file and link target looks its own up.
    learned_by_folder: FastMap<PathBuf, usize>,
    learned_by_base: FastMap<String, usize>,
    /// `file:///`, what the main root stands for without a base URL.
    slash: Url,
    /// What the run may read besides what it was named.
    pub(crate) boundary: Boundary,
}

struct Tree {
    root: PathBuf,
    /// The base URL, ending in `/`; `None` when none was given.
    base: Option<Url>,
    /// The root's `file:` URL, ending in `/`.
    root_url: Url,
}

impl Tree {
    fn new(root: PathBuf, base: Option<Url>) -> Option<Tree> {
        let root_url = Url::from_directory_path(&root).ok()?;
        Some(Tree { root, base, root_url })
    }
}

impl Published {
    /// The file a link target names below one of the trees: a `file:` URL
    /// (without a base URL, also as a root-relative link below the tree's
    /// root), or a URL below a base URL, mapped back below its root. It
    /// may not exist.
    pub(crate) fn file_named(&self, target: &Url) -> Option<PathBuf> {
        let below = |tree: &Tree, rest: &str| {
            let rest = rest.split(['?', '#']).next().unwrap_or_default();
            tree.root_url.join(rest).ok()?.to_file_path().ok()
        };
        match target.scheme() {
            "file" => {
                let path = target.to_file_path().ok()?;
                if self.main.base.is_none() && !path.is_file() {
                    below(&self.main, target.path().trim_start_matches('/'))
                } else {
                    Some(path)
                }
            }
            _ => {
                let (tree, rest) = self.tree_below(target.as_str())?;
                below(tree, rest)
            }
        }
    }

    /// The directory the base URL names: `--root` (or the config's
    /// directory), else the directory that holds every path linted, so
    /// that each file keeps its own path below it (`blog/index.atom` and
    /// `news/index.atom` get different URLs). `None` for standard input.
    pub(crate) fn of(named: &[&Path], options: &Options) -> Option<Published> {
        let base = options.base_url().cloned().map(as_directory);
        let root = match options.base_root() {
            Some(root) => std::fs::canonicalize(root).ok()?,
            None => common_directory(named.iter().filter_map(|path| {
                let canonical = std::fs::canonicalize(path).ok()?;
                if path.is_dir() {
                    Some(canonical)
                } else {
                    canonical.parent().map(Path::to_path_buf)
                }
            }))?,
        };
        let more = options
            .more_bases()
            .iter()
            .filter_map(|(url, root)| Tree::new(std::fs::canonicalize(root).ok()?, Some(as_directory(url.clone()))))
            .collect();
        Some(Published {
            main: Tree::new(root, base)?,
            root_given: options.base_root().is_some(),
            root_placed: false,
            more,
            learned: Vec::new(),
            confirmed: Vec::new(),
            learned_by_folder: FastMap::default(),
            learned_by_base: FastMap::default(),
            slash: Url::parse("file:///").ok()?,
            boundary: Boundary::of(
                options
                    .base_root()
                    .into_iter()
                    .chain(options.more_bases().iter().map(|(_, root)| root.as_path())),
                named.iter().copied(),
            ),
        })
    }

    /// The trees with a base URL that were given: the main one and other
    /// configs' (a few).
    fn given(&self) -> impl Iterator<Item = &Tree> {
        std::iter::once(&self.main)
            .chain(&self.more)
            .filter(|tree| tree.base.is_some())
    }

    /// The published tree a canonical path is in: the one with the deepest
    /// root above it, with a base URL. The learned folders are looked up
    /// by the path's own ancestors, in time linear in its length.
    fn tree_of(&self, canonical: &Path) -> Option<&Tree> {
        let learned = canonical
            .ancestors()
            .find_map(|folder| self.learned_by_folder.get(folder))
            .map(|&i| &self.learned[i]);
        deepest_above(canonical, self.given().chain(learned), |tree| &tree.root)
    }

    /// The tree a URL is below, and the rest of the URL after its base.
    fn tree_below<'u>(&self, url: &'u str) -> Option<(&Tree, &'u str)> {
        let given = self
            .given()
            .find_map(|tree| Some((tree, url.strip_prefix(tree.base.as_ref()?.as_str())?)));
        given.or_else(|| {
            // Every prefix of the URL that ends in `/`, longest first.
            url.char_indices().rev().filter(|(_, c)| *c == '/').find_map(|(at, _)| {
                let &i = self.learned_by_base.get(&url[..=at])?;
                Some((&self.learned[i], &url[at + 1..]))
            })
        })
    }

    /// Whether a file's `self` link may give it its URL: not where a base
    /// URL and its directory are given for it (or `--url`); below a base
    /// URL given without its directory, only a self link below that URL.
    pub(crate) fn learning_for(&self, canonical: &Path) -> Learning {
        let given = std::iter::once(&self.main)
            .chain(&self.more)
            .filter(|tree| tree.base.is_some());
        match deepest_above(canonical, given, |tree| &tree.root) {
            Some(tree) if !std::ptr::eq(tree, &self.main) => Learning::Off,
            _ => match &self.main.base {
                Some(_) if self.root_given => Learning::Off,
                Some(base) => Learning::Within(base.clone()),
                None => Learning::Free,
            },
        }
    }

    /// Whether the main tree's base URL was given without its directory,
    /// which the self links may then name ([`Published::settle_root`]).
    pub(crate) fn root_to_learn(&self) -> Option<&Url> {
        self.main.base.as_ref().filter(|_| !self.root_given)
    }

    /// The directory the base URL names, as the self links place it.
    pub(crate) fn settle_root(&mut self, root: PathBuf) {
        if let Some(tree) = Tree::new(root, self.main.base.clone()) {
            self.main = tree;
            self.root_given = true;
            self.root_placed = true;
        }
    }

    /// Forgets the folders learned, to learn them again from more documents.
    pub(crate) fn forget_learned(&mut self) {
        self.learned.clear();
        self.confirmed.clear();
        self.learned_by_folder.clear();
        self.learned_by_base.clear();
    }

    /// Folders published where the self links say.
    pub(crate) fn learn(&mut self, placements: impl IntoIterator<Item = Placement>) {
        for placement in placements {
            let Some(tree) = Tree::new(placement.folder, Some(placement.prefix)) else {
                continue;
            };
            let i = self.learned.len();
            self.learned_by_folder.entry(tree.root.clone()).or_insert(i);
            if let Some(base) = &tree.base {
                self.learned_by_base.entry(base.to_string()).or_insert(i);
            }
            self.learned.push(tree);
            self.confirmed.push(false);
        }
    }

    /// Confirms the learned trees that more than one document of `done`
    /// places, or that a linted directory holds.
    pub(crate) fn confirm(&mut self, done: &[&Document], directories: &[PathBuf]) {
        // The documents are looked at in parallel, and what they say is
        // counted after: this runs once every document is read, when
        // nothing else keeps the cores busy.
        let placing_trees: Vec<usize> = done
            .par_iter()
            .filter_map(|document| {
                let placement = document.placement.as_ref()?;
                let &i = self.learned_by_folder.get(&placement.folder)?;
                let base = self.learned[i].base.as_ref()?;
                (crate::text::iri::comparison_key(base) == crate::text::iri::comparison_key(&placement.prefix))
                    .then_some(i)
            })
            .collect();
        let mut placing: Vec<usize> = vec![0; self.learned.len()];
        for i in placing_trees {
            placing[i] += 1;
        }
        // Documents of one tree that link to each other (a feed and its
        // archive) make a site of it too, whichever of them has a self link.
        let by_url: FastMap<&str, usize> = done
            .iter()
            .enumerate()
            .filter_map(|(i, document)| Some((document.url.as_ref()?.as_str(), i)))
            .collect();
        let this = &*self;
        let linked_trees: Vec<usize> = done
            .par_iter()
            .enumerate()
            .flat_map_iter(|(from, document)| {
                let links = document.summary.as_ref().map(|summary| &summary.links[..]);
                let by_url = &by_url;
                links.unwrap_or_default().iter().filter_map(move |link| {
                    let target = link.target.as_ref()?;
                    let &to = by_url.get(target.as_str())?;
                    if to == from {
                        return None;
                    }
                    let (tree, _) = this.tree_below(target.as_str())?;
                    this.learned_by_folder.get(&tree.root).copied()
                })
            })
            .collect();
        let mut linked = vec![false; self.learned.len()];
        for i in linked_trees {
            linked[i] = true;
        }
        let linted: Vec<PathBuf> = directories
            .iter()
            .filter_map(|d| std::fs::canonicalize(d).ok())
            .collect();
        for (i, tree) in self.learned.iter().enumerate() {
            self.confirmed[i] =
                placing[i] > 1 || linked[i] || linted.iter().any(|directory| tree.root.starts_with(directory));
        }
    }

    /// The folders learned but not confirmed, that one document placed
    /// each: a walk of one may confirm it.
    pub(crate) fn unconfirmed(&self) -> Vec<PathBuf> {
        self.learned
            .iter()
            .zip(&self.confirmed)
            .filter(|(_, confirmed)| !**confirmed)
            .map(|(tree, _)| tree.root.clone())
            .collect()
    }

    /// Whether the tree learned at `folder` is confirmed.
    pub(crate) fn is_confirmed(&self, folder: &Path) -> bool {
        self.learned_by_folder.get(folder).is_some_and(|&i| self.confirmed[i])
    }

    /// The learned trees confirmed as sites.
    fn confirmed(&self) -> impl Iterator<Item = &Tree> {
        self.learned
            .iter()
            .zip(&self.confirmed)
            .filter(|(_, c)| **c)
            .map(|(tree, _)| tree)
    }

    /// The directories whose every feed the set checks should see, with
    /// the URL each is published at: the folders the self links publish,
    /// and the base URL's directory where it was given or placed. A run
    /// over part of such a tree reads the rest as context, so that it
    /// gives the whole tree's verdict on the files it names.
    pub(crate) fn sites(&self) -> Vec<(&Path, &Url)> {
        let main = self
            .main
            .base
            .as_ref()
            .filter(|_| self.root_given)
            .map(|base| (self.main.root.as_path(), base));
        main.into_iter()
            .chain(
                self.confirmed()
                    .filter_map(|tree| Some((tree.root.as_path(), tree.base.as_ref()?))),
            )
            .collect()
    }

    /// Where documents are expected to exist besides the linted
    /// directories: the main root (its base URL, or its `file:` URL) and
    /// every tree with a base URL.
    pub(crate) fn spaces(&self) -> Vec<UrlSpace> {
        let main = self.main.base.clone().unwrap_or_else(|| self.main.root_url.clone());
        // Root-relative links are judged against the root only where it was
        // given (`--root`): a directory that merely holds the paths linted
        // (a corpus of unrelated trees) is no web server's root.
        let root_relative = self.main.base.is_none() && self.root_given;
        std::iter::once((main, &self.main.root))
            .chain(
                self.more
                    .iter()
                    .chain(self.confirmed())
                    .filter_map(|tree| Some((tree.base.clone()?, &tree.root))),
            )
            .enumerate()
            .map(|(i, (url, root))| UrlSpace {
                root_relative: i == 0 && root_relative,
                url,
                directory: Some(root.clone()),
                uploaded: None,
            })
            .collect()
    }

    /// How the run publishes its trees, for the summary: each folder the
    /// self links publish (the base URL's, where they placed it), with its
    /// URL.
    pub(crate) fn learned(&self) -> Vec<(PathBuf, Url)> {
        let main = Some(&self.main).filter(|_| self.root_placed);
        main.into_iter()
            .chain(&self.learned)
            .filter_map(|tree| Some((tree.root.clone(), tree.base.clone()?)))
            .collect()
    }

    /// The URL a canonical path is published at, if a tree says.
    pub(crate) fn url_of(&self, canonical: &Path) -> Option<Url> {
        let tree = self.tree_of(canonical)?;
        placement::url_below(tree.base.as_ref()?, canonical.strip_prefix(&tree.root).ok()?)
    }

    /// Without a base URL, the URL a root-relative link gives a document
    /// of the tree: `file:///feed/index.atom` for `ROOT/feed/index.atom`,
    /// worked out from its `file:` URL (no file system call).
    pub(crate) fn tree_alias(&self, url: &Url) -> Option<Url> {
        if self.main.base.is_some() {
            return None;
        }
        let below = url.as_str().strip_prefix(self.main.root_url.as_str())?;
        self.slash.join(below).ok()
    }
}

/// The deepest directory that holds every one of `dirs`.
fn common_directory(dirs: impl Iterator<Item = PathBuf>) -> Option<PathBuf> {
    dirs.reduce(|common, dir| {
        common
            .ancestors()
            .find(|ancestor| dir.starts_with(ancestor))
            .map_or_else(PathBuf::new, Path::to_path_buf)
    })
}

/// Where documents are expected to exist: under each linted directory's
/// published URL, or its `file:` URL.
pub(crate) fn url_spaces(directories: &[PathBuf], published: Option<&Published>) -> Vec<UrlSpace> {
    directories
        .iter()
        .filter_map(|directory| {
            let canonical = std::fs::canonicalize(directory).ok()?;
            let url = url_of_canonical(&canonical, published).map(as_directory)?;
            Some(UrlSpace {
                url,
                directory: Some(canonical),
                root_relative: false,
                uploaded: None,
            })
        })
        .collect()
}

/// The URL with a trailing `/`, so that it names a directory.
pub(crate) fn as_directory(mut url: Url) -> Url {
    if !url.path().ends_with('/') {
        let path = format!("{}/", url.path());
        url.set_path(&path);
    }
    url
}

pub(crate) fn url_of_canonical(canonical: &Path, published: Option<&Published>) -> Option<Url> {
    published
        .and_then(|p| p.url_of(canonical))
        .or_else(|| Url::from_file_path(canonical).ok())
}
