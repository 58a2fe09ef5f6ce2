//! feedlint's own parse alone: read every file, decode it as feedlint does
//! (`source::decode`: byte order mark, declaration, encodings), parse it
//! with feedlint's XML parser, count the nodes, drop the tree. Parallel
//! over files like feedlint (`RAYON_NUM_THREADS` applies). `bench/run.py`
//! sets it beside the roxmltree parse (bench/parse_only.rs) and the whole
//! run with every rule off, so that what the rules and the findings cost
//! is read off one table. Not part of feedlint.

#[path = "each_file.rs"]
mod each_file;

fn main() {
    each_file::parse_each_file(|bytes| {
        let text = feedlint::findings::source::decode(bytes).unwrap_or_else(|(text, _)| text);
        feedlint::xml::parse(&text).map_or(0, |doc| doc.root().descendants().count())
    });
}
