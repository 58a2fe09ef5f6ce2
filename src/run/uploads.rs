//! Files uploaded together (the web page), linted as one tree.

use url::Url;

use crate::base::hash::FastSet;
use crate::model::failure::Failure;
use crate::model::redirects::Redirects;
use crate::model::set::{Uploaded, UrlSpace};
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
/// in the upload, or where it is published). A folder's files are placed
/// in `tree` (a URL naming a folder): it is the folder's URL space, as a
/// linted directory's is on the command line, so that a link into it to a
/// file the folder lacks is `archive-link-dangling` (or
/// `paging-link-dangling`), named, as there.
pub fn lint_upload(
    documents: Vec<InMemory>,
    upload: Upload,
    tree: &Url,
    options: &Options,
) -> Result<Report, InvalidUrl> {
    let walked = upload == Upload::Folder;
    // The paths the folder holds, feeds or not: a link in a feed to a page
    // or an image of the folder is judged by them (`content-link-missing`).
    let held: std::collections::HashSet<String> = documents
        .iter()
        .filter_map(|document| document.url.as_deref()?.strip_prefix(tree.as_str()))
        .filter_map(|path| {
            Some(
                percent_encoding::percent_decode_str(path)
                    .decode_utf8()
                    .ok()?
                    .into_owned(),
            )
        })
        .collect();
    // The host's `_redirects` at the folder's top, as Netlify and
    // Cloudflare Pages read it.
    let redirects: Option<String> = documents
        .iter()
        .find(|document| document.url.as_deref().and_then(|url| url.strip_prefix(tree.as_str())) == Some("_redirects"))
        .map(|document| String::from_utf8_lossy(&document.bytes).into_owned());
    let mut tree = tree.clone();
    // A folder nobody placed is placed where its self links say, as the
    // command line learns a directory's place: read once to learn it, and
    // again there, so that links to the published URLs find the files.
    let unplaced = (walked && tree.scheme() == "file").then(|| documents.clone());
    let mut run = read_in_memory(documents, walked, options)?;
    if let Some((documents, place)) = unplaced.zip(learned_place(&run.done, &tree)) {
        let placed = documents
            .into_iter()
            .map(|mut document| {
                let within = document.url.as_deref().and_then(|url| url.strip_prefix(tree.as_str()));
                if let Some(within) = within {
                    document.url = Some(format!("{place}{within}"));
                }
                document
            })
            .collect();
        run = read_in_memory(placed, walked, options)?;
        tree = place;
    }
    if upload == Upload::WithoutFolders {
        match_by_file_name(&mut run.done);
    }
    let tree = crate::site::as_directory(tree);
    let spaces: Vec<UrlSpace> = walked
        .then(|| UrlSpace {
            uploaded: Some(std::sync::Arc::new(Uploaded {
                paths: held,
                redirects: redirects.as_deref().map(Redirects::parse).unwrap_or_default(),
            })),
            ..UrlSpace::of(tree.clone())
        })
        .into_iter()
        .collect();
    let mut report = kept(|sink| run.report(&spaces, Vec::new(), sink));
    if walked && report.linted_documents() == 0 {
        report.failures.push(Failure::NoFeeds {
            paths: vec![std::path::PathBuf::from("the uploaded folder")],
        });
    }
    Ok(report)
}

/// Where the self links of a folder's documents publish it: for each
/// document whose http(s) self link ends in its path in the folder, the
/// rest of the link; the place most of them give (the first, on a tie).
fn learned_place(done: &[Outcome], tree: &Url) -> Option<Url> {
    let places: Vec<&str> = done
        .iter()
        .filter_map(|outcome| {
            let (url, summary) = (outcome.document.url.as_ref()?, outcome.document.summary.as_ref()?);
            let within = url.as_str().strip_prefix(tree.as_str())?;
            let target = &summary.self_link.as_ref()?.value;
            target
                .as_str()
                .strip_suffix(within)
                .filter(|prefix| prefix.ends_with('/') && matches!(target.scheme(), "http" | "https"))
        })
        .collect();
    Url::parse(crate::feed::placement::most_common(&places)?).ok()
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
        if let Some(name) = crate::text::iri::file_name(url) {
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
            if let Some(&Some(doc)) = crate::text::iri::file_name(target).and_then(|name| by_name.get(name)) {
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
