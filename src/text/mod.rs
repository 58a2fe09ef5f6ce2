//! Text formats feeds are written in: dates (RFC 3339, RFC 822 and their
//! kin), IRIs and URLs, and the snippets of source a finding shows.

pub mod date;
pub mod iri;
pub mod snippet;
