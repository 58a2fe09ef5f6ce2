//! `feedlint [PATH]...`: the settings from the config and the flags, the
//! run, and its report written as it is assembled.

use std::ffi::OsString;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::ArgMatches;
use feedlint::report::file::ReportFile;
use feedlint::report::{self, Format};
use feedlint::settings::config::{self, Config};
use feedlint::{FrontDoor, Input, Level, Options, Overrides, Resolved};

use super::args::LintArgs;
use super::fetching::{fetch_and_lint, hub_check, media_check};
use super::fixing::fix_files;
use super::output::{
    exit_without_freeing, fail, fail_lines, output_among, refuse_output_onto_input, say, say_warnings_and_failures,
    Output, Printing,
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

/// What the command line says besides the config, for
/// [`Options::resolve`]: rule levels in command-line order, so that a later
/// flag wins.
pub(crate) fn overrides(args: &LintArgs, matches: &ArgMatches, door: FrontDoor) -> Overrides {
    let mut levels: Vec<(usize, &String, Option<Level>)> = Vec::new();
    for (flag, values, level) in [
        ("allow", &args.allow, None),
        ("warn", &args.warn, Some(Level::Warning)),
        ("deny", &args.deny, Some(Level::Error)),
    ] {
        let indices = matches.indices_of(flag).into_iter().flatten();
        levels.extend(indices.zip(values).map(|(i, id)| (i, id, level)));
    }
    levels.sort_by_key(|(i, _, _)| *i);
    let files = door == FrontDoor::Files;
    Overrides {
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        levels: levels.into_iter().map(|(_, id, level)| (id.clone(), level)).collect(),
        exclude: args.exclude.clone(),
        config_named: args.config.is_some(),
        base_url: args.base_url.as_ref().map(ToString::to_string),
        root: args.root.clone(),
        url: args.url.as_ref().map(ToString::to_string),
        // A fetched document's size is bounded by --max-bytes.
        max_file_size: files.then_some(args.max_file_size),
        max_per_rule: Some(args.max_per_rule),
        max_findings: Some(args.max_findings),
        keep_sources: args.format == Format::Text,
        keep_texts: false,
    }
}

/// Flags given where they mean nothing (no batch, or no URL), as the
/// usage error that says so.
fn out_of_place(args: &LintArgs, matches: &ArgMatches, door: FrontDoor) -> Option<&'static str> {
    let given = |flag: &str| matches.value_source(flag) == Some(clap::parser::ValueSource::CommandLine);
    if args.shard.is_some() || args.resume.is_some() || given("host_jobs") || given("host_delay") {
        return Some("--shard, --resume, --host-jobs and --host-delay shape a batch: give them with --urls-from FILE");
    }
    if args.http_cache.is_some() && door == FrontDoor::Files {
        return Some("--http-cache keeps fetched documents for the next run: give URLs, or --urls-from FILE");
    }
    None
}

pub(crate) fn run(args: LintArgs, matches: &ArgMatches) -> ExitCode {
    let printing = match Printing::of(&args) {
        Ok(printing) => printing,
        Err(refused) => return fail(&refused),
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
    let door = if args.urls_from.is_some() || paths.iter().any(is_url) {
        FrontDoor::Urls
    } else {
        FrontDoor::Files
    };
    let config = match config(&args) {
        Ok(config) => config,
        // Every mistake of the config at once, a line each.
        Err(error) => return fail_lines(&error.0),
    };
    let resolved = Options::resolve(config, overrides(&args, matches, door), door);
    let mut options = match resolved {
        Ok(Resolved { options, warnings }) => {
            for warning in &warnings {
                say(format_args!("warning: {warning}"));
            }
            // Limits and remedies named by the flags that change them.
            options.with_words(std::sync::Arc::new(super::words::Flags))
        }
        Err(mistakes) => return fail_lines(&mistakes),
    };
    if args.check_media {
        if args.fix || args.diff {
            return fail("--check-media asks servers, --fix and --diff change files: run them one after the other");
        }
        options = options.with_media(Some(media_check(&args)));
    }
    if args.check_hub {
        if args.fix || args.diff {
            return fail("--check-hub asks servers, --fix and --diff change files: run them one after the other");
        }
        options = options.with_hubs(Some(hub_check(&args)));
    }
    if args.urls_from.is_some() {
        return super::batch::run(&args, matches, &options);
    }
    if let Some(refused) = out_of_place(&args, matches, door) {
        return fail(refused);
    }
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
    if door == FrontDoor::Urls {
        return fetch_and_lint(&args, &printing, &paths, &options, is_url);
    }
    if args.url.is_some() && (paths.len() != 1 || PathBuf::from(&paths[0]).is_dir()) {
        return fail("--url names the URL of one document: give exactly one file, or - for standard input");
    }
    let inputs = match inputs_of(&paths, args.max_file_size) {
        Ok(inputs) => inputs,
        Err(message) => return fail(&message),
    };
    if let Some(output) = printing.output_file() {
        let named = inputs.iter().filter_map(|input| match input {
            Input::Path(path) => Some(path.as_path()),
            _ => None,
        });
        if let Some(input) = output_among(output, named) {
            return refuse_output_onto_input(input);
        }
    }
    if args.fix || args.diff {
        return fix_files(&args, &printing, &inputs, &options);
    }
    match printing.streams() {
        true => stream(&printing, inputs, &options),
        false => {
            let report = feedlint::lint(inputs, &options);
            let status = printing.finish(&report);
            exit_without_freeing(report);
            status
        }
    }
}

/// The inputs the paths name: each path, and standard input read (at
/// most one byte past `--max-file-size`) where `-` is given, once.
fn inputs_of(paths: &[OsString], max_file_size: u64) -> Result<Vec<Input>, String> {
    let mut inputs = Vec::with_capacity(paths.len());
    let mut read_stdin = false;
    for path in paths {
        if path == "-" {
            if read_stdin {
                return Err("- (standard input) may be given only once".to_owned());
            }
            read_stdin = true;
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .take(max_file_size.saturating_add(1))
                .read_to_end(&mut bytes)
                .map_err(|error| format!("cannot read standard input: {error}"))?;
            inputs.push(Input::Stdin(bytes));
        } else {
            inputs.push(Input::Path(PathBuf::from(path)));
        }
    }
    Ok(inputs)
}

/// Lints, writing the findings as they are assembled (the line formats).
pub(crate) fn stream(printing: &Printing, inputs: Vec<Input>, options: &Options) -> ExitCode {
    let refused: std::cell::Cell<Option<PathBuf>> = std::cell::Cell::new(None);
    let open = |report: &feedlint::Report| -> io::Result<Output> {
        let Some(path) = printing.output_file() else {
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
    let mut sink = report::Streaming::new(printing.emitter(), open);
    let report = feedlint::lint_into(inputs, options, &mut sink);
    if let Some(input) = refused.take() {
        return refuse_output_onto_input(&input);
    }
    let status = ExitCode::from(printing.exit_status(&report));
    let written = match sink.finish(&report).and_then(Output::close) {
        Ok(()) => status,
        Err(error) => match printing.output_file() {
            Some(path) => fail(&format!("cannot write the report to {}: {error}", path.display())),
            None if error.kind() == io::ErrorKind::BrokenPipe => status,
            None => fail(&format!("cannot write the report to standard output: {error}")),
        },
    };
    say_warnings_and_failures(&report);
    let written = printing.say_concise_totals(&report, written);
    exit_without_freeing(report);
    written
}
