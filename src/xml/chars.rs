//! Character classes of XML 1.0 (fifth edition) §2.2 and §2.3, with ASCII
//! answered from a table: nearly every name in a feed is ASCII.

/// Bit in [`BYTE_CLASS`]: may start a name.
const START: u8 = 1;
/// Bit in [`BYTE_CLASS`]: may continue a name.
const NAME: u8 = 2;
/// Bit in [`BYTE_CLASS`]: white space (`S`, production [3]).
const SPACE: u8 = 4;
/// Bit in [`BYTE_CLASS`]: a public identifier character (production [13]).
const PUBID: u8 = 8;
/// Bit in [`BYTE_CLASS`]: ends a plain run of an attribute value (a reference,
/// a forbidden `<`, white space to normalize); quotes are checked apart.
const VALUE_STOP: u8 = 16;
/// Bit in [`BYTE_CLASS`]: the colon, counted in names.
const COLON: u8 = 32;

/// Classes of every byte; bytes above 0x7F (parts of non-ASCII characters)
/// are in none, so one lookup answers without a range check first.
static BYTE_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        let mut bits = 0;
        if c.is_ascii_alphabetic() || c == b'_' || c == b':' {
            bits |= START | NAME;
        }
        if c.is_ascii_digit() || c == b'-' || c == b'.' {
            bits |= NAME;
        }
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            bits |= SPACE;
        }
        if c.is_ascii_alphanumeric()
            || matches!(c, b' ' | b'\r' | b'\n')
            || matches!(
                c,
                b'-' | b'\''
                    | b'('
                    | b')'
                    | b'+'
                    | b','
                    | b'.'
                    | b'/'
                    | b':'
                    | b'='
                    | b'?'
                    | b';'
                    | b'!'
                    | b'*'
                    | b'#'
                    | b'@'
                    | b'$'
                    | b'_'
                    | b'%'
            )
        {
            bits |= PUBID;
        }
        if matches!(c, b'<' | b'&' | b'\t' | b'\n' | b'\r') {
            bits |= VALUE_STOP;
        }
        if c == b':' {
            bits |= COLON;
        }
        table[b] = bits;
        b += 1;
    }
    table
};

#[inline]
pub fn is_space(b: u8) -> bool {
    BYTE_CLASS[b as usize] & SPACE != 0
}

/// Whether `b` ends a plain run of an attribute value (see [`VALUE_STOP`]).
#[inline]
pub fn stops_value(b: u8) -> bool {
    BYTE_CLASS[b as usize] & VALUE_STOP != 0
}

#[inline]
pub fn is_pubid(b: u8) -> bool {
    BYTE_CLASS[b as usize] & PUBID != 0
}

/// `NameStartChar` (production [4]).
#[inline]
pub fn is_name_start(c: char) -> bool {
    if c.is_ascii() {
        return BYTE_CLASS[c as usize] & START != 0;
    }
    matches!(c as u32,
        0xC0..=0xD6 | 0xD8..=0xF6 | 0xF8..=0x2FF | 0x370..=0x37D | 0x37F..=0x1FFF | 0x200C..=0x200D
        | 0x2070..=0x218F | 0x2C00..=0x2FEF | 0x3001..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFFD
        | 0x10000..=0xEFFFF)
}

/// `NameChar` (production [4a]).
#[inline]
pub fn is_name_char(c: char) -> bool {
    if c.is_ascii() {
        return BYTE_CLASS[c as usize] & NAME != 0;
    }
    is_name_start(c) || matches!(c as u32, 0xB7 | 0x300..=0x36F | 0x203F..=0x2040)
}

/// Whether a code point is a `Char` (production [2]).
pub fn is_xml_char(code: u32) -> bool {
    matches!(code, 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

/// Length in bytes of the name at the start of `s` (0 if none). `colons`
/// counts the colons in it.
#[inline]
pub fn name_len(s: &str, colons: &mut usize) -> usize {
    let bytes = s.as_bytes();
    let mut i = match bytes.first() {
        None => return 0,
        Some(&b) if b < 128 => {
            if BYTE_CLASS[b as usize] & START == 0 {
                return 0;
            }
            *colons += usize::from(b == b':');
            1
        }
        Some(_) => match s.chars().next() {
            Some(c) if is_name_start(c) => c.len_utf8(),
            _ => return 0,
        },
    };
    loop {
        // ASCII name characters, the common case, by table.
        for &b in &bytes[i..] {
            let class = BYTE_CLASS[b as usize];
            if class & NAME == 0 {
                break;
            }
            *colons += usize::from(class & COLON != 0);
            i += 1;
        }
        if bytes.get(i).is_none_or(u8::is_ascii) {
            break;
        }
        match s[i..].chars().next() {
            Some(c) if is_name_char(c) => i += c.len_utf8(),
            _ => break,
        }
    }
    i
}

/// Length of the `Nmtoken` (production [7]) at the start of `s`.
pub fn nmtoken_len(s: &str) -> usize {
    s.char_indices()
        .find(|(_, c)| !is_name_char(*c))
        .map_or(s.len(), |(i, _)| i)
}

/// Whether `s` is a `Name`.
pub fn is_name(s: &str) -> bool {
    let mut colons = 0;
    !s.is_empty() && name_len(s, &mut colons) == s.len()
}

/// The first byte of `bytes` that is not a `Char`: a C0 control other than
/// tab, line feed and carriage return, or U+FFFE / U+FFFF (the text is
/// valid UTF-8, so surrogates cannot occur). Also tells whether the text
/// holds a carriage return, which needs line-end handling.
///
/// Sixty-four bytes at a time: a block is looked at byte by byte only if it
/// holds a byte below 0x20 other than tab and line feed, or 0xEF (the lead
/// byte of U+FFFE and U+FFFF, and of other characters from U+F000 up).
pub fn find_invalid_char(bytes: &[u8]) -> (Option<usize>, bool) {
    let mut has_cr = false;
    let checked = blocks(bytes, &mut has_cr);
    for i in checked..bytes.len() {
        if let Err(bad) = check_byte(bytes, i, &mut has_cr) {
            return (Some(bad), has_cr);
        }
    }
    (None, has_cr)
}

/// Checks whole blocks from the start; returns how far it got (the rest is
/// checked byte by byte). Stops early at a block that needs a closer look.
/// The test of a block has no branch per byte, so the compiler turns it
/// into vector instructions (SSE2 on any x86-64): as fast as hand-written
/// intrinsics here, measured, and no `unsafe`.
fn blocks(bytes: &[u8], has_cr: &mut bool) -> usize {
    const BLOCK: usize = 64;
    let mut at = 0;
    for block in bytes.chunks_exact(BLOCK) {
        let suspect = block.iter().fold(0u8, |acc, &b| {
            acc | u8::from((b < 0x20) & (b != b'\t') & (b != b'\n')) | u8::from(b == 0xEF)
        });
        if suspect != 0 {
            // A carriage return, a control or 0xEF: byte by byte.
            for i in at..at + BLOCK {
                if check_byte(bytes, i, has_cr).is_err() {
                    return i;
                }
            }
        }
        at += BLOCK;
    }
    at
}

#[inline]
fn check_byte(bytes: &[u8], i: usize, has_cr: &mut bool) -> Result<(), usize> {
    match bytes[i] {
        b'\r' => *has_cr = true,
        b'\t' | b'\n' => {}
        0..=0x1F => return Err(i),
        0xEF if bytes.get(i + 1) == Some(&0xBF) && matches!(bytes.get(i + 2), Some(0xBE | 0xBF)) => return Err(i),
        _ => {}
    }
    Ok(())
}

/// The character a predefined entity (XML 1.0 §4.6) stands for.
pub fn predefined(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "apos" => Some('\''),
        "quot" => Some('"'),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let mut colons = 0;
        assert_eq!(name_len("a:b-c.d>", &mut colons), 7);
        assert_eq!(colons, 1);
        assert_eq!(name_len("-a", &mut colons), 0);
        assert_eq!(name_len("été x", &mut colons), "été".len());
        assert!(!is_name("1a"));
        assert!(is_name("\u{10000}"));
        assert!(!is_name("a\u{3000}"));
    }

    #[test]
    fn invalid_chars_are_found_in_every_lane() {
        for at in 0..80 {
            let mut text = "x".repeat(80).into_bytes();
            text[at] = 0x01;
            assert_eq!(find_invalid_char(&text), (Some(at), false));
        }
        let text = "aaaaaaa\u{FFFF}bbbb".as_bytes();
        assert_eq!(find_invalid_char(text).0, Some(7));
        assert_eq!(find_invalid_char("é\t\r\n\u{FFFD}\u{EFFF}".as_bytes()), (None, true));
        let long = format!("{}\r{}", "a".repeat(33), "b".repeat(20));
        assert_eq!(find_invalid_char(long.as_bytes()), (None, true));
        assert_eq!(find_invalid_char("\u{FFFE}".repeat(9).as_bytes()), (Some(0), false));
    }
}
