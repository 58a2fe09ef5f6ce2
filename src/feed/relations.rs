//! Link relations as RFC 5005 and the feed-history draft name them, and
//! the kinds of document.

use super::{ATOM_NS, AT_NS};
use crate::xml::Node;

/// Prefix that makes a relation an IRI naming a registered relation.
pub(crate) const IANA_RELATION_PREFIX: &str = "http://www.iana.org/assignments/relation/";

/// An RFC 5005 relation that ties the documents of a logical feed together:
/// what the set checks follow. Typed, so that a misspelled relation does
/// not compile (a string would silently match nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relation {
    PrevArchive,
    NextArchive,
    Current,
    First,
    Last,
    Previous,
    Next,
}

impl Relation {
    pub const ALL: [Relation; 7] = [
        Relation::PrevArchive,
        Relation::NextArchive,
        Relation::Current,
        Relation::First,
        Relation::Last,
        Relation::Previous,
        Relation::Next,
    ];

    /// The relation as written (after [`normalize_relation`]).
    pub const fn as_str(self) -> &'static str {
        match self {
            Relation::PrevArchive => "prev-archive",
            Relation::NextArchive => "next-archive",
            Relation::Current => "current",
            Relation::First => "first",
            Relation::Last => "last",
            Relation::Previous => "previous",
            Relation::Next => "next",
        }
    }

    /// The navigation relation a normalized relation names, if any.
    pub fn of(normalized: &str) -> Option<Relation> {
        Relation::ALL.into_iter().find(|r| r.as_str() == normalized)
    }
}

impl std::fmt::Display for Relation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The relations of paged feeds (RFC 5005 §3).
pub const PAGING_RELATIONS: [Relation; 4] = [Relation::First, Relation::Last, Relation::Previous, Relation::Next];

/// The relations of archived feeds (RFC 5005 §4).
pub const ARCHIVE_RELATIONS: [Relation; 3] = [Relation::PrevArchive, Relation::NextArchive, Relation::Current];

/// A link's relation, normalized (see [`normalize_relation`]) and typed
/// where the rules follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rel {
    Navigation(Relation),
    /// `self` (RFC 4287 §4.2.7.2).
    Itself,
    /// Any other relation, normalized: `alternate`, `prev`, extension IRIs.
    Other(String),
}

impl Rel {
    /// The relation of a `rel` attribute's value (`None`: absent).
    pub fn of(rel: Option<&str>) -> Rel {
        // Navigation relations and `self` first, without allocating.
        if let Some(relation) = navigation_relation(rel) {
            return Rel::Navigation(relation);
        }
        let normalized = normalize_relation(rel);
        if normalized == "self" {
            Rel::Itself
        } else {
            Rel::Other(normalized)
        }
    }

    /// The navigation relation a reader follows the link as: its own, or
    /// `previous` for `prev`, the registry's synonym that podcast
    /// publishers write (Podlove pages with it), which RFC 5005 names
    /// `previous` (`paging-prev-alias` says so).
    pub fn followed_as(&self) -> Option<Relation> {
        match self {
            Rel::Other(other) if other == "prev" => Some(Relation::Previous),
            _ => self.navigation(),
        }
    }

    /// The navigation relation, if it is one.
    pub fn navigation(&self) -> Option<Relation> {
        match self {
            Rel::Navigation(relation) => Some(*relation),
            _ => None,
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            Rel::Navigation(relation) => relation.as_str(),
            Rel::Itself => "self",
            Rel::Other(other) => other,
        }
    }
}

impl PartialEq<Relation> for Rel {
    fn eq(&self, other: &Relation) -> bool {
        *self == Rel::Navigation(*other)
    }
}

impl std::fmt::Display for Rel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    /// An Atom Feed Document: root `atom:feed`.
    Atom,
    /// An Atom Entry Document (RFC 4287 §2): root `atom:entry`, one entry
    /// standing alone, with no feed to inherit from.
    AtomEntry,
    /// An RSS document: root `rss`, the `channel` is the head section.
    Rss,
    /// A Deleted Entry Document (RFC 6721 §4): root `at:deleted-entry`.
    DeletedEntry,
    /// A JSON Feed document: a JSON object whose `version` names JSON Feed.
    JsonFeed,
}

impl DocKind {
    pub fn of_root(root: Node<'_, '_>) -> Option<DocKind> {
        let name = root.tag_name();
        match (name.namespace(), name.name()) {
            (Some(ATOM_NS), "feed") => Some(DocKind::Atom),
            (Some(ATOM_NS), "entry") => Some(DocKind::AtomEntry),
            (None, "rss") => Some(DocKind::Rss),
            (Some(AT_NS), "deleted-entry") => Some(DocKind::DeletedEntry),
            _ => None,
        }
    }

    /// An Atom Feed or Entry Document: the Atom core rules read it.
    pub fn is_atom(self) -> bool {
        matches!(self, DocKind::Atom | DocKind::AtomEntry)
    }
}

/// A relation as RFC 4287 §4.2.7.2 and RFC 5005 compare it: absent means
/// `alternate`, the IANA registry prefix is dropped, and registered names
/// compare ASCII case-insensitively.
pub fn normalize_relation(rel: Option<&str>) -> String {
    // No trimming: a padded value is no relation (RFC 4287 §4.2.7.2 allows
    // no whitespace), so it must not be read as the name inside it.
    let rel = rel.unwrap_or("alternate");
    let rel = rel.strip_prefix(IANA_RELATION_PREFIX).unwrap_or(rel);
    if rel.contains(':') {
        rel.to_owned()
    } else {
        rel.to_ascii_lowercase()
    }
}

/// The RFC 5005 navigation relation a `rel` value names, if any, compared
/// as [`normalize_relation`] does but without allocating (it is asked for
/// every link of every entry).
pub fn navigation_relation(rel: Option<&str>) -> Option<Relation> {
    let rel = rel?;
    let rel = rel.strip_prefix(IANA_RELATION_PREFIX).unwrap_or(rel);
    Relation::ALL
        .into_iter()
        .find(|relation| relation.as_str().eq_ignore_ascii_case(rel))
}

/// Relations in the IANA Link Relations registry (and HTML's) that are a
/// small edit away from an RFC 5005 name but mean something else.
const REGISTERED_RELATIONS: &[&str] = &[
    "about",
    "acl",
    "alternate",
    "amphtml",
    "appendix",
    "apple-touch-icon",
    "archives",
    "author",
    "blocked-by",
    "bookmark",
    "canonical",
    "chapter",
    "cite-as",
    "collection",
    "contents",
    "convertedfrom",
    "copyright",
    "create-form",
    "current",
    "describedby",
    "describes",
    "disclosure",
    "dns-prefetch",
    "duplicate",
    "edit",
    "edit-form",
    "edit-media",
    "enclosure",
    "external",
    "first",
    "glossary",
    "help",
    "hosts",
    "hub",
    "icon",
    "index",
    "intervalafter",
    "intervalbefore",
    "intervalcontains",
    "intervaldisjoint",
    "intervalduring",
    "intervalequals",
    "intervalfinishedby",
    "intervalfinishes",
    "intervalin",
    "intervalmeets",
    "intervalmetby",
    "intervaloverlappedby",
    "intervaloverlaps",
    "intervalstartedby",
    "intervalstarts",
    "item",
    "last",
    "latest-version",
    "license",
    "linkset",
    "lrdd",
    "manifest",
    "mask-icon",
    "me",
    "media-feed",
    "memento",
    "micropub",
    "modulepreload",
    "monitor",
    "monitor-group",
    "next",
    "next-archive",
    "nofollow",
    "noopener",
    "noreferrer",
    "opener",
    "openid2.local_id",
    "openid2.provider",
    "original",
    "p3pv1",
    "payment",
    "pingback",
    "preconnect",
    "predecessor-version",
    "prefetch",
    "preload",
    "prerender",
    "prev",
    "prev-archive",
    "preview",
    "previous",
    "privacy-policy",
    "profile",
    "publication",
    "related",
    "replies",
    "restconf",
    "search",
    "section",
    "self",
    "service",
    "service-desc",
    "service-doc",
    "service-meta",
    "sponsored",
    "start",
    "status",
    "stylesheet",
    "subsection",
    "successor-version",
    "sunset",
    "tag",
    "terms-of-service",
    "timegate",
    "timemap",
    "type",
    "ugc",
    "up",
    "version-history",
    "via",
    "webmention",
    "working-copy",
    "working-copy-of",
];

/// The RFC 5005 relation that `rel` (already lower-cased) was meant to be.
pub fn intended_relation(rel: &str) -> Option<&'static str> {
    if REGISTERED_RELATIONS.contains(&rel) || rel.contains(':') {
        return None;
    }
    let words: Vec<&str> = rel.split(['-', '_', ' ', '.']).filter(|w| !w.is_empty()).collect();
    let has = |names: &[&str]| words.iter().any(|w| names.contains(w));
    let joined: String = words.concat();
    if words.len() == 2 && has(&["archive", "archives"]) {
        if has(&["prev", "previous", "preceding"]) {
            return Some("prev-archive");
        }
        if has(&["next", "following"]) {
            return Some("next-archive");
        }
    }
    match joined.as_str() {
        "prevarchive" | "previousarchive" | "archiveprev" | "archiveprevious" => return Some("prev-archive"),
        "nextarchive" | "archivenext" => return Some("next-archive"),
        _ => {}
    }
    Relation::ALL
        .into_iter()
        .map(Relation::as_str)
        // On four-letter names a substitution is another word ("text", "lost").
        .find(|target| {
            joined.len() >= 4
                && joined != *target
                && crate::findings::rule_id::one_edit_apart(&joined, target, target.len() > 4)
        })
}

#[cfg(test)]
mod relation_tests {
    use super::{normalize_relation, Rel, Relation};

    #[test]
    pub(crate) fn relations_read_as_rfc_5005_names_them() {
        for relation in Relation::ALL {
            assert_eq!(Relation::of(relation.as_str()), Some(relation));
            assert_eq!(Rel::of(Some(relation.as_str())), relation);
        }
        assert_eq!(Rel::of(Some("NEXT-Archive")), Relation::NextArchive);
        assert_eq!(Rel::of(Some("Self")), Rel::Itself);
        assert_eq!(Rel::of(Some("prev")), Rel::Other("prev".to_owned()));
        assert_eq!(Rel::of(None), Rel::Other("alternate".to_owned()));
        assert_eq!(
            Rel::of(Some("urn:X:Rel")).as_str(),
            "urn:X:Rel",
            "extension IRIs keep their case"
        );
        let registered = normalize_relation(Some("http://www.iana.org/assignments/relation/Prev-Archive"));
        assert_eq!(Relation::of(&registered), Some(Relation::PrevArchive));
        assert_eq!(Relation::of("prev"), None, "the alias is not a navigation relation");
        assert_eq!(Relation::NextArchive.to_string(), "next-archive");
    }
}
