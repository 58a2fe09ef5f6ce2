//! Apple's iTunes podcast tags (`http://www.itunes.com/dtds/podcast-1.0.dtd`)
//! by the values Apple's "A Podcaster's Guide to RSS" and PSP-1 give them,
//! wherever the tags stand: group `itunes`.

use super::{rule, Checker, Rule};
use crate::diagnostic::shorten;
use crate::feed::{DocKind, FeedDoc, Text};
use crate::fix::{self, Fix};
use crate::xml::Node;

pub const ITUNES_NS: &str = "http://www.itunes.com/dtds/podcast-1.0.dtd";

/// The iTunes elements named `local` among the children of the channel and
/// of its items, in document order, matched by the name's number.
fn itunes_elements<'a, 'i>(feed: &FeedDoc<'a, 'i>, local: &str) -> Vec<Node<'a, 'i>> {
    let Some(channel) = feed.head.filter(|_| feed.kind == DocKind::Rss) else {
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

/// The fix that writes `value` in place of an element's text, where the
/// text is written plainly.
fn replace_text(feed: &FeedDoc, text: &Text, value: &str) -> Option<Fix> {
    text.is_written_plainly(feed.xml.input_text())
        .then(|| Fix::safe(format!("Write {value}"), vec![fix::replace(text.range.clone(), value)]))
}

pub static ITUNES_INVALID_EXPLICIT: Rule = rule!(
    ItunesInvalidExplicit, Error, Doc, Some(itunes_invalid_explicit),
    groups: ["itunes"],
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
                .note("Apple: \"The explicit value can be one of the following: true [...] false\"; PSP-1 says the same. Apple shows its Explicit or Clean graphic from this value, and rejects a feed it cannot read")
                .help("write true if the show or episode has explicit content, else false"),
        );
    }
}

pub static ITUNES_EXPLICIT_LEGACY: Rule = rule!(
    ItunesExplicitLegacy, Warning, Doc, Some(itunes_explicit_legacy),
    groups: ["itunes"],
    summary: "an itunes:explicit written yes, no or clean, the values Apple used to take, instead of true or false",
    spec: "Apple, A Podcaster's Guide to RSS: <itunes:explicit>; PSP-1 <itunes:explicit>",
);

/// A warning: Apple still reads the old values, but documents only true
/// and false, as PSP-1 does.
fn itunes_explicit_legacy(cx: &mut Checker) {
    let feed = cx.feed;
    let legacy: Vec<(Text, &str)> = itunes_elements(feed, "explicit")
        .into_iter()
        .map(Text::of)
        .filter_map(|text| {
            let meant = legacy_explicit(text.value)?;
            Some((text, meant))
        })
        .collect();
    for (text, meant) in legacy {
        cx.report(
            Checker::at(text.range.clone(), format!("itunes:explicit is `{}`: write {meant}", shorten(text.value)))
                .label("a legacy value")
                .note("Apple and PSP-1 give itunes:explicit two values, true and false; yes, no and clean are what Apple once took (clean and no both meant false), and other podcast apps read only true and false")
                .help(format!("write {meant}"))
                .fix_if(replace_text(feed, &text, meant)),
        );
    }
}

pub static ITUNES_INVALID_DURATION: Rule = rule!(
    ItunesInvalidDuration, Error, Doc, Some(itunes_invalid_duration),
    groups: ["itunes"],
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

fn itunes_invalid_duration(cx: &mut Checker) {
    let feed = cx.feed;
    let invalid: Vec<(Text, String)> = itunes_elements(feed, "duration")
        .into_iter()
        .map(Text::of)
        .filter_map(|text| {
            let why = duration_error(text.value)?;
            Some((text, why))
        })
        .collect();
    for (text, why) in invalid {
        cx.report(
            Checker::at(text.range.clone(), format!("itunes:duration `{}` is not a duration: {why}", shorten(text.value)))
                .label("not a duration")
                .note("Apple: \"Different duration formats are accepted however it is recommended to convert the length of the episode into seconds\"; PSP-1: \"The duration of a podcast episode in seconds\". Apps that cannot read it show no length, or a wrong one")
                .help("write the length in whole seconds, e.g. <itunes:duration>1801</itunes:duration>"),
        );
    }
}

pub static ITUNES_INVALID_NUMBER: Rule = rule!(
    ItunesInvalidNumber, Error, Doc, Some(itunes_invalid_number),
    groups: ["itunes"],
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
    ItunesInvalidType, Error, Doc, Some(itunes_invalid_type),
    groups: ["itunes"],
    summary: "an itunes:type that is not episodic or serial, or an itunes:episodeType that is not full, trailer or bonus",
    spec: "Apple, A Podcaster's Guide to RSS: <itunes:type>, <itunes:episodeType>; PSP-1",
);

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
    for (node, text, values) in invalid {
        let name = node.tag_name().name();
        cx.report(
            Checker::at(text.range.clone(), format!("itunes:{name} is `{}`, not one of {}", shorten(text.value), values.join(", ")))
                .label(format!("not an {name}"))
                .note(format!("Apple and PSP-1 give itunes:{name} these values only: {}; Apple takes anything else for the default ({})", values.join(", "), values[0]))
                .help(format!("write one of {}", values.join(", "))),
        );
    }
}

pub static ITUNES_VALUE_WITHOUT_EFFECT: Rule = rule!(
    ItunesValueWithoutEffect, Warning, Doc, Some(itunes_value_without_effect),
    groups: ["itunes"],
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
