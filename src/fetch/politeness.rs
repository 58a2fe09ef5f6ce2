//! Politeness towards the hosts a run asks (batch mode's `--host-jobs` and
//! `--host-delay`): every request, each hop of a redirect included, waits
//! for its host to let it in, so that the limits hold per request however
//! many inputs, archives, media files or second conditional requests a
//! host is asked for.

use std::collections::HashMap;
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use url::Url;

/// Politeness towards one host: at most `at_once` requests to it at a
/// time, and `delay` between the starts of two of them.
#[derive(Debug, Clone, Copy)]
pub struct Politeness {
    pub at_once: usize,
    pub delay: Duration,
}

impl Default for Politeness {
    fn default() -> Self {
        Politeness {
            at_once: 1,
            delay: Duration::ZERO,
        }
    }
}

/// How many hosts the gate holds before it forgets those it may.
const FORGET_AT: usize = 1024;

/// The hosts being asked, and when each may be asked next: a request
/// waits here until its host lets it in, and holds a [`Permit`] until its
/// answer is read. A host is forgotten once nothing of it runs and its
/// delay has passed, so the map holds the hosts in flight, not every host
/// a run asked.
#[derive(Debug)]
pub struct Pacer {
    politeness: Politeness,
    hosts: Mutex<HashMap<String, (usize, Instant)>>,
    changed: Condvar,
}

/// A request let in by the [`Pacer`]: its host's count of requests at
/// once goes down when it is dropped.
pub struct Permit<'p> {
    pacer: &'p Pacer,
    host: String,
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.pacer.leave(&self.host);
    }
}

impl Pacer {
    pub fn new(politeness: Politeness) -> Pacer {
        Pacer {
            politeness,
            hosts: Mutex::new(HashMap::new()),
            changed: Condvar::new(),
        }
    }

    /// Waits until a request to `url`'s host may start (its host in lower
    /// case; a URL without one passes at once).
    pub fn enter(&self, url: &Url) -> Option<Permit<'_>> {
        let host = url.host_str()?.to_ascii_lowercase();
        self.wait_for(&host);
        Some(Permit { pacer: self, host })
    }

    fn wait_for(&self, host: &str) {
        let mut hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        // A host whose last input ended before its delay passed stays until
        // the delay has: forgotten here once the map grows, so it holds the
        // hosts of the last delay's span, not the list's.
        if hosts.len() >= FORGET_AT {
            let now = Instant::now();
            hosts.retain(|_, (running, next)| *running > 0 || *next > now);
        }
        loop {
            let now = Instant::now();
            let (running, next) = hosts.get(host).copied().unwrap_or((0, now));
            if running < self.politeness.at_once.max(1) && now >= next {
                hosts.insert(host.to_owned(), (running + 1, now + self.politeness.delay));
                return;
            }
            hosts = if running < self.politeness.at_once.max(1) {
                // Only the delay is left: wait it out (or a change).
                self.changed
                    .wait_timeout(hosts, next - now)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            } else {
                self.changed.wait(hosts).unwrap_or_else(PoisonError::into_inner)
            };
        }
    }

    fn leave(&self, host: &str) {
        let mut hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((running, next)) = hosts.get_mut(host) {
            *running -= 1;
            if *running == 0 && *next <= Instant::now() {
                hosts.remove(host);
            }
        }
        drop(hosts);
        self.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pacer_forgets_hosts_whose_delay_has_passed() {
        let pacer = Pacer::new(Politeness {
            at_once: 1,
            delay: Duration::from_millis(1),
        });
        for n in 0..3 * FORGET_AT {
            let url = Url::parse(&format!("http://host{n}.example/")).unwrap();
            drop(pacer.enter(&url));
        }
        std::thread::sleep(Duration::from_millis(2));
        let _last = pacer.enter(&Url::parse("http://last.example/").unwrap());
        let held = pacer.hosts.lock().unwrap().len();
        assert!(held <= FORGET_AT + 1, "{held} hosts held");
    }

    #[test]
    fn a_host_is_asked_once_at_a_time_and_a_delay_apart() {
        let pacer = Pacer::new(Politeness {
            at_once: 1,
            delay: Duration::from_millis(50),
        });
        let url = Url::parse("http://Example.org/a").unwrap();
        let other = Url::parse("http://example.net/").unwrap();
        let started = Instant::now();
        drop(pacer.enter(&url));
        // Another host waits for nothing; the same host (any case) waits
        // out the delay.
        drop(pacer.enter(&other));
        assert!(started.elapsed() < Duration::from_millis(50));
        drop(pacer.enter(&Url::parse("http://example.ORG/b").unwrap()));
        assert!(started.elapsed() >= Duration::from_millis(50));
    }
}
