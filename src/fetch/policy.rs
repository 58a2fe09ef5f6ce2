//! Where a walk over untrusted documents may connect, and whose secrets it
//! may send: decided on the address actually connected to (after DNS, on
//! every redirect hop, so that a name that resolves elsewhere the second
//! time cannot slip through), and on the origin a password came with.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, ToSocketAddrs};
use std::sync::{Arc, Mutex, PoisonError};

use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::NextTimeout;
use url::Url;

/// The kinds of address the policy tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressClass {
    Public,
    /// 127.0.0.0/8, ::1.
    Loopback,
    /// 10/8, 172.16/12, 192.168/16, 100.64/10 (shared), fc00::/7.
    Private,
    /// 169.254/16 (where clouds serve instance metadata), fe80::/10.
    LinkLocal,
    /// Unspecified, multicast, broadcast: never a web server.
    NotUnicast,
}

impl AddressClass {
    pub fn of(ip: IpAddr) -> AddressClass {
        match ip {
            IpAddr::V4(v4) => Self::of_v4(v4),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Self::of_v4(v4),
                None => Self::of_v6(v6),
            },
        }
    }

    fn of_v4(ip: Ipv4Addr) -> AddressClass {
        let [a, b, ..] = ip.octets();
        if ip.is_unspecified() || a == 0 || ip.is_multicast() || ip.is_broadcast() {
            AddressClass::NotUnicast
        } else if ip.is_loopback() {
            AddressClass::Loopback
        } else if ip.is_link_local() {
            AddressClass::LinkLocal
        } else if ip.is_private() || (a == 100 && (64..128).contains(&b)) {
            AddressClass::Private
        } else {
            AddressClass::Public
        }
    }

    fn of_v6(ip: Ipv6Addr) -> AddressClass {
        let first = ip.segments()[0];
        if ip.is_unspecified() || ip.is_multicast() {
            AddressClass::NotUnicast
        } else if ip.is_loopback() {
            AddressClass::Loopback
        } else if first & 0xFFC0 == 0xFE80 {
            AddressClass::LinkLocal
        } else if first & 0xFE00 == 0xFC00 {
            AddressClass::Private
        } else {
            AddressClass::Public
        }
    }

    fn describe(self) -> &'static str {
        match self {
            AddressClass::Public => "a public address",
            AddressClass::Loopback => "a loopback address",
            AddressClass::Private => "a private address",
            AddressClass::LinkLocal => "a link-local address (where clouds serve instance metadata)",
            AddressClass::NotUnicast => "an unspecified, multicast or broadcast address",
        }
    }
}

/// Which addresses links and redirects may lead to. The start URLs were
/// named by the user and may be anything; what their documents link to
/// was written by someone else.
#[derive(Debug, Clone, Default)]
pub struct AddressPolicy {
    /// `--allow-private-addresses`: no check at all.
    allow_all: bool,
    /// Loopback or private, when a start URL is there itself: its links may
    /// stay in that class (a local test server links to itself).
    start_classes: HashSet<AddressClass>,
}

impl AddressPolicy {
    pub fn new(allow_all: bool) -> Self {
        AddressPolicy {
            allow_all,
            start_classes: HashSet::new(),
        }
    }

    /// The policy for a walk from `start`: the classes the start hosts
    /// resolve to open that class to their links (link-local and
    /// non-unicast classes never open).
    pub fn for_start(start: &[Url], allow_all: bool) -> Self {
        let mut policy = AddressPolicy::new(allow_all);
        for url in start {
            for ip in addresses_of(url) {
                policy.open(AddressClass::of(ip));
            }
        }
        policy
    }

    /// Lets links reach `class` because a start URL is in it.
    pub fn open(&mut self, class: AddressClass) {
        if matches!(class, AddressClass::Loopback | AddressClass::Private) {
            self.start_classes.insert(class);
        }
    }

    /// Why a followed link or redirect may not connect to `ip`, if it may not.
    pub fn refuses(&self, ip: IpAddr) -> Option<Refused> {
        if self.allow_all {
            return None;
        }
        let class = AddressClass::of(ip);
        let rule = match class {
            AddressClass::Public => return None,
            AddressClass::Loopback | AddressClass::Private if self.start_classes.contains(&class) => return None,
            AddressClass::Loopback | AddressClass::Private => {
                "links from a start URL outside that address space never lead into it"
            }
            AddressClass::LinkLocal | AddressClass::NotUnicast => "links and redirects never lead there",
        };
        Some(Refused(format!(
            "refused to connect to {ip}, {}: {rule} (--allow-private-addresses lifts this)",
            class.describe()
        )))
    }
}

/// The addresses a URL's host names now (none when it does not resolve:
/// the request then fails on its own).
fn addresses_of(url: &Url) -> Vec<IpAddr> {
    let Some(host) = url.host() else {
        return Vec::new();
    };
    let port = url.port_or_known_default().unwrap_or(80);
    match host {
        url::Host::Ipv4(ip) => vec![IpAddr::V4(ip)],
        url::Host::Ipv6(ip) => vec![IpAddr::V6(ip)],
        url::Host::Domain(name) => (name, port)
            .to_socket_addrs()
            .map(|addrs| addrs.map(|a| a.ip()).collect())
            .unwrap_or_default(),
    }
}

/// Why a connection was refused: carried through the HTTP client as the
/// source of an I/O error, and reported as `fetch-failed`.
#[derive(Debug, Clone)]
pub struct Refused(pub String);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// Resolves as usual, then keeps only the addresses the policy allows:
/// the check is on the addresses the connection is made to.
#[derive(Debug)]
pub struct CheckedResolver {
    policy: Arc<AddressPolicy>,
    inner: DefaultResolver,
}

impl CheckedResolver {
    pub fn new(policy: Arc<AddressPolicy>) -> Self {
        CheckedResolver {
            policy,
            inner: DefaultResolver::default(),
        }
    }
}

impl Resolver for CheckedResolver {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let resolved = self.inner.resolve(uri, config, timeout)?;
        let mut allowed = self.empty();
        let mut refusal = None;
        for addr in resolved.iter().copied() {
            match self.policy.refuses(addr.ip()) {
                None => allowed.push(addr),
                Some(refused) => refusal = refusal.or(Some(refused)),
            }
        }
        match refusal {
            Some(refused) if allowed.is_empty() => Err(ureq::Error::Io(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                refused,
            ))),
            _ => Ok(allowed),
        }
    }
}

/// The passwords of the URLs a walk met, by origin. Every URL the walk
/// keeps, prints or resolves against has its password replaced by `***`;
/// the real one is put back only for a request to the origin it came with.
#[derive(Debug, Default)]
pub struct Credentials {
    /// The first password given for each origin and user (a feed may carry
    /// many links with passwords: looked up by hashing).
    known: Mutex<HashMap<(url::Origin, String), String>>,
}

use crate::secret::MASK;

impl Credentials {
    /// `url` with its password masked, remembered for its origin.
    pub fn mask(&self, url: &Url) -> Url {
        let Some(password) = url.password().filter(|p| *p != MASK) else {
            return url.clone();
        };
        let mut masked = url.clone();
        let _ = masked.set_password(Some(MASK));
        let mut known = self.known.lock().unwrap_or_else(PoisonError::into_inner);
        known
            .entry((url.origin(), url.username().to_owned()))
            .or_insert_with(|| password.to_owned());
        masked
    }

    /// The URL to request: the real password back, if this origin gave one
    /// for this user; else the URL as it is.
    pub fn unmask(&self, url: &Url) -> Url {
        if url.password() != Some(MASK) {
            return url.clone();
        }
        let known = self.known.lock().unwrap_or_else(PoisonError::into_inner);
        let real = known.get(&(url.origin(), url.username().to_owned()));
        let mut request = url.clone();
        let _ = request.set_password(real.map(String::as_str));
        request
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(ip: &str) -> AddressClass {
        AddressClass::of(ip.parse().unwrap())
    }

    #[test]
    fn addresses_are_classed() {
        for (ip, expected) in [
            ("93.184.216.34", AddressClass::Public),
            ("2606:2800:220:1::1", AddressClass::Public),
            ("127.0.0.1", AddressClass::Loopback),
            ("127.200.0.9", AddressClass::Loopback),
            ("::1", AddressClass::Loopback),
            ("::ffff:127.0.0.1", AddressClass::Loopback),
            ("10.0.0.5", AddressClass::Private),
            ("172.16.0.1", AddressClass::Private),
            ("172.31.255.255", AddressClass::Private),
            ("172.32.0.1", AddressClass::Public),
            ("192.168.1.1", AddressClass::Private),
            ("100.64.0.1", AddressClass::Private),
            ("fd00::1", AddressClass::Private),
            ("169.254.169.254", AddressClass::LinkLocal),
            ("::ffff:169.254.169.254", AddressClass::LinkLocal),
            ("fe80::1", AddressClass::LinkLocal),
            ("0.0.0.0", AddressClass::NotUnicast),
            ("::", AddressClass::NotUnicast),
            ("224.0.0.1", AddressClass::NotUnicast),
            ("ff02::1", AddressClass::NotUnicast),
            ("255.255.255.255", AddressClass::NotUnicast),
        ] {
            assert_eq!(class(ip), expected, "{ip}");
        }
    }

    #[test]
    fn links_from_a_public_start_stay_public() {
        let policy = AddressPolicy::new(false);
        for ip in ["127.0.0.1", "10.0.0.5", "169.254.169.254", "fe80::1", "0.0.0.0", "::1"] {
            assert!(policy.refuses(ip.parse().unwrap()).is_some(), "{ip}");
        }
        assert!(policy.refuses("93.184.216.34".parse().unwrap()).is_none());
        assert!(AddressPolicy::new(true)
            .refuses("169.254.169.254".parse().unwrap())
            .is_none());
    }

    #[test]
    fn a_loopback_start_opens_loopback_only() {
        let policy = AddressPolicy::for_start(&[Url::parse("http://127.0.0.1:8080/feed.atom").unwrap()], false);
        assert!(policy.refuses("127.0.0.1".parse().unwrap()).is_none());
        assert!(policy.refuses("127.0.0.2".parse().unwrap()).is_none());
        let metadata = policy.refuses("169.254.169.254".parse().unwrap()).unwrap();
        assert!(metadata.0.contains("link-local"), "{metadata}");
        assert!(policy.refuses("10.0.0.5".parse().unwrap()).is_some());
        // A link-local start opens nothing for its links.
        let policy = AddressPolicy::for_start(&[Url::parse("http://169.254.169.254/").unwrap()], false);
        assert!(policy.refuses("169.254.169.254".parse().unwrap()).is_some());
    }

    #[test]
    fn passwords_are_masked_and_go_back_to_their_origin_only() {
        let credentials = Credentials::default();
        let start = Url::parse("https://alice:s3cret@example.org/feed.atom").unwrap();
        let masked = credentials.mask(&start);
        assert_eq!(masked.as_str(), "https://alice:***@example.org/feed.atom");
        let relative = masked.join("archive/1.atom").unwrap();
        assert_eq!(relative.as_str(), "https://alice:***@example.org/archive/1.atom");
        assert_eq!(credentials.unmask(&relative).password(), Some("s3cret"));
        // The same user and mask on another origin gets no password.
        let elsewhere = Url::parse("https://alice:***@evil.example/").unwrap();
        assert_eq!(credentials.unmask(&elsewhere).password(), None);
        let other_port = Url::parse("https://alice:***@example.org:8443/").unwrap();
        assert_eq!(credentials.unmask(&other_port).password(), None);
        // A URL without a password is left alone.
        let plain = Url::parse("https://bob@example.org/").unwrap();
        assert_eq!(credentials.mask(&plain), plain);
    }
}
