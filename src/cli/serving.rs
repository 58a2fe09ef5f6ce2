//! `feedlint serve`: the web page and the API.

use std::io::{self, Write};
use std::process::ExitCode;

use feedlint::settings::config::{self};
use feedlint::{FrontDoor, Options, Resolved};

use super::args::ServeArgs;
use super::output::{fail, fail_lines, say};

/// `feedlint serve`: the web page and the API, until stopped.
pub(crate) fn serve(args: &ServeArgs) -> ExitCode {
    if args.health_check {
        return match feedlint::web::probe(args.listen, std::time::Duration::from_secs(5)) {
            Ok(()) => ExitCode::SUCCESS,
            // 1, not the usage error's 2: a container runtime reads 1 as
            // unhealthy and keeps 2 for itself.
            Err(why) => {
                say(format_args!("error: {why}"));
                ExitCode::FAILURE
            }
        };
    }
    let mut options = feedlint::web::ServeOptions::new(args.listen);
    let descriptors = crate::cli::descriptors::raise_to_hard_limit();
    let wanted = usize::try_from(args.max_connections).unwrap_or(usize::MAX);
    options.connections.max_connections = feedlint::web::connection_cap(wanted, descriptors);
    options.connections.header_timeout = std::time::Duration::from_secs(args.header_timeout);
    options.limits.allow_private_addresses = args.allow_private_addresses;
    options.max_body = args.max_body;
    options.trust_proxy = args.trust_proxy;
    if let Some(url) = &args.public_url {
        if !matches!(url.scheme(), "http" | "https") || url.cannot_be_a_base() {
            return fail(&format!(
                "--public-url {url}: give the http or https address the server is reached by"
            ));
        }
        options.public_url = Some(url.clone());
    }
    if let Some(jobs) = args.jobs.filter(|jobs| *jobs > 0) {
        options.jobs = jobs;
        options.queue = 4 * jobs;
    }
    if let Some(path) = &args.config {
        let config = match config::load(path) {
            Ok(config) => config,
            Err(error) => return fail(&error.to_string()),
        };
        match Options::resolve(config, feedlint::web::ServeOptions::overrides(), FrontDoor::Server) {
            Ok(Resolved {
                options: lint,
                warnings,
            }) => {
                for warning in &warnings {
                    say(format_args!("warning: {warning}"));
                }
                options.lint = lint;
            }
            Err(mistakes) => {
                let mistakes: Vec<String> = mistakes.iter().map(|m| format!("{}: {m}", path.display())).collect();
                return fail_lines(&mistakes);
            }
        }
    }
    if args.check_media {
        options.check_media();
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
