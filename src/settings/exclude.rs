//! What walking skips besides hidden paths: `--exclude` and the config's
//! `exclude`, globs in gitignore syntax, and what `.gitignore` and
//! `.ignore` files say.

use std::path::{Path, PathBuf};

/// The `--exclude` globs (gitignore syntax) as the walker's overrides,
/// matched below `root`: `drafts/` skips every directory named drafts,
/// `/drafts/` only the one at the top.
pub(crate) fn overrides(root: &Path, globs: &[String]) -> Result<ignore::overrides::Override, ignore::Error> {
    let mut builder = ignore::overrides::OverrideBuilder::new(root);
    for glob in globs {
        builder.add(&format!("!{glob}"))?;
    }
    builder.build()
}

/// Whether exclusion globs are valid, for a usage error before any work:
/// why not, where one is not (each front door names where it was given).
pub fn check_exclusions(globs: &[String]) -> Result<(), String> {
    overrides(Path::new("."), globs).map(drop).map_err(|e| e.to_string())
}

/// The `.ignore` and `.gitignore` files of a walk, read by feedlint rather
/// than by the walker, so that one that is not a regular file (a FIFO,
/// which would block the walk forever on open; a device) is skipped with
/// a warning, and none is read past [`MAX_IGNORE_FILE`]. They apply as the
/// walker would apply them: a deeper file before a shallower one, `.ignore`
/// before `.gitignore` before `.git/info/exclude`, the first match
/// deciding, and the files of the directories above the root too.
pub(crate) struct IgnoreFiles {
    /// The matchers of the directories from the root down to the entry
    /// being looked at, each with the walk depth it applies below, in the
    /// order they decide (least first).
    levels: Vec<(usize, ignore::gitignore::Gitignore)>,
    /// The matchers of the directories above the root, which match
    /// absolute paths.
    above: Vec<ignore::gitignore::Gitignore>,
    /// The root as the walk spells it, and as an absolute path.
    root: PathBuf,
    absolute_root: PathBuf,
    pub warnings: Vec<String>,
}

/// The largest ignore file read; the rest of a larger one is left out.
const MAX_IGNORE_FILE: u64 = 4 * 1024 * 1024;

/// The ignore files of one directory, least deciding first.
const IGNORE_FILES: [&str; 3] = [".git/info/exclude", ".gitignore", ".ignore"];

impl IgnoreFiles {
    /// The ignore files in force at `root`: its own and those of the
    /// directories above it.
    pub(crate) fn at(root: &Path) -> IgnoreFiles {
        let absolute_root = std::path::absolute(root).unwrap_or_else(|_| root.to_owned());
        let mut files = IgnoreFiles {
            levels: Vec::new(),
            above: Vec::new(),
            root: root.to_owned(),
            absolute_root: absolute_root.clone(),
            warnings: Vec::new(),
        };
        let mut above: Vec<ignore::gitignore::Gitignore> = Vec::new();
        for dir in absolute_root.ancestors().skip(1) {
            let mut of_dir = files.read_dir_files(dir);
            // Deeper directories decide first: they go last.
            of_dir.reverse();
            above.extend(of_dir);
        }
        above.reverse();
        files.above = above;
        let own = files.read_dir_files(root);
        files.levels.extend(own.into_iter().map(|m| (0, m)));
        files
    }

    /// Whether the walk keeps `entry` (at `depth` below the root); a kept
    /// directory's ignore files then apply below it.
    pub(crate) fn keep(&mut self, path: &Path, depth: usize, is_dir: bool) -> bool {
        while self.levels.last().is_some_and(|(at, _)| *at >= depth) {
            self.levels.pop();
        }
        for (_, matcher) in self.levels.iter().rev() {
            match matcher.matched(path, is_dir) {
                ignore::Match::Ignore(_) => return false,
                ignore::Match::Whitelist(_) => return self.enter(path, depth, is_dir),
                ignore::Match::None => {}
            }
        }
        if !self.above.is_empty() {
            let absolute = self.absolute_root.join(path.strip_prefix(&self.root).unwrap_or(path));
            for matcher in self.above.iter().rev() {
                match matcher.matched(&absolute, is_dir) {
                    ignore::Match::Ignore(_) => return false,
                    ignore::Match::Whitelist(_) => break,
                    ignore::Match::None => {}
                }
            }
        }
        self.enter(path, depth, is_dir)
    }

    fn enter(&mut self, path: &Path, depth: usize, is_dir: bool) -> bool {
        if is_dir {
            let own = self.read_dir_files(path);
            self.levels.extend(own.into_iter().map(|m| (depth, m)));
        }
        true
    }

    /// The matchers of `dir`'s ignore files, least deciding first.
    fn read_dir_files(&mut self, dir: &Path) -> Vec<ignore::gitignore::Gitignore> {
        let mut found = Vec::new();
        for name in IGNORE_FILES {
            if name.starts_with(".git/") && !dir.join(".git").is_dir() {
                continue;
            }
            let path = dir.join(name);
            match read_ignore_file(&path) {
                Ok(None) => {}
                Ok(Some(text)) => {
                    let mut builder = ignore::gitignore::GitignoreBuilder::new(dir);
                    for line in text.lines() {
                        // A bad line is left out, as git leaves it out.
                        let _ = builder.add_line(Some(path.clone()), line);
                    }
                    match builder.build() {
                        Ok(matcher) if !matcher.is_empty() => found.push(matcher),
                        Ok(_) => {}
                        Err(error) => self.warnings.push(format!("{} is skipped: {error}", path.display())),
                    }
                }
                Err(why) => self.warnings.push(format!("{} is skipped: {why}", path.display())),
            }
        }
        found
    }
}

/// The text of an ignore or config file: `None` if there is none; an
/// error if it is not a regular file (checked on the open file, which is
/// opened without blocking, so a FIFO never hangs the run).
pub(crate) fn read_ignore_file(path: &Path) -> Result<Option<String>, String> {
    read_regular_file(path, MAX_IGNORE_FILE)
        .map(|bytes| bytes.map(|bytes| String::from_utf8_lossy(&bytes).into_owned()))
}

/// A regular file's bytes, at most `limit` of them; `None` if nothing is
/// at `path`; an error if what is there is not a regular file or is
/// larger than `limit`.
pub(crate) fn read_regular_file(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, String> {
    use std::io::Read as _;
    let file = match open_without_blocking(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error.to_string()),
    };
    let metadata = file.metadata().map_err(|e| e.to_string())?;
    if !metadata.is_file() {
        return Err("it is not a regular file".to_owned());
    }
    if metadata.len() > limit {
        return Err(format!("it is {} bytes, more than the {limit} read", metadata.len()));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!("it is more than the {limit} bytes read"));
    }
    Ok(Some(bytes))
}

#[cfg(unix)]
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}
