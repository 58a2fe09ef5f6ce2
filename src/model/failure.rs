//! What a run was named to lint and could not: a file, a folder, a URL.

use std::path::PathBuf;

/// Something named to lint that could not be: a path that does not exist or
/// cannot be read, a directory that cannot be walked, a URL named on the
/// command line that cannot be fetched or is not a feed.
#[derive(Debug)]
pub enum Failure {
    Unreadable {
        path: PathBuf,
        error: std::io::Error,
    },
    Unwalkable {
        path: PathBuf,
        message: String,
    },
    Unfetchable {
        url: String,
        message: String,
        /// Why, where known: what the web page words for people.
        reason: Unreached,
    },
    /// The paths named hold no feed at all: a run that lints nothing
    /// should not pass as one that found nothing wrong.
    NoFeeds {
        paths: Vec<PathBuf>,
    },
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Unreadable { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            Failure::Unwalkable { path, message } => write!(f, "cannot walk {}: {message}", path.display()),
            Failure::Unfetchable { url, message, .. } => write!(f, "cannot lint {url}: {message}"),
            Failure::NoFeeds { paths } => {
                let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                write!(
                    f,
                    "no feed found in {}: nothing was linted (feeds are Atom, RSS, Deleted Entry Documents and JSON Feeds)",
                    paths.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for Failure {}

/// Why a URL named to be checked gave no feed, where that is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unreached {
    /// No finer reason is known (the message says what happened).
    Other,
    /// The host name is not found.
    NoSuchHost,
    /// The server refused the connection: nothing listens there.
    ConnectionRefused,
    /// The secure connection failed: the server speaks no HTTPS there, or
    /// its certificate is not valid.
    Tls,
    /// The server closed the connection without an answer (over https://,
    /// often a server that speaks no HTTPS there).
    Closed,
    /// No complete answer in time.
    Timeout,
    /// The server answered with this HTTP status.
    Status(u16),
    /// The document is no feed (a web page that names none, or another
    /// kind of document).
    NotAFeed,
}

impl Failure {
    /// The path or URL that could not be linted, as given.
    pub fn input(&self) -> String {
        match self {
            Failure::Unreadable { path, .. } | Failure::Unwalkable { path, .. } => path.display().to_string(),
            Failure::Unfetchable { url, .. } => url.clone(),
            Failure::NoFeeds { paths } => paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}
