//! Fixes: what a finding can change in its document to go away, applied by
//! `--fix`, shown by `--diff`, offered by the language server as code
//! actions. A fix is a set of edits to the document's text; it is offered
//! only where that text is the file's bytes (UTF-8 without a byte order
//! mark), so that its byte offsets are the file's.

use std::ops::Range;

/// Where an edit stands: a byte range of the document's text, as rules
/// write it or as a located finding keeps it.
pub trait ByteRange {
    fn byte_range(&self) -> Range<usize>;
}

impl ByteRange for Range<usize> {
    fn byte_range(&self) -> Range<usize> {
        self.clone()
    }
}

/// Whether applying a fix keeps what consumers see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Applicability {
    /// The meaning is preserved (`rel="prev"` becomes `rel="previous"`):
    /// `--fix` applies it.
    Safe,
    /// What consumers see changes (a link removed): only with
    /// `--unsafe-fixes`.
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// One edit: the bytes at `at` become `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit<S = Range<usize>> {
    pub at: S,
    pub replacement: String,
}

/// A fix as a rule makes it (`S` a byte range), or located in its document
/// (`S` a [`Location`](crate::findings::diagnostic::Location)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix<S = Range<usize>> {
    /// What it does, as an imperative: "Write rel=\"previous\"".
    pub title: String,
    pub applicability: Applicability,
    /// Edits that do not overlap.
    pub edits: Vec<Edit<S>>,
}

impl Fix {
    pub fn safe(title: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix {
            title: title.into(),
            applicability: Applicability::Safe,
            edits,
        }
    }

    pub fn unsafe_(title: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix {
            title: title.into(),
            applicability: Applicability::Unsafe,
            edits,
        }
    }
}

/// An edit that replaces `at` by `replacement`.
pub fn replace(at: Range<usize>, replacement: impl Into<String>) -> Edit {
    Edit {
        at,
        replacement: replacement.into(),
    }
}

/// An edit that removes an element, with the whitespace before it back to
/// the start of its line when nothing else stands there, and the line end
/// after it: the lines around it stay as they were. Only the spaces and
/// tabs next to the element are looked at, never the rest of its line: a
/// document written on one line may hold a million such elements.
pub fn remove_element(text: &str, element: Range<usize>) -> Edit {
    let before = text[..element.start].trim_end_matches([' ', '\t']);
    let after = &text[element.end..];
    let after_spaces = after.len() - after.trim_start_matches([' ', '\t']).len();
    let rest = &after[after_spaces..];
    let alone_on_line = before.is_empty() || before.ends_with(['\n', '\r']);
    let ends_line = rest.is_empty() || rest.starts_with(['\n', '\r']);
    let at = if alone_on_line && ends_line {
        let newline = if rest.starts_with("\r\n") {
            2
        } else {
            usize::from(!rest.is_empty())
        };
        before.len()..element.end + after_spaces + newline
    } else if !ends_line {
        // Something follows on the line: the spaces after the element go.
        element.start..element.end + after_spaces
    } else {
        // The element ends its line: the spaces before it go.
        before.len()..element.end
    };
    replace(at, "")
}

impl<S> Fix<S> {
    /// Whether the fix is applied under these settings.
    pub fn applies(&self, unsafe_fixes: bool) -> bool {
        self.applicability == Applicability::Safe || unsafe_fixes
    }
}

/// The text with the edits of `fixes` applied, in order of position; a fix
/// whose edits overlap an edit already taken is left for the next round.
/// Returns the new text and how many fixes were applied.
pub fn apply<'f, S: ByteRange + 'f>(text: &str, fixes: impl IntoIterator<Item = &'f Fix<S>>) -> (String, usize) {
    let mut taken: Vec<Range<usize>> = Vec::new();
    let mut edits: Vec<(Range<usize>, &str)> = Vec::new();
    let mut applied = 0;
    let mut fixes: Vec<&Fix<S>> = fixes.into_iter().collect();
    fixes.sort_by_key(|fix| fix.edits.iter().map(|e| e.at.byte_range().start).min());
    for fix in fixes {
        let ranges: Vec<Range<usize>> = fix.edits.iter().map(|e| e.at.byte_range()).collect();
        let overlaps = |a: &Range<usize>, b: &Range<usize>| a.start < b.end && b.start < a.end || a.start == b.start;
        if ranges.iter().any(|r| taken.iter().any(|t| overlaps(r, t))) {
            continue;
        }
        taken.extend(ranges.iter().cloned());
        edits.extend(ranges.into_iter().zip(fix.edits.iter().map(|e| e.replacement.as_str())));
        applied += 1;
    }
    edits.sort_by_key(|(range, _)| (range.start, range.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (range, replacement) in edits {
        out.push_str(&text[at..range.start]);
        out.push_str(replacement);
        at = range.end;
    }
    out.push_str(&text[at..]);
    (out, applied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removed_element_takes_its_line_with_it() {
        let text = "<a>\n  <b/>\n  <c/><d/>\n</a>";
        let b = text.find("<b/>").unwrap();
        assert_eq!(remove_element(text, b..b + 4).at, 4..11);
        // Not alone on its line: the element and the spaces that part it
        // from what stays.
        let d = text.find("<d/>").unwrap();
        assert_eq!(remove_element(text, d..d + 4).at, d..d + 4);
        let text = "  <b/> <!-- c -->\n";
        assert_eq!(&text[remove_element(text, 2..6).at], "<b/> ");
        let text = "<a/>  <b/>\n";
        assert_eq!(&text[remove_element(text, 6..10).at], "  <b/>");
        // At the end of a text without a final line end.
        let text = "<a>\n  <b/>";
        assert_eq!(&text[remove_element(text, 6..10).at], "  <b/>");
        let crlf = "<a>\r\n  <b/>\r\n</a>";
        let b = crlf.find("<b/>").unwrap();
        let edit = remove_element(crlf, b..b + 4);
        assert_eq!(&crlf[..edit.at.start], "<a>\r\n");
        assert_eq!(&crlf[edit.at.end..], "</a>");
    }
}
