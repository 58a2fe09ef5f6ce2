//! feedlint: a conformance linter for syndication feeds that span several
//! documents or record deletions (RFC 5005 paging and archiving, RFC 6721
//! tombstones, the feed-history draft), in Atom and RSS 2.0.
//!
//! The flow of a run: [`lint`] gathers the documents, each is decoded
//! ([`source`]), parsed safely ([`xml`]), viewed as a feed ([`feed`]) and
//! checked by every enabled rule ([`rules`]); its DOM is then dropped and a
//! [`summary::DocSummary`] kept. [`report`] renders the sorted findings.

pub mod config;
pub mod diagnostic;
mod engine;
pub mod feed;
pub mod iri;
pub mod report;
pub mod rules;
pub mod source;
pub mod summary;
pub mod xml;

pub use config::{Levels, UnknownRule};
pub use diagnostic::{Diagnostic, Level, Span};
pub use engine::{lint, lint_bytes, Document, Input, Options, Report};
