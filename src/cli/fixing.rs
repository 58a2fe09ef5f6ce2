//! `--fix` and `--diff`.

use std::path::PathBuf;
use std::process::ExitCode;

use feedlint::{Input, Options};

use super::args::LintArgs;
use super::output::{output_among, refuse_output_onto_input, say, write_out, Printing, USAGE_ERROR};

/// `--fix` and `--diff`.
pub(crate) fn fix_files(args: &LintArgs, printing: &Printing, inputs: &[Input], options: &Options) -> ExitCode {
    let fixed = feedlint::run::fix_files::fix(inputs, options, args.unsafe_fixes);
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
            feedlint::run::fix_files::unified_diff(&fixed.files, out)
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
    if let Some(output) = printing.output_file() {
        if let Some(input) = output_among(output, fixed.files.iter().map(|file| file.path.as_path())) {
            return refuse_output_onto_input(input);
        }
    }
    let failed = feedlint::run::fix_files::write(&fixed.files);
    for (path, why) in &failed {
        say(format_args!("error: {} was not fixed: {why}", path.display()));
    }
    if !args.quiet {
        // Only what reached the disk counts as applied.
        let not_written: std::collections::HashSet<&PathBuf> = failed.iter().map(|(path, _)| path).collect();
        let written: Vec<&feedlint::run::fix_files::FixedFile> = fixed
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
    let status = printing.finish(&report);
    if failed.is_empty() {
        status
    } else {
        ExitCode::from(USAGE_ERROR)
    }
}
