//! `feedlint [PATH]...`: the settings from the config and the flags, the
//! run, and its report written as it is assembled.

use std::ffi::OsString;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::ArgMatches;
use feedlint::config::{self, Config};
use feedlint::report::file::ReportFile;
use feedlint::report::{self, Format};
use feedlint::{Input, Level, Levels, Options};

use super::args::{LintArgs, OutputFormat};
use super::fetching::fetch_and_lint;
use super::fixing::fix_files;
use super::output::{
    exit_status, exit_without_freeing, fail, finish, output_among, output_format, refuse_output_onto_input, say,
    say_concise_totals, say_warnings_and_failures, use_color, Output, USAGE_ERROR,
};

/// The config file's settings: the one named, else those of the nearest
/// config above each path linted (see [`config::for_paths`]).
pub(crate) fn config(args: &LintArgs) -> Result<Config, config::ConfigError> {
    if let Some(path) = &args.config {
        return config::load(path);
    }
    let paths: Vec<PathBuf> = args
        .paths
        .iter()
        // Standard input and URLs take the current directory's.
        .map(|arg| {
            if arg == "-" || arg.to_string_lossy().contains("://") {
                PathBuf::from(".")
            } else {
                PathBuf::from(arg)
            }
        })
        .collect();
    config::for_paths(&paths)
}

/// Rule levels in command-line order, so that a later flag wins, over the
/// config file's.
pub(crate) fn levels(args: &LintArgs, matches: &ArgMatches, mut levels: Levels) -> Result<Levels, String> {
    levels
        .select(args.select.as_deref(), &args.ignore)
        .map_err(|e| e.to_string())?;
    let mut settings: Vec<(usize, &str, Option<Level>)> = Vec::new();
    for (flag, values, level) in [
        ("allow", &args.allow, None),
        ("warn", &args.warn, Some(Level::Warning)),
        ("deny", &args.deny, Some(Level::Error)),
    ] {
        let indices = matches.indices_of(flag).into_iter().flatten();
        settings.extend(indices.zip(values).map(|(i, id)| (i, id.as_str(), level)));
    }
    settings.sort_by_key(|(i, _, _)| *i);
    for (_, id, level) in settings {
        levels.set(id, level).map_err(|e| e.to_string())?;
    }
    Ok(levels)
}

pub(crate) fn run(args: LintArgs, matches: &ArgMatches) -> ExitCode {
    if args.statistics && matches!(args.format, OutputFormat::Sarif | OutputFormat::Github) {
        return fail(&format!(
            "--statistics counts findings by rule in the text, concise, json and json-lines formats; {} has no place for it (drop one of the two)",
            if matches!(args.format, OutputFormat::Sarif) { "--format sarif" } else { "--format github" }
        ));
    }
    let config = match config(&args) {
        Ok(config) => config,
        // Every mistake of the config at once, a line each.
        Err(error) => {
            for line in error.lines() {
                say(format_args!("error: {line}"));
            }
            return ExitCode::from(USAGE_ERROR);
        }
    };
    for warning in &config.warnings {
        say(format_args!("warning: {warning}"));
    }
    let levels = match levels(&args, matches, config.levels) {
        Ok(levels) => levels,
        Err(message) => return fail(&message),
    };
    let paths = if args.paths.is_empty() {
        vec![OsString::from(".")]
    } else {
        args.paths.clone()
    };
    let is_url = |p: &OsString| {
        p.to_str()
            .is_some_and(|p| p.starts_with("http://") || p.starts_with("https://"))
    };
    // A URL of another scheme is named as such, not as a missing file.
    if let Some(other) = paths.iter().filter_map(|p| p.to_str()).find(|p| {
        let scheme = p.split_once("://").map(|(scheme, _)| scheme);
        scheme.is_some_and(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c)))
            && !is_url(&OsString::from(*p))
            && !Path::new(p).exists()
    }) {
        let scheme = other.split_once("://").map_or("", |(scheme, _)| scheme);
        return fail(&format!(
            "{other} is not fetched: feedlint fetches http:// and https:// URLs only, not {scheme}://; download it and lint the file"
        ));
    }
    if paths.iter().any(is_url) {
        return fetch_and_lint(&args, &paths, levels, is_url);
    }
    if args.url.is_some() && (paths.len() != 1 || PathBuf::from(&paths[0]).is_dir()) {
        return fail("--url names the URL of one document: give exactly one file, or - for standard input");
    }
    let mut inputs = Vec::with_capacity(paths.len());
    let mut read_stdin = false;
    for path in &paths {
        if path == "-" {
            if read_stdin {
                return fail("- (standard input) may be given only once");
            }
            read_stdin = true;
            let mut bytes = Vec::new();
            if let Err(error) = io::stdin()
                .lock()
                .take(args.max_file_size.saturating_add(1))
                .read_to_end(&mut bytes)
            {
                return fail(&format!("cannot read standard input: {error}"));
            }
            inputs.push(Input::Stdin(bytes));
        } else {
            inputs.push(Input::Path(PathBuf::from(path)));
        }
    }
    if let Some(output) = &args.output_file {
        let named = inputs.iter().filter_map(|input| match input {
            Input::Path(path) => Some(path.as_path()),
            _ => None,
        });
        if let Some(input) = output_among(output, named) {
            return refuse_output_onto_input(input);
        }
    }
    let format = output_format(&args);
    let mut options = Options::default();
    options.levels = levels;
    options.keep_sources = format == Format::Text;
    options.max_file_size = args.max_file_size;
    options.max_per_rule = args.max_per_rule;
    options.max_findings = args.max_findings;
    options.exclude = args.exclude.clone();
    if let Err(message) = feedlint::exclude::check_exclusions(&options.exclude) {
        return fail(&message);
    }
    if args.config.is_some() {
        // A config named on the command line is for everything linted.
        options
            .exclude
            .extend(config.excludes.iter().flat_map(|(_, globs)| globs.iter().cloned()));
    } else {
        options.config_excludes = config.excludes.clone();
    }
    // The base URL names a directory: --root, else the config's (for the
    // config's base-url), else the one that holds every path linted.
    let more_bases = config.more_bases;
    let (base_url, base_root) = match (&args.base_url, config.base_url) {
        (Some(url), _) => (Some(url.to_string()), args.root.clone()),
        (None, Some(url)) => (Some(url), args.root.clone().or(config.base_root)),
        (None, None) => (None, args.root.clone()),
    };
    if let Some(base_url) = base_url {
        options = match options.with_base_url(&base_url) {
            Ok(options) => options,
            Err(invalid) => return fail(&invalid.to_string()),
        };
    }
    if let Some(root) = base_root {
        options = options.with_base_root(root);
    }
    // Other configs' base URLs, each for its own tree, unless --base-url
    // names one for the whole run.
    if args.base_url.is_none() {
        for (url, root) in &more_bases {
            options = match options.with_tree_base_url(url, root) {
                Ok(options) => options,
                Err(invalid) => return fail(&invalid.to_string()),
            };
        }
    }
    if let Some(url) = &args.url {
        options = match options.with_url(url.as_str()) {
            Ok(options) => options,
            Err(invalid) => return fail(&invalid.to_string()),
        };
    }
    if args.fix || args.diff {
        return fix_files(&args, format, &inputs, &options);
    }
    match report::LineWriter::new(format, use_color(&args)) {
        Some(writer) if !args.statistics => stream(&args, inputs, &options, writer),
        _ => {
            let report = feedlint::lint(inputs, &options);
            let status = finish(&args, format, &report);
            exit_without_freeing(report);
            status
        }
    }
}

/// Lints, writing the findings as they are assembled (the line formats).
pub(crate) fn stream(args: &LintArgs, inputs: Vec<Input>, options: &Options, writer: report::LineWriter) -> ExitCode {
    let refused: std::cell::Cell<Option<PathBuf>> = std::cell::Cell::new(None);
    let open = |report: &feedlint::Report| -> io::Result<Output> {
        let Some(path) = &args.output_file else {
            return Ok(Output::Stdout(io::BufWriter::new(io::stdout().lock())));
        };
        // A walked directory's files are known only now.
        let linted = report.documents.iter().filter_map(|document| document.path.as_deref());
        if let Some(input) = output_among(path, linted) {
            refused.set(Some(input.to_owned()));
            return Err(io::Error::other("the output is a linted file"));
        }
        Ok(Output::File(io::BufWriter::new(ReportFile::create(path)?)))
    };
    let mut sink = report::Streaming::new(writer, open);
    let report = feedlint::lint_into(inputs, options, &mut sink);
    if let Some(input) = refused.take() {
        return refuse_output_onto_input(&input);
    }
    let status = ExitCode::from(exit_status(args, &report));
    let written = match sink.finish(&report).and_then(Output::close) {
        Ok(()) => status,
        Err(error) => match &args.output_file {
            Some(path) => fail(&format!("cannot write the report to {}: {error}", path.display())),
            None if error.kind() == io::ErrorKind::BrokenPipe => status,
            None => fail(&format!("cannot write the report to standard output: {error}")),
        },
    };
    say_warnings_and_failures(&report);
    let written = say_concise_totals(args, &report, written);
    exit_without_freeing(report);
    written
}
