//! What a finding is and where it stands: rule ids, levels and spans
//! ([`diagnostic`]), the decoded source they point into, suppressions
//! written in a document, and fixes.

pub mod diagnostic;
pub mod fix;
pub mod rule_id;
pub mod source;
pub mod suppress;
