//! The floor for a DOM-based linter: read every file, check UTF-8 (or
//! decode a file that is not as windows-1252, the superset of ISO-8859-1
//! that the benchmark's other encodings are), parse it
//! with roxmltree (DTDs allowed, as feedlint parses), count the nodes, drop
//! the DOM. Parallel over files like feedlint (`RAYON_NUM_THREADS` applies).
//! Used by `bench/run.py`; not part of feedlint.

use rayon::prelude::*;

fn main() {
    let paths: Vec<std::path::PathBuf> = std::env::args()
        .skip(1)
        .flat_map(|root| walkdir::WalkDir::new(root).sort_by_file_name().into_iter())
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect();
    let nodes: usize = paths
        .par_iter()
        .map(|path| {
            let bytes = std::fs::read(path).expect("readable");
            let text = String::from_utf8(bytes)
                .unwrap_or_else(|error| encoding_rs::WINDOWS_1252.decode(error.as_bytes()).0.into_owned());
            let options = roxmltree::ParsingOptions {
                allow_dtd: true,
                ..roxmltree::ParsingOptions::default()
            };
            roxmltree::Document::parse_with_options(&text, options).map_or(0, |doc| doc.descendants().count())
        })
        .sum();
    println!("{} files, {nodes} nodes", paths.len());
}
