//! What a run is asked to do: the config file ([`config`]), the rules
//! selected ([`select`]), the paths left out ([`exclude`]), and the
//! resolved [`options`] every front door builds.

pub mod config;
pub mod exclude;
pub mod options;
pub mod select;
