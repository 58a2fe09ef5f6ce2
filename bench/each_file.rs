//! What the parse-alone examples (bench/parse_only.rs, bench/own_parse.rs)
//! share: every file under the paths named on the command line, read and
//! parsed in parallel like feedlint (`RAYON_NUM_THREADS` applies).

use rayon::prelude::*;

/// Reads every file under the paths named on the command line, gives its
/// bytes to `nodes_of` on whichever thread is free, and prints how many
/// files and nodes there were.
pub fn parse_each_file(nodes_of: impl Fn(Vec<u8>) -> usize + Sync) {
    let paths: Vec<std::path::PathBuf> = std::env::args()
        .skip(1)
        .flat_map(|root| walkdir::WalkDir::new(root).sort_by_file_name().into_iter())
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect();
    let nodes: usize = paths
        .par_iter()
        .map(|path| nodes_of(std::fs::read(path).expect("readable")))
        .sum();
    println!("{} files, {nodes} nodes", paths.len());
}
