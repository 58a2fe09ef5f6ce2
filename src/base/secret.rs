//! Passwords in URLs are never shown: a URL's `user:password@` is printed
//! as `user:***@` wherever it came from (the command line, a config, a
//! fetched feed), in every message, report and error.

use std::borrow::Cow;

use url::Url;

/// What a masked password reads as.
pub const MASK: &str = "***";

/// `url` with its password, if any, replaced by [`MASK`].
pub fn masked(url: &Url) -> Url {
    let mut url = url.clone();
    if url.password().is_some_and(|p| p != MASK) {
        let _ = url.set_password(Some(MASK));
    }
    url
}

/// `text` with the password of every URL in it masked, as text: it works
/// on what no URL parser accepts (an invalid URL echoed in an error), and
/// on URLs among other words. The user information is what lies between
/// `//` (after a scheme, or opening a scheme-relative reference) and the
/// last `@` before the end of the authority.
pub fn mask_text(text: &str) -> Cow<'_, str> {
    if !text.contains("//") {
        return text.into();
    }
    let mut shown = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("//") {
        let authority_start = at + 2;
        shown.push_str(&rest[..authority_start]);
        rest = &rest[authority_start..];
        // The authority ends at a path, query, fragment or white space.
        let authority_end = rest
            .find(|c: char| matches!(c, '/' | '?' | '#') || c.is_whitespace() || c == '\'' || c == '"')
            .unwrap_or(rest.len());
        let authority = &rest[..authority_end];
        match authority.rfind('@').map(|at| &authority[..at]) {
            Some(userinfo) => match userinfo.find(':') {
                Some(colon) => {
                    shown.push_str(&userinfo[..=colon]);
                    shown.push_str(MASK);
                    shown.push_str(&authority[userinfo.len()..]);
                }
                None => shown.push_str(authority),
            },
            None => shown.push_str(authority),
        }
        rest = &rest[authority_end..];
    }
    shown.push_str(rest);
    shown.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_masked_in_urls_and_in_text() {
        let url = Url::parse("https://dave:SECRET@example.org/feed").unwrap();
        assert_eq!(masked(&url).as_str(), "https://dave:***@example.org/feed");
        let plain = Url::parse("https://dave@example.org/").unwrap();
        assert_eq!(masked(&plain), plain);
        assert_eq!(
            mask_text("invalid value 'http://dave:SECRET@exa mple.org/' for '--base-url'"),
            "invalid value 'http://dave:***@exa mple.org/' for '--base-url'"
        );
        assert_eq!(
            mask_text("a http://u:p@a/ and ftp://x:y:z@b?q then https://c/d@e"),
            "a http://u:***@a/ and ftp://x:***@b?q then https://c/d@e"
        );
        assert_eq!(mask_text("no url here: a@b"), "no url here: a@b");
        // Scheme-relative, and invalid with no scheme at all.
        assert_eq!(
            mask_text("invalid value '//dave:SECRET@example.org/' for '--base-url': relative URL without a base"),
            "invalid value '//dave:***@example.org/' for '--base-url': relative URL without a base"
        );
        assert_eq!(mask_text("see a//b and c//d@e"), "see a//b and c//d@e");
        assert_eq!(mask_text("http://user@host/"), "http://user@host/");
    }
}
