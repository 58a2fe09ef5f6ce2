//! What a run has read, so that each document is read once, and the links
//! it did not follow because they lead outside its boundary.

use url::Url;

use crate::base::hash::FastSet;
use crate::findings::remedy::{Remedy, Wording};
use crate::run::analyze::Outcome;
use crate::run::discover::Job;
use crate::site;

/// What a run has read or will read, by file and by URL (and the
/// root-relative form of each URL), so that each document is read once.
#[derive(Default)]
pub(super) struct Reading {
    files: FastSet<std::path::PathBuf>,
    urls: FastSet<String>,
}

impl Reading {
    pub(super) fn see_url(&mut self, url: &Url, published: Option<&site::Published>) -> bool {
        let alias = published.and_then(|p| p.tree_alias(url));
        self.urls.extend(alias.map(String::from));
        self.urls.insert(url.to_string())
    }

    /// Whether a URL was read, or counted to be.
    pub(super) fn has_url(&self, url: &Url) -> bool {
        self.urls.contains(url.as_str())
    }

    /// Counts a linked file's job, at the URL it was linked by (and that
    /// URL's root-relative form), as read; whether its file and URL were
    /// both new.
    pub(super) fn count_linked_if_new(&mut self, job: &Job, url: &Url, published: Option<&site::Published>) -> bool {
        let new_url = self.see_url(url, published);
        let new_file = job
            .canonical
            .as_ref()
            .is_none_or(|file| self.files.insert(file.clone()));
        new_url && new_file
    }

    /// Counts a document as read.
    pub(super) fn saw(&mut self, outcome: &Outcome, published: Option<&site::Published>) {
        self.files.extend(outcome.document.canonical.clone());
        if let Some(url) = &outcome.document.url {
            self.see_url(url, published);
        }
    }

    /// Whether a job reads a file not read yet, without counting it.
    pub(super) fn peek_new(&self, job: &Job) -> bool {
        job.canonical.as_ref().is_none_or(|file| !self.files.contains(file))
            && job.url.as_ref().is_none_or(|url| !self.urls.contains(url.as_str()))
    }

    /// Counts a job's file and URL as read; whether both were new.
    pub(super) fn count_if_new(&mut self, job: &Job) -> bool {
        let new_file = job
            .canonical
            .as_ref()
            .is_none_or(|file| self.files.insert(file.clone()));
        let new_url = job.url.as_ref().is_none_or(|url| self.urls.insert(url.to_string()));
        new_file && new_url
    }
}

/// The links that lead outside the run's boundary, not read: said once,
/// as a warning, with the first few.
#[derive(Default)]
pub(super) struct Outside {
    said: Vec<String>,
    more: usize,
}

impl Outside {
    /// The most links named in the warning.
    const NAMED: usize = 5;

    pub(super) fn note(&mut self, document: &str, target: std::path::PathBuf) {
        let said = format!("{document} links to {}", crate::base::shown::shown_path(&target));
        if self.said.contains(&said) {
            return;
        }
        if self.said.len() < Self::NAMED {
            self.said.push(said);
        } else {
            self.more += 1;
        }
    }

    pub(super) fn warning(&self, boundary: &site::Boundary, words: &dyn Wording) -> Option<String> {
        if self.said.is_empty() {
            return None;
        }
        let roots: Vec<String> = boundary
            .roots()
            .iter()
            .map(|root| crate::base::shown::shown_path(root))
            .collect();
        let more = match self.more {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        Some(format!(
            "links that lead outside the linted tree ({}) were not read: {}{more} ({})",
            roots.join(", "),
            self.said.join(", "),
            words.remedy(Remedy::ReadOutsideTree)
        ))
    }
}
