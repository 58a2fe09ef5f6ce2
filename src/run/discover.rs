//! The first stage: from what the user named (paths, standard input) to
//! the documents to lint, each with its name, file and URL, and their bytes
//! read within `--max-file-size`. Directories are walked; walked files that
//! do not look like XML are skipped unread.

use std::path::{Path, PathBuf};

use url::Url;

use crate::feed::placement::Learning;
use crate::model::failure::Failure;
use crate::settings::config::deepest_above;
use crate::settings::options::Options;
use crate::site::{as_directory, url_of_canonical, Published};

/// A thing to lint, as given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Path(PathBuf),
    /// One document read from standard input.
    Stdin(Vec<u8>),
}

/// One document to read and lint.
pub(crate) struct Job {
    pub name: String,
    pub url: Option<Url>,
    pub origin: Origin,
    /// Named on the command line (always reported on), not found by walking.
    pub explicit: bool,
    /// The file, canonical: what its `self` link is compared with.
    pub canonical: Option<PathBuf>,
    /// Whether its `self` link may give it its URL.
    pub learning: Learning,
    /// The `charset` of the HTTP `Content-Type` a fetched document came with.
    pub charset: Option<String>,
    /// The media type of that `Content-Type`, lower case.
    pub media_type: Option<String>,
    /// Where a fetched document was asked for, and what its headers link.
    pub fetched: Option<Box<FetchedFrom>>,
}

/// What a fetched document's request and headers say of it, beyond its
/// bytes.
#[derive(Clone)]
pub(crate) struct FetchedFrom {
    /// The URL asked for, before redirects.
    pub asked: Url,
    /// The `hub` and `self` links of its `Link` headers.
    pub links: crate::rules::websub::HeaderLinks,
    /// Named by the user (or the feed a named web page names), not reached
    /// by a link: the feed whose topic is the URL it was fetched from. A
    /// later page of a paged feed carries the first page's topic.
    pub named: bool,
    /// How it was served, for the `http` rules.
    pub delivery: crate::rules::http::Delivery,
    /// An archive link (`prev-archive`, `next-archive`) led to it.
    pub by_archive_link: bool,
}

impl Job {
    /// A document given as bytes (standard input, an editor's buffer, a
    /// web upload, a fetched document): named, always reported on, with
    /// no file, so no `self` link gives it a URL.
    pub(crate) fn of_bytes(name: String, url: Option<Url>, bytes: Vec<u8>) -> Job {
        Job {
            name,
            url,
            origin: Origin::Bytes(bytes),
            explicit: true,
            canonical: None,
            learning: Learning::Off,
            charset: None,
            media_type: None,
            fetched: None,
        }
    }
}

pub(crate) enum Origin {
    File(PathBuf),
    Bytes(Vec<u8>),
}

/// A file on disk that a link target names.
pub(crate) enum LinkedFile {
    /// Inside the run's boundary: read as context.
    Readable { path: PathBuf, canonical: PathBuf },
    /// Outside it: named in a warning, never read.
    Outside(PathBuf),
}

/// The local file a link target names, if it is one that exists: a `file:`
/// URL (without a base URL, also as a root-relative link below the tree's
/// root), or a URL below a base URL, mapped back below its root. A run
/// without a tree (documents held in memory) reads no file at all.
pub(crate) fn local_file(target: &Url, published: Option<&Published>) -> Option<LinkedFile> {
    let published = published?;
    let path = published.file_named(target)?;
    // Resolved once: the boundary and the kernel's file systems are judged
    // where a link in the tree really leads.
    let canonical = std::fs::canonicalize(&path)
        .ok()
        .filter(|canonical| canonical.is_file())?;
    if !published.boundary.holds(&canonical) {
        Some(LinkedFile::Outside(path))
    } else if is_kernel_path(&canonical) {
        None
    } else {
        Some(LinkedFile::Readable { path, canonical })
    }
}

/// The job for a file read only because a linted document links to it.
pub(crate) fn linked_job(path: PathBuf, canonical: PathBuf, url: Url) -> Job {
    Job {
        name: crate::base::shown::named_path(&path),
        url: Some(url),
        canonical: Some(canonical),
        origin: Origin::File(path),
        explicit: false,
        learning: Learning::Off,
        charset: None,
        media_type: None,
        fetched: None,
    }
}

/// At most this many files of a published tree are read as context (see
/// [`walk_context`]): a tree placed by self links could be large.
pub(crate) const MOST_CONTEXT_FILES: usize = 20_000;

/// The files of a published tree, to read as context: named as the user
/// would name them (relative to the current directory), reported on by
/// nobody. At most `most`; `None` when the tree holds more. A tree that
/// cannot be walked is simply not read.
pub(crate) fn walk_context(root: &Path, options: &Options, published: &Published, most: usize) -> Option<Vec<Job>> {
    let shown = PathBuf::from(crate::base::shown::named_path(root));
    let mut jobs = Vec::new();
    let mut warnings = Vec::new();
    walk(
        &shown,
        options,
        Some(published),
        &mut |job| jobs.push(job),
        &mut Vec::new(),
        &mut warnings,
        most.saturating_add(1),
    );
    if jobs.len() > most {
        return None;
    }
    for job in &mut jobs {
        job.learning = Learning::Off;
        if let Some(name) = job.name.strip_prefix("./") {
            job.name = name.to_owned();
        }
    }
    Some(jobs)
}

/// The jobs the inputs name, in order, each given to `emit` as soon as it
/// is known (a walked tree's files as the walk finds them, so that they
/// are analyzed while the walk goes on), or all at the end where several
/// inputs may name one file twice.
pub(crate) fn gather(
    inputs: Vec<Input>,
    options: &Options,
    published: Option<&Published>,
    emit: &mut dyn FnMut(Job),
    failures: &mut Vec<Failure>,
    warnings: &mut Vec<String>,
) {
    let overlap_possible = inputs.iter().filter(|i| matches!(i, Input::Path(_))).count() > 1;
    let mut jobs = Vec::new();
    let mut push = |job: Job| match overlap_possible {
        true => jobs.push(job),
        false => emit(job),
    };
    for input in inputs {
        match input {
            Input::Stdin(bytes) => push(Job::of_bytes("-".to_owned(), options.url().cloned(), bytes)),
            Input::Path(path) if path.is_dir() => {
                walk(&path, options, published, &mut push, failures, warnings, usize::MAX)
            }
            Input::Path(path) => {
                let canonical = canonical_file(&path);
                let learning = match (options.url(), published, &canonical) {
                    (None, Some(published), Some(canonical)) => published.learning_for(canonical),
                    _ => Learning::Off,
                };
                let url = options
                    .url()
                    .cloned()
                    .or_else(|| url_of_canonical(canonical.as_deref()?, published));
                push(Job {
                    name: path.display().to_string(),
                    url,
                    origin: Origin::File(path),
                    explicit: true,
                    canonical,
                    learning,
                    charset: None,
                    media_type: None,
                    fetched: None,
                });
            }
        }
    }
    if overlap_possible {
        without_duplicates(jobs).into_iter().for_each(emit);
    }
}

/// Each file once, however many inputs reach it (`feedlint DIR DIR`,
/// `DIR DIR/index.atom`, `./DIR DIR`): linted twice, a file would be its
/// own duplicate and its archives orphans. The first name given is kept; a
/// file named explicitly anywhere is reported on as explicit.
fn without_duplicates(jobs: Vec<Job>) -> Vec<Job> {
    let mut first: std::collections::HashMap<PathBuf, usize> = std::collections::HashMap::new();
    let mut kept: Vec<Job> = Vec::with_capacity(jobs.len());
    for job in jobs {
        let key = match &job.origin {
            Origin::File(path) => std::fs::canonicalize(path).ok(),
            Origin::Bytes(_) => None,
        };
        match key.as_ref().and_then(|key| first.get(key)) {
            Some(&index) => kept[index].explicit |= job.explicit,
            None => {
                if let Some(key) = key {
                    first.insert(key, kept.len());
                }
                kept.push(job);
            }
        }
    }
    kept
}

/// The ignore files in force as a walk goes, shared with its filter.
type IgnoreFilesShared = std::sync::Arc<std::sync::Mutex<crate::settings::exclude::IgnoreFiles>>;

/// The walker of `root` (canonical: `canonical`), and the ignore files
/// it reads as it goes: ripgrep's and ruff's, hidden files and directories
/// skipped, and what `.gitignore` and `.ignore` files say (in a git work
/// tree or not), but not the user's global gitignore, so that the same
/// tree lints the same on every machine; `--exclude` and the nearest
/// config's `exclude` applied. An invalid glob is the error.
fn walker(
    root: &Path,
    canonical: Option<&Path>,
    options: &Options,
) -> Result<(ignore::WalkBuilder, IgnoreFilesShared), String> {
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .hidden(true)
        .git_global(false)
        .require_git(false)
        // The ignore files are read by `IgnoreFiles`, which skips one that
        // is not a regular file (the walker would block on a FIFO).
        .git_ignore(false)
        .ignore(false)
        .git_exclude(false)
        .parents(false)
        // Another file system mounted in the tree (/proc under /, a network
        // share) is not the tree the user meant.
        .same_file_system(true)
        .sort_by_file_name(|a, b| a.cmp(b));
    let ignore_files = std::sync::Arc::new(std::sync::Mutex::new(crate::settings::exclude::IgnoreFiles::at(root)));
    {
        let ignore_files = std::sync::Arc::clone(&ignore_files);
        // The walk is depth first, one entry at a time, so the ignore
        // files in force are a stack.
        builder.filter_entry(move |entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            let mut files = ignore_files.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            files.keep(entry.path(), entry.depth(), is_dir)
        });
    }
    // --exclude, and the exclude list of the config nearest above the root.
    let (exclude, config_excludes) = options.exclusions();
    let from_config = canonical.and_then(|root| deepest_above(root, config_excludes, |(dir, _)| dir));
    let globs: Vec<String> = exclude
        .iter()
        .chain(from_config.into_iter().flat_map(|(_, globs)| globs))
        .cloned()
        .collect();
    let overrides =
        crate::settings::exclude::overrides(root, &globs).map_err(|error| format!("invalid exclude glob: {error}"))?;
    builder.overrides(overrides);
    Ok((builder, ignore_files))
}

/// Walks a directory: the files found, as jobs (at most `most`).
fn walk(
    root: &Path,
    options: &Options,
    published: Option<&Published>,
    emit: &mut dyn FnMut(Job),
    failures: &mut Vec<Failure>,
    warnings: &mut Vec<String>,
    most: usize,
) {
    let mut found = 0;
    // The root is made canonical once; files below it get their URLs by
    // joining their path segments (a realpath per file costs more than
    // parsing small feeds).
    let canonical = std::fs::canonicalize(root).ok();
    if canonical.as_deref().is_some_and(is_kernel_path) {
        warnings.push(format!(
            "{} is in a kernel file system (/proc, /sys or /dev): it is not walked (name a file there to lint it)",
            crate::base::shown::shown_path(root)
        ));
        return;
    }
    let root_url = canonical
        .as_deref()
        .and_then(|canonical| url_of_canonical(canonical, published))
        .map(as_directory);
    let (builder, ignore_files) = match walker(root, canonical.as_deref(), options) {
        Ok(walker) => walker,
        Err(message) => {
            failures.push(Failure::Unwalkable {
                path: root.to_owned(),
                message,
            });
            return;
        }
    };
    for entry in builder.build() {
        if found >= most {
            break;
        }
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                failures.push(Failure::Unwalkable {
                    path: root.to_owned(),
                    message: error.to_string(),
                });
                continue;
            }
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.into_path();
        let below = path.strip_prefix(root).unwrap_or(Path::new(""));
        let url = root_url
            .as_ref()
            .and_then(|root_url| crate::feed::placement::url_below(root_url, below));
        let canonical = canonical.as_ref().map(|root| root.join(below));
        let learning = match (published, &canonical) {
            (Some(published), Some(canonical)) => published.learning_for(canonical),
            _ => Learning::Off,
        };
        found += 1;
        emit(Job {
            name: path.display().to_string(),
            url,
            explicit: has_feed_extension(&path),
            origin: Origin::File(path),
            canonical,
            learning,
            charset: None,
            media_type: None,
            fetched: None,
        });
    }
    let mut files = ignore_files.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    warnings.append(&mut files.warnings);
}

/// A file whose extension says it is a feed is reported on even when it is
/// not one: an empty `index.atom`, an HTML error page saved as `feed.rss`
/// or a `<feed>` without its namespace would otherwise pass silently.
/// `.xml` says nothing (sitemaps, build files), so those are sniffed.
pub(crate) fn has_feed_extension(path: &Path) -> bool {
    path.extension().is_some_and(|e| {
        e.eq_ignore_ascii_case("atom") || e.eq_ignore_ascii_case("rss") || e.eq_ignore_ascii_case("atomdeleted")
    })
}

/// A file's canonical path; for a file not on disk (an editor's unsaved
/// new file, linted from its text), its directory's and its name.
fn canonical_file(path: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(path).ok().or_else(|| {
        let parent = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        Some(std::fs::canonicalize(parent).ok()?.join(path.file_name()?))
    })
}

pub(crate) enum Read {
    Whole(Vec<u8>),
    /// Its first bytes did not pass the first look: not read further.
    NotWanted,
    /// Over the limit: the file's size (unknown for a stream), and its
    /// first bytes for a look.
    TooLarge {
        size: Option<u64>,
        prefix: Vec<u8>,
    },
}

/// How many bytes [`read_file`]'s first look sees.
const FIRST_LOOK: u64 = 512;

/// Reads a file unless it is larger than `limit`; the size is checked
/// before reading and again while reading (a file can grow meanwhile).
/// With `first_look`, a file whose first bytes it rejects is not read
/// further: the audio and images beside a walked podcast feed cost one
/// small read each, not their size.
///
/// A file found by a walk or a link (`first_look` given) is opened without
/// blocking and read only while it has data: `/proc/kmsg` is a regular file
/// whose read waits for the kernel's next message. A file the user named
/// is read as they asked: a pipe (`feedlint <(curl ...)`) until its writer
/// ends, a regular file that has nothing yet for at most [`READ_DEADLINE`].
pub(crate) fn read_file(path: &Path, limit: u64, first_look: Option<fn(&[u8]) -> bool>) -> std::io::Result<Read> {
    use std::os::unix::fs::OpenOptionsExt as _;
    let named_by_user = first_look.is_none();
    if !named_by_user && is_kernel_path(path) {
        return Err(std::io::Error::other(
            "it is in a kernel file system (/proc, /sys or /dev), which is never read unless named",
        ));
    }
    let non_blocking = |path: &Path| {
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(path)
    };
    let mut file = non_blocking(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        if !named_by_user {
            return Err(std::io::Error::other("it is not a regular file"));
        }
        // A pipe or a device the user named: read as `cat` would.
        file = std::fs::File::open(path)?;
    }
    let mut file = Patient {
        file,
        deadline: named_by_user.then(|| std::time::Instant::now() + READ_DEADLINE),
    };
    let size = metadata.len();
    let mut bytes = Vec::new();
    if size > limit {
        file.read_up_to(64 * 1024, &mut bytes)?;
        return Ok(Read::TooLarge {
            size: Some(size),
            prefix: bytes,
        });
    }
    // Never much more than the limit, whatever the size claims (a pipe, a
    // device such as /dev/zero, or a /proc file that says 0): the read
    // stops 8 KiB past it (some /proc files refuse reads smaller than
    // that). Room is reserved for the size claimed plus one byte to see
    // the end: a regular file takes two or three reads.
    let most = limit.saturating_add(8192);
    let claimed = usize::try_from(size.saturating_add(1).min(most)).unwrap_or(usize::MAX);
    if let Some(look) = first_look {
        file.read_up_to(FIRST_LOOK, &mut bytes)?;
        if !look(&bytes) {
            return Ok(Read::NotWanted);
        }
    }
    bytes.reserve_exact(claimed.max(8192));
    file.read_up_to(most - bytes.len() as u64, &mut bytes)?;
    if bytes.len() as u64 > limit {
        bytes.truncate(64 * 1024);
        return Ok(Read::TooLarge {
            size: None,
            prefix: bytes,
        });
    }
    Ok(Read::Whole(bytes))
}

/// How long a file the user named may have nothing to read (a regular
/// file opened without blocking that says "try again") before it fails.
const READ_DEADLINE: std::time::Duration = std::time::Duration::from_secs(10);

/// A file read without blocking: "try again" is waited out until the
/// deadline, if it has one, else it is an error at once.
struct Patient {
    file: std::fs::File,
    deadline: Option<std::time::Instant>,
}

impl Patient {
    /// Reads to the end, or `most` bytes more, onto `bytes`. The file is
    /// read as itself, so that its room is filled without being zeroed
    /// first: read through a `Read` of ours, `read_to_end` zeroes it (2%
    /// of the instructions of a run). What a read gets before "try again"
    /// is kept, and the read goes on.
    fn read_up_to(&mut self, most: u64, bytes: &mut Vec<u8>) -> std::io::Result<()> {
        use std::io::Read as _;
        let end = (bytes.len() as u64).saturating_add(most);
        loop {
            let left = end.saturating_sub(bytes.len() as u64);
            match (&self.file).take(left).read_to_end(bytes) {
                Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => match self.deadline {
                    Some(deadline) if std::time::Instant::now() < deadline => {
                        std::thread::sleep(std::time::Duration::from_millis(10));
                    }
                    _ => {
                        return Err(std::io::Error::new(
                            std::io::ErrorKind::TimedOut,
                            "it has nothing to read, and reading it would wait (a kernel or device file)",
                        ))
                    }
                },
                other => return other.map(drop),
            }
        }
    }
}

/// Whether `path`, as written, lies in a kernel file system (`/proc`,
/// `/sys`, `/dev`): their files are streams and controls, not documents,
/// and some block or change what they are read from. Callers that may
/// have come through a link pass the canonical path.
pub(crate) fn is_kernel_path(path: &Path) -> bool {
    ["/proc", "/sys", "/dev"].iter().any(|kernel| path.starts_with(kernel))
}

/// A cheap first look for walked files: XML starts with `<` (after a BOM
/// and white space), or is UTF-16 (a byte order mark, or `<` as a 16-bit
/// unit); a JSON Feed opens an object, `{`. Audio and images (`ID3`,
/// `0xFF 0xFB`, `0xFF 0xD8`, `0x89 PNG`) do not pass.
pub(crate) fn looks_like_a_feed(bytes: &[u8]) -> bool {
    if let [0xFE, 0xFF, ..] | [0xFF, 0xFE, ..] | [0x00, b'<', ..] | [b'<', 0x00, ..] = bytes {
        return true;
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    matches!(bytes.iter().find(|b| !b.is_ascii_whitespace()), Some(b'<' | b'{'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_look_passes_xml_and_json_and_not_media() {
        for xml in [
            &b"<?xml version='1.0'?><feed/>"[..],
            b"\xEF\xBB\xBF\n  <rss/>",
            b"\xFF\xFE<\x00f\x00",
            b"\xFE\xFF\x00<\x00f",
            b"<\x00f\x00",
            b"\x00<\x00f",
            b"\n {\"version\": \"https://jsonfeed.org/version/1.1\"}",
        ] {
            assert!(looks_like_a_feed(xml), "{xml:?}");
        }
        for media in [
            &b"ID3\x04\x00"[..],
            b"\xFF\xFB\x90\x00",
            b"\xFF\xD8\xFF\xE0",
            b"\x89PNG\r\n",
            b"",
            b"hello <b>",
        ] {
            assert!(!looks_like_a_feed(media), "{media:?}");
        }
    }

    #[test]
    fn a_read_that_would_wait_waits_until_its_deadline_only() {
        use std::os::unix::fs::OpenOptionsExt as _;
        let dir = std::env::temp_dir().join(format!("feedlint-would-block-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        // A reader that does not block, and a writer that writes nothing:
        // each read says "try again", as /proc/kmsg does.
        let open = || {
            std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&fifo)
                .unwrap()
        };
        let reader = open();
        let _writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        let mut impatient = Patient {
            file: reader,
            deadline: None,
        };
        let error = impatient.read_up_to(u64::MAX, &mut Vec::new()).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::TimedOut);
        let started = std::time::Instant::now();
        let mut patient = Patient {
            file: open(),
            deadline: Some(started + std::time::Duration::from_millis(200)),
        };
        let error = patient.read_up_to(u64::MAX, &mut Vec::new()).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::TimedOut);
        assert!(started.elapsed() >= std::time::Duration::from_millis(200));
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_file_that_fails_the_first_look_is_not_read_on() {
        let dir = std::env::temp_dir().join(format!("feedlint-first-look-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let audio = dir.join("episode.mp3");
        let mut bytes = b"ID3".to_vec();
        bytes.resize(4 * 1024 * 1024, 0x55);
        std::fs::write(&audio, &bytes).unwrap();
        assert!(matches!(
            read_file(&audio, u64::MAX, Some(looks_like_a_feed)).unwrap(),
            Read::NotWanted
        ));
        let feed = dir.join("feed.atom");
        std::fs::write(&feed, "<feed/>").unwrap();
        match read_file(&feed, u64::MAX, Some(looks_like_a_feed)).unwrap() {
            Read::Whole(read) => assert_eq!(read, b"<feed/>"),
            _ => panic!("the feed is read whole"),
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}
