//! Files uploaded together (the web page), linted as one tree.

use url::Url;

use crate::base::hash::FastSet;
use crate::model::failure::Failure;
use crate::report::Report;
use crate::run::analyze::Outcome;

use crate::run::entry::{kept, read_in_memory, InMemory};
use crate::settings::options::{InvalidUrl, Options};

/// How files were uploaded together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upload {
    /// Chosen one by one, with their paths.
    Files,
    /// Chosen one by one without their folders (a browser sends the names
    /// of files chosen so, not their paths): a link in the upload's own
    /// space that leads to no document is taken to lead to the one
    /// document of its file name, if there is exactly one
    /// (`archive/2003-10.atom` finds `2003-10.atom`).
    WithoutFolders,
    /// A whole folder: like a walked directory, a file that is no feed is
    /// skipped unless its extension says it is one.
    Folder,
}

/// Lints files uploaded together as one tree, each at its URL (its path
/// in the upload, or where it is published).
pub fn lint_upload(documents: Vec<InMemory>, upload: Upload, options: &Options) -> Result<Report, InvalidUrl> {
    let walked = upload == Upload::Folder;
    let mut run = read_in_memory(documents, walked, options)?;
    if upload == Upload::WithoutFolders {
        match_by_file_name(&mut run.done);
    }
    let mut report = kept(|sink| run.report(&[], Vec::new(), sink));
    if walked && report.linted_documents() == 0 {
        report.failures.push(Failure::NoFeeds {
            paths: vec![std::path::PathBuf::from("the uploaded folder")],
        });
    }
    Ok(report)
}

/// The last segment of a URL's path: its file name.
fn file_name(url: &Url) -> Option<&str> {
    url.path_segments()?.next_back().filter(|name| !name.is_empty())
}

/// Gives each document, as an alias, the link targets in its own space
/// (its origin, or `file:`) that name no document but end in its file
/// name, where no other document has that name (see [`lint_upload`]).
fn match_by_file_name(done: &mut [Outcome]) {
    let mut by_name: crate::base::hash::FastMap<String, Option<usize>> = crate::base::hash::FastMap::default();
    let mut known: FastSet<String> = FastSet::default();
    for (i, outcome) in done.iter().enumerate() {
        let Some(url) = &outcome.document.url else { continue };
        known.insert(crate::text::iri::comparison_key(url).into_owned());
        if let Some(name) = file_name(url) {
            by_name
                .entry(name.to_owned())
                .and_modify(|doc| *doc = None)
                .or_insert(Some(i));
        }
    }
    let same_space = |a: &Url, b: &Url| a.origin() == b.origin() || a.scheme() == "file" && b.scheme() == "file";
    let mut aliases: Vec<(usize, Url)> = Vec::new();
    for outcome in done.iter() {
        let (Some(from), Some(summary)) = (&outcome.document.url, &outcome.document.summary) else {
            continue;
        };
        for target in summary.links.iter().filter_map(|link| link.target.as_ref()) {
            if !same_space(from, target) || known.contains(crate::text::iri::comparison_key(target).as_ref()) {
                continue;
            }
            if let Some(&Some(doc)) = file_name(target).and_then(|name| by_name.get(name)) {
                aliases.push((doc, target.clone()));
            }
        }
    }
    for (doc, alias) in aliases {
        let document = &mut done[doc].document;
        if !document.aliases.contains(&alias) {
            document.aliases.push(alias);
        }
    }
}
