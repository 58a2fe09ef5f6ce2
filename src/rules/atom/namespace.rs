//! Namespaces near their own: an Atom root element outside the Atom 1.0
//! namespace, and a well-known extension's elements in a namespace that is
//! almost, but not exactly, its own.

use crate::feed::{self, ATOM_NS};
use crate::findings::diagnostic::{shorten, Pending};
use crate::findings::fix::{self, Fix};
use crate::rules::{rule, Checker, Rule};
use crate::xml;

pub static ATOM_WRONG_NAMESPACE: Rule = rule!(
    AtomWrongNamespace, Error, Doc, None,
    groups: [AtomCore],
    summary: "the root element is a <feed> outside the Atom 1.0 namespace: none, a near miss, Atom 0.3's, or (in a file named as a feed) any other",
    spec: "RFC 4287 §2, §4.1.1",
);

/// The Atom 0.3 namespace, replaced by Atom 1.0's in 2005.
const ATOM_03_NS: &str = "http://purl.org/atom/ns#";

/// The finding for a root `<feed>` meant as Atom but outside its namespace:
/// in none, in a near miss of it, or in Atom 0.3's. A `<feed>` of some other
/// vocabulary is not one (it stays `unknown-document`, or is skipped).
pub(crate) fn atom_wrong_namespace(xml: &xml::Tree, explicit: bool) -> Option<Pending> {
    let root = xml.root_element();
    let name = root.tag_name();
    if name.name() != "feed" {
        return None;
    }
    let at = crate::feed::start_tag(root);
    let finding = match name.namespace() {
        None => Pending::new(at, "this <feed> is in no namespace, so it is not an Atom feed")
            .help(format!("declare the Atom namespace: <feed xmlns=\"{ATOM_NS}\">")),
        Some(namespace) if namespace.trim_end_matches('#') == ATOM_03_NS.trim_end_matches('#') => Pending::new(at, "this <feed> is Atom 0.3, a draft replaced by Atom 1.0 (RFC 4287) in 2005")
            .help("convert the feed to Atom 1.0 (namespace http://www.w3.org/2005/Atom: issued and modified become published and updated, tagline becomes subtitle, copyright becomes rights)"),
        Some(namespace) if crate::feed::intended_namespace(namespace) == Some(ATOM_NS) || names_atom(namespace) => {
            Pending::new(at, format!("this <feed> is in the namespace \"{}\", a near miss of Atom's", shorten(namespace)))
                .help(format!("declare the namespace as \"{ATOM_NS}\" (namespace names compare as exact strings)"))
        }
        // A file named, or named like a feed, is meant as one: a <feed> in
        // any other namespace is no Atom feed to any reader. Walked XML of
        // another vocabulary is left alone.
        Some(namespace) if explicit => Pending::new(
            at,
            format!("this <feed> is in the namespace \"{}\", not Atom 1.0's", shorten(namespace)),
        )
        .help(format!("if it is meant as an Atom feed, declare xmlns=\"{ATOM_NS}\"; a feed of another vocabulary is not checked by feedlint")),
        Some(_) => return None,
    };
    Some(
        finding
            .label("not an Atom 1.0 feed")
            .note("RFC 4287 §2: the Atom namespace is \"http://www.w3.org/2005/Atom\"; Atom consumers match elements by namespace and name, so they see no feed here"),
    )
}

/// Whether a namespace name says it means Atom without being Atom 1.0's:
/// it names Atom, or the W3C's 2005 namespaces (`.../2005/Atom1`,
/// `http://www.w3.org/2007/Atom`, `http://www.w3.org/2005/`). A `<feed>`
/// in a namespace that names neither is another vocabulary's.
fn names_atom(namespace: &str) -> bool {
    let lower = namespace.to_ascii_lowercase();
    lower.contains("atom") || lower.contains("w3.org/2005")
}

pub static EXTENSION_NAMESPACE_NEAR_MISS: Rule = rule!(
    ExtensionNamespaceNearMiss, Warning, Doc, Some(extension_namespace_near_miss),
    groups: [AtomCore, RssCore],
    summary: "elements of a well-known extension (content, Dublin Core, Media RSS, iTunes, Podcasting 2.0) in a namespace that is almost, but not exactly, its own",
    spec: "Namespaces in XML §2.3",
);

/// A warning: the document stays conformant (its elements are extensions
/// of an unknown namespace); only what the extension says is lost. One
/// finding per namespace name, at its first declaration: the cause, which
/// the fix corrects (with every other declaration of the same name). The
/// podcast namespaces' near misses are read as the namespaces themselves
/// (`feed::podcast_namespace_read_as`), so no podcast rule also says their
/// elements are missing; they are found among the tree's aliases.
fn extension_namespace_near_miss(cx: &mut Checker) {
    let feed = cx.feed;
    let xml = feed.xml;
    // Each distinct namespace of the document's names once (a document
    // uses a handful), by pointer first: names share their namespace's text.
    let mut namespaces: Vec<&str> = Vec::new();
    for index in 0..xml.name_count() {
        if let Some(namespace) = xml.name_at(index).namespace() {
            let seen = namespaces
                .iter()
                .any(|known| std::ptr::eq(*known, namespace) || *known == namespace);
            if !seen {
                namespaces.push(namespace);
            }
        }
    }
    let aliased = xml.aliases().map(|(written, _)| written);
    let misses: Vec<(&str, &str, &str)> = namespaces
        .into_iter()
        .chain(aliased)
        .filter_map(|namespace| {
            let (meant, what) = feed::intended_extension_namespace(namespace)?;
            Some((namespace, meant, what))
        })
        .collect();
    if misses.is_empty() {
        return;
    }
    // Every declaration of a missed name, in document order: one pass over
    // the start tags, made only where a name is missed.
    let text = xml.input_text();
    let index: crate::base::hash::FastMap<&str, usize> = misses
        .iter()
        .enumerate()
        .map(|(at, (written, _, _))| (*written, at))
        .collect();
    let mut declared: Vec<Vec<xml::Declaration>> = vec![Vec::new(); misses.len()];
    for element in xml.descendants().filter(|n| n.is_element()) {
        for declaration in xml::declarations(text, element) {
            if let Some(&at) = index.get(declaration.value) {
                declared[at].push(declaration);
            }
        }
    }
    for ((written, meant, what), declarations) in misses.into_iter().zip(declared) {
        let Some(first) = declarations.first() else { continue };
        let attribute = first
            .prefix
            .map_or_else(|| "xmlns".to_owned(), |prefix| format!("xmlns:{prefix}"));
        let edits = declarations
            .iter()
            .map(|d| fix::replace(d.value_at.clone(), meant))
            .collect();
        cx.report(
            Checker::at(first.value_at.clone(), format!("{attribute} names \"{}\", not the {what} namespace \"{meant}\"", shorten(written)))
                .label("readers will ignore this extension")
                .note("namespace names are compared as exact strings: case, scheme, \"www.\" and a trailing \"/\" all matter; every element in this namespace is an unknown extension to readers")
                .help(format!("declare the namespace as \"{meant}\""))
                .fix(Fix::safe(format!("Declare the namespace as \"{meant}\""), edits)),
        );
    }
}
