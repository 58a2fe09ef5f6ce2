//! The integration tests, as one test binary: a change to the library
//! links once, not once per test file. Each module is one area (the
//! command line, the web page, hostile inputs, ...), and `common` holds
//! what they share. Run one area with `cargo test --test it web::`.

mod common;

mod action;
mod architecture;
mod batch;
mod chains;
mod cli;
mod config;
mod contract;
mod discovery;
mod editors;
mod fetch;
mod fixes;
mod formats;
mod http;
mod lsp;
mod media;
mod mutation;
mod pipeline;
mod quotes;
mod release;
mod security;
mod site;
mod testsuite;
mod web;
mod websub;
mod xmlconf;
