//! The command line: arguments → library → printed report → exit status.
//! `main` only wires them; the pieces are in `cli/`.

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use cli::args::{Cli, Command};
use cli::lint::run;
use cli::output::{fail, write_out};
use cli::serving::serve;
use cli::usage::{explain, explain_usage, list_rules, one_line};

mod cli;

fn main() -> ExitCode {
    cli::alloc::tune();
    // A panic in a rule is that document's finding, not the run's end.
    feedlint::base::contain::install_hook();
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
        Some(Command::Server { config }) => match feedlint::lsp::run(config) {
            Ok(feedlint::lsp::Ended::Shutdown) => ExitCode::SUCCESS,
            // LSP: "exit" without "shutdown" before it exits with 1.
            Ok(feedlint::lsp::Ended::WithoutShutdown) => ExitCode::FAILURE,
            Err(message) => fail(&message),
        },
        None => run(cli.lint, &matches),
    }
}
