//! The document as XML and as a file, group `xml`: the findings the
//! engine itself makes, before any document rule can run and after all have
//! (suppressions).

use crate::findings::diagnostic::shorten;
use crate::findings::diagnostic::{folding_finding, Diagnostic, DocId, Level, Pending};
use crate::findings::fix::{self, Applicability, Edit, Fix};
use crate::findings::rule_id::RuleId;
use crate::findings::source::Source;
use crate::findings::suppress::Suppression;
use crate::rules::atom::namespace::{atom_wrong_namespace, ATOM_WRONG_NAMESPACE};
use crate::rules::{rule, Rule};
use crate::xml;

pub static XML_MALFORMED: Rule = rule!(
    XmlMalformed, Error, Doc, None,
    groups: [Xml],
    summary: "the document is not well-formed, namespace-well-formed XML in a known encoding",
    spec: "XML 1.0 §2.1, §2.8, §4.1, §4.3.3; Namespaces in XML §3, §6, §7; RFC 6721 §4",
);

pub static EXTERNAL_DTD_NOT_READ: Rule = rule!(
    ExternalDtdNotRead, Info, Doc, None,
    groups: [Xml],
    summary: "an entity reference could not be expanded: its declaration is in an external DTD or entity feedlint does not read",
    spec: "XML 1.0 §4.1 (WFC and VC: Entity Declared), §5.1",
);

pub static UNKNOWN_DOCUMENT: Rule = rule!(
    UnknownDocument, Info, Doc, None,
    groups: [Xml],
    summary: "a feed feedlint does not check: RSS 1.0, or an encrypted Deleted Entry Document",
    spec: "RFC 4287 §4.1.1; RFC 6721 §4, §6",
);

pub static NOT_A_FEED: Rule = rule!(
    NotAFeed, Error, Doc, None,
    groups: [Xml],
    summary: "a file named as a feed (given by name, or .atom, .rss, .atomdeleted) is no feed at all",
    spec: "RFC 4287 §4.1.1; RSS 2.0; RFC 6721 §4",
);

pub static FILE_TOO_LARGE: Rule = rule!(
    FileTooLarge, Error, Doc, None,
    groups: [Xml],
    summary: "a file is larger than the file size limit and was not read",
    spec: "feedlint",
);

pub static UNUSED_SUPPRESSION: Rule = rule!(
    UnusedSuppression, Warning, Doc, None,
    groups: [Xml],
    summary: "a feedlint-disable comment suppresses no finding",
    spec: "feedlint",
);

pub static INTERNAL_ERROR: Rule = rule!(
    InternalError, Error, DocAndSet, None,
    groups: [Xml],
    summary: "feedlint failed on this document: a rule (or the analysis) stopped on an internal error, and its findings here are missing",
    spec: "feedlint",
);

/// The `internal-error` finding for `what` (a rule, or the analysis) that
/// panicked with `panic` on a document, at `at` (its start).
pub fn internal_error<S>(at: S, what: &str, panic: &str) -> Pending<S> {
    Pending::new(at, format!("internal error: {what} stopped on this document, so its findings here are missing"))
        .label("this document")
        // feedlint's own words and place, not the feed's: kept whole, but
        // bounded (a message may quote a value).
        .note(format!("what stopped: {}", panic.chars().take(400).collect::<String>()))
        .help("this is a bug in feedlint, not in the feed: please report it with this document; the other documents and rules were checked")
}

/// The `unused-suppression` finding for a suppression that matched nothing.
pub fn unused<S>(suppression: &Suppression, at: S) -> Pending<S> {
    if let Some(written) = &suppression.malformed {
        let message = if written.starts_with('(') {
            format!(
                "the reason '{}' is not closed by a ')' that ends the comment, so the comment suppresses nothing",
                shorten(written)
            )
        } else {
            format!(
                "'{}' is not a feedlint suppression, so it suppresses nothing",
                shorten(written)
            )
        };
        return Pending::new(at, message)
            .label("not a directive")
            .note(format!(
                "the accepted forms: {}",
                crate::findings::suppress::ACCEPTED_FORMS
            ))
            .help("write one of the accepted forms (XML forbids '--' in a comment, so a reason goes in parentheses)");
    }
    let (message, help) = match &suppression.rule {
        Err(unknown) if unknown.is_empty() => (
            format!("{} names no rule, so it suppresses nothing", suppression.directive),
            format!(
                "name the rules to suppress: <!-- {} RULE[, RULE] --> (see 'feedlint rules')",
                suppression.directive
            ),
        ),
        Err(unknown) => (
            format!("{} names unknown rule '{}'", suppression.directive, shorten(unknown)),
            match RuleId::suggest(unknown) {
                Some(near) => format!("did you mean '{near}'? (see 'feedlint rules')"),
                None => "use a rule id from 'feedlint rules'".to_owned(),
            },
        ),
        Ok(rule) if suppression.scope.is_empty() => (
            format!("{} {rule} is followed by no element to apply to", suppression.directive),
            "put the comment right before the element, or remove it".to_owned(),
        ),
        Ok(rule) => (
            format!(
                "{} {rule} suppresses nothing: no {rule} finding is in its scope",
                suppression.directive
            ),
            format!("remove '{rule}' from the comment"),
        ),
    };
    let note = match &suppression.rule {
        Err(unknown) if unknown.is_empty() => "a suppression comment suppresses only the rules it names",
        _ => "a stale suppression would hide the next real finding of this rule",
    };
    Pending::new(at, message)
        .label("unused suppression")
        .note(note)
        .help(help)
}

/// The `unused-suppression` findings of document `doc`'s suppressions that
/// suppressed nothing: the first `max` (all for 0) and one that counts the
/// rest, made only now, so 60,000 stale comments cost 60,000 small places
/// until then, not 60,000 findings.
pub fn unused_findings(suppressions: &[Suppression], doc: DocId, level: Level, max: usize) -> Vec<Diagnostic> {
    let mut stale = suppressions
        .iter()
        .filter(|s| !s.used())
        .filter_map(|s| Some((s, s.located?)));
    let shown = if max == 0 { usize::MAX } else { max };
    let mut found: Vec<Diagnostic> = stale
        .by_ref()
        .take(shown)
        .map(|(s, at)| {
            let mut finding = unused(s, at.in_doc(doc)).into_diagnostic(UNUSED_SUPPRESSION.id, level);
            finding.fix = s.removal_located.map(|removal| Fix {
                title: "Remove the unused suppression".to_owned(),
                applicability: Applicability::Safe,
                edits: vec![Edit {
                    at: removal,
                    replacement: String::new(),
                }],
            });
            finding
        })
        .collect();
    if let Some((_, first)) = stale.next() {
        let n = 1 + stale.count();
        let fold = folding_finding(first.in_doc(doc), UNUSED_SUPPRESSION.id, n, max);
        found.push(fold.into_diagnostic(UNUSED_SUPPRESSION.id, level));
    }
    found
}

/// The one finding for well-formed XML that is no feed feedlint checks;
/// `None` for a walked file of another vocabulary, skipped silently.
pub(crate) fn no_feed_checked(xml: &xml::Tree, explicit: bool) -> Option<(&'static Rule, Pending)> {
    Some(match atom_wrong_namespace(xml, explicit) {
        Some(finding) => (&ATOM_WRONG_NAMESPACE, finding),
        // An RSS 1.0 document is a feed, walked or named: it is said not to
        // be checked, never passed over silently.
        None if is_rss_10(xml) => (&UNKNOWN_DOCUMENT, unknown_document(xml)),
        None if !explicit => return None,
        None if is_encrypted(xml) => (&UNKNOWN_DOCUMENT, unknown_document(xml)),
        // Named as a feed, it is read as one, and every reader fails on it.
        None => (&NOT_A_FEED, not_a_feed(xml)),
    })
}

/// The finding for a web page (HTML) named as a feed: at its first tag,
/// with the feeds it links to, if any, in its help.
pub(crate) fn web_page(source: &Source) -> Pending {
    let text = source.text();
    let start = crate::base::html::web_page_start(text).unwrap_or(0);
    let end = text
        .get(start..)
        .and_then(|rest| rest.find('>'))
        .map_or(text.len(), |close| start + close + 1);
    let finding = Pending::new(start..end, "not a feed: this is a web page (HTML)")
        .label("web page")
        .note("a server or generator often writes a web page (an error page, a login page, the site's home page) where the feed should be; every feed reader fails on it");
    match crate::base::html::feed_links(text).first() {
        Some(link) => finding.help(format!(
            "the page names its feed ({}) at {}: check that address, or publish the feed itself here",
            link.media_type,
            shorten(&link.href)
        )),
        None => finding.help("publish the feed itself here; a web page names its feed in a <link rel=\"alternate\" type=\"application/atom+xml\"> element"),
    }
}

/// The finding for an error the parse read past: at it, with the fix
/// that leaves the document as it was read.
pub(crate) fn read_past(text: &str, recovered: &xml::Recovered) -> Pending {
    let at = recovered.at.clone();
    let finding = Pending::new(at.clone(), format!("not well-formed XML: {}", recovered.message))
        .note("XML 1.0 §2.8: the XML declaration, if present, is the first thing in the document; the rest of the document was checked as if it were where it belongs, but a strict parser (and many feed readers) stops here and reads nothing");
    match recovered.kind {
        xml::RecoveredKind::SpaceBeforeDeclaration => finding
            .label("before the declaration")
            .help("remove what the template or plugin prints before <?xml")
            .fix(Fix::safe(
                "Remove the white space before the XML declaration",
                vec![fix::replace(at, "")],
            )),
        xml::RecoveredKind::DeclarationNotFirst => {
            let declaration = text.get(at.clone()).unwrap_or_default().to_owned();
            finding
                .label("the declaration")
                .help("move the XML declaration to the very start of the document")
                .fix(Fix::safe(
                    "Move the XML declaration to the start",
                    vec![fix::replace(0..0, format!("{declaration}\n")), fix::replace(at, "")],
                ))
        }
    }
}

pub(crate) fn malformed(source: &Source, offset: usize, message: String) -> Pending {
    let offset = offset.min(source.text().len());
    // One character wide, so the snippet shows where; empty at end of file.
    let end = source
        .text()
        .get(offset..)
        .and_then(|rest| rest.chars().next())
        .map_or(offset, |c| offset + c.len_utf8());
    Pending::new(offset..end, format!("not well-formed XML: {message}"))
        .label("here")
        .note("no other rule runs on a document that does not parse")
}

pub(crate) fn unread_entity(unread: &xml::UnreadEntity) -> Pending {
    let name = &unread.name;
    let (message, help) = if unread.declared_external {
        (
            format!("the external entity \"&{name};\" is not read: feedlint never reads files or URLs an entity names, so its text is not checked"),
            "put the text in the document itself, or in an internal entity",
        )
    } else {
        (
            format!("\"&{name};\" is not expanded: it is not declared in the document, and the external DTD or parameter entity that may declare it is not read"),
            "declare the entity in the internal subset (<!DOCTYPE ... [<!ENTITY ...>]>), or write the character as a reference such as &#233;",
        )
    };
    Pending::new(unread.range.clone(), message)
        .label("not expanded")
        .note("the rest of the document is linted; text that uses the entity is read without it, and only the first such reference is reported")
        .help(help)
}

/// The RSS 1.0 namespace (RSS 1.0 §5.1).
const RSS_10_NS: &str = "http://purl.org/rss/1.0/";
const RDF_NS: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";

/// Whether the document is RSS 1.0: an `rdf:RDF` root holding an RSS 1.0
/// `channel` (RSS 1.0 §5.2, §5.3).
fn is_rss_10(xml: &xml::Tree) -> bool {
    let root = xml.root_element();
    root.has_tag_name(Some(RDF_NS), "RDF")
        && root
            .children()
            .any(|child| child.has_tag_name(Some(RSS_10_NS), "channel"))
}

/// The XML Encryption namespace: an encrypted Deleted Entry Document has
/// an `xenc:EncryptedData` root (RFC 6721 §6).
const XENC_NS: &str = "http://www.w3.org/2001/04/xmlenc#";

fn is_encrypted(xml: &xml::Tree) -> bool {
    xml.root_element().has_tag_name(Some(XENC_NS), "EncryptedData")
}

/// A feed feedlint does not check: RSS 1.0, or an encrypted document.
fn unknown_document(xml: &xml::Tree) -> Pending {
    let root = xml.root_element();
    if is_rss_10(xml) {
        return Pending::new(crate::feed::start_tag(root), "this is an RSS 1.0 (RDF Site Summary) document, which feedlint does not check")
            .label("RSS 1.0")
            .note("RSS 1.0 is an RDF vocabulary of its own (root rdf:RDF, namespace http://purl.org/rss/1.0/), not RSS 2.0 and not Atom; feedlint checks Atom, RSS 0.91 to 2.0 and Deleted Entry Documents, so nothing in this file was checked")
            .help("check it with an RDF validator, or publish an Atom or RSS 2.0 feed beside it");
    }
    Pending::new(crate::feed::start_tag(root), "this document is encrypted (xenc:EncryptedData), so feedlint cannot check what it holds")
        .label("encrypted")
        .note("RFC 6721 §6 lets a Deleted Entry Document be encrypted with XML Encryption; only the holder of the key can read the tombstones inside")
}

/// A file named as a feed that is none: an HTML error page saved as
/// `feed.rss`, a sitemap named on the command line.
fn not_a_feed(xml: &xml::Tree) -> Pending {
    let root = xml.root_element();
    let name = root.tag_name();
    let what = match name.namespace() {
        Some(ns) => format!("<{}> in namespace \"{}\"", shorten(name.name()), shorten(ns)),
        None => format!("<{}>", shorten(name.name())),
    };
    let is_html = name.name().eq_ignore_ascii_case("html");
    let finding = Pending::new(crate::feed::start_tag(root), format!("not a feed: the root element is {what}"))
        .label("root element")
        .note(if is_html {
            "this is a web page, not a feed: a server or generator often writes its error page where the feed should be; every feed reader fails on it"
        } else {
            "a feed's root is atom:feed (RFC 4287 §4.1.1), RSS's rss, or at:deleted-entry (RFC 6721 §4); a reader given this file finds no feed in it"
        });
    match name.namespace().and_then(crate::feed::intended_namespace) {
        Some(intended) => finding.help(format!(
            "the namespace is a near miss: declare it as \"{intended}\" (namespace names compare as exact strings)"
        )),
        None => finding.help("publish the feed in this file, or name it so that it is not taken for one (.xml files found in a directory are linted only when they are feeds)"),
    }
}
