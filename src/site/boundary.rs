//! The folders a run may read in besides the paths it was named.

use std::path::{Path, PathBuf};

/// The folders a run may read in besides the paths it was named: linked
/// files, and the folders self links place as published sites. A feed is
/// written by someone else: its self link must not make feedlint walk
/// `~`, nor its `../../private/index.atom` read a file the user never
/// meant, and quote it in a report.
///
/// For each named path: `--root` (or a config's root, which stays inside
/// its config's folder) where given; else the nearest folder above it that
/// holds a `feedlint.toml` or is the root of a git work tree (`.git`),
/// below the home folder and `/` (a dotfiles repository in `~` is no
/// project of the feeds below it); else the current directory, for a path
/// below it (unless it is `/` or the home folder); else the path's own
/// folder.
#[derive(Debug, Clone, Default)]
pub(crate) struct Boundary {
    roots: Vec<PathBuf>,
}

impl Boundary {
    /// The boundary of a run given the roots `given` (`--root`, configs'
    /// roots) and the paths it was `named`.
    pub(crate) fn of<'p>(
        given: impl IntoIterator<Item = &'p Path>,
        named: impl IntoIterator<Item = &'p Path>,
    ) -> Boundary {
        let mut roots: Vec<PathBuf> = given
            .into_iter()
            .filter_map(|root| std::fs::canonicalize(root).ok())
            .collect();
        if roots.is_empty() {
            // The current directory bounds only where it is a project of
            // some kind: not the whole file system, nor the home folder
            // (a feed downloaded below it is no part of a site there).
            let home = std::env::var_os("HOME").and_then(|home| std::fs::canonicalize(home).ok());
            let cwd = std::env::current_dir()
                .ok()
                .and_then(|cwd| std::fs::canonicalize(cwd).ok())
                .filter(|cwd| cwd.parent().is_some() && Some(cwd) != home.as_ref());
            for path in named {
                let Some(canonical) = std::fs::canonicalize(path).ok() else {
                    continue;
                };
                let folder = if canonical.is_dir() {
                    canonical
                } else {
                    match canonical.parent() {
                        Some(parent) => parent.to_path_buf(),
                        None => continue,
                    }
                };
                let project = folder
                    .ancestors()
                    .take_while(|dir| dir.parent().is_some() && Some(*dir) != home.as_deref())
                    .find(|dir| dir.join("feedlint.toml").is_file() || dir.join(".git").exists());
                let root = match (project, &cwd) {
                    (Some(project), _) => project.to_path_buf(),
                    (None, Some(cwd)) if folder.starts_with(cwd) => cwd.clone(),
                    (None, _) => folder,
                };
                roots.push(root);
            }
        }
        roots.sort();
        roots.dedup();
        Boundary { roots }
    }

    /// Whether a canonical path lies inside the boundary.
    pub(crate) fn holds(&self, canonical: &Path) -> bool {
        self.roots.iter().any(|root| canonical.starts_with(root))
    }

    /// The boundary's folders, for messages.
    pub(crate) fn roots(&self) -> &[PathBuf] {
        &self.roots
    }
}
