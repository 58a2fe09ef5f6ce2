//! The media formats an enclosure names, by its type or its URL's
//! extension: what makes an RSS feed's items episodes of a podcast
//! ([`carries_media`]), and what the podcast rules compare.

use crate::xml::Node;

/// A family of media formats: an enclosure's URL and type may name two
/// members of one family (an `.m4a` file as `video/mp4`) without
/// disagreeing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
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
    pub fn name(self) -> &'static str {
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
    pub fn apple_takes(self) -> bool {
        matches!(self, Family::Mp3 | Family::Mpeg4 | Family::QuickTime | Family::Pdf)
    }
}

/// A media format: its extension, its family, the types that name it.
pub struct MediaFormat {
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
pub fn media_format_by_url(url: &str) -> Option<&'static MediaFormat> {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let last = path.rsplit('/').next().unwrap_or(path);
    let (_, extension) = last.rsplit_once('.')?;
    MEDIA_EXTENSIONS
        .iter()
        .find(|format| format.extension.eq_ignore_ascii_case(extension))
}

/// The family a media type names, if feedlint knows it (parameters aside).
pub fn family_by_type(media_type: &str) -> Option<Family> {
    let essence = media_type.split(';').next().unwrap_or_default().trim();
    MEDIA_TYPES
        .iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(essence))
        .map(|(_, family)| *family)
}

/// Whether an enclosure carries audio or video, by its type or, with none,
/// by its URL's extension.
pub fn carries_media(enclosure: Node) -> bool {
    match enclosure.attribute("type").map(str::trim) {
        Some(media_type) if !media_type.is_empty() => {
            let media_type = media_type.to_ascii_lowercase();
            media_type.starts_with("audio/") || media_type.starts_with("video/")
        }
        _ => enclosure
            .attribute("url")
            .and_then(media_format_by_url)
            .is_some_and(|format| format.family != Family::Pdf),
    }
}
