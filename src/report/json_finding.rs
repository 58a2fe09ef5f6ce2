//! One finding as the JSON format writes it, by hand: the same bytes as
//! `serde_json`'s pretty printer over `JsonDiagnostic`, without its
//! escaping loop. That loop reads a string byte by byte through a table,
//! and was 8% of the instructions of a run over the bench's RSS corpus
//! (80,000 findings, 90 MB of JSON, most of it notes and helps with
//! nothing to escape); here controls are told by one pass the compiler
//! vectorizes, quotes and backslashes found by memchr, and the runs
//! between copied whole: 3% fewer instructions for the whole run (valgrind,
//! 200 of its documents). Keys are written as they are, and a writer
//! escapes each static text (a rule's notes, help and spec, a third of a
//! finding's bytes) and each file name once: 6% fewer again. The JSON
//! format's tests hold the two writers to each other, finding by finding
//! and report by report.

use super::spec_of;
use crate::findings::diagnostic::{Diagnostic, Span, Text};
use crate::report::Report;

/// A writer of one JSON value after another, indented as the pretty
/// printer indents, two spaces a level.
pub(super) struct Writer<'o> {
    out: &'o mut Vec<u8>,
    level: usize,
    /// The document whose name was last written, and where in `out` it
    /// stands escaped: a finding names its file, then each span names it
    /// again.
    last_file: Option<(usize, std::ops::Range<usize>)>,
    /// Texts that live for the whole program (the rules' notes, helps and
    /// specs), escaped once for all the findings this writer writes.
    statics: StaticTexts,
}

/// A small cache of escaped `&'static str`s, told apart by address and
/// length: a static text never changes, so one seen again is the same.
/// A finding's notes, help and spec are such texts in most findings and
/// the third of its bytes; copied, not escaped again, they cost a copy.
struct StaticTexts {
    /// Slot by slot: the text's address and length, and where its escaped
    /// form stands in `escaped`.
    slots: [Option<(usize, usize, std::ops::Range<usize>)>; 64],
    escaped: Vec<u8>,
}

impl Default for StaticTexts {
    fn default() -> Self {
        StaticTexts {
            slots: [const { None }; 64],
            escaped: Vec::new(),
        }
    }
}

impl StaticTexts {
    /// Room for the escaped texts of a few dozen rules; past it, texts
    /// are escaped each time.
    const MOST: usize = 64 * 1024;

    fn slot(text: &'static str) -> usize {
        let address = text.as_ptr() as usize;
        (address >> 3 ^ text.len()) % 64
    }

    fn get(&self, text: &'static str) -> Option<&[u8]> {
        match &self.slots[Self::slot(text)] {
            Some((address, len, at)) if *address == text.as_ptr() as usize && *len == text.len() => {
                Some(&self.escaped[at.clone()])
            }
            _ => None,
        }
    }

    fn keep(&mut self, text: &'static str, escaped: &[u8]) {
        if self.escaped.len() + escaped.len() > Self::MOST {
            return;
        }
        let start = self.escaped.len();
        self.escaped.extend_from_slice(escaped);
        self.slots[Self::slot(text)] = Some((text.as_ptr() as usize, text.len(), start..self.escaped.len()));
    }
}

impl<'o> Writer<'o> {
    pub(super) fn new(out: &'o mut Vec<u8>, level: usize) -> Self {
        Writer {
            out,
            level,
            last_file: None,
            statics: StaticTexts::default(),
        }
    }

    /// Bytes written as they are (what the caller puts between findings).
    pub(super) fn raw(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
    }

    /// A text that lives for the program, escaped once (see [`StaticTexts`]).
    fn static_string(&mut self, text: &'static str) {
        match self.statics.get(text) {
            Some(escaped) => self.out.extend_from_slice(escaped),
            None => {
                let start = self.out.len();
                self.string(text);
                self.statics.keep(text, &self.out[start..]);
            }
        }
    }

    /// A finding's text: escaped once a writer where it is static.
    fn text(&mut self, text: &Text) {
        match text {
            std::borrow::Cow::Borrowed(text) => self.static_string(text),
            std::borrow::Cow::Owned(text) => self.string(text),
        }
    }

    /// The name of document `doc`, escaped once a finding.
    fn file(&mut self, report: &Report, doc: usize) {
        match &self.last_file {
            Some((last, at)) if *last == doc => self.out.extend_from_within(at.clone()),
            _ => {
                let start = self.out.len();
                self.string(&report.documents[doc].name);
                self.last_file = Some((doc, start..self.out.len()));
            }
        }
    }

    /// A line end and the indentation of the current level, after a
    /// comma unless `first`.
    fn line(&mut self, first: bool) {
        /// Deeper than a finding goes (five levels below where it starts).
        const SPACES: &[u8] = b"                                ";
        if !first {
            self.out.push(b',');
        }
        self.out.push(b'\n');
        let indent = 2 * self.level;
        match SPACES.get(..indent) {
            Some(spaces) => self.out.extend_from_slice(spaces),
            None => self.out.extend(std::iter::repeat_n(b' ', indent)),
        }
    }

    /// A key of the format: written as it is, since none has anything to
    /// escape (a finding has about twenty, and escaping them was a fifth
    /// of the writer's time).
    fn key(&mut self, key: &str, first: bool) {
        self.line(first);
        self.verbatim(key);
        self.out.extend_from_slice(b": ");
    }

    /// A string with nothing to escape (a key, a rule id, a level), as it is.
    fn verbatim(&mut self, text: &str) {
        debug_assert!(!text.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20), "{text:?}");
        self.out.push(b'"');
        self.out.extend_from_slice(text.as_bytes());
        self.out.push(b'"');
    }

    fn string(&mut self, text: &str) {
        escaped_into(self.out, text);
    }

    fn number(&mut self, mut n: usize) {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        loop {
            at -= 1;
            // A digit: n % 10 is below 10.
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.out.extend_from_slice(&digits[at..]);
    }

    fn optional(&mut self, text: Option<&Text>) {
        match text {
            Some(text) => self.text(text),
            None => self.out.extend_from_slice(b"null"),
        }
    }

    /// `[`, each item as `item` writes it on a line of its own, `]`; an
    /// empty list is `[]`.
    fn list<T>(&mut self, items: &[T], mut item: impl FnMut(&mut Self, &T)) {
        self.out.push(b'[');
        self.level += 1;
        for (i, value) in items.iter().enumerate() {
            self.line(i == 0);
            item(self, value);
        }
        self.level -= 1;
        if !items.is_empty() {
            self.line(true);
        }
        self.out.push(b']');
    }

    /// Where a span or an edit is: its bytes, lines and columns, the
    /// first key first in its object where `first`.
    fn place(&mut self, numbers: [usize; 6], first: bool) {
        const KEYS: [&str; 6] = [
            "byte_start",
            "byte_end",
            "line_start",
            "column_start",
            "line_end",
            "column_end",
        ];
        for (i, (key, n)) in KEYS.into_iter().zip(numbers).enumerate() {
            self.key(key, first && i == 0);
            self.number(n);
        }
    }

    fn span(&mut self, report: &Report, span: &Span) {
        self.out.push(b'{');
        self.level += 1;
        self.key("file", true);
        self.file(report, span.doc);
        self.place(
            [
                span.byte_start,
                span.byte_end,
                span.line_start,
                span.column_start,
                span.line_end,
                span.column_end,
            ],
            false,
        );
        self.key("is_primary", false);
        self.out
            .extend_from_slice(if span.is_primary { b"true" } else { b"false" });
        self.key("label", false);
        self.optional(span.label.as_ref());
        self.level -= 1;
        self.line(true);
        self.out.push(b'}');
    }

    /// A finding, as `JsonDiagnostic` is written.
    pub(super) fn finding(&mut self, report: &Report, d: &Diagnostic) {
        self.out.push(b'{');
        self.level += 1;
        self.key("rule", true);
        self.verbatim(d.rule.as_str());
        self.key("level", false);
        self.verbatim(d.level.as_str());
        self.key("message", false);
        self.string(&d.message);
        self.key("file", false);
        self.file(report, d.primary().doc);
        self.key("spans", false);
        self.list(&d.spans, |w, span| w.span(report, span));
        self.key("notes", false);
        self.list(&d.notes, |w, note| w.text(note));
        self.key("help", false);
        self.optional(d.help.as_ref());
        self.key("spec", false);
        self.static_string(spec_of(d));
        self.key("url", false);
        // A URL and a rule id: nothing in them is escaped.
        self.out.push(b'"');
        self.out.extend_from_slice(super::RULE_DOC_BASE.as_bytes());
        self.out.extend_from_slice(d.rule.as_str().as_bytes());
        self.out.extend_from_slice(b".md\"");
        self.key("folded", false);
        self.number(d.folded);
        self.key("fix", false);
        match &d.fix {
            None => self.out.extend_from_slice(b"null"),
            Some(fix) => {
                self.out.push(b'{');
                self.level += 1;
                self.key("title", true);
                self.string(&fix.title);
                self.key("applicability", false);
                self.verbatim(fix.applicability.as_str());
                self.key("edits", false);
                let doc = d.primary().doc;
                self.list(&fix.edits, |w, edit| {
                    let at = edit.at.in_doc(doc);
                    w.out.push(b'{');
                    w.level += 1;
                    w.place(
                        [
                            at.byte_start,
                            at.byte_end,
                            at.line_start,
                            at.column_start,
                            at.line_end,
                            at.column_end,
                        ],
                        true,
                    );
                    w.key("replacement", false);
                    w.string(&edit.replacement);
                    w.level -= 1;
                    w.line(true);
                    w.out.push(b'}');
                });
                self.level -= 1;
                self.line(true);
                self.out.push(b'}');
            }
        }
        self.level -= 1;
        self.line(true);
        self.out.push(b'}');
    }
}

/// `text` as a JSON string, escaped as `serde_json` escapes (`"`, `\`,
/// and the controls below U+0020: `\b \t \n \f \r` by name, the others as
/// `\u00XX`), and the line and paragraph separators as `\u2028` and
/// `\u2029`, as [`SeparatorsEscaped`](super::SeparatorsEscaped) writes them.
pub(super) fn escaped_into(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    out.push(b'"');
    // Controls and the first byte of the separators are told by one pass
    // without an early exit, which the compiler vectorizes; without them
    // (a finding's texts are made showable), quotes and backslashes are
    // found by memchr.
    let has_special = bytes.iter().fold(false, |any, &b| any | (b < 0x20) | (b == 0xE2));
    if !has_special {
        let mut start = 0;
        for at in memchr::memchr2_iter(b'"', b'\\', bytes) {
            out.extend_from_slice(&bytes[start..at]);
            out.extend_from_slice(&[b'\\', bytes[at]]);
            start = at + 1;
        }
        out.extend_from_slice(&bytes[start..]);
    } else {
        let mut start = 0;
        for (at, &b) in bytes.iter().enumerate() {
            let escape: &[u8] = match b {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                0x08 => b"\\b",
                0x0C => b"\\f",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0x00..=0x1F => b"",
                0xE2 => match bytes.get(at + 1..at + 3) {
                    Some([0x80, 0xA8]) => b"\\u2028",
                    Some([0x80, 0xA9]) => b"\\u2029",
                    _ => continue,
                },
                _ => continue,
            };
            out.extend_from_slice(&bytes[start..at]);
            if escape.is_empty() {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 0xF)],
                ]);
            } else {
                out.extend_from_slice(escape);
            }
            // A separator is three bytes.
            start = at + if b == 0xE2 { 3 } else { 1 };
        }
        out.extend_from_slice(&bytes[start..]);
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    #[test]
    fn strings_are_escaped_as_the_json_format_escapes_them() {
        let every_byte: String = (0u8..0x80).map(char::from).collect();
        for text in [
            "",
            "plain text",
            "a \"quote\" and \\ back",
            "é, 😀, \u{2028}, \u{2029}, \u{2027}\u{202A}, \u{20AC}\n",
            "\u{2028}",
            "ends with \u{2029}",
            &every_byte,
        ] {
            let mut ours = Vec::new();
            escaped_into(&mut ours, text);
            let mut theirs = Vec::new();
            crate::report::SeparatorsEscaped::new(&mut theirs)
                .write_all(&serde_json::to_vec(text).unwrap())
                .unwrap();
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs),
                "{text:?}"
            );
        }
    }
}
