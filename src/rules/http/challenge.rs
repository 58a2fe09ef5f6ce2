//! Bot challenges: the web pages a CDN or firewall answers in place of the
//! document until a browser runs a script or a person solves a puzzle.
//! Known by the header the vendor documents for telling a challenge apart
//! (Cloudflare's `cf-mitigated`, AWS WAF's `x-amzn-waf-action`, Vercel's
//! `x-vercel-mitigated`), else, for an HTML answer that refuses (4xx, 5xx),
//! by marks in its first bytes that only a challenge page carries. A page
//! served whole is judged by the headers alone: CDNs inject their bot
//! detection scripts into ordinary pages too.

/// A challenge page, as the fetcher saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub status: u16,
    /// What answered, in words: "Cloudflare's bot challenge".
    pub what: &'static str,
}

/// Headers whose value says a challenge was served: name, the values that
/// mean one, and who sends it.
const HEADERS: [(&str, &[&str], &str); 3] = [
    ("cf-mitigated", &["challenge"], "Cloudflare's bot challenge"),
    ("x-amzn-waf-action", &["challenge", "captcha"], "an AWS WAF challenge"),
    ("x-vercel-mitigated", &["challenge"], "Vercel's bot challenge"),
];

/// Marks of a challenge page's HTML, and whose page it is.
const MARKS: [(&str, &str); 7] = [
    // The challenge's own script and options, not the detection script
    // (`/cdn-cgi/challenge-platform/scripts/jsd/`) ordinary pages carry.
    ("/cdn-cgi/challenge-platform/h/", "Cloudflare's bot challenge"),
    ("window._cf_chl_opt", "Cloudflare's bot challenge"),
    (
        "<title>Attention Required! | Cloudflare</title>",
        "Cloudflare's block page",
    ),
    ("/.well-known/sgcaptcha/", "SiteGround's bot challenge"),
    ("_Incapsula_Resource", "an Imperva (Incapsula) challenge"),
    ("Sucuri WebSite Firewall", "the Sucuri firewall's block page"),
    ("<title>DDoS-Guard</title>", "DDoS-Guard's bot challenge"),
];

/// How much of an HTML answer is searched for marks.
pub const SEARCHED: usize = 64 * 1024;

/// The challenge an answer is, if it is one: by its headers (`header`
/// gives a header's value by name), or, for an HTML answer that refuses
/// (a status of 400 or more), by the marks in `body_start` (at most
/// [`SEARCHED`] bytes are looked at).
pub fn challenge_of(status: u16, header: &dyn Fn(&str) -> Option<String>, body_start: &[u8]) -> Option<Challenge> {
    for (name, values, what) in HEADERS {
        if let Some(value) = header(name) {
            if values.iter().any(|v| value.trim().eq_ignore_ascii_case(v)) {
                return Some(Challenge { status, what });
            }
        }
    }
    let html = header("content-type").is_some_and(|t| t.trim().to_ascii_lowercase().starts_with("text/html"));
    if !html || status < 400 {
        return None;
    }
    let text = String::from_utf8_lossy(&body_start[..body_start.len().min(SEARCHED)]);
    MARKS
        .iter()
        .find(|(mark, _)| text.contains(mark))
        .map(|(_, what)| Challenge { status, what })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn a_vendor_header_names_the_challenge() {
        let found = challenge_of(403, &headers(&[("cf-mitigated", "challenge")]), b"");
        assert_eq!(found.map(|c| c.what), Some("Cloudflare's bot challenge"));
        let found = challenge_of(202, &headers(&[("x-amzn-waf-action", "captcha")]), b"");
        assert_eq!(found.map(|c| c.what), Some("an AWS WAF challenge"));
        assert_eq!(challenge_of(200, &headers(&[("cf-mitigated", "none")]), b""), None);
    }

    #[test]
    fn marks_count_only_in_html() {
        let page = b"<html><title>Just a moment...</title><script src=\"/cdn-cgi/challenge-platform/h/b/orchestrate\"></script>";
        let html = headers(&[("content-type", "text/html; charset=UTF-8")]);
        assert_eq!(challenge_of(403, &html, page).map(|c| c.status), Some(403));
        // A feed that quotes a challenge page's address is no challenge.
        let feed = headers(&[("content-type", "application/rss+xml")]);
        assert_eq!(challenge_of(200, &feed, page), None);
        assert_eq!(challenge_of(403, &html, b"<html><title>Forbidden</title></html>"), None);
        // An ordinary page, served whole with the detection script a CDN
        // injects, is no challenge; nor is any page served whole.
        let ordinary =
            b"<html><title>Blog</title><script src=\"/cdn-cgi/challenge-platform/scripts/jsd/main.js\"></script>";
        assert_eq!(challenge_of(403, &html, ordinary), None);
        assert_eq!(challenge_of(200, &html, page), None);
    }
}
