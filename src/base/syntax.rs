//! The small grammars the core rules check values against: BCP 47
//! language tags, RFC 2822 addresses, MIME media types, Base64 and
//! non-negative integers. Each returns why a value does not match, so
//! messages can say it.

/// Why `tag` is not a well-formed BCP 47 language tag (RFC 5646 §2.1), if
/// it is not. Case does not matter; the registry is not consulted, so an
/// unregistered but well-formed subtag (`en-QQ`) passes, with one
/// exception: no language subtag of 4 to 8 letters is registered (4 are
/// reserved, 5 to 8 for registration, RFC 5646 §2.2.1), so `english` is
/// no language code.
pub fn language_tag_error(tag: &str) -> Option<&'static str> {
    if tag.is_empty() {
        return Some("it is empty");
    }
    if tag.contains('_') {
        return Some("subtags are separated by \"-\", not \"_\"");
    }
    let subtags: Vec<&str> = tag.split('-').collect();
    if subtags.iter().any(|s| s.is_empty()) {
        return Some("it has an empty subtag");
    }
    if subtags.iter().any(|s| s.len() > 8) {
        return Some("a subtag is longer than 8 characters");
    }
    if subtags.iter().any(|s| !s.bytes().all(|b| b.is_ascii_alphanumeric())) {
        return Some("subtags hold only ASCII letters and digits");
    }
    if IRREGULAR.iter().any(|g| g.eq_ignore_ascii_case(tag)) {
        return None;
    }
    let mut rest = &subtags[..];
    if rest[0].eq_ignore_ascii_case("x") {
        return private_use(rest);
    }
    let alpha = |s: &str| s.bytes().all(|b| b.is_ascii_alphabetic());
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let language = rest[0];
    if !(alpha(language) && (2..=8).contains(&language.len())) {
        return Some("it does not start with a language subtag of 2 to 8 letters");
    }
    if language.len() >= 4 {
        return Some("its language subtag has 4 to 8 letters, and none of that length is registered (RFC 5646 §2.2.1): languages are named by ISO 639 codes of 2 or 3 letters");
    }
    rest = &rest[1..];
    if language.len() <= 3 {
        let extlangs = rest.iter().take(3).take_while(|s| s.len() == 3 && alpha(s)).count();
        rest = &rest[extlangs..];
    }
    if rest.first().is_some_and(|s| s.len() == 4 && alpha(s)) {
        rest = &rest[1..];
    }
    if rest
        .first()
        .is_some_and(|s| (s.len() == 2 && alpha(s)) || (s.len() == 3 && digits(s)))
    {
        rest = &rest[1..];
    }
    let is_variant = |s: &str| (5..=8).contains(&s.len()) || (s.len() == 4 && s.as_bytes()[0].is_ascii_digit());
    while rest.first().is_some_and(|s| is_variant(s)) {
        rest = &rest[1..];
    }
    while rest
        .first()
        .is_some_and(|s| s.len() == 1 && !s.eq_ignore_ascii_case("x"))
    {
        let count = rest[1..].iter().take_while(|s| s.len() >= 2).count();
        if count == 0 {
            return Some("an extension singleton is not followed by a subtag of 2 to 8 characters");
        }
        rest = &rest[1 + count..];
    }
    match rest.first() {
        None => None,
        Some(x) if x.eq_ignore_ascii_case("x") => private_use(rest),
        Some(_) => Some("its subtags are not in the order language, script, region, variants, extensions"),
    }
}

fn private_use(subtags: &[&str]) -> Option<&'static str> {
    (subtags.len() < 2).then_some("\"x\" is not followed by a private-use subtag")
}

/// The grandfathered tags that do not follow the grammar (RFC 5646 §2.1).
const IRREGULAR: [&str; 17] = [
    "en-GB-oed",
    "i-ami",
    "i-bnn",
    "i-default",
    "i-enochian",
    "i-hak",
    "i-klingon",
    "i-lux",
    "i-mingo",
    "i-navajo",
    "i-pwn",
    "i-tao",
    "i-tay",
    "i-tsu",
    "sgn-BE-FR",
    "sgn-BE-NL",
    "sgn-CH-DE",
];

/// Why `text` is not an RFC 2822 `addr-spec` (`local@domain`), if it is not.
/// Non-ASCII characters count as atom characters (RFC 6532 §3.2).
pub fn addr_spec_error(text: &str) -> Option<&'static str> {
    if text.is_empty() {
        return Some("it is empty");
    }
    if text.starts_with("mailto:") {
        return Some("it is a mailto: URI, not an address");
    }
    let Some(at) = local_part_end(text) else {
        return Some("its local part (before \"@\") is not a dot-atom or a quoted string");
    };
    let Some(domain) = text[at..].strip_prefix('@') else {
        return Some("it has no \"@\"");
    };
    let domain_ok = if let Some(literal) = domain.strip_prefix('[') {
        literal
            .strip_suffix(']')
            .is_some_and(|inner| inner.bytes().all(|b| b.is_ascii_graphic() && !b"[]\\".contains(&b)))
    } else {
        is_dot_atom(domain)
    };
    (!domain_ok).then_some("its domain (after \"@\") is not a dot-atom such as example.org")
}

/// The end of a leading dot-atom or quoted string.
fn local_part_end(text: &str) -> Option<usize> {
    if let Some(quoted) = text.strip_prefix('"') {
        let mut escaped = false;
        for (i, c) in quoted.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => return Some(i + 2),
                '\r' | '\n' => return None,
                _ => {}
            }
        }
        return None;
    }
    let end = text.find('@').unwrap_or(text.len());
    is_dot_atom(&text[..end]).then_some(end)
}

/// RFC 2822 §3.2.4 `dot-atom-text`: atoms of `atext` joined by single dots.
fn is_dot_atom(text: &str) -> bool {
    let atext = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || !c.is_ascii();
    !text.is_empty() && text.split('.').all(|atom| !atom.is_empty() && atom.chars().all(atext))
}

/// Whether a value is a MIME media type as RFC 4287 §4.1.3.1 and RFC 2045
/// §5.1 mean it: `type/subtype`, each a token, parameters allowed.
pub fn is_media_type(value: &str) -> bool {
    // One pass over the bytes up to the parameters: asked of every link's
    // and content's type.
    // The essence ends at the first ';' (found bytewise: a `str` search
    // costs more than the few bytes of a type).
    let end = value.bytes().position(|b| b == b';').unwrap_or(value.len());
    let essence = value[..end].trim_ascii();
    let (mut slashes, mut token_len) = (0, 0);
    for &b in essence.as_bytes() {
        if b == b'/' {
            if token_len == 0 {
                return false;
            }
            slashes += 1;
            token_len = 0;
        } else if TOKEN[b as usize] {
            token_len += 1;
        } else {
            return false;
        }
    }
    slashes == 1 && token_len > 0
}

/// The bytes of a media type's type and subtype (RFC 6838 §4.2).
const TOKEN: [bool; 256] = ascii_table(b"!#$&-^_.+");

/// A table of the bytes that are ASCII letters and digits or one of
/// `others`: what byte classes are checked by, one lookup a byte.
pub(crate) const fn ascii_table(others: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = (b as u8).is_ascii_alphanumeric();
        b += 1;
    }
    let mut i = 0;
    while i < others.len() {
        table[others[i] as usize] = true;
        i += 1;
    }
    table
}

/// Whether a media type is XML's (RFC 4287 §4.1.3.3: an XML media type, or
/// one ending in `+xml` or `/xml`, case-insensitive; parameters ignored).
pub fn is_xml_media_type(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let essence = lower.split(';').next().unwrap_or_default().trim();
    essence.ends_with("/xml")
        || essence.ends_with("+xml")
        || matches!(
            essence,
            "application/xml-external-parsed-entity" | "application/xml-dtd"
        )
}

/// Whether a media type is composite (`multipart/*`, `message/*`), which
/// atom:content must not be (RFC 4287 §4.1.3.1).
pub fn is_composite_media_type(media_type: &str) -> bool {
    let media_type = media_type.trim().as_bytes();
    let starts =
        |prefix: &[u8]| media_type.len() > prefix.len() && media_type[..prefix.len()].eq_ignore_ascii_case(prefix);
    starts(b"multipart/") || starts(b"message/")
}

/// Whether a media type's content travels as text or XML in an Atom
/// document, rather than Base64-encoded (RFC 4287 §4.1.3.3).
pub fn is_xml_or_text_media_type(value: &str) -> bool {
    is_xml_media_type(value)
        || value
            .trim_start()
            .get(..5)
            .is_some_and(|prefix| prefix.eq_ignore_ascii_case("text/"))
}

/// Why `text` is not Base64 (RFC 4648 §4; white space between the
/// characters allowed, as RFC 2045 §6.8 lines it), if it is not.
pub fn base64_error(text: &str) -> Option<&'static str> {
    let mut count = 0usize;
    let mut padding = 0usize;
    for b in text.bytes().filter(|b| !b.is_ascii_whitespace()) {
        match b {
            b'=' => padding += 1,
            _ if padding > 0 => return Some("\"=\" stands before the end"),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'+' | b'/' => {}
            _ => return Some("it holds characters outside the Base64 alphabet (A-Z, a-z, 0-9, +, /, =)"),
        }
        count += 1;
    }
    if padding > 2 || !count.is_multiple_of(4) {
        return Some("its length is not a multiple of four characters (padded with \"=\")");
    }
    None
}

/// The value of a non-negative decimal integer written without sign or
/// spaces, if `text` is one and fits in a `u64`.
/// Whether `text` is 8-4-4-4-12 hexadecimal digits.
pub fn is_uuid(text: &str) -> bool {
    text.len() == 36
        && text.char_indices().all(|(i, c)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                c == '-'
            } else {
                c.is_ascii_hexdigit()
            }
        })
}

pub fn non_negative_integer(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_tags_follow_rfc_5646() {
        for good in [
            "en",
            "en-US",
            "EN-us",
            "zh-Hant-TW",
            "sr-Latn-RS",
            "de-CH-1901",
            "sl-rozaj-biske",
            "es-419",
            "zh-yue-HK",
            "x-whatever",
            "en-a-bbb-x-a-ccc",
            "i-klingon",
            "en-GB-oed",
            "tlh",
            "haw",
        ] {
            assert_eq!(language_tag_error(good), None, "{good}");
        }
        for bad in [
            "",
            "en_US",
            "english",
            "French",
            "engl",
            "english-usa",
            "e",
            "en-",
            "-en",
            "en--us",
            "123",
            "en-US-x",
            "en-a",
            "fr-FRA-X",
            "x",
            "en us",
            "de-419-DE",
        ] {
            assert!(language_tag_error(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn addresses_follow_rfc_2822() {
        for good in [
            "joe@example.org",
            "joe+tag@example.org",
            "o'brien@example.co.uk",
            "\"joe doe\"@example.org",
            "joe@localhost",
            "joe@[192.0.2.1]",
            "jöe@exämple.org",
        ] {
            assert_eq!(addr_spec_error(good), None, "{good}");
        }
        for bad in [
            "",
            "joe",
            "joe@",
            "@example.org",
            "joe@@example.org",
            "joe.@example.org",
            "jo e@example.org",
            "Joe <joe@example.org>",
            "mailto:joe@example.org",
            "joe@example..org",
            "joe@example.org (Joe)",
        ] {
            assert!(addr_spec_error(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn base64_needs_its_alphabet_and_padding() {
        assert_eq!(base64_error("aGVsbG8="), None);
        assert_eq!(base64_error("aGVs\n bG8h"), None);
        assert_eq!(base64_error(""), None);
        assert!(base64_error("hello").is_some());
        assert!(base64_error("aGVsbG8").is_some());
        assert!(base64_error("aG=Vs").is_some());
        assert!(base64_error("<p>hi</p>").is_some());
    }

    #[test]
    fn media_types_are_type_slash_subtype() {
        assert!(is_media_type("text/html"));
        assert!(is_media_type("application/atom+xml; type=feed"));
        assert!(!is_media_type("html"));
        assert!(!is_media_type("text/"));
        assert!(!is_media_type("text html"));
        assert!(is_xml_or_text_media_type("image/svg+xml"));
        assert!(!is_xml_or_text_media_type("image/png"));
    }
}
