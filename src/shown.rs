//! How text from a document or a file name is shown on a terminal or in a
//! line format: every character that would act instead of showing
//! (controls, bidirectional formatting) or show as nothing is written as
//! `\u{...}`, so that what is shown is what the text holds.

/// `text` with every character that would hide or rearrange what a
/// terminal or editor shows (see [`hides_itself`]) written as `\u{...}`:
/// for file names and snippets, which are never shortened.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(hides_itself) {
        return text.into();
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_visible(&mut shown, c);
    }
    shown.into()
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
/// line), bidirectional and zero-width formatting, private use and
/// non-characters.
pub fn hides_itself(c: char) -> bool {
    c.is_control()
        || matches!(u32::from(c),
            0x061C | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2069 | 0xFEFF
            | 0xE000..=0xF8FF | 0xF0000..=0x10FFFF | 0xFDD0..=0xFDEF)
        || u32::from(c) & 0xFFFE == 0xFFFE
}
