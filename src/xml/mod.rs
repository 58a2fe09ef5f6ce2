//! feedlint's own XML 1.0 (fifth edition) and Namespaces in XML 1.0
//! parser: a strict, non-validating, namespace-aware processor that builds
//! a compact tree ([`Tree`]) in one pass.
//!
//! What it checks is every well-formedness and namespace well-formedness
//! constraint, the internal DTD subset included (declaration syntax,
//! parameter entities between declarations, entity replacement text,
//! recursion); it applies attribute defaults and attribute-value
//! normalization from the internal subset. It never reads an external
//! entity: a reference to an entity whose declaration may stand in an
//! unread external subset or parameter entity is not an error (XML 1.0
//! §4.1, "Entity Declared"), and the first one is reported through
//! [`Tree::unread_entity`].
//!
//! Time and memory are linear in the input for every input: names are
//! interned through hash tables, namespace scopes are undone per element,
//! attributes are checked for duplicates by hashing when an element has
//! many, and entity expansion is capped at [`MAX_ENTITY_EXPANSION`] bytes
//! in all. No part of the parser recurses on the document's nesting; only
//! entity references recurse, at most [`MAX_ENTITY_DEPTH`] deep.

mod aliases;
mod chars;
mod declarations;
mod dom;
mod parser;

pub(crate) use declarations::{declarations, Declaration};
#[cfg(test)]
pub(crate) use dom::decode_text as decode_text_for_tests;
pub(crate) use dom::reference_char;
pub use dom::{Recovered, RecoveredKind};

pub use dom::{
    Attribute, AttributeName, Attributes, Descendants, ExpandedName, Node, NodeId, NodeList, Tree, UnreadEntity,
};

/// The most bytes that entity references in one document may expand to
/// (attributes defaulted by the DTD count too).
pub const MAX_ENTITY_EXPANSION: u64 = 16 * 1024 * 1024;

/// The deepest entity references may nest (an entity whose replacement
/// text references an entity, and so on).
pub const MAX_ENTITY_DEPTH: usize = 64;

pub const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";
pub const XMLNS_NS: &str = "http://www.w3.org/2000/xmlns/";

/// A parse failure: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XmlError {
    /// Byte offset in the text.
    pub at: usize,
    pub message: String,
}

/// Parses a whole document, reading past the errors that leave one clear
/// reading of it ([`Recovered`]): white space before the XML declaration,
/// a declaration after comments. They are in [`Tree::recovered`]; every
/// other error stops the parse, as [`parse`]'s do.
pub fn parse_recovering(text: &str) -> Result<Tree<'_>, XmlError> {
    if text.len() > u32::MAX as usize {
        return parse(text);
    }
    parser::Parser::new(text).recovering().parse()
}

/// Parses a whole document.
pub fn parse(text: &str) -> Result<Tree<'_>, XmlError> {
    if text.len() > u32::MAX as usize {
        return Err(XmlError {
            at: 0,
            message: "documents larger than 4 GiB are not supported".to_owned(),
        });
    }
    parser::Parser::new(text).parse()
}

/// Length of a markup declaration starting at `<` (`<!ENTITY ...>`,
/// `<!DOCTYPE ... [ ... ]>`), through its closing `>`: quoted strings are
/// skipped, and so is an internal subset in brackets. A lexical look used
/// before parsing, to find a document's root element name.
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

#[cfg(test)]
mod tests;
