//! One run, stage after stage: [`discover`](crate::discover) the documents
//! and read them, [`analyze`](crate::analyze) each in parallel (its tree is
//! dropped as soon as its rules have run), then [`assemble`](crate::assemble)
//! the report: the set checks, levels, suppressions, sorting.

use rayon::prelude::*;
use url::Url;

use crate::analyze::{self, Named, Outcome};
use crate::assemble::{Failure, FindingBudget, Keep, Report, Sink};
use crate::diagnostic::Level;
use crate::discover::{self, Input, Job, Origin, Read};
use crate::document::Misplaced;
use crate::hash::FastSet;
use crate::iri;
use crate::options::{absolute_url, InvalidUrl, Options};
use crate::set::UrlSpace;
use crate::site;
use crate::summary::DocSummary;

/// Lints everything the inputs name.
pub fn lint(inputs: Vec<Input>, options: &Options) -> Report {
    let mut keep = Keep(Vec::new());
    let mut report = lint_into(inputs, options, &mut keep);
    report.diagnostics = keep.0;
    report
}

/// [`lint`], giving the findings to `sink` as they are assembled, in
/// report order, rather than keeping them in the report.
pub fn lint_into(inputs: Vec<Input>, options: &Options, sink: &mut dyn Sink) -> Report {
    let paths: Vec<std::path::PathBuf> = inputs
        .iter()
        .filter_map(|input| match input {
            Input::Path(path) => Some(path.clone()),
            Input::Stdin(_) => None,
        })
        .collect();
    let directories: Vec<std::path::PathBuf> = paths.iter().filter(|path| path.is_dir()).cloned().collect();
    let mut failures = Vec::new();
    let mut published = discover::Published::of(&inputs, options);
    let mut warnings = Vec::new();
    let jobs = discover::gather(inputs, options, published.as_ref(), &mut failures, &mut warnings);
    let mut done = Vec::with_capacity(jobs.len());
    let mut budget = FindingBudget::new(options.max_findings);
    run_jobs(jobs, false, options, &mut done, &mut failures, &mut budget);
    let mut batch = Vec::new();
    if let Some(published) = published.as_mut() {
        let again = learn_sites(&mut done, published);
        analyze_again(again, options, &mut done, &mut budget);
        batch = site_context(&directories, &done, published, options, &mut warnings);
    }
    let published = published.as_ref();
    let mut url_spaces = discover::url_spaces(&directories, published);
    url_spaces.extend(published.map(discover::Published::spaces).unwrap_or_default());
    // Every file and URL read or to be read (and the root-relative form of
    // each URL), so that each document is read once.
    let tree_alias = |url: &Url| published.and_then(|p| p.tree_alias(url));
    let mut known_files: FastSet<std::path::PathBuf> = done
        .iter()
        .filter_map(|outcome| outcome.document.canonical.clone())
        .chain(batch.iter().filter_map(|job| job.canonical.clone()))
        .collect();
    let mut known: FastSet<String> = done
        .iter()
        .filter_map(|outcome| outcome.document.url.as_ref())
        .chain(batch.iter().filter_map(|job| job.url.as_ref()))
        .flat_map(|url| std::iter::once(url.clone()).chain(tree_alias(url)))
        .map(String::from)
        .collect();
    let mut start = 0;
    loop {
        // Without a base URL, a document is also named by the URL a
        // root-relative link gives it.
        for outcome in &mut done[start..] {
            let alias = outcome.document.url.as_ref().and_then(tree_alias);
            outcome.document.aliases.extend(alias);
        }
        // The files the documents just read link to, that exist and were
        // not named: read as context for the set checks, as a type checker
        // reads imports, so that a subset of a tree (the changed files of a
        // commit) is checked against the chains it belongs to. Each URL is
        // read at most once, so this ends within the files on disk.
        let linked: Vec<Job> = done[start..]
            .iter()
            .filter_map(|outcome| outcome.document.summary.as_ref())
            .flat_map(|summary| summary.links.iter().filter_map(|link| link.target.as_ref()))
            .filter_map(|target| {
                let path = discover::local_file(target, published)?;
                let job = discover::linked_job(path, target.clone());
                let new = known.insert(target.to_string())
                    && job
                        .canonical
                        .as_ref()
                        .is_none_or(|file| known_files.insert(file.clone()));
                new.then_some(job)
            })
            .collect();
        batch.extend(linked);
        if batch.is_empty() {
            break;
        }
        start = done.len();
        run_jobs(
            std::mem::take(&mut batch),
            true,
            options,
            &mut done,
            &mut failures,
            &mut budget,
        );
    }
    let mut report = Report::assemble_into(done, &url_spaces, Vec::new(), options, sink);
    for level in [Level::Error, Level::Warning, Level::Info] {
        report.dropped.add(level, budget.dropped.of(level));
    }
    if report.linted_documents() == 0 && failures.is_empty() && !paths.is_empty() {
        failures.push(Failure::NoFeeds { paths });
    }
    report.published = published.map(discover::Published::learned).unwrap_or_default();
    report.failures.extend(failures);
    report.warnings.extend(warnings);
    report
}

/// Where the documents' `self` links publish their folders (see
/// [`crate::site`]): the directory a base URL given alone names, or, with
/// no base URL, each folder at the prefix most of its self links give.
/// Documents whose self link says otherwise are marked; every document
/// gets the URL its tree now gives it. Returns the documents whose
/// analysis read their old URL (a relative link resolved against it), to
/// be analyzed again at the new one.
fn learn_sites(done: &mut [Outcome], published: &mut discover::Published) -> Vec<(usize, Url)> {
    let placed: Vec<(usize, &site::Placement)> = done
        .iter()
        .enumerate()
        .filter_map(|(i, outcome)| Some((i, outcome.document.placement.as_ref()?)))
        .collect();
    if let Some(base) = published.root_to_learn().cloned() {
        let roots: Vec<std::path::PathBuf> = placed
            .iter()
            .filter_map(|(_, placement)| site::root_for(&base, placement))
            .collect();
        if let Some(root) = site::most_common(&roots) {
            published.settle_root(root);
        }
    }
    // A self link in a tree whose base URL is given disagrees with it
    // where it places the file elsewhere; the others agree among
    // themselves, folder by folder.
    let (given, free): (Vec<_>, Vec<_>) = placed.into_iter().partition(|(i, _)| {
        done[*i]
            .document
            .canonical
            .as_deref()
            .is_some_and(|canonical| published.published_url(canonical).is_some())
    });
    let mut misplaced: Vec<(usize, Misplaced)> = given
        .iter()
        .filter(|(i, placement)| {
            let canonical = done[*i]
                .document
                .canonical
                .as_deref()
                .unwrap_or(std::path::Path::new(""));
            let (Some(given), Some(says)) = (published.published_url(canonical), placement.url_of(canonical)) else {
                return false;
            };
            iri::comparison_key(&given) != iri::comparison_key(&says)
        })
        .map(|(i, _)| (*i, Misplaced::ByBaseUrl))
        .collect();
    let agreement = site::agree(&free);
    misplaced.extend(
        agreement
            .dissent
            .iter()
            .map(|(doc, standing)| (*doc, Misplaced::BySelfLinkOf(*standing))),
    );
    published.learn(agreement.placements.into_iter().map(|(placement, _)| placement));
    for (doc, how) in misplaced {
        done[doc].document.misplaced = Some(how);
    }
    let mut again = Vec::new();
    for (i, outcome) in done.iter_mut().enumerate() {
        let document = &mut outcome.document;
        let Some(canonical) = &document.canonical else { continue };
        let Some(url) = published
            .published_url(canonical)
            .or_else(|| Url::from_file_path(canonical).ok())
        else {
            continue;
        };
        let Some(old) = document.url.as_ref() else { continue };
        if iri::comparison_key(old) == iri::comparison_key(&url) {
            continue;
        }
        if read_its_url(document.summary.as_ref(), old, &url) {
            again.push((i, url));
        } else {
            document.url = Some(url);
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

/// Analyzes documents again at their new URLs, in place of what their
/// first analysis gave.
fn analyze_again(again: Vec<(usize, Url)>, options: &Options, done: &mut [Outcome], budget: &mut FindingBudget) {
    let jobs: Vec<Job> = again
        .iter()
        .filter_map(|(i, url)| {
            let document = &done[*i].document;
            Some(Job {
                name: document.name.clone(),
                url: Some(url.clone()),
                origin: Origin::File(document.path.clone()?),
                explicit: document.explicit,
                canonical: document.canonical.clone(),
                learning: site::Learning::Off,
            })
        })
        .collect();
    let mut redone = Vec::with_capacity(jobs.len());
    for (i, _) in &again {
        budget.refund(&done[*i]);
    }
    run_jobs(jobs, false, options, &mut redone, &mut Vec::new(), budget);
    for ((i, _), mut outcome) in again.into_iter().zip(redone) {
        let old = &done[i].document;
        outcome.document.placement = old.placement.clone();
        outcome.document.misplaced = old.misplaced.clone();
        done[i] = outcome;
    }
}

/// The feeds of the trees the run publishes that it did not name, read as
/// context: a run over part of a tree then gives the whole tree's verdict
/// on what it names (the documents that link to a named one are seen
/// too). A tree inside a linted directory was walked already.
fn site_context(
    directories: &[std::path::PathBuf],
    done: &[Outcome],
    published: &discover::Published,
    options: &Options,
    warnings: &mut Vec<String>,
) -> Vec<Job> {
    let walked: Vec<std::path::PathBuf> = directories
        .iter()
        .filter_map(|d| std::fs::canonicalize(d).ok())
        .collect();
    let read: FastSet<&std::path::Path> = done.iter().filter_map(|o| o.document.canonical.as_deref()).collect();
    let mut jobs = Vec::new();
    for (root, _) in published.sites() {
        if walked.iter().any(|directory| root.starts_with(directory)) {
            continue;
        }
        jobs.extend(
            discover::walk_context(root, options, published, warnings)
                .into_iter()
                .filter(|job| job.canonical.as_deref().is_none_or(|file| !read.contains(file))),
        );
    }
    jobs
}

/// A document held in memory, as an editor has it.
#[derive(Debug, Clone)]
pub struct InMemory {
    /// What findings call it: a file name, a buffer's title.
    pub name: String,
    /// Where it is published, if known: relative links resolve against it,
    /// and the set rules match links to documents by it.
    pub url: Option<String>,
    pub bytes: Vec<u8>,
}

/// Lints one document given as bytes (an editor buffer, a test, a fuzzer).
pub fn lint_bytes(name: &str, url: Option<&str>, bytes: &[u8], options: &Options) -> Result<Report, InvalidUrl> {
    let document = InMemory {
        name: name.to_owned(),
        url: url.map(str::to_owned),
        bytes: bytes.to_vec(),
    };
    lint_in_memory(vec![document], &[], options)
}

/// Lints documents held in memory as one set. `url_spaces` are the URL
/// prefixes under which a linked document is expected to be among them
/// (see `archive-link-dangling`). Every URL must be absolute.
pub fn lint_in_memory(documents: Vec<InMemory>, url_spaces: &[&str], options: &Options) -> Result<Report, InvalidUrl> {
    let url_spaces = url_spaces
        .iter()
        .map(|space| absolute_url(space).map(UrlSpace::of))
        .collect::<Result<Vec<UrlSpace>, _>>()?;
    let documents = documents
        .into_iter()
        .map(|document| {
            let url = document.url.as_deref().map(absolute_url).transpose()?;
            Ok((document.name, url, document.bytes))
        })
        .collect::<Result<Vec<_>, InvalidUrl>>()?;
    let outcomes: Vec<Option<Outcome>> = documents
        .into_par_iter()
        .map(|(name, url, bytes)| {
            analyze::lint_document(
                Named {
                    name,
                    path: None,
                    url,
                    charset: None,
                    canonical: None,
                    learning: site::Learning::Off,
                    context: false,
                },
                bytes,
                true,
                options,
            )
        })
        .collect();
    Ok(Report::assemble(
        outcomes.into_iter().flatten().collect(),
        &url_spaces,
        Vec::new(),
        options,
    ))
}

/// Reads and analyzes `jobs` in parallel into `done`. A file that cannot be
/// read fails the run, unless it was read only as context.
///
/// The jobs run a chunk at a time, and each chunk's findings are held to
/// what is left of `--max-findings` in the order the jobs were given, so a
/// run's memory stays bounded however many findings its documents have,
/// and the findings kept are the same at any number of threads.
fn run_jobs(
    jobs: Vec<Job>,
    context: bool,
    options: &Options,
    done: &mut Vec<Outcome>,
    failures: &mut Vec<Failure>,
    budget: &mut FindingBudget,
) {
    /// Enough documents per chunk to keep every core busy, few enough that
    /// a chunk's findings are a small part of the cap's memory.
    const CHUNK: usize = 1024;
    let mut jobs = jobs.into_iter();
    loop {
        let chunk: Vec<Job> = jobs.by_ref().take(CHUNK).collect();
        if chunk.is_empty() {
            return;
        }
        let at_start = budget.snapshot();
        let outcomes: Vec<Result<Option<(Outcome, FindingBudget)>, Failure>> = chunk
            .into_par_iter()
            .map(|job| {
                let mut own = at_start.snapshot();
                Ok(run_job(job, context, options)?.map(|mut outcome| {
                    outcome.document.context = context;
                    own.spend(&mut outcome);
                    (outcome, own)
                }))
            })
            .collect();
        for outcome in outcomes {
            match outcome {
                Ok(Some((mut outcome, own))) => {
                    budget.absorb(own.dropped);
                    budget.spend(&mut outcome);
                    done.push(outcome);
                }
                Ok(None) => {}
                Err(failure) if !context => failures.push(failure),
                Err(_) => {}
            }
        }
    }
}

fn run_job(job: Job, context: bool, options: &Options) -> Result<Option<Outcome>, Failure> {
    let (bytes, path) = match job.origin {
        Origin::Bytes(bytes) if bytes.len() as u64 > options.max_file_size() => {
            let named = Named {
                name: job.name,
                path: None,
                url: job.url,
                charset: None,
                canonical: job.canonical,
                learning: job.learning,
                context,
            };
            return Ok(Some(analyze::too_large(named, Some(bytes.len() as u64), options)));
        }
        Origin::Bytes(bytes) => (bytes, None),
        Origin::File(path) if options.overlay.contains_key(&path) => (options.overlay[&path].clone(), Some(path)),
        Origin::File(path) => {
            // A walked file is read on only if it starts like XML.
            let first_look = (!job.explicit).then_some(discover::looks_like_xml as fn(&[u8]) -> bool);
            match discover::read_file(&path, options.max_file_size(), first_look) {
                Ok(Read::Whole(bytes)) => (bytes, Some(path)),
                Ok(Read::NotWanted) => return Ok(None),
                Ok(Read::TooLarge { size, prefix }) => {
                    // A walked file too large to read is reported only if it
                    // looks like a feed; a video in the tree is not a finding.
                    let looks_like_feed = discover::looks_like_xml(&prefix)
                        && analyze::root_name_is_feed(&String::from_utf8_lossy(&prefix));
                    if !job.explicit && !looks_like_feed {
                        return Ok(None);
                    }
                    let named = Named {
                        name: job.name,
                        path: Some(path),
                        url: job.url,
                        charset: None,
                        canonical: job.canonical,
                        learning: job.learning,
                        context,
                    };
                    return Ok(Some(analyze::too_large(named, size, options)));
                }
                Err(error) => return Err(Failure::Unreadable { path, error }),
            }
        }
    };
    let named = Named {
        name: job.name,
        path,
        url: job.url,
        charset: None,
        canonical: job.canonical,
        learning: job.learning,
        context,
    };
    Ok(analyze::lint_document(named, bytes, job.explicit, options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assemble::Failure;

    #[test]
    fn urls_given_to_the_library_must_be_absolute() {
        let feed = b"<feed xmlns='http://www.w3.org/2005/Atom'/>";
        let error = lint_bytes("a.atom", Some("feeds/a.atom"), feed, &Options::default()).unwrap_err();
        assert_eq!(error.url, "feeds/a.atom");
        assert!(
            error.to_string().starts_with("'feeds/a.atom' is not an absolute URL: "),
            "{error}"
        );
        let documents = vec![InMemory {
            name: "a.atom".to_owned(),
            url: Some("https://example.org/a.atom".to_owned()),
            bytes: feed.to_vec(),
        }];
        assert!(lint_in_memory(documents.clone(), &["example.org"], &Options::default()).is_err());
        let report = lint_in_memory(documents, &["https://example.org/"], &Options::default()).unwrap();
        assert_eq!(report.documents[0].url(), Some("https://example.org/a.atom"));
        assert!(Options::default().with_base_url("/site/").is_err());
    }

    #[test]
    fn a_path_that_cannot_be_read_is_a_typed_failure_and_the_others_are_linted() {
        let fixture = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testsuite/rules/archive-missing-current/fail-no-current.atom"
        );
        let inputs = vec![Input::Path("no/such/feed.atom".into()), Input::Path(fixture.into())];
        let report = lint(inputs, &Options::default());
        match &report.failures[..] {
            [Failure::Unreadable { path, error }] => {
                assert_eq!(path.to_str(), Some("no/such/feed.atom"));
                assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(report.documents.len(), 1);
        assert!(report.failures[0]
            .to_string()
            .starts_with("cannot read no/such/feed.atom: "));
    }
}
