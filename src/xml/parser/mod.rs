//! The parser: one pass over the text, building the tree as it goes.
//!
//! The same code reads the document and the replacement text of internal
//! entities: a [`Cursor`] is a position in either, and knows which
//! reference in the document brought it there, so that nodes made from an
//! entity point at the reference and errors inside it name the entity.

use std::rc::Rc;
use std::sync::OnceLock;

use memchr::{memchr, memchr3, memmem};

mod dtd;
mod names;

use super::chars::{self, is_space, predefined};
use super::dom::{
    decode_text, AttributeData, Kind, NameData, NodeData, Recovered, RecoveredKind, Str, StringTable, Tree,
    UnreadEntity, MAX_NAMES, MAX_NODES, NONE,
};
use super::{XmlError, MAX_ENTITY_DEPTH, MAX_ENTITY_EXPANSION, XMLNS_NS, XML_NS};
use crate::base::hash::{FastMap, FastState};
use crate::base::shown::shorten;
use dtd::{Dtd, EntityValue};
use names::{NameTable, Namespaces};

type Result<T> = std::result::Result<T, XmlError>;

/// Where a cursor reads: the document, or the replacement text of an
/// entity reached from the reference at `reference` in the document.
#[derive(Clone)]
struct EntityContext {
    name: Rc<str>,
    reference: (u32, u32),
}

struct Cursor<'s> {
    s: &'s str,
    pos: usize,
    entity: Option<EntityContext>,
}

impl<'s> Cursor<'s> {
    /// A cursor at the start of an entity's replacement text, reached from
    /// the reference at `reference` in the document.
    fn in_entity(s: &'s str, name: Rc<str>, reference: (u32, u32)) -> Self {
        Cursor {
            s,
            pos: 0,
            entity: Some(EntityContext { name, reference }),
        }
    }

    fn bytes(&self) -> &'s [u8] {
        self.s.as_bytes()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.bytes().get(self.pos + ahead).copied()
    }

    fn starts_with(&self, prefix: &str) -> bool {
        self.bytes()[self.pos..].starts_with(prefix.as_bytes())
    }

    fn in_document(&self) -> bool {
        self.entity.is_none()
    }

    /// Skips white space; whether there was any.
    fn skip_space(&mut self) -> bool {
        let start = self.pos;
        while self.peek().is_some_and(is_space) {
            self.pos += 1;
        }
        self.pos > start
    }

    fn require_space(&mut self, context: &str) -> Result<()> {
        if self.skip_space() {
            Ok(())
        } else {
            Err(self.error(format!("expected white space {context}")))
        }
    }

    fn expect(&mut self, token: &str, context: &str) -> Result<()> {
        if self.starts_with(token) {
            self.pos += token.len();
            Ok(())
        } else {
            Err(self.error(format!("expected '{token}' {context}{}", self.found())))
        }
    }

    /// " (found ...)" for messages.
    fn found(&self) -> String {
        match self.s[self.pos..].chars().next() {
            None => ", found the end of the input".to_owned(),
            Some(c) if c.is_control() => format!(", found U+{:04X}", c as u32),
            Some(c) => format!(", found '{c}'"),
        }
    }

    /// A `Name` at the cursor: its range and how many colons it has.
    fn name(&mut self, what: &str) -> Result<(usize, usize, usize)> {
        let mut colons = 0;
        let len = chars::name_len(&self.s[self.pos..], &mut colons);
        if len == 0 {
            return Err(self.error(format!("expected {what}{}", self.found())));
        }
        let start = self.pos;
        self.pos += len;
        Ok((start, self.pos, colons))
    }

    /// A name that must not contain a colon (Namespaces in XML §7: entity
    /// names, processing instruction targets and notation names).
    fn ncname(&mut self, what: &str) -> Result<&'s str> {
        let (start, end, colons) = self.name(what)?;
        if colons > 0 {
            self.pos = start;
            return Err(self.error(format!(
                "{what} \"{}\" must not contain ':' (Namespaces in XML §7)",
                &self.s[start..end]
            )));
        }
        Ok(&self.s[start..end])
    }

    fn error(&self, message: impl Into<String>) -> XmlError {
        self.error_at(self.pos, message)
    }

    fn error_at(&self, pos: usize, message: impl Into<String>) -> XmlError {
        match &self.entity {
            None => XmlError {
                at: pos,
                message: message.into(),
            },
            Some(entity) => XmlError {
                at: entity.reference.0 as usize,
                message: format!(
                    "in the replacement text of entity \"{}\": {}",
                    entity.name,
                    message.into()
                ),
            },
        }
    }

    /// The range in the document that a node made here covers.
    fn doc_range(&self, start: usize, end: usize) -> (u32, u32) {
        match &self.entity {
            None => (start as u32, end as u32),
            Some(entity) => entity.reference,
        }
    }
}

/// An attribute of the start tag being read.
struct RawAttribute {
    /// The qualified name: a range of the cursor's text, or a declared name.
    qname: QName,
    colons: usize,
    value: Str,
    start: u32,
    value_start: u32,
    value_end: u32,
    specified: bool,
}

enum QName {
    Here(usize, usize),
    Declared(Rc<str>),
}

impl QName {
    fn get<'a>(&'a self, s: &'a str) -> &'a str {
        match self {
            QName::Here(start, end) => &s[*start..*end],
            QName::Declared(name) => name,
        }
    }
}

/// An element whose end tag has not come yet.
struct Open {
    node: u32,
    /// The qualified name, in the text where the element started.
    qname: (usize, usize),
    bindings_mark: u32,
    last_child: u32,
}

fn push_arena(arena: &mut String, s: &str) -> Str {
    let start = arena.len();
    arena.push_str(s);
    Str {
        start: start as u32,
        end: arena.len() as u32,
        in_arena: true,
    }
}

/// Text being gathered for the next text node: CDATA sections, character
/// and entity references and plain text run together into one node.
#[derive(Default)]
struct PendingText {
    active: bool,
    start: u32,
    end: u32,
    /// Decoded so far into `owned` (an entity was expanded in the text, or
    /// the text is in an entity); else the text is the input from `start`
    /// to `end`, to be decoded when read if `needs_decoding`.
    is_owned: bool,
    needs_decoding: bool,
    owned: String,
    /// Only white space so far.
    blank: bool,
}

enum Reference<'s> {
    Char(char),
    Entity(&'s str),
}

pub(super) struct Parser<'input> {
    text: &'input str,
    has_cr: bool,
    doc: Tree<'input>,
    dtd: Dtd,
    open: Vec<Open>,
    root_last_child: u32,
    namespaces: Namespaces,
    names: NameTable,
    attributes: Vec<RawAttribute>,
    pending: PendingText,
    /// Scratch for attribute values that need normalizing.
    value: String,
    expanded: u64,
    depth: usize,
    /// Start tags read so far: the mark of the current one in `name_marks`
    /// (by attribute name) and `prefix_marks` (by declared prefix).
    element_serial: u32,
    name_marks: Vec<u32>,
    prefix_marks: Vec<u32>,
    /// Whether errors that leave one clear reading are recovered from
    /// (see [`Recovered`]) rather than stopping the parse.
    recover: bool,
    /// What was recovered from, in document order.
    recovered: Vec<Recovered>,
    /// Only comments, processing instructions and white space were read:
    /// an XML declaration here, misplaced, still reads as one.
    only_misc_so_far: bool,
}

/// Documents from this size on have their nodes and attributes counted
/// before they are parsed.
const COUNTED: usize = 8 << 20;

/// How many nodes and attributes to make room for. Feeds have a node in
/// about every 60 bytes and an attribute in every 170: room for twice that,
/// so that a typical document is never copied to a larger vector
/// (untouched room costs no memory). A large document may be far denser
/// (a node every 17 bytes, 40 attributes to an element), and a vector of
/// tens of megabytes copied as it grows keeps the pages it left behind
/// (the allocator keeps freed memory for the next document: 40 attributes
/// to an element peaked at 2.3x the file's size instead of 1.84x). So a
/// large document gets room for as many as it can hold, counted first:
/// every element, comment and processing instruction starts with `<`, a
/// text node lies next to one, and every attribute written has a `=` (two
/// `memchr` counts, about 3% of a run over a 96 MiB feed). The room is
/// capped (a text of `<` in a CDATA section is no tree): at an attribute
/// every 5 bytes, the fewest one takes, and a node every 8; past that, and
/// for what entities make, the vectors grow as usual.
pub(super) fn room_for(text: &str) -> (usize, usize) {
    let len = text.len();
    if len < COUNTED {
        return (len / 32 + 1, len / 128 + 1);
    }
    let count = |byte| memchr::memchr_iter(byte, text.as_bytes()).count();
    (
        (2 * count(b'<') + 2).min(len / 8 + 1),
        (count(b'=') + 1).min(len / 5 + 1),
    )
}

impl<'input> Parser<'input> {
    pub(super) fn new(text: &'input str) -> Self {
        let (nodes, attributes) = room_for(text);
        let mut doc = Tree {
            text,
            nodes: Vec::with_capacity(nodes),
            attributes: Vec::with_capacity(attributes),
            // A feed has a few dozen distinct names, and text with
            // references (escaped HTML) in about every kilobyte: room for
            // those from the start, instead of a vector grown a few times
            // per document (a run over many small feeds spent 2% of its
            // instructions growing vectors).
            names: Vec::with_capacity(64),
            name_uses: Vec::with_capacity(64),
            namespaces: StringTable::default(),
            arena: String::new(),
            attribute_values: Vec::new(),
            name_text: String::with_capacity(512),
            decoded: Vec::with_capacity(text.len() / 1024 + 1),
            unread_entity: None,
            recovered: Vec::new(),
            aliases: Vec::new(),
        };
        doc.nodes.push(NodeData::new(Kind::Root, 0, text.len() as u32, None));
        let namespaces = Namespaces::new();
        Parser {
            text,
            has_cr: false,
            doc,
            dtd: Dtd::default(),
            open: Vec::new(),
            root_last_child: NONE,
            namespaces,
            names: NameTable::new(),
            recover: false,
            recovered: Vec::new(),
            only_misc_so_far: true,
            attributes: Vec::new(),
            pending: PendingText::default(),
            value: String::new(),
            expanded: 0,
            depth: 0,
            element_serial: 0,
            name_marks: Vec::new(),
            prefix_marks: Vec::new(),
        }
    }

    /// Reads past the errors that leave one clear reading (see
    /// [`Recovered`]).
    pub(super) fn recovering(mut self) -> Self {
        self.recover = true;
        self
    }

    pub(super) fn parse(mut self) -> Result<Tree<'input>> {
        let text = self.text;
        let mut c = Cursor {
            s: text,
            pos: 0,
            entity: None,
        };
        let (invalid, has_cr) = chars::find_invalid_char(text.as_bytes());
        self.has_cr = has_cr;
        if let Some(at) = invalid {
            let ch = text[at..].chars().next().unwrap_or('\0');
            return Err(c.error_at(
                at,
                format!("U+{:04X} is not a character XML allows (XML 1.0 §2.2)", ch as u32),
            ));
        }
        // White space before the declaration (a blank line printed by a
        // template): the declaration is read as the declaration.
        let space = if self.recover {
            text.len() - text.trim_start_matches(['\u{20}', '\t', '\r', '\n']).len()
        } else {
            0
        };
        if space > 0 && text[space..].starts_with("<?xml") && c.peek_at(space + 5).is_some_and(is_space) {
            self.recovered.push(Recovered {
                at: 0..space,
                message: "white space before the XML declaration: the declaration may stand only at the very start of the document".to_owned(),
                kind: RecoveredKind::SpaceBeforeDeclaration,
            });
            c.pos = space;
        }
        self.xml_declaration(&mut c)?;
        self.prolog(&mut c)?;
        self.only_misc_so_far = false;
        self.start_tag(&mut c)?;
        if !self.open.is_empty() {
            self.content(&mut c)?;
        }
        self.epilog(&mut c)?;
        self.doc.nodes.shrink_to_fit();
        self.doc.attributes.shrink_to_fit();
        self.doc.namespaces = std::mem::take(&mut self.namespaces.names.strings);
        self.doc.recovered = std::mem::take(&mut self.recovered);
        Ok(self.doc)
    }

    // ----- document structure -------------------------------------------

    fn xml_declaration(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        if !(c.starts_with("<?xml") && c.peek_at(5).is_some_and(is_space)) {
            return Ok(());
        }
        c.pos += 5;
        let mut seen = 0;
        loop {
            let had_space = c.skip_space();
            if c.starts_with("?>") {
                c.pos += 2;
                break;
            }
            if !had_space {
                return Err(c.error(format!(
                    "expected white space or '?>' in the XML declaration{}",
                    c.found()
                )));
            }
            let at = c.pos;
            let (start, end, _) = c.name("'version', 'encoding', 'standalone' or '?>' in the XML declaration")?;
            let name = &c.s[start..end];
            let order = match name {
                "version" => 1,
                "encoding" => 2,
                "standalone" => 3,
                _ => 0,
            };
            if order == 0 || order <= seen || (seen == 0 && order != 1) {
                return Err(c.error_at(
                    at,
                    format!("unexpected \"{}\" in the XML declaration: it holds version, then optionally encoding, then optionally standalone", shorten(name)),
                ));
            }
            seen = order;
            c.skip_space();
            c.expect("=", &format!("after \"{name}\""))?;
            c.skip_space();
            let quote = c.peek().filter(|q| matches!(q, b'"' | b'\''));
            let Some(quote) = quote else {
                return Err(c.error(format!("expected a quoted value for \"{name}\"{}", c.found())));
            };
            let value_start = c.pos + 1;
            let Some(len) = memchr(quote, &c.bytes()[value_start..]) else {
                return Err(c.error("the XML declaration is not closed"));
            };
            let value = &c.s[value_start..value_start + len];
            let valid = match order {
                1 => value
                    .strip_prefix("1.")
                    .is_some_and(|minor| !minor.is_empty() && minor.bytes().all(|b| b.is_ascii_digit())),
                2 => {
                    value.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
                        && value
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
                }
                _ => matches!(value, "yes" | "no"),
            };
            if !valid {
                let expected = match order {
                    1 => "\"1.0\"",
                    2 => "an encoding name (letters, digits, '.', '_', '-', starting with a letter)",
                    _ => "\"yes\" or \"no\"",
                };
                return Err(c.error_at(
                    value_start,
                    format!(
                        "invalid {name} \"{}\" in the XML declaration: expected {expected}",
                        shorten(value)
                    ),
                ));
            }
            if order == 3 {
                self.dtd.standalone = value == "yes";
            }
            c.pos = value_start + len + 1;
        }
        if seen == 0 {
            return Err(c.error("the XML declaration must give the version"));
        }
        Ok(())
    }

    /// Comments, processing instructions and a DOCTYPE, up to the root element.
    fn prolog(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        let mut doctype = false;
        loop {
            if self.misc(c)? {
                continue;
            }
            if c.starts_with("<!DOCTYPE") {
                if doctype {
                    return Err(c.error("a document has at most one DOCTYPE"));
                }
                doctype = true;
                self.only_misc_so_far = false;
                self.doctype(c)?;
            } else if starts_element(c) {
                return Ok(());
            } else if c.peek().is_none() {
                return Err(c.error("no root element"));
            } else if c.starts_with("<!") {
                return Err(c.error("expected a comment or DOCTYPE after '<!' (CDATA sections and other declarations cannot stand before the root element)"));
            } else {
                return Err(c.error(format!("expected the root element{}", c.found())));
            }
        }
    }

    /// Comments, processing instructions and white space after the root element.
    fn epilog(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        loop {
            if self.misc(c)? {
                continue;
            }
            if c.peek().is_none() {
                return Ok(());
            } else if starts_element(c) {
                return Err(c.error("a second root element: a document has exactly one"));
            } else {
                return Err(c.error(format!(
                    "only comments, processing instructions and white space may follow the root element{}",
                    c.found()
                )));
            }
        }
    }

    /// White space, then a comment or processing instruction if one is
    /// next (`Misc` outside the root element); whether there was one.
    fn misc(&mut self, c: &mut Cursor<'_>) -> Result<bool> {
        c.skip_space();
        if c.starts_with("<?") {
            self.processing_instruction(c, true)?;
        } else if c.starts_with("<!--") {
            self.comment(c, true)?;
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    // ----- nodes -----------------------------------------------------------

    fn add_node(&mut self, kind: Kind, (start, end): (u32, u32)) -> Result<u32> {
        let id = self.doc.nodes.len() as u32;
        if id >= MAX_NODES {
            return Err(XmlError {
                at: start as usize,
                message: format!("more than {MAX_NODES} nodes: refused as too large to check"),
            });
        }
        let (parent, last) = match self.open.last_mut() {
            Some(open) => (open.node, &mut open.last_child),
            None => (0, &mut self.root_last_child),
        };
        if *last != NONE {
            self.doc.nodes[*last as usize].next_sibling = id;
        }
        *last = id;
        self.doc.nodes.push(NodeData::new(kind, start, end, Some(parent)));
        Ok(id)
    }

    /// A run of text from the cursor's text, written as it is.
    fn text_here(&mut self, c: &Cursor<'_>, start: usize, end: usize) {
        if c.in_document() {
            let blank = c.bytes()[start..end].iter().all(|&b| is_space(b));
            self.raw_text(start, end, false, blank);
        } else {
            self.owned_text(&c.s[start..end], c.doc_range(start, end));
        }
    }

    /// Text in the document from `start` to `end`; `needs_decoding` if it is
    /// a reference, a CDATA section or a line end to normalize. Kept as a
    /// range: most such text (escaped HTML in a feed's content) is never
    /// read, so it is decoded only when it is.
    fn raw_text(&mut self, start: usize, end: usize, needs_decoding: bool, blank: bool) {
        let pending = &mut self.pending;
        if !pending.active {
            pending.active = true;
            pending.is_owned = false;
            pending.needs_decoding = needs_decoding;
            pending.start = start as u32;
            pending.end = end as u32;
            pending.blank = blank;
            return;
        }
        pending.blank &= blank;
        if pending.is_owned {
            let raw = &self.text[start..end];
            if needs_decoding {
                decode_text(raw, &mut pending.owned);
            } else {
                pending.owned.push_str(raw);
            }
            pending.start = pending.start.min(start as u32);
        } else {
            pending.needs_decoding |= needs_decoding;
        }
        pending.end = pending.end.max(end as u32);
    }

    /// Text that is not in the document as it is: in an entity's replacement text.
    fn owned_text(&mut self, s: &str, (start, end): (u32, u32)) {
        let pending = &mut self.pending;
        let blank = s.bytes().all(is_space);
        if !pending.active {
            pending.active = true;
            pending.start = start;
            pending.end = end;
            pending.blank = true;
            pending.is_owned = true;
            pending.owned.clear();
        } else if !pending.is_owned {
            pending.is_owned = true;
            pending.owned.clear();
            let raw = &self.text[pending.start as usize..pending.end as usize];
            if pending.needs_decoding {
                decode_text(raw, &mut pending.owned);
            } else {
                pending.owned.push_str(raw);
            }
        }
        pending.owned.push_str(s);
        pending.blank &= blank;
        pending.start = pending.start.min(start);
        pending.end = end.max(pending.end);
    }

    /// Ends the pending text: a text node, unless it is only white space.
    fn flush_text(&mut self) -> Result<()> {
        let pending = &mut self.pending;
        if !pending.active {
            return Ok(());
        }
        pending.active = false;
        if pending.blank {
            return Ok(());
        }
        let range = (pending.start, pending.end);
        let kind = if pending.is_owned {
            Kind::Text(push_arena(&mut self.doc.arena, &pending.owned))
        } else if pending.needs_decoding {
            self.doc.decoded.push(OnceLock::new());
            Kind::RawText((self.doc.decoded.len() - 1) as u32)
        } else {
            Kind::Text(Str::input(range.0 as usize..range.1 as usize))
        };
        self.add_node(kind, range)?;
        Ok(())
    }

    /// A string of the cursor's text as the document keeps it.
    fn keep(&mut self, c: &Cursor<'_>, start: usize, end: usize) -> Str {
        if c.in_document() {
            Str::input(start..end)
        } else {
            push_arena(&mut self.doc.arena, &c.s[start..end])
        }
    }

    fn comment(&mut self, c: &mut Cursor<'_>, make_node: bool) -> Result<()> {
        let start = c.pos;
        let body = start + 4;
        let Some(dashes) = memmem::find(&c.bytes()[body..], b"--") else {
            return Err(c.error_at(start, "comment not closed (expected '-->')"));
        };
        let end = body + dashes;
        if c.bytes().get(end + 2) != Some(&b'>') {
            return Err(c.error_at(end, "'--' is not allowed inside a comment"));
        }
        c.pos = end + 3;
        if make_node {
            self.flush_text()?;
            let value = self.keep(c, body, end);
            let range = c.doc_range(start, c.pos);
            self.add_node(Kind::Comment(value), range)?;
        }
        Ok(())
    }

    fn processing_instruction(&mut self, c: &mut Cursor<'_>, make_node: bool) -> Result<()> {
        let start = c.pos;
        c.pos += 2;
        let target = c.ncname("a processing instruction target after '<?'")?;
        if target == "xml" && self.recover && self.only_misc_so_far && c.peek().is_some_and(is_space) {
            // A declaration after comments: read as the declaration.
            c.pos = start;
            self.xml_declaration(c)?;
            self.recovered.push(Recovered {
                at: start..c.pos,
                message:
                    "the XML declaration stands after other markup: it may stand only at the very start of the document"
                        .to_owned(),
                kind: RecoveredKind::DeclarationNotFirst,
            });
            self.only_misc_so_far = false;
            return Ok(());
        }
        if target.eq_ignore_ascii_case("xml") {
            let message = if target == "xml" {
                "an XML declaration may stand only at the very start of the document"
            } else {
                "processing instruction targets matching 'xml' in any case are reserved"
            };
            return Err(c.error_at(start, message));
        }
        if !c.starts_with("?>") {
            c.require_space("after the processing instruction target")?;
        }
        let Some(end) = memmem::find(&c.bytes()[c.pos..], b"?>") else {
            return Err(c.error_at(start, "processing instruction not closed (expected '?>')"));
        };
        c.pos += end + 2;
        if make_node {
            self.flush_text()?;
            let range = c.doc_range(start, c.pos);
            self.add_node(Kind::ProcessingInstruction, range)?;
        }
        Ok(())
    }

    // ----- content -----------------------------------------------------------

    /// Content up to the end tag of the element open when called (in the
    /// document) or up to the end of the replacement text (in an entity).
    fn content(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        let base = self.open.len();
        let normalize_cr = c.in_document() && self.has_cr;
        loop {
            let rest = &c.bytes()[c.pos..];
            let run = if normalize_cr {
                rest.iter().position(|b| matches!(b, b'<' | b'&' | b']' | b'\r'))
            } else {
                memchr3(b'<', b'&', b']', rest)
            };
            let stop = c.pos + run.unwrap_or(rest.len());
            if stop > c.pos {
                self.text_here(c, c.pos, stop);
                c.pos = stop;
            }
            let Some(b) = c.peek() else {
                if c.in_document() {
                    let open = self.open.last().expect("content is read inside an element");
                    let name = &c.s[open.qname.0..open.qname.1];
                    // Where the text stops: a truncated file is reported
                    // where it ends, naming the element still open (once,
                    // so counting its line is no cost).
                    let opened = self.doc.nodes[open.node as usize].start as usize;
                    let line = 1 + memchr::memchr_iter(b'\n', &self.text.as_bytes()[..opened]).count();
                    return Err(c.error(format!(
                        "the document ends before <{name}> (opened on line {line}) is closed: is the file truncated?"
                    )));
                }
                if self.open.len() > base {
                    let open = self.open.last().expect("above base");
                    let name = &c.s[open.qname.0..open.qname.1];
                    return Err(c.error(format!(
                        "<{}> starts in the entity but does not end in it",
                        shorten(name)
                    )));
                }
                return Ok(());
            };
            match b {
                b'<' => match c.peek_at(1) {
                    Some(b'/') => {
                        self.flush_text()?;
                        self.end_tag(c, base)?;
                        if c.in_document() && self.open.len() < base {
                            return Ok(());
                        }
                    }
                    Some(b'!') if c.starts_with("<!--") => self.comment(c, true)?,
                    Some(b'!') if c.starts_with("<![CDATA[") => self.cdata(c)?,
                    Some(b'!') => return Err(c.error("expected a comment or a CDATA section after '<!'")),
                    Some(b'?') => self.processing_instruction(c, true)?,
                    _ => {
                        self.flush_text()?;
                        self.start_tag(c)?;
                    }
                },
                b'&' => self.reference_in_content(c)?,
                b']' => {
                    if c.starts_with("]]>") {
                        return Err(c.error("']]>' is not allowed in text (write ']]&gt;')"));
                    }
                    self.text_here(c, c.pos, c.pos + 1);
                    c.pos += 1;
                }
                _ => {
                    // A carriage return: a line end, normalized to a line feed.
                    let start = c.pos;
                    c.pos += if c.peek_at(1) == Some(b'\n') { 2 } else { 1 };
                    self.raw_text(start, c.pos, true, true);
                }
            }
        }
    }

    fn cdata(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        let start = c.pos;
        let body = start + 9;
        let Some(len) = memmem::find(&c.bytes()[body..], b"]]>") else {
            return Err(c.error_at(start, "CDATA section not closed (expected ']]>')"));
        };
        let end = body + len;
        c.pos = end + 3;
        if c.in_document() {
            let blank = c.bytes()[body..end].iter().all(|&b| is_space(b));
            self.raw_text(start, c.pos, true, blank);
        } else if body < end {
            self.text_here(c, body, end);
        }
        Ok(())
    }

    fn start_tag(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        let start = c.pos;
        c.pos += 1;
        let (name_start, name_end, colons) = c.name("an element name after '<'")?;
        self.attributes.clear();
        self.element_serial += 1;
        let empty = loop {
            let had_space = c.skip_space();
            match c.peek() {
                Some(b'>') => {
                    c.pos += 1;
                    break false;
                }
                Some(b'/') if c.peek_at(1) == Some(b'>') => {
                    c.pos += 2;
                    break true;
                }
                None => return Err(c.error_at(start, "start tag not closed")),
                _ if !had_space => {
                    return Err(c.error(format!(
                        "expected white space, '>' or '/>' in the start tag{}",
                        c.found()
                    )));
                }
                _ => {}
            }
            let (attr_start, attr_end, attr_colons) = c.name("an attribute name, '>' or '/>'")?;
            c.skip_space();
            if c.peek() != Some(b'=') {
                let name = &c.s[attr_start..attr_end];
                return Err(c.error(format!(
                    "expected '=' after attribute name \"{}\"{}",
                    shorten(name),
                    c.found()
                )));
            }
            c.pos += 1;
            c.skip_space();
            let Some(quote) = c.peek().filter(|q| matches!(q, b'"' | b'\'')) else {
                return Err(c.error(format!("expected a quoted attribute value{}", c.found())));
            };
            c.pos += 1;
            let value_start = c.pos;
            let value = self.attribute_value(c, quote)?;
            let (value_start, value_end) = c.doc_range(value_start, c.pos - 1);
            let attr_at = c.doc_range(attr_start, attr_end).0;
            self.attributes.push(RawAttribute {
                qname: QName::Here(attr_start, attr_end),
                colons: attr_colons,
                value,
                start: attr_at,
                value_start,
                value_end,
                specified: true,
            });
        };
        let (element_start, element_end) = c.doc_range(start, c.pos);
        if !self.dtd.attributes.is_empty() {
            self.apply_declarations(c, &c.s[name_start..name_end])?;
        }
        self.check_unique(c)?;
        let mark = self.namespaces.bindings.len() as u32;
        self.declare_namespaces(c)?;
        let name = self.element_name(c, name_start, name_end, colons)?;
        let attributes_start = self.doc.attributes.len() as u32;
        let has_base = self.resolve_attributes(c)?;
        let has_attributes = self.doc.attributes.len() as u32 > attributes_start;
        let attributes = match self.doc.attributes.last_mut() {
            Some(last) if has_attributes => {
                last.mark_last();
                attributes_start
            }
            _ => NONE,
        };
        self.doc.name_uses[name as usize] += 1;
        let kind = Kind::Element {
            name,
            attributes,
            has_base,
        };
        let node = self.add_node(kind, (element_start, element_end))?;
        if empty {
            self.namespaces.unbind_to(mark);
        } else {
            self.open.push(Open {
                node,
                qname: (name_start, name_end),
                bindings_mark: mark,
                last_child: NONE,
            });
        }
        Ok(())
    }

    fn end_tag(&mut self, c: &mut Cursor<'_>, base: usize) -> Result<()> {
        let start = c.pos;
        c.pos += 2;
        // Nearly always the name of the open element: compared as bytes,
        // then checked to end there, instead of scanned as a name.
        let expected = self
            .open
            .last()
            .filter(|_| c.in_document() || self.open.len() > base)
            .map(|open| open.qname);
        let (name_start, name_end, matched) = match expected {
            Some((open_start, open_end))
                if c.bytes()[c.pos..].starts_with(&c.bytes()[open_start..open_end])
                    && matches!(
                        c.peek_at(open_end - open_start),
                        Some(b'>' | b' ' | b'\t' | b'\n' | b'\r')
                    ) =>
            {
                c.pos += open_end - open_start;
                (c.pos - (open_end - open_start), c.pos, true)
            }
            _ => {
                let (name_start, name_end, _) = c.name("an element name after '</'")?;
                (name_start, name_end, false)
            }
        };
        c.skip_space();
        if c.peek() == Some(b'>') {
            c.pos += 1;
        } else {
            c.expect(">", "to close the end tag")?;
        }
        let name = &c.s[name_start..name_end];
        if !c.in_document() && self.open.len() == base {
            return Err(c.error_at(
                start,
                format!(
                    "end tag </{}> closes an element that started outside the entity",
                    shorten(name)
                ),
            ));
        }
        let open = self.open.pop().expect("above base");
        let expected = &c.s[open.qname.0..open.qname.1];
        if !matched && expected != name {
            return Err(c.error_at(
                start,
                format!(
                    "end tag </{}> does not match the start tag <{}>",
                    shorten(name),
                    shorten(expected)
                ),
            ));
        }
        self.doc.nodes[open.node as usize].end = c.doc_range(start, c.pos).1;
        self.namespaces.unbind_to(open.bindings_mark);
        Ok(())
    }

    // ----- attributes and namespaces ------------------------------------

    /// Adds the attributes the DTD defaults for this element and normalizes
    /// the values of attributes declared other than CDATA (XML 1.0 §3.3.2, §3.3.3).
    fn apply_declarations(&mut self, c: &Cursor<'_>, element: &str) -> Result<()> {
        let Some(defs) = self.dtd.attributes.get(element) else {
            return Ok(());
        };
        let specified = self.attributes.len();
        for def in defs {
            let written = self.attributes[..specified]
                .iter()
                .position(|a| a.qname.get(c.s) == &*def.name);
            match (written, def.default) {
                (Some(i), _) if !def.cdata => {
                    let value = self.attributes[i].value;
                    let normalized = collapse_spaces(self.doc.str(value));
                    if normalized.len() != (value.end - value.start) as usize {
                        self.attributes[i].value = push_arena(&mut self.doc.arena, &normalized);
                    }
                }
                (Some(_), _) | (None, None) => {}
                (None, Some((value, (literal_start, literal_end)))) => {
                    self.expanded += (def.name.len() + (value.end - value.start) as usize + 16) as u64;
                    if self.expanded > MAX_ENTITY_EXPANSION {
                        return Err(c.error(format!(
                            "entity references and defaulted attributes expand to more than {} MiB: refused as a likely entity-expansion attack",
                            MAX_ENTITY_EXPANSION >> 20
                        )));
                    }
                    self.attributes.push(RawAttribute {
                        qname: QName::Declared(def.name.clone()),
                        colons: def.name.bytes().filter(|&b| b == b':').count(),
                        value,
                        start: literal_start,
                        value_start: literal_start + 1,
                        value_end: literal_end - 1,
                        specified: false,
                    });
                }
            }
        }
        Ok(())
    }

    /// WFC: Unique Att Spec, for the few attributes most elements have, by
    /// comparing names; with more, by marks per name as the names are
    /// resolved (see `resolve_attributes` and `declare_namespaces`).
    fn check_unique(&self, c: &Cursor<'_>) -> Result<()> {
        let attributes = &self.attributes;
        if attributes.len() > 8 {
            return Ok(());
        }
        let duplicate = (1..attributes.len()).find(|&i| {
            let name = attributes[i].qname.get(c.s);
            attributes[..i].iter().any(|a| a.qname.get(c.s) == name)
        });
        match duplicate {
            Some(i) => {
                let attribute = &attributes[i];
                let at = if c.in_document() {
                    attribute.start as usize
                } else {
                    c.pos
                };
                Err(c.error_at(
                    at,
                    format!("attribute \"{}\" is given twice", shorten(attribute.qname.get(c.s))),
                ))
            }
            None => Ok(()),
        }
    }

    /// Binds the prefixes the element's `xmlns` attributes declare.
    fn declare_namespaces(&mut self, c: &Cursor<'_>) -> Result<()> {
        for i in 0..self.attributes.len() {
            let attribute = &self.attributes[i];
            let qname = attribute.qname.get(c.s);
            let prefix = if qname == "xmlns" {
                ""
            } else if let Some(prefix) = qname.strip_prefix("xmlns:") {
                prefix
            } else {
                continue;
            };
            let at = if c.in_document() {
                attribute.start as usize
            } else {
                c.pos
            };
            let uri = self.doc.str(attribute.value);
            let problem = if attribute.colons > 1 || (qname != "xmlns" && !is_ncname(prefix)) {
                Some(format!(
                    "\"{}\" is not a valid namespace declaration name",
                    shorten(qname)
                ))
            } else if prefix == "xmlns" {
                Some("the prefix \"xmlns\" must not be declared".to_owned())
            } else if prefix == "xml" && uri != XML_NS {
                Some(format!("the prefix \"xml\" may be bound only to \"{XML_NS}\""))
            } else if prefix != "xml" && uri == XML_NS {
                Some(format!("\"{XML_NS}\" may be bound only to the prefix \"xml\""))
            } else if uri == XMLNS_NS {
                Some(format!("\"{XMLNS_NS}\" must not be declared"))
            } else if !prefix.is_empty() && uri.is_empty() {
                Some(format!(
                    "xmlns:{prefix}=\"\" would undeclare the prefix, which only Namespaces in XML 1.1 allows"
                ))
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(c.error_at(at, format!("{problem} (Namespaces in XML §3)")));
            }
            let uri = (!uri.is_empty()).then_some(attribute.value);
            let prefix = self.namespaces.prefix_id(prefix);
            if self.prefix_marks.len() <= prefix as usize {
                self.prefix_marks.resize(prefix as usize + 1, NONE);
            }
            if self.prefix_marks[prefix as usize] == self.element_serial {
                return Err(c.error_at(at, format!("attribute \"{}\" is given twice", shorten(qname))));
            }
            self.prefix_marks[prefix as usize] = self.element_serial;
            self.namespaces.bind(prefix, uri);
        }
        Ok(())
    }

    fn element_name(&mut self, c: &Cursor<'_>, start: usize, end: usize, colons: usize) -> Result<u32> {
        let qname = &c.s[start..end];
        let (prefix, local) = split_qname(qname, colons).ok_or_else(|| {
            c.error_at(start, format!("\"{}\" is not a valid element name: at most one ':', with a name on each side (Namespaces in XML §3)", shorten(qname)))
        })?;
        if prefix == "xmlns" {
            return Err(c.error_at(
                start,
                "element names must not have the prefix \"xmlns\" (Namespaces in XML §3)",
            ));
        }
        let Some(namespace) = self.namespaces.resolve(&self.doc, prefix) else {
            return Err(c.error_at(
                start,
                format!(
                    "the prefix \"{}\" of <{}> is not declared",
                    shorten(prefix),
                    shorten(qname)
                ),
            ));
        };
        Ok(self.names.lookup(&mut self.doc, namespace, local))
    }

    /// Resolves the attributes' names and moves them into the document;
    /// checks that no two have the same expanded name. Whether one of them
    /// is `xml:base`.
    fn resolve_attributes(&mut self, c: &Cursor<'_>) -> Result<bool> {
        let mut has_base = false;
        let first = self.doc.attributes.len();
        for i in 0..self.attributes.len() {
            let attribute = &self.attributes[i];
            let qname = attribute.qname.get(c.s);
            if qname == "xmlns" || qname.starts_with("xmlns:") {
                continue;
            }
            let at = if c.in_document() {
                attribute.start as usize
            } else {
                c.pos
            };
            let Some((prefix, local)) = split_qname(qname, attribute.colons) else {
                return Err(c.error_at(at, format!("\"{}\" is not a valid attribute name: at most one ':', with a name on each side (Namespaces in XML §3)", shorten(qname))));
            };
            let namespace = if prefix.is_empty() {
                0
            } else {
                self.namespaces.resolve(&self.doc, prefix).ok_or_else(|| {
                    c.error_at(
                        at,
                        format!(
                            "the prefix \"{}\" of attribute \"{}\" is not declared",
                            shorten(prefix),
                            shorten(qname)
                        ),
                    )
                })?
            };
            has_base |= namespace == names::XML_NAMESPACE_ID && local == "base";
            let name = self.names.lookup(&mut self.doc, namespace, local);
            if name >= MAX_NAMES {
                return Err(c.error_at(
                    at,
                    format!("more than {MAX_NAMES} distinct names: refused as too large to check"),
                ));
            }
            // Two attributes with one expanded name: marked per name for this
            // element, so any number of attributes is checked in linear time.
            if self.name_marks.len() <= name as usize {
                self.name_marks.resize(name as usize + 1, NONE);
            }
            if self.name_marks[name as usize] == self.element_serial {
                return Err(self.duplicate_attribute(c, first, name, at));
            }
            self.name_marks[name as usize] = self.element_serial;
            let attribute = &self.attributes[i];
            let value = attribute.value;
            let written = (attribute.value_start, attribute.value_end);
            let normalized = value.in_arena || (value.start, value.end) != written;
            if normalized {
                let index = self.doc.attributes.len() as u32;
                self.doc.attribute_values.push((index, value));
            }
            let data = AttributeData::new(name, written, normalized, attribute.specified);
            self.doc.attributes.push(data);
        }
        Ok(has_base)
    }

    /// The error for a second attribute with the expanded name `name`: the
    /// same qualified name twice (XML 1.0 §3.1, WFC: Unique Att Spec), or two
    /// prefixes bound to one namespace (Namespaces in XML §6.3).
    fn duplicate_attribute(&self, c: &Cursor<'_>, first: usize, name: u32, at: usize) -> XmlError {
        let data = self.doc.names[name as usize];
        let local = &self.doc.name_text[data.start as usize..data.end as usize];
        let qnames: Vec<&str> = self
            .attributes
            .iter()
            .map(|a| a.qname.get(c.s))
            .filter(|q| !(*q == "xmlns" || q.starts_with("xmlns:")))
            .collect();
        let earlier = self.doc.attributes[first..].iter().position(|a| a.name() == name);
        let later = qnames.get(self.doc.attributes.len() - first).copied().unwrap_or(local);
        match earlier.map(|i| qnames[i]) {
            Some(qname) if qname == later => c.error_at(at, format!("attribute \"{}\" is given twice", shorten(qname))),
            _ => c.error_at(
                at,
                format!(
                    "two attributes named \"{local}\" in namespace \"{}\" (Namespaces in XML §6.3)",
                    self.namespaces.names.strings.get(data.namespace)
                ),
            ),
        }
    }

    /// An attribute value after its opening quote, through the closing one,
    /// normalized (XML 1.0 §3.3.3).
    fn attribute_value(&mut self, c: &mut Cursor<'_>, quote: u8) -> Result<Str> {
        let start = c.pos;
        // Most values have nothing to normalize: read by table to the quote.
        let bytes = c.bytes();
        let mut end = start;
        while let Some(&b) = bytes.get(end) {
            if b == quote {
                c.pos = end + 1;
                return Ok(self.keep(c, start, end));
            }
            if chars::stops_value(b) {
                break;
            }
            end += 1;
        }
        let mut value = std::mem::take(&mut self.value);
        value.clear();
        let mut copied = false;
        let result = loop {
            let rest = &c.bytes()[c.pos..];
            let Some(len) = memchr3(quote, b'<', b'&', rest) else {
                break Err(c.error_at(start - 1, "attribute value not closed"));
            };
            let run = &c.s[c.pos..c.pos + len];
            let needs_spaces = memchr3(b'\t', b'\n', b'\r', run.as_bytes()).is_some();
            if needs_spaces || copied || rest[len] == b'&' {
                if !copied {
                    copied = true;
                    value.push_str(&c.s[start..c.pos]);
                }
                push_normalized(&mut value, run, c.in_document());
            }
            c.pos += len;
            match rest[len] {
                b'<' => break Err(c.error("'<' is not allowed in an attribute value (write &lt;)")),
                b'&' => {
                    let at = c.pos;
                    match self.reference(c) {
                        Err(error) => break Err(error),
                        Ok(Reference::Char(ch)) => value.push(ch),
                        Ok(Reference::Entity(name)) => {
                            if let Err(error) = self.entity_in_attribute(c, name, at, &mut value) {
                                break Err(error);
                            }
                        }
                    }
                }
                _ => {
                    c.pos += 1;
                    break Ok(());
                }
            }
        };
        let kept = match result {
            Err(error) => Err(error),
            Ok(()) if copied => Ok(push_arena(&mut self.doc.arena, &value)),
            Ok(()) => Ok(self.keep(c, start, c.pos - 1)),
        };
        self.value = value;
        kept
    }

    /// Appends an entity's replacement text, normalized, to an attribute value.
    fn entity_in_attribute(&mut self, c: &Cursor<'_>, name: &str, at: usize, value: &mut String) -> Result<()> {
        if let Some(ch) = predefined(name) {
            value.push(ch);
            return Ok(());
        }
        let Some(&index) = self.dtd.entities.get(name) else {
            return self.undeclared(c, name, at, false);
        };
        let text = match &self.dtd.list[index].value {
            EntityValue::Internal(text) => text.clone(),
            EntityValue::External { .. } => {
                return Err(c.error_at(
                    at,
                    format!("attribute values must not reference the external entity \"{}\" (XML 1.0 §3.1, WFC: No External Entity References)", shorten(name)),
                ));
            }
        };
        let entity = self.enter(c, index, at, text.len())?;
        let mut inner = Cursor::in_entity(&text, entity, c.doc_range(at, c.pos));
        let result = self.replacement_in_attribute(&mut inner, value);
        self.leave(index);
        result
    }

    fn replacement_in_attribute(&mut self, c: &mut Cursor<'_>, value: &mut String) -> Result<()> {
        loop {
            let rest = &c.bytes()[c.pos..];
            let len = memchr::memchr2(b'<', b'&', rest).unwrap_or(rest.len());
            push_normalized(value, &c.s[c.pos..c.pos + len], false);
            c.pos += len;
            match c.peek() {
                None => return Ok(()),
                Some(b'<') => {
                    return Err(c.error("'<' is not allowed in an attribute value, and this entity is referenced in one (XML 1.0 §3.1, WFC: No < in Attribute Values)"));
                }
                _ => {
                    let at = c.pos;
                    match self.reference(c)? {
                        Reference::Char(ch) => value.push(ch),
                        Reference::Entity(name) => self.entity_in_attribute(c, name, at, value)?,
                    }
                }
            }
        }
    }

    // ----- references ----------------------------------------------------

    /// `&#...;`, `&#x...;` or `&name;` at the cursor.
    fn reference<'s>(&self, c: &mut Cursor<'s>) -> Result<Reference<'s>> {
        let start = c.pos;
        c.pos += 1;
        if c.peek() != Some(b'#') {
            let Ok((name_start, name_end, _)) = c.name("") else {
                return Err(c.error_at(
                    start,
                    "'&' must start a reference such as &amp; or &#38; (write a literal '&' as &amp;)",
                ));
            };
            if c.peek() != Some(b';') {
                return Err(c.error(format!(
                    "the entity reference &{}; is missing its ';'",
                    &c.s[name_start..name_end]
                )));
            }
            c.pos += 1;
            return Ok(Reference::Entity(&c.s[name_start..name_end]));
        }
        c.pos += 1;
        let hex = c.peek() == Some(b'x');
        if hex {
            c.pos += 1;
        }
        let digits_start = c.pos;
        let mut code: u32 = 0;
        while let Some(digit) = c.peek().and_then(|b| (b as char).to_digit(if hex { 16 } else { 10 })) {
            code = code.saturating_mul(if hex { 16 } else { 10 }).saturating_add(digit);
            c.pos += 1;
        }
        if c.pos == digits_start || c.peek() != Some(b';') {
            return Err(c.error_at(
                start,
                "malformed character reference: expected &#digits; or &#xhexdigits;",
            ));
        }
        c.pos += 1;
        match char::from_u32(code).filter(|_| chars::is_xml_char(code)) {
            Some(ch) => Ok(Reference::Char(ch)),
            None => Err(c.error_at(
                start,
                format!(
                    "character reference &{}; is not a character XML allows (XML 1.0 §4.1, WFC: Legal Character)",
                    &c.s[start + 1..c.pos - 1]
                ),
            )),
        }
    }

    fn reference_in_content(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        let start = c.pos;
        let reference = self.reference(c)?;
        let range = c.doc_range(start, c.pos);
        let character = match reference {
            Reference::Char(ch) => Some(ch),
            Reference::Entity(name) => predefined(name),
        };
        if let Some(ch) = character {
            if c.in_document() {
                self.raw_text(start, c.pos, true, ch.is_ascii() && is_space(ch as u8));
            } else {
                self.owned_text(ch.encode_utf8(&mut [0; 4]), range);
            }
            return Ok(());
        }
        let Reference::Entity(name) = reference else {
            unreachable!("a character reference is a character");
        };
        let Some(&index) = self.dtd.entities.get(name) else {
            self.undeclared(c, name, start, false)?;
            self.skipped_reference(c, start);
            return Ok(());
        };
        let text = match &self.dtd.list[index].value {
            EntityValue::Internal(text) => text.clone(),
            EntityValue::External { unparsed: true } => {
                return Err(c.error_at(start, format!("\"{}\" is an unparsed entity: it may be named only in an ENTITY attribute, not referenced (XML 1.0 §4.1, WFC: Parsed Entity)", shorten(name))));
            }
            EntityValue::External { unparsed: false } => {
                self.undeclared(c, name, start, true)?;
                self.skipped_reference(c, start);
                return Ok(());
            }
        };
        let entity = self.enter(c, index, start, text.len())?;
        let mut inner = Cursor::in_entity(&text, entity, range);
        let result = self.content(&mut inner);
        self.leave(index);
        result
    }

    /// A reference in text that is not expanded: in the document, part of
    /// the text's range, which decoding then leaves out.
    fn skipped_reference(&mut self, c: &Cursor<'_>, start: usize) {
        if c.in_document() {
            self.raw_text(start, c.pos, true, true);
        }
    }

    /// Checks a reference to entity `index` may be expanded (no recursion,
    /// depth and total size within bounds) and marks it open.
    fn enter(&mut self, c: &Cursor<'_>, index: usize, at: usize, len: usize) -> Result<Rc<str>> {
        let entity = &mut self.dtd.list[index];
        if entity.open {
            return Err(c.error_at(
                at,
                format!(
                    "entity \"{}\" refers to itself (directly or through other entities)",
                    entity.name
                ),
            ));
        }
        if self.depth >= MAX_ENTITY_DEPTH {
            return Err(c.error_at(at, format!("entity references nest more than {MAX_ENTITY_DEPTH} deep")));
        }
        self.expanded += len as u64;
        if self.expanded > MAX_ENTITY_EXPANSION {
            // Reported at the reference in the document, as the document's
            // fault rather than the entity's.
            return Err(XmlError {
                at: c.doc_range(at, at).0 as usize,
                message: format!(
                    "entity references expand to more than {} MiB (here \"&{};\", whose replacement text is {len} bytes): refused as a likely entity-expansion attack",
                    MAX_ENTITY_EXPANSION >> 20,
                    entity.name
                ),
            });
        }
        entity.open = true;
        self.depth += 1;
        Ok(entity.name.clone())
    }

    fn leave(&mut self, index: usize) {
        self.dtd.list[index].open = false;
        self.depth -= 1;
    }

    /// A reference to an entity whose declaration was not read: an error
    /// if every declaration was read, else noted and skipped.
    fn undeclared(&mut self, c: &Cursor<'_>, name: &str, at: usize, declared_external: bool) -> Result<()> {
        if !declared_external && self.dtd.is_complete() {
            return Err(c.error_at(at, format!("undeclared entity \"&{};\" (XML 1.0 §4.1, WFC: Entity Declared): declare it in the DTD, or write the character as a reference such as &#160;", shorten(name))));
        }
        if self.doc.unread_entity.is_none() {
            let (start, end) = c.doc_range(at, at + name.len() + 2);
            self.doc.unread_entity = Some(UnreadEntity {
                name: name.to_owned(),
                range: start as usize..end as usize,
                declared_external,
            });
        }
        Ok(())
    }
}

/// Whether a start tag begins at the cursor.
fn starts_element(c: &Cursor<'_>) -> bool {
    c.peek() == Some(b'<') && c.peek_at(1).is_some_and(|b| !matches!(b, b'!' | b'?' | b'/'))
}

/// Appends text to an attribute value with white space turned into spaces;
/// in the document, a CR LF pair is one line end and so one space.
fn push_normalized(value: &mut String, run: &str, in_document: bool) {
    let mut rest = run;
    while let Some(i) = memchr3(b'\t', b'\n', b'\r', rest.as_bytes()) {
        value.push_str(&rest[..i]);
        value.push(' ');
        let crlf = in_document && rest.as_bytes()[i] == b'\r' && rest.as_bytes().get(i + 1) == Some(&b'\n');
        rest = &rest[i + if crlf { 2 } else { 1 }..];
    }
    value.push_str(rest);
}

/// The further normalization of values not declared CDATA: no leading or
/// trailing spaces, and single spaces between tokens.
fn collapse_spaces(value: &str) -> String {
    value.split(' ').filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" ")
}

fn is_ncname(s: &str) -> bool {
    chars::is_name(s) && !s.contains(':')
}

/// `prefix` and `local` of a qualified name (the prefix empty if none).
fn split_qname(qname: &str, colons: usize) -> Option<(&str, &str)> {
    match colons {
        0 => Some(("", qname)),
        1 => {
            let (prefix, local) = qname.split_once(':')?;
            let starts_name = local.chars().next().is_some_and(chars::is_name_start);
            (!prefix.is_empty() && starts_name).then_some((prefix, local))
        }
        _ => None,
    }
}
