//! The run's entry points: files and folders named by path, and documents
//! held in memory (an editor's buffers, a test, a fuzzer).

use crate::model::failure::Failure;
use crate::model::set::UrlSpace;
use crate::report::{Keep, Report, Sink};
use crate::run::discover::Input;
use crate::run::discover::{self, Job};
use crate::run::in_progress::Run;
use crate::settings::options::{absolute_url, InvalidUrl, Options};
use crate::site;

/// Lints everything the inputs name.
pub fn lint(inputs: Vec<Input>, options: &Options) -> Report {
    kept(|sink| lint_into(inputs, options, sink))
}

/// A report with its findings kept in it, from a run that gives them to a
/// sink.
pub(crate) fn kept(run: impl FnOnce(&mut dyn Sink) -> Report) -> Report {
    let mut keep = Keep(Vec::new());
    let mut report = run(&mut keep);
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
    let named: Vec<&std::path::Path> = paths.iter().map(std::path::PathBuf::as_path).collect();
    let mut published = site::Published::of(&named, options);
    let mut run = Run::new(options);
    run.walk(inputs, published.as_ref());
    run.read_context(&directories, published.as_mut());
    let published = published.as_ref();
    let mut url_spaces = site::url_spaces(&directories, published);
    url_spaces.extend(published.map(site::Published::spaces).unwrap_or_default());
    let mut report = run.report(&url_spaces, Vec::new(), sink);
    if report.linted_documents() == 0 && report.failures.is_empty() && !paths.is_empty() {
        report.failures.push(Failure::NoFeeds { paths });
    }
    report.published = published.map(site::Published::learned).unwrap_or_default();
    report
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
        .map(|space| absolute_url(space).map(|url| UrlSpace::of(site::as_directory(url))))
        .collect::<Result<Vec<UrlSpace>, _>>()?;
    let run = read_in_memory(documents, false, options)?;
    Ok(kept(|sink| run.report(&url_spaces, Vec::new(), sink)))
}

/// Reads and analyzes documents held in memory into a run (`walked`: as
/// a walk finds files, a file that is no feed skipped).
pub(super) fn read_in_memory(documents: Vec<InMemory>, walked: bool, options: &Options) -> Result<Run<'_>, InvalidUrl> {
    let jobs = documents
        .into_iter()
        .map(|document| {
            let url = document.url.as_deref().map(absolute_url).transpose()?;
            let explicit = !walked || discover::has_feed_extension(std::path::Path::new(&document.name));
            Ok(Job {
                explicit,
                ..Job::of_bytes(document.name, url, document.bytes)
            })
        })
        .collect::<Result<Vec<_>, InvalidUrl>>()?;
    let mut run = Run::new(options);
    run.read(jobs);
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::failure::Failure;

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
