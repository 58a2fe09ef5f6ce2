//! Where a report goes (standard output or `--output-file`), what is said
//! on standard error, and the exit status.

use std::fmt::Display;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use feedlint::report::file::ReportFile;
use feedlint::report::{self, Format};
use feedlint::Level;

use super::args::{ColorChoice, FailOn, LintArgs};

pub(crate) const USAGE_ERROR: u8 = 2;

/// Says something on standard error, with the password of any URL in it
/// masked (an invalid URL the user gave is echoed). A full or closed
/// standard error is not worth a panic: the exit status still tells.
pub(crate) fn say(message: impl Display) {
    let _ = try_say(message);
}

/// [`say`], telling whether it was written: where standard error is the
/// report's own output (the concise format's totals), a failure fails.
pub(crate) fn try_say(message: impl Display) -> io::Result<()> {
    let message = message.to_string();
    let masked = feedlint::base::secret::mask_text(&message);
    // One line, whatever a file name in it holds.
    let mut err = io::stderr().lock();
    writeln!(err, "feedlint: {}", feedlint::base::shown::visible(&masked))?;
    err.flush()
}

/// The file `-o` names, if it is one of `inputs` (by identity, so through
/// any link or other name): writing the report there would replace a feed.
pub(crate) fn output_among<'p>(output: &Path, inputs: impl IntoIterator<Item = &'p Path>) -> Option<&'p Path> {
    use std::os::unix::fs::MetadataExt as _;
    let output = std::fs::metadata(output).ok()?;
    inputs.into_iter().find(|input| {
        std::fs::metadata(input).is_ok_and(|input| (input.dev(), input.ino()) == (output.dev(), output.ino()))
    })
}

pub(crate) fn refuse_output_onto_input(input: &Path) -> ExitCode {
    fail(&format!(
        "--output-file names {}, a file being linted: the report would replace it; write the report elsewhere",
        input.display()
    ))
}

/// Writes the report to `--output-file`; a file that cannot be written is
/// said, and the run fails.
pub(crate) fn write_file(
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
pub(crate) fn write_out(status: ExitCode, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> ExitCode {
    let mut out = io::BufWriter::new(io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => status,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => status,
        Err(error) => fail(&format!("cannot write the report to standard output: {error}")),
    }
}

pub(crate) fn fail(message: &str) -> ExitCode {
    fail_lines(&[message])
}

/// [`fail`] with every mistake at once, a line each.
pub(crate) fn fail_lines(mistakes: &[impl Display]) -> ExitCode {
    for mistake in mistakes {
        say(format_args!("error: {mistake}"));
    }
    ExitCode::from(USAGE_ERROR)
}

/// The run's report is left to the end of the process: the memory goes
/// back whole, without a walk over every finding and summary to free them
/// one by one (2% of a run with 78,000 findings). The report holds plain
/// data only: nothing is left unflushed or open.
pub(crate) fn exit_without_freeing(report: feedlint::Report) {
    std::mem::forget(report);
}

/// Where a streamed report goes.
pub(crate) enum Output {
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
    pub(crate) fn close(self) -> io::Result<()> {
        match self {
            Output::File(out) => out.into_inner().map_err(io::IntoInnerError::into_error)?.commit(),
            Output::Stdout(mut out) => out.flush(),
        }
    }
}

/// What was skipped or could not be linted, on standard error.
pub(crate) fn say_warnings_and_failures(report: &feedlint::Report) {
    for warning in &report.warnings {
        say(format_args!("warning: {warning}"));
    }
    for failure in &report.failures {
        match mistyped_command(failure) {
            Some(command) => say(format_args!("error: {failure}; did you mean the command `{command}`?")),
            None => say(format_args!("error: {failure}")),
        }
    }
}

/// The command a path that is not there was likely meant as: a plain word
/// near a command's name (`feedlint explian`), read as a path because a
/// command line without a command lints its arguments.
fn mistyped_command(failure: &feedlint::Failure) -> Option<String> {
    use clap::CommandFactory as _;
    let feedlint::Failure::Unreadable { path, error } = failure else {
        return None;
    };
    let word = path
        .to_str()
        .filter(|word| word.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-'))?;
    (error.kind() == std::io::ErrorKind::NotFound).then_some(())?;
    super::args::Cli::command()
        .get_subcommands()
        .map(|command| command.get_name().to_owned())
        .find(|name| name != "help" && feedlint::findings::rule_id::is_near(word, name))
}

/// How a run's report is printed and what the run exits with, decided
/// once from the arguments: no other part of the command line reads them
/// for it.
pub(crate) struct Printing {
    format: Format,
    color: bool,
    fail_on: Level,
    exit_zero: bool,
    statistics: bool,
    /// The concise format's totals, said on standard error.
    concise_totals: bool,
    output_file: Option<PathBuf>,
}

impl Printing {
    /// How `args` print, or why they cannot.
    pub(crate) fn of(args: &LintArgs) -> Result<Printing, String> {
        if args.statistics && matches!(args.format, Format::Sarif | Format::Github) {
            return Err(format!(
                "--statistics counts findings by rule in the text, concise, json and json-lines formats; {} has no place for it (drop one of the two)",
                if matches!(args.format, Format::Sarif) { "--format sarif" } else { "--format github" }
            ));
        }
        let color = match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                args.output_file.is_none()
                    && io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        };
        Ok(Printing {
            format: args.format,
            color,
            fail_on: match args.fail_on {
                FailOn::Error => Level::Error,
                FailOn::Warning => Level::Warning,
                FailOn::Info => Level::Info,
            },
            exit_zero: args.exit_zero,
            statistics: args.statistics,
            concise_totals: matches!(args.format, Format::Concise) && !args.quiet && !args.statistics,
            output_file: args.output_file.clone(),
        })
    }

    /// Where the report goes: a file, or standard output (`None`).
    pub(crate) fn output_file(&self) -> Option<&Path> {
        self.output_file.as_deref()
    }

    /// Whether the findings are written as they are assembled: a line
    /// format, and no statistics in their place.
    pub(crate) fn streams(&self) -> bool {
        self.format.streams() && !self.statistics
    }

    /// The writer of the findings, for a streamed report.
    pub(crate) fn emitter(&self) -> Box<dyn report::Emitter> {
        self.format.emitter(self.color)
    }

    /// The exit status a report gives: 2 if something could not be linted
    /// (or feedlint failed on a document: `internal-error`), 1 if a finding
    /// is at or above `--fail-on` (unless `--exit-zero`).
    pub(crate) fn exit_status(&self, report: &feedlint::Report) -> u8 {
        let failing = [Level::Error, Level::Warning, Level::Info]
            .into_iter()
            .any(|level| level >= self.fail_on && report.count(level) > 0);
        // A document feedlint failed on (a contained panic) was not fully
        // checked: the run itself failed, whatever else it found.
        let internal_error = report.documents.iter().any(|document| document.internal_error);
        if !report.failures.is_empty() || internal_error {
            USAGE_ERROR
        } else {
            u8::from(failing && !self.exit_zero)
        }
    }

    /// The concise format's totals, on standard error after the findings
    /// (its standard output stays one line a finding): unless `--quiet`.
    /// They are part of the report: if they cannot be written, the run
    /// fails, as for the findings, with `status` otherwise.
    pub(crate) fn say_concise_totals(&self, report: &feedlint::Report, status: ExitCode) -> ExitCode {
        if self.concise_totals {
            if let Err(error) = try_say(report::concise_totals(report)) {
                if error.kind() != io::ErrorKind::BrokenPipe {
                    return ExitCode::from(USAGE_ERROR);
                }
            }
        }
        status
    }

    /// Prints the report and decides the exit status.
    pub(crate) fn finish(&self, report: &feedlint::Report) -> ExitCode {
        let status = self.exit_status(report);
        // A walked directory's files are known only now.
        if let Some(output) = &self.output_file {
            let linted = report.documents.iter().filter_map(|document| document.path.as_deref());
            if let Some(input) = output_among(output, linted) {
                return refuse_output_onto_input(input);
            }
        }
        let render = |out: &mut dyn Write| {
            if self.statistics {
                report::write_statistics(report, matches!(self.format, Format::Json | Format::JsonLines), out)
            } else {
                report::write(report, self.format, self.color, out)
            }
        };
        let written = match &self.output_file {
            Some(path) => write_file(ExitCode::from(status), path, render),
            None => write_out(ExitCode::from(status), render),
        };
        say_warnings_and_failures(report);
        self.say_concise_totals(report, written)
    }
}
