//! What a run is told besides its inputs.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use url::Url;

use crate::config::Levels;

/// What a run is told besides the paths. The URLs are set with
/// [`Options::with_base_url`] and [`Options::with_url`], which check them.
#[derive(Debug, Clone)]
pub struct Options {
    pub levels: Levels,
    /// Where `base_root` is published.
    pub(crate) base_url: Option<Url>,
    /// The directory `base_url` names (`--root`, the config's directory);
    /// `None`: the directory that holds every path linted.
    pub(crate) base_root: Option<PathBuf>,
    /// Other trees of the run published at URLs of their own (the base URL
    /// of a second config), each with its root directory.
    pub(crate) more_bases: Vec<(Url, PathBuf)>,
    /// The URL of the single document linted (a file or stdin).
    pub(crate) url: Option<Url>,
    /// Keep windows of the documents' lines, for the text renderer's
    /// snippets (set findings show snippets of several documents).
    pub keep_sources: bool,
    /// Keep each document's whole text (the web page shows the lines
    /// around every finding and the diff of every fix).
    pub keep_texts: bool,
    /// Files larger than this are not read (`--max-file-size`); 0 means the
    /// default, [`DEFAULT_MAX_FILE_SIZE`].
    pub max_file_size: u64,
    /// The most findings of one rule shown per document, the rest counted
    /// in one more finding (`--max-per-rule`); 0 shows every finding.
    pub max_per_rule: usize,
    /// The most findings a run keeps (`--max-findings`); the rest are
    /// counted by level, not kept, so that a run's memory does not grow
    /// with its findings. 0 keeps every finding.
    pub max_findings: usize,
    /// Globs (gitignore syntax) of what walking skips, below each walked
    /// directory (`--exclude`).
    pub exclude: Vec<String>,
    /// Configs' `exclude` lists, each with its config's directory: walking
    /// a directory adds the list of the config nearest above it.
    pub config_excludes: Vec<(PathBuf, Vec<String>)>,
    /// Contents that stand for files on disk, by the path a run reads them
    /// by: an editor's unsaved buffers, or the text `--fix` has made so far.
    pub overlay: Arc<HashMap<PathBuf, Vec<u8>>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            levels: Levels::default(),
            base_url: None,
            base_root: None,
            more_bases: Vec::new(),
            url: None,
            keep_sources: false,
            keep_texts: false,
            max_file_size: 0,
            max_per_rule: crate::diagnostic::DEFAULT_MAX_PER_RULE,
            max_findings: DEFAULT_MAX_FINDINGS,
            exclude: Vec::new(),
            config_excludes: Vec::new(),
            overlay: Arc::default(),
        }
    }
}

/// The most findings a run keeps by default: far more than anyone reads,
/// and about 50 MB of memory.
pub const DEFAULT_MAX_FINDINGS: usize = 100_000;

/// The largest file read by default: 256 MiB.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 256 * 1024 * 1024;

/// A URL given to feedlint that is not an absolute URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidUrl {
    pub url: String,
    /// Why, as the URL parser says it.
    pub reason: String,
}

impl std::fmt::Display for InvalidUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}' is not an absolute URL: {}", self.url, self.reason)
    }
}

impl std::error::Error for InvalidUrl {}

/// `url` parsed as an absolute URL, its password masked: a URL given to
/// describe local files is never requested, and whatever it is shown in
/// must not show the password.
pub(crate) fn absolute_url(url: &str) -> Result<Url, InvalidUrl> {
    match Url::parse(url) {
        Ok(url) => Ok(crate::secret::masked(&url)),
        Err(e) => Err(InvalidUrl {
            url: crate::secret::mask_text(url).into_owned(),
            reason: e.to_string(),
        }),
    }
}

impl Options {
    /// Where the linted directory (or a named file's directory) is
    /// published (`--base-url`).
    pub fn with_base_url(mut self, url: &str) -> Result<Self, InvalidUrl> {
        self.base_url = Some(absolute_url(url)?);
        Ok(self)
    }

    /// The root of the tree: the directory the base URL names, files
    /// mapping to URLs by their path below it, and what root-relative links
    /// start from (`--root`, or a config's directory). Without it, the
    /// directory that holds every path linted.
    pub fn with_base_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.base_root = Some(root.into());
        self
    }

    /// Another tree linted in the same run, published at a URL of its own:
    /// the files below `root` map to URLs below `url` (a second config's
    /// `base-url`, for the files below that config).
    pub fn with_tree_base_url(mut self, url: &str, root: impl Into<PathBuf>) -> Result<Self, InvalidUrl> {
        self.more_bases.push((absolute_url(url)?, root.into()));
        Ok(self)
    }

    /// The URL of the single document linted, a file or standard input
    /// (`--url`).
    pub fn with_url(mut self, url: &str) -> Result<Self, InvalidUrl> {
        self.url = Some(absolute_url(url)?);
        Ok(self)
    }

    pub(crate) fn max_file_size(&self) -> u64 {
        if self.max_file_size == 0 {
            DEFAULT_MAX_FILE_SIZE
        } else {
            // The parser keeps offsets in 32 bits.
            self.max_file_size.min(u64::from(u32::MAX))
        }
    }
}
