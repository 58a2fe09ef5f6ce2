//! The `_redirects` file of a published tree, as Netlify and Cloudflare
//! Pages read it from the folder they publish: the paths the host answers
//! though no file is there (`/feed  /feed.xml  301`, `/rss/*  /index.xml`).
//! A link to such a path is not a link to nothing.
//!
//! Only each rule's source path is read. A rule with a placeholder
//! (`/blog/:year/:slug`) is taken to cover everything below its literal
//! part, as a splat (`/blog/*`) does: a lookup is a few hash lookups,
//! one a segment of the path, however many rules the file holds, and a
//! path a rule might cover is never called missing.

use std::path::Path;

use crate::base::hash::FastSet;

/// The most of a `_redirects` file that is read: hosts cap theirs lower
/// (Netlify: 10,000 rules), and a hostile tree's file costs no more.
const MOST_BYTES: u64 = 4 * 1024 * 1024;

/// What a tree's `_redirects` file covers.
#[derive(Debug, Default)]
pub struct Redirects {
    /// Paths answered as written (without a trailing `/`).
    exact: FastSet<String>,
    /// Paths below which everything is answered (a splat's or a
    /// placeholder's literal part, without a trailing `/`).
    below: FastSet<String>,
}

impl Redirects {
    /// The `_redirects` file of the folder `directory` publishes; none
    /// where there is no such file or it cannot be read.
    pub fn of(directory: &Path) -> Redirects {
        use std::io::Read as _;
        let mut text = String::new();
        let read = std::fs::File::open(directory.join("_redirects"))
            .and_then(|file| file.take(MOST_BYTES).read_to_string(&mut text));
        match read {
            Ok(_) => Redirects::parse(&text),
            Err(_) => Redirects::default(),
        }
    }

    /// The rules of a `_redirects` file's text.
    pub fn parse(text: &str) -> Redirects {
        let mut redirects = Redirects::default();
        for line in text.lines() {
            let Some(from) = line.split_whitespace().next().filter(|from| !from.starts_with('#')) else {
                continue;
            };
            // A rule for a whole URL names its host too: its path is what
            // is answered.
            let from = match from.split_once("://") {
                Some((_, rest)) => rest.find('/').map_or("/", |at| &rest[at..]),
                None => from,
            };
            let literal_end = from.find(['*', ':']);
            match literal_end {
                None => redirects.exact.insert(trimmed(from).to_owned()),
                Some(at) => {
                    let literal = &from[..at];
                    // Below the last whole segment of the literal part.
                    let folder = literal.rfind('/').map_or("", |slash| &literal[..slash]);
                    redirects.below.insert(folder.to_owned())
                }
            };
        }
        redirects
    }

    /// Whether a rule covers the URL path `path` (`/feed`, `/a/b/`).
    pub fn cover(&self, path: &str) -> bool {
        if self.exact.is_empty() && self.below.is_empty() {
            return false;
        }
        let path = trimmed(path);
        if self.exact.contains(path) {
            return true;
        }
        // The path's folders, the deepest first, the root (`""`) last.
        let mut folder = path;
        loop {
            if self.below.contains(folder) {
                return true;
            }
            match folder.rfind('/') {
                Some(slash) => folder = &folder[..slash],
                None => return false,
            }
        }
    }
}

/// A path without its trailing `/` (the root, `/`, is `""`).
fn trimmed(path: &str) -> &str {
    path.strip_suffix('/').unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_cover_their_paths_and_what_their_splats_reach() {
        let redirects = Redirects::parse(
            "# feeds moved\n\
             /feed        /feed.xml   301\n\
             /rss/        /index.xml  200\n\
             https://example.org/atom  /feed.atom\n\
             /old/*       /new/:splat 301\n\
             /blog/:year/:slug  /posts/:slug\n\
             \n",
        );
        for covered in [
            "/feed",
            "/feed/",
            "/rss",
            "/atom",
            "/old/a/b.xml",
            "/old/",
            "/blog/2024/hello",
        ] {
            assert!(redirects.cover(covered), "{covered}");
        }
        for missing in ["/feeds", "/feed.atom", "/older/a", "/bloggers/a", "/", "/index.xml"] {
            assert!(!redirects.cover(missing), "{missing}");
        }
        // A catch-all covers everything.
        assert!(Redirects::parse("/*  /index.html  200").cover("/anything/at/all"));
        assert!(!Redirects::default().cover("/feed"));
    }
}
