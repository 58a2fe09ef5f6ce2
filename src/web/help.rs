//! The pages that help: how to call the JSON API, and why a feed could
//! not be fetched, a section for each way a fetch fails, with its likely
//! causes and what to do (where a result that could not be checked links
//! to, as the W3C's validator links its fetch errors to their help).

use maud::{html, Markup};

use super::layout::layout;
use crate::model::failure::{Failure, Unreached};

/// The section of [`fetching`] that explains `failure`, if one does.
pub fn anchor(failure: &Failure) -> Option<&'static str> {
    let Failure::Unfetchable { reason, .. } = failure else {
        return None;
    };
    Some(match reason {
        Unreached::NoSuchHost => "no-such-host",
        Unreached::ConnectionRefused => "refused",
        Unreached::Tls | Unreached::Closed => "secure-connection",
        Unreached::Timeout => "timeout",
        Unreached::Status(404 | 410) => "not-found",
        Unreached::Status(401 | 403 | 429) => "refused-to-give",
        Unreached::Status(500..=599) => "server-error",
        // Another status says its own meaning; no section is about it.
        Unreached::Status(_) => return None,
        Unreached::NotAFeed => "not-a-feed",
        Unreached::Other => return None,
    })
}

/// Why a feed could not be fetched, and what to do.
pub fn fetching() -> Markup {
    let sections: [(&str, &str, &[&str]); 8] = [
        ("no-such-host", "No server by that name", &[
            "The host name is misspelt, or the domain has lapsed or is not set up (no DNS record).",
            "Check the address as your browser shows it on the feed's page, and that the domain resolves.",
        ]),
        ("refused", "The server refused the connection", &[
            "Nothing listens at that host on that port: the site is down, or the port in the address is wrong.",
            "An https:// address on a server that only serves http:// is refused too: try the http:// address.",
        ]),
        ("secure-connection", "The secure connection failed", &[
            "The server does not speak HTTPS at this address, or its certificate is expired, self-signed or for another name.",
            "Try the http:// address; to keep https://, renew the certificate or fix the name it is for.",
        ]),
        ("timeout", "No answer in time", &[
            "The server is slow or overloaded, or a firewall drops the connection without refusing it.",
            "Try again later; a feed that takes seconds to make is worth caching on the server.",
        ]),
        ("not-found", "404 Not Found, 410 Gone", &[
            "The address is wrong, or the feed moved or was removed.",
            "A feed that moved should answer its old address with a permanent redirect (301 or 308) to the new one, so that readers follow it.",
        ]),
        ("refused-to-give", "401, 403, 429: the server refuses", &[
            "The feed needs a password, or the server (or a firewall or CDN in front of it) refuses programs it does not know, or asks to be asked less often.",
            "Feed readers are programs too: a feed that refuses them is read by no one. Allow them, or check the feed by pasting or uploading it here.",
        ]),
        ("server-error", "5xx: the server failed", &[
            "The site, or a server in front of it, failed while making the feed.",
            "Try again later; if it stays, the site's logs say why.",
        ]),
        ("not-a-feed", "The answer is no feed", &[
            "The address gives a web page (a home page, a login or an error page), not the feed.",
            "Give the feed's own address: a site names it in its pages' <link rel=\"alternate\" type=\"application/rss+xml\"> (or atom+xml).",
        ]),
    ];
    layout(
        "Why a feed could not be checked",
        html! {
            h1 { "Why a feed could not be checked" }
            p.lead { "The ways a fetch fails, what likely caused each, and what to do." }
            @for (id, heading, paragraphs) in sections {
                section.help id=(id) {
                    h2 { (heading) }
                    @for paragraph in paragraphs {
                        p { (paragraph) }
                    }
                }
            }
            p { a href="/" { "Check a feed" } }
        },
    )
}

/// How to call the JSON API.
pub fn api(max_body: usize) -> Markup {
    layout(
        "JSON API",
        html! {
            h1 { "JSON API" }
            p { code { "POST /api/lint" } " answers with the JSON report, in the shape of the command line's JSON format, for:" }
            ul {
                li { "a URL to fetch, with its archive and paging chains: " code { "{\"url\": \"https://example.org/feed.atom\"}" } " (" code { "Content-Type: application/json" } ");" }
                li { "documents, checked together: " code { "{\"documents\": [{\"name\": \"feed.atom\", \"text\": \"<feed …>\", \"url\": \"https://example.org/feed.atom\"}]}" } " (" code { "url" } ", where each is published, is optional: without it, documents are placed by their names as files in one folder, and their relative links resolve between them);" }
                li { "one document as the body, with any other content type (" code { "application/atom+xml" } "): " code { "?name=feed.atom&url=https://example.org/feed.atom" } " name it and say where it is published." }
            }
            p { "And by GET, for one-line use in scripts and pages:" }
            ul {
                li { code { "GET /api/lint?url=https://example.org/feed.atom" } ": the JSON report for a URL;" }
                li { code { "GET /check?url=https://example.org/feed.atom" } ": the result page, to link to; with " code { "&format=json" } ", the JSON report, and any refusal as " code { "{\"error\": …}" } ";" }
                li { code { "GET /badge?url=https://example.org/feed.atom" } ": an SVG badge with the feed's verdict, checked again every few minutes." }
            }
            p { "A URL may be typed as people have it: without a scheme (" code { "https://" } " is tried, then " code { "http://" } "), or as a " code { "feed:" } " URL." }
            p {
                "Bodies are at most " (max_body / 1024 / 1024) " MiB. A server busy with other checks answers "
                code { "503" } " with " code { "Retry-After" } "; a request it cannot read, " code { "400" } " with "
                code { "{\"error\": …}" } ", and so does an empty body."
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failure_leads_to_the_section_about_it() {
        let failure = |reason| Failure::Unfetchable {
            url: "https://example.org/feed".to_owned(),
            message: String::new(),
            reason,
        };
        assert_eq!(anchor(&failure(Unreached::Status(410))), Some("not-found"));
        assert_eq!(anchor(&failure(Unreached::Status(403))), Some("refused-to-give"));
        assert_eq!(anchor(&failure(Unreached::Status(503))), Some("server-error"));
        assert_eq!(anchor(&failure(Unreached::Status(400))), None);
        assert_eq!(anchor(&failure(Unreached::Other)), None);
        let page = fetching().into_string();
        for reason in [
            Unreached::NoSuchHost,
            Unreached::Tls,
            Unreached::Timeout,
            Unreached::NotAFeed,
        ] {
            let id = anchor(&failure(reason)).unwrap();
            assert!(page.contains(&format!("id=\"{id}\"")), "{id}");
        }
    }
}
