//! Badges: `GET /badge?url=` answers a small SVG that says whether the feed
//! at a URL is valid, from a cache of recent verdicts. A badge in a popular
//! README is fetched by every visitor's browser: each URL is checked at most
//! once per [`TIME_TO_LIVE`], and the cache holds at most [`MOST_BADGES`]
//! URLs, so visitors cannot make the server fetch a feed over and over.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use crate::findings::diagnostic::Level;
use crate::report::Report;

/// How long a verdict is served from the cache.
pub const TIME_TO_LIVE: Duration = Duration::from_secs(600);
/// The most URLs whose verdicts are kept; past it, the oldest goes.
pub const MOST_BADGES: usize = 4096;

/// What a badge says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Valid,
    Invalid,
    /// The feed could not be fetched, or is nothing feedlint checks.
    Unchecked,
}

impl Verdict {
    pub fn of(report: &Report) -> Verdict {
        let checked = report
            .documents
            .iter()
            .any(|document| !document.context && document.kind().is_some());
        if !report.failures.is_empty() || !checked {
            Verdict::Unchecked
        } else if report.count(Level::Error) > 0 {
            Verdict::Invalid
        } else {
            Verdict::Valid
        }
    }

    /// The badge: "feed" on the left, the verdict on the right in its
    /// colour (each at 4.5:1 or more against the white text).
    pub fn svg(self) -> String {
        let (text, colour, width) = match self {
            Verdict::Valid => ("valid", "#1e7a3e", 44),
            Verdict::Invalid => ("not valid", "#b3261e", 64),
            Verdict::Unchecked => ("could not be checked", "#5b6475", 132),
        };
        let total = 40 + width;
        format!(
            concat!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{total}\" height=\"20\" role=\"img\" aria-label=\"feed: {text}\">",
                "<title>feed: {text}</title>",
                "<rect width=\"40\" height=\"20\" fill=\"#3b4252\"/>",
                "<rect x=\"40\" width=\"{width}\" height=\"20\" fill=\"{colour}\"/>",
                "<g fill=\"#fff\" font-family=\"Verdana,DejaVu Sans,sans-serif\" font-size=\"11\">",
                "<text x=\"8\" y=\"14\">feed</text><text x=\"46\" y=\"14\">{text}</text></g></svg>"
            ),
            total = total,
            width = width,
            colour = colour,
            text = text
        )
    }
}

/// Recent verdicts by URL. A URL is kept as a 128-bit keyed hash of
/// itself, never as its text: a URL may be as long as a request line, and
/// 4,096 of 64 KB each would be half a gigabyte. The keys are drawn once
/// per server from the system's random source (std's `RandomState`), so no
/// client can make two URLs share a verdict.
pub struct Badges {
    verdicts: HashMap<u128, (Instant, Verdict)>,
    /// Keys in the order their verdicts were made, with when: the oldest
    /// first, so expired ones are dropped from the front.
    made: VecDeque<(u128, Instant)>,
    keys: [std::hash::RandomState; 2],
}

impl Default for Badges {
    fn default() -> Self {
        Badges {
            verdicts: HashMap::new(),
            made: VecDeque::new(),
            keys: [std::hash::RandomState::new(), std::hash::RandomState::new()],
        }
    }
}

impl Badges {
    fn key(&self, url: &str) -> u128 {
        use std::hash::BuildHasher as _;
        (u128::from(self.keys[0].hash_one(url)) << 64) | u128::from(self.keys[1].hash_one(url))
    }

    /// The verdict for `url`, if one was made within [`TIME_TO_LIVE`].
    #[cfg(test)]
    pub fn get(&self, url: &str, now: Instant) -> Option<Verdict> {
        self.get_fresh(url, now).map(|(verdict, _)| verdict)
    }

    /// The verdict for `url` and how long it stays in the cache, if one
    /// was made within [`TIME_TO_LIVE`]: a badge may be cached as long.
    pub fn get_fresh(&self, url: &str, now: Instant) -> Option<(Verdict, Duration)> {
        let (made, verdict) = self.verdicts.get(&self.key(url))?;
        let left = TIME_TO_LIVE.checked_sub(now.duration_since(*made))?;
        (!left.is_zero()).then_some((*verdict, left))
    }

    pub fn put(&mut self, url: &str, verdict: Verdict, now: Instant) {
        let key = self.key(url);
        if self.verdicts.insert(key, (now, verdict)).is_some() {
            self.made.retain(|(made, _)| *made != key);
        }
        self.made.push_back((key, now));
        // Expired verdicts go as new ones come, and past the count the
        // oldest: the cache never holds more than MOST_BADGES small entries.
        while let Some(&(oldest, when)) = self.made.front() {
            if self.made.len() <= MOST_BADGES && now.duration_since(when) < TIME_TO_LIVE {
                break;
            }
            self.made.pop_front();
            self.verdicts.remove(&oldest);
        }
    }

    /// How many verdicts are kept.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.verdicts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_last_their_time_and_the_cache_its_size() {
        let mut badges = Badges::default();
        let start = Instant::now();
        badges.put("https://a.example/feed", Verdict::Valid, start);
        assert_eq!(badges.get("https://a.example/feed", start), Some(Verdict::Valid));
        assert_eq!(badges.get("https://a.example/feed", start + TIME_TO_LIVE), None);
        // A badge is cached by browsers as long as the verdict is here.
        let later = start + Duration::from_secs(100);
        assert_eq!(
            badges.get_fresh("https://a.example/feed", later),
            Some((Verdict::Valid, TIME_TO_LIVE - Duration::from_secs(100)))
        );
        for n in 0..MOST_BADGES + 10 {
            badges.put(&format!("https://{n}.example/"), Verdict::Invalid, start);
        }
        assert_eq!(badges.verdicts.len(), MOST_BADGES);
        assert_eq!(badges.made.len(), MOST_BADGES);
        assert_eq!(badges.get("https://a.example/feed", start), None);
        assert!(Verdict::Unchecked.svg().contains("could not be checked"));
        // Expired verdicts leave as new ones come.
        badges.put("https://late.example/", Verdict::Valid, start + TIME_TO_LIVE);
        assert_eq!(badges.len(), 1);
    }

    #[test]
    fn long_urls_cost_the_cache_no_more_than_short_ones() {
        // 4,200 URLs of 64 KB each once held 551 MB; a verdict is now a
        // key of 16 bytes, whatever its URL's length.
        let mut badges = Badges::default();
        let start = Instant::now();
        let long = "a".repeat(64 * 1024);
        for n in 0..4_200 {
            badges.put(&format!("https://example.org/{n}?{long}"), Verdict::Unchecked, start);
        }
        assert_eq!(badges.len(), MOST_BADGES);
        let bytes = std::mem::size_of::<(u128, (Instant, Verdict))>() * badges.verdicts.capacity()
            + std::mem::size_of::<(u128, Instant)>() * badges.made.capacity();
        assert!(bytes < 1024 * 1024, "{bytes} bytes");
        assert_eq!(
            badges.get(&format!("https://example.org/4199?{long}"), start),
            Some(Verdict::Unchecked)
        );
    }
}
