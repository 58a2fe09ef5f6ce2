//! Podcasts by PSP-1, the Podcast Standards Project's podcast RSS standard:
//! what a podcast must and should have, its descriptions, its episodes'
//! media (group `podcast`). A podcast is an RSS feed that uses the iTunes
//! or the Podcasting 2.0 namespace, or any RSS feed where the user selects
//! the podcast groups ([`crate::feed::Podcast`]); a blog whose items
//! merely carry an MP3 is not held to these rules, and is told so once,
//! and one whose generator only declares a namespace is not either.

use crate::feed::media::{carries_media, family_by_type, media_format_by_url};
use crate::feed::{start_tag, FeedDoc, Text, ITUNES_NS, PODCAST_NS};
use crate::findings::diagnostic::shorten;
use crate::findings::diagnostic::Pending;
use crate::findings::fix::{self, Fix};
use crate::findings::remedy::Remedy;
use crate::rules::podcast::vocabulary::{itunes_elements, podcast_channel, podcast_enclosures};
use crate::rules::shared::{rss_channel, rss_children};
use crate::rules::{has_child, rule, Checker, Rule};
use crate::xml::Node;

pub(crate) mod itunes;
pub(crate) mod podcasting;
pub(crate) mod vocabulary;

/// An element a podcast is asked for: its namespace, its name, how it is
/// written, and an example of it.
struct Asked {
    namespace: Option<&'static str>,
    local: &'static str,
    written: &'static str,
    example: &'static str,
}

const fn asked(
    namespace: Option<&'static str>,
    local: &'static str,
    written: &'static str,
    example: &'static str,
) -> Asked {
    Asked {
        namespace,
        local,
        written,
        example,
    }
}

/// PSP-1's required channel elements beyond RSS 2.0's own (`title`, `link`
/// and `description` are `rss-missing-channel-*`'s errors, and the self
/// link is asked apart). Apple requires the same, but for the self link.
const CHANNEL_REQUIRED: &[Asked] = &[
    asked(None, "language", "language", "<language>en</language>"),
    asked(
        Some(ITUNES_NS),
        "category",
        "itunes:category",
        "<itunes:category text=\"Technology\"/>",
    ),
    asked(
        Some(ITUNES_NS),
        "explicit",
        "itunes:explicit",
        "<itunes:explicit>false</itunes:explicit>",
    ),
    asked(
        Some(ITUNES_NS),
        "image",
        "itunes:image",
        "<itunes:image href=\"https://example.org/artwork.jpg\"/>",
    ),
];

/// PSP-1's required item elements (`title` is asked apart).
const ITEM_REQUIRED: &[Asked] = &[
    asked(
        None,
        "enclosure",
        "enclosure",
        "<enclosure url=\"https://example.org/1.mp3\" length=\"24986239\" type=\"audio/mpeg\"/>",
    ),
    asked(
        None,
        "guid",
        "guid",
        "<guid isPermaLink=\"false\">a-string-that-never-changes</guid>",
    ),
];

/// PSP-1's recommended channel elements.
const CHANNEL_RECOMMENDED: &[Asked] = &[
    asked(
        Some(PODCAST_NS),
        "locked",
        "podcast:locked",
        "<podcast:locked>yes</podcast:locked>",
    ),
    asked(
        Some(PODCAST_NS),
        "guid",
        "podcast:guid",
        "<podcast:guid>9b024349-ccf0-5f69-a609-6b82873eab3c</podcast:guid>",
    ),
    asked(
        Some(ITUNES_NS),
        "author",
        "itunes:author",
        "<itunes:author>The publisher</itunes:author>",
    ),
];

/// PSP-1's recommended item elements.
const ITEM_RECOMMENDED: &[Asked] = &[
    asked(None, "link", "link", "<link>https://example.org/episodes/1</link>"),
    asked(
        None,
        "pubDate",
        "pubDate",
        "<pubDate>Wed, 15 Jun 2022 19:00:00 GMT</pubDate>",
    ),
    asked(
        None,
        "description",
        "description",
        "<description>What the episode is about</description>",
    ),
    asked(
        Some(ITUNES_NS),
        "duration",
        "itunes:duration",
        "<itunes:duration>1801</itunes:duration>",
    ),
    asked(
        Some(ITUNES_NS),
        "image",
        "itunes:image",
        "<itunes:image href=\"https://example.org/1.jpg\"/>",
    ),
    asked(
        Some(ITUNES_NS),
        "explicit",
        "itunes:explicit",
        "<itunes:explicit>false</itunes:explicit>",
    ),
    asked(
        Some(PODCAST_NS),
        "transcript",
        "podcast:transcript",
        "<podcast:transcript url=\"https://example.org/1.vtt\" type=\"text/vtt\"/>",
    ),
];

/// The asked elements `parent` lacks. Each name is looked up by its
/// number, once per document: `numbers` holds them in the order of `asked`.
fn lacking<'t>(parent: Node, asked: &'t [Asked], numbers: &[Option<usize>]) -> Vec<&'t Asked> {
    asked
        .iter()
        .zip(numbers)
        .filter(|(_, number)| !has_child(parent, **number))
        .map(|(asked, _)| asked)
        .collect()
}

fn name_numbers(feed: &FeedDoc, asked: &[Asked]) -> Vec<Option<usize>> {
    asked
        .iter()
        .map(|a| feed.xml.name_index_of(a.namespace, a.local))
        .collect()
}

/// "a, b and c" (`joined` "and"), "a, b or c" ("or").
fn listed(names: &[impl AsRef<str>], joined: &str) -> String {
    let names: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
    match &names[..] {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} {joined} {last}", rest.join(", ")),
    }
}

/// The help for adding elements, and the namespace declaration they need
/// where the document has none.
fn add_help(feed: &FeedDoc, missing: &[&Asked]) -> String {
    let examples: Vec<&str> = missing.iter().map(|a| a.example).collect();
    let mut help = format!("add {}", examples.join(" "));
    for (namespace, prefix) in [(ITUNES_NS, "itunes"), (PODCAST_NS, "podcast")] {
        let needed = missing.iter().any(|a| a.namespace == Some(namespace));
        if needed && crate::rules::prefix_in_scope(feed.xml.input_text(), feed.root, namespace).is_none() {
            help.push_str(&format!(", and declare xmlns:{prefix}=\"{namespace}\" on <rss>"));
        }
    }
    help
}

/// The finding that `whose` ("this podcast", "this episode") lacks
/// `missing`, at `at`.
fn lacks(feed: &FeedDoc, at: std::ops::Range<usize>, whose: &str, missing: &[&Asked], note: &'static str) -> Pending {
    let names: Vec<&str> = missing.iter().map(|a| a.written).collect();
    Checker::at(at, format!("{whose} has no {}", listed(&names, "or")))
        .label(format!("no {}", listed(&names, "and")))
        .note(note)
        .help(add_help(feed, missing))
}

/// The elements of PSP-1's required ones that Apple's guide requires too
/// (its "Required tags": the show's language, itunes:category,
/// itunes:explicit and itunes:image, an episode's title and enclosure).
/// Apple names no self link, and lists guid among its recommended tags.
const APPLE_REQUIRED: &[&str] = &[
    "language",
    "itunes:category",
    "itunes:explicit",
    "itunes:image",
    "title",
    "enclosure",
];

/// A missing-element finding with the texts that require what is
/// missing: PSP-1 for every one, Apple where its guide requires it too,
/// and Apple's word on a guid, which it recommends.
fn lacks_required(feed: &FeedDoc, at: std::ops::Range<usize>, whose: &str, missing: &[&Asked]) -> Pending {
    let finding = lacks(
        feed,
        at,
        whose,
        missing,
        "PSP-1: \"Required elements must be present in your RSS feed to pass validation\"",
    );
    let apple: Vec<&str> = missing
        .iter()
        .map(|a| a.written)
        .filter(|written| APPLE_REQUIRED.contains(written))
        .collect();
    let finding = if apple.is_empty() {
        finding
    } else {
        finding.note(format!(
            "Apple: \"Required tags must be present in your RSS feed or it won't pass validation to be listed in Apple Podcasts\" ({} among them)",
            listed(&apple, "and")
        ))
    };
    if missing.iter().any(|a| a.written == "guid") {
        finding.note("Apple, which recommends a guid: \"It is very important that each episode have a unique GUID and that it never changes\"")
    } else {
        finding
    }
}

pub static PODCAST_MISSING_ELEMENT: Rule = rule!(
    PodcastMissingElement, Error, Doc, Some(podcast_missing_element),
    groups: [Podcast],
    summary: "a podcast lacks an element PSP-1 requires: a self link, language, itunes:category, itunes:explicit or itunes:image; an episode's title, enclosure or guid",
    spec: "PSP-1, Required <channel> elements, Required <item> elements; Apple, A Podcaster's Guide to RSS: Required tags",
);

fn podcast_missing_element(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = podcast_channel(feed) else { return };
    let mut missing = lacking(channel, CHANNEL_REQUIRED, &name_numbers(feed, CHANNEL_REQUIRED));
    // An archive without a self link is archive-missing-self's, at its marker.
    let self_link = asked(
        None,
        "",
        "atom:link rel=\"self\"",
        "<atom:link href=\"https://example.org/feed.rss\" rel=\"self\" type=\"application/rss+xml\"/>",
    );
    if feed.self_link().is_none() && feed.archive.is_empty() {
        missing.insert(0, &self_link);
    }
    if !missing.is_empty() {
        cx.report(lacks_required(feed, start_tag(channel), "this podcast", &missing));
    }
    let numbers = name_numbers(feed, ITEM_REQUIRED);
    let title = feed.xml.name_index_of(None, "title");
    let description = feed.xml.name_index_of(None, "description");
    let title_asked = asked(None, "title", "title", "<title>The episode's name</title>");
    let findings: Vec<(Node, Vec<&Asked>)> = feed
        .entries
        .iter()
        .map(|item| item.node)
        .filter_map(|item| {
            let mut missing = lacking(item, ITEM_REQUIRED, &numbers);
            // An item with neither title nor description is
            // rss-item-missing-title-and-description's.
            if !has_child(item, title) && has_child(item, description) {
                missing.insert(0, &title_asked);
            }
            (!missing.is_empty()).then_some((item, missing))
        })
        .collect();
    for (item, missing) in findings {
        cx.report(lacks_required(feed, start_tag(item), "this episode", &missing));
    }
}

pub static PODCAST_MISSING_RECOMMENDED: Rule = rule!(
    PodcastMissingRecommended, Warning, Doc, Some(podcast_missing_recommended),
    groups: [Podcast],
    summary: "a podcast lacks elements PSP-1 recommends: podcast:locked, podcast:guid, itunes:author; episodes' link, pubDate, description, itunes:duration, itunes:image, itunes:explicit, podcast:transcript",
    spec: "PSP-1, Recommended <channel> elements, Recommended <item> elements",
);

/// One finding for the channel, and one for the episodes together (the
/// first episode that lacks any, with how many lack each): an element
/// most episodes lack is one thing to do, not one per episode.
fn podcast_missing_recommended(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = podcast_channel(feed) else { return };
    let note = "PSP-1: \"Recommended elements are encouraged because they provide useful information to listeners\"";
    let missing = lacking(channel, CHANNEL_RECOMMENDED, &name_numbers(feed, CHANNEL_RECOMMENDED));
    if !missing.is_empty() {
        cx.report(
            lacks(feed, start_tag(channel), "this podcast", &missing, note)
                .note("podcast:locked keeps another host from importing the show; podcast:guid follows it when it moves; itunes:author names who makes it"),
        );
    }
    let numbers = name_numbers(feed, ITEM_RECOMMENDED);
    let mut lacked = vec![0usize; ITEM_RECOMMENDED.len()];
    let mut first = None;
    for item in feed.entries.iter().map(|item| item.node) {
        for (count, number) in lacked.iter_mut().zip(&numbers) {
            if !has_child(item, *number) {
                *count += 1;
                first.get_or_insert(item);
            }
        }
    }
    let Some(first) = first else { return };
    let episodes = feed.entries.len();
    let counted: Vec<String> = ITEM_RECOMMENDED
        .iter()
        .zip(&lacked)
        .filter(|(_, n)| **n > 0)
        .map(|(asked, n)| match (*n, episodes) {
            (1, 1) => asked.written.to_owned(),
            (n, all) if n == all => format!("{} (all {all})", asked.written),
            (n, all) => format!("{} ({n} of {all})", asked.written),
        })
        .collect();
    let missing: Vec<&Asked> = ITEM_RECOMMENDED
        .iter()
        .zip(&lacked)
        .filter(|(_, n)| **n > 0)
        .map(|(asked, _)| asked)
        .collect();
    let whose = if episodes == 1 {
        "this episode has"
    } else {
        "episodes have"
    };
    cx.report(
        Checker::at(start_tag(first), format!("{whose} no {}", listed(&counted, "or")))
            .label("the first episode without them")
            .note(note)
            .help(add_help(feed, &missing)),
    );
}

pub static PODCAST_NOT_DECLARED: Rule = rule!(
    PodcastNotDeclared, Info, Doc, Some(podcast_not_declared),
    groups: [Podcast],
    summary: "an RSS feed whose items carry audio or video, but that declares neither podcast namespace, so the podcast rules are not applied to it",
    spec: "PSP-1, Required RSS Namespace Declarations",
);

fn podcast_not_declared(cx: &mut Checker) {
    let feed = cx.feed;
    if feed.is_podcast() {
        return;
    }
    let Some(enclosure) = rss_channel(feed).and_then(|_| {
        feed.entries
            .iter()
            .flat_map(|item| rss_children(item.node, "enclosure"))
            .find(|enclosure| carries_media(*enclosure))
    }) else {
        return;
    };
    // At what says it is media: the type, else the URL.
    let at = ["type", "url"]
        .into_iter()
        .find_map(|name| enclosure.attribute_node(name).filter(|a| !a.value().trim().is_empty()))
        .map_or_else(|| start_tag(enclosure), |attribute| attribute.range_value());
    cx.report(
        Checker::at(at, "this feed's items carry audio or video, but it declares neither the iTunes nor the Podcasting 2.0 namespace: it is not checked as a podcast")
            .label("media here")
            .note("a podcast is held to PSP-1's and Apple's required elements (podcast-missing-element: a self link, language, itunes:category, itunes:explicit, itunes:image; an enclosure and a guid on every episode); a blog that attaches a recording need not be")
            .help(format!(
                "if it is a podcast, declare xmlns:itunes=\"{ITUNES_NS}\" on <rss> and add Apple's tags; to check it as one as it is, {}",
                cx.words.remedy(Remedy::SelectPodcastGroup)
            )),
    );
}

pub static PODCAST_NOT_UTF8: Rule = rule!(
    PodcastNotUtf8, Error, Doc, Some(podcast_not_utf8),
    groups: [Podcast],
    summary: "a podcast whose XML declaration names another encoding than UTF-8",
    spec: "PSP-1, RSS Feed Elements; Apple, A Podcaster's Guide to RSS",
);

/// An error: PSP-1 says feeds "must be plain text UTF-8 encoded". Told by
/// the encoding the XML declaration names (feedlint read the document in
/// it); a document without one is UTF-8 or UTF-16 by its first bytes.
fn podcast_not_utf8(cx: &mut Checker) {
    let feed = cx.feed;
    if !feed.is_podcast() {
        return;
    }
    let text = feed.xml.input_text();
    let Some((encoding, offset)) = crate::findings::source::declared_encoding(text.as_bytes()) else {
        return;
    };
    if encoding.eq_ignore_ascii_case("utf-8") || encoding.eq_ignore_ascii_case("utf8") {
        return;
    }
    cx.report(
        Checker::at(
            offset..offset + encoding.len(),
            format!("this podcast is encoded as {}, not UTF-8", shorten(encoding)),
        )
        .label("not UTF-8")
        .note(
            "PSP-1: \"Feeds must be plain text UTF-8 encoded\"; Apple: \"Use plain text UTF-8 encoding for your feed\"",
        )
        .help("save the feed as UTF-8 and declare encoding=\"UTF-8\""),
    );
}

pub static PODCAST_DESCRIPTION_TOO_LONG: Rule = rule!(
    PodcastDescriptionTooLong, Error, Doc, Some(podcast_description_too_long),
    groups: [Podcast],
    summary: "a podcast's or an episode's description is longer than 4,000 bytes",
    spec: "PSP-1, <description>; Apple, A Podcaster's Guide to RSS: <description>",
);

/// The most bytes of text a description may hold.
const DESCRIPTION_LIMIT: usize = 4000;

fn podcast_description_too_long(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = podcast_channel(feed) else { return };
    let long: Vec<(Node, usize)> = std::iter::once(channel)
        .chain(feed.entries.iter().map(|item| item.node))
        .flat_map(|parent| rss_children(parent, "description"))
        .map(|description| (description, Text::of(description).value.len()))
        .filter(|(_, bytes)| *bytes > DESCRIPTION_LIMIT)
        .collect();
    for (description, bytes) in long {
        let whose = if description.parent_element() == Some(channel) {
            "the podcast's"
        } else {
            "this episode's"
        };
        cx.report(
            Checker::at(start_tag(description), format!("{whose} description is {bytes} bytes long, more than the 4000 allowed"))
                .label(format!("{bytes} bytes"))
                .note("PSP-1 and Apple: \"The maximum amount of text allowed for this tag is 4000 bytes\"; Apple cuts or refuses what is longer")
                .help(format!("shorten it by {} bytes or more (markup inside CDATA counts too), and link to the full show notes", bytes - DESCRIPTION_LIMIT)),
        );
    }
}

pub static PODCAST_ENCLOSURE_TYPE_MISMATCH: Rule = rule!(
    PodcastEnclosureTypeMismatch, Warning, Doc, Some(podcast_enclosure_type_mismatch),
    groups: [Podcast],
    summary: "an episode's enclosure type names another format than its URL's extension (an .mp3 file typed audio/x-m4a)",
    spec: "PSP-1, <enclosure>; Apple, A Podcaster's Guide to RSS: <enclosure>",
);

fn podcast_enclosure_type_mismatch(cx: &mut Checker) {
    let feed = cx.feed;
    let mismatched: Vec<_> = podcast_enclosures(feed)
        .into_iter()
        .filter_map(|enclosure| {
            let by_url = media_format_by_url(enclosure.attribute("url")?)?;
            let type_attribute = enclosure.attribute_node("type")?;
            let by_type = family_by_type(type_attribute.value())?;
            (by_type != by_url.family).then_some((type_attribute, by_url, by_type))
        })
        .collect();
    for (type_attribute, by_url, by_type) in mismatched {
        cx.report(
            Checker::at(
                type_attribute.range_value(),
                format!(
                    "the enclosure is a .{} file ({}), but its type, {}, says {}",
                    by_url.extension,
                    by_url.family.name(),
                    shorten(type_attribute.value()),
                    by_type.name()
                ),
            )
            .label(format!("not {}", by_url.family.name()))
            .note("Apple: \"The file extension specified within the URL attribute determines whether or not content appears in the podcast directory\" and \"The type attribute provides the correct category for the type of file you are using\"; apps that pick a player by the type fail to play the file")
            .help("write the type of the file the URL serves (audio/mpeg for .mp3, audio/x-m4a for .m4a, video/mp4 for .mp4)"),
        );
    }
}

pub static PODCAST_DUPLICATE_ENCLOSURE: Rule = rule!(
    PodcastDuplicateEnclosure, Warning, Doc, Some(podcast_duplicate_enclosure),
    groups: [Podcast],
    summary: "two episodes of a podcast have enclosures with the same URL",
    spec: "Apple, A Podcaster's Guide to RSS: <guid>, <enclosure>",
);

fn podcast_duplicate_enclosure(cx: &mut Checker) {
    let feed = cx.feed;
    if podcast_channel(feed).is_none() {
        return;
    }
    // By URL: the first enclosure with it, and its item's guid.
    let mut first_of: crate::base::hash::FastMap<&str, (crate::xml::Attribute, Option<&str>)> =
        crate::base::hash::FastMap::default();
    let mut repeats = Vec::new();
    for item in feed.entries.iter().map(|item| item.node) {
        let guid = rss_children(item, "guid")
            .next()
            .map(|guid| Text::of(guid).value)
            .filter(|g| !g.is_empty());
        for url in rss_children(item, "enclosure").filter_map(|enclosure| enclosure.attribute_node("url")) {
            let value = url.value().trim();
            if value.is_empty() {
                continue;
            }
            match first_of.get(value) {
                // The same episode twice (its guid too) is the guid's
                // finding (rss-invalid-guid), not a second one here.
                Some((_, first_guid)) if guid.is_some() && *first_guid == guid => {}
                Some((first, _)) => repeats.push((url, first.range_value())),
                None => {
                    first_of.insert(value, (url, guid));
                }
            }
        }
    }
    for (url, first) in repeats {
        cx.report(
            Checker::at(url.range_value(), format!("this enclosure URL, {}, is another episode's too", shorten(url.value())))
                .label("used before")
                .secondary(first, "first here")
                .note("Apple: \"If a GUID is not provided, make sure that an episode's enclosure URL is unique\"; apps that know an episode by its media file take the two for one, and show one of them only")
                .help("give each episode its own media file, or remove the repeated episode"),
        );
    }
}

pub static PODCAST_NON_ASCII_URL: Rule = rule!(
    PodcastNonAsciiUrl, Error, Doc, Some(podcast_non_ascii_url),
    groups: [Podcast],
    summary: "a podcast's enclosure URL or artwork href has characters outside ASCII, so it is no URL",
    spec: "RSS 2.0, <enclosure> sub-element of <item>; RFC 3986 §2; RFC 3987 §3.1",
);

fn podcast_non_ascii_url(cx: &mut Checker) {
    let feed = cx.feed;
    let urls = podcast_enclosures(feed)
        .into_iter()
        .filter_map(|enclosure| enclosure.attribute_node("url"))
        .chain(
            itunes_elements(feed, "image")
                .into_iter()
                .filter_map(|image| image.attribute_node("href")),
        );
    let non_ascii: Vec<_> = urls
        .filter(|url| !url.value().is_ascii() && url::Url::parse(url.value().trim()).is_ok())
        .collect();
    for url in non_ascii {
        // The IRI mapped to a URI (RFC 3987 §3.1): what the url crate
        // writes for it, escaped as attribute text.
        let encoded = url::Url::parse(url.value().trim())
            .map(String::from)
            .unwrap_or_default();
        let fix = Fix::safe(
            "Percent-encode the characters outside ASCII",
            vec![fix::replace(url.range_value(), encoded.replace('&', "&amp;"))],
        );
        cx.report(
            Checker::at(url.range_value(), format!("{} has characters outside ASCII", shorten(url.value())))
                .label("not a URL")
                .note("RSS 2.0: the enclosure's \"url must be an http url\"; a URL is ASCII (RFC 3986 §2), and an address with other characters is an IRI, which apps and CDNs encode each their own way, or not at all: the file is not found")
                .help(format!("write it percent-encoded: {}", shorten(&encoded)))
                .fix(fix),
        );
    }
}
