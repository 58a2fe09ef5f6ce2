//! The reports of the last runs, kept for their JSON and SARIF downloads.
//!
//! Kept gzip-compressed (a report is mostly repeated keys and texts, and
//! shrinks about tenfold), and served so to a client that accepts it. Each
//! client (an IPv4 address, an IPv6 /64) has a share: past it, its own
//! oldest reports go first; past the store's total, the oldest report of
//! the client holding the most. One client checking feeds in a loop
//! evicts its own downloads, not everyone's; and a report is kept at least
//! [`FLOOR`] before another client's can evict it, so many addresses (256
//! of one IPv6 /56 are one network's) cannot take a download from the
//! person who just asked for it: then the newcomer's own is the one that
//! gives way.

use std::collections::VecDeque;
use std::io::{Read as _, Write as _};
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// At most this many reports are kept, and this many (compressed) bytes.
const MOST_RUNS: usize = 256;
const MOST_BYTES: usize = 64 * 1024 * 1024;
/// One client's share of the store.
const MOST_RUNS_PER_CLIENT: usize = MOST_RUNS / 8;
const MOST_BYTES_PER_CLIENT: usize = MOST_BYTES / 8;
/// How long a report is kept before another client's report can evict it.
pub const FLOOR: Duration = Duration::from_secs(15 * 60);

/// Who a run was made for, as far as sharing the store goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Client(u128);

impl Client {
    /// An IPv4 address, or the /64 an IPv6 address is in (one host is
    /// commonly given a whole /64).
    pub fn of(address: IpAddr) -> Client {
        match address.to_canonical() {
            IpAddr::V4(v4) => Client(u128::from(u32::from(v4))),
            IpAddr::V6(v6) => Client((u128::from(v6) & !u128::from(u64::MAX)) | (1 << 32)),
        }
    }

    /// The client of a request that came by no network (a test, a proxy
    /// that says nothing): all such share one share.
    pub const UNKNOWN: Client = Client(u128::MAX);
}

/// A kept report, compressed.
pub struct Run {
    id: String,
    client: Client,
    kept_at: Instant,
    pub json: Vec<u8>,
    pub sarif: Vec<u8>,
    /// The document with its safe fixes applied, where one was checked
    /// and every fix it has is safe: its file name and its bytes.
    pub fixed: Option<(String, Vec<u8>)>,
    /// Each document's name and text, by its index in the report (the
    /// text empty where it has none), for the numbered view of its source.
    pub sources: Vec<(String, Vec<u8>)>,
}

impl Run {
    fn bytes(&self) -> usize {
        self.json.len()
            + self.sarif.len()
            + self.fixed.as_ref().map_or(0, |(_, bytes)| bytes.len())
            + self
                .sources
                .iter()
                .map(|(name, text)| name.len() + text.len())
                .sum::<usize>()
    }
}

/// What a run keeps, uncompressed.
pub struct Kept<'a> {
    pub json: &'a [u8],
    pub sarif: &'a [u8],
    pub fixed: Option<(String, &'a [u8])>,
    /// Each document's name and text, by its index in the report.
    pub sources: &'a [(&'a str, &'a str)],
}

impl Kept<'_> {
    /// The run to keep for `client`, compressed: made before the store's
    /// lock is taken, so that compressing a large document holds up no
    /// other request. Its id, 128 bits from the operating system's random
    /// source (a pasted document is nobody else's business).
    pub fn compressed(self, client: Client) -> Run {
        Run {
            id: random_id(),
            client,
            kept_at: Instant::now(),
            json: compress(self.json),
            sarif: compress(self.sarif),
            fixed: self.fixed.map(|(name, bytes)| (name, compress(bytes))),
            sources: self
                .sources
                .iter()
                .map(|(name, text)| ((*name).to_owned(), compress(text.as_bytes())))
                .collect(),
        }
    }
}

#[derive(Default)]
pub struct Runs {
    kept: VecDeque<Run>,
    bytes: usize,
}

impl Runs {
    /// Keeps a run (made by [`Kept::compressed`]), in its client's share;
    /// its id.
    pub fn keep(&mut self, run: Run) -> String {
        self.keep_at(Instant::now(), run)
    }

    fn keep_at(&mut self, now: Instant, mut run: Run) -> String {
        run.kept_at = now;
        let client = run.client;
        let id = run.id.clone();
        self.bytes += run.bytes();
        self.kept.push_back(run);
        while self.count_of(client) > MOST_RUNS_PER_CLIENT
            || self.bytes_of(client) > MOST_BYTES_PER_CLIENT && self.count_of(client) > 1
        {
            self.remove_oldest_of(client, |_| true);
        }
        while self.kept.len() > MOST_RUNS || self.bytes > MOST_BYTES && self.kept.len() > 1 {
            // Another client's run younger than the floor is not evictable;
            // the newcomer's own runs always are (so this ends).
            let evictable = |run: &Run| run.client == client || now.duration_since(run.kept_at) >= FLOOR;
            let Some(largest) = self.largest_client(evictable) else {
                break;
            };
            self.remove_oldest_of(largest, evictable);
        }
        id
    }

    pub fn get(&self, id: &str) -> Option<&Run> {
        self.kept.iter().find(|run| run.id == id)
    }

    fn count_of(&self, client: Client) -> usize {
        self.kept.iter().filter(|run| run.client == client).count()
    }

    fn bytes_of(&self, client: Client) -> usize {
        self.kept
            .iter()
            .filter(|run| run.client == client)
            .map(Run::bytes)
            .sum()
    }

    /// The client whose runs take the most bytes (the store holds at most
    /// [`MOST_RUNS`], so the scan is short).
    fn largest_client(&self, evictable: impl Fn(&Run) -> bool) -> Option<Client> {
        let mut totals: Vec<(Client, usize)> = Vec::new();
        for run in self.kept.iter().filter(|run| evictable(run)) {
            match totals.iter_mut().find(|(client, _)| *client == run.client) {
                Some((_, bytes)) => *bytes += run.bytes(),
                None => totals.push((run.client, run.bytes())),
            }
        }
        totals
            .into_iter()
            .max_by_key(|(_, bytes)| *bytes)
            .map(|(client, _)| client)
    }

    fn remove_oldest_of(&mut self, client: Client, evictable: impl Fn(&Run) -> bool) {
        if let Some(at) = self.kept.iter().position(|run| run.client == client && evictable(run)) {
            if let Some(run) = self.kept.remove(at) {
                self.bytes -= run.bytes();
            }
        }
    }
}

/// 128 bits from the operating system's random source, in hex.
fn random_id() -> String {
    let mut bytes = [0u8; 16];
    // The system's source fails only where it cannot be opened at all; a
    // server that cannot make an unguessable id must not make a guessable
    // one.
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

pub fn compress(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    // Writing into a vector cannot fail.
    let _ = encoder.write_all(bytes);
    encoder.finish().unwrap_or_default()
}

pub fn decompress(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = flate2::read::GzDecoder::new(bytes).read_to_end(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(text: &str) -> Client {
        Client::of(text.parse().unwrap())
    }

    fn reports<'a>(json: &'a [u8], sarif: &'a [u8]) -> Kept<'a> {
        Kept {
            json,
            sarif,
            fixed: None,
            sources: &[],
        }
    }

    #[test]
    fn one_client_evicts_its_own_runs_not_anothers() {
        let mut runs = Runs::default();
        let kept = runs.keep(reports(b"{\"mine\": 1}", b"{}").compressed(address("192.0.2.1")));
        let flooder = address("198.51.100.7");
        for _ in 0..10 * MOST_RUNS {
            runs.keep(reports(b"{}", b"{}").compressed(flooder));
        }
        assert!(runs.get(&kept).is_some());
        assert_eq!(decompress(&runs.get(&kept).unwrap().json), b"{\"mine\": 1}");
        assert_eq!(runs.count_of(flooder), MOST_RUNS_PER_CLIENT);
        // Addresses of one IPv6 /64 share a share; an IPv4-mapped address
        // is its IPv4 address.
        assert_eq!(address("2001:db8::1"), address("2001:db8::ffff:2"));
        assert_ne!(address("2001:db8::1"), address("2001:db8:0:1::1"));
        assert_eq!(address("::ffff:192.0.2.1"), address("192.0.2.1"));
    }

    #[test]
    fn past_the_total_the_largest_client_gives_way() {
        let mut runs = Runs::default();
        let small = runs.keep(reports(b"small", b"").compressed(address("192.0.2.1")));
        // Eight clients (the most the shares allow) fill the store.
        for client in 0..8u8 {
            for _ in 0..MOST_RUNS_PER_CLIENT {
                runs.keep(reports(b"{}", b"{}").compressed(address(&format!("203.0.113.{client}"))));
            }
        }
        assert!(runs.kept.len() <= MOST_RUNS);
        assert!(runs.get(&small).is_some(), "the smallest client's run was evicted");
    }

    #[test]
    fn many_addresses_cannot_evict_a_fresh_run() {
        // 256 addresses of one IPv6 /56 (a /64 each, so 256 clients), one
        // check each, seconds after someone else's: that run stays; past
        // the floor, it may go.
        let mut runs = Runs::default();
        let start = Instant::now();
        let mine = runs.keep_at(start, reports(b"{\"mine\": 1}", b"{}").compressed(address("192.0.2.1")));
        for n in 0..2 * MOST_RUNS {
            let attacker = address(&format!("2001:db8:0:{:x}::1", n % 256));
            runs.keep_at(
                start + Duration::from_secs(7),
                reports(b"{}", b"{}").compressed(attacker),
            );
        }
        assert!(runs.get(&mine).is_some(), "a fresh run was evicted");
        assert!(runs.kept.len() <= MOST_RUNS);
        for n in 0..MOST_RUNS {
            let attacker = address(&format!("2001:db8:1:{:x}::1", n % 256));
            runs.keep_at(
                start + FLOOR + Duration::from_secs(8),
                reports(b"{}", b"{}").compressed(attacker),
            );
        }
        assert!(runs.get(&mine).is_none(), "past the floor, the oldest goes");
    }

    #[test]
    fn ids_are_128_random_bits() {
        let (a, b) = (random_id(), random_id());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }
}
