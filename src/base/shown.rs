//! How text from a document or a file name is shown on a terminal or in a
//! line format: every character that would act instead of showing
//! (controls, bidirectional formatting) or show as nothing is written as
//! `\u{...}`, so that what is shown is what the text holds.

/// A value quoted in a message, shortened in the middle when it is long: a
/// 1 MB attribute makes a finding, not a 1 MB message. Characters that
/// would hide or rearrange what a terminal or editor shows (controls,
/// bidirectional formatting, zero-width, private-use and non-characters)
/// are written as `\u{...}`: a message must show what the value holds.
pub fn shorten(value: &str) -> std::borrow::Cow<'_, str> {
    const KEEP: usize = 40;
    let count = value.chars().count();
    let shortened: std::borrow::Cow<'_, str> = if count <= 2 * KEEP + 10 {
        value.into()
    } else {
        let head: String = value.chars().take(KEEP).collect();
        let tail: String = value.chars().skip(count - KEEP).collect();
        format!("{head}…{tail} ({count} characters)").into()
    };
    match visible(&shortened) {
        std::borrow::Cow::Borrowed(_) => shortened,
        std::borrow::Cow::Owned(shown) => shown.into(),
    }
}

/// `text` with every character that would hide or rearrange what a
/// terminal or editor shows (see [`hides_itself`]) written as `\u{...}`:
/// for file names and snippets, which are never shortened.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    if !needs_escaping(text) {
        return text.into();
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_visible(&mut shown, c);
    }
    shown.into()
}

/// Whether a character of `text` hides itself. Printable ASCII, which most
/// texts of findings are, is told by its bytes alone (a loop the compiler
/// vectorizes); only other text is read character by character.
fn needs_escaping(text: &str) -> bool {
    !text.bytes().all(|byte| matches!(byte, 0x20..=0x7E)) && text.chars().any(hides_itself)
}

/// Pushes `c`, or its `\u{...}` escape if it hides itself.
pub fn push_visible(shown: &mut String, c: char) {
    if hides_itself(c) {
        use std::fmt::Write as _;
        let _ = write!(shown, "\\u{{{:04X}}}", u32::from(c));
    } else {
        shown.push(c);
    }
}

/// Whether a character shows as nothing, or changes how the text around it
/// shows: controls (a terminal obeys ESC, BEL, CSI; a line feed forges a
/// line), the line and paragraph separators (an editor or a JavaScript
/// reader ends a line there), bidirectional and zero-width formatting,
/// private use and non-characters.
pub fn hides_itself(c: char) -> bool {
    c.is_control()
        || matches!(u32::from(c),
            0x061C | 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x2069 | 0xFEFF
            | 0xE000..=0xF8FF | 0xF0000..=0x10FFFF | 0xFDD0..=0xFDEF)
        || u32::from(c) & 0xFFFE == 0xFFFE
}

/// The most characters of any one message, label, note, help or fix title
/// of a finding. Values quoted in them are shortened already (see
/// [`shorten`]); this bounds the rest, whatever a document holds, so that no
/// finding makes a line longer than a screenful.
pub const MAX_TEXT: usize = 1000;

/// Cuts `text` to [`MAX_TEXT`] characters, in the middle, saying how long
/// it was, and writes every character that hides itself as `\u{...}` (see
/// [`visible`]).
pub fn showable_text(text: &mut std::borrow::Cow<'static, str>) {
    // A borrowed text is one of feedlint's own literals (a rule's note or
    // help): it shows as it is, and no literal is longer than MAX_TEXT
    // (tested).
    if let std::borrow::Cow::Borrowed(_) = text {
        return;
    }
    if text.len() > MAX_TEXT || needs_escaping(text) {
        showable(text.to_mut());
    }
}

/// [`showable_text`] for an owned text.
pub fn showable(text: &mut String) {
    bound(text);
    if let std::borrow::Cow::Owned(shown) = visible(text) {
        *text = shown;
    }
}

pub fn bound(text: &mut String) {
    if text.len() <= MAX_TEXT {
        return;
    }
    let count = text.chars().count();
    if count <= MAX_TEXT {
        return;
    }
    let keep = (MAX_TEXT - 30) / 2;
    let head: String = text.chars().take(keep).collect();
    let tail: String = text.chars().skip(count - keep).collect();
    *text = format!("{head}…{tail} ({count} characters)");
}

/// `path` as the user would name it: relative to the current directory
/// where it lies below it. Raw, for naming and walking: messages show
/// [`shown_path`].
pub fn named_path(path: &std::path::Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(std::path::Path::to_path_buf));
    match relative {
        Some(relative) if relative.as_os_str().is_empty() => ".".to_owned(),
        Some(relative) => relative.display().to_string(),
        None => path.display().to_string(),
    }
}

/// `path` for a message: [`named_path`] with every character that would
/// hide itself or act on a terminal written as `\u{...}` (a folder's or a
/// linked file's name may hold a line feed or an escape).
pub fn shown_path(path: &std::path::Path) -> String {
    visible(&named_path(path)).into_owned()
}

/// A count with thousands separated: "12,900".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_written_with_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(5_650_889), "5,650,889");
    }

    #[test]
    fn long_texts_are_cut_in_the_middle() {
        let mut short = "a short message".to_owned();
        bound(&mut short);
        assert_eq!(short, "a short message");
        let mut long = format!("start {} end", "é".repeat(5000));
        bound(&mut long);
        assert!(long.chars().count() <= MAX_TEXT, "{}", long.chars().count());
        assert!(
            long.starts_with("start ") && long.ends_with("end (5010 characters)"),
            "{long}"
        );
    }
}
