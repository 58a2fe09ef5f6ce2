//! Namespace declarations as written in start tags: the parser applies
//! them; fixes and the podcast test read them as the author wrote them.

use std::ops::Range;

/// A namespace declaration as written in a start tag: its prefix (`None`
/// for the default namespace), its value, and where the value stands in
/// the document.
#[derive(Clone)]
pub(crate) struct Declaration<'t> {
    pub prefix: Option<&'t str>,
    pub value: &'t str,
    pub value_at: Range<usize>,
}

/// The namespace declarations of an element's start tag, as written.
pub(crate) fn declarations<'t>(text: &'t str, element: super::Node) -> impl Iterator<Item = Declaration<'t>> {
    let tag_at = element.start_tag();
    let tag = &text[tag_at.clone()];
    tag.match_indices("xmlns").filter_map(move |(at, _)| {
        // An attribute name starts after whitespace.
        if !tag[..at].ends_with(|c: char| c.is_whitespace()) {
            return None;
        }
        let rest = &tag[at + "xmlns".len()..];
        let (prefix, rest) = match rest.strip_prefix(':') {
            Some(named) => {
                let end = named.find(|c: char| c.is_whitespace() || c == '=')?;
                (Some(&named[..end]), &named[end..])
            }
            None => (None, rest),
        };
        let rest = rest.trim_start().strip_prefix('=')?.trim_start();
        let quote = rest.chars().next().filter(|q| *q == '"' || *q == '\'')?;
        let value = &rest[1..];
        let value = &value[..value.find(quote)?];
        let start = tag_at.start + (value.as_ptr() as usize - tag.as_ptr() as usize);
        Some(Declaration {
            prefix,
            value,
            value_at: start..start + value.len(),
        })
    })
}
