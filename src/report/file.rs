//! `--output-file`: where a report is written the way `--fix` writes a
//! feed. Into a new temporary file beside the target (created exclusively,
//! so never through a planted link), renamed over the name once whole: a
//! symbolic link committed at the name (a pull request's `feedlint.sarif`
//! pointing at a file the runner can write) is refused, and so is one
//! committed as a folder on the way to it (`reports/` pointing at the
//! runner's home); a run that fails leaves no half report. A device or a
//! pipe (`-o /dev/null`, `-o >(…)`) is written in place, with no `fsync`,
//! which they refuse.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// An open report file; [`ReportFile::commit`] puts it in place.
pub enum ReportFile {
    /// A new file, renamed onto `path` when committed.
    Replacing {
        temporary: tempfile::NamedTempFile,
        path: PathBuf,
    },
    /// A device or a pipe, written in place.
    InPlace(File),
}

impl ReportFile {
    /// Opens the report's destination, refusing a symbolic link at `path`.
    pub fn create(path: &Path) -> io::Result<ReportFile> {
        use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
        let mode = match std::fs::symlink_metadata(path) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                return Err(io::Error::other(
                    "it is a symbolic link, and a report is never written through one (name the file it points to, or remove the link)",
                ))
            }
            Ok(metadata) if !metadata.is_file() => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .custom_flags(libc::O_NOFOLLOW)
                    .open(path)?;
                return Ok(ReportFile::InPlace(file));
            }
            // A report replacing an older one keeps its permissions.
            Ok(metadata) => metadata.permissions().mode() & 0o7777,
            Err(error) if error.kind() == io::ErrorKind::NotFound => 0o644,
            Err(error) => return Err(error),
        };
        if let Some(link) = linked_folder_on_the_way(path) {
            return Err(io::Error::other(format!(
                "{} is a symbolic link, and a report is never written through one (name the folder it points to)",
                link.display()
            )));
        }
        // The folder is resolved once: the temporary file and the name it
        // replaces are in that folder, whatever its path names later.
        let directory = path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let directory = std::fs::canonicalize(directory)?;
        let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
        let path = &directory.join(path.file_name().unwrap_or_default());
        let temporary = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".feedlint-report")
            .permissions(std::fs::Permissions::from_mode(mode))
            .tempfile_in(&directory)?;
        Ok(ReportFile::Replacing {
            temporary,
            path: path.to_owned(),
        })
    }

    /// Flushes the report to disk and puts it in place.
    pub fn commit(self) -> io::Result<()> {
        match self {
            ReportFile::Replacing { temporary, path } => {
                temporary.as_file().sync_all()?;
                // rename(2) replaces the name, never what a link there
                // points to.
                temporary.persist(&path).map(drop).map_err(|error| error.error)
            }
            ReportFile::InPlace(mut file) => file.flush(),
        }
    }

    fn file(&mut self) -> &mut File {
        match self {
            ReportFile::Replacing { temporary, .. } => temporary.as_file_mut(),
            ReportFile::InPlace(file) => file,
        }
    }
}

/// The first folder on the way to `path`, below the current directory,
/// that is a symbolic link: what a checked-out tree could have committed.
/// The folders above the current directory are the machine's own (`/tmp`
/// may be a link) and are taken as they are.
fn linked_folder_on_the_way(path: &Path) -> Option<PathBuf> {
    let here = std::env::current_dir().ok()?;
    let absolute = std::path::absolute(path).ok()?;
    let below = absolute.strip_prefix(&here).ok()?;
    let mut folder = here;
    let parts: Vec<_> = below.components().collect();
    for part in parts.iter().take(parts.len().saturating_sub(1)) {
        folder.push(part);
        if std::fs::symlink_metadata(&folder).is_ok_and(|metadata| metadata.file_type().is_symlink()) {
            return Some(folder);
        }
    }
    None
}

impl Write for ReportFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.file().write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}
