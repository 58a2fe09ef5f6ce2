//! Findings the engine itself makes: before any document rule can run, and
//! after all have (suppressions).

use super::{rule, Rule};
use crate::diagnostic::shorten;
use crate::diagnostic::{folding_finding, Diagnostic, DocId, Level, Pending};
use crate::fix::{Applicability, Edit, Fix};
use crate::rule_id::RuleId;
use crate::suppress::Suppression;

pub static XML_MALFORMED: Rule = rule!(
    XmlMalformed, Error, Doc, None,
    groups: ["xml"],
    summary: "the document is not well-formed, namespace-well-formed XML in a known encoding",
    spec: "XML 1.0 §2.1, §2.8, §4.1, §4.3.3; Namespaces in XML §3, §6, §7; RFC 6721 §4",
);

pub static EXTERNAL_DTD_NOT_READ: Rule = rule!(
    ExternalDtdNotRead, Info, Doc, None,
    groups: ["xml"],
    summary: "an entity reference could not be expanded: its declaration is in an external DTD or entity feedlint does not read",
    spec: "XML 1.0 §4.1 (WFC and VC: Entity Declared), §5.1",
);

pub static UNKNOWN_DOCUMENT: Rule = rule!(
    UnknownDocument, Info, Doc, None,
    groups: ["xml"],
    summary: "a feed feedlint does not check: RSS 1.0, or an encrypted Deleted Entry Document",
    spec: "RFC 4287 §4.1.1; RFC 6721 §4, §6",
);

pub static NOT_A_FEED: Rule = rule!(
    NotAFeed, Error, Doc, None,
    groups: ["xml"],
    summary: "a file named as a feed (on the command line, or .atom, .rss, .atomdeleted) is no feed at all",
    spec: "RFC 4287 §4.1.1; RSS 2.0; RFC 6721 §4",
);

pub static ATOM_WRONG_NAMESPACE: Rule = rule!(
    AtomWrongNamespace, Error, Doc, None,
    groups: ["atom-core"],
    summary: "the root element is a <feed> outside the Atom 1.0 namespace: none, a near miss, Atom 0.3's, or (in a file named as a feed) any other",
    spec: "RFC 4287 §2, §4.1.1",
);

pub static FILE_TOO_LARGE: Rule = rule!(
    FileTooLarge, Error, Doc, None,
    groups: ["xml"],
    summary: "a file is larger than --max-file-size and was not read",
    spec: "feedlint",
);

pub static UNUSED_SUPPRESSION: Rule = rule!(
    UnusedSuppression, Warning, Doc, None,
    groups: ["xml"],
    summary: "a feedlint-disable comment suppresses no finding",
    spec: "feedlint",
);

pub static INTERNAL_ERROR: Rule = rule!(
    InternalError, Error, DocAndSet, None,
    groups: ["xml"],
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
            .note(format!("the accepted forms: {}", crate::suppress::ACCEPTED_FORMS))
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
