//! What a finding is and where it stands: rule ids, levels and spans
//! ([`diagnostic`]), the decoded source they point into, suppressions
//! written in a document, fixes, and the limits and remedies a finding
//! names ([`remedy`]).

pub mod diagnostic;
pub mod fix;
pub mod remedy;
pub mod rule_id;
pub mod source;
pub mod suppress;
