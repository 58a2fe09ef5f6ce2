//! The Neovim plugin (`editors/neovim/feedlint.lua`) in a real, headless
//! Neovim: it starts `feedlint server` for a feed, and the diagnostics
//! reach the editor. Every Neovim named by `FEEDLINT_NVIM` (paths separated
//! by `:`; default: `nvim` on the PATH) is tried: CI installs Debian 12's
//! 0.7 and a current one. Without any, the test says it was skipped, unless
//! `FEEDLINT_NVIM_REQUIRED` is set.

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
