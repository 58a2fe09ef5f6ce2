//! The parser: one pass over the text, building the tree as it goes.
//!
//! The same code reads the document and the replacement text of internal
//! entities: a [`Cursor`] is a position in either, and knows which
//! reference in the document brought it there, so that nodes made from an
//! entity point at the reference and errors inside it name the entity.

use std::rc::Rc;
use std::sync::OnceLock;

use memchr::{memchr, memchr3, memmem};

use super::chars::{self, is_space};
use super::dom::{decode_text, AttributeData, Document, Kind, NameData, NodeData, Str, UnreadEntity, MAX_NODES, NONE};
use super::{XmlError, MAX_ENTITY_DEPTH, MAX_ENTITY_EXPANSION, XMLNS_NS, XML_NS};
use crate::hash::{FastMap, FastSet, FastState};

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

enum EntityValue {
    Internal(Rc<str>),
    /// Declared with a system identifier; never read.
    External {
        unparsed: bool,
    },
}

struct Entity {
    name: Rc<str>,
    value: EntityValue,
    /// Being expanded: a reference to it now is a recursion.
    open: bool,
}

/// One attribute declared for an element type in an `<!ATTLIST>`.
struct AttributeDef {
    name: Rc<str>,
    /// Declared `CDATA`: its value is not normalized further.
    cdata: bool,
    /// The default value (in the arena or the input) and where its literal is.
    default: Option<(Str, (u32, u32))>,
}

#[derive(Default)]
struct Dtd {
    entities: FastMap<Rc<str>, usize>,
    parameters: FastMap<Rc<str>, usize>,
    /// General entities, then parameter entities, by index.
    list: Vec<Entity>,
    attributes: FastMap<Box<str>, Vec<AttributeDef>>,
    has_external_subset: bool,
    has_parameter_references: bool,
    /// A parameter entity was not read: declarations after it are not
    /// processed (XML 1.0 §5.1).
    skip_declarations: bool,
    standalone: bool,
}

impl Dtd {
    /// Whether every entity a document may use has had its declaration
    /// read, so that an undeclared one is a well-formedness error (XML 1.0
    /// §4.1, WFC: Entity Declared).
    fn is_complete(&self) -> bool {
        self.standalone || !(self.has_external_subset || self.has_parameter_references)
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

/// Namespace bindings in scope: per prefix, the innermost binding, each
/// binding remembering the one it hides, so binding and unbinding are
/// constant time at any depth.
struct Namespaces {
    prefixes: FastMap<Box<str>, u32>,
    /// By prefix id: the index of its innermost binding, or NONE.
    current: Vec<u32>,
    bindings: Vec<Binding>,
    /// Namespace names, to their index in `list`.
    ids: FastMap<Box<str>, u32>,
    /// Namespace names by index, index 0 "no namespace": moved into the
    /// document at the end.
    list: Vec<Box<str>>,
}

struct Binding {
    prefix: u32,
    namespace: u32,
    hidden: u32,
}

const DEFAULT_PREFIX: u32 = 0;
const XML_NAMESPACE_ID: u32 = 1;

impl Namespaces {
    fn new() -> Self {
        let mut namespaces = Namespaces {
            prefixes: FastMap::default(),
            current: Vec::new(),
            bindings: Vec::new(),
            ids: FastMap::default(),
            list: vec!["".into()],
        };
        namespaces.namespace_id(XML_NS);
        namespaces.prefix_id("");
        let xml = namespaces.prefix_id("xml");
        namespaces.bindings.push(Binding {
            prefix: xml,
            namespace: XML_NAMESPACE_ID,
            hidden: NONE,
        });
        namespaces.current[xml as usize] = 0;
        namespaces
    }

    fn prefix_id(&mut self, prefix: &str) -> u32 {
        if let Some(&id) = self.prefixes.get(prefix) {
            return id;
        }
        let id = self.current.len() as u32;
        self.prefixes.insert(prefix.into(), id);
        self.current.push(NONE);
        id
    }

    fn namespace_id(&mut self, uri: &str) -> u32 {
        if let Some(&id) = self.ids.get(uri) {
            return id;
        }
        let id = self.list.len() as u32;
        self.list.push(uri.into());
        self.ids.insert(uri.into(), id);
        id
    }

    fn bind(&mut self, prefix: u32, namespace: u32) {
        let hidden = self.current[prefix as usize];
        self.current[prefix as usize] = self.bindings.len() as u32;
        self.bindings.push(Binding {
            prefix,
            namespace,
            hidden,
        });
    }

    fn unbind_to(&mut self, mark: u32) {
        while self.bindings.len() > mark as usize {
            let binding = self.bindings.pop().expect("above the mark");
            self.current[binding.prefix as usize] = binding.hidden;
        }
    }

    /// The namespace a prefix is bound to (0: none, for the default
    /// namespace undeclared or never declared); `None` if unbound.
    fn resolve(&self, prefix: &str) -> Option<u32> {
        let id = if prefix.is_empty() {
            DEFAULT_PREFIX
        } else {
            *self.prefixes.get(prefix)?
        };
        match self.current[id as usize] {
            NONE if prefix.is_empty() => Some(0),
            NONE => None,
            binding => Some(self.bindings[binding as usize].namespace),
        }
    }
}

/// Expanded names, interned: an open-addressing table of indexes into
/// `Document::names`, each slot with the name's hash so that most probes
/// compare no text. Local names are copied once into
/// `Document::name_text`, one small string.
struct NameTable {
    /// `(hash, name id)`; `NONE` ids are empty slots.
    slots: Vec<(u32, u32)>,
    hasher: FastState,
    /// Names of up to eight bytes recently seen, by their bytes as one
    /// word: a feed's element and attribute names are few and short, so
    /// most lookups end here, with no hashing and no text compared.
    recent: [ShortName; 64],
}

#[derive(Clone, Copy)]
struct ShortName {
    word: u64,
    namespace: u32,
    id: u32,
}

impl NameTable {
    fn new() -> Self {
        NameTable {
            slots: vec![(0, NONE); 64],
            hasher: FastState::default(),
            recent: [ShortName {
                word: 0,
                namespace: 0,
                id: NONE,
            }; 64],
        }
    }

    /// The name's id, looking in [`NameTable::recent`] first.
    #[inline]
    fn lookup(&mut self, doc: &mut Document<'_>, namespace: u32, local: &str) -> u32 {
        let bytes = local.as_bytes();
        if bytes.len() > 8 {
            return self.intern(doc, namespace, local);
        }
        // Bytes and length in one word: no two short names share one (a
        // name holds no NUL byte, and the length takes the top byte once
        // the name is shorter than eight bytes).
        let mut padded = [0u8; 8];
        padded[..bytes.len()].copy_from_slice(bytes);
        let word = u64::from_le_bytes(padded) ^ ((bytes.len() as u64) << 56);
        let slot = ((word ^ u64::from(namespace)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize;
        let recent = self.recent[slot];
        if recent.id != NONE && recent.word == word && recent.namespace == namespace {
            return recent.id;
        }
        let id = self.intern(doc, namespace, local);
        self.recent[slot] = ShortName { word, namespace, id };
        id
    }

    #[inline]
    fn hash(&self, namespace: u32, local: &str) -> u32 {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = self.hasher.build_hasher();
        hasher.write_u32(namespace);
        hasher.write(local.as_bytes());
        hasher.finish() as u32
    }

    fn intern(&mut self, doc: &mut Document<'_>, namespace: u32, local: &str) -> u32 {
        if doc.names.len() * 2 >= self.slots.len() {
            self.grow();
        }
        let hash = self.hash(namespace, local);
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let (slot_hash, id) = self.slots[i];
            if id == NONE {
                let start = doc.name_text.len() as u32;
                doc.name_text.push_str(local);
                let id = doc.names.len() as u32;
                doc.names.push(NameData {
                    namespace,
                    start,
                    end: doc.name_text.len() as u32,
                });
                self.slots[i] = (hash, id);
                return id;
            }
            if slot_hash == hash {
                let name = doc.names[id as usize];
                if name.namespace == namespace && &doc.name_text[name.start as usize..name.end as usize] == local {
                    return id;
                }
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let mut slots = vec![(0, NONE); self.slots.len() * 2];
        let mask = slots.len() - 1;
        for &(hash, id) in self.slots.iter().filter(|(_, id)| *id != NONE) {
            let mut i = hash as usize & mask;
            while slots[i].1 != NONE {
                i = (i + 1) & mask;
            }
            slots[i] = (hash, id);
        }
        self.slots = slots;
    }
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
    doc: Document<'input>,
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
}

impl<'input> Parser<'input> {
    pub(super) fn new(text: &'input str) -> Self {
        let mut doc = Document {
            text,
            nodes: Vec::with_capacity(text.len() / 64 + 1),
            attributes: Vec::with_capacity(text.len() / 256 + 1),
            names: Vec::new(),
            namespaces: Vec::new(),
            arena: String::new(),
            name_text: String::new(),
            decoded: Vec::new(),
            unread_entity: None,
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
            attributes: Vec::new(),
            pending: PendingText::default(),
            value: String::new(),
            expanded: 0,
            depth: 0,
        }
    }

    pub(super) fn parse(mut self) -> Result<Document<'input>> {
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
        self.xml_declaration(&mut c)?;
        self.prolog(&mut c)?;
        self.start_tag(&mut c)?;
        if !self.open.is_empty() {
            self.content(&mut c)?;
        }
        self.epilog(&mut c)?;
        self.doc.nodes.shrink_to_fit();
        self.doc.attributes.shrink_to_fit();
        self.doc.namespaces = std::mem::take(&mut self.namespaces.list);
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
                    format!("unexpected \"{name}\" in the XML declaration: it holds version, then optionally encoding, then optionally standalone"),
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
                    format!("invalid {name} \"{value}\" in the XML declaration: expected {expected}"),
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
            c.skip_space();
            if c.starts_with("<?") {
                self.processing_instruction(c, true)?;
            } else if c.starts_with("<!--") {
                self.comment(c, true)?;
            } else if c.starts_with("<!DOCTYPE") {
                if doctype {
                    return Err(c.error("a document has at most one DOCTYPE"));
                }
                doctype = true;
                self.doctype(c)?;
            } else if c.peek() == Some(b'<') && c.peek_at(1).is_some_and(|b| !matches!(b, b'!' | b'?' | b'/')) {
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
            c.skip_space();
            if c.starts_with("<?") {
                self.processing_instruction(c, true)?;
            } else if c.starts_with("<!--") {
                self.comment(c, true)?;
            } else if c.peek().is_none() {
                return Ok(());
            } else if c.peek() == Some(b'<') && c.peek_at(1).is_some_and(|b| !matches!(b, b'!' | b'?' | b'/')) {
                return Err(c.error("a second root element: a document has exactly one"));
            } else {
                return Err(c.error(format!(
                    "only comments, processing instructions and white space may follow the root element{}",
                    c.found()
                )));
            }
        }
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
                    let at = self.doc.nodes[open.node as usize].start as usize;
                    return Err(c.error_at(at, format!("<{name}> is not closed before the end of the document")));
                }
                if self.open.len() > base {
                    let open = self.open.last().expect("above base");
                    let name = &c.s[open.qname.0..open.qname.1];
                    return Err(c.error(format!("<{name}> starts in the entity but does not end in it")));
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
                return Err(c.error(format!("expected '=' after attribute name \"{name}\"{}", c.found())));
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
        self.resolve_attributes(c)?;
        let has_attributes = self.doc.attributes.len() as u32 > attributes_start;
        let attributes = match self.doc.attributes.last_mut() {
            Some(last) if has_attributes => {
                last.last = true;
                attributes_start
            }
            _ => NONE,
        };
        let kind = Kind::Element { name, attributes };
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
        let (name_start, name_end, _) = c.name("an element name after '</'")?;
        c.skip_space();
        c.expect(">", "to close the end tag")?;
        let name = &c.s[name_start..name_end];
        if !c.in_document() && self.open.len() == base {
            return Err(c.error_at(
                start,
                format!("end tag </{name}> closes an element that started outside the entity"),
            ));
        }
        let open = self.open.pop().expect("above base");
        let expected = &c.s[open.qname.0..open.qname.1];
        if expected != name {
            return Err(c.error_at(
                start,
                format!("end tag </{name}> does not match the start tag <{expected}>"),
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

    /// WFC: Unique Att Spec.
    fn check_unique(&self, c: &Cursor<'_>) -> Result<()> {
        let attributes = &self.attributes;
        let duplicate = if attributes.len() <= 8 {
            (1..attributes.len()).find(|&i| {
                let name = attributes[i].qname.get(c.s);
                attributes[..i].iter().any(|a| a.qname.get(c.s) == name)
            })
        } else {
            let mut seen = FastSet::with_capacity_and_hasher(attributes.len(), FastState::default());
            (0..attributes.len()).find(|&i| !seen.insert(attributes[i].qname.get(c.s)))
        };
        match duplicate {
            Some(i) => {
                let attribute = &attributes[i];
                let at = if c.in_document() {
                    attribute.start as usize
                } else {
                    c.pos
                };
                Err(c.error_at(at, format!("attribute \"{}\" is given twice", attribute.qname.get(c.s))))
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
                Some(format!("\"{qname}\" is not a valid namespace declaration name"))
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
            let namespace = if uri.is_empty() {
                0
            } else {
                self.namespaces.namespace_id(uri)
            };
            let prefix = self.namespaces.prefix_id(prefix);
            self.namespaces.bind(prefix, namespace);
        }
        Ok(())
    }

    fn element_name(&mut self, c: &Cursor<'_>, start: usize, end: usize, colons: usize) -> Result<u32> {
        let qname = &c.s[start..end];
        let (prefix, local) = split_qname(qname, colons).ok_or_else(|| {
            c.error_at(start, format!("\"{qname}\" is not a valid element name: at most one ':', with a name on each side (Namespaces in XML §3)"))
        })?;
        if prefix == "xmlns" {
            return Err(c.error_at(
                start,
                "element names must not have the prefix \"xmlns\" (Namespaces in XML §3)",
            ));
        }
        let Some(namespace) = self.namespaces.resolve(prefix) else {
            return Err(c.error_at(start, format!("the prefix \"{prefix}\" of <{qname}> is not declared")));
        };
        Ok(self.names.lookup(&mut self.doc, namespace, local))
    }

    /// Resolves the attributes' names and moves them into the document;
    /// checks that no two have the same expanded name.
    fn resolve_attributes(&mut self, c: &Cursor<'_>) -> Result<()> {
        let first = self.doc.attributes.len();
        let mut prefixed = 0;
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
                return Err(c.error_at(at, format!("\"{qname}\" is not a valid attribute name: at most one ':', with a name on each side (Namespaces in XML §3)")));
            };
            let namespace = if prefix.is_empty() {
                0
            } else {
                prefixed += 1;
                self.namespaces.resolve(prefix).ok_or_else(|| {
                    c.error_at(
                        at,
                        format!("the prefix \"{prefix}\" of attribute \"{qname}\" is not declared"),
                    )
                })?
            };
            let name = self.names.lookup(&mut self.doc, namespace, local);
            let attribute = &self.attributes[i];
            self.doc.attributes.push(AttributeData {
                name,
                value: attribute.value,
                start: attribute.start,
                value_start: attribute.value_start,
                value_end: attribute.value_end,
                specified: attribute.specified,
                last: false,
            });
        }
        // Two prefixed names bound to one namespace (NSC: Attributes Unique).
        if prefixed > 1 {
            let added = &self.doc.attributes[first..];
            let mut seen = FastSet::with_capacity_and_hasher(prefixed, FastState::default());
            for attribute in added {
                if self.doc.names[attribute.name as usize].namespace != 0 && !seen.insert(attribute.name) {
                    let name = self.doc.names[attribute.name as usize];
                    let at = if c.in_document() {
                        attribute.start as usize
                    } else {
                        c.pos
                    };
                    return Err(c.error_at(
                        at,
                        format!(
                            "two attributes named \"{}\" in namespace \"{}\" (Namespaces in XML §6.3)",
                            &self.doc.name_text[name.start as usize..name.end as usize],
                            self.namespaces.list[name.namespace as usize]
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// An attribute value after its opening quote, through the closing one,
    /// normalized (XML 1.0 §3.3.3).
    fn attribute_value(&mut self, c: &mut Cursor<'_>, quote: u8) -> Result<Str> {
        let start = c.pos;
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
                    format!("attribute values must not reference the external entity \"{name}\" (XML 1.0 §3.1, WFC: No External Entity References)"),
                ));
            }
        };
        let entity = self.enter(c, index, at, text.len())?;
        let mut inner = Cursor {
            s: &text,
            pos: 0,
            entity: Some(EntityContext {
                name: entity,
                reference: c.doc_range(at, c.pos),
            }),
        };
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
            return self.undeclared(c, name, start, false);
        };
        let text = match &self.dtd.list[index].value {
            EntityValue::Internal(text) => text.clone(),
            EntityValue::External { unparsed: true } => {
                return Err(c.error_at(start, format!("\"{name}\" is an unparsed entity: it may be named only in an ENTITY attribute, not referenced (XML 1.0 §4.1, WFC: Parsed Entity)")));
            }
            EntityValue::External { unparsed: false } => return self.undeclared(c, name, start, true),
        };
        let entity = self.enter(c, index, start, text.len())?;
        let mut inner = Cursor {
            s: &text,
            pos: 0,
            entity: Some(EntityContext {
                name: entity,
                reference: range,
            }),
        };
        let result = self.content(&mut inner);
        self.leave(index);
        result
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
            return Err(c.error_at(at, format!("undeclared entity \"&{name};\" (XML 1.0 §4.1, WFC: Entity Declared): declare it in the DTD, or write the character as a reference such as &#160;")));
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

    // ----- the DTD ---------------------------------------------------------

    fn doctype(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        c.pos += "<!DOCTYPE".len();
        c.require_space("after '<!DOCTYPE'")?;
        c.name("the root element's name in the DOCTYPE")?;
        let mut had_space = c.skip_space();
        if c.starts_with("SYSTEM") || c.starts_with("PUBLIC") {
            if !had_space {
                return Err(c.error("expected white space before the external identifier"));
            }
            self.external_id(c, false)?;
            self.dtd.has_external_subset = true;
            had_space = c.skip_space();
        }
        let _ = had_space;
        if c.peek() == Some(b'[') {
            c.pos += 1;
            self.markup_declarations(c)?;
            c.pos += 1;
            c.skip_space();
        }
        c.expect(">", "to close the DOCTYPE")
    }

    /// `SYSTEM "..."` or `PUBLIC "..." "..."`; a notation may have a public
    /// identifier alone.
    fn external_id(&mut self, c: &mut Cursor<'_>, public_alone: bool) -> Result<()> {
        if c.starts_with("SYSTEM") {
            c.pos += 6;
            c.require_space("after SYSTEM")?;
            return self.system_literal(c);
        }
        c.expect("PUBLIC", "or SYSTEM")?;
        c.require_space("after PUBLIC")?;
        let Some(quote) = c.peek().filter(|q| matches!(q, b'"' | b'\'')) else {
            return Err(c.error(format!("expected a quoted public identifier{}", c.found())));
        };
        c.pos += 1;
        loop {
            match c.peek() {
                None => return Err(c.error("public identifier not closed")),
                Some(b) if b == quote => break,
                Some(b) if chars::is_pubid(b) => c.pos += 1,
                Some(_) => {
                    return Err(c.error(format!(
                        "this character is not allowed in a public identifier{}",
                        c.found()
                    )))
                }
            }
        }
        c.pos += 1;
        let had_space = c.skip_space();
        match c.peek() {
            Some(b'"' | b'\'') if had_space => self.system_literal(c),
            Some(b'"' | b'\'') => Err(c.error("expected white space between the public and the system identifier")),
            _ if public_alone => Ok(()),
            _ => Err(c.error(format!(
                "expected a system identifier after the public identifier{}",
                c.found()
            ))),
        }
    }

    fn system_literal(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        let Some(quote) = c.peek().filter(|q| matches!(q, b'"' | b'\'')) else {
            return Err(c.error(format!("expected a quoted system identifier{}", c.found())));
        };
        let Some(len) = memchr(quote, &c.bytes()[c.pos + 1..]) else {
            return Err(c.error("system identifier not closed"));
        };
        c.pos += len + 2;
        Ok(())
    }

    /// Markup declarations and parameter-entity references up to `]` (in the
    /// internal subset) or the end (in a parameter entity's replacement text).
    fn markup_declarations(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        loop {
            c.skip_space();
            match c.peek() {
                None if c.in_document() => return Err(c.error("the internal subset is not closed (expected ']')")),
                None => return Ok(()),
                Some(b']') if c.in_document() => return Ok(()),
                Some(b'%') => self.parameter_reference(c)?,
                Some(b'<') => {
                    if c.starts_with("<!ELEMENT") {
                        self.element_declaration(c)?;
                    } else if c.starts_with("<!ATTLIST") {
                        self.attlist_declaration(c)?;
                    } else if c.starts_with("<!ENTITY") {
                        self.entity_declaration(c)?;
                    } else if c.starts_with("<!NOTATION") {
                        self.notation_declaration(c)?;
                    } else if c.starts_with("<!--") {
                        self.comment(c, false)?;
                    } else if c.starts_with("<?") {
                        self.processing_instruction(c, false)?;
                    } else if c.starts_with("<![") {
                        return Err(
                            c.error("conditional sections are allowed only in the external subset (XML 1.0 §3.4)")
                        );
                    } else {
                        return Err(c.error("expected a markup declaration (<!ELEMENT, <!ATTLIST, <!ENTITY, <!NOTATION), a comment or a processing instruction"));
                    }
                }
                Some(_) => {
                    return Err(c.error(format!(
                        "expected a markup declaration, a parameter-entity reference or ']'{}",
                        c.found()
                    )))
                }
            }
        }
    }

    fn parameter_reference(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        let start = c.pos;
        c.pos += 1;
        let name = c.ncname("a parameter entity name after '%'")?;
        c.expect(";", "to end the parameter-entity reference")?;
        self.dtd.has_parameter_references = true;
        let Some(&index) = self.dtd.parameters.get(name) else {
            if self.dtd.standalone {
                return Err(c.error_at(
                    start,
                    format!("undeclared parameter entity \"%{name};\" (XML 1.0 §4.1, WFC: Entity Declared)"),
                ));
            }
            self.dtd.skip_declarations = true;
            return Ok(());
        };
        let text = match &self.dtd.list[index].value {
            EntityValue::Internal(text) => text.clone(),
            EntityValue::External { .. } => {
                // Not read: what it declares is unknown, and declarations
                // after it must not be processed (XML 1.0 §5.1).
                self.dtd.skip_declarations = true;
                return Ok(());
            }
        };
        let entity = self.enter(c, index, start, text.len())?;
        let mut inner = Cursor {
            s: &text,
            pos: 0,
            entity: Some(EntityContext {
                name: entity,
                reference: c.doc_range(start, c.pos),
            }),
        };
        let result = self.markup_declarations(&mut inner);
        self.leave(index);
        result
    }

    fn entity_declaration(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        c.pos += "<!ENTITY".len();
        c.require_space("after '<!ENTITY'")?;
        let parameter = c.peek() == Some(b'%');
        if parameter {
            c.pos += 1;
            c.require_space("after '%' in a parameter entity declaration")?;
        }
        let name: Rc<str> = c.ncname("an entity name")?.into();
        c.require_space("after the entity name")?;
        let value = match c.peek() {
            Some(quote @ (b'"' | b'\'')) => EntityValue::Internal(self.entity_value(c, quote)?.into()),
            _ => {
                self.external_id(c, false)?;
                let had_space = c.skip_space();
                let mut unparsed = false;
                if c.starts_with("NDATA") {
                    if parameter {
                        return Err(c.error("a parameter entity cannot be unparsed (NDATA)"));
                    }
                    if !had_space {
                        return Err(c.error("expected white space before NDATA"));
                    }
                    c.pos += 5;
                    c.require_space("after NDATA")?;
                    c.ncname("a notation name after NDATA")?;
                    unparsed = true;
                }
                EntityValue::External { unparsed }
            }
        };
        c.skip_space();
        c.expect(">", "to close the entity declaration")?;
        if self.dtd.skip_declarations {
            return Ok(());
        }
        let table = if parameter {
            &mut self.dtd.parameters
        } else {
            &mut self.dtd.entities
        };
        // The first declaration of a name binds (XML 1.0 §4.2).
        if !table.contains_key(&name) {
            table.insert(name.clone(), self.dtd.list.len());
            self.dtd.list.push(Entity {
                name,
                value,
                open: false,
            });
        }
        Ok(())
    }

    /// An `EntityValue` literal: character references are replaced now,
    /// entity references kept for when the entity is used (XML 1.0 §4.5).
    fn entity_value(&mut self, c: &mut Cursor<'_>, quote: u8) -> Result<String> {
        c.pos += 1;
        let mut value = String::new();
        let normalize_cr = c.in_document() && self.has_cr;
        loop {
            let rest = &c.bytes()[c.pos..];
            let len = rest
                .iter()
                .position(|&b| b == quote || b == b'%' || b == b'&' || (b == b'\r' && normalize_cr));
            let Some(len) = len else {
                return Err(c.error("entity value not closed"));
            };
            value.push_str(&c.s[c.pos..c.pos + len]);
            c.pos += len;
            match c.bytes()[c.pos] {
                b'%' => {
                    return Err(c.error("a parameter-entity reference is not allowed inside a markup declaration in the internal subset (XML 1.0 §2.8, WFC: PEs in Internal Subset)"));
                }
                b'&' => {
                    let start = c.pos;
                    match self.reference(c)? {
                        Reference::Char(ch) => value.push(ch),
                        Reference::Entity(_) => value.push_str(&c.s[start..c.pos]),
                    }
                }
                b'\r' => {
                    value.push('\n');
                    c.pos += if c.peek_at(1) == Some(b'\n') { 2 } else { 1 };
                }
                _ => {
                    c.pos += 1;
                    return Ok(value);
                }
            }
        }
    }

    fn notation_declaration(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        c.pos += "<!NOTATION".len();
        c.require_space("after '<!NOTATION'")?;
        c.ncname("a notation name")?;
        c.require_space("after the notation name")?;
        self.external_id(c, true)?;
        c.skip_space();
        c.expect(">", "to close the notation declaration")
    }

    fn element_declaration(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        c.pos += "<!ELEMENT".len();
        c.require_space("after '<!ELEMENT'")?;
        c.name("an element name")?;
        c.require_space("after the element name")?;
        if c.starts_with("EMPTY") {
            c.pos += 5;
        } else if c.starts_with("ANY") {
            c.pos += 3;
        } else if c.peek() == Some(b'(') {
            c.pos += 1;
            c.skip_space();
            if c.starts_with("#PCDATA") {
                mixed_content(c)?;
            } else {
                children_content(c)?;
            }
        } else {
            return Err(c.error(format!(
                "expected EMPTY, ANY or a content model in parentheses{}",
                c.found()
            )));
        }
        c.skip_space();
        c.expect(">", "to close the element declaration")
    }

    fn attlist_declaration(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        c.pos += "<!ATTLIST".len();
        c.require_space("after '<!ATTLIST'")?;
        let (start, end, _) = c.name("an element name")?;
        let element: Box<str> = c.s[start..end].into();
        loop {
            let had_space = c.skip_space();
            if c.peek() == Some(b'>') {
                c.pos += 1;
                return Ok(());
            }
            if !had_space {
                return Err(c.error(format!(
                    "expected white space or '>' in the attribute-list declaration{}",
                    c.found()
                )));
            }
            let (start, end, _) = c.name("an attribute name or '>'")?;
            let name: Rc<str> = c.s[start..end].into();
            c.require_space("after the attribute name")?;
            let cdata = attribute_type(c)?;
            c.require_space("after the attribute type")?;
            let default = if c.starts_with("#REQUIRED") {
                c.pos += 9;
                None
            } else if c.starts_with("#IMPLIED") {
                c.pos += 8;
                None
            } else {
                if c.starts_with("#FIXED") {
                    c.pos += 6;
                    c.require_space("after #FIXED")?;
                }
                let Some(quote) = c.peek().filter(|q| matches!(q, b'"' | b'\'')) else {
                    return Err(c.error(format!(
                        "expected #REQUIRED, #IMPLIED, #FIXED or a quoted default value{}",
                        c.found()
                    )));
                };
                let literal_start = c.pos;
                c.pos += 1;
                let mut value = self.attribute_value(c, quote)?;
                if !cdata {
                    let normalized = collapse_spaces(self.doc.str(value));
                    value = push_arena(&mut self.doc.arena, &normalized);
                }
                Some((value, c.doc_range(literal_start, c.pos)))
            };
            if self.dtd.skip_declarations {
                continue;
            }
            let defs = self.dtd.attributes.entry(element.clone()).or_default();
            // The first declaration of an attribute binds (XML 1.0 §3.3).
            if !defs.iter().any(|d| d.name == name) {
                defs.push(AttributeDef { name, cdata, default });
            }
        }
    }
}

/// `(#PCDATA)` or `(#PCDATA | a | b)*`, after the `(`.
fn mixed_content(c: &mut Cursor<'_>) -> Result<()> {
    c.pos += "#PCDATA".len();
    let mut names = false;
    loop {
        c.skip_space();
        match c.peek() {
            Some(b')') => {
                c.pos += 1;
                if c.peek() == Some(b'*') {
                    c.pos += 1;
                } else if names {
                    return Err(c.error("a mixed content model with element names must end with ')*'"));
                }
                return Ok(());
            }
            Some(b'|') => {
                c.pos += 1;
                c.skip_space();
                c.name("an element name after '|'")?;
                names = true;
            }
            _ => return Err(c.error(format!("expected '|' or ')' in the mixed content model{}", c.found()))),
        }
    }
}

/// An element content model after its first `(`: nested choices and
/// sequences, read with an explicit stack (a hostile model may nest deep).
fn children_content(c: &mut Cursor<'_>) -> Result<()> {
    // For each open group: its separator, once known.
    let mut groups: Vec<Option<u8>> = vec![None];
    loop {
        // A content particle: a name or a group.
        c.skip_space();
        if c.peek() == Some(b'(') {
            c.pos += 1;
            groups.push(None);
            continue;
        }
        c.name("an element name or '(' in the content model")?;
        occurrence(c);
        // Separators and group ends, until the next particle.
        loop {
            c.skip_space();
            match c.peek() {
                Some(separator @ (b'|' | b',')) => {
                    let group = groups.last_mut().expect("inside a group");
                    if group.is_some_and(|s| s != separator) {
                        return Err(c.error("a group in a content model mixes '|' and ','"));
                    }
                    *group = Some(separator);
                    c.pos += 1;
                    break;
                }
                Some(b')') => {
                    c.pos += 1;
                    groups.pop();
                    occurrence(c);
                    if groups.is_empty() {
                        return Ok(());
                    }
                }
                _ => return Err(c.error(format!("expected '|', ',' or ')' in the content model{}", c.found()))),
            }
        }
    }
}

fn occurrence(c: &mut Cursor<'_>) {
    if matches!(c.peek(), Some(b'?' | b'*' | b'+')) {
        c.pos += 1;
    }
}

/// An `AttType`; whether it is CDATA.
fn attribute_type(c: &mut Cursor<'_>) -> Result<bool> {
    for keyword in [
        "CDATA", "IDREFS", "IDREF", "ID", "ENTITIES", "ENTITY", "NMTOKENS", "NMTOKEN",
    ] {
        if c.starts_with(keyword) && c.peek_at(keyword.len()).is_some_and(is_space) {
            c.pos += keyword.len();
            return Ok(keyword == "CDATA");
        }
    }
    let notation = c.starts_with("NOTATION");
    if notation {
        c.pos += 8;
        c.require_space("after NOTATION")?;
    }
    c.expect("(", "for the attribute type (CDATA, ID, IDREF, IDREFS, ENTITY, ENTITIES, NMTOKEN, NMTOKENS, NOTATION or an enumeration)")?;
    loop {
        c.skip_space();
        let len = if notation {
            let mut colons = 0;
            chars::name_len(&c.s[c.pos..], &mut colons)
        } else {
            chars::nmtoken_len(&c.s[c.pos..])
        };
        if len == 0 {
            return Err(c.error(format!("expected a name in the enumeration{}", c.found())));
        }
        c.pos += len;
        c.skip_space();
        match c.peek() {
            Some(b'|') => c.pos += 1,
            Some(b')') => {
                c.pos += 1;
                return Ok(false);
            }
            _ => return Err(c.error(format!("expected '|' or ')' in the enumeration{}", c.found()))),
        }
    }
}

fn predefined(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "apos" => Some('\''),
        "quot" => Some('"'),
        _ => None,
    }
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
