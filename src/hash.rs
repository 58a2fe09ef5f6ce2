//! A fast hasher for the maps on the per-document path (entry ids, base
//! URIs), where std's DoS-resistant SipHash costs more than the lookups.
//! FNV-1a: keys come from one document, so collisions only cost time, and
//! every map on this path is bounded by the document's size.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default, Clone, Copy)]
pub struct FnvHasher(u64);

impl Hasher for FnvHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut hash = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for byte in bytes {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = hash;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FnvHasher>>;
pub type FastSet<K> = HashSet<K, BuildHasherDefault<FnvHasher>>;
