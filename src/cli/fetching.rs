//! `feedlint URL...`: linting fetched documents.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;

use feedlint::Options;
use url::Url;

use super::args::LintArgs;
use super::output::{fail, Printing};

/// `feedlint URL...`: fetch, follow, lint.
pub(crate) fn fetch_and_lint(
    args: &LintArgs,
    printing: &Printing,
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
    let limits = match walk_limits(args) {
        Ok(limits) => limits,
        Err(refused) => return fail(&refused),
    };
    let show_progress = shows_progress(args);
    let mut progress = |documents: usize, bytes: u64| {
        if show_progress {
            let _ = write!(
                io::stderr(),
                "\r\x1b[Kfeedlint: fetched {documents} document{}, {} KiB",
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
        Ok(report) => printing.finish(&report),
        Err(failure) => fail(&failure.to_string()),
    }
}

/// The limits of a walk (the command line's, or each of a batch's): the
/// fetching limits, with the HTTP cache `--http-cache` names, opened.
pub(crate) fn walk_limits(args: &LintArgs) -> Result<feedlint::fetch::Limits, String> {
    let http_cache = match &args.http_cache {
        None => None,
        Some(dir) => Some(
            feedlint::fetch::cache::HttpCache::open(dir)
                .map_err(|error| format!("cannot use {} as the HTTP cache: {error}", dir.display()))?,
        ),
    };
    Ok(feedlint::fetch::Limits {
        http_cache,
        ..limits(args)
    })
}

/// The fetching limits the flags set (no cache: the media and hub checks
/// keep nothing).
pub(crate) fn limits(args: &LintArgs) -> feedlint::fetch::Limits {
    feedlint::fetch::Limits {
        max_documents: args.max_documents as usize,
        max_bytes: args.max_bytes,
        timeout: args.timeout,
        max_time: args.max_time,
        max_redirects: args.max_redirects,
        same_origin: args.same_origin,
        allow_private_addresses: args.allow_private_addresses,
        jobs: usize::from(args.jobs),
        trust_start: true,
        http_cache: None,
        pacer: None,
    }
}

/// Progress is shown on a terminal, unless --quiet.
fn shows_progress(args: &LintArgs) -> bool {
    !args.quiet && io::stderr().is_terminal()
}

/// The hub check `--check-hub` asks for, under the fetching limits.
pub(crate) fn hub_check(args: &LintArgs) -> Arc<dyn feedlint::HubCheck> {
    Arc::new(feedlint::fetch::hubs::HubChecker::new(limits(args)))
}

/// The media check `--check-media` asks for, under the fetching limits,
/// its progress shown on standard error (on a terminal, once it has run
/// for a second; the line is cleared when the check ends).
pub(crate) fn media_check(args: &LintArgs) -> Arc<dyn feedlint::MediaCheck> {
    let checker = feedlint::fetch::media::MediaChecker::new(limits(args), args.max_media);
    if !shows_progress(args) {
        return Arc::new(checker);
    }
    Arc::new(checker.with_progress(Arc::new(|asked: usize, total: usize| {
        let end = if asked == total { "\r\x1b[K" } else { "" };
        let _ = write!(
            io::stderr(),
            "\r\x1b[Kfeedlint: checked {asked} of {total} media URLs{end}"
        );
    })))
}
