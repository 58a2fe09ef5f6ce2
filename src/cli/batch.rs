//! `feedlint --urls-from FILE`: batch mode, a record a line per input.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::ArgMatches;
use feedlint::fetch::batch::{self, BatchInput, Line, Outcome};
use feedlint::report::Format;
use feedlint::Options;

use super::args::LintArgs;
use super::output::{fail, say};

/// Requests in flight for one input's walk: the batch's parallelism is
/// across inputs (`--jobs` of them at once), not inside one.
const JOBS_PER_INPUT: usize = 2;

pub(crate) fn run(args: &LintArgs, matches: &ArgMatches, options: &Options) -> ExitCode {
    if let Some(refused) = refusal(args, matches) {
        return fail(refused);
    }
    let (done, reader, mut out) = match open_all(args) {
        Ok(opened) => opened,
        Err(why) => return fail(&why),
    };
    let mut limits = match super::fetching::walk_limits(args) {
        Ok(limits) => limits,
        Err(why) => return fail(&why),
    };
    limits.jobs = JOBS_PER_INPUT;
    // Lines that are no input are said in records of their own, in order
    // with the rest, as the list is read.
    let unreadable = std::sync::Mutex::new(Vec::new());
    let shard = args.shard;
    let inputs = reader.lines().enumerate().filter_map(|(n, line)| {
        let line = match line {
            Ok(line) => line,
            Err(error) => {
                say(format_args!("warning: the list stopped at line {}: {error}", n + 1));
                return None;
            }
        };
        match batch::read_line(&line, n + 1) {
            Line::Input(input) => {
                let in_shard = shard.is_none_or(|(k, total)| batch::shard_of(&input.url, total) == k - 1);
                (in_shard && !done.contains(&input.key())).then_some(input)
            }
            Line::Nothing => None,
            Line::Unreadable { line, why } => {
                unreadable
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push((line, why));
                None
            }
        }
    });
    let mut written = Ok(());
    let mut write = |input: &BatchInput, outcome: &Outcome, out: &mut dyn Write| {
        if written.is_ok() {
            let named = feedlint::report::BatchRecordInput {
                id: &input.id,
                url: &input.url,
                line: input.line,
            };
            let outcome = match outcome {
                Outcome::Linted(report) => Ok(&**report),
                Outcome::Failed(why) => Err(why.as_str()),
            };
            written = feedlint::report::write_batch_record(&named, outcome, out).and_then(|()| out.flush());
        }
    };
    let jobs = usize::from(args.jobs);
    // A line that is no input: its record names its line, and no URL.
    let no_input = |line| BatchInput {
        line,
        id: None,
        url: String::new(),
    };
    let politeness = feedlint::fetch::politeness::Politeness {
        at_once: usize::from(args.host_jobs),
        delay: args.host_delay,
    };
    batch::run(inputs, &limits, options, jobs, politeness, &mut |input, outcome| {
        for (line, why) in unreadable
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .drain(..)
        {
            write(&no_input(line), &Outcome::Failed(why), &mut *out);
        }
        write(&input, &outcome, &mut *out);
    });
    for (line, why) in unreadable
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        write(&no_input(line), &Outcome::Failed(why), &mut *out);
    }
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&format!("cannot write the records: {error}")),
    }
}

/// Why the flags given make no batch run, if they do not.
fn refusal(args: &LintArgs, matches: &ArgMatches) -> Option<&'static str> {
    if !args.paths.is_empty() {
        return Some("--urls-from lints the URLs its list names: give no paths or URLs beside it");
    }
    if args.fix || args.diff {
        return Some("--fix and --diff change files on disk; a fetched document has none");
    }
    if matches.value_source("format") == Some(ValueSource::CommandLine) && args.format != Format::JsonLines {
        return Some("--urls-from writes JSON Lines records, one per input: leave out --format, or give json-lines");
    }
    None
}

/// What a batch reads and writes: the inputs an earlier output holds
/// (`--resume`), the list, and where the records go.
type Opened = (std::collections::HashSet<u64>, Box<dyn BufRead + Send>, Box<dyn Write>);

fn open_all(args: &LintArgs) -> Result<Opened, String> {
    let done = match &args.resume {
        None => Default::default(),
        Some(path) => File::open(path)
            .and_then(|file| batch::done_in(BufReader::new(file)))
            .map_err(|error| format!("cannot read {} to resume from it: {error}", path.display()))?,
    };
    let list = args.urls_from.clone().unwrap_or_default();
    let reader: Box<dyn BufRead + Send> = if list == "-" {
        Box::new(BufReader::new(io::stdin()))
    } else {
        let file = File::open(&list).map_err(|error| format!("cannot read {}: {error}", list.to_string_lossy()))?;
        Box::new(BufReader::new(file))
    };
    let out: Box<dyn Write> = match &args.output_file {
        // Appended: a resumed run adds its records to the file it resumes.
        Some(path) => {
            Box::new(BufWriter::new(open_for_records(path).map_err(|error| {
                format!("cannot write the records to {}: {error}", path.display())
            })?))
        }
        None => Box::new(io::stdout().lock()),
    };
    Ok((done, reader, out))
}

/// The output file, opened to append records: a run cut off mid-record
/// left a partial last line, which the new records start after (it is no
/// record: a resumed run lints its input again).
fn open_for_records(path: &std::path::Path) -> io::Result<File> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = File::options().create(true).read(true).append(true).open(path)?;
    if file.seek(SeekFrom::End(0))? > 0 {
        file.seek(SeekFrom::End(-1))?;
        let mut last = [0u8];
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
            file.write_all(b"\n")?;
        }
    }
    Ok(file)
}
