//! The editors' set-ups, each with the real `feedlint server`.
//!
//! The Neovim plugin (`editors/neovim/feedlint.lua`) in a real, headless
//! Neovim: it starts `feedlint server` for a feed, and the diagnostics
//! reach the editor. Every Neovim named by `FEEDLINT_NVIM` (paths separated
//! by `:`; default: `nvim` on the PATH) is tried: CI installs Debian 12's
//! 0.7 and a current one. Without any, the test says it was skipped, unless
//! `FEEDLINT_NVIM_REQUIRED` is set.
//!
//! The VS Code extension (`editors/vscode/`): built, its harness run
//! against the binary under test, and packaged with the binary inside, by
//! `release/vscode.py`, where its npm packages are installed (`.ci/run`
//! installs them; `FEEDLINT_VSCODE_REQUIRED` makes their absence a failure).

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::scratch;

const REQUIRED: &str = "FEEDLINT_NVIM_REQUIRED";

fn neovims() -> Vec<PathBuf> {
    match std::env::var("FEEDLINT_NVIM") {
        Ok(list) => list.split(':').filter(|p| !p.is_empty()).map(PathBuf::from).collect(),
        Err(_) => std::env::var_os("PATH")
            .map(|path| {
                std::env::split_paths(&path)
                    .map(|dir| dir.join("nvim"))
                    .filter(|nvim| nvim.is_file())
                    .take(1)
                    .collect()
            })
            .unwrap_or_default(),
    }
}

#[test]
fn the_neovim_plugin_shows_feedlint_diagnostics() {
    let neovims = neovims();
    if neovims.is_empty() {
        assert!(
            std::env::var_os(REQUIRED).is_none(),
            "{REQUIRED} is set, but no Neovim was found"
        );
        // Past the harness's capture of print!, so that it shows.
        let _ = writeln!(
            std::io::stderr(),
            "editors: skipped: no Neovim found (FEEDLINT_NVIM, or nvim on the PATH)"
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = Path::new(env!("CARGO_BIN_EXE_feedlint")).parent().unwrap();
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    for nvim in neovims {
        let dir = scratch(&format!("nvim-{}", nvim.display().to_string().replace('/', "_")));
        std::fs::write(dir.join("feedlint.toml"), "").unwrap();
        let feed = dir.join("feed.atom");
        std::fs::copy(root.join("testsuite/rules/paging-prev-alias/fail-prev.atom"), &feed).unwrap();
        let out = dir.join("diagnostics");
        let output = Command::new(&nvim)
            .args(["--headless", "--clean", "-c"])
            .arg(format!(
                "luafile {}",
                root.join("editors/neovim/feedlint.lua").display()
            ))
            .arg("-c")
            .arg(format!("edit {}", feed.display()))
            .arg("-c")
            .arg(format!(
                "luafile {}",
                root.join("tests/editors/neovim-check.lua").display()
            ))
            .current_dir(&dir)
            .env("PATH", &path)
            .env("FEEDLINT_NVIM_OUT", &out)
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .env("XDG_DATA_HOME", dir.join("data"))
            .env("XDG_STATE_HOME", dir.join("state"))
            .output()
            .unwrap();
        let seen = std::fs::read_to_string(&out).unwrap_or_default();
        assert!(
            output.status.success(),
            "{}: {seen}\n{}",
            nvim.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            seen.lines().any(|line| line.ends_with(":paging-prev-alias")),
            "{}: {seen}",
            nvim.display()
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn the_vscode_extension_drives_the_server_and_packages_with_the_binary_inside() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let extension = root.join("editors/vscode");
    if !extension.join("node_modules/.bin/vsce").is_file() {
        assert!(
            std::env::var_os("FEEDLINT_VSCODE_REQUIRED").is_none(),
            "FEEDLINT_VSCODE_REQUIRED is set, but editors/vscode/node_modules is not installed"
        );
        eprintln!(
            "editors: skipped the VS Code extension: its npm packages are not installed (npm ci in editors/vscode)"
        );
        return;
    }
    // Its version is the crate's.
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(extension.join("package.json")).unwrap()).unwrap();
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));
    let script = |args: &[&str]| {
        let output = Command::new("python3")
            .arg("release/vscode.py")
            .args(args)
            .current_dir(root)
            .output()
            .unwrap();
        let said = common::said(&output);
        assert!(output.status.success(), "release/vscode.py {args:?}: {said}");
        said
    };
    let tested = script(&["test", env!("CARGO_BIN_EXE_feedlint")]);
    assert!(tested.contains("# pass 4") && tested.contains("# fail 0"), "{tested}");
    // Packaged for a platform, with a binary inside (a small stand-in: the
    // package's layout is what is checked here, the binary ran above).
    let dir = scratch("vscode");
    let binary = dir.join("feedlint");
    std::fs::write(&binary, b"#!/bin/sh\necho feedlint\n").unwrap();
    let packed = script(&[
        "package",
        "x86_64-unknown-linux-musl",
        binary.to_str().unwrap(),
        dir.to_str().unwrap(),
    ]);
    let vsix = dir.join(format!("feedlint-{}-linux-x64.vsix", env!("CARGO_PKG_VERSION")));
    assert!(vsix.is_file(), "{packed}");
    let listed = Command::new("python3")
        .args(["-m", "zipfile", "-l", vsix.to_str().unwrap()])
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout);
    for file in [
        "extension/package.json",
        "extension/out/extension.js",
        "extension/bin/feedlint",
        "extension/LICENSE.txt",
        "extension/readme.md",
    ] {
        assert!(listed.contains(file), "{file}: {listed}");
    }
    // Nothing of the sources, tests or npm packages goes in.
    for left_out in ["node_modules", "extension/src/", "extension/test/"] {
        assert!(!listed.contains(left_out), "{left_out}: {listed}");
    }
    let manifest = std::fs::read_to_string(root.join("target/vscode/linux-x64/package.json")).unwrap();
    assert!(manifest.contains("\"feedlint.path\""));
    let _ = std::fs::remove_dir_all(dir);
}
