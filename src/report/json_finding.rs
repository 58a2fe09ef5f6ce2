//! One finding as the JSON format writes it, by hand: the same bytes as
//! `serde_json`'s pretty printer over `JsonDiagnostic`, without its
//! escaping loop. That loop reads a string byte by byte through a table,
//! and was 8% of the instructions of a run over the bench's RSS corpus
//! (80,000 findings, 90 MB of JSON, most of it notes and helps with
//! nothing to escape); here controls are told by one pass the compiler
//! vectorizes, quotes and backslashes found by memchr, and the runs
//! between copied whole: 3% fewer instructions for the whole run (valgrind,
//! 200 of its documents). The JSON format's tests hold the two writers to
//! each other, finding by finding and report by report.

use super::spec_of;
use crate::findings::diagnostic::{Diagnostic, Span};
use crate::report::Report;

/// A writer of one JSON value after another, indented as the pretty
/// printer indents, two spaces a level.
pub(super) struct Writer<'o> {
    out: &'o mut Vec<u8>,
    level: usize,
}

impl<'o> Writer<'o> {
    pub(super) fn new(out: &'o mut Vec<u8>, level: usize) -> Self {
        Writer { out, level }
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

    fn key(&mut self, key: &str, first: bool) {
        self.line(first);
        self.string(key);
        self.out.extend_from_slice(b": ");
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

    fn optional(&mut self, text: Option<&str>) {
        match text {
            Some(text) => self.string(text),
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
        self.string(&report.documents[span.doc].name);
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
        self.optional(span.label.as_deref());
        self.level -= 1;
        self.line(true);
        self.out.push(b'}');
    }

    /// A finding, as `JsonDiagnostic` is written.
    pub(super) fn finding(&mut self, report: &Report, d: &Diagnostic) {
        self.out.push(b'{');
        self.level += 1;
        self.key("rule", true);
        self.string(d.rule.as_str());
        self.key("level", false);
        self.string(d.level.as_str());
        self.key("message", false);
        self.string(&d.message);
        self.key("file", false);
        self.string(&report.documents[d.primary().doc].name);
        self.key("spans", false);
        self.list(&d.spans, |w, span| w.span(report, span));
        self.key("notes", false);
        self.list(&d.notes, |w, note| w.string(note));
        self.key("help", false);
        self.optional(d.help.as_deref());
        self.key("spec", false);
        self.string(spec_of(d));
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
                self.string(fix.applicability.as_str());
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

/// `text` as a JSON string, escaped as `serde_json` escapes: `"`, `\`,
/// and the controls below U+0020 (`\b \t \n \f \r` by name, the others as
/// `\u00XX`), nothing else.
pub(super) fn escaped_into(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    out.push(b'"');
    // Controls are told by one pass without an early exit, which the
    // compiler vectorizes; without them (a finding's texts are made
    // showable), quotes and backslashes are found by memchr.
    let has_control = bytes.iter().fold(false, |any, &b| any | (b < 0x20));
    if !has_control {
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
            start = at + 1;
        }
        out.extend_from_slice(&bytes[start..]);
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let every_byte: String = (0u8..0x80).map(char::from).collect();
        for text in [
            "",
            "plain text",
            "a \"quote\" and \\ back",
            "é, 😀, \u{2028}",
            &every_byte,
        ] {
            let mut ours = Vec::new();
            escaped_into(&mut ours, text);
            assert_eq!(ours, serde_json::to_vec(text).unwrap(), "{text:?}");
        }
    }
}
