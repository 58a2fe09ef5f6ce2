//! One run, stage after stage: [`discover`] the documents and read them,
//! [`analyze`] each (its tree dropped as soon as its rules have run), then
//! [`assemble`] the report: the set checks, levels, suppressions, sorting.
//!
//! Where each part of a run is written:
//! - [`entry`]: the entry points, for files and folders by path and for
//!   documents in memory; [`uploads`]: files uploaded together;
//! - [`in_progress`]: the run in progress and its report, the same for
//!   files, documents in memory and fetched documents;
//! - [`jobs`]: each document read and analyzed as a job, a chunk at a time
//!   in parallel, within `--max-findings`;
//! - [`context`]: what the run reads and learns besides what it was named
//!   (the files documents link to, the trees their self links place), and
//!   [`reading`], what it has read, so that each document is read once;
//! - [`fix_files`]: a run's fixes applied to files.

pub mod analyze;
pub mod assemble;
pub(crate) mod context;
pub mod discover;
pub(crate) mod entry;
pub mod fix_files;
pub(crate) mod in_progress;
pub(crate) mod jobs;
pub(crate) mod reading;
pub(crate) mod uploads;
