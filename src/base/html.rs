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

/// A feed a page links to: its `href` as written (`&amp;` read as `&`),
/// and its media type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedLink {
    pub href: String,
    pub media_type: String,
}

/// The feeds a web page's `<link rel="alternate">` elements name, Atom and
/// RSS, in document order, among its first bytes.
pub fn feed_links(page: &str) -> Vec<FeedLink> {
    page_head(page)
        .advertised
        .into_iter()
        .filter(|link| matches!(link.media_type.as_str(), "application/atom+xml" | "application/rss+xml"))
        .map(|link| FeedLink {
            href: link.href,
            media_type: link.media_type,
        })
        .collect()
}

/// The media types a `<link rel="alternate">` names a feed by: Atom, RSS,
/// JSON Feed, and plain JSON, which JSON Feed readers accept too (but which
/// also names APIs' JSON: a rule takes it for a feed only where one is).
pub const FEED_MEDIA_TYPES: [&str; 4] = [
    "application/atom+xml",
    "application/rss+xml",
    "application/feed+json",
    "application/json",
];

/// A feed a page advertises, with where its attributes are in the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Advertised {
    /// The `href` as written, trimmed, `&amp;` read as `&`.
    pub href: String,
    /// The value of `href`, as written.
    pub href_at: std::ops::Range<usize>,
    /// The `type`, trimmed and in lower case: one of [`FEED_MEDIA_TYPES`].
    pub media_type: String,
    /// The value of `type`, as written.
    pub type_at: std::ops::Range<usize>,
}

/// What a page's head says of its feeds: its `<link rel="alternate">`
/// elements of a feed's type, in order; its `<base href>`, the first; and
/// where its `<head>` (else `<html>`) start tag is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageHead {
    pub base: Option<String>,
    pub advertised: Vec<Advertised>,
    pub head_at: Option<std::ops::Range<usize>>,
    /// The head's comments that start with `feedlint-disable`, each with
    /// the tag that follows it.
    pub directives: Vec<(std::ops::Range<usize>, Option<std::ops::Range<usize>>)>,
}

/// Reads a page's head ([`PageHead`]) among its first bytes, in one pass
/// over its tags; comments are passed over.
pub fn page_head(page: &str) -> PageHead {
    let end = (0..=LOOKED_AT.min(page.len()))
        .rev()
        .find(|at| page.is_char_boundary(*at))
        .unwrap_or(0);
    let html = &page[..end];
    let mut head = PageHead {
        directives: directives(html),
        ..PageHead::default()
    };
    // The next directive still waiting for the tag after it.
    let mut waiting = 0;
    for Tag {
        at: tag_at,
        name: tag,
        attributes,
    } in tags(html)
    {
        while let Some((comment, next)) = head.directives.get_mut(waiting) {
            if comment.end > tag_at.start {
                break;
            }
            *next = Some(tag_at.clone());
            waiting += 1;
        }
        let value = |name: &str| {
            attributes
                .iter()
                .find(|(n, _)| html[n.clone()].eq_ignore_ascii_case(name))
                .map(|(_, value)| value.clone())
        };
        if tag.eq_ignore_ascii_case("link") {
            head.advertised.extend(advertised(html, &value));
        } else if tag.eq_ignore_ascii_case("base") && head.base.is_none() {
            head.base = value("href").map(|href| attribute_text(&html[href]).trim().to_owned());
        } else if tag.eq_ignore_ascii_case("head") || tag.eq_ignore_ascii_case("html") && head.head_at.is_none() {
            head.head_at = Some(tag_at);
        } else if tag.eq_ignore_ascii_case("body") {
            // Past the head: a page's body may quote markup.
            break;
        }
    }
    head
}

/// The comments of an HTML text that start with `feedlint-disable`, in
/// order (the tag each applies to is found as the tags are read).
fn directives(html: &str) -> Vec<(std::ops::Range<usize>, Option<std::ops::Range<usize>>)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(open) = memchr::memmem::find(&html.as_bytes()[from..], b"<!--").map(|at| from + at) {
        let end = html[open + 4..].find("-->").map_or(html.len(), |at| open + 4 + at + 3);
        if html[open + 4..].trim_start().starts_with("feedlint-disable") && html[..end].ends_with("-->") {
            found.push((open..end, None));
        }
        from = end;
    }
    found
}

/// A start tag of an HTML text: where it is (from `<` to past its `>`),
/// its name, and its attributes' names and values, as ranges of the text.
struct Tag<'h> {
    at: std::ops::Range<usize>,
    name: &'h str,
    attributes: Vec<NameAndValue>,
}

/// The tags of an HTML text in order, in one pass; comments are passed
/// over, and a `<` that starts no tag name is text.
fn tags(html: &str) -> impl Iterator<Item = Tag<'_>> {
    let bytes = html.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || loop {
        let open = memchr::memchr(b'<', &bytes[at..]).map(|i| at + i)?;
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
        let (attributes, end) = tag_attributes(html, name_end);
        at = end;
        return Some(Tag {
            at: open..end,
            name: &html[open + 1..name_end],
            attributes,
        });
    })
}

/// The feed a `<link>` advertises, if its `rel` holds `alternate` and its
/// `type` names a feed.
fn advertised(html: &str, value: &dyn Fn(&str) -> Option<std::ops::Range<usize>>) -> Option<Advertised> {
    let rel = attribute_text(&html[value("rel")?]);
    if !rel
        .split_ascii_whitespace()
        .any(|r| r.eq_ignore_ascii_case("alternate"))
    {
        return None;
    }
    let type_at = value("type")?;
    // Hugo writes `application/rss&#43;xml`.
    let media_type = attribute_text(&html[type_at.clone()]).trim().to_ascii_lowercase();
    if !FEED_MEDIA_TYPES.contains(&media_type.as_str()) {
        return None;
    }
    let href_at = value("href")?;
    Some(Advertised {
        href: attribute_text(&html[href_at.clone()]).trim().to_owned(),
        href_at,
        media_type,
        type_at,
    })
}

/// An attribute's value as its text: the character references HTML
/// writers use in attributes read (`&#43;`, `&#x2B;`, `&amp;`, `&lt;`,
/// `&gt;`, `&quot;`, `&apos;`); any other `&` is left as written.
pub fn attribute_text(value: &str) -> std::borrow::Cow<'_, str> {
    if !value.contains('&') {
        return std::borrow::Cow::Borrowed(value);
    }
    let mut text = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        text.push_str(&rest[..at]);
        rest = &rest[at..];
        let reference = rest
            .get(1..rest.len().min(12))
            .and_then(|after| after.find(';'))
            .and_then(|end| Some((character(&rest[1..=end])?, end + 2)));
        match reference {
            Some((c, len)) => {
                text.push(c);
                rest = &rest[len..];
            }
            None => {
                text.push('&');
                rest = &rest[1..];
            }
        }
    }
    text.push_str(rest);
    std::borrow::Cow::Owned(text)
}

/// The character a reference's name (between `&` and `;`) stands for.
fn character(name: &str) -> Option<char> {
    let code = match name {
        "amp" => return Some('&'),
        "lt" => return Some('<'),
        "gt" => return Some('>'),
        "quot" => return Some('"'),
        "apos" => return Some('\''),
        _ => name.strip_prefix('#')?,
    };
    let code = match code.strip_prefix(['x', 'X']) {
        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
        None => code.parse().ok()?,
    };
    char::from_u32(code).filter(|c| *c != '\0')
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
    let mut found = Vec::new();
    for Tag {
        name: tag, attributes, ..
    } in tags(html)
    {
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
    fn a_page_head_gives_its_feeds_base_and_head() {
        let page = r#"<!doctype html><html><head><base href="https://example.org/a/">
            <!-- <link rel="alternate" type="application/atom+xml" href="/commented.atom"> -->
            <link rel="alternate" type="application/rss&#43;xml" href="/categories/c&#43;&#43;/index.xml">
            <link rel=alternate type=application/feed+json href=feed.json>
            <link rel="alternate" type="text/html" hreflang="fr" href="/fr/">
            </head><body><link rel="alternate" type="application/atom+xml" href="/in-body.atom">"#;
        let head = page_head(page);
        assert_eq!(head.base.as_deref(), Some("https://example.org/a/"));
        let found: Vec<(&str, &str, &str)> = head
            .advertised
            .iter()
            .map(|a| (a.href.as_str(), a.media_type.as_str(), &page[a.href_at.clone()]))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "/categories/c++/index.xml",
                    "application/rss+xml",
                    "/categories/c&#43;&#43;/index.xml"
                ),
                ("feed.json", "application/feed+json", "feed.json"),
            ]
        );
        assert_eq!(&page[head.head_at.unwrap()], "<head>");
        assert!(head.directives.is_empty());
    }

    #[test]
    fn suppression_comments_in_a_head_are_given_the_tag_after_them() {
        let page = "<html><head><!-- a comment --><!-- feedlint-disable-next discovery-missing -->\n  \
                    <link rel=alternate type=application/atom+xml href=/a.atom><!-- feedlint-disable x --></head>";
        let head = page_head(page);
        let found: Vec<(&str, Option<&str>)> = head
            .directives
            .iter()
            .map(|(comment, next)| (&page[comment.clone()], next.clone().map(|next| &page[next])))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "<!-- feedlint-disable-next discovery-missing -->",
                    Some("<link rel=alternate type=application/atom+xml href=/a.atom>")
                ),
                // An end tag is no tag a directive applies to.
                ("<!-- feedlint-disable x -->", None)
            ]
        );
    }

    #[test]
    fn character_references_in_attributes_are_read() {
        assert_eq!(
            attribute_text("a&amp;b&#43;c&#x2B;d&lt;&gt;&quot;&apos;"),
            "a&b+c+d<>\"'"
        );
        assert_eq!(
            attribute_text("AT&T &unknown; &#0; &#xZZ; &"),
            "AT&T &unknown; &#0; &#xZZ; &"
        );
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
