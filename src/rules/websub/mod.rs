//! WebSub (W3C Recommendation, 23 January 2018), in every feed format: a
//! feed that names a hub names the topic subscribers subscribe to, its one
//! `self` URL, and a fetched feed's `Link` headers say the same as its
//! document. The rules run where the document is read (they need what it
//! was served with), not over its tree: what a document advertises is
//! gathered first, from Atom and RSS `atom:link` elements or a JSON Feed's
//! `hubs` and `feed_url`, into [`Advertised`].

use std::ops::Range;

use url::Url;

use crate::feed::json_feed::JsonFeed;
use crate::feed::{FeedDoc, Rel};
use crate::findings::diagnostic::{shorten, Pending};
use crate::rules::{rule, Rule};

mod header;

pub use header::HeaderLinks;

pub static WEBSUB_MISSING_SELF: Rule = rule!(
    WebsubMissingSelf, Error, Doc, None,
    groups: [Websub],
    summary: "a feed names a WebSub hub but no topic URL: no self link (no feed_url in a JSON Feed), in the document or its Link header",
    spec: "WebSub §4, §3.1 (Publishers)",
);

pub static WEBSUB_MULTIPLE_SELF: Rule = rule!(
    WebsubMultipleSelf, Warning, Doc, None,
    groups: [Websub],
    summary: "a feed that names a WebSub hub names two different self URLs, so two topics",
    spec: "WebSub §4",
);

pub static WEBSUB_INVALID_HUB: Rule = rule!(
    WebsubInvalidHub, Error, Doc, None,
    groups: [Websub],
    summary: "a WebSub hub link that is not an http or https URL",
    spec: "WebSub §2 (Hub), §5.1",
);

pub static WEBSUB_TOPIC_MISMATCH: Rule = rule!(
    WebsubTopicMismatch, Info, Doc, None,
    groups: [Websub],
    summary: "a fetched feed that names a WebSub hub gives another topic (self URL) than the URL it was fetched from",
    spec: "WebSub §4",
);

pub static WEBSUB_HEADER_MISMATCH: Rule = rule!(
    WebsubHeaderMismatch, Warning, Doc, None,
    groups: [Websub],
    summary: "a fetched feed's Link header names another hub or self URL than its document",
    spec: "WebSub §4",
);

pub static WEBSUB_HUB_ONLY_IN_HEADERS: Rule = rule!(
    WebsubHubOnlyInHeaders, Warning, Doc, None,
    groups: [Websub],
    summary: "a fetched Atom or RSS feed names its WebSub hub in its Link header only, not in the document",
    spec: "WebSub §4",
);

pub static WEBSUB_HUB_UNREACHABLE: Rule = rule!(
    WebsubHubUnreachable, Warning, Set, None,
    groups: [Websub],
    summary: "a hub a feed names gives no answer, or says it is not there (404, 410, a server error), when hubs are asked (an opt-in check)",
    spec: "WebSub §4, §5.1",
);

/// The WebSub text quoted by the discovery rules.
const DISCOVERY: &str = "WebSub §4: discovery identifies \"the URL of the hub(s)\" and \"the canonical URL for the topic to which subscribers are expected to use for subscriptions\"";

/// A URL the document advertises: as written, resolved, and where.
#[derive(Debug, Clone)]
pub struct Said {
    pub href: String,
    /// The absolute URL it names, where it resolves.
    pub target: Option<Url>,
    pub at: Range<usize>,
    /// Written as a relative reference.
    pub relative: bool,
}

/// The hubs and self URLs a document names (in its head: the feed's or
/// channel's own links, not an entry's).
#[derive(Debug, Default)]
pub struct Advertised {
    pub hubs: Vec<Said>,
    pub selves: Vec<Said>,
    /// Whether the format has WebSub's embedded links (Atom and RSS are
    /// "XML based feeds"; a JSON Feed's `hubs` is JSON Feed's own).
    pub xml_based: bool,
    /// Relative references are another rule's finding in this format
    /// (`json-feed-relative-url`).
    pub relative_judged_elsewhere: bool,
}

impl Advertised {
    /// The `hub` and `self` links of an Atom feed's or RSS channel's head.
    pub fn of_feed(feed: &FeedDoc) -> Advertised {
        let said = |link: &crate::feed::Link| {
            let href = link.href?;
            Some(Said {
                href: href.trim().to_owned(),
                target: link.target.clone(),
                at: link.span(),
                relative: !crate::text::iri::has_scheme(href.trim()),
            })
        };
        let mut advertised = Advertised {
            xml_based: true,
            ..Advertised::default()
        };
        for link in &feed.links {
            match &link.rel {
                Rel::Itself => advertised.selves.extend(said(link)),
                Rel::Other(rel) if rel == "hub" => advertised.hubs.extend(said(link)),
                _ => {}
            }
        }
        advertised
    }

    /// A JSON Feed's WebSub hubs (`hubs` whose `type` is WebSub, or its
    /// old name PubSubHubbub; rssCloud is another protocol) and its
    /// `feed_url`, the topic.
    pub fn of_json(feed: &JsonFeed) -> Advertised {
        let said = |(href, at): (&str, Range<usize>)| {
            let href = href.trim();
            Said {
                href: href.to_owned(),
                target: Url::parse(href).ok(),
                at,
                relative: !crate::text::iri::has_scheme(href),
            }
        };
        let websub = |hub: &&&crate::json::Object| {
            crate::feed::json_feed::string(hub, "type").is_some_and(|(kind, _)| {
                kind.trim().eq_ignore_ascii_case("websub") || kind.trim().eq_ignore_ascii_case("pubsubhubbub")
            })
        };
        Advertised {
            hubs: feed
                .objects()
                .iter()
                .filter(|(shape, _)| *shape == crate::feed::json_feed::Shape::Hub)
                .map(|(_, hub)| hub)
                .filter(websub)
                .filter_map(|hub| crate::feed::json_feed::string(hub, "url").map(said))
                .collect(),
            selves: feed.string("feed_url").map(said).into_iter().collect(),
            xml_based: false,
            relative_judged_elsewhere: true,
        }
    }
}

/// How a fetched document was served: the URL it came from (after
/// redirects), the URL it was asked for, and its `Link` header.
pub struct Served<'s> {
    pub url: &'s Url,
    pub asked: Option<&'s Url>,
    pub header: &'s HeaderLinks,
    /// The URL was named by the user, not reached by a link: only there is
    /// the topic expected to be it (a later page, an archive, names the
    /// feed's topic or its own).
    pub named: bool,
}

impl Served<'_> {
    /// Whether `url` is where the document was fetched (or asked for).
    fn is_its_url(&self, url: &Url) -> bool {
        let key = crate::text::iri::comparison_key;
        key(url) == key(self.url) || self.asked.is_some_and(|asked| key(url) == key(asked))
    }
}

/// Every WebSub finding of one document: `root` is where findings about
/// the whole document point.
pub fn check(advertised: &Advertised, served: Option<&Served>, root: Range<usize>) -> Vec<(&'static Rule, Pending)> {
    let mut found = Vec::new();
    let header = served.map(|served| served.header);
    let header_hubs = header.map_or(&[][..], |header| &header.hubs);
    let header_selves = header.map_or(&[][..], |header| &header.selves);
    if advertised.hubs.is_empty() && header_hubs.is_empty() {
        return found;
    }
    for hub in &advertised.hubs {
        if let Some(finding) = invalid_hub(hub, advertised) {
            found.push((&WEBSUB_INVALID_HUB, finding));
        }
    }
    if advertised.selves.is_empty() && header_selves.is_empty() {
        found.push((&WEBSUB_MISSING_SELF, missing_self(advertised, root.clone())));
        return found;
    }
    if let Some(finding) = multiple_self(&advertised.selves) {
        found.push((&WEBSUB_MULTIPLE_SELF, finding));
    }
    let Some(served) = served else { return found };
    if advertised.hubs.is_empty() && advertised.xml_based {
        found.push((
            &WEBSUB_HUB_ONLY_IN_HEADERS,
            hub_only_in_headers(header_hubs, root.clone()),
        ));
    }
    if let Some(finding) = header_mismatch(advertised, served.header, root.clone()) {
        found.push((&WEBSUB_HEADER_MISMATCH, finding));
    }
    // A document self link that the header contradicts is the one
    // finding at it: that it is not the URL fetched follows from it.
    let header_contradicts = other_self_in_header(advertised, served.header).is_some();
    if let Some(finding) = topic_mismatch(advertised, served, root).filter(|_| served.named && !header_contradicts) {
        found.push((&WEBSUB_TOPIC_MISMATCH, finding));
    }
    found
}

/// A hub must be a URL a subscriber can `POST` to. A reference that names
/// no URL at all is the IRI rules' finding (`invalid-iri`,
/// `json-feed-invalid-url`), one that cannot be resolved the base rules',
/// so this one judges the scheme of a URL.
fn invalid_hub(hub: &Said, advertised: &Advertised) -> Option<Pending> {
    if hub.relative && advertised.relative_judged_elsewhere {
        return None;
    }
    let target = hub.target.as_ref()?;
    if matches!(target.scheme(), "http" | "https") {
        return None;
    }
    Some(
        Pending::new(hub.at.clone(), format!("the hub {} is a {}: URL, not an http or https URL", shorten(&hub.href), target.scheme()))
            .label("not a hub's URL")
            .note("WebSub §5.1: \"Subscription is initiated by the subscriber making an HTTPS or HTTP POST [RFC7231] request to the hub URL\"; no subscriber can reach this one")
            .help("name the hub by its https URL"),
    )
}

fn missing_self(advertised: &Advertised, root: Range<usize>) -> Pending {
    let (at, label) = match advertised.hubs.first() {
        Some(hub) => (hub.at.clone(), "a hub, but no topic"),
        None => (root, "the Link header names a hub, the feed no topic"),
    };
    let (what, help) = if advertised.xml_based {
        (
            "no self link",
            "add <atom:link rel=\"self\" href=\"...\"/> with the feed's own URL beside the hub",
        )
    } else {
        ("no feed_url", "add \"feed_url\" with the feed's own URL")
    };
    Pending::new(at, format!("the feed names a WebSub hub but gives {what}, the topic subscribers subscribe to"))
        .label(label)
        .note(format!("{DISCOVERY}; a conforming publisher \"MUST advertise topic and hub URLs\" (§3.1): without the topic, no subscriber can subscribe at the hub"))
        .help(help)
}

/// The self URLs that name other targets than the first: each a topic.
fn multiple_self(selves: &[Said]) -> Option<Pending> {
    let first = selves.first()?;
    let key = |said: &Said| {
        said.target.as_ref().map_or_else(
            || said.href.clone(),
            |url| crate::text::iri::comparison_key(url).into_owned(),
        )
    };
    let other = selves[1..].iter().find(|said| key(said) != key(first))?;
    Some(
        Pending::new(other.at.clone(), format!("a second self URL, {}, beside {}: two topics", shorten(&other.href), shorten(&first.href)))
            .label("another topic")
            .secondary(first.at.clone(), "the first self URL")
            .note("WebSub §4: the publisher includes \"exactly one\" self link; subscribers that take the first and those that take the last subscribe to different topics, and the publisher pings one of them")
            .help("keep one self link, the feed's canonical URL"),
    )
}

fn hub_only_in_headers(hubs: &[Url], root: Range<usize>) -> Pending {
    let shown: Vec<String> = hubs
        .iter()
        .take(3)
        .map(|hub| shorten(hub.as_str()).to_string())
        .collect();
    Pending::new(root, format!("the Link header names the hub {}, the document none", shown.join(", ")))
        .label("no hub in the document")
        .note("WebSub §4: \"If the topic is an XML based feed, publishers SHOULD use embedded link elements\"; a reader given the file, or one that reads the document only, finds no hub")
        .help("add <atom:link rel=\"hub\" href=\"...\"/> beside the self link, naming the same hub")
}

/// The header and the document name other hubs, or another self URL. Hubs
/// are compared as sets (their order means nothing); each side is judged
/// only where it names something.
fn header_mismatch(advertised: &Advertised, header: &HeaderLinks, root: Range<usize>) -> Option<Pending> {
    let key = |url: &Url| crate::text::iri::comparison_key(url).into_owned();
    if let Some((own, told)) = other_self_in_header(advertised, header) {
        return Some(
            Pending::new(own.at.clone(), format!("the Link header's self URL is {}, the document's {}", shorten(told.as_str()), shorten(&own.href)))
                .label("another topic than the header's")
                .note("WebSub §4: subscribers read the Link header first and fall back to the document; subscribers of each kind subscribe to a different topic, and the publisher's pings reach only one")
                .help("make the header and the document name the same self URL"),
        );
    }
    if advertised.hubs.is_empty() || header.hubs.is_empty() {
        return None;
    }
    let own: std::collections::HashSet<String> = advertised
        .hubs
        .iter()
        .filter_map(|hub| hub.target.as_ref())
        .map(key)
        .collect();
    let told: std::collections::HashSet<String> = header.hubs.iter().map(key).collect();
    if own == told {
        return None;
    }
    let at = advertised.hubs.first().map_or(root, |hub| hub.at.clone());
    let only_header: Vec<&String> = told.difference(&own).take(2).collect();
    let only_document: Vec<&String> = own.difference(&told).take(2).collect();
    let mut differences = Vec::new();
    if !only_header.is_empty() {
        differences.push(format!("the header only names {}", list(&only_header)));
    }
    if !only_document.is_empty() {
        differences.push(format!("the document only names {}", list(&only_document)));
    }
    Some(
        Pending::new(at, format!("the Link header and the document name different hubs: {}", differences.join("; ")))
            .label("other hubs than the header's")
            .note("WebSub §4: subscribers read the Link header first and fall back to the document; the publisher has to ping every hub either names")
            .help("name the same hubs in the header and the document"),
    )
}

/// The document's first self link and the header's, where they name
/// different URLs.
fn other_self_in_header<'a>(advertised: &'a Advertised, header: &'a HeaderLinks) -> Option<(&'a Said, &'a Url)> {
    let own = advertised.selves.first()?;
    let told = header.selves.first()?;
    let key = crate::text::iri::comparison_key;
    (key(own.target.as_ref()?) != key(told)).then_some((own, told))
}

fn list(urls: &[&String]) -> String {
    urls.iter()
        .map(|url| shorten(url).to_string())
        .collect::<Vec<_>>()
        .join(" and ")
}

/// The topic is another URL than the one fetched: said (an info), as a
/// feed proxy's topic is meant to be another, but a subscriber subscribes
/// there and not to the URL the user checked. A self URL that names this
/// file at another address is `self-link-mismatch`'s finding.
fn topic_mismatch(advertised: &Advertised, served: &Served, root: Range<usize>) -> Option<Pending> {
    let header_self = served.header.selves.first();
    let (topic, at) = match advertised.selves.first() {
        Some(own) => (own.target.as_ref()?, own.at.clone()),
        None => (header_self?, root),
    };
    if served.is_its_url(topic) {
        return None;
    }
    let same_file =
        crate::text::iri::file_name(topic).is_some_and(|name| crate::text::iri::file_name(served.url) == Some(name));
    if same_file && !advertised.selves.is_empty() {
        return None;
    }
    Some(
        Pending::new(at, format!("subscribers subscribe to {}, not to {}, the URL the feed was fetched from", shorten(topic.as_str()), shorten(served.url.as_str())))
            .label("the topic")
            .note("WebSub §4: the self URL is \"the canonical URL for the topic to which subscribers are expected to use for subscriptions\"; updates reach subscribers only where the publisher pings the hub for that topic")
            .help("if the feed is published at the URL fetched, make the self URL name it"),
    )
}
