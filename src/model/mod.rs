//! What a run keeps of each document once its tree is dropped, and the
//! set they form: the [`document`], its compact [`summary`] for the
//! checks across documents, the [`set`] of them, the web [`page`]s of a
//! linted site (for the feeds they advertise) and the paths its host
//! answers by [`redirects`], and what could not be read ([`failure`]).

pub mod document;
pub mod failure;
pub mod page;
pub mod redirects;
pub mod set;
pub mod summary;
