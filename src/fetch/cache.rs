//! The on-disk HTTP cache (`--http-cache DIR`): each fetched document's
//! body with the headers it was served with, keyed by the URL asked, so
//! that a later run (a re-run of a batch, a resumed one) asks with the
//! validators it has (`If-None-Match`, `If-Modified-Since`) and takes a
//! 304 for the body it holds. A private cache, as a feed reader keeps: an
//! answer marked `no-store` is not kept (RFC 9111 §5.2.2.5), nor a URL
//! that carries credentials.
//!
//! One file an entry, named by a stable hash of the URL: a line of JSON
//! (what the answer said), then the body. Written to a temporary file and
//! renamed, so a reader never meets half an entry; a file that cannot be
//! read back, or names another URL, is no entry.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use url::Url;

use crate::rules::http::Headers;

/// What an answer said, as the cache keeps it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct Kept {
    /// The URL asked for: the key, checked on reading.
    pub asked: String,
    pub headers: Headers,
    pub charset: Option<String>,
    pub media_type: Option<String>,
    /// The `Link` header values, as served.
    pub links: Vec<String>,
}

/// A cache directory.
#[derive(Debug, Clone)]
pub struct HttpCache {
    dir: PathBuf,
}

impl HttpCache {
    /// The cache in `dir`, made if it is not there.
    pub fn open(dir: &Path) -> std::io::Result<HttpCache> {
        std::fs::create_dir_all(dir)?;
        Ok(HttpCache { dir: dir.to_owned() })
    }

    fn path(&self, url: &Url) -> PathBuf {
        self.dir
            .join(format!("{:016x}", super::batch::stable_hash(url.as_str())))
    }

    /// The entry of `url`, if there is one whole, for `url`, with a body of
    /// at most `max_bytes`.
    pub(super) fn get(&self, url: &Url, max_bytes: u64) -> Option<(Kept, Vec<u8>)> {
        if has_credentials(url) {
            return None;
        }
        let file = std::fs::File::open(self.path(url)).ok()?;
        let mut reader = BufReader::new(file);
        let mut line = String::new();
        // The head line is bounded as the body is.
        (&mut reader).take(64 * 1024).read_line(&mut line).ok()?;
        let kept: Kept = serde_json::from_str(line.trim_end()).ok()?;
        if kept.asked != url.as_str() {
            return None;
        }
        let mut body = Vec::new();
        reader.take(max_bytes + 1).read_to_end(&mut body).ok()?;
        (body.len() as u64 <= max_bytes).then_some((kept, body))
    }

    /// Keeps `body` and what its answer said for `url`, where it may be
    /// kept. A cache that cannot be written is only a cache: failing to
    /// write loses nothing but the next run's conditional request.
    pub(super) fn put(&self, url: &Url, kept: &Kept, body: &[u8]) {
        if has_credentials(url) || kept.headers.no_store() || kept.headers.validator().is_none() {
            return;
        }
        let path = self.path(url);
        let Ok(head) = serde_json::to_string(kept) else { return };
        let write = || -> std::io::Result<()> {
            let mut temporary = tempfile::NamedTempFile::new_in(&self.dir)?;
            temporary.write_all(head.as_bytes())?;
            temporary.write_all(b"\n")?;
            temporary.write_all(body)?;
            temporary.persist(&path).map_err(|error| error.error)?;
            Ok(())
        };
        let _ = write();
    }
}

/// A URL with a user name or password: what it fetches is someone's own,
/// and stays off the disk.
fn has_credentials(url: &Url) -> bool {
    !url.username().is_empty() || url.password().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(url: &str) -> Kept {
        Kept {
            asked: url.to_owned(),
            headers: Headers {
                etag: Some("\"a\"".into()),
                ..Headers::default()
            },
            ..Kept::default()
        }
    }

    #[test]
    fn an_entry_is_read_back_for_its_url_only() {
        let dir = tempfile::tempdir().unwrap();
        let cache = HttpCache::open(dir.path()).unwrap();
        let url = Url::parse("https://example.org/feed.xml").unwrap();
        cache.put(&url, &kept(url.as_str()), b"<rss/>\nwith a line");
        let (read, body) = cache.get(&url, 1000).unwrap();
        assert_eq!(read.headers.etag.as_deref(), Some("\"a\""));
        assert_eq!(body, b"<rss/>\nwith a line");
        // Larger than the fetch may take: no entry.
        assert!(cache.get(&url, 3).is_none());
        assert!(cache
            .get(&Url::parse("https://example.org/other.xml").unwrap(), 1000)
            .is_none());
    }

    #[test]
    fn no_store_no_validator_and_credentials_are_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let cache = HttpCache::open(dir.path()).unwrap();
        let url = Url::parse("https://example.org/a.xml").unwrap();
        let mut no_store = kept(url.as_str());
        no_store.headers.cache_control = Some("private, no-store".into());
        cache.put(&url, &no_store, b"x");
        let mut no_validator = kept(url.as_str());
        no_validator.headers.etag = None;
        cache.put(&url, &no_validator, b"x");
        let secret = Url::parse("https://me:secret@example.org/private.xml").unwrap();
        cache.put(&secret, &kept(secret.as_str()), b"x");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_damaged_entry_is_no_entry() {
        let dir = tempfile::tempdir().unwrap();
        let cache = HttpCache::open(dir.path()).unwrap();
        let url = Url::parse("https://example.org/feed.xml").unwrap();
        std::fs::write(cache.path(&url), b"not json\n<rss/>").unwrap();
        assert!(cache.get(&url, 1000).is_none());
    }
}
