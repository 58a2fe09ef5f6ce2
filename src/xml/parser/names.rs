//! Names: namespace bindings in scope, and interned expanded names.

use super::*;

/// Namespace bindings in scope: per prefix, the innermost binding, each
/// binding remembering the one it hides, so binding and unbinding are
/// constant time at any depth.
pub(super) struct Namespaces {
    /// Prefixes by id.
    prefixes: Interner,
    /// By prefix id: the index of its innermost binding, or NONE.
    current: Vec<u32>,
    pub(super) bindings: Vec<Binding>,
    /// Namespace names by id, id 0 "no namespace": moved into the document
    /// at the end.
    pub(super) names: Interner,
}

pub(super) struct Binding {
    pub(super) prefix: u32,
    /// The namespace's id; `UNINTERNED` until a name first uses the prefix
    /// (a start tag may declare a million prefixes that no name uses: their
    /// namespace names would fill a table as large, for nothing).
    namespace: u32,
    /// The namespace name as declared, while it is not interned.
    uri: Str,
    pub(super) hidden: u32,
}

const UNINTERNED: u32 = u32::MAX;

pub(super) const DEFAULT_PREFIX: u32 = 0;
pub(super) const XML_NAMESPACE_ID: u32 = 1;

impl Namespaces {
    pub(super) fn new() -> Self {
        let mut namespaces = Namespaces {
            prefixes: Interner::default(),
            current: Vec::new(),
            bindings: Vec::new(),
            names: Interner::default(),
        };
        namespaces.namespace_id("");
        namespaces.namespace_id(XML_NS);
        namespaces.prefix_id("");
        let xml = namespaces.prefix_id("xml");
        namespaces.bindings.push(Binding {
            prefix: xml,
            namespace: XML_NAMESPACE_ID,
            uri: Str::input(0..0),
            hidden: NONE,
        });
        namespaces.current[xml as usize] = 0;
        namespaces
    }

    pub(super) fn prefix_id(&mut self, prefix: &str) -> u32 {
        let id = self.prefixes.intern(prefix);
        if id as usize == self.current.len() {
            self.current.push(NONE);
        }
        id
    }

    pub(super) fn namespace_id(&mut self, uri: &str) -> u32 {
        self.names.intern(uri)
    }

    /// Binds `prefix` to the namespace name `uri` (`None`: no namespace, an
    /// undeclared default), interned when a name first uses it.
    pub(super) fn bind(&mut self, prefix: u32, uri: Option<Str>) {
        let hidden = self.current[prefix as usize];
        self.current[prefix as usize] = self.bindings.len() as u32;
        self.bindings.push(Binding {
            prefix,
            namespace: if uri.is_some() { UNINTERNED } else { 0 },
            uri: uri.unwrap_or(Str::input(0..0)),
            hidden,
        });
    }

    pub(super) fn unbind_to(&mut self, mark: u32) {
        while self.bindings.len() > mark as usize {
            let binding = self.bindings.pop().expect("above the mark");
            self.current[binding.prefix as usize] = binding.hidden;
        }
    }

    /// The namespace a prefix is bound to (0: none, for the default
    /// namespace undeclared or never declared); `None` if unbound.
    pub(super) fn resolve(&mut self, doc: &Tree<'_>, prefix: &str) -> Option<u32> {
        let id = if prefix.is_empty() {
            DEFAULT_PREFIX
        } else {
            self.prefixes.get(prefix)?
        };
        match self.current[id as usize] {
            NONE if prefix.is_empty() => Some(0),
            NONE => None,
            binding => {
                let binding = &mut self.bindings[binding as usize];
                if binding.namespace == UNINTERNED {
                    binding.namespace = self.names.intern(doc.str(binding.uri));
                }
                Some(binding.namespace)
            }
        }
    }
}

/// Expanded names, interned: an open-addressing table of indexes into
/// `Tree::names`, each slot with the name's hash so that most probes
/// compare no text. Local names are copied once into
/// `Tree::name_text`, one small string.
pub(super) struct NameTable {
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
    pub(super) fn new() -> Self {
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
    pub(super) fn lookup(&mut self, doc: &mut Tree<'_>, namespace: u32, local: &str) -> u32 {
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

    fn intern(&mut self, doc: &mut Tree<'_>, namespace: u32, local: &str) -> u32 {
        if is_full(doc.names.len(), self.slots.len()) {
            self.grow();
        }
        let hash = self.hash(namespace, local);
        let i = probe(&self.slots, hash, |id| {
            let name = doc.names[id as usize];
            name.namespace == namespace && &doc.name_text[name.start as usize..name.end as usize] == local
        });
        if self.slots[i].1 == NONE {
            let start = doc.name_text.len() as u32;
            doc.name_text.push_str(local);
            doc.name_uses.push(0);
            doc.names.push(NameData {
                namespace,
                start,
                end: doc.name_text.len() as u32,
            });
            self.slots[i] = (hash, doc.names.len() as u32 - 1);
        }
        self.slots[i].1
    }

    fn grow(&mut self) {
        self.slots = rehashed(&self.slots, self.slots.len() * 2);
    }
}

/// Strings interned into one string: ids in the order first seen. One
/// allocation however many strings (a hostile element may declare a million
/// prefixes; a box each would cost more to free than to parse).
#[derive(Default)]
pub(super) struct Interner {
    pub(super) strings: StringTable,
    /// `(hash, id)`; `NONE` ids are empty slots. Empty until the first string.
    slots: Vec<(u32, u32)>,
    hasher: FastState,
}

impl Interner {
    fn hash(&self, s: &str) -> u32 {
        use std::hash::BuildHasher;
        self.hasher.hash_one(s) as u32
    }

    /// The slot where `s` is, or the empty one where it would go.
    fn slot(&self, s: &str, hash: u32) -> usize {
        probe(&self.slots, hash, |id| self.strings.get(id) == s)
    }

    pub(super) fn get(&self, s: &str) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let id = self.slots[self.slot(s, self.hash(s))].1;
        (id != NONE).then_some(id)
    }

    pub(super) fn intern(&mut self, s: &str) -> u32 {
        if is_full(self.strings.len(), self.slots.len()) {
            self.grow();
        }
        let hash = self.hash(s);
        let i = self.slot(s, hash);
        if self.slots[i].1 == NONE {
            self.slots[i] = (hash, self.strings.push(s));
        }
        self.slots[i].1
    }

    fn grow(&mut self) {
        self.slots = rehashed(&self.slots, (self.slots.len() * 2).max(16));
    }
}

/// Whether a table of `slots` slots holding `len` entries is to grow: at
/// three quarters full. A document may declare a million names; at half
/// full their tables would take twice the memory, and each new name a
/// cache miss into a table twice the cache's size sooner (probing a few
/// more neighbours in one cache line costs far less).
fn is_full(len: usize, slots: usize) -> bool {
    len * 4 >= slots * 3
}

/// In an open-addressing table of `(hash, id)` slots (a power of two of
/// them, at most three quarters full): the slot of the entry with this hash that
/// `matches` accepts, or the empty slot where it would go.
fn probe(slots: &[(u32, u32)], hash: u32, matches: impl Fn(u32) -> bool) -> usize {
    let mask = slots.len() - 1;
    let mut i = hash as usize & mask;
    loop {
        let (slot_hash, id) = slots[i];
        if id == NONE || (slot_hash == hash && matches(id)) {
            return i;
        }
        i = (i + 1) & mask;
    }
}

/// The occupied `(hash, id)` slots of an open-addressing table, placed in a
/// new table of `len` slots (a power of two).
fn rehashed(slots: &[(u32, u32)], len: usize) -> Vec<(u32, u32)> {
    let mut table = vec![(0, NONE); len];
    let mask = len - 1;
    for &(hash, id) in slots.iter().filter(|(_, id)| *id != NONE) {
        let mut i = hash as usize & mask;
        while table[i].1 != NONE {
            i = (i + 1) & mask;
        }
        table[i] = (hash, id);
    }
    table
}
