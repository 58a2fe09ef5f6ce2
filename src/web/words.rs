//! The web page's words for limits and remedies: a person on the page has
//! no flags, only the page's fields and the server's fixed limits. The
//! server's runs name limits and remedies through [`Page`], and the page
//! says a failure to check as the page does ([`failure`]).

use crate::fetch::Limits;
use crate::findings::remedy::{Limit, Remedy, Wording};
use crate::model::failure::{Failure, Unreached};

/// What a page says of a private or local address it would not fetch.
pub(crate) const REFUSED_ADDRESS: &str =
    "this server does not fetch private or local addresses; paste or upload the feed instead";

/// How the page names limits and remedies: by the server's numbers, and
/// what a person can do on the page or on their own machine.
#[derive(Debug, Clone)]
pub(crate) struct Page {
    limits: Limits,
    max_file_size: u64,
}

impl Page {
    /// The page's words for a server with these limits.
    pub(crate) fn new(limits: &Limits, max_file_size: u64) -> Page {
        Page {
            limits: limits.clone(),
            max_file_size,
        }
    }
}

impl Wording for Page {
    fn limit(&self, limit: Limit) -> String {
        let limits = &self.limits;
        match limit {
            Limit::FileSize => format!("{}, this server's limit", size(self.max_file_size)),
            Limit::Documents => format!("{} documents", limits.max_documents),
            Limit::Bytes => format!("{}, this server's limit", size(limits.max_bytes)),
            Limit::Timeout => format!("{} seconds", limits.timeout.as_secs_f64()),
            Limit::Time => format!("its {} seconds", limits.max_time.as_secs_f64()),
            Limit::Redirects => limits.max_redirects.to_string(),
            Limit::Media => format!("{} media URLs", crate::web::MAX_MEDIA),
            Limit::SameOrigin | Limit::PrivateAddresses => "this server's address policy".to_owned(),
        }
    }

    fn aside(&self, limit: Limit) -> String {
        match limit {
            // The page lifts neither: the refusal says it all.
            Limit::SameOrigin | Limit::PrivateAddresses => String::new(),
            _ => ", this server's limit".to_owned(),
        }
    }

    /// The server fetches no private or local address, whatever the
    /// policy's rule would be on the command line.
    fn refused(&self, what: &str, _: &str) -> String {
        format!("{what}: {REFUSED_ADDRESS}")
    }

    fn remedy(&self, remedy: Remedy) -> String {
        let own_machine = |what: &str| format!("{what}; run feedlint on your own machine");
        match remedy {
            Remedy::ReadLargerFiles => {
                "this server checks documents up to its limit; check a smaller part, or run feedlint on your own machine".to_owned()
            }
            Remedy::FollowWholeChain(Limit::Documents) => {
                own_machine("this server stops a walk at its limit of documents") + " to follow the whole chain"
            }
            Remedy::FollowWholeChain(_) => {
                own_machine("this server stops a walk at its time limit") + " to follow the whole chain"
            }
            Remedy::FetchLegitimateDocument(Limit::Bytes) => {
                own_machine("this server fetches documents up to its size limit") + " to check a larger one"
            }
            Remedy::FetchLegitimateDocument(Limit::Redirects) => {
                "this server follows only so many redirects; link to the document's final URL".to_owned()
            }
            Remedy::FetchLegitimateDocument(Limit::Time) => {
                own_machine("this server stops a walk at its time limit") + " to follow the whole chain"
            }
            Remedy::FetchLegitimateDocument(_) => {
                own_machine("this server waits for each document only so long") + " to wait longer"
            }
            Remedy::LintRefusedDocumentAlone | Remedy::AllowMediaAddress => REFUSED_ADDRESS.to_owned(),
            Remedy::WaitForServer => "check that the server answers".to_owned(),
            Remedy::CheckEveryMedia => {
                own_machine("this server checks only so many media files at once") + " to check them all"
            }
            Remedy::GiveDocumentUrl => {
                "fill in where the document is published (Published at), add an xml:base, or write an absolute IRI"
                    .to_owned()
            }
            Remedy::AgreeOnPlace => {
                "make the self links of the folder agree on where it is published, or fill in where it is published"
                    .to_owned()
            }
            Remedy::PublishWhereTheyAre => "fill in where they are published".to_owned(),
            Remedy::BaseUrlGiven => "the place filled in (Published at)".to_owned(),
            Remedy::SelectPodcastGroup => "run feedlint on your own machine with the group podcast selected".to_owned(),
            Remedy::SeeEveryFinding => "fix the findings shown and check again".to_owned(),
            Remedy::ReadOutsideTree => "check the whole tree to read them".to_owned(),
        }
    }
}

/// A failure to check, as the page says it: the page checks, it does not
/// lint.
pub(crate) fn failure(failure: &Failure) -> String {
    match failure {
        Failure::Unfetchable {
            url,
            message,
            reason: Unreached::Other | Unreached::NotAFeed,
        } => format!("could not check {url}: {message}"),
        Failure::Unfetchable { url, reason, .. } => format!("could not check {url}: {}", unreached(url, *reason)),
        other => other.to_string(),
    }
}

/// The failures of a run in people's words, for the JSON API as for the
/// page: what a fetch met ("the server refused the connection"), not the
/// network library's text.
pub(crate) fn reword_failures(failures: &mut [Failure]) {
    for failure in failures {
        if let Failure::Unfetchable { url, message, reason } = failure {
            if !matches!(reason, Unreached::Other | Unreached::NotAFeed) {
                *message = unreached(url, *reason);
            }
        }
    }
}

/// Why a URL gave no feed, for people: what happened, and what likely
/// caused it, as the W3C's validator words its fetch errors.
fn unreached(url: &str, reason: Unreached) -> String {
    let host = url::Url::parse(url)
        .ok()
        .and_then(|url| url.host_str().map(str::to_owned))
        .unwrap_or_else(|| url.to_owned());
    match reason {
        Unreached::NoSuchHost => format!("there is no server named {host}. Is the address right? (No such host name.)"),
        Unreached::ConnectionRefused => format!(
            "the server refused the connection: nothing answers at {host} on that port. Is the address right, and is the site up?"
        ),
        Unreached::Tls => "the secure connection failed: the server does not speak HTTPS at this address, or its certificate is not valid. Try the http:// address, or fix the server's certificate.".to_owned(),
        Unreached::Closed => "the server closed the connection without answering. Over https://, the server may not speak HTTPS at this address: try the http:// address.".to_owned(),
        Unreached::Timeout => "the server gave no complete answer in time. It may be slow or down: try again later.".to_owned(),
        Unreached::Status(code) => status(code),
        Unreached::Other | Unreached::NotAFeed => String::new(),
    }
}

/// An HTTP status, its name, and what it likely means for a feed.
fn status(code: u16) -> String {
    let (name, meaning) = match code {
        400 => ("Bad Request", "the server did not understand the request."),
        401 => ("Unauthorized", "the feed needs a password."),
        403 => (
            "Forbidden",
            "the server refuses to give the feed (some servers refuse programs they do not know).",
        ),
        404 => ("Not Found", "is the address right?"),
        410 => (
            "Gone",
            "the feed was removed; if it moved, the old address should redirect to the new one.",
        ),
        429 => (
            "Too Many Requests",
            "the server asks to be asked less often: try again later.",
        ),
        500 => ("Internal Server Error", "the server failed: try again later."),
        502 => (
            "Bad Gateway",
            "a server in front of the site got no good answer from it: try again later.",
        ),
        503 => ("Service Unavailable", "the site is down or busy: try again later."),
        504 => (
            "Gateway Timeout",
            "a server in front of the site got no answer in time: try again later.",
        ),
        _ if code >= 500 => ("server error", "the server failed: try again later."),
        _ => ("error", "the server did not give the feed."),
    };
    format!("{code} {name}: {meaning}")
}

/// A size for people: "8 MiB", "20.3 MB".
pub(crate) fn size(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= 100_000 {
        format!("{:.1} MB", bytes as f64 / 1e6)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: [Limit; 9] = [
        Limit::FileSize,
        Limit::Documents,
        Limit::Bytes,
        Limit::Timeout,
        Limit::Time,
        Limit::Redirects,
        Limit::Media,
        Limit::SameOrigin,
        Limit::PrivateAddresses,
    ];

    #[test]
    fn the_page_names_no_flag_and_gives_the_servers_numbers() {
        let page = Page::new(&Limits::default(), 8 * 1024 * 1024);
        let remedies = LIMITS
            .iter()
            .flat_map(|&limit| [Remedy::FollowWholeChain(limit), Remedy::FetchLegitimateDocument(limit)])
            .chain([
                Remedy::ReadLargerFiles,
                Remedy::LintRefusedDocumentAlone,
                Remedy::AllowMediaAddress,
                Remedy::WaitForServer,
                Remedy::CheckEveryMedia,
                Remedy::GiveDocumentUrl,
                Remedy::AgreeOnPlace,
                Remedy::PublishWhereTheyAre,
                Remedy::BaseUrlGiven,
                Remedy::SelectPodcastGroup,
                Remedy::SeeEveryFinding,
                Remedy::ReadOutsideTree,
            ]);
        let said: Vec<String> = LIMITS
            .iter()
            .flat_map(|&limit| [page.limit(limit), page.aside(limit)])
            .chain(remedies.map(|remedy| page.remedy(remedy)))
            .collect();
        for text in &said {
            assert!(!text.contains("--"), "{text}");
        }
        assert_eq!(page.limit(Limit::Timeout), "15 seconds");
        assert_eq!(page.limit(Limit::FileSize), "8 MiB, this server's limit");
        assert_eq!(page.remedy(Remedy::AllowMediaAddress), REFUSED_ADDRESS);
        assert_eq!(size(20_300_000), "20.3 MB");
        let refused = Failure::Unfetchable {
            url: "https://a.example/".to_owned(),
            message: "no complete answer within 15 seconds".to_owned(),
            reason: Unreached::Other,
        };
        assert_eq!(
            failure(&refused),
            "could not check https://a.example/: no complete answer within 15 seconds"
        );
        // A known reason is worded for people, not as the connection gave it.
        let worded = |reason| {
            failure(&Failure::Unfetchable {
                url: "https://a.example/feed".to_owned(),
                message: "os error 111".to_owned(),
                reason,
            })
        };
        assert_eq!(
            worded(Unreached::Status(404)),
            "could not check https://a.example/feed: 404 Not Found: is the address right?"
        );
        assert!(worded(Unreached::ConnectionRefused).contains("nothing answers at a.example on that port"));
        assert!(worded(Unreached::NoSuchHost).contains("there is no server named a.example"));
        assert!(!worded(Unreached::Tls).contains("os error"));
    }
}
