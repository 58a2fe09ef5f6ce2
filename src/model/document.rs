//! A linted document as a run keeps it once its tree is dropped: names,
//! URLs, the summary the set checks read, its suppressions and, for the
//! text format, windows of its lines. Plain data, passed from stage to
//! stage.

use std::path::PathBuf;

use url::Url;

use crate::feed::placement::Placement;
use crate::findings::suppress::Suppression;
use crate::model::page::Page;
use crate::model::summary::DocSummary;
use crate::text::snippet::Snippets;

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
    pub(crate) summary: Option<Box<DocSummary>>,
    /// A web page of a linted tree, read for the feeds it advertises: no
    /// feed, and not counted as a document of the run.
    pub(crate) page: Option<Box<Page>>,
    /// The `feedlint-disable` comments of the document.
    pub(crate) suppressions: Vec<Suppression>,
    /// Read only because a linted document links to it: the set checks see
    /// it, but no finding is reported in it.
    pub context: bool,
    /// Named on the command line, or named like a feed: reported on even
    /// when it is not one.
    pub(crate) explicit: bool,
    /// The file, canonical.
    pub(crate) canonical: Option<PathBuf>,
    /// Where its `self` link says its folder is published (see
    /// [`crate::site`]).
    pub(crate) placement: Option<Placement>,
    /// The self link places its folder elsewhere than the run publishes it.
    pub(crate) misplaced: Option<Misplaced>,
    /// The whole text, as decoded, where the run keeps it
    /// ([`crate::Options::keep_texts`]).
    pub(crate) text: Option<String>,
    /// feedlint failed on it (a rule or its analysis panicked, and the
    /// panic was contained): it was not fully checked, and the run fails.
    pub internal_error: bool,
}

/// How the run publishes a document whose self link says otherwise: at
/// the base URL given, or where another document's self link places the
/// folder (most self links agreed with that one).
#[derive(Debug, Clone)]
pub(crate) enum Misplaced {
    ByBaseUrl,
    BySelfLinkOf(usize),
}

impl Document {
    /// Where the document is published, if known.
    /// What kind of feed it is, where it is one feedlint checks.
    pub fn kind(&self) -> Option<crate::feed::DocKind> {
        self.summary.as_ref().map(|summary| summary.kind)
    }

    /// Whether it is one of the run's documents, linted and counted: not
    /// read only as context, and not a web page.
    pub fn is_linted(&self) -> bool {
        !self.context && !self.is_page()
    }

    /// Whether it is a web page read for the feeds it advertises.
    pub fn is_page(&self) -> bool {
        self.page.is_some()
    }

    /// Whether it was checked as a podcast.
    pub fn is_podcast(&self) -> bool {
        self.summary.as_ref().is_some_and(|summary| summary.podcast)
    }

    pub fn url(&self) -> Option<&str> {
        self.url.as_ref().map(Url::as_str)
    }

    /// The document's text as decoded, where the run kept it.
    pub fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }
}
