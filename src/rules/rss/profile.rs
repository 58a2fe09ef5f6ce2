//! The RSS Advisory Board's RSS Best Practices Profile: what it recommends
//! beyond RSS 2.0 (a self link, a guid on every item, a name beside every
//! address, items after the channel's other elements, ...), each a warning
//! where the text says should (an info where it only describes), in the
//! group `rss-profile`, so `--ignore rss-profile` turns them all off.
//! These are the recommendations the W3C Feed Validation Service gives for
//! RSS 2.0. The profile: <https://www.rssboard.org/rss-profile>.

use crate::base::syntax;
use crate::feed::{start_tag, FeedDoc, Text};
use crate::findings::diagnostic::shorten;
use crate::rules::rss::vocabulary::RssVersion;
use crate::rules::shared::{more, report_grouped, rss_channel, rss_children};
use crate::rules::{children_named, rule, Checker, Rule};
use crate::xml::Node;

/// The channel of an RSS 2.0 document (not 0.91 or 0.92, which the profile
/// does not cover, and which have no guid or atom:link).
fn rss2_channel<'a, 'i>(feed: &FeedDoc<'a, 'i>) -> Option<Node<'a, 'i>> {
    rss_channel(feed).filter(|_| RssVersion::of(feed.root) == RssVersion::V2)
}

const SLASH_NS: &str = "http://purl.org/rss/1.0/modules/slash/";
const CONTENT_NS: &str = "http://purl.org/rss/1.0/modules/content/";

pub static RSS_MISSING_SELF_LINK: Rule = rule!(
    RssMissingSelfLink, Warning, Doc, Some(rss_missing_self_link),
    groups: [RssProfile],
    summary: "an RSS 2.0 channel has no atom:link rel=\"self\" naming the feed's own URL",
    spec: "RSS Best Practices Profile, atom:link",
);

fn rss_missing_self_link(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss2_channel(feed) else { return };
    // An archive without one is archive-missing-self's, at its marker; a
    // podcast without one is podcast-missing-element's error (PSP-1
    // requires it).
    if feed.self_link().is_some() || !feed.archive.is_empty() || feed.is_podcast() {
        return;
    }
    // The document's own URL where it has a web one (a file's is no help).
    let href = feed
        .url
        .filter(|url| matches!(url.scheme(), "http" | "https"))
        .map_or("https://example.org/feed.rss", |url| url.as_str());
    cx.report(
        Checker::at(start_tag(channel), "this channel has no atom:link with rel=\"self\"")
            .label("no self link")
            .note("RSS Best Practices Profile: \"Identifying a feed's URL within the feed makes it more portable, self-contained, and easier to cache\"; readers and hubs use it to know where the feed lives when it was copied or fetched through a redirect")
            .help(format!(
                "add <atom:link href=\"{}\" rel=\"self\" type=\"application/rss+xml\"/>, with xmlns:atom=\"http://www.w3.org/2005/Atom\" on <rss>",
                shorten(href)
            )),
    );
}

pub static RSS_ITEM_MISSING_GUID: Rule = rule!(
    RssItemMissingGuid, Warning, Doc, Some(rss_item_missing_guid),
    groups: [RssProfile],
    summary: "an RSS 2.0 item has no guid",
    spec: "RSS 2.0, Comments; RSS Best Practices Profile, item guid",
);

fn rss_item_missing_guid(cx: &mut Checker) {
    let feed = cx.feed;
    // A podcast's episodes without one are podcast-missing-element's error
    // (PSP-1 requires a guid).
    if rss2_channel(feed).is_none() || feed.is_podcast() {
        return;
    }
    let guid = feed.xml.name_index_of(None, "guid");
    let without: Vec<Node> = feed
        .entries
        .iter()
        .map(|item| item.node)
        .filter(|item| children_named(*item, guid).next().is_none())
        .collect();
    for item in without {
        cx.report(
            Checker::at(start_tag(item), "this item has no guid")
                .label("no guid")
                .note("RSS 2.0: \"it's recommended that you provide the guid, and if possible make it a permalink. This enables aggregators to not repeat items, even if there have been editing changes\"; without one, readers guess an item's identity from its link or title, and show it again when either changes")
                .help("add <guid> with the item's permanent URL, or a unique string with isPermaLink=\"false\""),
        );
    }
}

pub static RSS_CONTACT_MISSING_NAME: Rule = rule!(
    RssContactMissingName, Warning, Doc, Some(rss_contact_missing_name),
    groups: [RssProfile],
    summary: "an RSS managingEditor, webMaster or item author is an address without the person's name in parentheses",
    spec: "RSS Best Practices Profile, e-mail addresses",
);

fn rss_contact_missing_name(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss2_channel(feed) else { return };
    let author = feed.xml.name_index_of(None, "author");
    let items = feed.entries.iter().map(|item| item.node).filter(|_| author.is_some());
    let contacts = rss_children(channel, "managingEditor")
        .chain(rss_children(channel, "webMaster"))
        .chain(items.flat_map(|item| children_named(item, author)));
    // Only a valid address alone: anything else is rss-invalid-email's.
    let bare: Vec<Text> = contacts
        .map(Text::of)
        .filter(|text| {
            !text.value.is_empty()
                && !text.value.contains(char::is_whitespace)
                && syntax::addr_spec_error(text.value).is_none()
        })
        .collect();
    // A feed writes one address on every item: one finding per address.
    let places = bare.into_iter().map(|text| (text.value, text.range, None)).collect();
    report_grouped(cx, places, |at, address, others| {
        Checker::at(at, format!("`{}` has no name beside it{}", shorten(address), more(others)))
            .label("address alone")
            .note("RSS Best Practices Profile: the recommended form is an address followed by the person's name in parentheses, as RSS 2.0's own example writes it (geo@herald.com (George Matesky)); readers show the name")
            .help(format!("write {} (Real Name)", shorten(address)))
    });
}

pub static RSS_ITEM_BEFORE_CHANNEL_ELEMENT: Rule = rule!(
    RssItemBeforeChannelElement, Warning, Doc, Some(rss_item_before_channel_element),
    groups: [RssProfile],
    summary: "an RSS channel has elements after its first item: items should come last",
    spec: "RSS Best Practices Profile, item",
);

fn rss_item_before_channel_element(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss2_channel(feed) else { return };
    let mut elements = channel.children().filter(Node::is_element);
    let Some(first_item) = elements.by_ref().find(|c| c.has_tag_name(None, "item")) else {
        return;
    };
    // A podcast:liveItem is an item of the channel too ("All tags that
    // are valid as children of a standard <item> tag are also valid as
    // children here"), and stands among the items.
    let is_item = |c: &Node| c.has_tag_name(None, "item") || c.has_tag_name(Some(crate::feed::PODCAST_NS), "liveItem");
    let after: Vec<Node> = elements.filter(|c| !is_item(c)).collect();
    let Some(first) = after.first() else { return };
    let names = crate::rules::elements_listed(&after, |c| format!("<{}>", shorten(c.tag_name().name())));
    cx.report(
        Checker::at(start_tag(*first), format!("channel elements after the items: {names}"))
            .label("after the items")
            .secondary(start_tag(first_item), "the first item")
            .note("RSS Best Practices Profile: \"all item elements should appear after all of the other elements in a channel\"; readers that stream a feed have shown its items before they read what follows")
            .help("move the items to the end of the channel"),
    );
}

pub static RSS_IMAGE_MISMATCH: Rule = rule!(
    RssImageMismatch, Warning, Doc, Some(rss_image_mismatch),
    groups: [RssProfile],
    summary: "an RSS channel image whose title or link is not the channel's",
    spec: "RSS 2.0, <image> sub-element of <channel>; RSS Best Practices Profile, image",
);

fn rss_image_mismatch(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss2_channel(feed) else { return };
    let Some(image) = rss_children(channel, "image").next() else {
        return;
    };
    let mut findings = Vec::new();
    for (name, what) in [("title", "title"), ("link", "link")] {
        let (Some(own), Some(channels)) = (rss_children(image, name).next(), rss_children(channel, name).next()) else {
            continue;
        };
        let (own, channels) = (Text::of(own), Text::of(channels));
        if own.value.is_empty() || channels.value.is_empty() || own.value == channels.value {
            continue;
        }
        findings.push(
            Checker::at(
                own.range,
                format!(
                    "the image's {what} \"{}\" is not the channel's, \"{}\"",
                    shorten(own.value),
                    shorten(channels.value)
                ),
            )
            .label(format!("not the channel's {what}"))
            .secondary(channels.range, format!("the channel's {what}"))
            .note("RSS 2.0: \"in practice the image <title> and <link> should have the same value as the channel's <title> and <link>\"; readers show the image as the channel's, linking where the channel links")
            .help(format!("write the channel's {what} here")),
        );
    }
    for finding in findings {
        cx.report(finding);
    }
}

pub static RSS_TEXT_INPUT: Rule = rule!(
    RssTextInput, Info, Doc, Some(rss_text_input),
    groups: [RssProfile],
    summary: "an RSS channel has a textInput, which nearly no reader supports",
    spec: "RSS 2.0, <textInput> sub-element of <channel>; RSS Best Practices Profile, textInput",
);

/// An info: RSS 2.0 allows the element, and neither it nor the profile
/// says a publisher should leave it out; they say readers ignore it.
fn rss_text_input(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss2_channel(feed) else { return };
    let Some(input) = rss_children(channel, "textInput").next() else {
        return;
    };
    // At the name: what is said of the element being there, not of what
    // it holds (rss-text-input-missing-element points at the start tag).
    let name = start_tag(input).start + 1..start_tag(input).start + 1 + "textInput".len();
    cx.report(
        Checker::at(name, "a textInput: nearly no reader shows it")
            .label("textInput")
            .note("RSS 2.0: \"The purpose of the <textInput> element is something of a mystery. [...] Most aggregators ignore it\"; the RSS Best Practices Profile: publishers should not expect it to be supported")
            .help("remove it, or link to the search form from the channel's page instead"),
    );
}

pub static RSS_CONTENT_WITHOUT_DESCRIPTION: Rule = rule!(
    RssContentWithoutDescription, Warning, Doc, Some(rss_content_without_description),
    groups: [RssProfile],
    summary: "an RSS item has content:encoded without a description before it",
    spec: "RSS Best Practices Profile, content:encoded",
);

fn rss_content_without_description(cx: &mut Checker) {
    let feed = cx.feed;
    let encoded = feed.xml.name_index_of(Some(CONTENT_NS), "encoded");
    if rss2_channel(feed).is_none() || encoded.is_none() {
        return;
    }
    let description = feed.xml.name_index_of(None, "description");
    let mut findings = Vec::new();
    for item in feed.entries.iter().map(|item| item.node) {
        for child in item.children() {
            let name = child.name_index();
            if name.is_some() && name == description {
                break;
            }
            if name == encoded {
                findings.push((child, children_named(item, description).next()));
                break;
            }
        }
    }
    for (content, after) in findings {
        let finding = match after {
            Some(description) => Checker::at(
                start_tag(content),
                "content:encoded comes before the item's description",
            )
            .label("before the description")
            .secondary(start_tag(description), "the description")
            .help("put the description first"),
            None => Checker::at(start_tag(content), "content:encoded without a description")
                .label("no description")
                .help("add a <description> before it: the summary, or the full content again"),
        };
        cx.report(finding.note("RSS Best Practices Profile: \"Publishers who employ summaries should store the summary in description and the full content in content:encoded, ordering description first within the item. On items with no summary, the full content should be stored in description\"; readers that know only description show nothing, and some take the last of the two"));
    }
}

pub static RSS_COMMENTS_WITHOUT_BUILD_DATE: Rule = rule!(
    RssCommentsWithoutBuildDate, Warning, Doc, Some(rss_comments_without_build_date),
    groups: [RssProfile],
    summary: "RSS items count comments with slash:comments, but the channel has no lastBuildDate saying when",
    spec: "RSS Best Practices Profile, slash:comments",
);

fn rss_comments_without_build_date(cx: &mut Checker) {
    let feed = cx.feed;
    let comments = feed.xml.name_index_of(Some(SLASH_NS), "comments");
    let Some(channel) = rss2_channel(feed).filter(|_| comments.is_some()) else {
        return;
    };
    if rss_children(channel, "lastBuildDate").next().is_some() {
        return;
    }
    let first = feed
        .entries
        .iter()
        .find_map(|item| children_named(item.node, comments).next());
    let Some(count) = first else { return };
    cx.report(
        Checker::at(start_tag(count), "slash:comments counts comments, but the channel has no lastBuildDate")
            .label("a count without a date")
            .secondary(start_tag(channel), "no lastBuildDate")
            .note("RSS Best Practices Profile: the Slash module has no element saying when the counts were made, so publishers who use slash:comments should also include a lastBuildDate")
            .help("add <lastBuildDate> to the channel, the time the feed (and its counts) were made"),
    );
}

pub static RSS_MARKUP_IN_PLAIN_TEXT: Rule = rule!(
    RssMarkupInPlainText, Warning, Doc, Some(rss_markup_in_plain_text),
    groups: [RssProfile],
    summary: "an RSS title holds escaped HTML or an escaped reference, which readers show as written or as HTML",
    spec: "RSS Best Practices Profile, character data",
);

/// What makes a title's text ambiguous, as written: markup escaped with
/// `&lt;` (`&lt;b&gt;`) or in CDATA, or a reference escaped again
/// (`&amp;amp;`, `&amp;#39;`). The profile's form for a literal `<` or `&`
/// in plain text, `&#x3C;` and `&#x26;`, is not.
fn ambiguous_markup(raw: &str) -> Option<&'static str> {
    // Nearly every title has neither a reference nor CDATA.
    if !raw.contains(['&', '<']) {
        return None;
    }
    let markup_after = |text: &str, open: &str| {
        text.match_indices(open).any(|(at, _)| {
            text.get(at + open.len()..)
                .and_then(|rest| rest.chars().next())
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '/')
        })
    };
    let reference_after = |text: &str, amp: &str| {
        text.match_indices(amp).any(|(at, _)| {
            let rest = text.get(at + amp.len()..).unwrap_or_default();
            let name_end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
                .unwrap_or(rest.len());
            name_end > 0 && name_end <= 10 && rest.get(name_end..).is_some_and(|after| after.starts_with(';'))
        })
    };
    if markup_after(raw, "&lt;") {
        return Some("HTML markup escaped as &lt;");
    }
    if reference_after(raw, "&amp;") {
        return Some("a reference escaped twice (&amp;amp;)");
    }
    let mut cdata = raw
        .split("<![CDATA[")
        .skip(1)
        .map(|part| part.split("]]>").next().unwrap_or(part));
    cdata.find_map(|text| {
        if markup_after(text, "<") {
            Some("HTML markup in CDATA")
        } else if reference_after(text, "&") {
            Some("a reference in CDATA")
        } else {
            None
        }
    })
}

fn rss_markup_in_plain_text(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss2_channel(feed) else { return };
    let input = feed.xml.input_text();
    let title = feed.xml.name_index_of(None, "title");
    let items = feed.entries.iter().map(|item| item.node);
    let titles = children_named(channel, title).chain(items.flat_map(|item| children_named(item, title)));
    let mut findings = Vec::new();
    for title in titles {
        // The content as written: the title holds text only (an element in
        // it is rss-element-in-text's).
        if title.children().any(|c| c.is_element()) {
            continue;
        }
        if let Some(what) = input.get(title.content_range()).and_then(ambiguous_markup) {
            findings.push((Text::of(title), what));
        }
    }
    for (text, what) in findings {
        cx.report(
            Checker::at(text.range, format!("this title holds {what}: `{}`", shorten(text.value)))
                .label("plain text or HTML?")
                .note("RSS Best Practices Profile: every RSS element but an item's description holds plain text, yet readers differ: some show this markup as written, others render it as HTML; the profile writes a literal \"<\" as &#x3C; and \"&\" as &#x26;")
                .help("write the title as the plain text it is: no markup, and a literal < or & as &#x3C; or &#x26;"),
        );
    }
}
