//! What the text format shows of a document: a window of at most
//! [`WIDTH`] columns of the line around each place a finding points at,
//! cut out while the document's text is at hand. A run keeps these windows,
//! never the documents' text, so the text format costs memory in proportion
//! to the findings (and the places set rules may point at), and a finding
//! on a 20 MB one-line feed prints 120 columns, not 20 MB.
//!
//! The windows of one finding are laid out as a small file of their own,
//! one window a line, which [`SnippetFile`] presents to codespan-reporting
//! with the real line and column numbers.

use std::ops::Range;

use codespan_reporting::files::{Error, Files};

/// The most columns of a line shown, ellipses included.
pub const WIDTH: usize = 120;

/// Columns kept before the place when the line has to be cut on the left.
const BEFORE: usize = 40;

const ELLIPSIS: &str = "…";

/// A cut-out piece of one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in Unicode scalar values) of the window's first
    /// character in the line.
    pub column: usize,
    /// Byte offset of the window's first character in the document.
    pub start: usize,
    /// The text, without ellipses or line break.
    pub text: String,
    /// Whether the line goes on before and after the window.
    pub cut_left: bool,
    pub cut_right: bool,
}

impl Window {
    fn end(&self) -> usize {
        self.start + self.text.len()
    }

    fn holds(&self, offset: usize) -> bool {
        (self.start..=self.end()).contains(&offset)
    }
}

/// The windows of one document, sorted by start.
#[derive(Debug, Clone, Default)]
pub struct Snippets {
    windows: Vec<Window>,
}

/// A place to show: its byte offset, 1-based line and column.
#[derive(Debug, Clone, Copy)]
pub struct Place {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

impl Place {
    /// The start of a text.
    pub const START: Place = Place {
        offset: 0,
        line: 1,
        column: 1,
    };
}

impl Snippets {
    /// Cuts the windows around `places` out of `text`. Places close to
    /// each other on a line share a window.
    pub fn cut(text: &str, places: impl IntoIterator<Item = Place>) -> Self {
        let mut places: Vec<Place> = places.into_iter().collect();
        places.sort_by_key(|p| p.offset);
        let mut windows: Vec<Window> = Vec::new();
        for place in places {
            if windows
                .last()
                .is_some_and(|w| w.line == place.line && w.holds(place.offset))
            {
                continue;
            }
            windows.push(window(text, place));
        }
        Snippets { windows }
    }

    /// The window that holds `offset`.
    pub fn window_at(&self, offset: usize) -> Option<&Window> {
        let after = self.windows.partition_point(|w| w.start <= offset);
        self.windows[..after].last().filter(|w| w.holds(offset))
    }

    /// The window of the line after `window`'s, if one was cut.
    pub fn line_after(&self, window: &Window) -> Option<&Window> {
        let after = self.windows.partition_point(|w| w.start <= window.start);
        self.windows.get(after).filter(|w| w.line == window.line + 1)
    }

    pub fn len(&self) -> usize {
        self.windows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.windows.is_empty()
    }
}

/// The window of the line of `place`: the line from its start when the
/// place is near it, else from [`BEFORE`] columns before the place; at most
/// [`WIDTH`] columns.
fn window(text: &str, place: Place) -> Window {
    let offset = floor_char_boundary(text, place.offset.min(text.len()));
    // Never more than WIDTH characters are looked at, either way: on a feed
    // written on one long line, a scan to the line's ends per place would
    // be quadratic. The column says how far back the line starts.
    let mut from = offset.saturating_sub(4 * WIDTH);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let before = &text[from..offset];
    let (back, cut_left) = if place.column <= WIDTH - BEFORE {
        (place.column - 1, false)
    } else {
        (BEFORE - 1, true)
    };
    let start = before
        .char_indices()
        .rev()
        .take(back)
        .last()
        .map_or(offset, |(i, _)| offset - before.len() + i);
    let column = place.column - text[start..offset].chars().count();
    let room = WIDTH - usize::from(cut_left) - 1;
    let rest = &text[start..];
    let (end, cut_right) = match rest
        .char_indices()
        .take(room + 1)
        .find(|(_, c)| matches!(c, '\n' | '\r'))
    {
        Some((i, _)) => (i, false),
        None => match rest.char_indices().nth(room) {
            Some((i, _)) => (i, true),
            None => (rest.len(), false),
        },
    };
    Window {
        line: place.line,
        column,
        start,
        text: rest[..end].to_owned(),
        cut_left,
        cut_right,
    }
}

/// `offset`, moved back to the start of the character it falls in.
pub(crate) fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The windows one finding needs from one document, as a file of their
/// own: one window a line, ellipses where the line was cut. Where lines
/// between two windows are not kept, two empty lines stand for them, so that
/// codespan-reporting marks the gap (`·`) instead of showing the windows as
/// neighbours.
pub struct SnippetFile<'a> {
    name: std::borrow::Cow<'a, str>,
    source: String,
    lines: Vec<Line>,
    /// The windows, and the index of each one's line.
    windows: Vec<(&'a Window, usize)>,
}

/// One line of a [`SnippetFile`].
struct Line {
    /// Where it starts in the file (at its ellipsis, if any).
    start: usize,
    /// Where the window's text starts in the file.
    text_at: usize,
    /// The real line number, and the real column of the window's text.
    number: usize,
    column: usize,
    /// The characters of the window shown escaped, in order.
    escapes: Vec<Escape>,
}

/// A character of a document written as `\u{...}` in a snippet: a feed's
/// ESC, BEL, C1 or bidirectional controls would otherwise reach the
/// terminal, which obeys them (retitling it, clearing the screen, hiding
/// or reordering findings).
#[derive(Debug, Clone)]
struct Escape {
    /// Where the character is in the window's text, and its length there.
    at: usize,
    len: usize,
    /// Where its escape is in the file, and how many characters it has.
    shown: Range<usize>,
    shown_chars: usize,
}

/// Whether a snippet shows `c` escaped. Tabs are shown as the spaces they
/// stand for.
fn escaped_in_snippets(c: char) -> bool {
    c != '\t' && crate::base::shown::hides_itself(c)
}

/// Pushes `text` onto `source`, its hiding characters escaped; returns
/// where each escape went.
fn push_shown(source: &mut String, text: &str) -> Vec<Escape> {
    if !text.chars().any(escaped_in_snippets) {
        source.push_str(text);
        return Vec::new();
    }
    let mut escapes = Vec::new();
    for (at, c) in text.char_indices() {
        if escaped_in_snippets(c) {
            let start = source.len();
            crate::base::shown::push_visible(source, c);
            escapes.push(Escape {
                at,
                len: c.len_utf8(),
                shown: start..source.len(),
                shown_chars: source[start..].chars().count(),
            });
        } else {
            source.push(c);
        }
    }
    escapes
}

impl<'a> SnippetFile<'a> {
    /// The file of `windows` (in document order, without repeats).
    pub fn new(name: &'a str, windows: Vec<&'a Window>) -> Self {
        // A file name shows what it holds, as a quoted value does.
        let name = crate::base::shown::visible(name);
        let mut source = String::new();
        let mut lines = Vec::with_capacity(windows.len());
        let mut windows_of_lines = Vec::with_capacity(windows.len());
        let mut previous: Option<usize> = None;
        for window in windows {
            if previous.is_some_and(|line| line + 1 < window.line) {
                for _ in 0..2 {
                    lines.push(Line {
                        start: source.len(),
                        text_at: source.len(),
                        number: window.line - 1,
                        column: 1,
                        escapes: Vec::new(),
                    });
                    source.push('\n');
                }
            }
            previous = Some(window.line);
            let start = source.len();
            if window.cut_left {
                source.push_str(ELLIPSIS);
            }
            windows_of_lines.push((window, lines.len()));
            let text_at = source.len();
            let escapes = push_shown(&mut source, &window.text);
            lines.push(Line {
                start,
                text_at,
                number: window.line,
                column: window.column,
                escapes,
            });
            if window.cut_right {
                source.push_str(ELLIPSIS);
            }
            source.push('\n');
        }
        SnippetFile {
            name,
            source,
            lines,
            windows: windows_of_lines,
        }
    }

    /// Where a byte range of the document is in this file: clamped to the
    /// window that holds its start (a range running past the window's end
    /// stops there), or to the window of its end, for a range whose start
    /// is not shown.
    pub fn range(&self, range: Range<usize>) -> Option<Range<usize>> {
        let place = |offset: usize| {
            self.windows.iter().find(|(w, _)| w.holds(offset)).map(|&(w, line)| {
                let line = &self.lines[line];
                let within = offset - w.start;
                // Each escape before the place moves it on.
                let moved: usize = line
                    .escapes
                    .iter()
                    .take_while(|e| e.at < within)
                    .map(|e| e.shown.len() - e.len)
                    .sum();
                (w, line.text_at + within + moved)
            })
        };
        let (window, start) = place(range.start)?;
        let end = match place(range.end) {
            Some((other, end)) if std::ptr::eq(other, window) || other.start > window.start => end,
            _ => start + (window.end() - range.start).min(range.end - range.start),
        };
        Some(start..end.max(start))
    }

    fn line_of(&self, byte_index: usize) -> usize {
        self.lines
            .partition_point(|line| line.start <= byte_index)
            .saturating_sub(1)
    }

    fn line(&self, line_index: usize) -> Result<&Line, Error> {
        self.lines.get(line_index).ok_or(Error::LineTooLarge {
            given: line_index,
            max: self.lines.len(),
        })
    }
}

/// The snippet files of one finding (one per document its spans are in),
/// for codespan-reporting; file ids are indices.
#[derive(Default)]
pub struct SnippetFiles<'a> {
    pub files: Vec<SnippetFile<'a>>,
}

impl<'a> SnippetFiles<'a> {
    fn file(&self, id: usize) -> Result<&SnippetFile<'a>, Error> {
        self.files.get(id).ok_or(Error::FileMissing)
    }
}

impl<'a> Files<'a> for SnippetFiles<'a> {
    type FileId = usize;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<&'a str, Error> {
        Ok(&self.file(id)?.name)
    }

    fn source(&'a self, id: usize) -> Result<&'a str, Error> {
        Ok(&self.file(id)?.source)
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, Error> {
        Ok(self.file(id)?.line_of(byte_index))
    }

    fn line_number(&'a self, id: usize, line_index: usize) -> Result<usize, Error> {
        Ok(self.file(id)?.line(line_index)?.number)
    }

    fn column_number(&'a self, id: usize, line_index: usize, byte_index: usize) -> Result<usize, Error> {
        let file = self.file(id)?;
        let line = file.line(line_index)?;
        let within = file
            .source
            .get(line.text_at..byte_index.max(line.text_at))
            .unwrap_or_default();
        // An escape counts as the one character it stands for.
        let escaped: usize = line
            .escapes
            .iter()
            .take_while(|e| e.shown.end <= byte_index)
            .map(|e| e.shown_chars - 1)
            .sum();
        Ok(line.column + within.chars().count() - escaped)
    }

    fn line_range(&'a self, id: usize, line_index: usize) -> Result<Range<usize>, Error> {
        let file = self.file(id)?;
        let start = file.line(line_index)?.start;
        let end = file
            .lines
            .get(line_index + 1)
            .map_or(file.source.len(), |next| next.start);
        Ok(start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(text: &str, offset: usize) -> Place {
        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        Place {
            offset,
            line: 1 + text[..offset].matches('\n').count(),
            column: 1 + text[line_start..offset].chars().count(),
        }
    }

    #[test]
    fn a_short_line_is_shown_whole() {
        let text = "<feed>\n  <id>x</id>\n</feed>";
        let snippets = Snippets::cut(text, [place(text, 13)]);
        let window = snippets.window_at(13).unwrap();
        assert_eq!(
            (window.line, window.column, window.text.as_str()),
            (2, 1, "  <id>x</id>")
        );
        assert!(!window.cut_left && !window.cut_right);
    }

    #[test]
    fn a_long_line_is_cut_around_the_place() {
        let text = format!("<feed>{}<id>é</id>{}</feed>", "a".repeat(10_000), "b".repeat(10_000));
        let at = text.find("<id>").unwrap();
        let snippets = Snippets::cut(&text, [place(&text, at)]);
        let window = snippets.window_at(at).unwrap();
        assert!(window.cut_left && window.cut_right);
        assert_eq!(window.text.chars().count(), WIDTH - 2);
        assert_eq!(
            window.column + window.text[..at - window.start].chars().count(),
            1 + 6 + 10_000
        );
        let file = SnippetFile::new("f", vec![window]);
        let range = file.range(at..at + 4).unwrap();
        assert_eq!(&file.source[range], "<id>");
        assert_eq!(file.source.chars().count(), WIDTH + 1, "120 columns and the line break");
        let start = file.range(at..at).unwrap().start;
        let files = SnippetFiles { files: vec![file] };
        assert_eq!(files.column_number(0, 0, start).unwrap(), 10_007);
    }

    #[test]
    fn places_near_each_other_share_a_window() {
        let text = "<feed><id>a</id><id>b</id></feed>";
        let snippets = Snippets::cut(text, [place(text, 6), place(text, 16)]);
        assert_eq!(snippets.len(), 1);
    }

    #[test]
    fn a_range_past_the_window_stops_at_its_end() {
        let text = format!("<x>{}</x>", "y".repeat(500));
        let snippets = Snippets::cut(&text, [place(&text, 0)]);
        let window = snippets.window_at(0).unwrap();
        let file = SnippetFile::new("f", vec![window]);
        let range = file.range(0..text.len()).unwrap();
        assert_eq!(range, 0..window.text.len());
    }
}
