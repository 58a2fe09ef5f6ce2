//! What the podcast rules share, Apple's tags and the Podcasting 2.0 ones
//! alike: where a podcast's channel and its iTunes tags stand, its
//! enclosures, and the media formats they name.

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

/// A family of media formats: an enclosure's URL and type may name two
/// members of one family (an `.m4a` file as `video/mp4`) without
/// disagreeing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    Mp3,
    Mpeg4,
    QuickTime,
    Pdf,
    Ogg,
    Aac,
    Wav,
    Flac,
    WebM,
}

impl Family {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Family::Mp3 => "MP3",
            Family::Mpeg4 => "MPEG-4",
            Family::QuickTime => "QuickTime",
            Family::Pdf => "PDF",
            Family::Ogg => "Ogg",
            Family::Aac => "AAC",
            Family::Wav => "WAV",
            Family::Flac => "FLAC",
            Family::WebM => "WebM",
        }
    }

    /// Apple's guide: "Supported file formats include M4A, MP3, MOV, MP4,
    /// M4V, and PDF".
    pub(crate) fn apple_takes(self) -> bool {
        matches!(self, Family::Mp3 | Family::Mpeg4 | Family::QuickTime | Family::Pdf)
    }
}

/// A media format: its extension, its family, the types that name it.
pub(crate) struct MediaFormat {
    pub extension: &'static str,
    pub family: Family,
}

const MEDIA_EXTENSIONS: &[MediaFormat] = &[
    MediaFormat {
        extension: "mp3",
        family: Family::Mp3,
    },
    MediaFormat {
        extension: "m4a",
        family: Family::Mpeg4,
    },
    MediaFormat {
        extension: "mp4",
        family: Family::Mpeg4,
    },
    MediaFormat {
        extension: "m4v",
        family: Family::Mpeg4,
    },
    MediaFormat {
        extension: "m4b",
        family: Family::Mpeg4,
    },
    MediaFormat {
        extension: "mov",
        family: Family::QuickTime,
    },
    MediaFormat {
        extension: "pdf",
        family: Family::Pdf,
    },
    MediaFormat {
        extension: "ogg",
        family: Family::Ogg,
    },
    MediaFormat {
        extension: "oga",
        family: Family::Ogg,
    },
    MediaFormat {
        extension: "opus",
        family: Family::Ogg,
    },
    MediaFormat {
        extension: "aac",
        family: Family::Aac,
    },
    MediaFormat {
        extension: "wav",
        family: Family::Wav,
    },
    MediaFormat {
        extension: "flac",
        family: Family::Flac,
    },
    MediaFormat {
        extension: "webm",
        family: Family::WebM,
    },
];

/// The media types feedlint knows, with their family (lowercase).
const MEDIA_TYPES: &[(&str, Family)] = &[
    ("audio/mpeg", Family::Mp3),
    ("audio/mp3", Family::Mp3),
    ("audio/mpeg3", Family::Mp3),
    ("audio/x-mpeg", Family::Mp3),
    ("audio/x-mp3", Family::Mp3),
    ("audio/mp4", Family::Mpeg4),
    ("audio/x-m4a", Family::Mpeg4),
    ("audio/m4a", Family::Mpeg4),
    ("audio/x-m4b", Family::Mpeg4),
    ("video/mp4", Family::Mpeg4),
    ("video/x-m4v", Family::Mpeg4),
    ("video/m4v", Family::Mpeg4),
    ("video/quicktime", Family::QuickTime),
    ("application/pdf", Family::Pdf),
    ("audio/ogg", Family::Ogg),
    ("audio/opus", Family::Ogg),
    ("audio/vorbis", Family::Ogg),
    ("application/ogg", Family::Ogg),
    ("video/ogg", Family::Ogg),
    ("audio/aac", Family::Aac),
    ("audio/aacp", Family::Aac),
    ("audio/wav", Family::Wav),
    ("audio/x-wav", Family::Wav),
    ("audio/wave", Family::Wav),
    ("audio/flac", Family::Flac),
    ("audio/x-flac", Family::Flac),
    ("audio/webm", Family::WebM),
    ("video/webm", Family::WebM),
];

/// The format a URL's path names by its extension, if one feedlint knows.
pub(crate) fn media_format_by_url(url: &str) -> Option<&'static MediaFormat> {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let last = path.rsplit('/').next().unwrap_or(path);
    let (_, extension) = last.rsplit_once('.')?;
    MEDIA_EXTENSIONS
        .iter()
        .find(|format| format.extension.eq_ignore_ascii_case(extension))
}

/// The family a media type names, if feedlint knows it (parameters aside).
pub(crate) fn family_by_type(media_type: &str) -> Option<Family> {
    let essence = media_type.split(';').next().unwrap_or_default().trim();
    MEDIA_TYPES
        .iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(essence))
        .map(|(_, family)| *family)
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
