//! `--output-file`: where a report is written the way `--fix` writes a
//! feed. Into a new temporary file beside the target (created exclusively,
//! so never through a planted link), renamed over the name once whole: a
//! symbolic link committed at the name (a pull request's `feedlint.sarif`
//! pointing at a file the runner can write) is refused, and a run that
//! fails leaves no half report. A device or a pipe (`-o /dev/null`,
//! `-o >(…)`) is written in place, with no `fsync`, which they refuse.

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
        let directory = path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
        let temporary = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".feedlint-report")
            .permissions(std::fs::Permissions::from_mode(mode))
            .tempfile_in(directory)?;
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

impl Write for ReportFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.file().write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}
