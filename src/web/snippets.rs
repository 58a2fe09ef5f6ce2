//! A finding's place in its document's source, as the page shows it: the
//! lines around it numbered with the span marked, and a fix as the diff of
//! the lines it changes. Every line is cut around its mark, so a feed on
//! one line of megabytes is a few lines on the page.

use maud::{html, Markup};

use crate::findings::fix::{Applicability, ByteRange, Fix};

/// A document's text with where its lines start, made once per document:
/// each finding's lines are then found in constant time.
pub struct Lines<'t> {
    pub text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    pub fn of(text: &'t str) -> Lines<'t> {
        Lines {
            text,
            starts: crate::findings::source::line_starts(text),
        }
    }

    /// How many lines the text has: a line end that ends the text starts
    /// no line of its own.
    pub fn count(&self) -> usize {
        match self.starts.last() {
            Some(&last) if last == self.text.len() && self.starts.len() > 1 => self.starts.len() - 1,
            _ => self.starts.len(),
        }
    }

    /// The 0-based line of a byte offset.
    fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset).saturating_sub(1)
    }

    /// The byte range of line `n` (0-based), without its line end.
    pub fn range(&self, n: usize) -> std::ops::Range<usize> {
        let start = self.starts[n];
        let next = self.starts.get(n + 1).copied().unwrap_or(self.text.len());
        // Without its line end: `\n`, `\r\n` or a lone `\r`.
        let line = &self.text[start..next];
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        start..start + line.len()
    }
}

/// Lines of context shown around a finding.
const CONTEXT: usize = 2;
/// The most characters of one line shown: a feed written on one line is
/// shown around the span, not whole.
const MOST_COLUMNS: usize = 160;
/// The lines shown at each end of a span that covers more lines than twice
/// this: its first and last lines, with how many lie between, as the
/// command line shows it. A start tag spread over millions of lines is one
/// finding, and its page is a few lines long.
const SPAN_END_LINES: usize = 2;

/// The lines around a span, numbered, with the span marked; of a long
/// span, its first and last lines.
pub fn source(lines: &Lines, start: usize, end: usize, label: Option<&str>) -> Markup {
    let text = lines.text;
    let (start, end) = (start.min(text.len()), end.min(text.len()).max(start.min(text.len())));
    let (first, last) = (lines.line_of(start), lines.line_of(end.saturating_sub(1).max(start)));
    let shown_first = first.saturating_sub(CONTEXT);
    let shown_last = (last + CONTEXT).min(lines.starts.len() - 1);
    // The lines left out of a long span, if any.
    let left_out = (last - first + 1 > 2 * SPAN_END_LINES).then(|| first + SPAN_END_LINES..last + 1 - SPAN_END_LINES);
    let shown = (shown_first..=shown_last).filter(|n| !left_out.as_ref().is_some_and(|out| out.contains(n)));
    // Read aloud, the box is its lines' text; the numbers, the mark's
    // caret and its label are said once, in words, before it.
    let said = match label {
        Some(label) => format!(
            "Source, lines {} to {}; marked on line {}: {label}.",
            shown_first + 1,
            shown_last + 1,
            first + 1
        ),
        None => format!(
            "Source, lines {} to {}; marked on line {}.",
            shown_first + 1,
            shown_last + 1,
            first + 1
        ),
    };
    html! {
        p.sr-only { (said) }
        pre.source tabindex="0" {
            code {
                @for n in shown {
                    @if left_out.as_ref().is_some_and(|out| out.end == n) {
                        @let count = left_out.as_ref().map_or(0, ExactSizeIterator::len);
                        span.line-number aria-hidden="true" { "…" }
                        span.cut { (count) " more lines of the span" }
                        "\n"
                    }
                    @let range = lines.range(n);
                    @let marked = start.max(range.start)..end.min(range.end);
                    @let in_span = n >= first && n <= last;
                    @let (line, column) = line_with_mark(text, range, in_span.then_some(marked));
                    @if in_span {
                        span.line-number aria-hidden="true" { (n + 1) }
                        (line)
                        "\n"
                    } @else {
                        // Context, left out on a phone, where each line
                        // wraps to several.
                        span.context {
                            span.line-number aria-hidden="true" { (n + 1) }
                            (line)
                            "\n"
                        }
                    }
                    // The label under the mark of the span's last line, as
                    // the command line writes it.
                    @if let (Some(label), true) = (label, n == last) {
                        span.label aria-hidden="true" { (" ".repeat(column)) "^ " (label) }
                        "\n"
                    }
                }
            }
        }
    }
}

/// One line of the source, the part `marked` covers (if any) in `<mark>`,
/// cut to [`MOST_COLUMNS`] around the mark.
/// Also the column (in characters shown) where the mark starts.
fn line_with_mark(text: &str, line: std::ops::Range<usize>, marked: Option<std::ops::Range<usize>>) -> (Markup, usize) {
    let floor = |at: usize| crate::text::snippet::floor_char_boundary(text, at);
    let (from, to) = match &marked {
        Some(mark) => {
            let center = mark.start.max(line.start);
            (
                floor(center.saturating_sub(MOST_COLUMNS / 2).max(line.start)),
                floor((center + MOST_COLUMNS).min(line.end)),
            )
        }
        None => (line.start, floor((line.start + MOST_COLUMNS).min(line.end))),
    };
    let cut_before = from > line.start;
    let cut_after = to < line.end;
    let (mark_start, mark_end) = match &marked {
        Some(mark) if mark.start <= mark.end => (floor(mark.start.clamp(from, to)), floor(mark.end.clamp(from, to))),
        _ => (to, to),
    };
    let column = usize::from(cut_before) + text[from..mark_start].chars().count();
    let markup = html! {
        @if cut_before { span.cut { "…" } }
        (&text[from..mark_start])
        @if marked.is_some() {
            mark { (&text[mark_start..mark_end]) @if mark_start == mark_end { " " } }
        }
        (&text[mark_end..to])
        @if cut_after { span.cut { "…" } }
    };
    (markup, column)
}

/// The most lines of a fix's diff shown, its context included.
const MOST_DIFF_LINES: usize = 24;

/// A fix as the diff of the lines it changes, with a line of context.
pub fn fix_diff(fix: &Fix<crate::findings::diagnostic::Location>, lines: &Lines) -> Markup {
    let text = lines.text;
    let Some(first) = fix.edits.iter().map(|e| e.at.byte_range().start).min() else {
        return html! {};
    };
    let last = fix.edits.iter().map(|e| e.at.byte_range().end).max().unwrap_or(first);
    let (from_line, to_line) = (
        lines.line_of(first).saturating_sub(1),
        (lines.line_of(last) + 1).min(lines.starts.len() - 1),
    );
    let applicability = match fix.applicability {
        Applicability::Safe => "safe to apply",
        Applicability::Unsafe => "changes meaning: review it",
    };
    if to_line - from_line >= MOST_DIFF_LINES {
        // A diff of a fix over a huge span would be as large as the span.
        return html! {
            details.fix open {
                summary { "Fix: " (fix.title) " " span.applicability { "(" (applicability) ")" } }
                p { "The fix changes lines " (lines.line_of(first) + 1) " to " (lines.line_of(last) + 1) ", too many to show here." }
            }
        };
    }
    let region = lines.starts[from_line]..lines.starts.get(to_line + 1).copied().unwrap_or(text.len());
    let old = &text[region.clone()];
    // The fix, moved into the region, applied as --fix applies it.
    let in_region = Fix {
        title: fix.title.clone(),
        applicability: fix.applicability,
        edits: fix
            .edits
            .iter()
            .map(|edit| edit.at.byte_range())
            .zip(&fix.edits)
            .filter(|(at, _)| at.start >= region.start && at.end <= region.end && at.start <= at.end)
            .map(|(at, edit)| crate::findings::fix::Edit {
                at: at.start - region.start..at.end - region.start,
                replacement: edit.replacement.clone(),
            })
            .collect(),
    };
    let (new, _) = crate::findings::fix::apply(old, std::iter::once(&in_region));
    let diff = similar::TextDiff::from_lines(old, new.as_str());
    html! {
        details.fix open {
            summary { "Fix: " (fix.title) " " span.applicability { "(" (applicability) ")" } }
            pre.diff tabindex="0" {
                code {
                    @for change in diff.iter_all_changes() {
                        @let (class, sign) = match change.tag() {
                            similar::ChangeTag::Delete => ("del", "-"),
                            similar::ChangeTag::Insert => ("ins", "+"),
                            similar::ChangeTag::Equal => ("same", " "),
                        };
                        span class=(class) { (sign) " " (cut(change.value().trim_end_matches(['\n', '\r']))) "\n" }
                    }
                }
            }
        }
    }
}

/// A line of a diff, cut to [`MOST_COLUMNS`] characters.
fn cut(line: &str) -> String {
    match line.char_indices().nth(MOST_COLUMNS) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_owned(),
    }
}
