//! Parsing with roxmltree, made safe for hostile input.
//!
//! roxmltree refuses every DOCTYPE unless `allow_dtd` is set, which would
//! reject RSS 0.91 feeds and feeds that declare `&nbsp;`. With `allow_dtd`,
//! its own guard (entity nesting depth) lets a quadratic blow-up through: a
//! 250 KB file with one large entity referenced many times expands to
//! gigabytes. So before parsing we measure, from the internal DTD subset,
//! how many bytes the document's entity references would expand to, and
//! refuse the document above [`MAX_ENTITY_EXPANSION`]. This is a linear scan.
//! External entities are never loaded: no resolver is installed.

use std::collections::HashMap;
use std::ops::Range;

/// The most bytes that entity references in one document may expand to.
pub const MAX_ENTITY_EXPANSION: u64 = 16 * 1024 * 1024;

/// The most attributes (namespace declarations included) one element may
/// have. roxmltree looks for duplicates among an element's attributes by
/// comparing each with all before it, so an element with a million
/// attributes takes hours; no feed needs more than a few dozen.
pub const MAX_ATTRIBUTES: usize = 64;

/// A parse failure: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XmlError {
    /// Byte offset in the text, or a (line, column) the parser reported.
    pub at: ErrorPos,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorPos {
    Offset(usize),
    LineCol(usize, usize),
    End,
}

pub fn parse(text: &str) -> Result<roxmltree::Document<'_>, XmlError> {
    check_entity_expansion(text)?;
    check_attribute_counts(text)?;
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(text, options).map_err(|error| {
        let at = match error {
            roxmltree::Error::NoRootNode | roxmltree::Error::UnclosedRootNode => ErrorPos::End,
            _ => {
                let pos = error.pos();
                ErrorPos::LineCol(pos.row as usize, pos.col as usize)
            }
        };
        XmlError {
            at,
            message: describe(&error),
        }
    })
}

/// roxmltree's messages end with "at 3:14"; the span carries the position.
fn describe(error: &roxmltree::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at ") {
        Some(i) if text[i + 4..].chars().all(|c| c.is_ascii_digit() || c == ':') => text[..i].to_owned(),
        _ => text,
    }
}

fn check_entity_expansion(text: &str) -> Result<(), XmlError> {
    // A DOCTYPE stands in the prolog, before the root element: only the
    // prolog is searched, not the whole (possibly huge) document.
    let Some(doctype) = text[..prolog_len(text)].find("<!DOCTYPE") else {
        return Ok(());
    };
    let Some((entities, subset_end)) = internal_entities(text, doctype) else {
        return Ok(());
    };
    if entities.is_empty() {
        return Ok(());
    }
    let sizes = expanded_sizes(&entities).map_err(|name| XmlError {
        at: ErrorPos::Offset(entities[&name].declared_at.start),
        message: format!("entity \"{name}\" refers to itself (directly or through other entities)"),
    })?;
    let mut total: u64 = 0;
    for (name, at) in references(&text[subset_end..]) {
        if let Some(size) = sizes.get(name) {
            total = total.saturating_add(*size);
            if total > MAX_ENTITY_EXPANSION {
                return Err(XmlError {
                    at: ErrorPos::Offset(subset_end + at),
                    message: format!(
                        "entity references expand to more than {} MiB (here \"&{name};\", which alone expands to {} bytes): refused as a likely entity-expansion attack",
                        MAX_ENTITY_EXPANSION / (1024 * 1024),
                        size
                    ),
                });
            }
        }
    }
    Ok(())
}

/// Refuses an element with more than [`MAX_ATTRIBUTES`] attributes. Each
/// attribute takes at least four bytes (` a=""`), so only a start tag
/// longer than that many bytes can have too many: the scan jumps from `<`
/// to `<` and looks inside the rare long stretches only.
fn check_attribute_counts(text: &str) -> Result<(), XmlError> {
    const SHORTEST: usize = MAX_ATTRIBUTES * 4;
    let bytes = text.as_bytes();
    let mut previous: Option<usize> = None;
    let long_stretches = memchr::memchr_iter(b'<', bytes).chain([bytes.len()]).filter_map(|at| {
        let start = previous.replace(at)?;
        (at - start > SHORTEST).then_some(start)
    });
    for start in long_stretches {
        let tag = &bytes[start + 1..];
        if !tag
            .first()
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_' || *b >= 0x80 || *b == b':')
        {
            continue; // an end tag, comment, PI or declaration
        }
        let mut count = 0;
        let mut quote = None;
        for &b in tag {
            match (quote, b) {
                (Some(q), _) if b == q => quote = None,
                (Some(_), _) => {}
                (None, b'"' | b'\'') => quote = Some(b),
                (None, b'=') => count += 1,
                (None, b'>') => break,
                _ => {}
            }
        }
        if count > MAX_ATTRIBUTES {
            return Err(XmlError {
                at: ErrorPos::Offset(start),
                message: format!("this element has more than {MAX_ATTRIBUTES} attributes: refused as a likely resource-exhaustion attack"),
            });
        }
    }
    Ok(())
}

/// Where the root element starts: the first `<` that opens neither a
/// processing instruction, a comment nor a declaration (or the end).
fn prolog_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(offset) = memchr::memchr(b'<', &bytes[at..]) {
        let start = at + offset;
        match bytes.get(start + 1) {
            Some(b'?' | b'!') => {
                // Skip the whole construct, so a '<' inside a comment or the
                // internal subset does not end the prolog.
                let rest = &text[start..];
                let len = if rest.starts_with("<!--") {
                    rest.find("-->").map(|i| i + 3)
                } else if rest.starts_with("<?") {
                    rest.find("?>").map(|i| i + 2)
                } else {
                    declaration_len(rest)
                };
                match len {
                    Some(len) => at = start + len,
                    None => return text.len(),
                }
            }
            _ => return start,
        }
    }
    text.len()
}

struct EntityDecl<'a> {
    value: &'a str,
    declared_at: Range<usize>,
}

/// The general entities declared in the internal subset of the DOCTYPE that
/// starts at `doctype`, and the offset where the subset ends.
fn internal_entities(text: &str, doctype: usize) -> Option<(HashMap<String, EntityDecl<'_>>, usize)> {
    let bytes = text.as_bytes();
    let mut i = doctype + "<!DOCTYPE".len();
    // Up to the '[' of the internal subset, or the '>' that closes a DOCTYPE without one.
    let mut quote = None;
    loop {
        let b = *bytes.get(i)?;
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'[') => break,
            (None, b'>') => return None,
            _ => {}
        }
        i += 1;
    }
    i += 1;
    let mut entities = HashMap::new();
    loop {
        let rest = text.get(i..)?;
        let next = rest.find(['<', ']'])?;
        i += next;
        let rest = &text[i..];
        if rest.starts_with(']') {
            return Some((entities, i + 1));
        }
        if let Some(after) = rest.strip_prefix("<!--") {
            i += 4 + after.find("-->")? + 3;
        } else if let Some(after) = rest.strip_prefix("<?") {
            i += 2 + after.find("?>")? + 2;
        } else {
            let end = declaration_len(rest)?;
            if let Some(decl) = rest[..end].strip_prefix("<!ENTITY") {
                if let Some((name, value)) = general_internal_entity(decl) {
                    entities.entry(name.to_owned()).or_insert(EntityDecl {
                        value,
                        declared_at: i..i + end,
                    });
                }
            }
            i += end;
        }
    }
}

/// Length of a markup declaration starting at `<` (`<!ENTITY ...>`,
/// `<!DOCTYPE ... [ ... ]>`), through its closing `>`: quoted strings are
/// skipped, and so is an internal subset in brackets.
pub fn declaration_len(decl: &str) -> Option<usize> {
    let mut quote = None;
    let mut depth = 0usize;
    for (i, b) in decl.bytes().enumerate() {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'[') => depth += 1,
            (None, b']') => depth = depth.saturating_sub(1),
            (None, b'>') if depth == 0 => return Some(i + 1),
            _ => {}
        }
    }
    None
}

/// `name` and literal value of `<!ENTITY name "value">`; parameter
/// entities (`%`) and external entities (`SYSTEM`, `PUBLIC`) give `None`.
fn general_internal_entity(decl: &str) -> Option<(&str, &str)> {
    let decl = decl.trim_start();
    if decl.starts_with('%') {
        return None;
    }
    let name_end = decl.find(|c: char| c.is_whitespace())?;
    let (name, rest) = decl.split_at(name_end);
    let rest = rest.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let value = &rest[1..];
    Some((name, &value[..value.find(quote)?]))
}

/// Every `&name;` general entity reference (not character references).
fn references(text: &str) -> impl Iterator<Item = (&str, usize)> {
    text.match_indices('&').filter_map(move |(at, _)| {
        let rest = &text[at + 1..];
        let end = rest.find(';')?;
        let name = &rest[..end];
        let is_name = !name.is_empty()
            && !name.starts_with('#')
            && name.len() <= 256
            && !name.contains(|c: char| c.is_whitespace() || c == '&' || c == '<');
        is_name.then_some((name, at))
    })
}

/// Fully expanded size of every entity, computed without recursion so that a
/// long chain of entities cannot exhaust the stack. `Err(name)` on a cycle.
fn expanded_sizes<'e>(entities: &'e HashMap<String, EntityDecl<'_>>) -> Result<HashMap<&'e str, u64>, String> {
    let mut sizes: HashMap<&str, u64> = HashMap::with_capacity(entities.len());
    let mut visiting: HashMap<&str, ()> = HashMap::new();
    for start in entities.keys() {
        let mut stack: Vec<&str> = vec![start];
        while let Some(&name) = stack.last() {
            if sizes.contains_key(name) {
                stack.pop();
                continue;
            }
            let value = entities[name].value;
            let pending: Vec<&str> = references(value)
                .map(|(r, _)| r)
                .filter(|r| entities.contains_key(*r) && !sizes.contains_key(*r))
                .collect();
            if pending.is_empty() {
                let mut size = value.len() as u64;
                for (r, _) in references(value) {
                    if let Some(s) = sizes.get(r) {
                        size = size.saturating_add(*s);
                    }
                }
                sizes.insert(name, size);
                visiting.remove(name);
                stack.pop();
            } else {
                if visiting.insert(name, ()).is_some() {
                    return Err(name.to_owned());
                }
                for r in pending {
                    if visiting.contains_key(r) {
                        return Err(r.to_owned());
                    }
                    stack.push(r);
                }
            }
        }
    }
    Ok(sizes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doctype_with_small_entities_parses() {
        let text = "<!DOCTYPE rss [<!ENTITY nbsp \"&#160;\">]><rss>a&nbsp;b</rss>";
        let doc = parse(text).unwrap();
        assert_eq!(doc.root_element().text(), Some("a\u{a0}b"));
    }

    #[test]
    fn billion_laughs_is_refused() {
        let mut text = String::from("<!DOCTYPE lolz [<!ENTITY lol0 \"lol\">");
        for i in 1..10 {
            let prev = format!("&lol{};", i - 1).repeat(10);
            text.push_str(&format!("<!ENTITY lol{i} \"{prev}\">"));
        }
        text.push_str("]><lolz>&lol9;</lolz>");
        let error = parse(&text).unwrap_err();
        assert!(error.message.contains("expand to more than"), "{}", error.message);
    }

    #[test]
    fn quadratic_blowup_is_refused() {
        let big = "a".repeat(50_000);
        let refs = "&a;".repeat(5_000);
        let text = format!("<!DOCTYPE x [<!ENTITY a \"{big}\">]><x>{refs}</x>");
        let error = parse(&text).unwrap_err();
        assert!(error.message.contains("expand to more than"));
    }

    #[test]
    fn recursive_entity_is_refused() {
        let text = "<!DOCTYPE x [<!ENTITY a \"&b;\"><!ENTITY b \"&a;\">]><x>&a;</x>";
        assert!(parse(text).unwrap_err().message.contains("refers to itself"));
    }

    #[test]
    fn external_entity_is_not_loaded() {
        let text = "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>";
        if let Ok(doc) = parse(text) {
            assert!(!doc.root_element().text().unwrap_or("").contains("root:"));
        }
    }

    #[test]
    fn too_many_attributes_are_refused() {
        let many: String = (0..=MAX_ATTRIBUTES).map(|i| format!(" a{i}=\"\"")).collect();
        let error = parse(&format!("<root><x{many}/></root>")).unwrap_err();
        assert!(error.message.contains("more than 64 attributes"));
        assert_eq!(error.at, ErrorPos::Offset(6));
        let enough: String = (0..MAX_ATTRIBUTES).map(|i| format!(" a{i}=\"=>=\"")).collect();
        assert!(parse(&format!("<root><x{enough}/>{}</root>", "text = ".repeat(1000))).is_ok());
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let depth = 100_000;
        let text = format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
        let doc = parse(&text).unwrap();
        assert_eq!(doc.descendants().count(), depth + 1);
    }
}
