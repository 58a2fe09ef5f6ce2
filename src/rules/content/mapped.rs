//! Where the URLs found in an element's decoded text were written in the
//! file: the text is read again as the XML parser decodes it (references,
//! CDATA sections, line ends), piece by piece, and only the places asked
//! for are kept, so a finding about a URL inside escaped HTML points at the
//! URL's own bytes (`&amp;` and all) in time linear in the text and memory
//! linear in the URLs.

use std::ops::Range;

/// A stretch of decoded text and the bytes of the file it was read from:
/// copied byte for byte, or one character a reference or line end made.
struct Piece<'t> {
    text: &'t str,
    raw: Range<usize>,
    copied: bool,
}

/// The places asked for, found as the pieces go by.
struct Places<'w> {
    /// Every boundary asked for, in order, and whether it starts a range:
    /// a start maps to the place of its byte, an end to the place after
    /// the byte before it.
    boundaries: Vec<(usize, bool)>,
    wanted: &'w str,
    found: Vec<usize>,
    decoded_at: usize,
}

impl Places<'_> {
    /// Takes the next piece; `None` where it is not the decoded text's.
    fn take(&mut self, piece: &Piece) -> Option<()> {
        let decoded = self.decoded_at..self.decoded_at + piece.text.len();
        if self.wanted.get(decoded.clone())? != piece.text {
            return None;
        }
        while let Some(&(boundary, start)) = self.boundaries.get(self.found.len()) {
            // The byte the boundary is placed by: its own, or the one before.
            let byte = if start { boundary } else { boundary.checked_sub(1)? };
            if byte >= decoded.end {
                break;
            }
            self.found.push(match (piece.copied, start) {
                (true, _) => piece.raw.start + (boundary - decoded.start),
                (false, true) => piece.raw.start,
                (false, false) => piece.raw.end,
            });
        }
        self.decoded_at = decoded.end;
        Some(())
    }
}

/// The places in the file (`input`) of the decoded byte ranges `wanted`
/// (in order, not overlapping, not empty) of the text node whose bytes are
/// `node` and whose decoded text is `decoded`; `None` where the bytes do
/// not decode to that text (an entity the DTD declares, which the parser
/// expanded: no byte-for-byte mapping exists).
pub(super) fn source_ranges(
    input: &str,
    node: Range<usize>,
    decoded: &str,
    wanted: &[Range<usize>],
) -> Option<Vec<Range<usize>>> {
    let mut places = Places {
        boundaries: wanted
            .iter()
            .flat_map(|range| [(range.start, true), (range.end, false)])
            .collect(),
        wanted: decoded,
        found: Vec::with_capacity(wanted.len() * 2),
        decoded_at: 0,
    };
    let raw = input.get(node.clone())?;
    let mut at = 0;
    let mut in_cdata = false;
    while at < raw.len() {
        let rest = raw.get(at..)?;
        let place = node.start + at;
        let piece = if in_cdata && rest.starts_with("]]>") {
            in_cdata = false;
            at += 3;
            continue;
        } else if !in_cdata && rest.starts_with("<![CDATA[") {
            in_cdata = true;
            at += 9;
            continue;
        } else if rest.starts_with('\r') {
            let used = if rest.starts_with("\r\n") { 2 } else { 1 };
            Piece {
                text: "\n",
                raw: place..place + used,
                copied: false,
            }
        } else if let Some(after) = rest.strip_prefix('&').filter(|_| !in_cdata) {
            let end = after.find(';')?;
            let c = crate::xml::reference_char(after.get(..end)?)?;
            let mut buffer = [0u8; 4];
            let text: &str = c.encode_utf8(&mut buffer);
            let piece = Piece {
                text,
                raw: place..place + end + 2,
                copied: false,
            };
            places.take(&piece)?;
            at += end + 2;
            continue;
        } else {
            // Copied up to what decodes otherwise: a line end, and outside
            // a section a reference or a section's start (a '<' the parser
            // left in text is itself).
            let stops: &[char] = if in_cdata { &['\r', ']'] } else { &['\r', '&', '<'] };
            // At least the first character: it may be a wide one.
            let first = rest.chars().next()?.len_utf8();
            let end = rest.get(first..)?.find(stops).map_or(rest.len(), |end| end + first);
            Piece {
                text: rest.get(..end)?,
                raw: place..place + end,
                copied: true,
            }
        };
        places.take(&piece)?;
        at += piece.raw.len();
    }
    let whole = places.found.len() == places.boundaries.len() && places.decoded_at == decoded.len();
    whole.then(|| places.found.chunks(2).map(|pair| pair[0]..pair[1]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of the file at the place `value` (the first one, in the
    /// decoded `input`) was read from.
    fn located(input: &str, value: &str) -> String {
        let mut decoded = String::new();
        crate::xml::decode_text_for_tests(input, &mut decoded);
        let at = decoded.find(value).unwrap();
        let ranges = source_ranges(
            input,
            0..input.len(),
            &decoded,
            std::slice::from_ref(&(at..at + value.len())),
        )
        .unwrap();
        input.get(ranges[0].clone()).unwrap().to_owned()
    }

    #[test]
    fn escaped_cdata_and_plain_text_map_back() {
        let escaped = "&lt;a href=&quot;/p?a=1&amp;b=2&quot;&gt;x&lt;/a&gt;";
        assert_eq!(located(escaped, "/p?a=1&b=2"), "/p?a=1&amp;b=2");
        let cdata = "before <![CDATA[<img src=\"//cdn.example/é.png\">]]> éà after";
        assert_eq!(located(cdata, "//cdn.example/é.png"), "//cdn.example/é.png");
        let mixed = "&#60;a href='x'>\r\n<![CDATA[<p>]]]>\r\n<a href=\"/y\">]]>";
        assert_eq!(located(mixed, "/y"), "/y");
        assert_eq!(located(mixed, "x"), "x");
    }

    #[test]
    fn text_that_is_not_the_bytes_decoded_is_not_mapped() {
        let input = "&custom; <a href=\"/x\">";
        assert!(source_ranges(
            input,
            0..input.len(),
            "expanded <a href=\"/x\">",
            std::slice::from_ref(&(19..21))
        )
        .is_none());
    }
}
