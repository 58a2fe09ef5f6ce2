//! Apple's iTunes podcast tags (`http://www.itunes.com/dtds/podcast-1.0.dtd`)
//! by the values Apple's "A Podcaster's Guide to RSS" and PSP-1 give them,
//! wherever the tags stand: group `itunes`.

use crate::feed::media::{family_by_type, media_format_by_url, Family};
use crate::feed::{FeedDoc, Text, ITUNES_NS};
use crate::findings::diagnostic::shorten;
use crate::findings::fix::{self, Fix};
use crate::rules::podcast::vocabulary::{itunes_elements, podcast_channel, podcast_enclosures};
use crate::rules::shared::{more, report_grouped};
use crate::rules::{rule, Checker, Rule};
use crate::xml::Node;

pub(crate) mod categories;
pub(crate) mod placement;
pub(crate) mod values;

/// The texts of the iTunes elements named `local` that `check` finds
/// wrong, each with why.
fn texts_failing<'a>(
    feed: &FeedDoc<'a, '_>,
    local: &str,
    check: impl Fn(&str) -> Option<String>,
) -> Vec<(Text<'a>, String)> {
    itunes_elements(feed, local)
        .into_iter()
        .map(Text::of)
        .filter_map(|text| {
            let why = check(text.value)?;
            Some((text, why))
        })
        .collect()
}

/// The fix that writes `value` in place of an element's text, where the
/// text is written plainly.
fn replace_text(feed: &FeedDoc, text: &Text, value: &str) -> Option<Fix> {
    text.is_written_plainly(feed.xml.input_text())
        .then(|| Fix::safe(format!("Write {value}"), vec![fix::replace(text.range.clone(), value)]))
}

pub static ITUNES_INVALID_EXPLICIT: Rule = rule!(
    ItunesInvalidExplicit, Warning, Doc, Some(itunes_invalid_explicit),
    groups: [Itunes],
    summary: "an itunes:explicit that is neither true nor false (nor a legacy yes, no or clean)",
    spec: "Apple, A Podcaster's Guide to RSS: <itunes:explicit>; PSP-1 <itunes:explicit>",
);

/// The legacy values Apple once took, and what they mean now.
fn legacy_explicit(value: &str) -> Option<&'static str> {
    match value.to_ascii_lowercase().as_str() {
        "yes" => Some("true"),
        "no" | "clean" => Some("false"),
        _ => None,
    }
}

/// A warning: Apple says the value "can be one of" true and false, PSP-1
/// that it "can be" either; neither says must.
fn itunes_invalid_explicit(cx: &mut Checker) {
    let feed = cx.feed;
    let invalid: Vec<Text> = itunes_elements(feed, "explicit")
        .into_iter()
        .map(Text::of)
        .filter(|text| {
            !text.value.eq_ignore_ascii_case("true")
                && !text.value.eq_ignore_ascii_case("false")
                && legacy_explicit(text.value).is_none()
        })
        .collect();
    for text in invalid {
        cx.report(
            Checker::at(text.range.clone(), format!("itunes:explicit is `{}`, neither true nor false", shorten(text.value)))
                .label("not a parental advisory")
                .note("Apple: \"The explicit value can be one of the following: True [...] False\"; PSP-1 says the same. Apple shows its Explicit or Clean graphic from this value, and other apps guess at one they cannot read")
                .help("write true if the show or episode has explicit content, else false"),
        );
    }
}

pub static ITUNES_EXPLICIT_LEGACY: Rule = rule!(
    ItunesExplicitLegacy, Warning, Doc, Some(itunes_explicit_legacy),
    groups: [Itunes],
    summary: "an itunes:explicit written yes, no or clean, the values Apple used to take, instead of true or false",
    spec: "Apple, A Podcaster's Guide to RSS: <itunes:explicit>; PSP-1 <itunes:explicit>",
);

/// A warning: Apple still reads the old values, but documents only true
/// and false, as PSP-1 does. One finding for each legacy value, at its
/// first place, however many episodes repeat it (a feed writes `no` on
/// every episode: one thing to change, not thousands), with the count,
/// the next few places, and one fix for all of them ([`report_grouped`]).
fn itunes_explicit_legacy(cx: &mut Checker) {
    let feed = cx.feed;
    let legacy: Vec<(Text, &'static str)> = itunes_elements(feed, "explicit")
        .into_iter()
        .map(Text::of)
        .filter_map(|text| {
            let meant = legacy_explicit(text.value)?;
            Some((text, meant))
        })
        .collect();
    // Each value as first written (`No`), for its finding's message.
    let mut first_written: Vec<(String, &str)> = Vec::new();
    let places = legacy
        .iter()
        .map(|(text, meant)| {
            let value = text.value.to_ascii_lowercase();
            if !first_written.iter().any(|(known, _)| *known == value) {
                first_written.push((value.clone(), text.value));
            }
            ((value, *meant), text.range.clone(), replace_text(feed, text, meant))
        })
        .collect();
    report_grouped(cx, places, |at, (value, meant), more| {
        let written = first_written
            .iter()
            .find(|(known, _)| known == value)
            .map_or(value.as_str(), |(_, written)| written);
        let message = match more {
            0 => format!("itunes:explicit is `{}`: write {meant}", shorten(written)),
            n => format!(
                "itunes:explicit is `{}` here and in {n} more place{}: write {meant}",
                shorten(written),
                if n == 1 { "" } else { "s" }
            ),
        };
        Checker::at(at, message)
            .label("a legacy value")
            .note("Apple and PSP-1 give itunes:explicit two values, true and false; yes, no and clean are what Apple once took (clean and no both meant false), and other podcast apps read only true and false")
            .help(format!("write {meant}"))
    });
}

pub static ITUNES_INVALID_DURATION: Rule = rule!(
    ItunesInvalidDuration, Warning, Doc, Some(itunes_invalid_duration),
    groups: [Itunes],
    summary: "an itunes:duration that is not seconds, MM:SS or HH:MM:SS (minutes and seconds under 60)",
    spec: "Apple, A Podcaster's Guide to RSS: <itunes:duration>; PSP-1 <itunes:duration>",
);

/// Why a duration is not one Apple reads, if it is not: whole seconds, or
/// `MM:SS` or `HH:MM:SS` with minutes and seconds of two digits under 60
/// (the first field of either may have any number of digits).
fn duration_error(value: &str) -> Option<String> {
    let fields: Vec<&str> = value.split(':').collect();
    if fields
        .iter()
        .any(|f| f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()))
    {
        return Some("it is not a number of seconds, nor MM:SS or HH:MM:SS".to_owned());
    }
    match fields[..] {
        [_] => None,
        [_, seconds] | [_, _, seconds] if seconds.len() != 2 || seconds > "59" => {
            Some(format!("the seconds, {seconds}, are not two digits from 00 to 59"))
        }
        [_, minutes, _] if minutes.len() != 2 || minutes > "59" => {
            Some(format!("the minutes, {minutes}, are not two digits from 00 to 59"))
        }
        [_, _] | [_, _, _] => None,
        _ => Some("it has more than three fields".to_owned()),
    }
}

/// A warning: Apple accepts "different duration formats" and recommends
/// seconds; no text requires one, nor whole seconds.
fn itunes_invalid_duration(cx: &mut Checker) {
    let feed = cx.feed;
    let invalid = texts_failing(feed, "duration", duration_error);
    let places = invalid
        .into_iter()
        .map(|(text, why)| ((text.value, why), text.range, None))
        .collect();
    report_grouped(cx, places, |at, (value, why), others| {
        Checker::at(at, format!("itunes:duration `{}` is not a duration: {why}{}", shorten(value), more(others)))
            .label("not a duration")
            .note("Apple: \"Different duration formats are accepted however it is recommended to convert the length of the episode into seconds\"; PSP-1: \"The duration of a podcast episode in seconds\". Apps that cannot read it show no length, or a wrong one")
            .help("write the length in whole seconds, e.g. <itunes:duration>1801</itunes:duration>")
    });
}

pub static ITUNES_INVALID_NUMBER: Rule = rule!(
    ItunesInvalidNumber, Error, Doc, Some(itunes_invalid_number),
    groups: [Itunes],
    summary: "an itunes:episode or itunes:season that is not a whole number from 1 up",
    spec: "Apple, A Podcaster's Guide to RSS: <itunes:episode>, <itunes:season>; PSP-1",
);

fn itunes_invalid_number(cx: &mut Checker) {
    let feed = cx.feed;
    let mut numbers = itunes_elements(feed, "episode");
    numbers.extend(itunes_elements(feed, "season"));
    let invalid: Vec<(Node, Text)> = numbers
        .into_iter()
        .map(|node| (node, Text::of(node)))
        .filter(|(_, text)| {
            let digits = !text.value.is_empty() && text.value.bytes().all(|b| b.is_ascii_digit());
            !digits || text.value.bytes().all(|b| b == b'0')
        })
        .collect();
    for (node, text) in invalid {
        let name = node.tag_name().name();
        cx.report(
            Checker::at(text.range.clone(), format!("itunes:{name} `{}` is not a number from 1 up", shorten(text.value)))
                .label("not an episode or season number")
                .note("Apple: the value is \"a non-zero integer (1, 2, 3, etc.)\"; PSP-1: \"Must be a non-zero integer\". Apple orders and labels episodes by these numbers, and a serial show needs every episode numbered")
                .help(format!("write the {name}'s number, 1 or more, in digits")),
        );
    }
}

pub static ITUNES_INVALID_TYPE: Rule = rule!(
    ItunesInvalidType, Warning, Doc, Some(itunes_invalid_type),
    groups: [Itunes],
    summary: "an itunes:type that is not episodic or serial, or an itunes:episodeType that is not full, trailer or bonus",
    spec: "Apple, A Podcaster's Guide to RSS: <itunes:type>, <itunes:episodeType>; PSP-1",
);

/// A warning: Apple's guide says each value "can be one of the following",
/// and takes the default for anything else (202 real Buzzsprout episodes
/// carry an empty itunes:episodeType); no text says must.
fn itunes_invalid_type(cx: &mut Checker) {
    let feed = cx.feed;
    let mut typed: Vec<(Node, &[&str])> = itunes_elements(feed, "type")
        .into_iter()
        .map(|node| (node, &["episodic", "serial"][..]))
        .collect();
    typed.extend(
        itunes_elements(feed, "episodeType")
            .into_iter()
            .map(|node| (node, &["full", "trailer", "bonus"][..])),
    );
    let invalid: Vec<(Node, Text, &[&str])> = typed
        .into_iter()
        .map(|(node, values)| (node, Text::of(node), values))
        .filter(|(_, text, values)| !values.iter().any(|v| v.eq_ignore_ascii_case(text.value)))
        .collect();
    // A generator writes the same value on every episode (202 real
    // Buzzsprout episodes carry an empty one): one finding per value.
    let places = invalid
        .into_iter()
        .map(|(node, text, values)| ((node.tag_name().name(), text.value, values), text.range, None))
        .collect();
    report_grouped(cx, places, |at, &(name, value, values), others| {
        Checker::at(
            at,
            match value {
                "" => format!(
                    "itunes:{name} is empty, not one of {}{}",
                    values.join(", "),
                    more(others)
                ),
                value => format!(
                    "itunes:{name} is `{}`, not one of {}{}",
                    shorten(value),
                    values.join(", "),
                    more(others)
                ),
            },
        )
        .label(format!("not an {name}"))
        .note(format!(
            "Apple and PSP-1 give itunes:{name} these values only: {}; Apple takes anything else for the default ({})",
            values.join(", "),
            values[0]
        ))
        .help(format!("write one of {}", values.join(", ")))
    });
}

pub static ITUNES_VALUE_WITHOUT_EFFECT: Rule = rule!(
    ItunesValueWithoutEffect, Warning, Doc, Some(itunes_value_without_effect),
    groups: [Itunes],
    summary: "an itunes:block or itunes:complete whose value is neither Yes nor No, so it does nothing",
    spec: "Apple, A Podcaster's Guide to RSS: <itunes:block>, <itunes:complete>; PSP-1 <itunes:block>",
);

/// A warning: Apple ignores every value but Yes. `No` is not reported: it
/// says plainly what ignoring it does; a value such as `true` means to
/// block or complete, and silently does not.
fn itunes_value_without_effect(cx: &mut Checker) {
    let feed = cx.feed;
    let mut flags = itunes_elements(feed, "block");
    flags.extend(itunes_elements(feed, "complete"));
    let meaningless: Vec<(Node, Text)> = flags
        .into_iter()
        .map(|node| (node, Text::of(node)))
        .filter(|(_, text)| !text.value.eq_ignore_ascii_case("yes") && !text.value.eq_ignore_ascii_case("no"))
        .collect();
    for (node, text) in meaningless {
        let name = node.tag_name().name();
        let fix = ["true", "1", "y"]
            .iter()
            .any(|v| text.value.eq_ignore_ascii_case(v))
            .then(|| replace_text(feed, &text, "Yes"))
            .flatten()
            .map(|fix| Fix::unsafe_(fix.title, fix.edits));
        cx.report(
            Checker::at(text.range.clone(), format!("itunes:{name} is `{}`: only Yes has an effect", shorten(text.value)))
                .label("no effect")
                .note(format!("Apple: \"Specifying the <itunes:{name}> tag with a Yes value\" {}; \"Specifying any value other than Yes has no effect\"", if name == "block" { "hides the show or episode from Apple Podcasts" } else { "marks the podcast complete, with no episodes to come" }))
                .help(format!("write Yes to {}, or remove the element", if name == "block" { "block" } else { "mark the podcast complete" }))
                .fix_if(fix),
        );
    }
}

pub static ITUNES_SERIAL_MISSING_EPISODE: Rule = rule!(
    ItunesSerialMissingEpisode, Error, Doc, Some(itunes_serial_missing_episode),
    groups: [Itunes],
    summary: "an episode of a serial show (itunes:type serial) without an itunes:episode number",
    spec: "Apple, A Podcaster's Guide to RSS: <itunes:type>, <itunes:episode>; PSP-1 <itunes:episode>",
);

/// Trailers and bonus episodes are exempt: Apple's guide describes both
/// without episode numbers (a show trailer, a season bonus).
fn itunes_serial_missing_episode(cx: &mut Checker) {
    let feed = cx.feed;
    let serial = itunes_elements(feed, "type")
        .first()
        .filter(|node| node.parent_element() == feed.head)
        .is_some_and(|node| Text::of(*node).value.eq_ignore_ascii_case("serial"));
    if !serial {
        return;
    }
    let episode = feed.xml.name_index_of(Some(ITUNES_NS), "episode");
    let episode_type = feed.xml.name_index_of(Some(ITUNES_NS), "episodeType");
    let unnumbered: Vec<Node> = feed
        .entries
        .iter()
        .map(|item| item.node)
        .filter(|item| {
            let numbered = crate::rules::has_child(*item, episode);
            let extra = crate::rules::children_named(*item, episode_type).any(|t| {
                let value = Text::of(t).value;
                value.eq_ignore_ascii_case("trailer") || value.eq_ignore_ascii_case("bonus")
            });
            !numbered && !extra
        })
        .collect();
    for item in unnumbered {
        cx.report(
            Checker::at(item.start_tag(), "this episode of a serial show has no itunes:episode")
                .label("no episode number")
                .note("Apple: for a serial show, \"<itunes:episode> numbers must be given for each episode\" (\"Episode numbers are optional for <itunes:type>episodic shows, but are mandatory for serial shows\"); PSP-1: \"This is required for serial podcasts\". Apple lists a serial show in the order of these numbers")
                .help("add <itunes:episode> with the episode's number, or mark a trailer or bonus with <itunes:episodeType>"),
        );
    }
}

pub static ITUNES_INVALID_IMAGE: Rule = rule!(
    ItunesInvalidImage, Error, Doc, Some(itunes_invalid_image),
    groups: [Itunes],
    summary: "an itunes:image without an href, or whose href is not an http(s) URL, or names a file by another extension than .jpg or .png",
    spec: "Apple, A Podcaster's Guide to RSS: <itunes:image>; PSP-1 <itunes:image>",
);

/// The absolute http(s) URL `value` is, or why it is none.
fn http_url(value: &str) -> Result<url::Url, String> {
    // The URL parser writes a space as %20 silently: a URL holds none.
    if let Err(error) = crate::text::iri::check_iri_reference(value) {
        return Err(error.message);
    }
    match url::Url::parse(value) {
        _ if value.is_empty() => Err("it is empty".to_owned()),
        Ok(url) if matches!(url.scheme(), "http" | "https") => Ok(url),
        Ok(url) => Err(format!("it is a {}: URL, not http or https", url.scheme())),
        Err(_) => Err("it is not an absolute URL".to_owned()),
    }
}

/// Why an artwork href is not one Apple takes, if it is not.
fn artwork_error(href: &str) -> Option<String> {
    let url = match http_url(href) {
        Ok(url) => url,
        Err(why) => return Some(why),
    };
    let last = url.path_segments().and_then(|mut s| s.next_back()).unwrap_or_default();
    let extension = last.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match extension.as_deref() {
        Some("jpg" | "jpeg" | "png") => None,
        Some(other) => Some(format!("its file ends in .{}, not .jpg or .png", shorten(other))),
        // A path with no extension says no type to disagree with (an
        // image service's `/image?source=...`): --check-media reads the
        // file's real format.
        None => None,
    }
}

fn itunes_invalid_image(cx: &mut Checker) {
    let feed = cx.feed;
    let input = feed.xml.input_text();
    let mut findings = Vec::new();
    for image in itunes_elements(feed, "image") {
        match image.attribute_node("href") {
            Some(href) => {
                if let Some(why) = artwork_error(href.value().trim()) {
                    // Spaces written as %20, where that is all that is wrong.
                    let encoded = href.value().trim().replace(' ', "%20");
                    let fix = (input.get(href.range_value()) == Some(href.value())
                        && artwork_error(&encoded).is_none())
                    .then(|| {
                        Fix::safe(
                            "Write the spaces as %20",
                            vec![fix::replace(href.range_value(), encoded)],
                        )
                    });
                    findings.push((
                        href.range_value(),
                        format!(
                            "the artwork URL {} is not one Apple takes: {why}",
                            shorten(href.value())
                        ),
                        fix,
                    ));
                }
            }
            None => {
                // The URL written as text: moved into href.
                let text = Text::of(image);
                // Written from the text as read, escaped as attribute text.
                let fix = (!text.value.is_empty() && artwork_error(text.value).is_none()).then(|| {
                    let name = input
                        .get(image.start_tag())
                        .and_then(|tag| tag.get(1..))
                        .unwrap_or_default();
                    let name = name
                        .split(|c: char| c.is_whitespace() || c == '>' || c == '/')
                        .next()
                        .unwrap_or_default();
                    Fix::safe(
                        "Move the URL into href",
                        vec![fix::replace(
                            image.range(),
                            format!(
                                "<{name} href=\"{}\"/>",
                                text.value
                                    .replace('&', "&amp;")
                                    .replace('"', "&quot;")
                                    .replace('<', "&lt;")
                            ),
                        )],
                    )
                });
                let message = if text.value.is_empty() {
                    "this itunes:image has no href".to_owned()
                } else {
                    format!(
                        "this itunes:image has its URL, {}, as text, not in href",
                        shorten(text.value)
                    )
                };
                findings.push((image.start_tag(), message, fix));
            }
        }
    }
    for (at, message, fix) in findings {
        cx.report(
            Checker::at(at, message)
                .label("no artwork Apple reads")
                .note("Apple: \"Specify your episode artwork using the href attribute\"; \"Artwork must be [...] in JPEG or PNG format, 72 dpi, with appropriate file extensions (.jpg, .png)\"; PSP-1 says the same. Apple shows no artwork, or refuses the show, where it cannot read it")
                .help("write <itunes:image href=\"https://example.org/artwork.jpg\"/>, an http(s) URL of a JPEG or PNG file named .jpg or .png")
                .fix_if(fix),
        );
    }
}

pub static ITUNES_INVALID_NEW_FEED_URL: Rule = rule!(
    ItunesInvalidNewFeedUrl, Error, Doc, Some(itunes_invalid_new_feed_url),
    groups: [Itunes],
    summary: "an itunes:new-feed-url that is not an absolute http or https URL",
    spec: "Apple, A Podcaster's Guide to RSS: <itunes:new-feed-url>",
);

fn itunes_invalid_new_feed_url(cx: &mut Checker) {
    let feed = cx.feed;
    let invalid = texts_failing(feed, "new-feed-url", |value| http_url(value).err());
    for (text, why) in invalid {
        cx.report(
            Checker::at(text.range.clone(), format!("itunes:new-feed-url {} is not a feed's URL: {why}", shorten(text.value)))
                .label("not a URL")
                .note("Apple: \"The new podcast RSS Feed URL\", e.g. https://newlocation.com/example.rss; Apple moves the show's subscribers to it, and cannot move them to what is not a URL")
                .help("write the full URL of the new feed, e.g. <itunes:new-feed-url>https://example.org/feed.rss</itunes:new-feed-url>"),
        );
    }
}

pub static ITUNES_UNSUPPORTED_ENCLOSURE: Rule = rule!(
    ItunesUnsupportedEnclosure, Warning, Doc, Some(itunes_unsupported_enclosure),
    groups: [Itunes],
    summary: "a podcast episode's enclosure is in a format Apple does not take (by its extension), or typed otherwise than Apple lists",
    spec: "Apple, A Podcaster's Guide to RSS: <enclosure>; PSP-1 <enclosure>",
);

/// The types Apple's guide and PSP-1 give for the formats Apple takes, and
/// the registered `audio/mp4`.
const APPLE_TYPES: &[&str] = &[
    "audio/mpeg",
    "audio/x-m4a",
    "audio/m4a",
    "audio/mp4",
    "video/quicktime",
    "video/mp4",
    "video/x-m4v",
    "video/m4v",
    "application/pdf",
];

/// The type Apple lists for a family.
fn apple_type(family: Family) -> &'static str {
    match family {
        Family::Mp3 => "audio/mpeg",
        Family::QuickTime => "video/quicktime",
        Family::Pdf => "application/pdf",
        _ => "audio/x-m4a",
    }
}

/// The type Apple lists for a file it takes, by the file's extension.
fn apple_type_of_extension(extension: &str) -> Option<&'static str> {
    Some(match extension.to_ascii_lowercase().as_str() {
        "mp3" => "audio/mpeg",
        "m4a" => "audio/x-m4a",
        "mp4" => "video/mp4",
        "m4v" => "video/x-m4v",
        "mov" => "video/quicktime",
        "pdf" => "application/pdf",
        _ => return None,
    })
}

fn itunes_unsupported_enclosure(cx: &mut Checker) {
    let feed = cx.feed;
    let input = feed.xml.input_text();
    let mut findings = Vec::new();
    for enclosure in podcast_enclosures(feed) {
        let by_url = enclosure.attribute("url").and_then(media_format_by_url);
        if let Some(format) = by_url.filter(|f| !f.family.apple_takes()) {
            let at = enclosure
                .attribute_node("url")
                .map_or_else(|| enclosure.start_tag(), |u| u.range_value());
            findings.push((
                at,
                format!("a .{} file is not a format Apple Podcasts takes", format.extension),
                None,
            ));
            continue;
        }
        let Some(media_type) = enclosure.attribute_node("type") else {
            continue;
        };
        let value = media_type.value().trim();
        let essence = value.split(';').next().unwrap_or_default().trim();
        if essence.is_empty() || APPLE_TYPES.iter().any(|t| t.eq_ignore_ascii_case(essence)) {
            continue;
        }
        let Some(family) = family_by_type(value) else {
            // A type feedlint does not know (`video/x-mp4`, `video/mpeg`,
            // `text/html`) is none of Apple's: for a file Apple takes, the
            // type Apple lists for its extension, which the URL suggests
            // but does not prove (unsafe).
            let meant = by_url.and_then(|f| apple_type_of_extension(f.extension));
            let plain = input.get(media_type.range_value()) == Some(media_type.value());
            let fix = meant.filter(|_| plain).map(|meant| {
                Fix::unsafe_(
                    format!("Write {meant}"),
                    vec![fix::replace(media_type.range_value(), meant)],
                )
            });
            findings.push((
                media_type.range_value(),
                match (meant, by_url) {
                    (Some(meant), Some(format)) => format!(
                        "the type {} is not one Apple lists; for a .{} file it is {meant}",
                        shorten(value),
                        format.extension
                    ),
                    _ => format!(
                        "the type {} is not one of the formats Apple Podcasts takes",
                        shorten(value)
                    ),
                },
                fix,
            ));
            continue;
        };
        if !family.apple_takes() {
            continue;
        }
        // Only the family the URL agrees with: a mismatch is
        // podcast-enclosure-type-mismatch's.
        if by_url.is_some_and(|f| f.family != family) {
            continue;
        }
        let meant = apple_type(family);
        let fix = (input.get(media_type.range_value()) == Some(media_type.value())).then(|| {
            Fix::safe(
                format!("Write {meant}"),
                vec![fix::replace(media_type.range_value(), meant)],
            )
        });
        findings.push((
            media_type.range_value(),
            format!("the type {} is not the one Apple lists: {meant}", shorten(value)),
            fix,
        ));
    }
    // A generator types every episode alike: one finding per message.
    let places = findings
        .into_iter()
        .map(|(at, message, fix)| (message, at, fix))
        .collect();
    report_grouped(cx, places, |at, message, others| {
        Checker::at(at, format!("{message}{}", more(others)))
                .label("not Apple's")
                .note("Apple: \"Supported file formats include M4A, MP3, MOV, MP4, M4V, and PDF\", typed \"audio/x-m4a, audio/mpeg, video/quicktime, video/mp4, video/x-m4v, and application/pdf\"; \"The file extension specified within the URL attribute determines whether or not content appears in the podcast directory\"")
                .help("publish the episode as MP3 (audio/mpeg) or M4A (audio/x-m4a), and write Apple's type for it")
    });
}

pub static ITUNES_INVALID_LANGUAGE: Rule = rule!(
    ItunesInvalidLanguage, Error, Doc, Some(itunes_invalid_language),
    groups: [Itunes],
    summary: "a podcast's language whose two-letter code is not an ISO 639 language (us, jp, gr, ...)",
    spec: "Apple, A Podcaster's Guide to RSS: <language>; PSP-1 <language>; ISO 639-1",
);

/// The two-letter codes of ISO 639-1 (with the withdrawn `iw`, `in` and
/// `ji`, which readers still take for `he`, `id` and `yi`).
const ISO_639_1: &str = "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy \
da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik in io \
is it iu iw ja ji jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my \
na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss \
st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu";

/// Country codes written where a language code belongs, and the language
/// meant.
const COUNTRY_FOR_LANGUAGE: &[(&str, &str)] = &[
    ("us", "en"),
    ("gb", "en"),
    ("jp", "ja"),
    ("gr", "el"),
    ("cz", "cs"),
    ("dk", "da"),
    ("ua", "uk"),
    ("cn", "zh"),
    ("kr", "ko"),
    ("at", "de"),
    ("mx", "es"),
    ("il", "he"),
    ("ir", "fa"),
    ("vn", "vi"),
    ("rs", "sr"),
];

fn itunes_invalid_language(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = podcast_channel(feed) else {
        return;
    };
    let codes: Vec<&str> = ISO_639_1.split(' ').collect();
    let invalid: Vec<(Text, String)> = channel
        .children()
        .filter(|c| c.has_tag_name(None, "language"))
        .map(Text::of)
        .filter_map(|text| {
            let primary = text
                .value
                .split(['-', '_'])
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase();
            // Anything but two letters is invalid-language-tag's, or a
            // three-letter ISO 639-2 code.
            if primary.len() != 2
                || !primary.bytes().all(|b| b.is_ascii_alphabetic())
                || codes.contains(&primary.as_str())
            {
                return None;
            }
            Some((text, primary))
        })
        .collect();
    for (text, primary) in invalid {
        let meant = COUNTRY_FOR_LANGUAGE.iter().find(|(country, _)| *country == primary);
        let help = match meant {
            Some((country, language)) => format!("\"{country}\" is a country; write the language's code, e.g. \"{language}\" (or \"{language}-{country}\" for the language as spoken there)"),
            None => "write the ISO 639-1 code of the language spoken, e.g. \"en\", \"en-us\" or \"fr\"".to_owned(),
        };
        cx.report(
            Checker::at(text.range.clone(), format!("\"{}\" is not a language Apple knows: \"{primary}\" is no ISO 639 code", shorten(text.value)))
                .label("no such language")
                .note("Apple: \"Apple Podcasts only supports values from the ISO 639 list (two-letter language codes, with some possible modifiers, such as \"en-us\")\"; \"Invalid language codes will cause your feed to fail Apple validation\"")
                .help(help),
        );
    }
}
