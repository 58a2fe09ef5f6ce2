//! feedlint: a conformance linter for syndication feeds that span several
//! documents or record deletions (RFC 5005 paging and archiving, RFC 6721
//! tombstones, the feed-history draft), in Atom and RSS 2.0.
//!
//! A run is four steps that pass plain data, in [`run`]:
//!
//! 1. [`run::discover`]: inputs (paths, directories, standard input) become
//!    the documents to lint, with names, files and URLs, and their bytes;
//!    the files the analyzed documents link to are read as context for
//!    step 3;
//! 2. [`run::analyze`]: one document's bytes become its findings and a
//!    [`model::summary::DocSummary`], with no I/O: each is decoded
//!    ([`findings::source`]), parsed by feedlint's own strict XML parser
//!    ([`xml`]: XML 1.0 and Namespaces well-formedness, linear on every
//!    input, no external entity ever read), viewed as a feed ([`feed`]) and
//!    checked by every enabled rule ([`rules`]); its tree is then dropped;
//! 3. the set checks ([`model::set`] and the set rules) read the summaries
//!    of all documents together;
//! 4. [`run::assemble`]: levels, suppressions, sorting and folding make the
//!    [`Report`], which [`report`] renders.
//!
//! [`lint`], [`lint_bytes`] and [`lint_in_memory`] run them all.
//!
//! The API is what this page re-exports: documents go in as paths
//! ([`Input`]) or bytes with URLs as text ([`InMemory`]); a [`Report`] of
//! [`Diagnostic`]s ([`RuleId`], [`Level`], message, [`Span`]s with byte
//! offsets, lines and columns) comes out. Errors are types ([`InvalidUrl`],
//! [`UnknownRule`], [`Failure`]), and no other crate's type appears in it.
//! The modules are the implementation, public for the tests, benchmarks
//! and fuzzers; they may change between releases.
//!
//! Linting one document held in memory, as an editor integration would:
//!
//! ```
//! use feedlint::{lint_bytes, Level, Options};
//!
//! let feed = br#"<feed xmlns="http://www.w3.org/2005/Atom"
//!       xmlns:fh="http://purl.org/syndication/history/1.0">
//!   <title>Example</title> <id>tag:example.org,2003:feed</id>
//!   <updated>2003-11-30T00:00:00Z</updated> <author><name>A</name></author>
//!   <link rel="self" href="/2003/11.atom"/>
//!   <link rel="current" href="index.atom"/>
//!   <link rel="next-archive" href="index.atom"/> <fh:archive/>
//! </feed>"#;
//! let url = "https://example.org/2003/11.atom";
//! let report = lint_bytes("11.atom", Some(url), feed, &Options::default()).unwrap();
//!
//! let finding = &report.diagnostics[0];
//! assert_eq!(finding.rule, "next-archive-unsealed");
//! assert_eq!(finding.level, Level::Error);
//! assert_eq!((finding.primary().line_start, finding.primary().column_start), (7, 34));
//! ```

#![forbid(unsafe_code)]

// The stages, lowest first: a folder builds on the ones above it and never
// on one below (tests/it/architecture.rs reads this order and holds the
// code to it; the command line, `cli/`, is the binary's and comes last).
// A blank line between them keeps rustfmt from sorting them.
pub mod base;

pub mod text;

pub mod xml;

pub mod json;

pub mod findings;

pub mod feed;

pub mod model;

pub mod rules;

pub mod settings;

pub mod site;

pub mod report;

pub mod run;

pub mod fetch;

pub mod lsp;

pub mod web;

pub use findings::diagnostic::{Diagnostic, Level, Span};
pub use findings::rule_id::{RuleId, UnknownRule};
pub use model::document::Document;
pub use model::failure::{Failure, Unreached};
pub use report::{Report, Sink};
pub use run::discover::Input;
pub use run::entry::{lint, lint_bytes, lint_in_memory, lint_into, InMemory};
pub use run::uploads::{lint_upload, Upload};
pub use settings::config::Levels;
pub use settings::options::{
    FrontDoor, HubCheck, InvalidUrl, MediaCheck, Options, Overrides, Resolved, Walked, DEFAULT_MAX_FILE_SIZE,
    DEFAULT_MAX_FINDINGS,
};
