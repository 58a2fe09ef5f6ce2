//! RFC 5005 Feed Paging and Archiving, and the feed-history draft before
//! it: the markers, the archive and paging links of one document, and the
//! chains they make across documents.

pub(crate) mod archive;
pub(crate) mod chains;
pub(crate) mod markers;
pub(crate) mod paging;
