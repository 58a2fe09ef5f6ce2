//! The command line, by what changes together: the arguments, what the
//! tool says of itself, where output goes, and each command.

pub(crate) mod alloc;
pub(crate) mod args;
pub(crate) mod batch;
pub(crate) mod descriptors;
pub(crate) mod fetching;
pub(crate) mod fixing;
pub(crate) mod lint;
pub(crate) mod output;
pub(crate) mod serving;
pub(crate) mod usage;
pub(crate) mod words;
