//! Findings of the media check (`--check-media`): what the servers of a
//! feed's enclosures and artwork answer. The fetcher asks the servers once
//! every document is read; the rules here are pure functions of what it
//! heard (an [`Answer`], or why there was none), and read no document.

use url::Url;

use crate::findings::diagnostic::{DocId, Pending, Span};
use crate::findings::remedy::{Remedy, Wording};
use crate::model::summary::{MediaKind, MediaRef};
use crate::rules::{rule, Rule};

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

pub static MEDIA_TRANSCRIPT_NO_CORS: Rule = rule!(
    MediaTranscriptNoCors, Warning, Set, None,
    groups: [Media],
    summary: "a transcript's server sends no Access-Control-Allow-Origin, so players in web pages cannot show it",
    spec: "Podcasting 2.0, transcripts; Fetch Standard §3.2",
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
        crate::feed::media::family_by_type(declared),
        crate::feed::media::family_by_type(served),
    ) {
        (Some(one), Some(other)) => one == other,
        _ => false,
    }
}

/// A media server's answer, as the media rules read it (the fetcher makes
/// it; the rules are pure functions of it).
#[derive(Debug, Clone)]
pub struct Answer {
    /// The URL that answered: the one asked, or where its redirects led
    /// (their passwords masked).
    pub url: Url,
    pub status: u16,
    /// The media type of `Content-Type`, lower case, without parameters.
    pub media_type: Option<String>,
    pub content_length: Option<u64>,
    /// The complete length a `Content-Range` gives (`bytes 0-0/5650889`).
    pub content_range_total: Option<u64>,
    /// `Accept-Ranges` names `bytes`.
    pub accepts_ranges: bool,
    /// `Access-Control-Allow-Origin`, where the request named an origin.
    pub allow_origin: Option<String>,
    /// The first bytes of a GET's body.
    pub first_bytes: Vec<u8>,
}

/// What the servers said of one URL.
pub enum Heard {
    Answered {
        /// The answer judged: HEAD's, or the ranged GET's where HEAD failed.
        answer: Answer,
        /// Whether byte ranges are taken, where asked.
        ranges: Option<bool>,
        /// HEAD failed, and GET answered.
        head_refused: bool,
    },
    Failed(Unreached),
}

/// Why a media URL got no answer: in the fetcher's words, and of which
/// kind (the finding's label and help follow from it).
#[derive(Debug, Clone)]
pub struct Unreached {
    pub why: Why,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// The address policy refused a hop.
    Refused,
    TooManyRedirects,
    Timeout,
    Other,
}

/// A media finding, about a place of the set.
pub type Finding = (&'static Rule, Pending<Span>);

/// Apple's and PSP-1's bounds for artwork, in pixels on each side.
const ARTWORK_PIXELS: std::ops::RangeInclusive<usize> = 1400..=3000;

/// The findings about one place that names a URL, from what was heard:
/// those about the file itself only where it is `first` named.
pub fn judge(named: &MediaRef, url: &Url, doc: DocId, heard: &Heard, first: bool, words: &dyn Wording) -> Vec<Finding> {
    let at = named.at.in_doc(doc);
    let url = &crate::base::secret::masked(url);
    if !first {
        return match heard {
            Heard::Answered { answer, .. } if answer.status < 400 => disagreements(named, doc, answer, url),
            _ => Vec::new(),
        };
    }
    let (answer, ranges, head_refused) = match heard {
        Heard::Failed(error) => return vec![unreachable(at, url, error, words)],
        Heard::Answered {
            answer,
            ranges,
            head_refused,
        } => (answer, *ranges, *head_refused),
    };
    let answered_at = crate::base::secret::masked(&answer.url);
    let after_redirects = if answered_at == *url {
        String::new()
    } else {
        format!(" (redirected to {answered_at})")
    };
    if answer.status >= 400 {
        return vec![(
            &MEDIA_UNAVAILABLE,
            Pending::new(at, format!("{url} answers HTTP {}{after_redirects}", answer.status))
                .label("unavailable")
                .note(match named.kind {
                    MediaKind::Enclosure { .. } => "listeners' apps cannot play or download this episode",
                    MediaKind::Artwork => "directories and apps show no artwork",
                    MediaKind::Transcript => "apps show no transcript for this episode",
                })
                .help("publish the file at this URL, or name the URL it is at"),
        )];
    }
    let mut findings = Vec::new();
    if url.scheme() == "http" && answered_at.scheme() == "https" && only_scheme_differs(url, &answered_at) {
        findings.push((
            &MEDIA_REDIRECTS_TO_HTTPS,
            Pending::new(at.clone(), format!("{url} redirects to {answered_at}"))
                .label("redirected")
                .note("every request costs one more round trip, and the first one travels unencrypted")
                .help(format!("name {answered_at} in the feed")),
        ));
    }
    match &named.kind {
        MediaKind::Enclosure { .. } => {
            findings.extend(disagreements(named, doc, answer, url));
            if ranges == Some(false) {
                findings.push((
                    &MEDIA_NO_BYTE_RANGES,
                    Pending::new(at, format!("{url} takes no byte-range request: its server answers Range: bytes=0-0 with the whole file"))
                        .label("no byte ranges")
                        .note("apps seek in an episode by asking for ranges of the file; Apple refuses feeds whose media servers take none")
                        .help("turn on byte-range requests on the server (most serve them for static files: Accept-Ranges: bytes, 206 Partial Content)"),
                ));
            }
        }
        MediaKind::Artwork => {
            if head_refused {
                findings.push((
                    &MEDIA_HEAD_REFUSED,
                    Pending::new(
                        at.clone(),
                        format!("{url} refuses HEAD requests, though it serves the image to GET"),
                    )
                    .label("HEAD refused")
                    .note("PSP-1: \"Verify the web server hosting your image allows HTTP head requests\"")
                    .help("let the server answer HEAD as it answers GET"),
                ));
            }
            findings.extend(artwork(at, url, answer));
        }
        MediaKind::Transcript if answer.allow_origin.is_none() => findings.push((
            &MEDIA_TRANSCRIPT_NO_CORS,
            Pending::new(at, format!("{url} is served without Access-Control-Allow-Origin{after_redirects}"))
                .label("no CORS header")
                .note("Podcasting 2.0, transcripts: \"Some transcript implementations are done in-browser. CORS headers are required to make these files available from other websites\"; a player in a web page may not read this file")
                .help("send Access-Control-Allow-Origin: * with the transcript"),
        )),
        MediaKind::Transcript => {}
    }
    findings
}

/// Where an enclosure's `type` and `length` disagree with its server.
fn disagreements(named: &MediaRef, doc: DocId, answer: &Answer, url: &Url) -> Vec<Finding> {
    let MediaKind::Enclosure { media_type, length } = &named.kind else {
        return Vec::new();
    };
    type_mismatch(media_type.as_ref(), doc, answer, url)
        .into_iter()
        .chain(length_mismatch(length.as_ref(), doc, answer, url))
        .collect()
}

/// A media URL that was not asked because no request can be made of it.
pub fn not_a_url(named: &MediaRef, doc: DocId, why: &str) -> Finding {
    (
        &MEDIA_UNREACHABLE,
        Pending::new(
            named.at.in_doc(doc),
            format!("{} was not checked: {why}", crate::base::secret::mask_text(&named.url)),
        )
        .label("not a URL")
        .help("write the address as an http(s) URL, percent-encoding what a URL cannot hold"),
    )
}

fn unreachable(at: Span, url: &Url, error: &Unreached, words: &dyn Wording) -> Finding {
    let (label, help) = match error.why {
        Why::Refused => ("refused", words.remedy(Remedy::AllowMediaAddress)),
        Why::TooManyRedirects => ("too many redirects", "name the URL the redirects end at".to_owned()),
        Why::Timeout => ("no answer", words.remedy(Remedy::WaitForServer)),
        Why::Other => (
            "not reached",
            "check that the URL is right and its server answers".to_owned(),
        ),
    };
    (
        &MEDIA_UNREACHABLE,
        Pending::new(at, format!("{url} was not checked: {}", error.message))
            .label(label)
            .help(help),
    )
}

/// Two URLs that differ only by their scheme (and the default port that
/// goes with it).
fn only_scheme_differs(http: &Url, https: &Url) -> bool {
    http.host_str() == https.host_str()
        && http.path() == https.path()
        && http.query() == https.query()
        && http.port().is_none()
        && https.port().is_none()
}

/// Media types a server gives a file it does not know the type of.
const UNKNOWN_TYPES: &[&str] = &["application/octet-stream", "binary/octet-stream", "application/binary"];

fn type_mismatch(
    declared: Option<&crate::model::summary::Located<String>>,
    doc: DocId,
    answer: &Answer,
    url: &Url,
) -> Option<Finding> {
    let declared = declared.filter(|d| !d.value.is_empty())?;
    let served = answer.media_type.as_deref()?;
    if UNKNOWN_TYPES.contains(&served) || types_agree(&declared.value, served) {
        return None;
    }
    Some((
        &MEDIA_TYPE_MISMATCH,
        Pending::new(
            declared.span.in_doc(doc),
            format!("type is \"{}\", but {url} is served as {served}", declared.value),
        )
        .label("not what the server says")
        .note("apps choose their player by the type: one of the two is wrong")
        .help(format!(
            "write the type of the file (\"{served}\" if the server is right), or fix the server's Content-Type"
        )),
    ))
}

fn length_mismatch(
    declared: Option<&crate::model::summary::Located<String>>,
    doc: DocId,
    answer: &Answer,
    url: &Url,
) -> Option<Finding> {
    let declared = declared?;
    let written: u64 = declared.value.parse().ok()?;
    let size = match answer.status {
        206 => answer.content_range_total,
        _ => answer.content_length,
    }?;
    if size == written {
        return None;
    }
    Some((
        &MEDIA_LENGTH_MISMATCH,
        Pending::new(
            declared.span.in_doc(doc),
            format!(
                "length is {}, but {url} is {} bytes",
                crate::base::shown::thousands(written),
                crate::base::shown::thousands(size)
            ),
        )
        .label("not the file's size")
        .note("apps show the size before a download, and some check the file against it")
        .help(format!("write length=\"{size}\"")),
    ))
}

/// The artwork's format, size and colour space, from its first bytes.
fn artwork(at: Span, url: &Url, answer: &Answer) -> Vec<Finding> {
    let bytes = answer.first_bytes.as_slice();
    let mut findings = Vec::new();
    let format = imagesize::image_type(bytes).ok();
    let by_extension = extension_format(url);
    let rule_text = "PSP-1 and Apple: artwork must be \"in JPEG or PNG format [...] with appropriate file extensions (.jpg, .png)\"";
    match format {
        Some(imagesize::ImageType::Jpeg | imagesize::ImageType::Png) => {
            let actual = if format == Some(imagesize::ImageType::Png) {
                "PNG"
            } else {
                "JPEG"
            };
            if let Some(named) = by_extension.filter(|named| *named != actual) {
                findings.push((
                    &ARTWORK_WRONG_FORMAT,
                    Pending::new(
                        at.clone(),
                        format!("{url} is a {actual} image, but its extension names {named}"),
                    )
                    .label("extension of another format")
                    .note("PSP-1: \"File type extension must match the actual file type of the image file\"")
                    .help(format!("name the file with the extension of a {actual} image")),
                ));
            }
        }
        other => {
            let what = match other {
                Some(kind) => format!("a {} image", format_name(kind)),
                None => match answer.media_type.as_deref() {
                    Some(served) => format!("no image format feedlint knows (served as {served})"),
                    None => "no image format feedlint knows".to_owned(),
                },
            };
            findings.push((
                &ARTWORK_WRONG_FORMAT,
                Pending::new(at.clone(), format!("{url} is {what}, not JPEG or PNG"))
                    .label("not JPEG or PNG")
                    .note(rule_text)
                    .help("save the artwork as a JPEG or PNG image"),
            ));
            if other.is_none() {
                return findings;
            }
        }
    }
    if let Ok(size) = imagesize::blob_size(bytes) {
        let (width, height) = (size.width, size.height);
        if !ARTWORK_PIXELS.contains(&width) || !ARTWORK_PIXELS.contains(&height) {
            findings.push((
                &ARTWORK_WRONG_SIZE,
                Pending::new(at.clone(), format!("{url} is {width} x {height} pixels, outside 1400 to 3000 on a side"))
                    .label("wrong size")
                    .note("PSP-1 and Apple: artwork \"must be a minimum size of 1400 x 1400 pixels and a maximum size of 3000 x 3000 pixels\"")
                    .help("save the artwork at 3000 x 3000 pixels (or no smaller than 1400 x 1400)"),
            ));
        }
        if width != height {
            findings.push((
                &ARTWORK_NOT_SQUARE,
                Pending::new(at.clone(), format!("{url} is {width} x {height} pixels, not square"))
                    .label("not square")
                    .note("apps show artwork in a square: the image is cropped or boxed")
                    .help("crop the artwork to a square"),
            ));
        }
    }
    if let Some(space) = colour_space(bytes).filter(|space| *space != "RGB") {
        findings.push((
            &ARTWORK_NOT_RGB,
            Pending::new(at, format!("{url} is a {space} image, not RGB"))
                .label(space)
                .note("PSP-1 and Apple: artwork must be \"in the RGB colorspace\"")
                .help("convert the artwork to RGB (sRGB) and save it again"),
        ));
    }
    findings
}

/// The format a URL's extension names, where it is `.jpg`, `.jpeg` or
/// `.png` (other extensions are itunes-invalid-image's).
fn extension_format(url: &Url) -> Option<&'static str> {
    let last = url.path().rsplit('/').next()?;
    let (_, extension) = last.rsplit_once('.')?;
    match extension.to_ascii_lowercase().as_str() {
        "jpg" | "jpeg" => Some("JPEG"),
        "png" => Some("PNG"),
        _ => None,
    }
}

fn format_name(kind: imagesize::ImageType) -> String {
    use imagesize::ImageType;
    match kind {
        ImageType::Gif => "GIF".to_owned(),
        ImageType::Webp => "WebP".to_owned(),
        ImageType::Heif(_) => "HEIF or AVIF".to_owned(),
        ImageType::Bmp => "BMP".to_owned(),
        ImageType::Tiff => "TIFF".to_owned(),
        ImageType::Jxl => "JPEG XL".to_owned(),
        other => format!("{other:?}"),
    }
}

/// The colour space of a JPEG or PNG image, from its header: "RGB",
/// "CMYK" or "greyscale". (imagesize reads sizes, not colour spaces.)
fn colour_space(bytes: &[u8]) -> Option<&'static str> {
    if let Some(png) = bytes.strip_prefix(b"\x89PNG\r\n\x1a\n") {
        // IHDR comes first: length, "IHDR", width, height, bit depth,
        // colour type (PNG §11.2.2: 0 and 4 are greyscale).
        let colour_type = *png.get(17)?;
        return Some(if matches!(colour_type, 0 | 4) {
            "greyscale"
        } else {
            "RGB"
        });
    }
    jpeg_components(bytes).map(|components| match components {
        1 => "greyscale",
        4 => "CMYK",
        _ => "RGB",
    })
}

/// The number of colour components of a JPEG image: from its first frame
/// header (SOF0 to SOF15, less DHT, JPG and DAC), after the segments
/// before it (ITU T.81 §B.2.2).
fn jpeg_components(bytes: &[u8]) -> Option<u8> {
    let mut at = bytes.strip_prefix(&[0xFF, 0xD8])?;
    loop {
        // Fill bytes (0xFF) may stand before a marker.
        while at.first() == Some(&0xFF) && at.get(1) == Some(&0xFF) {
            at = &at[1..];
        }
        let [0xFF, marker, high, low, rest @ ..] = at else {
            return None;
        };
        let length = usize::from(u16::from_be_bytes([*high, *low]));
        if matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
            // Precision, height, width, then the number of components.
            return rest.get(5).copied();
        }
        if *marker == 0xDA || length < 2 {
            return None;
        }
        at = at.get(2 + length..)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::remedy::Plain;

    /// A JPEG's start: SOI, an APP0 segment, then a baseline frame header
    /// of `components` components.
    fn jpeg(width: u16, height: u16, components: u8) -> Vec<u8> {
        let mut bytes = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10];
        bytes.extend(b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
        bytes.extend([0xFF, 0xC0, 0x00, 8 + 3 * components, 8]);
        bytes.extend(height.to_be_bytes());
        bytes.extend(width.to_be_bytes());
        bytes.push(components);
        for id in 1..=components {
            bytes.extend([id, 0x11, 0]);
        }
        bytes
    }

    #[test]
    fn jpeg_components_are_read_from_the_frame_header() {
        assert_eq!(jpeg_components(&jpeg(1400, 1400, 3)), Some(3));
        assert_eq!(colour_space(&jpeg(1400, 1400, 4)), Some("CMYK"));
        assert_eq!(colour_space(&jpeg(1400, 1400, 1)), Some("greyscale"));
        // Cut before the frame header: not judged.
        assert_eq!(jpeg_components(&jpeg(1400, 1400, 3)[..20]), None);
        assert_eq!(jpeg_components(b"GIF89a"), None);
        let size = imagesize::blob_size(&jpeg(1400, 2000, 3)).unwrap();
        assert_eq!((size.width, size.height), (1400, 2000));
    }

    #[test]
    fn png_colour_types_are_read_from_ihdr() {
        let png = |colour_type: u8| {
            let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
            bytes.extend(1400u32.to_be_bytes());
            bytes.extend(1400u32.to_be_bytes());
            bytes.extend([8, colour_type, 0, 0, 0]);
            bytes
        };
        assert_eq!(colour_space(&png(2)), Some("RGB"));
        assert_eq!(colour_space(&png(6)), Some("RGB"));
        assert_eq!(colour_space(&png(3)), Some("RGB"));
        assert_eq!(colour_space(&png(0)), Some("greyscale"));
        assert_eq!(colour_space(&png(4)), Some("greyscale"));
    }

    fn answer(url: &str, status: u16) -> Answer {
        Answer {
            url: Url::parse(url).unwrap(),
            status,
            media_type: Some("image/png".to_owned()),
            content_length: None,
            content_range_total: None,
            accepts_ranges: false,
            allow_origin: None,
            first_bytes: Vec::new(),
        }
    }

    fn artwork_at(url: &str) -> MediaRef {
        let place = crate::text::snippet::Place::START;
        MediaRef {
            url: url.to_owned(),
            at: crate::findings::diagnostic::Location::between(place, place),
            kind: MediaKind::Artwork,
        }
    }

    /// An https server cannot be stood up on loopback with a certificate
    /// the client trusts: the decision is tested on what was heard.
    #[test]
    fn an_upgrade_to_https_is_an_info_and_other_redirects_are_none() {
        let mut image = vec![0x89];
        image.extend(b"PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\x05\x78\0\0\x05\x78\x08\x02");
        let heard = |url: &str| Heard::Answered {
            answer: Answer {
                first_bytes: image.clone(),
                ..answer(url, 200)
            },
            ranges: None,
            head_refused: false,
        };
        let rules = |named: &MediaRef, heard: &Heard| -> Vec<&str> {
            judge(named, &Url::parse(&named.url).unwrap(), 0, heard, true, &Plain)
                .iter()
                .map(|(rule, _)| rule.id.as_str())
                .collect()
        };
        let named = artwork_at("http://example.org/art.png");
        let upgraded = judge(
            &named,
            &Url::parse(&named.url).unwrap(),
            0,
            &heard("https://example.org/art.png"),
            true,
            &Plain,
        );
        assert_eq!(upgraded.len(), 1);
        assert_eq!(upgraded[0].0.id.as_str(), "media-redirects-to-https");
        assert_eq!(
            upgraded[0].1.message,
            "http://example.org/art.png redirects to https://example.org/art.png"
        );
        assert!(rules(&named, &heard("https://cdn.example.net/art.png")).is_empty());
        assert!(rules(
            &artwork_at("https://example.org/art.png"),
            &heard("https://example.org/art.png")
        )
        .is_empty());
        let gone = Heard::Answered {
            answer: answer("https://example.org/art.png", 410),
            ranges: None,
            head_refused: false,
        };
        assert_eq!(rules(&named, &gone), ["media-unavailable"]);
    }

    #[test]
    fn only_an_upgrade_to_https_is_an_upgrade() {
        let url = |text: &str| Url::parse(text).unwrap();
        assert!(only_scheme_differs(
            &url("http://a.example/x.mp3?q=1"),
            &url("https://a.example/x.mp3?q=1")
        ));
        assert!(!only_scheme_differs(
            &url("http://a.example/x.mp3"),
            &url("https://cdn.example/x.mp3")
        ));
        assert!(!only_scheme_differs(
            &url("http://a.example:8080/x.mp3"),
            &url("https://a.example/x.mp3")
        ));
    }

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
