//! The internal DTD subset: markup declarations, parameter entities, and
//! the entities and attribute defaults they declare.

use std::rc::Rc;

use super::*;

pub(super) enum EntityValue {
    Internal(Rc<str>),
    /// Declared with a system identifier; never read.
    External {
        unparsed: bool,
    },
}

pub(super) struct Entity {
    pub(super) name: Rc<str>,
    pub(super) value: EntityValue,
    /// Being expanded: a reference to it now is a recursion.
    pub(super) open: bool,
}

/// One attribute declared for an element type in an `<!ATTLIST>`.
pub(super) struct AttributeDef {
    pub(super) name: Rc<str>,
    /// Declared `CDATA`: its value is not normalized further.
    pub(super) cdata: bool,
    /// The default value (in the arena or the input) and where its literal is.
    pub(super) default: Option<(Str, (u32, u32))>,
}

#[derive(Default)]
pub(super) struct Dtd {
    pub(super) entities: FastMap<Rc<str>, usize>,
    pub(super) parameters: FastMap<Rc<str>, usize>,
    /// General entities, then parameter entities, by index.
    pub(super) list: Vec<Entity>,
    pub(super) attributes: FastMap<Box<str>, Vec<AttributeDef>>,
    pub(super) has_external_subset: bool,
    pub(super) has_parameter_references: bool,
    /// A parameter entity was not read: declarations after it are not
    /// processed (XML 1.0 §5.1).
    pub(super) skip_declarations: bool,
    pub(super) standalone: bool,
}

impl Dtd {
    /// Whether every entity a document may use has had its declaration
    /// read, so that an undeclared one is a well-formedness error (XML 1.0
    /// §4.1, WFC: Entity Declared).
    pub(super) fn is_complete(&self) -> bool {
        self.standalone || !(self.has_external_subset || self.has_parameter_references)
    }
}

impl Parser<'_> {
    pub(super) fn doctype(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        c.pos += "<!DOCTYPE".len();
        c.require_space("after '<!DOCTYPE'")?;
        c.name("the root element's name in the DOCTYPE")?;
        let had_space = c.skip_space();
        if c.starts_with("SYSTEM") || c.starts_with("PUBLIC") {
            if !had_space {
                return Err(c.error("expected white space before the external identifier"));
            }
            self.external_id(c, false)?;
            self.dtd.has_external_subset = true;
            c.skip_space();
        }
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
    pub(super) fn external_id(&mut self, c: &mut Cursor<'_>, public_alone: bool) -> Result<()> {
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

    pub(super) fn system_literal(&mut self, c: &mut Cursor<'_>) -> Result<()> {
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
    pub(super) fn markup_declarations(&mut self, c: &mut Cursor<'_>) -> Result<()> {
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

    pub(super) fn parameter_reference(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        let start = c.pos;
        c.pos += 1;
        let name = c.ncname("a parameter entity name after '%'")?;
        c.expect(";", "to end the parameter-entity reference")?;
        self.dtd.has_parameter_references = true;
        let Some(&index) = self.dtd.parameters.get(name) else {
            if self.dtd.standalone {
                return Err(c.error_at(
                    start,
                    format!(
                        "undeclared parameter entity \"%{};\" (XML 1.0 §4.1, WFC: Entity Declared)",
                        crate::base::shown::shorten(name)
                    ),
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
        let mut inner = Cursor::in_entity(&text, entity, c.doc_range(start, c.pos));
        let result = self.markup_declarations(&mut inner);
        self.leave(index);
        result
    }

    pub(super) fn entity_declaration(&mut self, c: &mut Cursor<'_>) -> Result<()> {
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
    pub(super) fn entity_value(&mut self, c: &mut Cursor<'_>, quote: u8) -> Result<String> {
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

    pub(super) fn notation_declaration(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        c.pos += "<!NOTATION".len();
        c.require_space("after '<!NOTATION'")?;
        c.ncname("a notation name")?;
        c.require_space("after the notation name")?;
        self.external_id(c, true)?;
        c.skip_space();
        c.expect(">", "to close the notation declaration")
    }

    pub(super) fn element_declaration(&mut self, c: &mut Cursor<'_>) -> Result<()> {
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

    pub(super) fn attlist_declaration(&mut self, c: &mut Cursor<'_>) -> Result<()> {
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
pub(super) fn mixed_content(c: &mut Cursor<'_>) -> Result<()> {
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
pub(super) fn children_content(c: &mut Cursor<'_>) -> Result<()> {
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

pub(super) fn occurrence(c: &mut Cursor<'_>) {
    if matches!(c.peek(), Some(b'?' | b'*' | b'+')) {
        c.pos += 1;
    }
}

/// An `AttType`; whether it is CDATA.
pub(super) fn attribute_type(c: &mut Cursor<'_>) -> Result<bool> {
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
