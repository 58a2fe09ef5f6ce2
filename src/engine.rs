//! One run, stage after stage: [`discover`](crate::discover) the documents
//! and read them, [`analyze`](crate::analyze) each in parallel (its tree is
//! dropped as soon as its rules have run), then [`assemble`](crate::assemble)
//! the report: the set checks, levels, suppressions, sorting.

use rayon::prelude::*;
use url::Url;

use crate::analyze::{self, Named, Outcome};
use crate::assemble::{Failure, Report};
use crate::discover::{self, Input, Job, Origin, Read};
use crate::options::Options;

/// Lints everything the inputs name.
pub fn lint(inputs: Vec<Input>, options: &Options) -> Report {
    let mut failures = Vec::new();
    let url_spaces = discover::url_spaces(&inputs, options);
    let jobs = discover::gather(inputs, options, &mut failures);
    let outcomes: Vec<Result<Option<Outcome>, Failure>> =
        jobs.into_par_iter().map(|job| run_job(job, options)).collect();
    let mut done = Vec::with_capacity(outcomes.len());
    for outcome in outcomes {
        match outcome {
            Ok(outcome) => done.extend(outcome),
            Err(failure) => failures.push(failure),
        }
    }
    let mut report = Report::assemble(done, &url_spaces, Vec::new(), options);
    report.failures.extend(failures);
    report
}

/// Lints one document given as bytes (an editor buffer, a test, a fuzzer).
pub fn lint_bytes(name: &str, url: Option<Url>, bytes: &[u8], options: &Options) -> Report {
    lint_in_memory(vec![(name.to_owned(), url, bytes.to_vec())], &[], options)
}

/// Lints documents held in memory as one set: `(name, URL, bytes)` each.
/// `url_spaces` are the URL prefixes under which a linked document is
/// expected to be among them (see `archive-link-dangling`).
pub fn lint_in_memory(documents: Vec<(String, Option<Url>, Vec<u8>)>, url_spaces: &[Url], options: &Options) -> Report {
    let outcomes: Vec<Option<Outcome>> = documents
        .into_par_iter()
        .map(|(name, url, bytes)| analyze::lint_document(Named { name, path: None, url }, bytes, true, options))
        .collect();
    Report::assemble(
        outcomes.into_iter().flatten().collect(),
        url_spaces,
        Vec::new(),
        options,
    )
}

fn run_job(job: Job, options: &Options) -> Result<Option<Outcome>, Failure> {
    let (bytes, path) = match job.origin {
        Origin::Bytes(bytes) if bytes.len() as u64 > options.max_file_size() => {
            let named = Named {
                name: job.name,
                path: None,
                url: job.url,
            };
            return Ok(Some(analyze::too_large(named, Some(bytes.len() as u64), options)));
        }
        Origin::Bytes(bytes) => (bytes, None),
        Origin::File(path) => match discover::read_file(&path, options.max_file_size()) {
            Ok(Read::Whole(bytes)) => (bytes, Some(path)),
            Ok(Read::TooLarge { size, prefix }) => {
                // A walked file too large to read is reported only if it
                // looks like a feed; a video in the tree is not a finding.
                let looks_like_feed =
                    discover::looks_like_xml(&prefix) && analyze::root_name_is_feed(&String::from_utf8_lossy(&prefix));
                if !job.explicit && !looks_like_feed {
                    return Ok(None);
                }
                let named = Named {
                    name: job.name,
                    path: Some(path),
                    url: job.url,
                };
                return Ok(Some(analyze::too_large(named, size, options)));
            }
            Err(error) => return Err(Failure::Unreadable { path, error }),
        },
    };
    if !job.explicit && !discover::looks_like_xml(&bytes) {
        return Ok(None);
    }
    let named = Named {
        name: job.name,
        path,
        url: job.url,
    };
    Ok(analyze::lint_document(named, bytes, job.explicit, options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assemble::Failure;

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
