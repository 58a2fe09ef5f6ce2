//! What the podcast rules share, Apple's tags and the Podcasting 2.0 ones
//! alike: where a podcast's channel and its iTunes tags stand, and its
//! enclosures (the media formats they name are `feed::media`'s).

use crate::feed::{DocKind, FeedDoc, ITUNES_NS};
use crate::rules::shared::{rss_channel, rss_children};
use crate::xml::Node;

/// The channel of a podcast.
pub(crate) fn podcast_channel<'a, 'i>(feed: &FeedDoc<'a, 'i>) -> Option<Node<'a, 'i>> {
    rss_channel(feed).filter(|_| feed.is_podcast())
}

/// Where the iTunes tags of the show stand: the RSS channel, or the Atom
/// feed (Apple's tags are read in Atom podcasts too); the episodes' stand
/// in its items or entries.
pub(crate) fn itunes_head<'a, 'i>(feed: &FeedDoc<'a, 'i>) -> Option<Node<'a, 'i>> {
    feed.head.filter(|_| matches!(feed.kind, DocKind::Rss | DocKind::Atom))
}

/// The iTunes elements named `local` among the children of the channel (or
/// Atom feed) and of its items (or entries), in document order, matched by
/// the name's number.
pub(crate) fn itunes_elements<'a, 'i>(feed: &FeedDoc<'a, 'i>, local: &str) -> Vec<Node<'a, 'i>> {
    let Some(channel) = itunes_head(feed) else {
        return Vec::new();
    };
    let Some(name) = feed.xml.name_index_of(Some(ITUNES_NS), local) else {
        return Vec::new();
    };
    std::iter::once(channel)
        .chain(feed.entries.iter().map(|item| item.node))
        .flat_map(|parent| parent.children().filter(move |child| child.name_index() == Some(name)))
        .collect()
}

/// The enclosures of a podcast's episodes.
pub(crate) fn podcast_enclosures<'a, 'i>(feed: &FeedDoc<'a, 'i>) -> Vec<Node<'a, 'i>> {
    if podcast_channel(feed).is_none() {
        return Vec::new();
    }
    feed.entries
        .iter()
        .flat_map(|item| rss_children(item.node, "enclosure"))
        .collect()
}
