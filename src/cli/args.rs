//! The command line's arguments, as clap reads them.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use feedlint::report::Format;
use url::Url;

/// A strict linter for paged, archived and tombstoned feeds (RFC 5005, RFC 6721).
#[derive(Parser, Debug)]
#[command(name = "feedlint", version = env!("FEEDLINT_VERSION"), args_conflicts_with_subcommands = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    #[command(flatten)]
    pub(crate) lint: LintArgs,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
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
    Server {
        /// The config file to lint with [default: the workspace's
        /// feedlint.toml, found as the command line finds it].
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
    /// Serve the validator as a web page and a JSON API (POST /api/lint):
    /// check a feed by URL, by pasting it, or by uploading its files.
    Serve(ServeArgs),
}

#[derive(clap::Args, Debug)]
pub(crate) struct ServeArgs {
    /// The address to listen on (port 0: any free port).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub(crate) listen: std::net::SocketAddr,
    /// Let checked URLs reach private, loopback and link-local addresses
    /// (refused by default: the server would fetch inside its network).
    #[arg(long)]
    pub(crate) allow_private_addresses: bool,
    /// Check the media of every feed checked: ask the server of each
    /// enclosure and artwork what it holds, under the fetching limits and
    /// address policy (at most 50 media URLs a check).
    #[arg(long)]
    pub(crate) check_media: bool,
    /// Lint jobs at once [default: the number of cores]; as many again
    /// times four may wait, and more are answered 503.
    #[arg(long, value_name = "N")]
    pub(crate) jobs: Option<usize>,
    /// The largest request body, in bytes (a paste, an upload, an API call).
    #[arg(long, value_name = "BYTES", default_value_t = 8 * 1024 * 1024)]
    pub(crate) max_body: usize,
    /// The config file whose rule settings apply to every check.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// The longest a client may take to send a request's headers, and the
    /// longest an idle kept-alive connection stays open, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(crate) header_timeout: u64,
    /// The most connections open at once (and at most what the process's
    /// descriptor limit allows); past it, the oldest idle one is closed.
    #[arg(long, value_name = "N", default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub(crate) max_connections: u64,
    /// The address people reach the server by (https://feeds.example.org/):
    /// the badge and result links the page gives to copy are made from it.
    #[arg(long, value_name = "URL")]
    pub(crate) public_url: Option<url::Url>,
    /// The server is behind a reverse proxy that sets X-Forwarded-For,
    /// -Host and -Proto: the client is the one it names (for the shares of
    /// body readers and kept reports), and the links to copy use its host
    /// where no --public-url is given. Never set it without such a proxy:
    /// a client could then name any address.
    #[arg(long)]
    pub(crate) trust_proxy: bool,
    /// Do not serve: ask the server listening on --listen whether it
    /// answers (GET /healthz), and exit 0 if it does within 5 seconds, 1
    /// if not. For a container's health check, which has no curl.
    #[arg(long)]
    pub(crate) health_check: bool,
}

#[derive(clap::Args, Debug)]
pub(crate) struct LintArgs {
    /// Files or directories to lint, or - for standard input [default: .]
    /// Any file name the system allows, UTF-8 or not.
    pub(crate) paths: Vec<OsString>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// When to colour the text output (auto: on a terminal, unless NO_COLOR is set).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,
    /// The URL at which the linted directory (or a named file's directory) is published.
    #[arg(long, value_name = "URL")]
    pub(crate) base_url: Option<Url>,
    /// The root of the tree: the directory --base-url is published at, and
    /// what a root-relative link (`/feed/...`) starts from [default: the
    /// one that holds every path linted; for the config's base-url, the
    /// config's directory or its `root`].
    #[arg(long, value_name = "DIR")]
    pub(crate) root: Option<PathBuf>,
    /// The URL of the single document linted (a file, or - for standard input).
    #[arg(long, value_name = "URL")]
    pub(crate) url: Option<Url>,
    /// The config file [default: the nearest feedlint.toml above the paths linted].
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Check only these rules: ids, starts of ids (atom-, rss-), groups (rfc5005, rfc6721, atom-core,
    /// rss-core, xml, fetch) or all; comma-separated or repeated (`feedlint rules` lists the groups).
    #[arg(long, value_name = "SELECTOR", value_delimiter = ',')]
    pub(crate) select: Option<Vec<String>>,
    /// Do not check these rules: ids, starts of ids, groups; comma-separated or repeated. The more
    /// specific of --select and --ignore wins.
    #[arg(long, value_name = "SELECTOR", value_delimiter = ',')]
    pub(crate) ignore: Vec<String>,
    /// Turn a rule off (repeatable).
    #[arg(long, value_name = "RULE")]
    pub(crate) allow: Vec<String>,
    /// Report a rule as a warning (repeatable).
    #[arg(long, value_name = "RULE")]
    pub(crate) warn: Vec<String>,
    /// Report a rule as an error (repeatable); `--deny warnings` raises every warning.
    #[arg(long, value_name = "RULE")]
    pub(crate) deny: Vec<String>,
    /// The lowest level that makes the exit status 1.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub(crate) fail_on: FailOn,
    /// Exit 0 even when there are findings (the run failing is still 2).
    #[arg(long)]
    pub(crate) exit_zero: bool,
    /// The largest file read; larger files get a file-too-large finding.
    /// At most 4 GiB, the XML parser's limit.
    #[arg(long, value_name = "BYTES", default_value_t = feedlint::DEFAULT_MAX_FILE_SIZE,
          value_parser = clap::value_parser!(u64).range(1..=u64::from(u32::MAX)))]
    pub(crate) max_file_size: u64,
    /// The most findings of one rule shown for one document; one more
    /// finding counts the rest. 0 shows every finding.
    #[arg(long, value_name = "N", default_value_t = feedlint::findings::diagnostic::DEFAULT_MAX_PER_RULE)]
    pub(crate) max_per_rule: usize,
    /// The most findings a run keeps; the rest are counted, not kept, so
    /// that memory stays bounded. 0 keeps every finding.
    #[arg(long, value_name = "N", default_value_t = feedlint::DEFAULT_MAX_FINDINGS)]
    pub(crate) max_findings: usize,
    /// Fetching URLs: the most documents fetched in one run (at least 1).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) max_documents: u32,
    /// Fetching URLs: the most bytes of one document (after decompression).
    #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024 * 1024)]
    pub(crate) max_bytes: u64,
    /// Fetching URLs: the most seconds one request may take.
    #[arg(long, value_name = "SECONDS", default_value = "15", value_parser = parse_timeout)]
    pub(crate) timeout: Duration,
    /// Fetching URLs: the most redirects followed for one request.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub(crate) max_redirects: u32,
    /// Fetching URLs: the most seconds for the whole walk, every request
    /// and every document's linting included.
    #[arg(long, value_name = "SECONDS", default_value = "120", value_parser = parse_timeout)]
    pub(crate) max_time: Duration,
    /// Fetching URLs: follow only links and redirects on the starting URL's
    /// origin.
    #[arg(long)]
    pub(crate) same_origin: bool,
    /// Fetching URLs: let links and redirects lead to loopback, private and
    /// link-local addresses (refused by default: see docs/fetching.md, "Security:
    /// fetching untrusted URLs").
    #[arg(long)]
    pub(crate) allow_private_addresses: bool,
    /// Fetching URLs: the most requests in flight at once (at most 2 to one
    /// host).
    #[arg(long, short, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub(crate) jobs: u16,
    /// Ask the server of each enclosure and artwork URL what it holds
    /// (HEAD, a ranged GET): status, redirects, type, length, byte ranges,
    /// the artwork's format, size and colour space. Under the fetching
    /// limits and address policy, for files as for URLs.
    #[arg(long)]
    pub(crate) check_media: bool,
    /// Ask each WebSub hub the feeds name whether it is there: one HEAD
    /// request to its URL (a discovery request, never a subscription), at
    /// most 20 hubs, under the fetching limits and address policy.
    #[arg(long)]
    pub(crate) check_hub: bool,
    /// With --check-media: the most media URLs asked in one run (at least 1).
    #[arg(long, value_name = "N", default_value_t = feedlint::fetch::media::DEFAULT_MAX_MEDIA,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub(crate) max_media: usize,
    /// Batch mode: lint each feed URL this file lists (one URL a line, or
    /// JSON Lines objects with an `url` and an `id`; - for standard input),
    /// writing one JSON Lines record per input, clean ones included, as
    /// each finishes.
    #[arg(long, value_name = "FILE")]
    pub(crate) urls_from: Option<OsString>,
    /// With --urls-from: lint only shard K of N (1 to N), the inputs whose
    /// host falls in it, so one host's feeds stay on one machine.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub(crate) shard: Option<(u32, u32)>,
    /// With --urls-from: the most requests to one host at once, whichever
    /// inputs make them.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub(crate) host_jobs: u16,
    /// With --urls-from: the seconds between the starts of two requests to
    /// one host (0.5, 2).
    #[arg(long, value_name = "SECONDS", default_value = "0", value_parser = parse_seconds)]
    pub(crate) host_delay: Duration,
    /// With --urls-from: skip the inputs this earlier output already holds
    /// a record of (by id, else by URL).
    #[arg(long, value_name = "FILE")]
    pub(crate) resume: Option<PathBuf>,
    /// Fetching URLs: keep each fetched document and its validators in this
    /// directory, so that the next run asks for it conditionally
    /// (If-None-Match, If-Modified-Since) and takes a 304 for what it holds.
    #[arg(long, value_name = "DIR")]
    pub(crate) http_cache: Option<PathBuf>,
    /// Print nothing on standard error while fetching.
    #[arg(long, short)]
    pub(crate) quiet: bool,
    /// Skip what this glob matches when walking directories (gitignore
    /// syntax, repeatable); .gitignore files and hidden paths are skipped
    /// already.
    #[arg(long, value_name = "GLOB")]
    pub(crate) exclude: Vec<String>,
    /// Write the report to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub(crate) output_file: Option<PathBuf>,
    /// Print how many findings each rule has instead of the findings
    /// (as JSON with --format json or json-lines).
    #[arg(long)]
    pub(crate) statistics: bool,
    /// Apply the safe fixes to the files in place, then report what
    /// remains.
    #[arg(long)]
    pub(crate) fix: bool,
    /// With --fix or --diff: apply the unsafe fixes too (they change what
    /// consumers see, such as removing a link).
    #[arg(long)]
    pub(crate) unsafe_fixes: bool,
    /// Print the fixes as a unified diff instead of writing them; exit 1
    /// if there is any.
    #[arg(long, conflicts_with = "fix")]
    pub(crate) diff: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub(crate) enum ListFormat {
    Text,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub(crate) enum FailOn {
    Error,
    Warning,
    Info,
}

/// `--timeout`: seconds above 0, at most a day (a larger value is a typo,
/// and would not fit the clock's arithmetic).
pub(crate) fn parse_timeout(value: &str) -> Result<Duration, String> {
    const DAY: f64 = 24.0 * 60.0 * 60.0;
    match value.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= DAY => Ok(Duration::from_secs_f64(seconds)),
        _ => Err(format!("expected a number of seconds above 0 and at most {DAY}")),
    }
}

/// A delay in seconds, 0 included, at most an hour.
fn parse_seconds(value: &str) -> Result<Duration, String> {
    match value.parse::<f64>() {
        Ok(seconds) if (0.0..=3600.0).contains(&seconds) => Ok(Duration::from_secs_f64(seconds)),
        _ => Err("expected a number of seconds from 0 to 3600".to_owned()),
    }
}

/// `K/N`: shard K (from 1) of N.
fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let shard = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse::<u32>().ok()?, n.trim().parse::<u32>().ok()?)));
    match shard {
        Some((k, n)) if n >= 1 && (1..=n).contains(&k) => Ok((k, n)),
        _ => Err(format!(
            "'{text}' is no shard: write K/N, with N at least 1 and K from 1 to N (2/8)"
        )),
    }
}
