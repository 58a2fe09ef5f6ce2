//! Where the files of a run are published: given (a base URL, a config's
//! trees), or learned from the documents' own `self` links; and which
//! folders a run may read in besides the paths it was named.
//!
//! It works on the whole run, after analysis (what one document's self
//! link says is [`crate::feed::placement`], made while the document is
//! analyzed): [`published`] holds the trees and maps files to URLs and
//! back, [`learning`] learns them, [`boundary`] bounds what is read.

pub mod boundary;
pub(crate) mod learning;
pub(crate) mod published;

pub(crate) use boundary::Boundary;
pub(crate) use learning::learn_sites;
pub(crate) use published::{as_directory, url_of_canonical, url_spaces, Published};
