//! The command line: arguments → library → printed report → exit status.

use std::ffi::OsString;
use std::fmt::Display;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use feedlint::config::{self, Config};
use feedlint::report::file::ReportFile;
use feedlint::report::{self, Format};
use feedlint::{rules, select, Input, Level, Levels, Options, RuleId};
use url::Url;

mod alloc;
mod descriptors;

/// A strict linter for paged, archived and tombstoned feeds (RFC 5005, RFC 6721).
#[derive(Parser, Debug)]
#[command(name = "feedlint", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    lint: LintArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every rule: id, default level, scope and summary.
    Rules {
        #[arg(long, value_enum, default_value_t = ListFormat::Text)]
        format: ListFormat,
    },
    /// Print a rule's documentation.
    Explain {
        /// The rule id, e.g. next-archive-unsealed (none: the rule ids).
        rule: Option<String>,
    },
    /// Print a shell completion script, e.g.
    /// `feedlint completions bash > ~/.local/share/bash-completion/completions/feedlint`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Run the language server (LSP over standard input and output), for
    /// editors: diagnostics as you type, fixes as code actions, rule docs
    /// on hover.
    Server,
    /// Serve the validator as a web page and a JSON API (POST /api/lint):
    /// check a feed by URL, by pasting it, or by uploading its files.
    Serve(ServeArgs),
}

#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// The address to listen on (port 0: any free port).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    listen: std::net::SocketAddr,
    /// Let checked URLs reach private, loopback and link-local addresses
    /// (refused by default: the server would fetch inside its network).
    #[arg(long)]
    allow_private_addresses: bool,
    /// Lint jobs at once [default: the number of cores]; as many again
    /// times four may wait, and more are answered 503.
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// The largest request body, in bytes (a paste, an upload, an API call).
    #[arg(long, value_name = "BYTES", default_value_t = 8 * 1024 * 1024)]
    max_body: usize,
    /// The config file whose rule settings apply to every check.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The longest a client may take to send a request's headers, and the
    /// longest an idle kept-alive connection stays open, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout: u64,
    /// The most connections open at once (and at most what the process's
    /// descriptor limit allows); past it, the oldest idle one is closed.
    #[arg(long, value_name = "N", default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections: u64,
}

#[derive(clap::Args, Debug)]
struct LintArgs {
    /// Files or directories to lint, or - for standard input [default: .]
    /// Any file name the system allows, UTF-8 or not.
    paths: Vec<OsString>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
    /// When to colour the text output (auto: on a terminal, unless NO_COLOR is set).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// The URL at which the linted directory (or a named file's directory) is published.
    #[arg(long, value_name = "URL")]
    base_url: Option<Url>,
    /// The root of the tree: the directory --base-url is published at, and
    /// what a root-relative link (`/feed/...`) starts from [default: the
    /// one that holds every path linted; for the config's base-url, the
    /// config's directory or its `root`].
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// The URL of the single document linted (a file, or - for standard input).
    #[arg(long, value_name = "URL")]
    url: Option<Url>,
    /// The config file [default: the nearest feedlint.toml above the paths linted].
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Check only these rules: ids, starts of ids (atom-, rss-), groups (rfc5005, rfc6721, atom-core,
    /// rss-core, xml, fetch) or all; comma-separated or repeated (`feedlint rules` lists the groups).
    #[arg(long, value_name = "SELECTOR", value_delimiter = ',')]
    select: Option<Vec<String>>,
    /// Do not check these rules: ids, starts of ids, groups; comma-separated or repeated. The more
    /// specific of --select and --ignore wins.
    #[arg(long, value_name = "SELECTOR", value_delimiter = ',')]
    ignore: Vec<String>,
    /// Turn a rule off (repeatable).
    #[arg(long, value_name = "RULE")]
    allow: Vec<String>,
    /// Report a rule as a warning (repeatable).
    #[arg(long, value_name = "RULE")]
    warn: Vec<String>,
    /// Report a rule as an error (repeatable); `--deny warnings` raises every warning.
    #[arg(long, value_name = "RULE")]
    deny: Vec<String>,
    /// The lowest level that makes the exit status 1.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,
    /// Exit 0 even when there are findings (the run failing is still 2).
    #[arg(long)]
    exit_zero: bool,
    /// The largest file read; larger files get a file-too-large finding.
    /// At most 4 GiB, the XML parser's limit.
    #[arg(long, value_name = "BYTES", default_value_t = feedlint::DEFAULT_MAX_FILE_SIZE,
          value_parser = clap::value_parser!(u64).range(1..=u64::from(u32::MAX)))]
    max_file_size: u64,
    /// The most findings of one rule shown for one document; one more
    /// finding counts the rest. 0 shows every finding.
    #[arg(long, value_name = "N", default_value_t = feedlint::diagnostic::DEFAULT_MAX_PER_RULE)]
    max_per_rule: usize,
    /// The most findings a run keeps; the rest are counted, not kept, so
    /// that memory stays bounded. 0 keeps every finding.
    #[arg(long, value_name = "N", default_value_t = feedlint::DEFAULT_MAX_FINDINGS)]
    max_findings: usize,
    /// Fetching URLs: the most documents fetched in one run (at least 1).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    max_documents: u32,
    /// Fetching URLs: the most bytes of one document (after decompression).
    #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024 * 1024)]
    max_bytes: u64,
    /// Fetching URLs: the most seconds one request may take.
    #[arg(long, value_name = "SECONDS", default_value = "15", value_parser = parse_timeout)]
    timeout: Duration,
    /// Fetching URLs: the most redirects followed for one request.
    #[arg(long, value_name = "N", default_value_t = 5)]
    max_redirects: u32,
    /// Fetching URLs: the most seconds for the whole walk, every request
    /// and every document's linting included.
    #[arg(long, value_name = "SECONDS", default_value = "120", value_parser = parse_timeout)]
    max_time: Duration,
    /// Fetching URLs: follow only links and redirects on the starting URL's
    /// origin.
    #[arg(long)]
    same_origin: bool,
    /// Fetching URLs: let links and redirects lead to loopback, private and
    /// link-local addresses (refused by default: see the README's security
    /// section).
    #[arg(long)]
    allow_private_addresses: bool,
    /// Fetching URLs: the most requests in flight at once (at most 2 to one
    /// host).
    #[arg(long, short, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: u16,
    /// Print nothing on standard error while fetching.
    #[arg(long, short)]
    quiet: bool,
    /// Skip what this glob matches when walking directories (gitignore
    /// syntax, repeatable); .gitignore files and hidden paths are skipped
    /// already.
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    /// Write the report to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output_file: Option<PathBuf>,
    /// Print how many findings each rule has instead of the findings
    /// (as JSON with --format json or json-lines).
    #[arg(long)]
    statistics: bool,
    /// Apply the safe fixes to the files in place, then report what
    /// remains.
    #[arg(long)]
    fix: bool,
    /// With --fix or --diff: apply the unsafe fixes too (they change what
    /// consumers see, such as removing a link).
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print the fixes as a unified diff instead of writing them; exit 1
    /// if there is any.
    #[arg(long, conflicts_with = "fix")]
    diff: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum OutputFormat {
    /// Source snippets with labels, notes and help.
    Text,
    /// One line a finding: FILE:LINE:COL: LEVEL[RULE] MESSAGE.
    Concise,
    /// One JSON object with every finding and its spans.
    Json,
    /// One JSON object a line, then a summary line.
    JsonLines,
    /// SARIF 2.1.0, for code-scanning dashboards (GitHub code scanning).
    Sarif,
    /// GitHub Actions workflow commands: annotations on the pull request.
    Github,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum ListFormat {
    Text,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum FailOn {
    Error,
    Warning,
    Info,
}

const USAGE_ERROR: u8 = 2;

/// `--timeout`: seconds above 0, at most a day (a larger value is a typo,
/// and would not fit the clock's arithmetic).
fn parse_timeout(value: &str) -> Result<Duration, String> {
    const DAY: f64 = 24.0 * 60.0 * 60.0;
    match value.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= DAY => Ok(Duration::from_secs_f64(seconds)),
        _ => Err(format!("expected a number of seconds above 0 and at most {DAY}")),
    }
}

/// Says something on standard error, with the password of any URL in it
/// masked (an invalid URL the user gave is echoed). A full or closed
/// standard error is not worth a panic: the exit status still tells.
fn say(message: impl Display) {
    let _ = try_say(message);
}

/// [`say`], telling whether it was written: where standard error is the
/// report's own output (the concise format's totals), a failure fails.
fn try_say(message: impl Display) -> io::Result<()> {
    let message = message.to_string();
    let masked = feedlint::secret::mask_text(&message);
    // One line, whatever a file name in it holds.
    let mut err = io::stderr().lock();
    writeln!(err, "feedlint: {}", feedlint::shown::visible(&masked))?;
    err.flush()
}

/// The file `-o` names, if it is one of `inputs` (by identity, so through
/// any link or other name): writing the report there would replace a feed.
fn output_among<'p>(output: &Path, inputs: impl IntoIterator<Item = &'p Path>) -> Option<&'p Path> {
    use std::os::unix::fs::MetadataExt as _;
    let output = std::fs::metadata(output).ok()?;
    inputs.into_iter().find(|input| {
        std::fs::metadata(input).is_ok_and(|input| (input.dev(), input.ino()) == (output.dev(), output.ino()))
    })
}

fn refuse_output_onto_input(input: &Path) -> ExitCode {
    fail(&format!(
        "--output-file names {}, a file being linted: the report would replace it; write the report elsewhere",
        input.display()
    ))
}

/// Writes the report to `--output-file`; a file that cannot be written is
/// said, and the run fails.
fn write_file(
    status: ExitCode,
    path: &std::path::Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> ExitCode {
    let written = ReportFile::create(path).and_then(|file| {
        let mut out = io::BufWriter::new(file);
        write(&mut out)?;
        out.into_inner().map_err(io::IntoInnerError::into_error)?.commit()
    });
    match written {
        Ok(()) => status,
        Err(error) => fail(&format!("cannot write the report to {}: {error}", path.display())),
    }
}

/// Writes to standard output; a closed pipe (`feedlint ... | head`) ends
/// the run quietly with `status`, the status it would have had, as grep
/// and ruff do; any other failure (a full disk) is said, and the run
/// fails.
fn write_out(status: ExitCode, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> ExitCode {
    let mut out = io::BufWriter::new(io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => status,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => status,
        Err(error) => fail(&format!("cannot write the report to standard output: {error}")),
    }
}

fn main() -> ExitCode {
    alloc::tune();
    let matches = match Cli::command().try_get_matches() {
        Ok(matches) => matches,
        Err(error) if !error.use_stderr() => {
            // --help and --version: a failed write (a full disk) fails the
            // run, as any other output would.
            let rendered = error.render();
            let text = if io::stdout().is_terminal() {
                rendered.ansi().to_string()
            } else {
                rendered.to_string()
            };
            return write_out(ExitCode::SUCCESS, |out| out.write_all(text.as_bytes()));
        }
        Err(error) => return fail(&one_line(&error)),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => return fail(&one_line(&error)),
    };
    match cli.command {
        Some(Command::Rules { format }) => list_rules(format),
        Some(Command::Explain { rule: Some(rule) }) => explain(&rule),
        Some(Command::Explain { rule: None }) => explain_usage(),
        Some(Command::Completions { shell }) => {
            // Made in memory first: clap_complete panics on a failed write
            // (a closed pipe), and feedlint never panics.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "feedlint", &mut script);
            write_out(ExitCode::SUCCESS, |out| out.write_all(&script))
        }
        Some(Command::Serve(args)) => serve(&args),
        Some(Command::Server) => match feedlint::server::run() {
            Ok(feedlint::server::Ended::Shutdown) => ExitCode::SUCCESS,
            // LSP: "exit" without "shutdown" before it exits with 1.
            Ok(feedlint::server::Ended::WithoutShutdown) => ExitCode::FAILURE,
            Err(message) => fail(&message),
        },
        None => run(cli.lint, &matches),
    }
}

fn fail(message: &str) -> ExitCode {
    say(format_args!("error: {message}"));
    ExitCode::from(USAGE_ERROR)
}

/// clap's errors span several lines; users and scripts get one.
fn one_line(error: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let context = |kind| match error.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => Some(v.join(", ")),
        _ => None,
    };
    // clap's suggestion of the nearest option or value, kept on the line.
    let suggestion = |kind| {
        context(kind)
            .map(|near| format!("did you mean '{near}'? "))
            .unwrap_or_default()
    };
    match error.kind() {
        ErrorKind::InvalidValue => format!(
            "invalid value '{}' for '{}'; {}accepted: {}",
            context(ContextKind::InvalidValue).unwrap_or_default(),
            context(ContextKind::InvalidArg).unwrap_or_default(),
            suggestion(ContextKind::SuggestedValue),
            context(ContextKind::ValidValue).unwrap_or_default()
        ),
        ErrorKind::UnknownArgument => {
            let invalid = context(ContextKind::InvalidArg).unwrap_or_default();
            let option = invalid.split('=').next().unwrap_or_default();
            let command = Cli::command();
            let given = subcommand_given(&command);
            let here = given
                .as_deref()
                .and_then(|name| command.find_subcommand(name))
                .unwrap_or(&command);
            let name_of = |taker: &clap::Command| match taker.get_name() {
                "feedlint" => "linting (feedlint [OPTIONS] [PATHS]...)".to_owned(),
                name => format!("'feedlint {name}'"),
            };
            // An option of linting or of another subcommand, given where
            // it means nothing: the message says which takes it.
            let takers: Vec<String> = std::iter::once(&command)
                .chain(command.get_subcommands())
                .filter(|taker| taker.get_name() != here.get_name())
                .filter(|taker| long_options(taker).iter().any(|long| long == option))
                .map(name_of)
                .collect();
            let here_name = name_of(here);
            let accepted = long_options(here);
            let accepted = match accepted.is_empty() {
                true => "only --help".to_owned(),
                false => format!("{}, --help", accepted.join(", ")),
            };
            // Other linters' names for feedlint's options.
            let suggestion = match option {
                "--output-format" => "did you mean '--format'? ".to_owned(),
                _ => suggestion(ContextKind::SuggestedArg),
            };
            if takers.is_empty() {
                format!("unknown option '{invalid}'; {suggestion}accepted: {accepted}, --help, --version")
            } else {
                format!(
                    "'{option}' is an option of {}, not of {here_name}; {here_name} accepts {accepted}",
                    takers.join(" and ")
                )
            }
        }
        _ => {
            let text = error.to_string();
            let first = text.lines().next().unwrap_or_default();
            first.trim_start_matches("error: ").to_owned()
        }
    }
}

/// The subcommand named on the command line, if any (the first word that
/// is one, before any `--`).
fn subcommand_given(command: &clap::Command) -> Option<String> {
    let names: Vec<&str> = command.get_subcommands().map(clap::Command::get_name).collect();
    std::env::args()
        .skip(1)
        .take_while(|arg| arg != "--")
        .find(|arg| names.contains(&arg.as_str()))
}

/// A command's long options, as `--name`.
fn long_options(command: &clap::Command) -> Vec<String> {
    command
        .get_arguments()
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect()
}

fn list_rules(format: ListFormat) -> ExitCode {
    write_out(ExitCode::SUCCESS, |out| match format {
        ListFormat::Text => {
            let width = rules::RULES
                .iter()
                .map(|rule| rule.id.as_str().len())
                .max()
                .unwrap_or(0);
            rules::RULES.iter().try_for_each(|rule| {
                writeln!(
                    out,
                    "{:<width$}  {:<7}  {:<9}  {:<18}  {}",
                    rule.id,
                    rule.level,
                    rule.scope.as_str(),
                    select::groups_of(rule.id).join(","),
                    rule.summary
                )
            })?;
            writeln!(
                out,
                "\nGroups, for --select and --ignore (and select and ignore in feedlint.toml), beside rule ids,\nthe starts of rule ids (atom-, rss-) and all:"
            )?;
            select::GROUPS
                .iter()
                .try_for_each(|group| writeln!(out, "  {:<10} {}", group.name, group.summary))
        }
        ListFormat::Json => {
            let list: Vec<_> = rules::RULES
                .iter()
                .map(|rule| {
                    serde_json::json!({
                        "id": rule.id.as_str(),
                        "level": rule.level,
                        "scope": rule.scope.as_str(),
                        "summary": rule.summary,
                        "spec": rule.spec,
                        "url": report::rule_doc_url(rule.id),
                        "groups": select::groups_of(rule.id),
                    })
                })
                .collect();
            let groups: Vec<_> = select::GROUPS
                .iter()
                .map(|group| serde_json::json!({ "name": group.name, "summary": group.summary }))
                .collect();
            writeln!(out, "{}", serde_json::json!({ "rules": list, "groups": groups }))
        }
    })
}

/// `feedlint serve`: the web page and the API, until stopped.
fn serve(args: &ServeArgs) -> ExitCode {
    let mut options = feedlint::web::ServeOptions::new(args.listen);
    let descriptors = descriptors::raise_to_hard_limit();
    let wanted = usize::try_from(args.max_connections).unwrap_or(usize::MAX);
    options.connections.max_connections = feedlint::web::connection_cap(wanted, descriptors);
    options.connections.header_timeout = std::time::Duration::from_secs(args.header_timeout);
    options.limits.allow_private_addresses = args.allow_private_addresses;
    options.max_body = args.max_body;
    if let Some(jobs) = args.jobs.filter(|jobs| *jobs > 0) {
        options.jobs = jobs;
        options.queue = 4 * jobs;
    }
    if let Some(path) = &args.config {
        let config = match config::load(path) {
            Ok(config) => config,
            Err(error) => return fail(&error.to_string()),
        };
        // Levels and selection apply to every check; what names files and
        // folders cannot, and is refused rather than ignored.
        let mut refused = Vec::new();
        if config.excludes.iter().any(|(_, globs)| !globs.is_empty()) {
            refused.push("exclude (a server walks no folder)");
        }
        if config.base_url.is_some() {
            refused.push("base-url (a checked URL is its own base; an upload can say where it is published)");
        }
        if !refused.is_empty() {
            return fail(&format!(
                "{}: {} cannot apply to `feedlint serve`: remove it, or give the server a config of its own",
                path.display(),
                refused.join(" and ")
            ));
        }
        for warning in &config.warnings {
            say(format_args!("warning: {warning}"));
        }
        options.lint.levels = config.levels;
    }
    let ready = |address: std::net::SocketAddr| {
        // The URL, on a line of its own, for people and for scripts.
        let _ = writeln!(io::stdout().lock(), "feedlint: serving on http://{address}/");
    };
    match feedlint::web::serve(options, ready) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&format!("cannot serve on {}: {error}", args.listen)),
    }
}

/// `feedlint explain` without a rule: how to call it, and the rule ids.
fn explain_usage() -> ExitCode {
    write_out(ExitCode::SUCCESS, |out| {
        writeln!(
            out,
            "Usage: feedlint explain RULE\n\nPrints a rule's documentation. The rules:\n"
        )?;
        let width = rules::RULES
            .iter()
            .map(|rule| rule.id.as_str().len())
            .max()
            .unwrap_or(0);
        rules::RULES
            .iter()
            .try_for_each(|rule| writeln!(out, "  {:<width$}  {}", rule.id, rule.summary))
    })
}

fn explain(id: &str) -> ExitCode {
    match id.parse::<RuleId>() {
        Ok(id) => write_out(ExitCode::SUCCESS, |out| out.write_all(id.doc().as_bytes())),
        Err(unknown) => fail(&unknown.to_string()),
    }
}

/// The config file's settings: the one named, else those of the nearest
/// config above each path linted (see [`config::for_paths`]).
fn config(args: &LintArgs) -> Result<Config, config::ConfigError> {
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
fn levels(args: &LintArgs, matches: &ArgMatches, mut levels: Levels) -> Result<Levels, String> {
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

fn run(args: LintArgs, matches: &ArgMatches) -> ExitCode {
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

/// The run's report is left to the end of the process: the memory goes
/// back whole, without a walk over every finding and summary to free them
/// one by one (2% of a run with 78,000 findings). The report holds plain
/// data only: nothing is left unflushed or open.
fn exit_without_freeing(report: feedlint::Report) {
    std::mem::forget(report);
}

/// Lints, writing the findings as they are assembled (the line formats).
fn stream(args: &LintArgs, inputs: Vec<Input>, options: &Options, writer: report::LineWriter) -> ExitCode {
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

/// The concise format's totals, on standard error after the findings (its
/// standard output stays one line a finding): unless `--quiet`. They are
/// part of the report: if they cannot be written, the run fails, as for
/// the findings, with `status` otherwise.
fn say_concise_totals(args: &LintArgs, report: &feedlint::Report, status: ExitCode) -> ExitCode {
    if matches!(args.format, OutputFormat::Concise) && !args.quiet && !args.statistics {
        if let Err(error) = try_say(report::concise_totals(report)) {
            if error.kind() != io::ErrorKind::BrokenPipe {
                return ExitCode::from(USAGE_ERROR);
            }
        }
    }
    status
}

/// Where a streamed report goes.
enum Output {
    File(io::BufWriter<ReportFile>),
    Stdout(io::BufWriter<io::StdoutLock<'static>>),
}

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Output::File(out) => out.write(bytes),
            Output::Stdout(out) => out.write(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::File(out) => out.flush(),
            Output::Stdout(out) => out.flush(),
        }
    }
}

impl Output {
    /// Flushes, and for a file waits until it is on disk.
    fn close(self) -> io::Result<()> {
        match self {
            Output::File(out) => out.into_inner().map_err(io::IntoInnerError::into_error)?.commit(),
            Output::Stdout(mut out) => out.flush(),
        }
    }
}

/// `--fix` and `--diff`.
fn fix_files(args: &LintArgs, format: Format, inputs: &[Input], options: &Options) -> ExitCode {
    let fixed = feedlint::fixing::fix(inputs, options, args.unsafe_fixes);
    let files = fixed.files.len();
    let fixes = |n: usize| {
        if n == 1 {
            "1 fix".to_owned()
        } else {
            format!("{n} fixes")
        }
    };
    let files_ = |n: usize| {
        if n == 1 {
            "1 file".to_owned()
        } else {
            format!("{n} files")
        }
    };
    if args.diff {
        let printed = write_out(ExitCode::SUCCESS, |out| {
            feedlint::fixing::unified_diff(&fixed.files, out)
        });
        if printed != ExitCode::SUCCESS {
            return printed;
        }
        if !args.quiet {
            say(format_args!(
                "{} would be applied to {}",
                fixes(fixed.applied),
                files_(files)
            ));
        }
        return ExitCode::from(u8::from(files > 0));
    }
    if let Some(output) = &args.output_file {
        if let Some(input) = output_among(output, fixed.files.iter().map(|file| file.path.as_path())) {
            return refuse_output_onto_input(input);
        }
    }
    let failed = feedlint::fixing::write(&fixed.files);
    for (path, why) in &failed {
        say(format_args!("error: {} was not fixed: {why}", path.display()));
    }
    if !args.quiet {
        // Only what reached the disk counts as applied.
        let not_written: std::collections::HashSet<&PathBuf> = failed.iter().map(|(path, _)| path).collect();
        let written: Vec<&feedlint::fixing::FixedFile> = fixed
            .files
            .iter()
            .filter(|file| !not_written.contains(&file.path))
            .collect();
        say(format_args!(
            "applied {} to {}",
            fixes(written.iter().map(|file| file.applied).sum()),
            files_(written.len())
        ));
    }
    // What remains, read from the files as they are now.
    let report = feedlint::lint(inputs.to_vec(), options);
    let status = finish(args, format, &report);
    if failed.is_empty() {
        status
    } else {
        ExitCode::from(USAGE_ERROR)
    }
}

fn output_format(args: &LintArgs) -> Format {
    match args.format {
        OutputFormat::Text => Format::Text,
        OutputFormat::Concise => Format::Concise,
        OutputFormat::Json => Format::Json,
        OutputFormat::JsonLines => Format::JsonLines,
        OutputFormat::Sarif => Format::Sarif,
        OutputFormat::Github => Format::Github,
    }
}

/// `feedlint URL...`: fetch, follow, lint.
fn fetch_and_lint(args: &LintArgs, paths: &[OsString], levels: Levels, is_url: impl Fn(&OsString) -> bool) -> ExitCode {
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
    let mut options = Options::default();
    options.levels = levels;
    options.keep_sources = format == Format::Text;
    options.max_per_rule = args.max_per_rule;
    options.max_findings = args.max_findings;
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
    let report = feedlint::fetch::lint_urls(&start, &limits, &options, &mut progress);
    if show_progress {
        let _ = write!(io::stderr(), "\r\x1b[K");
    }
    match report {
        Ok(report) => finish(args, format, &report),
        Err(failure) => fail(&failure.to_string()),
    }
}

/// Whether the text format is coloured.
fn use_color(args: &LintArgs) -> bool {
    match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            args.output_file.is_none()
                && io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// The exit status a report gives: 2 if something could not be linted,
/// 1 if a finding is at or above `--fail-on` (unless `--exit-zero`).
fn exit_status(args: &LintArgs, report: &feedlint::Report) -> u8 {
    let fail_on = match args.fail_on {
        FailOn::Error => Level::Error,
        FailOn::Warning => Level::Warning,
        FailOn::Info => Level::Info,
    };
    let failing = [Level::Error, Level::Warning, Level::Info]
        .into_iter()
        .any(|level| level >= fail_on && report.count(level) > 0);
    if !report.failures.is_empty() {
        USAGE_ERROR
    } else {
        u8::from(failing && !args.exit_zero)
    }
}

/// What was skipped or could not be linted, on standard error.
fn say_warnings_and_failures(report: &feedlint::Report) {
    for warning in &report.warnings {
        say(format_args!("warning: {warning}"));
    }
    for failure in &report.failures {
        say(format_args!("error: {failure}"));
    }
}

/// Prints the report and decides the exit status.
fn finish(args: &LintArgs, format: Format, report: &feedlint::Report) -> ExitCode {
    let color = use_color(args);
    let status = exit_status(args, report);
    // A walked directory's files are known only now.
    if let Some(output) = &args.output_file {
        let linted = report.documents.iter().filter_map(|document| document.path.as_deref());
        if let Some(input) = output_among(output, linted) {
            return refuse_output_onto_input(input);
        }
    }
    let render = |out: &mut dyn Write| {
        if args.statistics {
            report::write_statistics(report, matches!(format, Format::Json | Format::JsonLines), out)
        } else {
            report::write(report, format, color, out)
        }
    };
    let written = match &args.output_file {
        Some(path) => write_file(ExitCode::from(status), path, render),
        None => write_out(ExitCode::from(status), render),
    };
    say_warnings_and_failures(report);
    say_concise_totals(args, report, written)
}
