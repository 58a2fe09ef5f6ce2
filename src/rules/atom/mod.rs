//! The core of Atom 1.0 (RFC 4287 §4.1): the elements a feed and an entry
//! must have, how many of each, and the text, content, person and
//! category constructs. Each check reads the children of the containers
//! once.

use crate::findings::diagnostic::shorten;
use crate::xml::Node;

use crate::feed::{self, start_tag, AtomName, DocKind, FeedDoc, Rel, Text};
use crate::rules::{rule, Checker, Rule};

pub(crate) mod identity;
pub(crate) mod links;
pub(crate) mod namespace;
pub(crate) mod values;
pub(crate) mod vocabulary;

/// The Atom containers of the document: the feed, then its entries (an
/// Entry Document's one entry).
fn atom_containers<'d, 'a, 'i>(feed: &'d FeedDoc<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> + 'd {
    let is_atom = feed.kind == DocKind::Atom;
    feed.head.filter(|_| is_atom).into_iter().chain(atom_entries(feed))
}

/// The entries of an Atom feed, or an Atom Entry Document's entry.
fn atom_entries<'d, 'a, 'i>(feed: &'d FeedDoc<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> + 'd {
    let is_atom = feed.kind.is_atom();
    feed.entries.iter().filter(move |_| is_atom).map(|entry| entry.node)
}

/// The Atom children of `container` named `name` (matched by the name's
/// number in the document: the core rules read every entry's children).
fn atom_children<'a, 'i>(
    feed: &FeedDoc<'a, 'i>,
    container: Node<'a, 'i>,
    name: AtomName,
) -> impl Iterator<Item = Node<'a, 'i>> {
    let names = feed.atom_names;
    container.children().filter(move |child| names.is(*child, name))
}

fn has_atom_child(feed: &FeedDoc, container: Node, name: AtomName) -> bool {
    container.children().any(|child| feed.atom_names.is(child, name))
}

/// `atom:feed` or `atom:entry`, as messages name a container.
fn qualified(container: Node) -> String {
    format!("atom:{}", container.tag_name().name())
}

/// The finding for a feed or entry without a required child.
fn report_missing(cx: &mut Checker, child: AtomName, section: &str, help: &str) {
    let feed = cx.feed;
    let local = child.local();
    let missing: Vec<Node> = atom_containers(feed)
        .filter(|c| !has_atom_child(feed, *c, child))
        .collect();
    for container in missing {
        let name = qualified(container);
        cx.report(
            Checker::at(start_tag(container), format!("this {name} has no atom:{local}"))
                .label(format!("no atom:{local}"))
                .note(format!(
                    "RFC 4287 {section}: {name} elements MUST contain exactly one atom:{local} element"
                ))
                .help(help.to_owned()),
        );
    }
}

pub static ATOM_MISSING_ID: Rule = rule!(
    AtomMissingId, Error, Doc, Some(atom_missing_id),
    groups: [AtomCore],
    summary: "an atom:feed or atom:entry has no atom:id",
    spec: "RFC 4287 §4.1.1, §4.1.2, §4.2.6",
);

fn atom_missing_id(cx: &mut Checker) {
    report_missing(
        cx,
        AtomName::Id,
        "§4.1.1, §4.1.2",
        "add <id> with a permanent, universally unique IRI, such as a tag: URI (tag:example.org,2024:feed) that never changes",
    );
}

pub static ATOM_MISSING_TITLE: Rule = rule!(
    AtomMissingTitle, Error, Doc, Some(atom_missing_title),
    groups: [AtomCore],
    summary: "an atom:feed or atom:entry has no atom:title",
    spec: "RFC 4287 §4.1.1, §4.1.2, §4.2.14",
);

fn atom_missing_title(cx: &mut Checker) {
    report_missing(
        cx,
        AtomName::Title,
        "§4.1.1, §4.1.2",
        "add <title> with a human-readable title (it may be empty: <title/>)",
    );
}

pub static ATOM_MISSING_UPDATED: Rule = rule!(
    AtomMissingUpdated, Error, Doc, Some(atom_missing_updated),
    groups: [AtomCore],
    summary: "an atom:feed or atom:entry has no atom:updated",
    spec: "RFC 4287 §4.1.1, §4.1.2, §4.2.15",
);

fn atom_missing_updated(cx: &mut Checker) {
    report_missing(
        cx,
        AtomName::Updated,
        "§4.1.1, §4.1.2",
        "add <updated> with the time of the last significant change, e.g. 2003-12-13T18:30:02Z",
    );
}

pub static ATOM_MISSING_AUTHOR: Rule = rule!(
    AtomMissingAuthor, Error, Doc, Some(atom_missing_author),
    groups: [AtomCore],
    summary: "an atom:entry has no atom:author, and neither has its atom:source nor its feed",
    spec: "RFC 4287 §4.1.1, §4.1.2",
);

fn atom_missing_author(cx: &mut Checker) {
    let feed = cx.feed;
    if feed.kind == DocKind::AtomEntry {
        return entry_document_missing_author(cx);
    }
    let Some(head) = feed.head.filter(|_| feed.kind == DocKind::Atom) else {
        return;
    };
    if has_atom_child(feed, head, AtomName::Author) {
        return;
    }
    let without: Vec<Node> = feed
        .entries
        .iter()
        .map(|e| e.node)
        .filter(|e| !entry_has_author(feed, *e))
        .collect();
    // A feed without entries needs no author: "unless all of the atom:feed
    // element's child atom:entry elements contain at least one atom:author
    // element" holds of no entries (RFC 4287 §4.1.1).
    for entry in without {
        cx.report(
            Checker::at(start_tag(entry), "this atom:entry has no atom:author, and neither has its feed (nor an atom:source of the entry)")
                .label("no author")
                .secondary(start_tag(head), "the feed, without atom:author")
                .note("RFC 4287 §4.1.2: atom:entry elements MUST contain one or more atom:author elements, unless the atom:entry contains an atom:source element that contains an atom:author element or, in an Atom Feed Document, the atom:feed element contains an atom:author element itself")
                .help("add <author><name>...</name></author> to the feed (it then stands for every entry) or to this entry"),
        );
    }
}

/// Whether an entry names its author, itself or in its atom:source.
fn entry_has_author(feed: &FeedDoc, entry: Node) -> bool {
    let names = feed.atom_names;
    entry.children().any(|child| {
        names.is(child, AtomName::Author)
            || (names.is(child, AtomName::Source) && has_atom_child(feed, child, AtomName::Author))
    })
}

/// An Atom Entry Document's entry has no feed to inherit an author from
/// (RFC 4287 §4.1.2 names the feed's author only "in an Atom Feed
/// Document"): it needs its own, or its atom:source's.
fn entry_document_missing_author(cx: &mut Checker) {
    let feed = cx.feed;
    let entry = feed.root;
    if entry_has_author(feed, entry) {
        return;
    }
    cx.report(
        Checker::at(start_tag(entry), "this Atom Entry Document's entry has no atom:author, and no atom:source with one")
            .label("no author")
            .note("RFC 4287 §4.1.2: atom:entry elements MUST contain one or more atom:author elements, unless the atom:entry contains an atom:source element that contains an atom:author element or, in an Atom Feed Document, the atom:feed element contains an atom:author element itself; an Entry Document has no feed to inherit from")
            .help("add <author><name>...</name></author> to the entry, or an atom:source that names the feed's author"),
    );
}

pub static ATOM_DUPLICATE_ELEMENT: Rule = rule!(
    AtomDuplicateElement, Error, Doc, Some(atom_duplicate_element),
    groups: [AtomCore],
    summary: "an atom:feed, atom:entry, atom:author or atom:contributor has more than one of an element it may have only once",
    spec: "RFC 4287 §4.1.1, §4.1.2, §3.2",
);

fn atom_duplicate_element(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    // The copies were found while the children were gathered.
    for &(container, duplicate, first) in &feed.atom_parts().duplicates {
        findings.push((container, duplicate, first));
    }
    for (container, duplicate, first) in findings {
        let name = qualified(container);
        let child = duplicate.tag_name().name();
        let rule = if feed.atom_names.is(container, AtomName::Source) {
            format!("RFC 4287 §4.2.11: atom:source holds the metadata of the entry's feed, and §4.1.1 says atom:feed elements MUST NOT contain more than one atom:{child} element")
        } else {
            format!("RFC 4287: {name} elements MUST NOT contain more than one atom:{child} element")
        };
        cx.report(
            Checker::at(start_tag(duplicate), format!("a second atom:{child} in this {name}"))
                .label("duplicate")
                .secondary(start_tag(first), "the first")
                .note(format!("{rule}; consumers keep one of them, unpredictably"))
                .help("keep one of them"),
        );
    }
}

pub static ATOM_ENTRY_MISSING_ALTERNATE: Rule = rule!(
    AtomEntryMissingAlternate, Error, Doc, Some(atom_entry_missing_alternate),
    groups: [AtomCore],
    summary: "an atom:entry has neither atom:content nor an alternate link",
    spec: "RFC 4287 §4.1.2",
);

fn atom_entry_missing_alternate(cx: &mut Checker) {
    let feed = cx.feed;
    let entries = atom_entries(feed);
    // The entries that hold content, in document order: the texts are
    // gathered entry by entry, and only entries may hold atom:content.
    let names = feed.atom_names;
    let texts = feed.atom_parts().texts.iter();
    let mut with_content = texts
        .filter(|t| names.is(*t, AtomName::Content))
        .filter_map(|content| content.parent())
        .map(|entry| entry.id())
        .peekable();
    let without: Vec<Node> = entries
        .filter(|entry| {
            while with_content.next_if(|id| *id < entry.id()).is_some() {}
            with_content.peek() != Some(&entry.id())
        })
        .filter(|entry| {
            !atom_children(feed, *entry, AtomName::Link)
                .any(|link| Rel::of(link.attribute("rel")).as_str() == "alternate")
        })
        .collect();
    for entry in without {
        cx.report(
            Checker::at(start_tag(entry), "this atom:entry has no atom:content and no alternate link: a reader has nothing to show or open")
                .label("no content, no alternate link")
                .note("RFC 4287 §4.1.2: atom:entry elements that contain no child atom:content element MUST contain at least one atom:link element with a rel attribute value of \"alternate\"")
                .help("add <link rel=\"alternate\" href=\"...\"/> to the entry's web page (a link without rel is an alternate link), or add <content>"),
        );
    }
}

pub static ATOM_ENTRY_MISSING_SUMMARY: Rule = rule!(
    AtomEntryMissingSummary, Error, Doc, Some(atom_entry_missing_summary),
    groups: [AtomCore],
    summary: "an atom:entry whose content is out of line (src) or Base64-encoded has no atom:summary",
    spec: "RFC 4287 §4.1.2, §4.1.3",
);

/// Why an entry's content needs a summary beside it, if it does.
fn content_needs_summary(content: Node) -> Option<String> {
    if content.has_attribute("src") {
        return Some("its atom:content has a src attribute, so the entry itself holds none".to_owned());
    }
    let media_type = content.attribute("type")?.trim();
    let base64 =
        crate::base::syntax::is_media_type(media_type) && !crate::base::syntax::is_xml_or_text_media_type(media_type);
    base64.then(|| format!("its atom:content is {media_type}, Base64-encoded"))
}

fn atom_entry_missing_summary(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    // Only content with a src or a type other than text and html can need
    // a summary: the entries of the others are not looked at.
    let contents = feed.atom_parts().remarkable_texts.iter();
    for content in contents.filter(|c| feed.atom_names.is(*c, AtomName::Content)) {
        let Some(entry) = content.parent_element() else {
            continue;
        };
        let first_content = atom_children(feed, entry, AtomName::Content).next();
        if first_content != Some(content) || has_atom_child(feed, entry, AtomName::Summary) {
            continue;
        }
        if let Some(why) = content_needs_summary(content) {
            findings.push((entry, content, why));
        }
    }
    for (entry, content, why) in findings {
        cx.report(
            Checker::at(start_tag(entry), format!("this atom:entry has no atom:summary, but {why}"))
                .label("no atom:summary")
                .secondary(start_tag(content), "the content")
                .note("RFC 4287 §4.1.2: atom:entry elements MUST contain an atom:summary element if the atom:content has a \"src\" attribute, or is of a media type that is not XML and not text (Base64-encoded)")
                .help("add <summary> with a short text readers can show in place of the content"),
        );
    }
}

pub static ATOM_INVALID_TYPE: Rule = rule!(
    AtomInvalidType, Error, Doc, Some(atom_invalid_type),
    groups: [AtomCore],
    summary: "a text construct's type is not text, html or xhtml, or atom:content's is neither those nor a media type",
    spec: "RFC 4287 §3.1.1, §4.1.3.1",
);

fn atom_invalid_type(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for element in feed.atom_parts().remarkable_texts.iter() {
        let Some(attribute) = element.attribute_node("type") else {
            continue;
        };
        let value = attribute.value();
        let is_content = element.tag_name().name() == "content";
        let allowed = matches!(value, "text" | "html" | "xhtml")
            || (is_content
                && crate::base::syntax::is_media_type(value)
                && !crate::base::syntax::is_composite_media_type(value));
        if !allowed {
            findings.push((attribute.range_value(), element, value.to_owned(), is_content));
        }
    }
    for (at, element, value, is_content) in findings {
        let name = element.tag_name().name();
        let allowed = if is_content {
            "\"text\", \"html\", \"xhtml\" or a media type such as \"image/png\""
        } else {
            "\"text\", \"html\" or \"xhtml\""
        };
        let lower = value.trim().to_ascii_lowercase();
        let suggestion = match lower.as_str() {
            "text" | "html" | "xhtml" => Some(lower.clone()),
            "text/plain" if !is_content => Some("text".to_owned()),
            "text/html" if !is_content => Some("html".to_owned()),
            "application/xhtml+xml" if !is_content => Some("xhtml".to_owned()),
            _ => None,
        };
        let help = match suggestion {
            Some(fixed) => format!("write type=\"{fixed}\""),
            None => format!("write one of {allowed}"),
        };
        let shown = crate::findings::diagnostic::shorten(&value);
        let finding = if is_content && crate::base::syntax::is_composite_media_type(&value) {
            Checker::at(at, format!("atom:content has type=\"{shown}\", a composite media type"))
                .label("composite type")
                .note("RFC 4287 §4.1.3.1: \"the value of the type attribute MUST NOT be a composite type\" (multipart/*, message/*): inline content is one document, and a consumer has no way to take such a one apart")
                .help("link to the composite document with src, or inline one of its parts with that part's media type")
        } else {
            Checker::at(at, format!("atom:{name} has type=\"{shown}\", which Atom does not define here"))
                .label("not a type of this element")
                .note(format!("RFC 4287 {}: the value of \"type\" MUST be {allowed}; consumers that do not recognise it may show the text as something it is not", if is_content { "§4.1.3.1" } else { "§3.1.1" }))
                .help(help)
        };
        cx.report(finding);
    }
}

pub static ATOM_XHTML_MISSING_DIV: Rule = rule!(
    AtomXhtmlMissingDiv, Error, Doc, Some(atom_xhtml_missing_div),
    groups: [AtomCore],
    summary: "type=\"xhtml\" text or content that is not a single XHTML div",
    spec: "RFC 4287 §3.1.1.3, §4.1.3.3",
);

/// Why an element's XHTML content is not one `xhtml:div`, if it is not.
fn not_one_div(element: Node) -> Option<&'static str> {
    let mut divs = 0;
    for child in element.children() {
        if child.is_text() {
            if child.text().is_some_and(|t| !t.trim().is_empty()) {
                return Some("it has text outside the div");
            }
        } else if child.is_element() {
            if !child.has_tag_name(Some(feed::XHTML_NS), "div") {
                return Some(if child.tag_name().name() == "div" {
                    "its div is not in the XHTML namespace"
                } else {
                    "its content is not wrapped in an XHTML div"
                });
            }
            divs += 1;
        }
    }
    match divs {
        0 => Some("it has no XHTML div"),
        1 => None,
        _ => Some("it has more than one div"),
    }
}

fn atom_xhtml_missing_div(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for element in feed.atom_parts().remarkable_texts.iter() {
        if element.attribute("type") != Some("xhtml") || element.has_attribute("src") {
            continue;
        }
        if let Some(why) = not_one_div(element) {
            findings.push((element, why));
        }
    }
    for (element, why) in findings {
        cx.report(
            Checker::at(start_tag(element), format!("atom:{} has type=\"xhtml\", but {why}", element.tag_name().name()))
                .label("not a single XHTML div")
                .note("RFC 4287 §3.1.1.3: the content of an xhtml construct MUST be a single XHTML div element; the div itself is not part of the content, so consumers drop it, and whatever stands beside it is lost or shown as the wrong thing")
                .help("wrap the content in <div xmlns=\"http://www.w3.org/1999/xhtml\">...</div>"),
        );
    }
}

pub static ATOM_XHTML_FOREIGN_ELEMENT: Rule = rule!(
    AtomXhtmlForeignElement, Warning, Doc, Some(atom_xhtml_foreign_element),
    groups: [AtomCore],
    summary: "an element inside type=\"xhtml\" content that is not XHTML (MathML and SVG aside)",
    spec: "RFC 4287 §3.1.1.3, §4.1.3.3",
);

/// Vocabularies that XHTML documents embed, which XHTML readers render.
const EMBEDDED_IN_XHTML: [&str; 2] = ["http://www.w3.org/1998/Math/MathML", "http://www.w3.org/2000/svg"];

fn atom_xhtml_foreign_element(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for element in feed.atom_parts().remarkable_texts.iter() {
        if element.attribute("type") != Some("xhtml") || element.has_attribute("src") {
            continue;
        }
        for div in element
            .children()
            .filter(|c| c.has_tag_name(Some(feed::XHTML_NS), "div"))
        {
            // The outermost foreign element of each subtree: what is inside
            // it is its own vocabulary's.
            let mut inside_until = 0;
            for node in div.descendants().skip(1).filter(Node::is_element) {
                if node.range().start < inside_until {
                    continue;
                }
                let namespace = node.tag_name().namespace();
                if namespace == Some(feed::XHTML_NS) {
                    continue;
                }
                inside_until = node.range().end;
                if namespace.is_some_and(|ns| EMBEDDED_IN_XHTML.contains(&ns)) {
                    continue;
                }
                findings.push((element, node));
            }
        }
    }
    for (element, node) in findings {
        let name = node.tag_name();
        let place = match name.namespace() {
            Some(ns) => format!("in the namespace \"{}\"", crate::findings::diagnostic::shorten(ns)),
            None => "in no namespace".to_owned(),
        };
        cx.report(
            Checker::at(start_tag(node), format!("<{}> in this XHTML content is {place}, not XHTML", crate::findings::diagnostic::shorten(name.name())))
                .label("not XHTML")
                .secondary(start_tag(element), format!("atom:{} type=\"xhtml\"", element.tag_name().name()))
                .note("RFC 4287 §3.1.1.3: xhtml content is a single XHTML div element and \"SHOULD be suitable for handling as XHTML\"; readers render the div as XHTML, and drop or mangle elements of other vocabularies (an Atom element quoted there is content, and read by no rule)")
                .help("write it as XHTML, escape it to show it as text, or move it out of the content"),
        );
    }
}

pub static ATOM_PERSON_MISSING_NAME: Rule = rule!(
    AtomPersonMissingName, Error, Doc, Some(atom_person_missing_name),
    groups: [AtomCore],
    summary: "an atom:author or atom:contributor has no atom:name",
    spec: "RFC 4287 §3.2, §3.2.1",
);

fn atom_person_missing_name(cx: &mut Checker) {
    let feed = cx.feed;
    let people: Vec<Node> = feed
        .atom_parts()
        .persons
        .iter()
        .filter(|person| !has_atom_child(feed, *person, AtomName::Name))
        .collect();
    for person in people {
        let name = person.tag_name().name();
        cx.report(
            Checker::at(start_tag(person), format!("this atom:{name} has no atom:name"))
                .label("no name")
                .note("RFC 4287 §3.2.1: a Person construct MUST contain exactly one atom:name element; an atom:uri or atom:email alone does not name anyone")
                .help(format!("add <name>...</name> to the {name}")),
        );
    }
}

pub static ATOM_CATEGORY_MISSING_TERM: Rule = rule!(
    AtomCategoryMissingTerm, Error, Doc, Some(atom_category_missing_term),
    groups: [AtomCore],
    summary: "an atom:category has no term attribute",
    spec: "RFC 4287 §4.2.2.1",
);

fn atom_category_missing_term(cx: &mut Checker) {
    let feed = cx.feed;
    let categories: Vec<Node> = feed
        .atom_parts()
        .categories
        .iter()
        .filter(|category| !category.has_attribute("term"))
        .collect();
    for category in categories {
        if let Some(misspelt) = crate::rules::misspelt_attribute(category, "term") {
            cx.report(
                Checker::at(
                    misspelt.range(),
                    format!(
                        "this atom:category has no term attribute, but a {}",
                        crate::findings::diagnostic::shorten(misspelt.name())
                    ),
                )
                .label("meant term?")
                .note("RFC 4287 §4.2.2.1: atom:category elements MUST have a \"term\" attribute")
                .help("write term: attribute names are exact and case-sensitive")
                .fix_if(crate::rules::rename_attribute(feed, misspelt, "term")),
            );
            continue;
        }
        let text = Text::of(category);
        let mut finding = Checker::at(start_tag(category), "this atom:category has no term attribute")
            .label("no term")
            .note("RFC 4287 §4.2.2.1: atom:category elements MUST have a \"term\" attribute; the category's name is there, not in the element's content (which Atom leaves undefined)");
        finding = if text.value.is_empty() {
            finding.help("add term=\"...\" with the category's name")
        } else {
            finding.help(format!(
                "write <category term=\"{}\"/>",
                crate::findings::diagnostic::shorten(text.value)
            ))
        };
        cx.report(finding);
    }
}

pub static ATOM_INVALID_CONTENT_SRC: Rule = rule!(
    AtomInvalidContentSrc, Error, Doc, Some(atom_invalid_content_src),
    groups: [AtomCore],
    summary: "atom:content with src is not empty, or its type is text, html or xhtml",
    spec: "RFC 4287 §4.1.3.1, §4.1.3.2",
);

fn atom_invalid_content_src(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    let texts = feed.atom_parts().remarkable_texts.iter();
    let contents = texts.filter(|t| feed.atom_names.is(*t, AtomName::Content));
    for content in contents.filter(|c| c.has_attribute("src")) {
        let has_content = content
            .children()
            .any(|child| child.is_element() || (child.is_text() && child.text().is_some_and(|t| !t.trim().is_empty())));
        if has_content {
            findings.push((
                start_tag(content),
                "this atom:content has a src attribute, but content of its own too".to_owned(),
                "remove the element's content (the src is the content), or remove src",
            ));
        }
        if let Some(attribute) = content
            .attribute_node("type")
            .filter(|t| matches!(t.value(), "text" | "html" | "xhtml"))
        {
            findings.push((
                attribute.range_value(),
                format!(
                    "this atom:content has a src attribute, so its type must be a media type, not \"{}\"",
                    attribute.value()
                ),
                "write the media type of what src names, e.g. type=\"text/html\"",
            ));
        }
    }
    for (at, message, help) in findings {
        cx.report(
            Checker::at(at, message)
                .label("out-of-line content")
                .note("RFC 4287 §4.1.3.2: if the \"src\" attribute is present, atom:content MUST be empty; §4.1.3.1: its \"type\" MUST be a MIME media type, rather than \"text\", \"html\", or \"xhtml\"")
                .help(help),
        );
    }
}

pub static ATOM_XML_CONTENT_NOT_A_DOCUMENT: Rule = rule!(
    AtomXmlContentNotADocument, Warning, Doc, Some(atom_xml_content_not_a_document),
    groups: [AtomCore],
    summary: "an atom:content of an XML media type that does not hold one element: text beside it, several, or none",
    spec: "RFC 4287 §4.1.3.3",
);

/// What keeps an XML media type's content from being one XML document, if
/// anything: the element count, or text beside the element.
fn not_one_document(content: Node) -> Option<(String, std::ops::Range<usize>)> {
    let elements: Vec<Node> = content.children().filter(|c| c.is_element()).collect();
    let text = content
        .children()
        .find(|c| c.is_text() && c.text().is_some_and(|t| !t.trim().is_empty()));
    match (&elements[..], text) {
        ([], _) => Some(("holds no element, only text".to_owned(), start_tag(content))),
        ([_], Some(text)) => Some(("holds text beside its element".to_owned(), text.range())),
        ([_], None) => None,
        ([_, second, ..], _) => Some((
            format!("holds {} elements, not one", elements.len()),
            start_tag(*second),
        )),
    }
}

/// A warning: RFC 4287 says the content SHOULD be suitable for handling as
/// the media type, which for XML means one root element and no text
/// outside it (XML 1.0 §2.1).
fn atom_xml_content_not_a_document(cx: &mut Checker) {
    let feed = cx.feed;
    let texts = feed.atom_parts().remarkable_texts.iter();
    let contents = texts.filter(|t| feed.atom_names.is(*t, AtomName::Content) && !t.has_attribute("src"));
    let findings: Vec<(String, String, std::ops::Range<usize>)> = contents
        .filter_map(|content| {
            let media_type = content.attribute("type")?;
            if !crate::base::syntax::is_xml_media_type(media_type) {
                return None;
            }
            let (why, at) = not_one_document(content)?;
            Some((media_type.to_owned(), why, at))
        })
        .collect();
    for (media_type, why, at) in findings {
        cx.report(
            Checker::at(at, format!("this atom:content of type \"{}\" {why}", shorten(&media_type)))
                .label("not one XML document")
                .note("RFC 4287 §4.1.3.3: content of an XML media type \"SHOULD be suitable for handling as the indicated media type\", which \"would normally mean that the atom:content element would contain a single child element that would serve as the root element of the XML document\"; an XML document has one root element and no text beside it")
                .help("put the document's one root element alone in atom:content; for text, use type=\"text\" or a text/ media type"),
        );
    }
}

pub static ATOM_RELATIVE_CATEGORY_SCHEME: Rule = rule!(
    AtomRelativeCategoryScheme, Error, Doc, Some(atom_relative_category_scheme),
    groups: [AtomCore],
    summary: "an atom:category's scheme is a relative reference, not an IRI",
    spec: "RFC 4287 §4.2.2.2; RFC 3987 §2.2",
);

fn atom_relative_category_scheme(cx: &mut Checker) {
    let feed = cx.feed;
    let relative: Vec<_> = feed
        .atom_parts()
        .categories
        .iter()
        .filter_map(|category| category.attribute_node("scheme"))
        .filter(|scheme| {
            // An invalid reference is invalid-iri's; an empty one is relative.
            crate::text::iri::check_iri_reference(scheme.value()).is_ok()
                && !crate::text::iri::has_scheme(scheme.value())
        })
        .collect();
    for scheme in relative {
        cx.report(
            Checker::at(scheme.range_value(), format!("scheme=\"{}\" is a relative reference, not an IRI", shorten(scheme.value())))
                .label("relative")
                .note("RFC 4287 §4.2.2.2: \"The \\\"scheme\\\" attribute is an IRI that identifies a categorization scheme\"; an IRI has a scheme of its own (RFC 3987 §2.2; RFC 4287 §4.2.6 notes that the definition of IRI excludes relative references), and consumers compare schemes as strings, never resolving them")
                .help("write the scheme's absolute IRI, e.g. scheme=\"https://example.org/categories\""),
        );
    }
}
