//! Reading a document: encoding detection, transcoding to UTF-8, and the
//! lines and columns of byte offsets.

use std::borrow::Cow;
use std::ops::Range;

use encoding_rs::Encoding;

use crate::findings::diagnostic::{Diagnostic, DocSpan, Level, Location, Pending};
use crate::findings::fix::{Edit, Fix};
use crate::findings::rule_id::RuleId;
use crate::text::snippet::{floor_char_boundary, Place};

/// One document's text, as UTF-8.
#[derive(Debug)]
pub struct Source {
    text: String,
    /// Whether the text has a carriage return at all, found once for every
    /// locator of it.
    carriage_returns: bool,
}

/// Places whose line and column are known, from which others are found by
/// scanning forward. A line index (every line start) would not do: the
/// column still needs a scan from the line start, and a 100 MB feed on one
/// line would be scanned whole for every span.
#[derive(Debug)]
struct Marks {
    /// Sorted, at most [`STRIDE`] bytes apart over the part of the text
    /// scanned so far; the first is the start of the text.
    every_stride: Vec<Mark>,
    /// The last place asked for: spans mostly come in document order, so the
    /// next one is found by scanning on from here.
    last: Mark,
    /// Whether the text has a carriage return at all: most have none, and
    /// then a scan need not look for one (a third of its time).
    carriage_returns: bool,
}

#[derive(Debug, Clone, Copy)]
struct Mark {
    offset: usize,
    /// 1-based.
    line: usize,
    /// 1-based, in Unicode scalar values.
    column: usize,
}

/// The most bytes scanned to locate an offset, once the text up to it has
/// been scanned once.
const STRIDE: usize = 16 * 1024;

impl Mark {
    fn place(self) -> Place {
        Place {
            offset: self.offset,
            line: self.line,
            column: self.column,
        }
    }
}

const START: Mark = Mark {
    offset: 0,
    line: 1,
    column: 1,
};

impl Marks {
    fn locate(&mut self, text: &str, offset: usize) -> Mark {
        // The nearest known place before the offset.
        let i = self.every_stride.partition_point(|m| m.offset <= offset);
        let mut from = self.every_stride[i - 1];
        if (from.offset..=offset).contains(&self.last.offset) {
            from = self.last;
        }
        // Scanning new ground: leave a mark every STRIDE bytes.
        let scanned_to = self.every_stride.last().map_or(0, |m| m.offset);
        while offset - from.offset > STRIDE && from.offset >= scanned_to {
            let next = floor_char_boundary(text, from.offset + STRIDE);
            if next == from.offset {
                break;
            }
            from = advance(text, from, next, self.carriage_returns);
            self.every_stride.push(from);
        }
        let found = advance(text, from, offset, self.carriage_returns);
        self.last = found;
        found
    }
}

/// The mark of `to`, scanning `text` forward from `from`.
fn advance(text: &str, from: Mark, to: usize, carriage_returns: bool) -> Mark {
    let gap = &text.as_bytes()[from.offset..to];
    // A short run of ASCII without a line end (most spans: an id, a date,
    // an attribute value) moves the column by its length. Checked without
    // branching per byte, which the compiler vectorizes; the general path
    // below costs several calls however short the run.
    if gap.len() <= 64
        && !gap
            .iter()
            .fold(false, |other, &b| other | (b == b'\n') | (b == b'\r') | (b >= 0x80))
    {
        return Mark {
            offset: to,
            line: from.line,
            column: from.column + gap.len(),
        };
    }
    let mut lines = memchr::memchr_iter(b'\n', gap).count();
    let mut last_end = memchr::memrchr(b'\n', gap);
    // A carriage return not followed by a line feed ends a line too (XML 1.0
    // §2.11); one followed by a line feed is half of a CRLF, counted at the
    // line feed.
    if carriage_returns && memchr::memchr(b'\r', gap).is_some() {
        let bytes = text.as_bytes();
        for at in memchr::memchr_iter(b'\r', gap) {
            if bytes.get(from.offset + at + 1) != Some(&b'\n') {
                lines += 1;
                last_end = last_end.max(Some(at));
            }
        }
    }
    match last_end {
        None => Mark {
            offset: to,
            line: from.line,
            column: from.column + text[from.offset..to].chars().count(),
        },
        Some(last_end) => {
            let line_start = from.offset + last_end + 1;
            Mark {
                offset: to,
                line: from.line + lines,
                column: 1 + text[line_start..to].chars().count(),
            }
        }
    }
}

/// Why the bytes could not be turned into text. `offset` is into the text
/// that [`decode`] still returns (lossily decoded), so the finding can point
/// at the place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub offset: usize,
    pub message: String,
}

impl Source {
    pub fn new(text: String) -> Self {
        let carriage_returns = memchr::memchr(b'\r', text.as_bytes()).is_some();
        Source { text, carriage_returns }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// A new [`Locator`] of this text. Each keeps its own marks: one per
    /// pass over the document (the summary's, the findings'), each asked
    /// in document order, so each scans the text about once.
    pub fn locator(&self) -> Locator<'_> {
        Locator {
            text: &self.text,
            marks: Marks {
                every_stride: vec![START],
                last: START,
                carriage_returns: self.carriage_returns,
            },
        }
    }

    /// 1-based line and column (in Unicode scalar values) of a byte offset.
    /// Offsets inside a multi-byte character are moved back to its start.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.locator().line_col(offset)
    }
}

/// Where each line of `text` starts: after `\n`, `\r\n` or a lone `\r`,
/// as the locator counts lines. The one line index of the language server
/// and the web page, so that a line number means the same everywhere.
pub fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for at in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        let ends_line = bytes[at] == b'\n' || bytes.get(at + 1) != Some(&b'\n');
        if ends_line {
            starts.push(at + 1);
        }
    }
    starts
}

/// Turns byte ranges of one document into [`Span`]s. Cheapest when asked in
/// document order; any order costs at most a short scan per offset once the
/// text up to it has been scanned.
pub struct Locator<'s> {
    text: &'s str,
    marks: Marks,
}

impl Locator<'_> {
    /// A document rule's finding with its byte ranges turned into places.
    pub fn resolve(&mut self, pending: Pending, rule: RuleId, level: Level) -> Diagnostic<DocSpan> {
        let mut spans = Vec::with_capacity(1 + pending.secondary.len());
        spans.push(DocSpan {
            at: self.locate(pending.primary),
            is_primary: true,
            label: pending.primary_label,
        });
        for (range, label) in pending.secondary {
            spans.push(DocSpan {
                at: self.locate(range),
                is_primary: false,
                label: Some(label),
            });
        }
        let fix = pending.fix.map(|fix| Fix {
            title: fix.title,
            applicability: fix.applicability,
            edits: fix
                .edits
                .into_iter()
                .map(|edit| Edit {
                    at: self.locate(edit.at),
                    replacement: edit.replacement,
                })
                .collect(),
        });
        Diagnostic {
            rule,
            level,
            message: pending.message,
            spans,
            notes: pending.notes,
            help: pending.help,
            folded: pending.folded,
            fix,
        }
    }

    pub fn line_col(&mut self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(self.text, offset.min(self.text.len()));
        let mark = self.marks.locate(self.text, offset);
        (mark.line, mark.column)
    }

    /// The lines and columns of a byte range. Offsets inside a multi-byte
    /// character are moved back to its start.
    pub fn locate(&mut self, range: Range<usize>) -> Location {
        let byte_start = floor_char_boundary(self.text, range.start.min(self.text.len()));
        let byte_end = floor_char_boundary(self.text, range.end.clamp(byte_start, self.text.len()));
        let start = self.marks.locate(self.text, byte_start);
        // The end is found from the start: spans are short, and the marks
        // need no second search.
        let end = advance(self.text, start, byte_end, self.marks.carriage_returns);
        Location::between(start.place(), end.place())
    }
}

/// Turns the bytes of an XML document into UTF-8 text, as XML 1.0 Appendix F
/// describes: a byte order mark wins, then UTF-16 detected from the first
/// characters, then the encoding named in the XML declaration, else UTF-8.
/// A declaration that contradicts the byte order mark or the detected
/// UTF-16 is a fatal error (XML 1.0 §4.3.3).
///
/// Encoding names are XML's (the IANA charset names), not a web browser's:
/// ISO-8859-1 is decoded as ISO-8859-1 (byte 0x85 is U+0085, not the
/// windows-1252 "…" a browser would show) and US-ASCII admits no byte
/// above 0x7F. Other names are looked up as encoding_rs knows them.
///
/// On failure the error still comes with the best text that could be made
/// (so that the finding can show where the problem is).
pub fn decode(mut bytes: Vec<u8>) -> Result<String, (String, DecodeError)> {
    if let Some(start) = utf32(&bytes) {
        let message = format!(
            "unsupported encoding: the document starts with {start}, so it is UTF-32, which feedlint does not read (XML 1.0 §4.3.3 requires only UTF-8 and UTF-16); re-encode it as UTF-8"
        );
        return Err((String::new(), DecodeError { offset: 0, message }));
    }
    if let Some((encoding, bom_len)) = Encoding::for_bom(&bytes) {
        bytes.drain(..bom_len);
        let text = transcode(encoding, bytes)?;
        return agrees_with_declaration(text, encoding, "its byte order mark");
    }
    // Without a byte order mark, "<" and an ASCII character as 16-bit units
    // (XML 1.0 Appendix F looks for "<?"; a document without declaration
    // starts with "<" and a name).
    let utf16 = match bytes[..] {
        [0x3C, 0x00, 0x01..=0x7F, 0x00, ..] => Some(encoding_rs::UTF_16LE),
        [0x00, 0x3C, 0x00, 0x01..=0x7F, ..] => Some(encoding_rs::UTF_16BE),
        _ => None,
    };
    if let Some(encoding) = utf16 {
        let text = transcode(encoding, bytes)?;
        return agrees_with_declaration(text, encoding, "its first bytes");
    }
    let declared = declared_encoding(&bytes).map(|(label, _)| label.to_owned());
    let Some(label) = declared else {
        return transcode(encoding_rs::UTF_8, bytes);
    };
    decode_as(XmlEncoding::for_label(&label), &label, "the XML declaration", bytes)
}

/// Decodes bytes in the encoding a label names; `source` says what named
/// it, for the messages.
fn decode_as(
    encoding: Option<XmlEncoding>,
    label: &str,
    source: &str,
    bytes: Vec<u8>,
) -> Result<String, (String, DecodeError)> {
    let label = &*crate::base::shown::shorten(label);
    let fail = |message: String| {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        Err((text, DecodeError { offset: 0, message }))
    };
    match encoding {
        Some(XmlEncoding::Latin1) => Ok(latin1(bytes)),
        Some(XmlEncoding::Ascii) => match bytes.iter().position(|b| !b.is_ascii()) {
            None => Ok(String::from_utf8(bytes).expect("ASCII is UTF-8")),
            Some(offset) => {
                let message = format!(
                    "byte 0x{:02X} at byte {offset} is not US-ASCII, the encoding {source} names (declare the file's real encoding, or write the character as a reference such as &#233;)",
                    bytes[offset]
                );
                let text = String::from_utf8_lossy(&bytes).into_owned();
                Err((text, DecodeError { offset, message }))
            }
        },
        Some(XmlEncoding::Utf16) => fail(format!(
            "{source} names encoding \"{label}\", but the document is not UTF-16 (it has no byte order mark and its first characters are single bytes)"
        )),
        Some(XmlEncoding::Other(encoding)) if encoding == encoding_rs::REPLACEMENT || encoding == encoding_rs::X_USER_DEFINED => {
            fail(format!("unsupported encoding \"{label}\" in {source}"))
        }
        Some(XmlEncoding::Other(encoding)) => transcode(encoding, bytes),
        None => fail(format!("unknown encoding \"{label}\" in {source}")),
    }
}

/// ISO-8859-1 bytes as text: each byte is the code point of its value.
/// encoding_rs converts with vector instructions; text that is all ASCII
/// (most of a feed declared Latin-1) is the bytes themselves, not copied.
fn latin1(bytes: Vec<u8>) -> String {
    owned_text(bytes, encoding_rs::mem::decode_latin1)
}

/// What `decode` makes of `bytes`, owned: the bytes themselves where it
/// borrowed them (encoding_rs borrows only text that is already UTF-8),
/// so that text needing no change is not copied.
fn owned_text(bytes: Vec<u8>, decode: impl for<'b> FnOnce(&'b [u8]) -> Cow<'b, str>) -> String {
    match decode(&bytes) {
        Cow::Owned(text) => text,
        Cow::Borrowed(_) => String::from_utf8(bytes).expect("encoding_rs borrows only what is UTF-8"),
    }
}

/// Whether decoding may leave these bytes as they are: no byte order mark,
/// and UTF-8 (the default) or US-ASCII declared, or nothing. The decoded
/// text is then the file itself exactly when it is as long as the file
/// (valid UTF-8 decodes to itself; anything else fails or changes length).
pub fn may_be_its_own_text(bytes: &[u8]) -> bool {
    if Encoding::for_bom(bytes).is_some() {
        return false;
    }
    match declared_encoding(bytes) {
        None => true,
        Some((label, _)) => {
            XmlEncoding::for_label(label).is_some_and(|e| e.is(encoding_rs::UTF_8) || matches!(e, XmlEncoding::Ascii))
        }
    }
}

/// A document fetched over HTTP decoded as RFC 7303 §3.2 says: a byte order
/// mark wins, then the `charset` parameter of the `Content-Type` header,
/// then the XML declaration. When the header and the document disagree,
/// the note says which was used and why (the `charset-mismatch` finding);
/// a charset this reader does not know is ignored, with a note.
pub fn decode_transported(
    bytes: Vec<u8>,
    charset: &str,
) -> (Result<String, (String, DecodeError)>, Option<CharsetNote>) {
    let shown = crate::base::shown::shorten(charset);
    let header = XmlEncoding::for_label(charset);
    let utf16_start = matches!(
        bytes[..],
        [0x3C, 0x00, 0x01..=0x7F, 0x00, ..] | [0x00, 0x3C, 0x00, 0x01..=0x7F, ..]
    );
    let Some(header_encoding) = header.filter(|e| !e.is_unsupported()) else {
        let note = CharsetNote {
            declaration: declared_encoding(&bytes).map(|(_, offset)| offset),
            message: format!("the Content-Type header names charset \"{shown}\", which is not an encoding feedlint knows; it was ignored, and the document decoded by its own byte order mark or XML declaration"),
        };
        return (decode(bytes), Some(note));
    };
    if let Some((bom, _)) = Encoding::for_bom(&bytes) {
        let note = (!header_encoding.is(bom)).then(|| CharsetNote {
            declaration: None,
            message: format!("the Content-Type header names charset \"{shown}\", but the document starts with a {} byte order mark, which wins (RFC 7303 §3.2)", bom.name()),
        });
        return (decode(bytes), note);
    }
    let declared = declared_encoding(&bytes).map(|(label, offset)| (label.to_owned(), offset));
    let note = declared.as_ref().and_then(|(label, offset)| {
        let agrees = XmlEncoding::for_label(label).is_some_and(|declared| declared.same_as(&header_encoding));
        (!agrees).then(|| CharsetNote {
            declaration: Some(*offset),
            message: format!("the Content-Type header names charset \"{shown}\", but the XML declaration names \"{}\"; the document was decoded as \"{shown}\", because the header wins over the declaration (RFC 7303 §3.2)", crate::base::shown::shorten(label)),
        })
    });
    let text = match header_encoding {
        XmlEncoding::Utf16 if utf16_start => decode(bytes),
        XmlEncoding::Utf16 => transcode(encoding_rs::UTF_16BE, bytes),
        other => decode_as(Some(other), charset, "the Content-Type header", bytes),
    };
    (text, note)
}

/// Why a fetched document was decoded as it was, when its header and its
/// own bytes disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CharsetNote {
    /// The byte offset of the XML declaration's encoding name, if it has one.
    pub declaration: Option<usize>,
    pub message: String,
}

/// An encoding as an XML declaration names it.
enum XmlEncoding {
    /// ISO-8859-1 itself, which the web platform reads as windows-1252.
    Latin1,
    Ascii,
    /// UTF-16 in either byte order (and UCS-2, its subset).
    Utf16,
    Other(&'static Encoding),
}

impl XmlEncoding {
    /// Whether this reader cannot decode it at all.
    fn is_unsupported(&self) -> bool {
        matches!(self, XmlEncoding::Other(e) if *e == encoding_rs::REPLACEMENT || *e == encoding_rs::X_USER_DEFINED)
    }

    /// Whether a byte order mark's encoding is this one.
    fn is(&self, encoding: &'static Encoding) -> bool {
        match self {
            XmlEncoding::Utf16 => encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE,
            XmlEncoding::Other(e) => *e == encoding,
            XmlEncoding::Latin1 | XmlEncoding::Ascii => false,
        }
    }

    fn same_as(&self, other: &XmlEncoding) -> bool {
        match (self, other) {
            (XmlEncoding::Latin1, XmlEncoding::Latin1)
            | (XmlEncoding::Ascii, XmlEncoding::Ascii)
            | (XmlEncoding::Utf16, XmlEncoding::Utf16) => true,
            (XmlEncoding::Other(a), XmlEncoding::Other(b)) => a == b,
            _ => false,
        }
    }

    fn for_label(label: &str) -> Option<XmlEncoding> {
        let lower = label.trim().to_ascii_lowercase();
        let encoding = match lower.as_str() {
            "iso-8859-1" | "iso_8859-1" | "iso_8859-1:1987" | "latin1" | "l1" | "iso-ir-100" | "cp819" | "ibm819"
            | "csisolatin1" => XmlEncoding::Latin1,
            "us-ascii" | "ascii" | "us" | "ansi_x3.4-1968" | "ansi_x3.4-1986" | "iso-ir-6" | "iso646-us" | "cp367"
            | "ibm367" | "csascii" => XmlEncoding::Ascii,
            "iso-10646-ucs-2" | "ucs-2" | "csunicode" => XmlEncoding::Utf16,
            _ => match Encoding::for_label(lower.as_bytes())? {
                e if e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE => XmlEncoding::Utf16,
                e => XmlEncoding::Other(e),
            },
        };
        Some(encoding)
    }
}

/// A document whose encoding is known from its first bytes may still
/// declare one: the declaration must name the same (XML 1.0 §4.3.3).
fn agrees_with_declaration(
    text: String,
    encoding: &'static Encoding,
    known_from: &str,
) -> Result<String, (String, DecodeError)> {
    let Some((label, offset)) = declared_encoding(text.as_bytes()) else {
        return Ok(text);
    };
    let is_utf16 = encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE;
    let agrees = match XmlEncoding::for_label(label) {
        Some(XmlEncoding::Utf16) => is_utf16,
        Some(XmlEncoding::Other(declared)) => declared == encoding,
        _ => false,
    };
    if agrees {
        return Ok(text);
    }
    let label = crate::base::shown::shorten(label);
    let message = format!(
        "the XML declaration names encoding \"{label}\", but {known_from} say{} the document is {} (XML 1.0 §4.3.3: a fatal error)",
        if known_from.ends_with('s') { "" } else { "s" },
        if is_utf16 { "UTF-16" } else { encoding.name() }
    );
    Err((text, DecodeError { offset, message }))
}

/// UTF-8 is checked in place, without a copy: the text of a 100 MB feed is
/// the largest allocation of a run.
fn transcode(encoding: &'static Encoding, bytes: Vec<u8>) -> Result<String, (String, DecodeError)> {
    if encoding == encoding_rs::UTF_8 {
        return match String::from_utf8(bytes) {
            Ok(text) => Ok(text),
            Err(error) => {
                let offset = error.utf8_error().valid_up_to();
                let bytes = error.into_bytes();
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let message = format!(
                    "invalid UTF-8: byte 0x{:02X} at byte {offset} of the file does not start a valid UTF-8 sequence (declare the file's real encoding in the XML declaration, or re-encode it as UTF-8)",
                    bytes[offset]
                );
                Err((text, DecodeError { offset, message }))
            }
        };
    }
    let mut had_errors = false;
    let text = owned_text(bytes, |bytes| {
        let (text, errors) = encoding.decode_without_bom_handling(bytes);
        had_errors = errors;
        text
    });
    if had_errors {
        let offset = text.find('\u{FFFD}').unwrap_or(0);
        let message = format!(
            "the bytes are not valid {}: a sequence cannot be decoded",
            encoding.name()
        );
        return Err((text, DecodeError { offset, message }));
    }
    Ok(text)
}

/// The `encoding` pseudo-attribute of an ASCII-compatible XML declaration,
/// and its offset. The whole declaration is read, however much white space
/// pads it: it ends at its first `>`, which must follow `?` (quoted values
/// in a declaration hold no `>`), found in one linear scan.
pub(crate) fn declared_encoding(bytes: &[u8]) -> Option<(&str, usize)> {
    // `<?xml-stylesheet ...?>` is a processing instruction, not a declaration.
    if !bytes.starts_with(b"<?xml") || !bytes.get(5).is_some_and(|b| b.is_ascii_whitespace()) {
        return None;
    }
    let end = memchr::memchr(b'>', bytes)?;
    let decl = std::str::from_utf8(bytes[..end].strip_suffix(b"?")?).ok()?;
    let name = decl.find("encoding")? + "encoding".len();
    let rest = decl[name..].trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let value = &rest[1..];
    let offset = decl.len() - value.len();
    Some((&value[..value.find(quote)?], offset))
}

/// Whether the document is UTF-32 (by its byte order mark, or `<` as a
/// 32-bit unit), which XML processors need not read (XML 1.0 §4.3.3 asks
/// for UTF-8 and UTF-16) and which feedlint does not: said as such, not as
/// the NUL characters its bytes would make as UTF-16.
fn utf32(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0xFF, 0xFE, 0x00, 0x00, ..] => Some("a UTF-32 (little-endian) byte order mark"),
        [0x00, 0x00, 0xFE, 0xFF, ..] => Some("a UTF-32 (big-endian) byte order mark"),
        [0x3C, 0x00, 0x00, 0x00, ..] | [0x00, 0x00, 0x00, 0x3C, ..] => Some("\"<\" as a 32-bit unit"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_end_at_lf_crlf_and_a_lone_cr() {
        assert_eq!(line_starts("a\r\nb\rc\nd"), [0, 3, 5, 7]);
        assert_eq!(line_starts(""), [0]);
        assert_eq!(line_starts("\r\r\n"), [0, 1, 3]);
    }

    use super::*;

    fn transported(bytes: &[u8], charset: &str) -> (String, Option<String>) {
        let (text, note) = decode_transported(bytes.to_vec(), charset);
        (
            text.map_err(|(_, e)| e.message).unwrap_or_else(|e| e),
            note.map(|n| n.message),
        )
    }

    #[test]
    fn the_header_charset_comes_after_the_bom_and_before_the_declaration() {
        // Latin-1 bytes without a declaration: the header decides.
        let (text, note) = transported(b"<a>caf\xE9</a>", "ISO-8859-1");
        assert_eq!((text.as_str(), note), ("<a>café</a>", None));
        // The header wins over a declaration that says otherwise, with a note.
        let (text, note) = transported(b"<?xml version='1.0' encoding='utf-8'?><a>caf\xE9</a>", "iso-8859-1");
        assert!(text.ends_with("<a>café</a>"), "{text}");
        assert!(note.unwrap().contains("the header wins"));
        // Names of one encoding agree.
        let (_, note) = transported(b"<?xml version='1.0' encoding='UTF8'?><a/>", "utf-8");
        assert_eq!(note, None);
        // A byte order mark wins over the header.
        let (text, note) = transported(b"\xEF\xBB\xBF<a>\xC3\xA9</a>", "iso-8859-1");
        assert_eq!(text, "<a>é</a>");
        assert!(note.unwrap().contains("byte order mark"));
        // An unknown charset is ignored, with a note.
        let (text, note) = transported(b"<a>\xC3\xA9</a>", "klingon");
        assert_eq!(text, "<a>é</a>");
        assert!(note.unwrap().contains("not an encoding feedlint knows"));
        // Bytes the header's encoding cannot hold are still an error.
        let (message, _) = transported(b"<a>\xE9</a>", "us-ascii");
        assert!(
            message.contains("the encoding the Content-Type header names"),
            "{message}"
        );
    }

    #[test]
    fn line_col_counts_scalar_values() {
        let source = Source::new("ab\nçé<x/>\n".to_owned());
        assert_eq!(source.line_col(0), (1, 1));
        assert_eq!(source.line_col(3), (2, 1));
        // "çé" is four bytes, two columns.
        assert_eq!(source.line_col(7), (2, 3));
        // Inside a two-byte character: its start.
        assert_eq!(source.line_col(4), (2, 1));
    }

    #[test]
    fn lone_carriage_returns_end_lines_and_crlf_is_one_end() {
        // XML 1.0 §2.11: CR, LF and CRLF each end a line.
        let source = Source::new("a\rb\r\nc\nd\r".to_owned());
        assert_eq!(source.line_col(2), (2, 1), "after a lone CR");
        assert_eq!(source.line_col(4), (2, 3), "between CR and LF: still line 2");
        assert_eq!(source.line_col(5), (3, 1), "after CRLF");
        assert_eq!(source.line_col(7), (4, 1), "after LF");
        assert_eq!(source.line_col(9), (5, 1), "after a final CR");
        let long = "x\r".repeat(100);
        assert_eq!(
            Source::new(long.clone()).line_col(long.len()),
            (101, 1),
            "over the short-run shortcut"
        );
    }

    #[test]
    fn every_offset_in_order_gives_its_place() {
        // Short steps: the ASCII shortcut, and the general path where a
        // step holds a line end or a multi-byte character.
        let text = "<feed>\n  <id>tag:x,2024:é</id>\r\n\n<ü a='b'/>".repeat(5);
        let source = Source::new(text.clone());
        let mut locator = source.locator();
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            let before = &text[..offset];
            let line = before.matches('\n').count() + 1;
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            let column = text[line_start..offset].chars().count() + 1;
            assert_eq!(locator.line_col(offset), (line, column), "{offset}");
        }
    }

    #[test]
    fn any_order_of_offsets_gives_the_same_places() {
        // Long lines, short lines and multi-byte characters, over several strides.
        let mut text = String::new();
        for n in 0..3000 {
            text.push_str(&"é".repeat(n % 7));
            text.push_str(&"x".repeat(n * 13 % 97));
            text.push('\n');
        }
        text.push_str(&"ü".repeat(3 * STRIDE));
        let expected = |offset: usize| {
            let before = &text[..offset];
            let line = before.matches('\n').count() + 1;
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            (line, text[line_start..offset].chars().count() + 1)
        };
        let offsets: Vec<usize> = (0..=text.len())
            .step_by(997)
            .filter(|o| text.is_char_boundary(*o))
            .collect();
        let ascending = Source::new(text.clone());
        let descending = Source::new(text.clone());
        let shuffled = Source::new(text.clone());
        for &offset in &offsets {
            assert_eq!(ascending.line_col(offset), expected(offset), "{offset}");
        }
        for &offset in offsets.iter().rev() {
            assert_eq!(descending.line_col(offset), expected(offset), "{offset}");
        }
        for i in 0..offsets.len() {
            let offset = offsets[i * 7919 % offsets.len()];
            assert_eq!(shuffled.line_col(offset), expected(offset), "{offset}");
        }
    }

    #[test]
    fn xml_encoding_names_are_not_web_labels() {
        // ISO-8859-1 is not windows-1252: 0x85 is the C1 control NEL.
        let latin1 = b"<?xml version='1.0' encoding='ISO-8859-1'?><a>\x85</a>";
        assert!(decode(latin1.to_vec()).unwrap().contains("<a>\u{85}</a>"));
        let declared = b"<?xml version='1.0' encoding='windows-1252'?><a>\x85</a>";
        assert!(decode(declared.to_vec()).unwrap().contains("<a>\u{2026}</a>"));
        // US-ASCII admits no 8-bit byte, and the finding points at it.
        let ascii = b"<?xml version='1.0' encoding='US-ASCII'?><a>caf\xE9</a>";
        let (_, error) = decode(ascii.to_vec()).unwrap_err();
        assert_eq!(error.offset, ascii.len() - 5);
        assert!(error.message.contains("byte 0xE9"), "{}", error.message);
    }

    #[test]
    fn a_declaration_contradicting_the_byte_order_mark_is_fatal() {
        let text = b"\xEF\xBB\xBF<?xml version='1.0' encoding='iso-8859-1'?><x/>";
        let (decoded, error) = decode(text.to_vec()).unwrap_err();
        assert_eq!(&decoded[error.offset..error.offset + 10], "iso-8859-1");
        assert!(error.message.contains("byte order mark"), "{}", error.message);
        assert!(decode(b"\xEF\xBB\xBF<?xml version='1.0' encoding='UTF-8'?><x/>".to_vec()).is_ok());
        let mut utf16: Vec<u8> = vec![0xFE, 0xFF];
        utf16.extend(
            "<?xml version='1.0' encoding='utf-8'?><x/>"
                .encode_utf16()
                .flat_map(u16::to_be_bytes),
        );
        assert!(decode(utf16).is_err());
        let mut utf16: Vec<u8> = vec![0xFE, 0xFF];
        utf16.extend(
            "<?xml version='1.0' encoding='UTF-16'?><x/>"
                .encode_utf16()
                .flat_map(u16::to_be_bytes),
        );
        assert!(decode(utf16).is_ok());
    }

    #[test]
    fn latin1_declaration_is_transcoded() {
        let bytes = b"<?xml version='1.0' encoding='ISO-8859-1'?><a>caf\xE9</a>";
        assert!(decode(bytes.to_vec()).unwrap().ends_with("<a>café</a>"));
    }

    #[test]
    fn utf16_with_bom_and_without() {
        let text = "<?xml version=\"1.0\"?><a/>";
        let mut le: Vec<u8> = vec![0xFF, 0xFE];
        le.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(decode(le).unwrap(), text);
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(decode(be).unwrap(), text);
    }

    #[test]
    fn invalid_utf8_points_at_the_byte() {
        let (_, error) = decode(b"<a>ok\xFF</a>".to_vec()).unwrap_err();
        assert_eq!(error.offset, 5);
    }

    #[test]
    fn unknown_and_lying_declarations_fail() {
        let (_, error) = decode(b"<?xml version='1.0' encoding='klingon'?><a/>".to_vec()).unwrap_err();
        assert!(error.message.contains("unknown encoding \"klingon\""));
        let (_, error) = decode(b"<?xml version='1.0' encoding='UTF-16'?><a/>".to_vec()).unwrap_err();
        assert!(error.message.contains("not UTF-16"));
    }
}
