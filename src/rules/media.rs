//! Findings of the media check (`--check-media`): what the servers of a
//! feed's enclosures and artwork answer. The fetcher makes them once every
//! document is read; no rule here reads a document.

use super::{rule, Rule};

pub static MEDIA_UNAVAILABLE: Rule = rule!(
    MediaUnavailable, Error, Set, None,
    groups: [Media],
    summary: "an enclosure or artwork URL answers HTTP 4xx or 5xx: the episode cannot be played, the artwork not shown",
    spec: "RSS 2.0 <enclosure>; PSP-1 <enclosure>, <itunes:image>",
);

pub static MEDIA_UNREACHABLE: Rule = rule!(
    MediaUnreachable, Warning, Set, None,
    groups: [Media],
    summary: "an enclosure or artwork URL gives no answer: a network error, a timeout, too many redirects, or an address the fetch policy refuses",
    spec: "RSS 2.0 <enclosure>; PSP-1 <enclosure>, <itunes:image>",
);

pub static MEDIA_REDIRECTS_TO_HTTPS: Rule = rule!(
    MediaRedirectsToHttps, Info, Set, None,
    groups: [Media],
    summary: "an http enclosure or artwork URL redirects to https: the feed can name the https URL",
    spec: "RFC 9110 §15.4",
);

pub static MEDIA_TYPE_MISMATCH: Rule = rule!(
    MediaTypeMismatch, Warning, Set, None,
    groups: [Media],
    summary: "the server's Content-Type names another format than the enclosure's type",
    spec: "RSS 2.0 <enclosure>; PSP-1 <enclosure>",
);

pub static MEDIA_LENGTH_MISMATCH: Rule = rule!(
    MediaLengthMismatch, Warning, Set, None,
    groups: [Media],
    summary: "the size the server gives an enclosure differs from its length",
    spec: "RSS 2.0 <enclosure>; PSP-1 <enclosure>; Apple, A Podcaster's Guide to RSS: <enclosure>",
);

pub static MEDIA_NO_BYTE_RANGES: Rule = rule!(
    MediaNoByteRanges, Warning, Set, None,
    groups: [Media],
    summary: "an enclosure's server takes no byte-range request (no Accept-Ranges: bytes, and a whole body for a ranged GET)",
    spec: "RFC 9110 §14",
);

pub static MEDIA_HEAD_REFUSED: Rule = rule!(
    MediaHeadRefused, Warning, Set, None,
    groups: [Media],
    summary: "artwork's server refuses HTTP HEAD requests, though it answers GET",
    spec: "PSP-1 <itunes:image>",
);

pub static ARTWORK_WRONG_FORMAT: Rule = rule!(
    ArtworkWrongFormat, Error, Set, None,
    groups: [Media],
    summary: "artwork that is not a JPEG or PNG image by its bytes, or whose extension names another format than its bytes",
    spec: "PSP-1 <itunes:image>; Apple, A Podcaster's Guide to RSS: <itunes:image>",
);

pub static ARTWORK_WRONG_SIZE: Rule = rule!(
    ArtworkWrongSize, Error, Set, None,
    groups: [Media],
    summary: "artwork smaller than 1400 x 1400 or larger than 3000 x 3000 pixels",
    spec: "PSP-1 <itunes:image>; Apple, A Podcaster's Guide to RSS: <itunes:image>",
);

pub static ARTWORK_NOT_SQUARE: Rule = rule!(
    ArtworkNotSquare, Warning, Set, None,
    groups: [Media],
    summary: "artwork whose width and height differ",
    spec: "PSP-1 <itunes:image>; Apple, A Podcaster's Guide to RSS: <itunes:image>",
);

pub static ARTWORK_NOT_RGB: Rule = rule!(
    ArtworkNotRgb, Error, Set, None,
    groups: [Media],
    summary: "artwork in another colour space than RGB: a CMYK or greyscale image",
    spec: "PSP-1 <itunes:image>; Apple, A Podcaster's Guide to RSS: <itunes:image>",
);

pub static MEDIA_LIMIT_REACHED: Rule = rule!(
    MediaLimitReached, Info, Set, None,
    groups: [Media],
    summary: "a limit of media URLs or of time stopped the media check before every URL was asked",
    spec: "RFC 5005 §6",
);

/// Whether a declared and a served media type name one format: equal
/// essences, or two types feedlint knows of one family (`audio/mp3` and
/// `audio/mpeg`).
pub fn types_agree(declared: &str, served: &str) -> bool {
    let essence = |media_type: &str| {
        media_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    };
    if essence(declared) == essence(served) {
        return true;
    }
    match (
        super::podcast_vocabulary::family_by_type(declared),
        super::podcast_vocabulary::family_by_type(served),
    ) {
        (Some(one), Some(other)) => one == other,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::types_agree;

    #[test]
    fn types_of_one_format_agree() {
        assert!(types_agree("audio/mpeg", "audio/MPEG"));
        assert!(types_agree("audio/mp3", "audio/mpeg"));
        assert!(types_agree("audio/x-m4a", "audio/mp4; codecs=mp4a.40.2"));
        assert!(!types_agree("audio/mpeg", "audio/x-m4a"));
        assert!(!types_agree("audio/mpeg", "text/html"));
        assert!(!types_agree("application/x-unknown", "application/x-other"));
    }
}
