//! The floor for a DOM-based linter: read every file, check UTF-8 (or
//! decode a file that is not as windows-1252, the superset of ISO-8859-1
//! that the benchmark's other encodings are), parse it
//! with roxmltree (DTDs allowed, as feedlint parses), count the nodes, drop
//! the DOM. Parallel over files like feedlint (`RAYON_NUM_THREADS` applies).
//! Used by `bench/run.py`; not part of feedlint.

#[path = "each_file.rs"]
mod each_file;

fn main() {
    each_file::parse_each_file(|bytes| {
        let text = String::from_utf8(bytes)
            .unwrap_or_else(|error| encoding_rs::WINDOWS_1252.decode(error.as_bytes()).0.into_owned());
        let options = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..roxmltree::ParsingOptions::default()
        };
        roxmltree::Document::parse_with_options(&text, options).map_or(0, |doc| doc.descendants().count())
    });
}
