//! Text formats feeds are written in: dates (RFC 3339, RFC 822 and their
//! kin, ISO 8601), IRIs and URLs, and the snippets of source a finding shows.

pub mod date;
pub mod iri;
pub mod iso8601;
pub mod snippet;
