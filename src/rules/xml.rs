//! Findings the engine itself makes: before any document rule can run, and
//! after all have (suppressions).

use super::{rule, Rule};

pub static XML_MALFORMED: Rule = rule!(
    "xml-malformed", Error, Doc, None,
    summary: "the document is not well-formed, namespace-well-formed XML in a known encoding",
    spec: "XML 1.0 §2.1, §2.8, §4.1, §4.3.3; Namespaces in XML §3, §6, §7; RFC 6721 §4",
);

pub static EXTERNAL_DTD_NOT_READ: Rule = rule!(
    "external-dtd-not-read", Info, Doc, None,
    summary: "an entity reference could not be expanded: its declaration is in an external DTD or entity feedlint does not read",
    spec: "XML 1.0 §4.1 (WFC and VC: Entity Declared), §5.1",
);

pub static UNKNOWN_DOCUMENT: Rule = rule!(
    "unknown-document", Info, Doc, None,
    summary: "a file named on the command line is not a feed or Deleted Entry Document",
    spec: "RFC 4287 §4.1.1; RFC 6721 §4, §6",
);

pub static FILE_TOO_LARGE: Rule = rule!(
    "file-too-large", Error, Doc, None,
    summary: "a file is larger than --max-file-size and was not read",
    spec: "feedlint",
);

pub static UNUSED_SUPPRESSION: Rule = rule!(
    "unused-suppression", Warning, Doc, None,
    summary: "a feedlint-disable comment suppresses no finding",
    spec: "feedlint",
);
