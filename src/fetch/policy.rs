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
    /// 10/8, 172.16/12, 192.168/16, 100.64/10 (shared), fc00::/7, fec0::/10,
    /// 64:ff9b:1::/48 (local-use translation).
    Private,
    /// 169.254/16 (where clouds serve instance metadata), fe80::/10.
    LinkLocal,
    /// Unspecified, multicast, broadcast: never a web server.
    NotUnicast,
    /// Every other block the IANA special-purpose registries mark as not
    /// globally reachable: documentation (the TEST-NETs, 2001:db8::/32),
    /// benchmarking (198.18.0.0/15), reserved (240.0.0.0/4), protocol
    /// assignments (192.0.0.0/24), discard-only (100::/64), ...
    Reserved,
}

/// What a block of the special-purpose registries means to the policy.
#[derive(Debug, Clone, Copy)]
enum Meaning {
    /// The block is of this class.
    Class(AddressClass),
    /// The block carries an IPv4 address (translation, tunnels): the
    /// address is of that IPv4 address's class (for Teredo, the stricter
    /// of its server's and its client's).
    Embeds(fn(Ipv6Addr) -> [Option<Ipv4Addr>; 2]),
}

/// An address block: its network (IPv4 as IPv4-mapped IPv6), its prefix
/// length in that form, what it means, and the registry row that says so.
struct Block {
    network: u128,
    length: u32,
    meaning: Meaning,
    row: &'static str,
}

const fn v4(a: u8, b: u8, c: u8, d: u8, length: u32, meaning: Meaning, row: &'static str) -> Block {
    Block {
        network: 0xFFFF_0000_0000 | (u128::from_be_bytes([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, a, b, c, d])),
        length: 96 + length,
        meaning,
        row,
    }
}

const fn v6(network: u128, length: u32, meaning: Meaning, row: &'static str) -> Block {
    Block {
        network,
        length,
        meaning,
        row,
    }
}

use AddressClass::{LinkLocal, Loopback, NotUnicast, Private, Public, Reserved};
use Meaning::{Class, Embeds};

/// The IANA IPv4 and IPv6 Special-Purpose Address Registries (as of
/// 2025), with multicast, broadcast and the deprecated site-local and
/// IPv4-compatible blocks: every block not globally reachable, the
/// globally reachable blocks inside them, and the blocks that carry an
/// IPv4 address. The most specific block that holds an address decides;
/// an address in none is public.
#[rustfmt::skip]
const BLOCKS: &[Block] = &[
    // IPv4 Special-Purpose Address Registry.
    v4(0, 0, 0, 0, 8, Class(NotUnicast), "RFC 791: \"this network\""),
    v4(10, 0, 0, 0, 8, Class(Private), "RFC 1918: private-use"),
    v4(100, 64, 0, 0, 10, Class(Private), "RFC 6598: shared address space"),
    v4(127, 0, 0, 0, 8, Class(Loopback), "RFC 1122: loopback"),
    v4(169, 254, 0, 0, 16, Class(LinkLocal), "RFC 3927: link local"),
    v4(172, 16, 0, 0, 12, Class(Private), "RFC 1918: private-use"),
    v4(192, 0, 0, 0, 24, Class(Reserved), "RFC 6890: IETF protocol assignments"),
    v4(192, 0, 0, 9, 32, Class(Public), "RFC 7723: port control protocol anycast (globally reachable)"),
    v4(192, 0, 0, 10, 32, Class(Public), "RFC 8155: traversal using relays around NAT anycast (globally reachable)"),
    v4(192, 0, 2, 0, 24, Class(Reserved), "RFC 5737: documentation (TEST-NET-1)"),
    v4(192, 88, 99, 0, 24, Class(Reserved), "RFC 7526: deprecated 6to4 relay anycast"),
    v4(192, 168, 0, 0, 16, Class(Private), "RFC 1918: private-use"),
    v4(198, 18, 0, 0, 15, Class(Reserved), "RFC 2544: benchmarking"),
    v4(198, 51, 100, 0, 24, Class(Reserved), "RFC 5737: documentation (TEST-NET-2)"),
    v4(203, 0, 113, 0, 24, Class(Reserved), "RFC 5737: documentation (TEST-NET-3)"),
    v4(224, 0, 0, 0, 4, Class(NotUnicast), "RFC 5771: multicast"),
    v4(240, 0, 0, 0, 4, Class(Reserved), "RFC 1112: reserved"),
    v4(255, 255, 255, 255, 32, Class(NotUnicast), "RFC 919: limited broadcast"),
    // IPv6 Special-Purpose Address Registry.
    v6(0, 128, Class(NotUnicast), "RFC 4291: unspecified address"),
    v6(1, 128, Class(Loopback), "RFC 4291: loopback address"),
    v6(0, 96, Embeds(last_32_bits), "RFC 4291 §2.5.5.1: IPv4-compatible (deprecated)"),
    v6(0xFFFF_0000_0000, 96, Embeds(last_32_bits), "RFC 4291: IPv4-mapped address"),
    v6(0xFFFF_0000_0000_0000, 96, Embeds(last_32_bits), "RFC 2765 §2.1: IPv4-translated address (SIIT)"),
    v6(0x0064_FF9B << 96, 96, Embeds(last_32_bits), "RFC 6052: IPv4-IPv6 translation"),
    v6(0x0064_FF9B_0001 << 80, 48, Class(Private), "RFC 8215: local-use IPv4/IPv6 translation"),
    v6(0x0100 << 112, 64, Class(Reserved), "RFC 6666: discard-only address block"),
    v6((0x0100 << 112) | (1 << 64), 64, Class(Reserved), "RFC 9780: dummy IPv6 prefix"),
    v6(0x2001 << 112, 23, Class(Reserved), "RFC 2928: IETF protocol assignments"),
    v6(0x2001 << 112, 32, Embeds(teredo), "RFC 4380: TEREDO"),
    v6((0x2001_0001 << 96) | 1, 128, Class(Public), "RFC 7723: port control protocol anycast (globally reachable)"),
    v6((0x2001_0001 << 96) | 2, 128, Class(Public), "RFC 8155: TURN anycast (globally reachable)"),
    v6((0x2001_0001 << 96) | 3, 128, Class(Public), "RFC 9665: DNS-SD service registration anycast (globally reachable)"),
    v6(0x2001_0003 << 96, 32, Class(Public), "RFC 7450: AMT (globally reachable)"),
    v6(0x2001_0004_0112 << 80, 48, Class(Public), "RFC 7535: AS112-v6 (globally reachable)"),
    v6(0x2001_0020 << 96, 28, Class(Public), "RFC 7343: ORCHIDv2 (globally reachable)"),
    v6(0x2001_0030 << 96, 28, Class(Public), "RFC 9374: drone remote ID HHITs (globally reachable)"),
    v6(0x2001_0DB8 << 96, 32, Class(Reserved), "RFC 3849: documentation"),
    v6(0x2002 << 112, 16, Embeds(six_to_four), "RFC 3056: 6to4"),
    v6(0x3FFF << 112, 20, Class(Reserved), "RFC 9637: documentation"),
    v6(0x5F00 << 112, 16, Class(Reserved), "RFC 9602: segment routing SIDs"),
    v6(0xFC00 << 112, 7, Class(Private), "RFC 4193: unique-local"),
    v6(0xFE80 << 112, 10, Class(LinkLocal), "RFC 4291: link-local unicast"),
    v6(0xFEC0 << 112, 10, Class(Private), "RFC 3879: site-local (deprecated)"),
    v6(0xFF00 << 112, 8, Class(NotUnicast), "RFC 4291: multicast"),
];

fn last_32_bits(ip: Ipv6Addr) -> [Option<Ipv4Addr>; 2] {
    [Some(Ipv4Addr::from(u128::from(ip) as u32)), None]
}

/// 6to4: the IPv4 address in bits 16 to 47.
fn six_to_four(ip: Ipv6Addr) -> [Option<Ipv4Addr>; 2] {
    [Some(Ipv4Addr::from((u128::from(ip) >> 80) as u32)), None]
}

/// Teredo: the server's IPv4 address in bits 32 to 63, the client's in the
/// last 32 bits, inverted (RFC 4380 §4).
fn teredo(ip: Ipv6Addr) -> [Option<Ipv4Addr>; 2] {
    let bits = u128::from(ip);
    [
        Some(Ipv4Addr::from((bits >> 64) as u32)),
        Some(Ipv4Addr::from(!(bits as u32))),
    ]
}

/// The most specific block of [`BLOCKS`] that holds `bits`.
fn block_of(bits: u128) -> Option<&'static Block> {
    BLOCKS
        .iter()
        .filter(|block| {
            let mask = u128::MAX.checked_shl(128 - block.length).unwrap_or(0);
            bits & mask == block.network
        })
        .max_by_key(|block| block.length)
}

impl AddressClass {
    pub fn of(ip: IpAddr) -> AddressClass {
        let v6 = match ip {
            IpAddr::V4(v4) => return Self::of_v4(v4),
            IpAddr::V6(v6) => v6,
        };
        match block_of(u128::from(v6)).map(|block| block.meaning) {
            None => Public,
            Some(Class(class)) => class,
            Some(Embeds(embedded)) => embedded(v6)
                .into_iter()
                .flatten()
                .map(Self::of_v4)
                .max_by_key(|class| class.strictness())
                .unwrap_or(Public),
        }
    }

    /// An IPv4 address's class: by the IPv4 blocks (in their IPv4-mapped
    /// form), public in none.
    fn of_v4(v4: Ipv4Addr) -> AddressClass {
        match block_of(u128::from(v4.to_ipv6_mapped())).map(|block| block.meaning) {
            Some(Class(class)) => class,
            // The IPv4-mapped block itself: no IPv4 block holds it.
            Some(Embeds(_)) | None => Public,
        }
    }

    /// The registry row that classes `ip`, for messages and tests.
    pub fn row_of(ip: IpAddr) -> Option<&'static str> {
        let bits = match ip {
            IpAddr::V4(v4) => u128::from(v4.to_ipv6_mapped()),
            IpAddr::V6(v6) => u128::from(v6),
        };
        block_of(bits).map(|block| block.row)
    }

    /// How far from public a class is: of an address that embeds two, the
    /// stricter decides.
    fn strictness(self) -> u8 {
        match self {
            Public => 0,
            Private => 1,
            Loopback => 2,
            Reserved => 3,
            LinkLocal => 4,
            NotUnicast => 5,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Public => "a public address",
            Loopback => "a loopback address",
            Private => "a private address",
            LinkLocal => "a link-local address (where clouds serve instance metadata)",
            NotUnicast => "an unspecified, multicast or broadcast address",
            Reserved => "a special-purpose address that is not globally reachable",
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

    /// The policy for a walk from start URLs whose hosts resolved to
    /// `start` (each URL's addresses): a start host opens its class
    /// (loopback or private) to the links only where every address it
    /// resolved to is in that class. A name that answers both a public and
    /// a loopback address is served from either: the feed may come from
    /// the public one while its links reach the loopback one, so it opens
    /// nothing. Link-local and non-unicast classes never open.
    pub fn for_start(start: &[Vec<IpAddr>], allow_all: bool) -> Self {
        let mut policy = AddressPolicy::new(allow_all);
        for addresses in start {
            let mut classes = addresses.iter().map(|&ip| AddressClass::of(ip));
            if let Some(first) = classes.next() {
                if classes.all(|class| class == first) {
                    policy.open(first);
                }
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
            AddressClass::LinkLocal | AddressClass::NotUnicast | AddressClass::Reserved => {
                "links and redirects never lead there"
            }
        };
        let row = AddressClass::row_of(ip).map_or_else(String::new, |row| format!(" ({row})"));
        Some(Refused {
            what: format!("refused to connect to {ip}, {}{row}", class.describe()),
            rule,
        })
    }
}

/// The addresses a URL's host names now (none when it does not resolve:
/// the request then fails on its own).
pub(crate) fn addresses_of(url: &Url) -> Vec<IpAddr> {
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
pub struct Refused {
    /// What was refused: the address and its class.
    pub what: String,
    /// The rule that refused it.
    pub rule: &'static str,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.rule)
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

use crate::base::secret::MASK;

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
            // The special-purpose blocks that are not globally reachable.
            ("198.18.0.1", AddressClass::Reserved),
            ("198.19.255.255", AddressClass::Reserved),
            ("198.20.0.1", AddressClass::Public),
            ("240.0.0.1", AddressClass::Reserved),
            ("192.0.0.8", AddressClass::Reserved),
            ("192.0.0.9", AddressClass::Public),
            ("192.0.2.1", AddressClass::Reserved),
            ("198.51.100.1", AddressClass::Reserved),
            ("203.0.113.1", AddressClass::Reserved),
            ("192.88.99.1", AddressClass::Reserved),
            ("2001:db8::1", AddressClass::Reserved),
            ("3fff::1", AddressClass::Reserved),
            ("100::1", AddressClass::Reserved),
            ("2001:2::1", AddressClass::Reserved),
            ("2001:4:112::1", AddressClass::Public),
            ("fec0::1", AddressClass::Private),
            ("64:ff9b:1::a00:1", AddressClass::Private),
            // IPv6 forms that embed an IPv4 address are that address.
            ("::127.0.0.1", AddressClass::Loopback),
            ("::169.254.169.254", AddressClass::LinkLocal),
            ("::93.184.216.34", AddressClass::Public),
            ("64:ff9b::127.0.0.1", AddressClass::Loopback),
            ("64:ff9b::a9fe:a9fe", AddressClass::LinkLocal),
            ("64:ff9b::5db8:d822", AddressClass::Public),
            ("2002:7f00:1::", AddressClass::Loopback),
            ("2002:a9fe:a9fe::1", AddressClass::LinkLocal),
            ("2002:0a00:0005::1", AddressClass::Private),
            ("2002:5db8:d822::1", AddressClass::Public),
            // Teredo: server 65.54.227.120, client 127.0.0.1 (inverted).
            ("2001:0:4136:e378:8000:63bf:80ff:fffe", AddressClass::Loopback),
            ("2001:0:4136:e378:8000:63bf:a247:27dd", AddressClass::Public),
            ("2001:0:a9fe:a9fe:8000:63bf:a247:27dd", AddressClass::LinkLocal),
        ] {
            assert_eq!(class(ip), expected, "{ip}");
        }
    }

    #[test]
    fn every_block_is_in_its_family_and_cites_its_row() {
        for block in BLOCKS {
            assert!(block.length <= 128, "{}", block.row);
            let mask = u128::MAX.checked_shl(128 - block.length).unwrap_or(0);
            assert_eq!(block.network & !mask, 0, "{} has bits past its prefix", block.row);
            assert!(block.row.starts_with("RFC "), "{}", block.row);
        }
        assert_eq!(
            AddressClass::row_of("198.18.0.1".parse().unwrap()),
            Some("RFC 2544: benchmarking")
        );
    }

    #[test]
    fn links_from_a_public_start_stay_public() {
        let policy = AddressPolicy::new(false);
        for ip in [
            "127.0.0.1",
            "10.0.0.5",
            "169.254.169.254",
            "fe80::1",
            "0.0.0.0",
            "::1",
            "198.18.0.1",
            "240.0.0.1",
            "::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "2001:0:4136:e378:8000:63bf:80ff:fffe",
            "fec0::1",
        ] {
            assert!(policy.refuses(ip.parse().unwrap()).is_some(), "{ip}");
        }
        let said = policy.refuses("198.18.0.1".parse().unwrap()).unwrap().to_string();
        assert!(
            said.contains("not globally reachable (RFC 2544: benchmarking)"),
            "{said}"
        );
        assert!(policy.refuses("93.184.216.34".parse().unwrap()).is_none());
        assert!(AddressPolicy::new(true)
            .refuses("169.254.169.254".parse().unwrap())
            .is_none());
    }

    fn resolved(addresses: &[&str]) -> Vec<IpAddr> {
        addresses.iter().map(|ip| ip.parse().unwrap()).collect()
    }

    #[test]
    fn an_ipv4_translated_address_is_its_ipv4_address_s_class() {
        // ::ffff:0:a.b.c.d (SIIT) carries an IPv4 address as the mapped
        // form does: loopback, private and link-local are refused.
        let policy = AddressPolicy::new(false);
        for ip in ["::ffff:0:127.0.0.1", "::ffff:0:10.0.0.1", "::ffff:0:169.254.169.254"] {
            assert!(policy.refuses(ip.parse().unwrap()).is_some(), "{ip}");
        }
        assert_eq!(class("::ffff:0:127.0.0.1"), AddressClass::Loopback);
        assert!(policy.refuses("::ffff:0:93.184.216.34".parse().unwrap()).is_none());
    }

    #[test]
    fn a_start_host_with_a_public_and_a_loopback_answer_opens_nothing() {
        // A name that resolves to both: the feed may come from the public
        // address while its links and media reach the loopback one.
        for mixed in [
            &["93.184.216.34", "127.0.0.1"][..],
            &["127.0.0.1", "93.184.216.34"],
            &["10.0.0.5", "2606:2800:220:1::1"],
            &["127.0.0.1", "10.0.0.5"],
        ] {
            let policy = AddressPolicy::for_start(&[resolved(mixed)], false);
            for ip in ["127.0.0.1", "10.0.0.5"] {
                assert!(policy.refuses(ip.parse().unwrap()).is_some(), "{mixed:?} opened {ip}");
            }
        }
        // Every answer loopback (IPv4 and IPv6 alike): loopback opens.
        let policy = AddressPolicy::for_start(&[resolved(&["127.0.0.1", "::1"])], false);
        assert!(policy.refuses("127.0.0.1".parse().unwrap()).is_none());
        // A second start URL's class is its own decision.
        let policy = AddressPolicy::for_start(&[resolved(&["93.184.216.34"]), resolved(&["10.1.2.3"])], false);
        assert!(policy.refuses("10.0.0.5".parse().unwrap()).is_none());
        assert!(policy.refuses("127.0.0.1".parse().unwrap()).is_some());
    }

    #[test]
    fn a_loopback_start_opens_loopback_only() {
        let start = |url: &str| vec![addresses_of(&Url::parse(url).unwrap())];
        let policy = AddressPolicy::for_start(&start("http://127.0.0.1:8080/feed.atom"), false);
        assert!(policy.refuses("127.0.0.1".parse().unwrap()).is_none());
        assert!(policy.refuses("127.0.0.2".parse().unwrap()).is_none());
        let metadata = policy.refuses("169.254.169.254".parse().unwrap()).unwrap();
        assert!(metadata.what.contains("link-local"), "{metadata}");
        assert!(policy.refuses("10.0.0.5".parse().unwrap()).is_some());
        // A link-local start opens nothing for its links.
        let policy = AddressPolicy::for_start(&start("http://169.254.169.254/"), false);
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
