//! One run, stage after stage: [`discover`] the documents and read them,
//! [`analyze`] each (its tree dropped as soon as its rules have run), then
//! [`assemble`] the report: the set checks, levels, suppressions, sorting.
//! [`fix_files`] applies a run's fixes to files.

pub mod analyze;
pub mod assemble;
pub mod discover;
pub(crate) mod engine;
pub mod fix_files;
