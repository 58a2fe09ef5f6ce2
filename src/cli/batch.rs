//! `feedlint --urls-from FILE`: batch mode, a record a line per input.

use std::ffi::OsString;
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
    let Some(list) = args.urls_from.as_ref() else {
        return fail("--urls-from names the list of URLs");
    };
    if !args.paths.is_empty() {
        return fail("--urls-from lints the URLs its list names: give no paths or URLs beside it");
    }
    if args.fix || args.diff {
        return fail("--fix and --diff change files on disk; a fetched document has none");
    }
    if matches.value_source("format") == Some(ValueSource::CommandLine) && args.format != Format::JsonLines {
        return fail("--urls-from writes JSON Lines records, one per input: leave out --format, or give json-lines");
    }
    let done = match &args.resume {
        None => Default::default(),
        Some(path) => match File::open(path).and_then(|file| batch::done_in(BufReader::new(file))) {
            Ok(done) => done,
            Err(error) => return fail(&format!("cannot read {} to resume from it: {error}", path.display())),
        },
    };
    let reader: Box<dyn BufRead + Send> = if list == &OsString::from("-") {
        Box::new(BufReader::new(io::stdin()))
    } else {
        match File::open(list) {
            Ok(file) => Box::new(BufReader::new(file)),
            Err(error) => return fail(&format!("cannot read {}: {error}", list.to_string_lossy())),
        }
    };
    let mut out: Box<dyn Write> = match &args.output_file {
        // Appended: a resumed run adds its records to the file it resumes.
        Some(path) => match open_for_records(path) {
            Ok(file) => Box::new(BufWriter::new(file)),
            Err(error) => return fail(&format!("cannot write the records to {}: {error}", path.display())),
        },
        None => Box::new(io::stdout().lock()),
    };
    let mut limits = super::fetching::limits(args);
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
            written = feedlint::report::write_batch_record(input, outcome, out).and_then(|()| out.flush());
        }
    };
    let jobs = usize::from(args.jobs);
    // A line that is no input: its record names its line, and no URL.
    let no_input = |line| BatchInput {
        line,
        id: None,
        url: String::new(),
    };
    batch::run(inputs, &limits, options, jobs, &mut |input, outcome| {
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
