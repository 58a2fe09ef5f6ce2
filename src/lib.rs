//! feedlint: a conformance linter for syndication feeds that span several
//! documents or record deletions (RFC 5005 paging and archiving, RFC 6721
//! tombstones, the feed-history draft), in Atom and RSS 2.0.
//!
//! A run is four stages that pass plain data:
//!
//! 1. [`discover`]: inputs (paths, directories, standard input) become the
//!    documents to lint, with names, files and URLs, and their bytes; the
//!    files the analyzed documents link to are read as context for step 3;
//! 2. [`analyze`]: one document's bytes become its findings and a
//!    [`summary::DocSummary`], with no I/O: each is decoded ([`source`]),
//!    parsed by feedlint's own strict XML parser ([`xml`]: XML 1.0 and
//!    Namespaces well-formedness, linear on every input, no external entity
//!    ever read), viewed as a feed ([`feed`]) and checked by every enabled
//!    rule ([`rules`]); its tree is then dropped;
//! 3. the set checks ([`set`] and the set rules) read the summaries of all
//!    documents together;
//! 4. [`assemble`]: levels, suppressions, sorting and folding make the
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
//!   <link rel="self" href="2003/11.atom"/>
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

pub mod analyze;
pub mod assemble;
pub mod config;
pub mod contain;
pub mod date;
pub mod diagnostic;
pub mod discover;
pub mod document;
mod engine;
pub mod exclude;
pub mod feed;
pub mod fetch;
pub mod fix;
pub mod fix_files;
mod hash;
pub mod html;
pub mod iri;
pub mod options;
pub mod report;
pub mod rule_id;
pub mod rules;
pub mod secret;
pub mod select;
pub mod server;
pub mod set;
pub mod shown;
pub mod site;
pub mod snippet;
pub mod source;
pub mod summary;
pub mod suppress;
pub mod syntax;
pub mod web;
pub mod xml;

pub use config::Levels;
pub use diagnostic::{Diagnostic, Level, Span};
pub use discover::{Failure, Input};
pub use document::Document;
pub use engine::{lint, lint_bytes, lint_in_memory, lint_into, lint_upload, InMemory, Upload};
pub use options::{
    FrontDoor, InvalidUrl, MediaCheck, Options, Overrides, Resolved, Walked, DEFAULT_MAX_FILE_SIZE,
    DEFAULT_MAX_FINDINGS,
};
pub use report::{Report, Sink};
pub use rule_id::{RuleId, UnknownRule};
