//! Batch mode (`--urls-from FILE`): a directory's list of feeds, each URL
//! linted as `feedlint URL` would lint it, one record a line for each
//! input, clean ones included, written as each finishes. The list is read
//! as it is linted and each report dropped once its record is written, so
//! memory stays flat however long the list is. `--shard K/N` keeps the
//! inputs of one in N shards, by host (one host's inputs in one shard, so
//! politeness towards it holds across machines); `--resume FILE` skips the
//! inputs an earlier run's output already holds. One request to a host at
//! a time (`--host-jobs`), `--host-delay` apart, whichever inputs make
//! them ([`super::politeness`]).

use std::collections::HashSet;
use std::hash::{BuildHasher, Hash, Hasher};
use std::io::BufRead;
use std::sync::mpsc;
use std::sync::{Mutex, PoisonError};

use url::Url;

use super::politeness::{Pacer, Politeness};
use super::Limits;
use crate::model::failure::Failure;
use crate::report::Report;
use crate::settings::options::Options;

/// One line of the input list: a URL, or a JSON object with a `url` and
/// an `id` the record carries back.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchInput {
    /// Its line in the list, from 1.
    pub line: usize,
    /// The `id` of a JSON line, as it was given (any JSON value).
    pub id: Option<serde_json::Value>,
    pub url: String,
}

impl BatchInput {
    /// What `--resume` knows an input by: its `id` where it has one, else
    /// its URL.
    pub fn key(&self) -> u64 {
        match &self.id {
            Some(id) => stable_hash(&("id", id.to_string())),
            None => stable_hash(&("url", self.url.as_str())),
        }
    }
}

/// What a line of the list is.
#[derive(Debug, PartialEq)]
pub enum Line {
    Input(BatchInput),
    /// Blank, or a `#` comment.
    Nothing,
    /// Neither a URL nor a JSON object with a string `url`: said in its
    /// own record.
    Unreadable {
        line: usize,
        why: String,
    },
}

/// Reads one line of the list (`number` from 1).
pub fn read_line(text: &str, number: usize) -> Line {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') {
        return Line::Nothing;
    }
    if !text.starts_with('{') {
        return Line::Input(BatchInput {
            line: number,
            id: None,
            url: text.to_owned(),
        });
    }
    let unreadable = |why: String| Line::Unreadable { line: number, why };
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) => return unreadable(format!("not a JSON object: {error}")),
    };
    match value.get("url").and_then(|url| url.as_str()) {
        Some(url) => Line::Input(BatchInput {
            line: number,
            id: value.get("id").cloned().filter(|id| !id.is_null()),
            url: url.trim().to_owned(),
        }),
        None => unreadable("a JSON line names its feed in a string \"url\"".to_owned()),
    }
}

/// A hash that is the same on every machine and every run (the standard
/// library's default is seeded per process): shards and resumed runs must
/// agree across machines.
pub(super) fn stable_hash<T: Hash + ?Sized>(value: &T) -> u64 {
    /// FNV-1a, 64 bits.
    struct Fnv(u64);
    impl Hasher for Fnv {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for &byte in bytes {
                self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    struct Build;
    impl BuildHasher for Build {
        type Hasher = Fnv;
        fn build_hasher(&self) -> Fnv {
            Fnv(0xcbf2_9ce4_8422_2325)
        }
    }
    Build.hash_one(value)
}

/// Which of `shards` shards (0-based) an input belongs to: by its URL's
/// host, lower case (an input that is no URL, by its text).
pub fn shard_of(url: &str, shards: u32) -> u32 {
    let host = Url::parse(url)
        .ok()
        .and_then(|url| url.host_str().map(str::to_ascii_lowercase));
    let hash = match host {
        Some(host) => stable_hash(host.as_str()),
        None => stable_hash(url),
    };
    (hash % u64::from(shards.max(1))) as u32
}

/// The keys of the inputs an earlier run's output holds records of: each
/// line a record with its `id`, else its `url`. A line that is no record
/// (cut off when the run stopped) is passed over: its input runs again.
pub fn done_in(output: impl BufRead) -> std::io::Result<HashSet<u64>> {
    let mut done = HashSet::new();
    for line in output.lines() {
        let Ok(record) = serde_json::from_str::<serde_json::Value>(&line?) else {
            continue;
        };
        let input = BatchInput {
            line: 0,
            id: record.get("id").cloned().filter(|id| !id.is_null()),
            url: record
                .get("url")
                .and_then(|url| url.as_str())
                .unwrap_or_default()
                .to_owned(),
        };
        if input.id.is_some() || !input.url.is_empty() {
            done.insert(input.key());
        }
    }
    Ok(done)
}

/// What linting one input gave.
pub enum Outcome {
    Linted(Box<Report>),
    Failed(String),
}

/// Lints each input of `inputs` (at most `jobs` at once), and gives each
/// input and its outcome to `record` as it finishes, on this thread. Each
/// input is a walk of its own, under `limits` (its requests in flight
/// bounded by the limits' jobs).
pub fn run(
    inputs: impl Iterator<Item = BatchInput> + Send,
    limits: &Limits,
    options: &Options,
    jobs: usize,
    politeness: Politeness,
    record: &mut dyn FnMut(BatchInput, Outcome),
) {
    let inputs = Mutex::new(inputs);
    // Every request of every input's walk passes the one gate: politeness
    // counts requests to a host, whichever input makes them.
    let limits = &Limits {
        pacer: Some(std::sync::Arc::new(Pacer::new(politeness))),
        ..limits.clone()
    };
    std::thread::scope(|scope| {
        // Bounded: workers wait while the writer is behind, so finished
        // reports never pile up.
        let (sender, finished) = mpsc::sync_channel::<(BatchInput, Outcome)>(jobs);
        for _ in 0..jobs.max(1) {
            let (sender, inputs) = (sender.clone(), &inputs);
            scope.spawn(move || loop {
                let next = inputs.lock().unwrap_or_else(PoisonError::into_inner).next();
                let Some(input) = next else { break };
                let outcome = lint_one(&input.url, limits, options);
                if sender.send((input, outcome)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        for (input, outcome) in finished {
            record(input, outcome);
        }
    });
}

fn lint_one(url: &str, limits: &Limits, options: &Options) -> Outcome {
    let parsed = match Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => parsed,
        Ok(parsed) => return Outcome::Failed(format!("not fetched: an {}: URL, not http or https", parsed.scheme())),
        Err(error) => return Outcome::Failed(format!("not a URL: {error}")),
    };
    match super::lint_urls(&[parsed], limits, options, &mut |_, _| {}) {
        Ok(report) => Outcome::Linted(Box::new(report)),
        Err(failure) => Outcome::Failed(match failure {
            Failure::Unfetchable { message, .. } => message,
            other => other.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_urls_or_json_objects() {
        assert_eq!(read_line("  ", 1), Line::Nothing);
        assert_eq!(read_line("# a comment", 2), Line::Nothing);
        let Line::Input(plain) = read_line("https://example.org/feed.xml\n", 3) else {
            panic!()
        };
        assert_eq!(
            (plain.line, plain.id, plain.url.as_str()),
            (3, None, "https://example.org/feed.xml")
        );
        let Line::Input(object) = read_line(r#"{"id": 42, "url": "https://example.org/a"}"#, 4) else {
            panic!()
        };
        assert_eq!(object.id, Some(serde_json::json!(42)));
        assert!(matches!(read_line(r#"{"id": 1}"#, 5), Line::Unreadable { line: 5, .. }));
        assert!(matches!(read_line("{oops", 6), Line::Unreadable { line: 6, .. }));
    }

    #[test]
    fn shards_go_by_host_and_are_stable() {
        let a = shard_of("https://Example.org/a.xml", 7);
        assert_eq!(a, shard_of("http://example.org/b/c.rss", 7));
        // The same numbers on every machine: FNV-1a of the host.
        assert_eq!(stable_hash("example.org"), stable_hash("example.org"));
        let spread: HashSet<u32> = (0..200)
            .map(|n| shard_of(&format!("https://host{n}.example/"), 4))
            .collect();
        assert_eq!(spread.len(), 4);
    }

    #[test]
    fn resume_knows_inputs_by_id_else_url_and_passes_over_a_cut_line() {
        let output = "{\"id\":7,\"url\":\"https://a.example/\"}\n{\"id\":null,\"url\":\"https://b.example/\"}\n{\"id\":9,\"url\":\"https://c.exa";
        let done = done_in(output.as_bytes()).unwrap();
        let by_id = BatchInput {
            line: 1,
            id: Some(serde_json::json!(7)),
            url: "https://elsewhere.example/".into(),
        };
        let by_url = BatchInput {
            line: 2,
            id: None,
            url: "https://b.example/".into(),
        };
        let cut = BatchInput {
            line: 3,
            id: Some(serde_json::json!(9)),
            url: "https://c.example/".into(),
        };
        assert!(done.contains(&by_id.key()) && done.contains(&by_url.key()));
        assert!(!done.contains(&cut.key()));
    }
}
