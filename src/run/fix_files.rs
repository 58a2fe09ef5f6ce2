//! `--fix` and `--diff`: the fixes of a run applied to its files, round
//! after round until none is left (a fix may uncover another, and fixes
//! whose edits overlap wait for the next round), then written atomically.
//!
//! Every round lints the files as fixed so far (an overlay of their new
//! text over the disk), so each fix applies to exactly the text it was made
//! for; a file is read once, at its first fix, and written only if it still
//! holds what was read then.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::findings::fix;
use crate::report::Report;
use crate::run::discover::Input;
use crate::settings::options::Options;

/// The most rounds of fixing: fixes converge in one or two; a few more
/// cover chains of overlapping edits, and the bound keeps a pathological
/// pair of fixes that undo each other from running forever.
pub const MAX_ROUNDS: usize = 8;

/// What fixing a run's files would change.
pub struct Fixed {
    /// Each changed file, with the text it held and the text fixed.
    pub files: Vec<FixedFile>,
    /// How many fixes were applied, over all rounds.
    pub applied: usize,
}

pub struct FixedFile {
    pub path: PathBuf,
    pub before: Vec<u8>,
    pub after: Vec<u8>,
    /// How many fixes made `after`, over all rounds.
    pub applied: usize,
}

/// Applies the fixes of the findings of `inputs` in memory (safe ones, and
/// unsafe ones too with `unsafe_fixes`). Nothing is written.
pub fn fix(inputs: &[Input], options: &Options, unsafe_fixes: bool) -> Fixed {
    let mut overlay: HashMap<PathBuf, Vec<u8>> = HashMap::new();
    let mut originals: HashMap<PathBuf, Vec<u8>> = HashMap::new();
    let mut applied: HashMap<PathBuf, usize> = HashMap::new();
    let mut report = lint_with(inputs, options, &overlay);
    for _ in 0..MAX_ROUNDS {
        let fixable = fixable_files(&report, unsafe_fixes);
        // A file is read at its first fix; its fixes are made again on the
        // text read, so that each edit meets exactly the text it was made for.
        let unread: Vec<PathBuf> = fixable
            .keys()
            .filter(|path| !overlay.contains_key(**path))
            .map(|path| (*path).clone())
            .collect();
        if !unread.is_empty() {
            for path in unread {
                if let Ok(bytes) = std::fs::read(&path) {
                    originals.insert(path.clone(), bytes.clone());
                    overlay.insert(path, bytes);
                }
            }
            report = lint_with(inputs, options, &overlay);
            continue;
        }
        let mut changed = false;
        for (path, fixes) in fixable {
            let Some(text) = overlay.get(path).and_then(|b| std::str::from_utf8(b).ok()) else {
                continue;
            };
            let (new_text, count) = fix::apply(text, fixes);
            if count > 0 && new_text != text {
                overlay.insert(path.clone(), new_text.into_bytes());
                *applied.entry(path.clone()).or_default() += count;
                changed = true;
            }
        }
        if !changed {
            break;
        }
        report = lint_with(inputs, options, &overlay);
    }
    let mut files: Vec<FixedFile> = overlay
        .into_iter()
        .filter_map(|(path, after)| {
            let before = originals.remove(&path)?;
            let applied = applied.get(&path).copied().unwrap_or(0);
            (before != after).then_some(FixedFile {
                path,
                before,
                after,
                applied,
            })
        })
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let applied = files.iter().map(|file| file.applied).sum();
    Fixed { files, applied }
}

/// The safe fixes of one document held in memory applied round after
/// round, as [`fix`] applies a file's: `lint` lints a text as that
/// document, every finding kept and none folded (see [`for_fixing`]).
/// `None` where no fix applies, or where `deadline` passes first (a text
/// with some of its fixes is not the text with every fix).
pub fn fix_text(text: &str, lint: impl Fn(&str) -> Report, deadline: std::time::Instant) -> Option<(String, usize)> {
    let mut current = text.to_owned();
    let mut applied = 0;
    for _ in 0..MAX_ROUNDS {
        if std::time::Instant::now() >= deadline {
            return None;
        }
        let report = lint(&current);
        let fixes = report
            .diagnostics
            .iter()
            .filter(|diagnostic| !report.documents[diagnostic.primary().doc].context)
            .filter_map(|diagnostic| diagnostic.fix.as_ref().filter(|fix| fix.applies(false)));
        let (new_text, count) = fix::apply(&current, fixes);
        if count == 0 || new_text == current {
            break;
        }
        current = new_text;
        applied += count;
    }
    (applied > 0).then_some((current, applied))
}

/// The applicable fixes of each file's findings (not those of standard
/// input, or of documents read only as context).
fn fixable_files(
    report: &Report,
    unsafe_fixes: bool,
) -> HashMap<&PathBuf, Vec<&fix::Fix<crate::findings::diagnostic::Location>>> {
    let mut by_file: HashMap<&PathBuf, Vec<&fix::Fix<_>>> = HashMap::new();
    for diagnostic in &report.diagnostics {
        let Some(fix) = diagnostic.fix.as_ref().filter(|f| f.applies(unsafe_fixes)) else {
            continue;
        };
        let document = &report.documents[diagnostic.primary().doc];
        if let (Some(path), false) = (&document.path, document.context) {
            by_file.entry(path).or_default().push(fix);
        }
    }
    by_file
}

fn lint_with(inputs: &[Input], options: &Options, overlay: &HashMap<PathBuf, Vec<u8>>) -> Report {
    let options = for_fixing(options).with_overlay(overlay.clone());
    crate::lint(inputs.to_vec(), &options)
}

/// `options` as a round of fixing lints with: every finding kept and none
/// folded into a count, since a folded or dropped finding carries no fix
/// (with `--max-per-rule`'s 100, a round fixed 100 of a rule's 1,000, and
/// eight rounds left 200 unfixed).
pub fn for_fixing(options: &Options) -> Options {
    options.keeping_every_finding()
}

/// Writes each fixed file in place, atomically: the new text goes to a
/// temporary file beside it, which then replaces it. A file whose content
/// changed since it was read is left alone, and so is one that a new file
/// in its place would not be (see `replaceable`). Returns what could not
/// be written, and why.
pub fn write(files: &[FixedFile]) -> Vec<(PathBuf, String)> {
    files
        .iter()
        .filter_map(|file| write_one(file).err().map(|why| (file.path.clone(), why)))
        .collect()
}

fn write_one(file: &FixedFile) -> Result<(), String> {
    // Opened without following a symbolic link, and every check made on
    // the open file: what is checked is what was read.
    let mut original = open_no_follow(&file.path).map_err(|error| match std::fs::read_link(&file.path) {
        Ok(target) => format!(
            "it is a symbolic link to {}; name that file to fix it (nothing was written)",
            target.display()
        ),
        Err(_) => error.to_string(),
    })?;
    let metadata = original.metadata().map_err(|e| e.to_string())?;
    replaceable(&metadata)?;
    let mut now = Vec::with_capacity(file.before.len());
    std::io::Read::read_to_end(&mut original, &mut now).map_err(|e| e.to_string())?;
    if now != file.before {
        return Err("it changed while it was being fixed; nothing was written".to_owned());
    }
    let directory = file
        .path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = file.path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    // A new name no one can guess, created only if nothing is there
    // (O_EXCL, so never through a planted link); it is removed if anything
    // below fails.
    let mut temporary = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".feedlint-fix")
        .tempfile_in(directory)
        .map_err(|e| format!("cannot create a temporary file in {}: {e}", directory.display()))?;
    temporary.write_all(&file.after).map_err(|e| e.to_string())?;
    keep_identity(temporary.as_file(), &metadata)?;
    temporary.as_file().sync_all().map_err(|e| e.to_string())?;
    // rename(2) replaces the name, never what a link there points to.
    temporary.persist(&file.path).map_err(|e| e.error.to_string())?;
    Ok(())
}

#[cfg(unix)]
fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    if std::fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(std::io::Error::other("it is a symbolic link"));
    }
    std::fs::File::open(path)
}

/// Whether a new file may take the place of the one described: a plain
/// file, writable, with one name (a fixed copy would split a hard link
/// from its other names, which would keep the old text).
fn replaceable(metadata: &std::fs::Metadata) -> Result<(), String> {
    if !metadata.is_file() {
        return Err("it is not a regular file; nothing was written".to_owned());
    }
    if metadata.permissions().readonly() {
        return Err("it is read-only; nothing was written (make it writable to fix it)".to_owned());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        if metadata.nlink() > 1 {
            return Err(format!(
                "it has {} hard links, and its fixed copy would no longer be the file the others name; nothing was written",
                metadata.nlink()
            ));
        }
    }
    Ok(())
}

/// Gives the new file the mode and owner of the one it replaces, on the
/// open file (never by path, which could be swapped meanwhile). A file
/// whose owner cannot be kept is not replaced.
fn keep_identity(new: &std::fs::File, original: &std::fs::Metadata) -> Result<(), String> {
    new.set_permissions(original.permissions())
        .map_err(|e| format!("cannot keep its permissions: {e}"))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let created = new.metadata().map_err(|e| e.to_string())?;
        if (created.uid(), created.gid()) != (original.uid(), original.gid()) {
            std::os::unix::fs::fchown(new, Some(original.uid()), Some(original.gid()))
                .map_err(|e| format!("cannot keep its owner ({e}); nothing was written"))?;
        }
    }
    Ok(())
}

/// A unified diff of each fixed file, as `diff -u` prints one.
pub fn unified_diff(files: &[FixedFile], out: &mut dyn std::io::Write) -> std::io::Result<()> {
    for file in files {
        let before = String::from_utf8_lossy(&file.before);
        let after = String::from_utf8_lossy(&file.after);
        let name = crate::base::shown::visible(&file.path.to_string_lossy()).into_owned();
        let diff = similar::TextDiff::from_lines(before.as_ref(), after.as_ref());
        write!(out, "{}", diff.unified_diff().context_radius(3).header(&name, &name))?;
    }
    Ok(())
}
