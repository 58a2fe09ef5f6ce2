//! IRI references: strict RFC 3987 syntax checks, and resolution with `url`.
//!
//! The WHATWG parser behind `url` silently repairs what RFC 3987 forbids
//! (spaces, backslashes, `{}`), so syntax is checked here first, by hand;
//! `url` is used only to resolve references that passed (RFC 3986 §5).

use std::borrow::Cow;

use url::Url;

/// Why a string is not an IRI reference: the message, and the byte offset
/// (into the string) of the first offending character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IriError {
    pub offset: usize,
    pub len: usize,
    pub message: String,
}

fn error(offset: usize, len: usize, message: impl Into<String>) -> IriError {
    IriError {
        offset,
        len,
        message: message.into(),
    }
}

/// The ASCII bytes an IRI reference may hold as they are: unreserved and
/// reserved characters (RFC 3986 §2.2, §2.3); anything else needs a look.
const PLAIN: [bool; 256] = crate::base::syntax::ascii_table(b"-._~:/?#@!$&'()*+,;=");

/// Checks that `text` is an IRI reference (RFC 3987 §2.2: `IRI-reference`).
pub fn check_iri_reference(text: &str) -> Result<(), IriError> {
    if plain_shape(text).is_some() {
        return Ok(());
    }
    check_iri_reference_fully(text)
}

/// [`check_iri_reference`] without the shortcut for plain references.
fn check_iri_reference_fully(text: &str) -> Result<(), IriError> {
    // Most others are plain ASCII with nothing to escape: checked bytewise.
    let plain = text.bytes().all(|b| PLAIN[usize::from(b)]);
    if !plain {
        check_characters(text)?;
    }
    // Plain text holds no "[" or "]" to place.
    check_structure(text, !plain)
}

/// The first `byte` in `text`: memchr, much cheaper than `str::find` on the
/// short strings IRIs are.
fn find(text: &str, byte: u8) -> Option<usize> {
    memchr::memchr(byte, text.as_bytes())
}

fn rfind(text: &str, byte: u8) -> Option<usize> {
    memchr::memrchr(byte, text.as_bytes())
}

/// What RFC 3987 says of a character outside ASCII: `ucschar` anywhere,
/// `iprivate` only in the query (§2.2), bidirectional formatting characters
/// nowhere (§4.1), anything else nowhere.
enum NonAscii {
    Allowed,
    PrivateUse,
    BidiFormatting,
    Excluded,
}

fn classify(c: char) -> NonAscii {
    match u32::from(c) {
        0x200E | 0x200F | 0x202A..=0x202E => NonAscii::BidiFormatting,
        0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD => NonAscii::PrivateUse,
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD => NonAscii::Allowed,
        // The planes 1 to 13, but their last two code points.
        n @ 0x10000..=0xDFFFD if n & 0xFFFE != 0xFFFE => NonAscii::Allowed,
        _ => NonAscii::Excluded,
    }
}

/// Characters RFC 3987 does not allow, and `%` escapes.
fn check_characters(text: &str) -> Result<(), IriError> {
    // The query, where private-use characters may stand: after the first
    // '?' that comes before any '#'.
    let fragment_at = find(text, b'#').unwrap_or(text.len());
    let query = find(&text[..fragment_at], b'?').map(|q| q + 1..fragment_at);
    for (i, c) in text.char_indices() {
        if !c.is_ascii() && !('\u{80}'..='\u{9F}').contains(&c) {
            let what = match classify(c) {
                NonAscii::Allowed => continue,
                NonAscii::PrivateUse if query.as_ref().is_some_and(|q| q.contains(&i)) => continue,
                NonAscii::PrivateUse => format!(
                    "a private-use character (U+{:04X}) is allowed only in the query of an IRI",
                    u32::from(c)
                ),
                NonAscii::BidiFormatting => format!(
                    "a bidirectional formatting character (U+{:04X}) is not allowed in an IRI (RFC 3987 §4.1)",
                    u32::from(c)
                ),
                NonAscii::Excluded => format!(
                    "U+{:04X}, a Unicode non-character or special, is not allowed in an IRI",
                    u32::from(c)
                ),
            };
            return Err(error(i, c.len_utf8(), what));
        }
        let what = match c {
            ' ' => "a space",
            '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}' => "a control character",
            '<' | '>' | '"' | '{' | '}' | '|' | '\\' | '^' | '`' => "a character that must be percent-encoded",
            '%' => {
                let hex = text.as_bytes().get(i + 1..i + 3);
                if hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                    continue;
                }
                return Err(error(
                    i,
                    1,
                    "\"%\" is not followed by two hexadecimal digits (write \"%25\" for a literal percent sign)",
                ));
            }
            _ => continue,
        };
        return Err(error(
            i,
            c.len_utf8(),
            format!("{what} ({c:?}) is not allowed in an IRI"),
        ));
    }
    Ok(())
}

/// Scheme, authority, and where `#`, `[` and `]` may stand.
fn check_structure(text: &str, brackets: bool) -> Result<(), IriError> {
    // The fragment is everything after the first '#'; it may not hold another.
    let (before_fragment, fragment) = match find(text, b'#') {
        Some(i) => (&text[..i], Some(i)),
        None => (text, None),
    };
    if let Some(f) = fragment {
        if let Some(j) = memchr::memchr3(b'#', b'[', b']', &text.as_bytes()[f + 1..]) {
            return Err(error(f + 1 + j, 1, "the fragment contains a \"#\", \"[\" or \"]\""));
        }
    }

    // A ':' before any '/', '?' or '#' ends a scheme.
    let first_delim = memchr::memchr2(b'/', b'?', before_fragment.as_bytes()).unwrap_or(before_fragment.len());
    let mut rest_at = 0;
    if let Some(colon) = find(&before_fragment[..first_delim], b':') {
        let scheme = &text[..colon];
        let valid = scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        if !valid {
            return Err(error(
                0,
                colon.max(1),
                format!("\"{scheme}\" is not a valid scheme (a letter, then letters, digits, \"+\", \"-\" or \".\")"),
            ));
        }
        rest_at = colon + 1;
    }

    let hier = &before_fragment[rest_at..];
    let query_at = find(hier, b'?').unwrap_or(hier.len());
    let hier_part = &hier[..query_at];
    let mut path_at = rest_at;
    let mut path = hier_part;
    if let Some(after) = hier_part.strip_prefix("//") {
        let authority_len = find(after, b'/').unwrap_or(after.len());
        let authority = &after[..authority_len];
        check_authority(authority, rest_at + 2, brackets)?;
        path_at = rest_at + 2 + authority_len;
        path = &after[authority_len..];
    }
    if !brackets {
        return Ok(());
    }
    if let Some(j) = memchr::memchr2(b'[', b']', path.as_bytes()) {
        return Err(error(
            path_at + j,
            1,
            "\"[\" and \"]\" are allowed only around an IP literal host",
        ));
    }
    if let Some(j) = memchr::memchr2(b'[', b']', &hier.as_bytes()[query_at..]) {
        return Err(error(
            rest_at + query_at + j,
            1,
            "\"[\" and \"]\" are allowed only around an IP literal host",
        ));
    }
    Ok(())
}

fn check_authority(authority: &str, at: usize, brackets: bool) -> Result<(), IriError> {
    let host_at = rfind(authority, b'@').map_or(0, |i| i + 1);
    let brackets_in = |part: &str| {
        if brackets {
            memchr::memchr2(b'[', b']', part.as_bytes())
        } else {
            None
        }
    };
    if let Some(j) = brackets_in(&authority[..host_at]) {
        return Err(error(at + j, 1, "\"[\" or \"]\" in the user information"));
    }
    let host_port = &authority[host_at..];
    let port = if host_port.starts_with('[') {
        let Some(close) = find(host_port, b']') else {
            return Err(error(
                at + host_at,
                host_port.len(),
                "the IP literal host has no closing \"]\"",
            ));
        };
        let literal = &host_port[1..close];
        let valid =
            literal.parse::<std::net::Ipv6Addr>().is_ok() || (literal.starts_with(['v', 'V']) && literal.contains('.'));
        if !valid {
            return Err(error(
                at + host_at,
                close + 1,
                format!("\"[{literal}]\" is not a valid IPv6 address"),
            ));
        }
        let after = &host_port[close + 1..];
        match after.strip_prefix(':') {
            Some(port) => Some((port, at + host_at + close + 2)),
            None if after.is_empty() => None,
            None => {
                return Err(error(
                    at + host_at + close + 1,
                    after.len(),
                    "unexpected text after the IP literal host",
                ))
            }
        }
    } else {
        if let Some(j) = brackets_in(host_port) {
            return Err(error(
                at + host_at + j,
                1,
                "\"[\" and \"]\" are allowed only around an IP literal host",
            ));
        }
        rfind(host_port, b':').map(|c| (&host_port[c + 1..], at + host_at + c + 1))
    };
    if let Some((port, port_at)) = port {
        if !port.chars().all(|c| c.is_ascii_digit()) {
            return Err(error(
                port_at,
                port.len(),
                format!("\"{port}\" is not a valid port (digits only)"),
            ));
        }
    }
    Ok(())
}

/// Checks a link relation as RFC 4287 §4.2.7.2 defines it: non-empty, and
/// either an `isegment-nz-nc` (a registered name such as `next`) or an IRI
/// (an extension relation, with its scheme). Whitespace is in neither, so a
/// space-separated list or a padded name is no relation at all.
pub fn check_link_relation(text: &str) -> Result<(), IriError> {
    // Nearly every relation is a registered name: letters, digits, "-", ".".
    let plain_name = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~');
    if !text.is_empty() && text.bytes().all(plain_name) {
        return Ok(());
    }
    if text.is_empty() {
        return Err(error(0, 0, "the relation is empty"));
    }
    if let Some(space) = text.find(|c: char| c.is_ascii_whitespace()) {
        let message = if text.trim().contains(|c: char| c.is_ascii_whitespace()) {
            "it lists several relations, but an atom:link has exactly one"
        } else {
            "whitespace around the relation is part of the value, not padding"
        };
        return Err(error(space, 1, message));
    }
    if has_scheme(text) {
        // An extension relation: an IRI, absolute.
        return check_iri_reference(text);
    }
    // A name: `isegment-nz-nc` holds no ':' (ruled out above), '/', '?',
    // '#', '[' or ']'.
    if let Some(at) = text.find(['/', '?', '#', '[', ']']) {
        return Err(error(
            at,
            1,
            format!(
                "{:?} cannot appear in a relation name; an extension relation is an absolute IRI",
                &text[at..=at]
            ),
        ));
    }
    check_characters(text)
}

/// Whether `text` is plainly an absolute IRI without an authority, such as
/// `tag:example.org,2024:post-1` or `urn:uuid:...`: see [`plain_shape`].
/// `false` says nothing: the caller then checks with [`check_iri_reference`].
pub fn is_plain_absolute_iri(text: &str) -> bool {
    plain_shape(text) == Some(PlainShape::Absolute)
}

/// What [`plain_shape`] accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PlainShape {
    Absolute,
    Relative,
}

/// The bytes a scheme continues with (RFC 3986 §3.1).
const SCHEME: [bool; 256] = crate::base::syntax::ascii_table(b"+-.");

/// Accepts, in about one pass over the bytes, the references that need no
/// closer look, which are nearly all of them (relative paths, `tag:` and
/// `urn:` ids): only [`PLAIN`] characters (no `%`, brackets, spaces or
/// non-ASCII), at most one `#`, a valid scheme if a `:` comes before any
/// `/`, `?` or `#`, and no authority (no `//` after the scheme). `None`
/// says nothing: the full check decides.
fn plain_shape(text: &str) -> Option<PlainShape> {
    let bytes = text.as_bytes();
    // Bitwise, with no branch per byte: the loop stays tight.
    let mut plain = true;
    let mut hashes = 0u32;
    for &b in bytes {
        plain &= PLAIN[usize::from(b)];
        hashes += u32::from(b == b'#');
    }
    if !plain || hashes > 1 {
        return None;
    }
    let first_delimiter = bytes.iter().position(|&b| matches!(b, b':' | b'/' | b'?' | b'#'));
    let (shape, rest) = match first_delimiter {
        Some(colon) if bytes[colon] == b':' => {
            let scheme = &bytes[..colon];
            let valid =
                scheme.first().is_some_and(u8::is_ascii_alphabetic) && scheme.iter().all(|&b| SCHEME[usize::from(b)]);
            if !valid {
                return None;
            }
            (PlainShape::Absolute, &bytes[colon + 1..])
        }
        _ => (PlainShape::Relative, bytes),
    };
    (!rest.starts_with(b"//")).then_some(shape)
}

/// The last segment of a URL's path, its file name; `None` for a URL
/// naming a directory (`/`) or none.
pub fn file_name(url: &Url) -> Option<&str> {
    url.path_segments()?.next_back().filter(|name| !name.is_empty())
}

/// Whether a reference has a scheme, i.e. is absolute (fragment allowed).
pub fn has_scheme(text: &str) -> bool {
    let end = memchr::memchr3(b'/', b'?', b'#', text.as_bytes()).unwrap_or(text.len());
    text[..end].contains(':')
}

/// The form two link targets are compared in (RFC 3986 §6.2.2): resolved,
/// fragment removed, normalized by the WHATWG serialization (case of scheme
/// and special hosts, default port, empty path, dot segments), by the case
/// of any other host, and by [`normalize_percent_encoding`].
pub fn comparable(mut url: Url) -> Url {
    url.set_fragment(None);
    if let Some(host) = url.host_str().filter(|h| h.bytes().any(|b| b.is_ascii_uppercase())) {
        let lower = host.to_ascii_lowercase();
        // Only opaque hosts keep their case; setting one cannot fail.
        let _ = url.set_host(Some(&lower));
    }
    match normalize_percent_encoding(url.as_str()) {
        Cow::Borrowed(_) => url,
        // Decoded unreserved characters and uppercase escapes parse back
        // as they are.
        Cow::Owned(normalized) => Url::parse(&normalized).unwrap_or(url),
    }
}

/// The key a document's own URL is compared with link targets by: its
/// [`comparable`] form, borrowed when it is already in it (nearly always).
pub fn comparison_key(url: &Url) -> Cow<'_, str> {
    let plain = url.fragment().is_none()
        && !url.as_str().contains('%')
        && !url
            .host_str()
            .is_some_and(|h| h.bytes().any(|b| b.is_ascii_uppercase()));
    if plain {
        Cow::Borrowed(url.as_str())
    } else {
        Cow::Owned(comparable(url.clone()).into())
    }
}

/// Percent-encoding normalization (RFC 3986 §6.2.2.2): the hexadecimal
/// digits of an escape in uppercase, and escapes of unreserved characters
/// (letters, digits, `-`, `.`, `_`, `~`) decoded, so that `%c3%a9` and
/// `%C3%A9`, or `%2D` and `-`, compare equal.
pub fn normalize_percent_encoding(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let needs_change = |at: usize| -> bool {
        let (Some(&high), Some(&low)) = (bytes.get(at + 1), bytes.get(at + 2)) else {
            return false;
        };
        let decoded = hex_pair(high, low);
        decoded.is_some_and(is_unreserved)
            || (decoded.is_some() && (high.is_ascii_lowercase() || low.is_ascii_lowercase()))
    };
    let Some(first) = memchr::memchr_iter(b'%', bytes).find(|&at| needs_change(at)) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..first]);
    let mut at = first;
    while at < bytes.len() {
        let Some(next) = memchr::memchr(b'%', &bytes[at..]).map(|i| at + i) else {
            out.push_str(&text[at..]);
            break;
        };
        out.push_str(&text[at..next]);
        match bytes
            .get(next + 1..next + 3)
            .and_then(|pair| hex_pair(pair[0], pair[1]))
        {
            Some(decoded) if is_unreserved(decoded) => out.push(char::from(decoded)),
            Some(_) => {
                out.push('%');
                out.push_str(&text[next + 1..next + 3].to_ascii_uppercase());
            }
            None => {
                out.push('%');
                at = next + 1;
                continue;
            }
        }
        at = next + 3;
    }
    Cow::Owned(out)
}

/// Whether an absolute IRI is written as RFC 4287 §4.2.6.1 asks atom:id
/// to be, and if not, the first reason and the IRI written that way:
/// scheme and host in lowercase, percent-encoding normalized
/// ([`normalize_percent_encoding`]), no dot-segments in the path, no
/// default port, and `/` for an empty http(s) path.
pub fn id_normalization(text: &str) -> Option<(&'static str, String)> {
    const PERCENT: &str = "its percent-encoding is not normalized (uppercase hex digits, and only where needed)";
    let colon = text.find(':')?;
    let (scheme, rest) = (&text[..colon], &text[colon + 1..]);
    let scheme_upper = scheme.bytes().any(|b| b.is_ascii_uppercase());
    let Some(after_slashes) = rest.strip_prefix("//") else {
        // No authority: only the scheme's case and the percent-encoding.
        let encoded = normalize_percent_encoding(rest);
        let why = match (scheme_upper, &encoded) {
            (true, _) => "its scheme is not in lowercase",
            (false, Cow::Owned(_)) => PERCENT,
            (false, Cow::Borrowed(_)) => return None,
        };
        return Some((why, format!("{}:{encoded}", scheme.to_ascii_lowercase())));
    };
    let end = after_slashes.find(['/', '?', '#']).unwrap_or(after_slashes.len());
    let (authority, tail) = after_slashes.split_at(end);
    let (userinfo, host_port) = match authority.rfind('@') {
        Some(at) => authority.split_at(at + 1),
        None => ("", authority),
    };
    let port_at = host_port.rfind(':').filter(|&i| !host_port[i..].contains(']'));
    let (host, port) = port_at.map_or((host_port, ""), |i| host_port.split_at(i));
    let is_http = scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https");
    let default_port = if scheme.eq_ignore_ascii_case("http") {
        ":80"
    } else if scheme.eq_ignore_ascii_case("https") {
        ":443"
    } else if scheme.eq_ignore_ascii_case("ftp") {
        ":21"
    } else {
        ""
    };
    let needless_port = port == ":" || (!default_port.is_empty() && port == default_port);
    let path_end = tail.find(['?', '#']).unwrap_or(tail.len());
    let (path, query) = tail.split_at(path_end);
    let empty_path = path.is_empty() && is_http;
    let dot_segments = path.split('/').skip(1).any(|s| s == "." || s == "..");
    let encoded = normalize_percent_encoding(tail);
    let why = if scheme_upper {
        "its scheme is not in lowercase"
    } else if host.bytes().any(|b| b.is_ascii_uppercase()) {
        "its host is not in lowercase"
    } else if needless_port {
        "it names the default port"
    } else if empty_path {
        "its path is empty, where \"/\" is meant"
    } else if dot_segments {
        "its path has dot-segments (\"/./\" or \"/../\")"
    } else if matches!(encoded, Cow::Owned(_)) {
        PERCENT
    } else {
        return None;
    };
    let path = if empty_path {
        "/".to_owned()
    } else if dot_segments {
        remove_dot_segments(&path.split('/').collect::<Vec<_>>())
    } else {
        path.to_owned()
    };
    let port = if needless_port { "" } else { port };
    let normalized = format!(
        "{}://{userinfo}{}{port}{}",
        scheme.to_ascii_lowercase(),
        host.to_ascii_lowercase(),
        normalize_percent_encoding(&format!("{path}{query}"))
    );
    Some((why, normalized))
}

/// RFC 3986 §5.2.4 on a path split at `/`.
fn remove_dot_segments(segments: &[&str]) -> String {
    let mut out: Vec<&str> = Vec::with_capacity(segments.len());
    let last = segments.len() - 1;
    for (i, segment) in segments.iter().enumerate() {
        match *segment {
            "." | ".." if i == 0 => {}
            "." => {
                if i == last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1 {
                    out.pop();
                }
                if i == last {
                    out.push("");
                }
            }
            other => out.push(other),
        }
    }
    out.join("/")
}

fn hex_pair(high: u8, low: u8) -> Option<u8> {
    let digit = |b: u8| char::from(b).to_digit(16);
    Some((digit(high)? * 16 + digit(low)?) as u8)
}

fn is_unreserved(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(text: &str) -> IriError {
        check_iri_reference(text).expect_err(text)
    }

    #[test]
    fn plain_absolute_iris_are_valid_absolute_iris() {
        for text in [
            "tag:example.org,2003:3.2397",
            "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a",
            "mailto:joe@example.org",
            "urn:",
            "x-y.z+w:a#b",
            "http://example.org/a",
            "1tag:a",
            "tag:a b",
            "tag:a%zz",
            "tag:a#b#c",
            "tag:[a]",
            "tag:例",
            ":a",
            "a",
        ] {
            if is_plain_absolute_iri(text) {
                assert!(check_iri_reference(text).is_ok() && has_scheme(text), "{text}");
            }
        }
        for text in [
            "posts/1.html",
            "../a?b#c",
            "#top",
            "?q",
            "a_b:c",
            "a/b:c",
            "//host/path",
            "x:",
            "x://",
            "x:/a//b",
            "tag:example.org,2024:a#b",
            "a#b#c",
            "",
            "+a:b",
            "a:b:c",
        ] {
            if let Some(shape) = plain_shape(text) {
                assert!(check_iri_reference_fully(text).is_ok(), "{text}");
                assert_eq!(shape == PlainShape::Absolute, has_scheme(text), "{text}");
            }
        }
        assert_eq!(
            plain_shape("a_b:c"),
            None,
            "a ':' before any '/' ends a scheme, here an invalid one"
        );
        assert_eq!(plain_shape("posts/1.html"), Some(PlainShape::Relative));
        assert!(is_plain_absolute_iri("tag:example.org,2003:3.2397"));
        assert!(
            !is_plain_absolute_iri("http://example.org/a"),
            "authorities take the full check"
        );
        assert!(!is_plain_absolute_iri("tag:a#b#c"));
    }

    #[test]
    fn ids_are_normalized_as_rfc_4287_asks() {
        for ok in [
            "tag:example.org,2003:3.2397",
            "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a",
            "http://example.org/2003/12/13/atom03",
            "https://example.org/",
            "http://example.org:8080/a?b#c",
            "http://example.org/caf%C3%A9",
        ] {
            assert_eq!(id_normalization(ok), None, "{ok}");
        }
        for (bad, normalized) in [
            ("HTTP://example.org/a", "http://example.org/a"),
            ("http://Example.org/a", "http://example.org/a"),
            ("http://example.org:80/a", "http://example.org/a"),
            ("http://example.org", "http://example.org/"),
            ("http://example.org/a/./b/../c", "http://example.org/a/c"),
            ("http://example.org/caf%c3%a9", "http://example.org/caf%C3%A9"),
            ("tag:example.org,2003:%7Ejoe", "tag:example.org,2003:~joe"),
        ] {
            assert_eq!(
                id_normalization(bad).map(|(_, n)| n).as_deref(),
                Some(normalized),
                "{bad}"
            );
        }
    }

    #[test]
    fn accepts_iri_references() {
        for ok in [
            "",
            "http://example.org/feed.atom",
            "/feed/index.atom",
            "../2003/11/index.atom?page=2#top",
            "http://例え.テスト/パス",
            "urn:uuid:60a76c80-d399-11d9-b93c-0003939e0af6",
            "tag:example.org,2003:3.2397",
            "http://[::1]:8080/x",
            "mailto:a@example.org",
            "a%20b",
        ] {
            assert_eq!(check_iri_reference(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn equivalent_iris_compare_equal() {
        let key = |text: &str| comparable(Url::parse(text).unwrap()).to_string();
        for (a, b) in [
            ("http://example.org/caf%c3%a9", "http://example.org/caf%C3%A9"),
            ("http://example.org/caf%C3%A9", "http://example.org/café"),
            ("http://example.org/a%2Db", "http://example.org/a-b"),
            ("http://example.org/%7Euser/%41", "http://example.org/~user/A"),
            ("HTTP://Example.ORG:80", "http://example.org/"),
            ("https://example.org:443/a#top", "https://example.org/a"),
            ("http://example.org/a/./b/../c", "http://example.org/a/c"),
            ("foo://Example.ORG/x", "foo://example.org/x"),
            ("urn:x:a%2db", "urn:x:a-b"),
        ] {
            assert_eq!(key(a), key(b), "{a} vs {b}");
            assert_eq!(comparison_key(&Url::parse(a).unwrap()), key(b), "{a}");
        }
        for (a, b) in [
            ("http://example.org/a%2Fb", "http://example.org/a/b"),
            ("http://example.org/A", "http://example.org/a"),
            ("http://example.org/a?b", "http://example.org/a?c"),
        ] {
            assert_ne!(key(a), key(b), "{a} vs {b}");
        }
        assert_eq!(normalize_percent_encoding("100%"), "100%");
        assert_eq!(normalize_percent_encoding("%zz%2f%e9"), "%zz%2F%E9");
    }

    #[test]
    fn link_relations_are_names_or_iris() {
        for ok in [
            "next",
            "prev-archive",
            "http://www.iana.org/assignments/relation/next",
            "urn:x:y",
            "a@b",
            "caf\u{e9}",
        ] {
            assert_eq!(check_link_relation(ok), Ok(()), "{ok}");
        }
        let bad = |text: &str| check_link_relation(text).expect_err(text);
        assert!(bad("").message.contains("empty"));
        assert_eq!(bad(" next").offset, 0);
        assert!(bad("next ").message.contains("whitespace around"));
        assert!(bad("next prev-archive").message.contains("lists several"));
        assert!(bad("a/b").message.contains("\"/\""));
        assert!(bad("http://x/a b").message.contains("lists several"));
        assert!(bad("ne%xt").message.contains("hexadecimal"));
    }

    #[test]
    fn non_ascii_characters_as_rfc3987_sorts_them() {
        for ok in [
            "http://example.org/caf\u{e9}?q=\u{E000}",
            "http://example.org/?\u{F0000}#top",
            "http://example.org/\u{1F600}",
            "http://example.org/\u{E1000}",
            "http://example.org/\u{FDCF}\u{FDF0}",
        ] {
            assert_eq!(check_iri_reference(ok), Ok(()), "{ok}");
        }
        assert!(bad("http://example.org/\u{E000}").message.contains("only in the query"));
        assert!(bad("http://example.org/?q#\u{E000}")
            .message
            .contains("only in the query"));
        assert!(bad("http://\u{100000}.example/").message.contains("only in the query"));
        assert_eq!(bad("http://example.org/a\u{200F}b").offset, 20);
        for bidi in [
            '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
        ] {
            assert!(
                bad(&format!("http://example.org/?{bidi}"))
                    .message
                    .contains("bidirectional"),
                "{bidi:?}"
            );
        }
        for excluded in ['\u{FDD0}', '\u{FFFE}', '\u{1FFFE}', '\u{E0001}', '\u{FFF9}'] {
            assert!(
                bad(&format!("http://example.org/{excluded}"))
                    .message
                    .contains("non-character"),
                "{excluded:?}"
            );
        }
    }

    #[test]
    fn rejects_what_rfc3987_forbids() {
        assert_eq!(bad("http://example.org/a b").offset, 20);
        assert!(bad("${base}/feed").message.contains("percent-encoded"));
        assert!(bad("http://x/%zz").message.contains("hexadecimal"));
        assert!(bad("http://x/a\\b").message.contains("percent-encoded"));
        assert!(bad("1http://x/").message.contains("scheme"));
        assert!(bad("http://[::g]/").message.contains("IPv6"));
        assert!(bad("http://x:8o/").message.contains("port"));
        assert!(bad("http://x/#a#b").message.contains("fragment"));
        assert!(bad("http://x/[a]").message.contains("IP literal"));
    }
}
