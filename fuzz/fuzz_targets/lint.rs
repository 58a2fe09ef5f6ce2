//! One document, any bytes: decoding, parsing, every document rule, and
//! every output format must hold up.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let options = feedlint::Options::default().keeping_sources(true);
    let url = Some("https://example.org/feed/index.atom");
    let report = feedlint::lint_bytes("fuzz.atom", url, data, &options).unwrap();
    for format in [
        feedlint::report::Format::Text,
        feedlint::report::Format::Json,
        feedlint::report::Format::Sarif,
        feedlint::report::Format::Github,
    ] {
        feedlint::report::write(&report, format, false, &mut std::io::sink()).unwrap();
    }
});
