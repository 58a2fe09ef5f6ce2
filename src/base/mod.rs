//! Foundations that know nothing of feeds: fast hashing, text made safe
//! to show, secrets kept out of output, syntax of names and numbers,
//! HTML reading, and the containment of a panic.

pub mod contain;
pub(crate) mod hash;
pub mod html;
pub mod secret;
pub mod shown;
pub mod syntax;
