//! The groups rules are selected by (`--select rfc5005`).

/// A named group of rules (`--select rfc5005`): a rule's first group says
/// which table of docs/rules.md lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    Xml,
    Rfc5005,
    Rfc6721,
    AtomCore,
    RssCore,
    RssProfile,
    Itunes,
    Podcast,
    JsonFeed,
    Content,
    Discovery,
    Websub,
    Http,
    Media,
    Fetch,
}

impl Group {
    /// Every group, in the order `feedlint rules` lists them.
    pub const ALL: [Group; 15] = [
        Group::Xml,
        Group::Rfc5005,
        Group::Rfc6721,
        Group::AtomCore,
        Group::RssCore,
        Group::RssProfile,
        Group::Itunes,
        Group::Podcast,
        Group::JsonFeed,
        Group::Content,
        Group::Discovery,
        Group::Websub,
        Group::Http,
        Group::Media,
        Group::Fetch,
    ];

    /// The group as users write it.
    pub const fn name(self) -> &'static str {
        match self {
            Group::Xml => "xml",
            Group::Rfc5005 => "rfc5005",
            Group::Rfc6721 => "rfc6721",
            Group::AtomCore => "atom-core",
            Group::RssCore => "rss-core",
            Group::RssProfile => "rss-profile",
            Group::Itunes => "itunes",
            Group::Podcast => "podcast",
            Group::JsonFeed => "json-feed",
            Group::Content => "content",
            Group::Discovery => "discovery",
            Group::Websub => "websub",
            Group::Http => "http",
            Group::Media => "media",
            Group::Fetch => "fetch",
        }
    }

    /// What the group's rules check.
    /// The group's heading in the list of rules (docs/rules.md).
    pub const fn title(self) -> &'static str {
        match self {
            Group::Xml => "XML and files",
            Group::Rfc5005 => "RFC 5005: paging and archiving",
            Group::Rfc6721 => "RFC 6721: tombstones",
            Group::AtomCore => "Atom core",
            Group::RssCore => "RSS core",
            Group::RssProfile => "RSS Best Practices Profile",
            Group::Itunes => "Apple's podcast tags",
            Group::Podcast => "Podcasts",
            Group::JsonFeed => "JSON Feed",
            Group::Content => "Links in entries",
            Group::Discovery => "Feed discovery",
            Group::Websub => "WebSub",
            Group::Http => "HTTP",
            Group::Media => "Media",
            Group::Fetch => "Fetching",
        }
    }

    /// The folder of `src/rules/` that holds the rules whose first group
    /// this is: Atom core's, RSS's and the podcast tags' rules share one
    /// folder each with the groups that build on them.
    pub const fn folder(self) -> &'static str {
        match self {
            Group::Xml => "xml",
            Group::Rfc5005 => "rfc5005",
            Group::Rfc6721 => "rfc6721",
            Group::AtomCore => "atom",
            Group::RssCore | Group::RssProfile => "rss",
            Group::Itunes | Group::Podcast => "podcast",
            Group::JsonFeed => "json_feed",
            Group::Content => "content",
            Group::Discovery => "discovery",
            Group::Websub => "websub",
            Group::Http => "http",
            Group::Media => "media",
            Group::Fetch => "fetch",
        }
    }

    pub const fn summary(self) -> &'static str {
        match self {
            Group::Xml => "the document as XML and as a file: well-formedness, entities, encodings, files that are no feed, suppression comments",
            Group::Rfc5005 => "RFC 5005 and the feed-history draft: markers, archive and paging links, the chains they make, self links",
            Group::Rfc6721 => "RFC 6721 tombstones: at:deleted-entry, Deleted Entry Documents",
            Group::AtomCore => "RFC 4287 Atom: required and once-only elements, text and content, ids, dates, links, IRIs, languages",
            Group::RssCore => "RSS 2.0, 0.92 and 0.91, and the well-known modules: required elements, values, dates, guids, languages",
            Group::RssProfile => "the RSS Advisory Board's RSS Best Practices Profile, as the W3C service recommends it: a self link, a guid on every item, names beside addresses, items last (warnings, and an info)",
            Group::Itunes => "Apple's iTunes podcast tags, by the values Apple's guide and PSP-1 give them: explicit, duration, episode and season numbers, types, block and complete, categories, artwork, new feed URL; and what Apple takes of a podcast's language and media",
            Group::Podcast => "podcasts by PSP-1: the elements a podcast must and should have, descriptions, episodes' media; the Podcasting 2.0 tags, each by its document; RSS feeds that carry audio but declare no podcast namespace (an info)",
            Group::JsonFeed => "JSON Feed 1.1 documents: JSON itself, the members the format requires, their types, and members that are neither the format's nor an extension's",
            Group::Content => "links inside entry HTML (escaped, CDATA or XHTML): relative links that RSS gives no base, protocol-relative links, with their places inside the escaped text and fixes that make them absolute where the base is known",
            Group::Discovery => "the feeds a site's web pages advertise (<link rel=\"alternate\">), read where a walk meets the pages of a published tree: a link that leads to no feed, a relative one that works only from some folders, a type that names another format, and a home page that advertises no feed",
            Group::Websub => "WebSub in every format: a feed that names a hub names one topic, its self URL (a JSON Feed's feed_url); hub URLs; a fetched feed's Link header against its document; hubs that do not answer, when asked to check them",
            Group::Http => "how a fetched feed is served: validators (ETag, Last-Modified) and whether a conditional request gets 304, an ETag that changes while the feed does not, no-store on archives, compression of large feeds, CORS for readers in web pages, temporary redirects, bot challenges in place of a linked document",
            Group::Media => "what the servers of enclosures and artwork answer, when the media check is asked for: status, redirects, Content-Type and Content-Length against type and length, byte ranges; the artwork's real format, pixel size and colour space",
            Group::Fetch => "documents fetched from URLs: unavailable archives, failed fetches, limits, charsets",
        }
    }
}

impl std::fmt::Display for Group {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

impl serde::Serialize for Group {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}
