//! What Apple's guide says of every value, beside each tag's own: no
//! leading or trailing spaces, and at most 255 characters "unless otherwise
//! specified". One finding per tag and feed, however many episodes repeat
//! it, with the count and the next places.

use std::ops::Range;

use crate::feed::{FeedDoc, ITUNES_NS};
use crate::findings::fix::{self, Fix};
use crate::rules::podcast::vocabulary::podcast_channel;
use crate::rules::shared::{more, report_grouped};
use crate::rules::{rule, Checker, Rule};
use crate::xml::Node;

/// The tags of Apple's guide whose value is their text, as the guide lists
/// them for the show and for an episode (`description`'s limit is its own,
/// 4000 bytes: `podcast-description-too-long`'s).
const SHOW_VALUES: &[(Option<&str>, &str)] = &[
    (None, "title"),
    (None, "language"),
    (None, "link"),
    (None, "copyright"),
    (Some(ITUNES_NS), "title"),
    (Some(ITUNES_NS), "author"),
    (Some(ITUNES_NS), "explicit"),
    (Some(ITUNES_NS), "type"),
    (Some(ITUNES_NS), "new-feed-url"),
    (Some(ITUNES_NS), "block"),
    (Some(ITUNES_NS), "complete"),
];

const EPISODE_VALUES: &[(Option<&str>, &str)] = &[
    (None, "title"),
    (None, "link"),
    (None, "guid"),
    (None, "pubDate"),
    (Some(ITUNES_NS), "title"),
    (Some(ITUNES_NS), "explicit"),
    (Some(ITUNES_NS), "duration"),
    (Some(ITUNES_NS), "episode"),
    (Some(ITUNES_NS), "season"),
    (Some(ITUNES_NS), "episodeType"),
    (Some(ITUNES_NS), "block"),
];

/// A value of Apple's guide as written: the element, its name as Apple
/// writes it, and its text (a lone text or CDATA child, untrimmed).
struct Value<'a, 'i> {
    node: Node<'a, 'i>,
    written: String,
    text: &'a str,
}

/// The values of Apple's guide in a podcast, the show's then each
/// episode's, in document order within each.
fn apple_values<'a, 'i>(feed: &FeedDoc<'a, 'i>) -> Vec<Value<'a, 'i>> {
    let Some(channel) = podcast_channel(feed) else {
        return Vec::new();
    };
    let in_parent = |parent: Node<'a, 'i>, names: &[(Option<&str>, &str)]| -> Vec<Value<'a, 'i>> {
        parent
            .children()
            .filter(|child| child.is_element())
            .filter_map(|child| {
                let name = child.tag_name();
                names
                    .iter()
                    .find(|(ns, local)| name.namespace() == *ns && name.name() == *local)?;
                let only = child
                    .first_child()
                    .filter(|c| c.is_text() && c.next_sibling().is_none())?;
                let written = match name.namespace() {
                    Some(_) => format!("itunes:{}", name.name()),
                    None => name.name().to_owned(),
                };
                Some(Value {
                    node: child,
                    written,
                    text: only.text().unwrap_or_default(),
                })
            })
            .collect()
    };
    let mut values = in_parent(channel, SHOW_VALUES);
    for item in &feed.entries {
        values.extend(in_parent(item.node, EPISODE_VALUES));
    }
    values
}

pub static ITUNES_VALUE_PADDED: Rule = rule!(
    ItunesValuePadded, Warning, Doc, Some(itunes_value_padded),
    groups: [Itunes],
    summary: "a podcast's value with leading or trailing spaces (<itunes:explicit> true </itunes:explicit>), which Apple and PSP-1 ask to leave out",
    spec: "Apple, A Podcaster's Guide to RSS (technical details); PSP-1 RSS namespace declarations",
);

/// A warning: Apple says "Don't", PSP-1 "should". The fix removes the
/// spaces where the text is written plainly (not in CDATA or references).
fn itunes_value_padded(cx: &mut Checker) {
    let feed = cx.feed;
    let input = feed.xml.input_text();
    let places: Vec<(String, Range<usize>, Option<Fix>)> = apple_values(feed)
        .into_iter()
        .filter(|value| value.node.tag_name().namespace() == Some(ITUNES_NS))
        .filter_map(|value| {
            let trimmed = value.text.trim();
            if trimmed.is_empty() || trimmed.len() == value.text.len() {
                return None;
            }
            let child = value.node.first_child()?.range();
            let plain = input.get(child.clone()) == Some(value.text);
            let lead = value.text.len() - value.text.trim_start().len();
            let trail = value.text.len() - value.text.trim_end().len();
            let fix = plain.then(|| {
                Fix::safe(
                    "Remove the spaces",
                    vec![
                        fix::replace(child.start..child.start + lead, ""),
                        fix::replace(child.end - trail..child.end, ""),
                    ],
                )
            });
            // At the value, which the spaces stand around.
            Some((value.written, crate::feed::Text::of(value.node).range, fix))
        })
        .collect();
    report_grouped(cx, places, |at, written, others| {
        Checker::at(at, format!("{written} has spaces around its value{}", more(others)))
            .label("spaces around the value")
            .note("Apple, A Podcaster's Guide to RSS: \"Don't add leading or trailing spaces to your values\"; PSP-1: node values \"should have no leading or trailing spaces\". Apple may read ` true ` as no value it knows")
            .help(format!("write the value of {written} right after its start tag and right before its end tag"))
    });
}

pub static ITUNES_VALUE_TOO_LONG: Rule = rule!(
    ItunesValueTooLong, Warning, Doc, Some(itunes_value_too_long),
    groups: [Itunes],
    summary: "a podcast's title, link, guid or iTunes value longer than the 255 characters Apple and PSP-1 limit values to",
    spec: "Apple, A Podcaster's Guide to RSS (technical details); PSP-1 RSS namespace declarations",
);

/// The limit "unless otherwise specified": characters, not bytes.
const MAX_CHARS: usize = 255;

/// A warning: the texts say the values "are limited to", with no must,
/// and Apple cuts what is longer rather than refusing the feed.
fn itunes_value_too_long(cx: &mut Checker) {
    let feed = cx.feed;
    let places: Vec<(String, Range<usize>, Option<Fix>)> = apple_values(feed)
        .into_iter()
        .filter(|value| value.text.trim().chars().nth(MAX_CHARS).is_some())
        .map(|value| (value.written, crate::feed::Text::of(value.node).range, None))
        .collect();
    report_grouped(cx, places, |at, written, others| {
        Checker::at(at, format!("{written} is longer than {MAX_CHARS} characters{}", more(others)))
            .label(format!("over {MAX_CHARS} characters"))
            .note("Apple, A Podcaster's Guide to RSS: \"Tag values are limited to 255 characters unless otherwise specified above\"; PSP-1: \"Node values are limited to 255 characters unless otherwise specified\". Apps and directories cut what is longer")
            .help(format!("shorten {written} to {MAX_CHARS} characters or fewer"))
    });
}
