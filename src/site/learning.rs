//! Learning where the trees are published from the documents' own `self`
//! links, once every named document is analyzed: the folders they place,
//! the documents whose self link disagrees, and the URL each document now
//! has.

use rayon::prelude::*;
use url::Url;

use crate::model::document::{Document, Misplaced};
use crate::model::summary::DocSummary;
use crate::text::iri;

use super::published::Published;
use crate::feed::placement::{self, Placement};

/// Where the documents' `self` links publish their folders (see
/// [`placement`]): the directory a base URL given alone names, or, with
/// no base URL, each folder at the prefix most of its self links give.
/// Documents whose self link says otherwise are marked; every document
/// gets the URL its tree now gives it. Returns the documents whose
/// analysis read their old URL (a relative link resolved against it), to
/// be analyzed again at the new one.
pub(crate) fn learn_sites(done: &mut [&mut Document], published: &mut Published) -> Vec<(usize, Url)> {
    published.forget_learned();
    for document in done.iter_mut() {
        document.misplaced = None;
    }
    // A self link never places a folder outside the boundary (`~` for a
    // feed downloaded to `~/Downloads/evil/`).
    let placed: Vec<(usize, &Placement)> = done
        .iter()
        .enumerate()
        .filter_map(|(i, document)| Some((i, document.placement.as_ref()?)))
        .filter(|(_, placement)| published.boundary.holds(&placement.folder))
        .collect();
    if let Some(base) = published.root_to_learn().cloned() {
        let roots: Vec<std::path::PathBuf> = placed
            .iter()
            .filter_map(|(_, placement)| placement::root_for(&base, placement))
            .collect();
        if let Some(root) = placement::most_common(&roots) {
            published.settle_root(root);
        }
    }
    // A self link in a tree whose base URL is given disagrees with it
    // where it places the file elsewhere; the others agree among
    // themselves, folder by folder.
    let (given, free): (Vec<_>, Vec<_>) = placed.into_par_iter().partition(|(i, _)| {
        done[*i]
            .canonical
            .as_deref()
            .is_some_and(|canonical| published.url_of(canonical).is_some())
    });
    let mut misplaced: Vec<(usize, Misplaced)> = given
        .par_iter()
        .filter(|(i, placement)| {
            let canonical = done[*i].canonical.as_deref().unwrap_or(std::path::Path::new(""));
            let (Some(given), Some(says)) = (published.url_of(canonical), placement.url_of(canonical)) else {
                return false;
            };
            iri::comparison_key(&given) != iri::comparison_key(&says)
        })
        .map(|(i, _)| (*i, Misplaced::ByBaseUrl))
        .collect();
    let agreement = placement::agree(&free);
    misplaced.extend(
        agreement
            .dissent
            .iter()
            .map(|(doc, standing)| (*doc, Misplaced::BySelfLinkOf(*standing))),
    );
    published.learn(agreement.placements.into_iter().map(|(placement, _)| placement));
    for (doc, how) in misplaced {
        done[doc].misplaced = Some(how);
    }
    // Each document's URL as the sites now place it, worked out in
    // parallel (a URL built and compared per document: a serial step of
    // every run over a tree), then set in order.
    let moved: Vec<(usize, Url, bool)> = done
        .par_iter()
        .enumerate()
        .filter_map(|(i, document)| {
            let canonical = document.canonical.as_ref()?;
            let url = published
                .url_of(canonical)
                .or_else(|| Url::from_file_path(canonical).ok())?;
            let old = document.url.as_ref()?;
            if iri::comparison_key(old) == iri::comparison_key(&url) {
                return None;
            }
            let read = read_its_url(document.summary.as_deref(), old, &url);
            Some((i, url, read))
        })
        .collect();
    let mut again = Vec::new();
    for (i, url, read) in moved {
        if read {
            again.push((i, url));
        } else {
            done[i].url = Some(url);
        }
    }
    again
}

/// Whether a document's analysis read its URL `old`: a link target (its
/// self link's too) that may have been resolved against it, or one that
/// names `new` (the document itself, for the rules that look for links to
/// it).
fn read_its_url(summary: Option<&DocSummary>, old: &Url, new: &Url) -> bool {
    let Some(summary) = summary else { return false };
    let targets = summary
        .links
        .iter()
        .filter_map(|link| link.target.as_ref())
        .chain(summary.self_link.as_ref().map(|link| &link.value));
    targets.into_iter().any(|target| {
        let relative = if old.scheme() == "file" {
            target.scheme() == "file"
        } else {
            target.origin() == old.origin()
        };
        relative || iri::comparison_key(target) == iri::comparison_key(new)
    })
}
