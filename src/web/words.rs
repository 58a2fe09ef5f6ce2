//! The web page's words: the library's findings and failures speak to a
//! person at a terminal (`raise --max-time`, `give --base-url`); a person
//! on the page has no flags, only the page's fields and the server's fixed
//! limits. Each text a page shows from the library passes [`Words::say`].

use std::borrow::Cow;

use crate::fetch::Limits;

/// What a page says of a private or local address it would not fetch.
pub(crate) const REFUSED_ADDRESS: &str =
    "This server does not fetch private or local addresses; paste or upload the feed instead";

/// Whole texts said another way on the page, found by what they start
/// with. The first that matches wins.
const SAID_OTHERWISE: &[(&str, &str)] = &[
    ("raise --max-file-size", "this server checks documents up to its limit; check a smaller part, or run feedlint on your own machine"),
    ("raise --max-time", "this server stops a walk at its time limit; run feedlint on your own machine to follow the whole chain"),
    ("raise --max-documents", "this server stops a walk at its limit of documents; run feedlint on your own machine to follow the whole chain"),
    ("raise --max-bytes", "this server fetches documents up to its size limit; run feedlint on your own machine to check a larger one"),
    ("raise --timeout", "this server waits for each document only so long; run feedlint on your own machine to wait longer"),
    ("raise --max-redirects", "this server follows only so many redirects; link to the document's final URL"),
    ("lint that document by its own URL if you trust it, or pass --allow-private-addresses", REFUSED_ADDRESS),
    ("a feed's links may not lead feedlint to a private or reserved address; pass --allow-private-addresses", REFUSED_ADDRESS),
    ("raise --max-media", "this server checks only so many media files at once; run feedlint on your own machine to check them all"),
    ("check that the server answers, or raise --timeout", "check that the server answers"),
    ("give the document's URL with --url", "fill in where the document is published (Published at), add an xml:base, or write an absolute IRI"),
    ("make the self links of the folder agree on where it is published, or give --base-url", "make the self links of the folder agree on where it is published, or fill in where it is published"),
];

/// Parts of texts said another way, wherever they are.
const PARTS: &[(&str, &str)] = &[
    ("larger than --max-file-size", "larger than the size limit"),
    (" URLs (--max-media)", " URLs, this server's limit"),
    (" seconds, --max-time)", " seconds, this server's limit)"),
    (" (--allow-private-addresses lifts this)", ""),
    (
        "give --base-url and --root that publish the files where they are",
        "fill in where they are published",
    ),
    ("--base-url, or base-url in feedlint.toml", "where they are published"),
];

/// The page's words for a server with these fetching limits.
pub(crate) struct Words<'l> {
    pub limits: &'l Limits,
}

impl Words<'_> {
    /// `text` as the page says it: no command-line flag, a limit in
    /// numbers, and a refused address said as the server's rule.
    pub(crate) fn say<'t>(&self, text: &'t str) -> Cow<'t, str> {
        // A failure: the page checks, it does not lint.
        if let Some(rest) = text.strip_prefix("cannot lint ") {
            return Cow::Owned(format!("could not check {}", self.say(rest)));
        }
        if !text.contains("--") {
            return Cow::Borrowed(text);
        }
        if let Some((_, said)) = SAID_OTHERWISE.iter().find(|(starts, _)| text.starts_with(starts)) {
            return Cow::Borrowed(said);
        }
        let mut text = text.to_owned();
        // What a refusal says of start URLs and flags is for the command
        // line: the page says the server's rule.
        if let Some(at) = text.find("refused to connect to ") {
            text.truncate(at);
            text.push_str("this server does not fetch private or local addresses; paste or upload the feed instead");
        }
        let limits = self.limits;
        let numbered = [
            (
                "within --timeout",
                format!("within {} seconds", limits.timeout.as_secs_f64()),
            ),
            (
                "larger than --max-bytes",
                format!("larger than {}, this server's limit", size(limits.max_bytes)),
            ),
            (
                "ran out of --max-time",
                format!("ran out of its {} seconds", limits.max_time.as_secs_f64()),
            ),
            (
                "more redirects than --max-redirects",
                format!("more than {} redirects", limits.max_redirects),
            ),
        ];
        for (part, said) in &numbered {
            text = text.replace(part, said);
        }
        for (part, said) in PARTS {
            text = text.replace(part, said);
        }
        Cow::Owned(without_flags_in_parentheses(&text))
    }
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

/// `text` without a parenthesized flag that names a limit: "the limit of
/// 15 seconds (--timeout)" says it all without it.
fn without_flags_in_parentheses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(" (--") {
        let Some(close) = rest[at..].find(')') else { break };
        out.push_str(&rest[..at]);
        rest = &rest[at + close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_flag_is_left_and_limits_keep_their_numbers() {
        let limits = Limits::default();
        let words = Words { limits: &limits };
        let for_the_page = |text| words.say(text).into_owned();
        assert_eq!(
            for_the_page("cannot lint https://a.example/: no complete answer within --timeout"),
            "could not check https://a.example/: no complete answer within 15 seconds"
        );
        assert_eq!(
            for_the_page("https://a.example/x was not linted: it exceeds the limit of 15 seconds (--timeout)"),
            "https://a.example/x was not linted: it exceeds the limit of 15 seconds"
        );
        assert_eq!(
            for_the_page("cannot lint http://10.0.0.1/: refused to connect to 10.0.0.1, a private address (RFC 1918): links from a start URL outside that address space never lead into it (--allow-private-addresses lifts this)"),
            "could not check http://10.0.0.1/: this server does not fetch private or local addresses; paste or upload the feed instead"
        );
        assert_eq!(size(8 * 1024 * 1024), "8 MiB");
        assert_eq!(size(20_300_000), "20.3 MB");
        assert_eq!(
            for_the_page("lint that document by its own URL if you trust it, or pass --allow-private-addresses"),
            REFUSED_ADDRESS
        );
        assert_eq!(for_the_page("no flag here"), "no flag here");
        // The media check's words.
        for (text, said) in [
            (
                "the media check stopped at 50 URLs (--max-media); 7 more media URLs, https://a.example/7.mp3 first, were not asked",
                "the media check stopped at 50 URLs, this server's limit; 7 more media URLs, https://a.example/7.mp3 first, were not asked",
            ),
            (
                "the media check ran out of time (30 seconds, --max-time); 7 more media URLs, https://a.example/7.mp3 first, were not asked",
                "the media check ran out of time (30 seconds, this server's limit); 7 more media URLs, https://a.example/7.mp3 first, were not asked",
            ),
            (
                "https://a.example/1.mp3 was not checked: no complete answer within --timeout",
                "https://a.example/1.mp3 was not checked: no complete answer within 15 seconds",
            ),
            ("check that the server answers, or raise --timeout", "check that the server answers"),
            (
                "a feed's links may not lead feedlint to a private or reserved address; pass --allow-private-addresses if the address is yours",
                REFUSED_ADDRESS,
            ),
        ] {
            assert_eq!(for_the_page(text), said);
        }
        assert!(!for_the_page("raise --max-media or --max-time to check every file").contains("--"));
        for (_, said) in SAID_OTHERWISE.iter().chain(PARTS) {
            assert!(!said.contains("--"), "{said}");
        }
    }
}
