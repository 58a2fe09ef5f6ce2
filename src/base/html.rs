//! Web pages where a feed was expected: telling one from a feed before
//! XML parsing reports its first malformed tag, and the feeds it links to
//! (`<link rel="alternate" type="application/atom+xml" href="...">`, the
//! feed autodiscovery every browser and reader uses).

/// How far into a document the marks of a web page are looked for, and
/// its `<link>` elements: the head of a page is near its start.
const LOOKED_AT: usize = 64 * 1024;

/// Where a document that is a web page (HTML) starts its `<!DOCTYPE html>`
/// or `<html>`, after any XML declaration, comments and white space;
/// `None` for anything else.
pub fn web_page_start(text: &str) -> Option<usize> {
    let mut at = 0;
    let bytes = text.as_bytes();
    loop {
        while at < bytes.len() && (bytes[at].is_ascii_whitespace() || text[at..].starts_with('\u{feff}')) {
            at += if bytes[at].is_ascii_whitespace() {
                1
            } else {
                '\u{feff}'.len_utf8()
            };
        }
        let rest = &text[at..];
        let skip = if rest.starts_with("<?") {
            rest.find("?>").map(|end| end + 2)
        } else if rest.starts_with("<!--") {
            rest.find("-->").map(|end| end + 3)
        } else {
            None
        };
        match skip {
            Some(skip) if at + skip <= LOOKED_AT => at += skip,
            Some(_) => return None,
            None => break,
        }
    }
    let rest = &text.as_bytes()[at..];
    let starts = |prefix: &[u8]| rest.len() >= prefix.len() && rest[..prefix.len()].eq_ignore_ascii_case(prefix);
    let boundary = |n: usize| rest.get(n).is_none_or(|b| b.is_ascii_whitespace() || *b == b'>');
    ((starts(b"<!doctype html") && boundary(14)) || (starts(b"<html") && boundary(5))).then_some(at)
}

/// A feed a page links to: its `href` as written, and its media type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedLink {
    pub href: String,
    pub media_type: String,
}

/// The feeds a web page's `<link rel="alternate">` elements name, Atom and
/// RSS, in document order, among its first bytes.
pub fn feed_links(page: &str) -> Vec<FeedLink> {
    let end = (0..=LOOKED_AT.min(page.len()))
        .rev()
        .find(|at| page.is_char_boundary(*at))
        .unwrap_or(0);
    let head = &page[..end];
    let lower = head.to_ascii_lowercase();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = lower[from..].find("<link").map(|at| from + at) {
        let close = lower[at..].find('>').map_or(lower.len(), |close| at + close);
        let attributes = attributes(&head[at + 5..close]);
        let value = |name: &str| {
            attributes
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        };
        let alternate = value("rel").is_some_and(|rel| {
            rel.split_ascii_whitespace()
                .any(|r| r.eq_ignore_ascii_case("alternate"))
        });
        let media_type = value("type").unwrap_or_default().trim().to_ascii_lowercase();
        let is_feed = matches!(media_type.as_str(), "application/atom+xml" | "application/rss+xml");
        if let (true, true, Some(href)) = (alternate, is_feed, value("href")) {
            found.push(FeedLink {
                href: href.trim().to_owned(),
                media_type,
            });
        }
        from = close.max(at + 5);
    }
    found
}

/// An attribute of an HTML fragment that holds a URL: `href`, `src` or
/// `poster`, with where its value is in the fragment (the value as
/// written, without its quotes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlAttribute {
    pub name: &'static str,
    pub value: std::ops::Range<usize>,
}

/// The URL attributes of the tags of an HTML fragment (an entry's
/// content), in order, in one pass: comments are passed over, and a
/// `<base href>` ends the search (what follows resolves against it, not
/// against what the feed gives).
pub fn url_attributes(html: &str) -> Vec<UrlAttribute> {
    let bytes = html.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(open) = memchr::memchr(b'<', &bytes[at..]).map(|i| at + i) {
        if html[open..].starts_with("<!--") {
            at = html[open + 4..]
                .find("-->")
                .map_or(bytes.len(), |end| open + 4 + end + 3);
            continue;
        }
        let name_end = bytes[open + 1..]
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .map_or(bytes.len(), |i| open + 1 + i);
        if name_end == open + 1 {
            at = open + 1;
            continue;
        }
        let tag = &html[open + 1..name_end];
        let (attributes, end) = tag_attributes(html, name_end);
        for (name, value) in attributes {
            let name = match &html[name] {
                n if n.eq_ignore_ascii_case("href") => "href",
                n if n.eq_ignore_ascii_case("src") => "src",
                n if n.eq_ignore_ascii_case("poster") => "poster",
                _ => continue,
            };
            if tag.eq_ignore_ascii_case("base") && name == "href" {
                return found;
            }
            found.push(UrlAttribute { name, value });
        }
        at = end;
    }
    found
}

/// An attribute's name and value, as ranges of the text.
type NameAndValue = (std::ops::Range<usize>, std::ops::Range<usize>);

/// The attributes of a tag whose name ends at `from`, and where the tag
/// ends (after its `>`).
fn tag_attributes(html: &str, from: usize) -> (Vec<NameAndValue>, usize) {
    let bytes = html.as_bytes();
    let mut found = Vec::new();
    let mut at = from;
    loop {
        while at < bytes.len() && (bytes[at].is_ascii_whitespace() || bytes[at] == b'/') {
            at += 1;
        }
        if at >= bytes.len() || bytes[at] == b'>' {
            return (found, (at + 1).min(bytes.len()));
        }
        let name_start = at;
        while at < bytes.len() && !bytes[at].is_ascii_whitespace() && !matches!(bytes[at], b'=' | b'>' | b'/') {
            at += 1;
        }
        let name = name_start..at;
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if bytes.get(at) != Some(&b'=') {
            continue;
        }
        at += 1;
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let value = match bytes.get(at) {
            Some(&quote @ (b'"' | b'\'')) => {
                let start = at + 1;
                let end = memchr::memchr(quote, &bytes[start..]).map_or(bytes.len(), |i| start + i);
                at = (end + 1).min(bytes.len());
                start..end
            }
            _ => {
                let start = at;
                while at < bytes.len() && !bytes[at].is_ascii_whitespace() && bytes[at] != b'>' {
                    at += 1;
                }
                start..at
            }
        };
        found.push((name, value));
    }
}

/// A tag's attributes, as HTML writes them: quoted with `"` or `'`, or not
/// at all. Character references are left as written, but `&amp;`.
fn attributes(tag: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = tag.trim_start_matches('/');
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '/');
        let name_end = rest
            .find(|c: char| c.is_ascii_whitespace() || c == '=' || c == '/')
            .unwrap_or(rest.len());
        if name_end == 0 {
            return found;
        }
        let name = rest[..name_end].to_owned();
        rest = rest[name_end..].trim_start();
        let Some(after) = rest.strip_prefix('=') else {
            found.push((name, String::new()));
            continue;
        };
        let after = after.trim_start();
        let (value, next) = match after.chars().next() {
            Some(quote @ ('"' | '\'')) => {
                let body = &after[1..];
                let end = body.find(quote).unwrap_or(body.len());
                (&body[..end], body.get(end + 1..).unwrap_or_default())
            }
            _ => {
                let end = after.find(|c: char| c.is_ascii_whitespace()).unwrap_or(after.len());
                (&after[..end], &after[end..])
            }
        };
        found.push((name, value.replace("&amp;", "&")));
        rest = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_web_page_is_told_from_a_feed() {
        assert_eq!(web_page_start("<!DOCTYPE html>\n<html>"), Some(0));
        assert_eq!(web_page_start("\n\n<html lang=en>"), Some(2));
        assert_eq!(
            web_page_start("<?xml version=\"1.0\"?><!-- x --><html xmlns=\"http://www.w3.org/1999/xhtml\">"),
            Some(31)
        );
        assert_eq!(
            web_page_start("<!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">"),
            Some(0)
        );
        assert_eq!(web_page_start("<feed xmlns=\"http://www.w3.org/2005/Atom\">"), None);
        assert_eq!(web_page_start("<htmlfeed>"), None);
        assert_eq!(web_page_start("<rss><channel><description><html></description>"), None);
    }

    #[test]
    fn url_attributes_are_found_with_their_places() {
        let html = r#"<p>See <a class=x href="/posts/1">one</a> and <IMG SRC='img.png' alt="a > b"><!-- <a href="/no"> -->
            <video poster=//cdn.example/p.jpg controls><a name=top>"#;
        let found: Vec<(&str, &str)> = url_attributes(html)
            .into_iter()
            .map(|a| (a.name, &html[a.value]))
            .collect();
        assert_eq!(
            found,
            [
                ("href", "/posts/1"),
                ("src", "img.png"),
                ("poster", "//cdn.example/p.jpg")
            ]
        );
        // A base of the fragment's own: what follows is not the feed's to resolve.
        assert_eq!(
            url_attributes(r#"<a href="a">x</a><base href="https://example.org/"><a href="b">"#).len(),
            1
        );
        // Text that is no tag, and a tag left open, end the search cleanly.
        assert!(url_attributes("1 < 2 and <a href=").len() <= 1);
    }

    #[test]
    fn the_feeds_a_page_links_to_are_found() {
        let page = r#"<html><head><LINK REL="alternate" TYPE="application/rss+xml" href="/feed/?a=1&amp;b=2">
            <link rel=stylesheet href=s.css><link href='/atom.xml' type='application/atom+xml' rel='alternate feed'>
            <link rel="alternate" type="text/html" href="/fr/"></head>"#;
        assert_eq!(
            feed_links(page),
            [
                FeedLink {
                    href: "/feed/?a=1&b=2".into(),
                    media_type: "application/rss+xml".into()
                },
                FeedLink {
                    href: "/atom.xml".into(),
                    media_type: "application/atom+xml".into()
                },
            ]
        );
        assert!(feed_links("<link rel=alternate type=application/atom+xml").is_empty());
    }
}
