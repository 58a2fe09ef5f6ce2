//! `feedlint URL...`: linting fetched documents.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use feedlint::Options;
use url::Url;

use super::args::LintArgs;
use super::output::{fail, finish, output_format};

/// `feedlint URL...`: fetch, follow, lint.
pub(crate) fn fetch_and_lint(
    args: &LintArgs,
    paths: &[OsString],
    options: &Options,
    is_url: impl Fn(&OsString) -> bool,
) -> ExitCode {
    let mut start = Vec::with_capacity(paths.len());
    for path in paths {
        match path.to_str().map(|text| (text, Url::parse(text))) {
            Some((_, Ok(url))) if matches!(url.scheme(), "http" | "https") => start.push(url),
            Some((text, Err(error))) if is_url(path) => return fail(&format!("'{text}' is not a valid URL: {error}")),
            _ => {
                return fail(&format!(
                    "'{}': give either URLs (http or https) or paths, not both",
                    path.to_string_lossy()
                ))
            }
        }
    }
    if args.url.is_some() || args.base_url.is_some() {
        return fail(
            "--url and --base-url describe local files; a fetched document's URL is the one it was fetched from",
        );
    }
    if args.fix || args.diff {
        return fail("--fix and --diff change files on disk; a fetched document has none");
    }
    let limits = feedlint::fetch::Limits {
        max_documents: args.max_documents as usize,
        max_bytes: args.max_bytes,
        timeout: args.timeout,
        max_time: args.max_time,
        max_redirects: args.max_redirects,
        same_origin: args.same_origin,
        allow_private_addresses: args.allow_private_addresses,
        jobs: usize::from(args.jobs),
        trust_start: true,
    };
    let format = output_format(args);
    let show_progress = !args.quiet && io::stderr().is_terminal();
    let mut progress = |documents: usize, bytes: u64| {
        if show_progress {
            let _ = write!(
                io::stderr(),
                "\rfeedlint: fetched {documents} document{}, {} KiB",
                if documents == 1 { "" } else { "s" },
                bytes / 1024
            );
        }
    };
    let report = feedlint::fetch::lint_urls(&start, &limits, options, &mut progress);
    if show_progress {
        let _ = write!(io::stderr(), "\r\x1b[K");
    }
    match report {
        Ok(report) => finish(args, format, &report),
        Err(failure) => fail(&failure.to_string()),
    }
}
