//! The values of RSS elements and attributes: URLs, e-mail addresses,
//! enclosures, images, clouds, text input names.

use crate::base::syntax;
use crate::feed::{BaseKind, DocKind, FeedDoc, Text};
use crate::findings::diagnostic::shorten;
use crate::rules::shared::{more, report_all, report_grouped, Bad};
use crate::rules::shared::{rss_channel, rss_children};
use crate::rules::{rule, Checker, Rule};
use crate::text::iri;
use crate::xml::Node;

fn rss_items<'a, 'i, 'd>(feed: &'d FeedDoc<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> + 'd {
    feed.entries
        .iter()
        .filter(|_| feed.kind == DocKind::Rss)
        .map(|item| item.node)
}

pub static RSS_INVALID_EMAIL: Rule = rule!(
    RssInvalidEmail, Error, Doc, Some(rss_invalid_email),
    groups: [RssCore],
    summary: "an RSS managingEditor, webMaster or item author is not an e-mail address",
    spec: "RSS 2.0, Optional channel elements, Elements of <item>",
);

/// What is wrong with an RSS contact that is not `address` or
/// `address (Name)`, said in terms of what is there: the message's end and
/// the help.
fn rss_contact_error(value: &str) -> Option<(String, String)> {
    const FORM: &str = "write the address, optionally followed by the name in parentheses: jane@example.org (Jane Doe)";
    if value.is_empty() {
        return Some((
            "it is empty".to_owned(),
            "write the address, or remove the element".to_owned(),
        ));
    }
    let shown = shorten(value);
    // A name and an address the other way round: "Jane Doe <jane@example.org>".
    if let (Some(open), Some(close)) = (value.find('<'), value.rfind('>')) {
        let name = value.get(..open).unwrap_or_default().trim().trim_matches('"');
        let address = value.get(open + 1..close).unwrap_or_default().trim();
        if open < close && syntax::addr_spec_error(address).is_none() {
            let rewritten = if name.is_empty() {
                address.to_owned()
            } else {
                format!("{address} ({name})")
            };
            return Some((
                format!("`{shown}` is written as in a mail header; RSS writes the address first"),
                format!("write {}", shorten(&rewritten)),
            ));
        }
    }
    if let Some(address) = value
        .strip_prefix("mailto:")
        .filter(|a| syntax::addr_spec_error(a.trim()).is_none())
    {
        return Some((
            format!("`{shown}` is a mailto: URI, not an address"),
            format!("write {}", shorten(address.trim())),
        ));
    }
    if !value.contains('@') && !value.is_empty() && !value.starts_with("mailto:") {
        let help = "write the address with the name in parentheses, jane@example.org (Jane Doe); for a name alone, use dc:creator (xmlns:dc=\"http://purl.org/dc/elements/1.1/\")";
        let what = if value.contains("://") || value.starts_with("www.") {
            format!("`{shown}` is a web address, not an e-mail address")
        } else {
            format!("`{shown}` is a name, not an address")
        };
        return Some((what, help.to_owned()));
    }
    let address = match value
        .find(|c: char| c.is_whitespace())
        .and_then(|space| value.split_at_checked(space))
    {
        Some((address, name)) => {
            let name = name.trim_start();
            if !(name.starts_with('(') && name.ends_with(')')) {
                return Some((
                    format!(
                        "after the address `{}` comes `{}`, and only a name in parentheses may follow",
                        shorten(address),
                        shorten(name)
                    ),
                    FORM.to_owned(),
                ));
            }
            address
        }
        None => value,
    };
    let why = syntax::addr_spec_error(address)?;
    Some((format!("`{shown}` is not an e-mail address: {why}"), FORM.to_owned()))
}

fn rss_invalid_email(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else { return };
    let contacts = rss_children(channel, "managingEditor")
        .chain(rss_children(channel, "webMaster"))
        .chain(rss_items(feed).flat_map(|item| rss_children(item, "author")));
    let mut findings = Vec::new();
    // A contact that holds elements is rss-element-in-text's, at its cause.
    for contact in contacts.filter(|contact| !contact.children().any(|child| child.is_element())) {
        let text = Text::of(contact);
        if let Some((what, help)) = rss_contact_error(text.value) {
            let name = contact.tag_name().name();
            findings.push(Bad {
                at: text.range,
                message: format!("<{name}>: {what}"),
                help,
            });
        }
    }
    // A feed writes the same author on every item (a show's name): one
    // finding per value.
    let places = findings
        .into_iter()
        .map(|Bad { at, message, help }| ((message, help), at, None))
        .collect();
    report_grouped(cx, places, |at, (message, help), others| {
        Checker::at(at, format!("{message}{}", more(others)))
            .label("not an address")
            .note("RSS 2.0: managingEditor, webMaster and an item's author are the \"email address\" of a person, e.g. \"geo@herald.com (George Matesky)\"; readers that mail or show it cannot use anything else")
            .help(help.clone())
    });
}

pub static RSS_INVALID_URL: Rule = rule!(
    RssInvalidUrl, Error, Doc, Some(rss_invalid_url),
    groups: [RssCore],
    summary: "an RSS element or attribute that holds a URL holds something else, or a relative reference",
    spec: "RSS 2.0, Required and optional channel elements, Elements of <item>",
);

/// The RSS elements whose text is a URL, by their parent.
const RSS_URL_ELEMENTS: [(&str, &str); 7] = [
    ("channel", "link"),
    ("channel", "docs"),
    ("image", "url"),
    ("image", "link"),
    ("textInput", "link"),
    ("item", "link"),
    ("item", "comments"),
];

/// Why a value on `node` is not an absolute URL, if it is not. A relative
/// reference under an `xml:base` that resolves is one: XML Base applies to
/// any XML, and readers that honour it in RSS resolve against it.
fn absolute_url_error<'a, 'i>(feed: &FeedDoc<'a, 'i>, node: Node<'a, 'i>, value: &str) -> Option<String> {
    match iri::check_iri_reference(value) {
        Err(error) => Some(error.message),
        Ok(()) if value.is_empty() => Some("it is empty".to_owned()),
        Ok(()) if iri::has_scheme(value) => None,
        Ok(())
            if node.ancestors().any(|a| a.has_xml_base())
                && matches!(
                    feed.base_kind(node),
                    BaseKind::Hierarchical { .. } | BaseKind::Opaque(_)
                ) =>
        {
            None
        }
        Ok(()) => Some("it is relative, and no xml:base gives a base to resolve it against".to_owned()),
    }
}

fn rss_invalid_url(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else { return };
    let parents = std::iter::once(channel)
        .chain(rss_children(channel, "image"))
        .chain(rss_children(channel, "textInput"))
        .chain(rss_items(feed));
    let mut findings = Vec::new();
    for parent in parents {
        let parent_name = parent.tag_name().name();
        for child in parent
            .children()
            .filter(|c| c.is_element() && c.tag_name().namespace().is_none())
        {
            let name = child.tag_name().name();
            if !RSS_URL_ELEMENTS.contains(&(parent_name, name)) {
                let attribute = match name {
                    "enclosure" | "source" if parent_name == "item" => child.attribute_node("url"),
                    _ => None,
                };
                if let Some(attribute) = attribute {
                    if let Some(why) = absolute_url_error(feed, child, attribute.value()) {
                        findings.push(Bad {
                            at: attribute.range_value(),
                            message: format!(
                                "the url of <{name}>, \"{}\", is not a URL: {why}",
                                shorten(attribute.value())
                            ),
                            help: "write the full URL, e.g. https://example.org/episode-1.mp3".to_owned(),
                        });
                    }
                }
                continue;
            }
            let text = Text::of(child);
            if let Some(why) = absolute_url_error(feed, child, text.value) {
                findings.push(Bad {
                    at: text.range,
                    message: format!("<{name}> \"{}\" is not a URL: {why}", shorten(text.value)),
                    help: "write the full URL, with its scheme, e.g. https://example.org/posts/1".to_owned(),
                });
            } else if parent_name == "channel" && name == "link" && !text.value.is_ascii() {
                // The channel's link, "the URL to the HTML website", is
                // where readers send people and what directories key
                // channels by: a URI (RFC 3986), ASCII only, as the
                // feedvalidator checks it. An IRI is its percent-encoded
                // form in a URL.
                let encoded = url::Url::parse(text.value).map(String::from).ok();
                findings.push(Bad {
                    at: text.range,
                    message: format!(
                        "<{name}> \"{}\" is an IRI with characters outside ASCII, not a URL",
                        shorten(text.value)
                    ),
                    help: match encoded {
                        Some(encoded) => format!("write it percent-encoded: <{name}>{}</{name}>", shorten(&encoded)),
                        None => "percent-encode the characters outside ASCII (RFC 3987 §3.1)".to_owned(),
                    },
                });
            }
        }
    }
    report_all(
        cx,
        findings,
        "not a URL",
        "RSS 2.0 defines link, docs, comments, image url and link, textInput link, and the url of enclosure and source as URLs, and no base for relative references: without an xml:base, readers resolve them differently or not at all",
    );
}

pub static RSS_INVALID_ENCLOSURE: Rule = rule!(
    RssInvalidEnclosure, Error, Doc, Some(rss_invalid_enclosure),
    groups: [RssCore],
    summary: "an RSS enclosure's length is not a number of bytes, or its type not a media type",
    spec: "RSS 2.0, <enclosure> sub-element of <item>",
);

fn rss_invalid_enclosure(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for enclosure in rss_items(feed).flat_map(|item| rss_children(item, "enclosure")) {
        if let Some(length) = enclosure
            .attribute_node("length")
            .filter(|l| syntax::non_negative_integer(l.value()).is_none())
        {
            findings.push(Bad {
                at: length.range_value(),
                message: format!(
                    "enclosure length \"{}\" is not a number of bytes",
                    shorten(length.value())
                ),
                help: "write the size in bytes as digits, e.g. length=\"24986239\" (0 when unknown)".to_owned(),
            });
        }
        if let Some(media_type) = enclosure
            .attribute_node("type")
            .filter(|t| !syntax::is_media_type(t.value()))
        {
            findings.push(Bad {
                at: media_type.range_value(),
                message: format!("enclosure type \"{}\" is not a media type", shorten(media_type.value())),
                help: "write a MIME type such as \"audio/mpeg\"".to_owned(),
            });
        }
    }
    report_all(
        cx,
        findings,
        "invalid enclosure",
        "RSS 2.0: \"length says how big it is in bytes, and type says what its type is, a standard MIME type\"; podcast clients size downloads and pick players by them",
    );
}

pub static RSS_INVALID_IMAGE: Rule = rule!(
    RssInvalidImage, Error, Doc, Some(rss_invalid_image),
    groups: [RssCore],
    summary: "an RSS image's width or height is not a number of pixels within 144 and 400",
    spec: "RSS 2.0, <image> sub-element of <channel>",
);

fn rss_invalid_image(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else { return };
    let mut findings = Vec::new();
    for image in rss_children(channel, "image") {
        for (dimension, maximum) in [("width", 144), ("height", 400)] {
            for element in rss_children(image, dimension) {
                let text = Text::of(element);
                let valid = syntax::non_negative_integer(text.value).is_some_and(|n| (1..=maximum).contains(&n));
                if !valid {
                    findings.push(Bad {
                        at: text.range,
                        message: format!(
                            "image {dimension} \"{}\" is not a number of pixels from 1 to {maximum}",
                            shorten(text.value)
                        ),
                        help: format!("write the {dimension} in pixels, at most {maximum}, or leave it out"),
                    });
                }
            }
        }
    }
    report_all(
        cx,
        findings,
        "invalid size",
        "RSS 2.0: \"Maximum value for width is 144, default value is 88. Maximum value for height is 400, default value is 31.\"",
    );
}

pub static RSS_INVALID_CLOUD: Rule = rule!(
    RssInvalidCloud, Error, Doc, Some(rss_invalid_cloud),
    groups: [RssCore],
    summary: "an RSS cloud's port is not a TCP port, or its protocol is not xml-rpc, soap or http-post",
    spec: "RSS 2.0, <cloud> sub-element of <channel>",
);

fn rss_invalid_cloud(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else { return };
    let mut findings = Vec::new();
    for cloud in rss_children(channel, "cloud") {
        if let Some(port) = cloud
            .attribute_node("port")
            .filter(|p| !syntax::non_negative_integer(p.value()).is_some_and(|n| (1..=65535).contains(&n)))
        {
            findings.push(Bad {
                at: port.range_value(),
                message: format!(
                    "cloud port \"{}\" is not a TCP port from 1 to 65535",
                    shorten(port.value())
                ),
                help: "write the port number, e.g. port=\"80\"".to_owned(),
            });
        }
        if let Some(protocol) = cloud
            .attribute_node("protocol")
            .filter(|p| !matches!(p.value(), "xml-rpc" | "soap" | "http-post"))
        {
            findings.push(Bad {
                at: protocol.range_value(),
                message: format!(
                    "cloud protocol \"{}\" is none of xml-rpc, soap and http-post",
                    shorten(protocol.value())
                ),
                help: "write protocol=\"xml-rpc\", \"soap\" or \"http-post\"".to_owned(),
            });
        }
    }
    report_all(
        cx,
        findings,
        "invalid cloud",
        "RSS 2.0, <cloud>: the notification service is called on domain, port and path with registerProcedure over protocol, which is \"xml-rpc\", \"soap\" or \"http-post\"",
    );
}

pub static RSS_INVALID_TEXT_INPUT_NAME: Rule = rule!(
    RssInvalidTextInputName, Error, Doc, Some(rss_invalid_text_input_name),
    groups: [RssCore],
    summary: "an RSS textInput's name is not a form control name (a letter, then letters, digits, '-', '_', ':' or '.')",
    spec: "RSS 2.0, <textInput> sub-element of <channel>; HTML 4.01 §6.2",
);

/// Whether `name` is an HTML NAME token: what the reader's form submits
/// the text under (HTML 4.01 §6.2).
fn is_name_token(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.'))
}

fn rss_invalid_text_input_name(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(channel) = rss_channel(feed) else { return };
    let bad: Vec<Text> = rss_children(channel, "textInput")
        .flat_map(|text_input| rss_children(text_input, "name"))
        .map(Text::of)
        .filter(|name| !is_name_token(name.value))
        .collect();
    for name in bad {
        let suggestion: String = name
            .value
            .chars()
            .filter_map(|c| match c {
                c if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.') => Some(c),
                c if c.is_whitespace() => Some('_'),
                _ => None,
            })
            .collect();
        let suggestion = suggestion.trim_start_matches(|c: char| !c.is_ascii_alphabetic());
        let help = if suggestion.is_empty() {
            "write a name such as q or query".to_owned()
        } else {
            format!("write <name>{}</name>", shorten(suggestion))
        };
        cx.report(
            Checker::at(name.range, format!("textInput name \"{}\" is not a form control name", shorten(name.value)))
                .label("not a name")
                .note("RSS 2.0: name is \"the name of the text object in the text input area\", the name the reader's form submits the text under to the textInput's link; HTML 4.01 §6.2: a name starts with a letter and holds letters, digits, '-', '_', ':' and '.'")
                .help(help),
        );
    }
}
