//! A fast keyed hasher for the maps on the hot paths (entry ids within a
//! document and across the set, base URIs), where std's SipHash costs more
//! than the lookups.
//!
//! It hashes eight bytes per step (a 64x64→128-bit multiply, folded), not
//! one byte as FNV does: ids are tens of bytes long. Every word is mixed
//! with two keys drawn once per process from std's `RandomState`, so a feed
//! cannot carry ids prepared to collide (which would turn each map into a
//! list and the run into a quadratic one); only iteration order would
//! change between runs, and no finding depends on it.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// The odd constant of the golden ratio, used where a fixed multiplier is
/// needed (as FxHash and foldhash do).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

fn keys() -> &'static [u64; 2] {
    static KEYS: OnceLock<[u64; 2]> = OnceLock::new();
    KEYS.get_or_init(|| {
        let random = std::hash::RandomState::new();
        [random.hash_one(1u8) | 1, random.hash_one(2u8)]
    })
}

/// The high and low halves of the full product, xor-ed: every input bit
/// reaches the middle bits of both halves.
#[inline]
fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

#[derive(Clone, Copy)]
pub struct FastHasher {
    state: u64,
    key: u64,
}

impl FastHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        self.state = fold(self.state ^ word, self.key ^ GOLDEN);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.mix(u64::from_le_bytes(word.try_into().expect("eight bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            // The length keeps "a" and "a\0" apart.
            self.mix(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u8(&mut self, value: u8) {
        self.mix(u64::from(value));
    }

    #[inline]
    fn write_u32(&mut self, value: u32) {
        self.mix(u64::from(value));
    }

    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.mix(value);
    }

    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.mix(value as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // hashbrown takes its bucket from the low bits and its tag from the
        // top seven: one more fold spreads the last word into both.
        fold(self.state, GOLDEN)
    }
}

/// Builds [`FastHasher`]s with this process's keys.
#[derive(Clone, Copy)]
pub struct FastState {
    keys: [u64; 2],
}

impl Default for FastState {
    fn default() -> Self {
        FastState { keys: *keys() }
    }
}

impl BuildHasher for FastState {
    type Hasher = FastHasher;

    #[inline]
    fn build_hasher(&self) -> FastHasher {
        FastHasher {
            state: self.keys[1],
            key: self.keys[0],
        }
    }
}

pub type FastMap<K, V> = HashMap<K, V, FastState>;
pub type FastSet<K> = HashSet<K, FastState>;

/// The first item of each key among items seen one after another, kept as
/// a hash and an index per item: a table of keys with their strings would
/// be as large as the items. Items whose keys hash alike are chained, and
/// the caller compares them in full, so a collision costs a comparison,
/// never a wrong match.
pub struct FirstOfKey {
    first_with_hash: FastMap<u64, u32>,
    /// By item: the next first item whose key hashed alike.
    next_with_hash: Vec<u32>,
}

const NO_ITEM: u32 = u32::MAX;

impl FirstOfKey {
    pub fn with_capacity(items: usize) -> Self {
        FirstOfKey {
            first_with_hash: FastMap::with_capacity_and_hasher(items, FastState::default()),
            next_with_hash: Vec::with_capacity(items),
        }
    }

    /// The first item seen before with this key hash whose key `same`
    /// finds equal to `item`'s; or, when there is none, `item` is kept as
    /// the first of its key. Items are numbered by the caller, in order.
    pub fn first_or_keep(&mut self, item: u32, hash: u64, same: impl Fn(u32) -> bool) -> Option<u32> {
        let head = self.first_with_hash.get(&hash).copied().unwrap_or(NO_ITEM);
        let mut at = head;
        while at != NO_ITEM {
            if same(at) {
                return Some(at);
            }
            at = self.next_with_hash[at as usize];
        }
        self.first_with_hash.insert(hash, item);
        if self.next_with_hash.len() <= item as usize {
            self.next_with_hash.resize(item as usize + 1, NO_ITEM);
        }
        self.next_with_hash[item as usize] = head;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_of_each_key_is_found_through_chained_hashes() {
        let keys = ["a", "b", "a", "c", "b", "a"];
        // Every key hashes alike: the chain tells them apart by comparison.
        let mut firsts = FirstOfKey::with_capacity(keys.len());
        let found: Vec<Option<u32>> = (0..keys.len() as u32)
            .map(|item| firsts.first_or_keep(item, 7, |seen| keys[seen as usize] == keys[item as usize]))
            .collect();
        assert_eq!(found, [None, None, Some(0), None, Some(1), Some(0)]);
    }

    #[test]
    fn equal_keys_hash_equal_and_near_keys_apart() {
        let state = FastState::default();
        assert_eq!(
            state.hash_one("tag:example.org,2024:a/1"),
            state.hash_one("tag:example.org,2024:a/1")
        );
        let near = [
            "a",
            "a\0",
            "b",
            "",
            "tag:example.org,2024:a/1",
            "tag:example.org,2024:a/2",
        ];
        let hashes: FastSet<u64> = near.iter().map(|k| state.hash_one(k)).collect();
        assert_eq!(hashes.len(), near.len());
        let tuple = |a: &str, b: &str| state.hash_one((a, b));
        assert_ne!(tuple("ab", "c"), tuple("a", "bc"));
    }

    #[test]
    fn ids_that_differ_in_one_character_spread_over_the_buckets() {
        // 4,096 ids in 4,096 buckets: with a good spread, about 63% are used.
        let state = FastState::default();
        let buckets: FastSet<u64> = (0..4096)
            .map(|n| state.hash_one(format!("tag:example.org,2024:feed/{n}")) & 4095)
            .collect();
        assert!(buckets.len() > 2400, "{} buckets used", buckets.len());
    }
}
