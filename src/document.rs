//! A linted document as a run keeps it once its tree is dropped: names,
//! URLs, the summary the set checks read, its suppressions and, for the
//! text format, windows of its lines. Plain data, passed from stage to
//! stage.

use std::path::PathBuf;

use url::Url;

use crate::snippet::Snippets;
use crate::summary::DocSummary;
use crate::suppress::Suppression;

/// A linted document.
#[derive(Debug)]
pub struct Document {
    /// The path as the user gave it (joined with the walked part), or `-`.
    pub name: String,
    /// The file, for per-path settings; `None` for standard input.
    pub path: Option<PathBuf>,
    pub(crate) url: Option<Url>,
    /// Other URLs that name the document: the URL a fetch asked for, when
    /// it was redirected.
    pub(crate) aliases: Vec<Url>,
    /// The windows of the lines that findings (and the places set rules
    /// may point at) are on, kept only when asked for: the text format's
    /// snippets. The text itself is never kept.
    pub(crate) snippets: Option<Snippets>,
    /// What the set checks need of the document, once its DOM is gone.
    pub(crate) summary: Option<DocSummary>,
    /// The `feedlint-disable` comments of the document.
    pub(crate) suppressions: Vec<Suppression>,
    /// Read only because a linted document links to it: the set checks see
    /// it, but no finding is reported in it.
    pub context: bool,
}

impl Document {
    /// Where the document is published, if known.
    pub fn url(&self) -> Option<&str> {
        self.url.as_ref().map(Url::as_str)
    }
}
