//! One run: gather the documents, lint each in parallel (the DOM is dropped
//! as soon as its rules have run), then sort the findings.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use url::Url;

use crate::config::Levels;
use crate::diagnostic::{folding_finding, Diagnostic, DocId, Level, Pending, Span};
use crate::feed::{self, DocKind, FeedDoc, LARGE_DOCUMENT};
use crate::hash::{FastMap, FastSet};
use crate::rules::xml::{EXTERNAL_DTD_NOT_READ, FILE_TOO_LARGE, UNKNOWN_DOCUMENT, UNUSED_SUPPRESSION, XML_MALFORMED};
use crate::rules::{self, Rule};
use crate::set::{FeedSet, SetChecker};
use crate::snippet::{Place, Snippets};
use crate::source::{self, Source};
use crate::summary::DocSummary;
use crate::suppress::{self, Suppression};
use crate::xml;

/// What a run is told besides the paths.
#[derive(Debug, Clone)]
pub struct Options {
    pub levels: Levels,
    /// Where the linted directory (or a named file's directory) is published.
    pub base_url: Option<Url>,
    /// The URL of the single document linted (a file or stdin).
    pub url: Option<Url>,
    /// Keep windows of the documents' lines, for the text renderer's
    /// snippets (set findings show snippets of several documents).
    pub keep_sources: bool,
    /// Files larger than this are not read (`--max-file-size`); 0 means the
    /// default, [`DEFAULT_MAX_FILE_SIZE`].
    pub max_file_size: u64,
    /// The most findings of one rule shown per document, the rest counted
    /// in one more finding (`--max-per-rule`); 0 shows every finding.
    pub max_per_rule: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            levels: Levels::default(),
            base_url: None,
            url: None,
            keep_sources: false,
            max_file_size: 0,
            max_per_rule: crate::diagnostic::DEFAULT_MAX_PER_RULE,
        }
    }
}

/// The largest file read by default: 256 MiB.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 256 * 1024 * 1024;

impl Options {
    fn max_file_size(&self) -> u64 {
        if self.max_file_size == 0 {
            DEFAULT_MAX_FILE_SIZE
        } else {
            // The parser keeps offsets in 32 bits.
            self.max_file_size.min(u64::from(u32::MAX))
        }
    }
}

/// A thing to lint, as given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Path(PathBuf),
    /// One document read from standard input.
    Stdin(Vec<u8>),
}

/// A linted document.
#[derive(Debug)]
pub struct Document {
    /// The path as the user gave it (joined with the walked part), or `-`.
    pub name: String,
    /// The file, for per-path settings; `None` for standard input.
    pub path: Option<PathBuf>,
    pub url: Option<Url>,
    /// Other URLs that name the document: the URL a fetch asked for, when
    /// it was redirected.
    pub aliases: Vec<Url>,
    /// The windows of the lines that findings (and the places set rules
    /// may point at) are on, kept only when asked for: the text format's
    /// snippets. The text itself is never kept.
    pub snippets: Option<Snippets>,
    /// What the set checks need of the document, once its DOM is gone.
    pub summary: Option<DocSummary>,
    /// The `feedlint-disable` comments of the document.
    pub suppressions: Vec<Suppression>,
}

/// Everything a run found.
#[derive(Debug, Default)]
pub struct Report {
    pub documents: Vec<Document>,
    /// Sorted by file, then byte offset, then rule.
    pub diagnostics: Vec<Diagnostic>,
    /// Paths that could not be read: the run failed for them (exit status 2).
    pub failures: Vec<String>,
}

impl Report {
    pub fn count(&self, level: Level) -> usize {
        self.diagnostics.iter().filter(|d| d.level == level).count()
    }
}

/// One document to read and lint.
struct Job {
    name: String,
    url: Option<Url>,
    origin: Origin,
    /// Named on the command line (always reported on), not found by walking.
    explicit: bool,
}

enum Origin {
    File(PathBuf),
    Bytes(Vec<u8>),
}

/// Lints everything the inputs name.
pub fn lint(inputs: Vec<Input>, options: &Options) -> Report {
    let mut failures = Vec::new();
    let url_spaces = url_spaces(&inputs, options);
    let jobs = gather(inputs, options, &mut failures);
    let outcomes: Vec<Result<Option<Outcome>, String>> =
        jobs.into_par_iter().map(|job| run_job(job, options)).collect();
    let mut done = Vec::with_capacity(outcomes.len());
    for outcome in outcomes {
        match outcome {
            Ok(outcome) => done.extend(outcome),
            Err(failure) => failures.push(failure),
        }
    }
    let mut report = Report::assemble(done, &url_spaces, Vec::new(), options);
    report.failures.extend(failures);
    report
}

/// Where documents are expected to exist: under each linted directory's
/// `--base-url`, or its `file:` URL.
fn url_spaces(inputs: &[Input], options: &Options) -> Vec<Url> {
    inputs
        .iter()
        .filter_map(|input| match input {
            Input::Path(path) if path.is_dir() => options.base_url.clone().or_else(|| file_url(path)).map(as_directory),
            _ => None,
        })
        .collect()
}

/// Lints one document given as bytes (an editor buffer, a test, a fuzzer).
pub fn lint_bytes(name: &str, url: Option<Url>, bytes: &[u8], options: &Options) -> Report {
    lint_in_memory(vec![(name.to_owned(), url, bytes.to_vec())], &[], options)
}

/// Lints documents held in memory as one set: `(name, URL, bytes)` each.
/// `url_spaces` are the URL prefixes under which a linked document is
/// expected to be among them (see `archive-link-dangling`).
pub fn lint_in_memory(documents: Vec<(String, Option<Url>, Vec<u8>)>, url_spaces: &[Url], options: &Options) -> Report {
    let outcomes: Vec<Option<Outcome>> = documents
        .into_par_iter()
        .map(|(name, url, bytes)| lint_document(Named { name, path: None, url }, bytes, true, options))
        .collect();
    Report::assemble(
        outcomes.into_iter().flatten().collect(),
        url_spaces,
        Vec::new(),
        options,
    )
}

impl Report {
    /// The documents' findings, then the set rules' and `extra` findings
    /// about the set (the fetcher's), then suppressions, sorted.
    pub(crate) fn assemble(
        outcomes: Vec<Outcome>,
        url_spaces: &[Url],
        extra: Vec<(&'static Rule, Pending<Span>)>,
        options: &Options,
    ) -> Report {
        let mut report = Report::default();
        let mut unused = Vec::with_capacity(outcomes.len());
        for outcome in outcomes {
            unused.push(report.add(outcome));
        }
        report.check_set(url_spaces, options);
        report.add_set_findings(extra, options);
        report.apply_suppressions(unused);
        report.sort();
        report.fold(options.max_per_rule);
        report
    }

    /// Adds a document and its findings; returns its `unused-suppression`
    /// findings, which stand only if nothing turns out to be suppressed.
    fn add(&mut self, outcome: Outcome) -> Vec<Diagnostic> {
        let doc = self.documents.len();
        let Outcome {
            mut document,
            diagnostics,
            unused,
        } = outcome;
        let mut diagnostics = diagnostics;
        let mut unused = unused;
        let spans = diagnostics
            .iter_mut()
            .chain(unused.iter_mut())
            .flat_map(|d| d.spans.iter_mut());
        for span in spans.chain(document.summary.iter_mut().flat_map(DocSummary::spans_mut)) {
            span.doc = doc;
        }
        self.diagnostics.extend(diagnostics);
        self.documents.push(document);
        unused
    }

    /// Runs the set rules over the summaries of all documents.
    fn check_set(&mut self, url_spaces: &[Url], options: &Options) {
        let set = FeedSet::new(&self.documents, url_spaces);
        // Each set rule on its own thread: this phase waits for every
        // document, so nothing else would keep the cores busy.
        let enabled: Vec<&'static Rule> = rules::RULES
            .iter()
            .copied()
            .filter(|rule| rule.set_check.is_some() && options.levels.enabled_anywhere(rule))
            .collect();
        let per_rule: Vec<Vec<_>> = enabled
            .par_iter()
            .with_max_len(1)
            .map(|rule| {
                let mut checker = SetChecker::new(&set);
                checker.run(rule);
                checker.into_findings()
            })
            .collect();
        self.add_set_findings(per_rule.into_iter().flatten().collect(), options);
    }

    /// Findings about the set, at the level of their primary document.
    fn add_set_findings(&mut self, findings: Vec<(&'static Rule, Pending<Span>)>, options: &Options) {
        let documents = &self.documents;
        self.diagnostics
            .extend(findings.into_iter().filter_map(|(rule, pending)| {
                let path = documents[pending.primary.doc].path.as_deref();
                let level = options.levels.level_for(rule, path)?;
                Some(pending.into_diagnostic(rule.id, level))
            }));
    }

    /// Drops the findings that `feedlint-disable` comments cover, then
    /// reports the suppressions that covered none.
    fn apply_suppressions(&mut self, unused: Vec<Vec<Diagnostic>>) {
        let mut suppressions: Vec<Vec<Suppression>> = self
            .documents
            .iter_mut()
            .map(|d| std::mem::take(&mut d.suppressions))
            .collect();
        suppress::apply(&mut self.diagnostics, &mut suppressions);
        for ((document, suppressions), unused) in self.documents.iter_mut().zip(suppressions).zip(unused) {
            // `unused` holds one finding per suppression, in the same order.
            let still_unused = unused
                .into_iter()
                .zip(suppressions.iter())
                .filter(|(_, s)| !s.used)
                .map(|(d, _)| d);
            self.diagnostics.extend(still_unused);
            document.suppressions = suppressions;
        }
    }

    /// Keeps the first `max` findings of each rule in each document (0:
    /// all), in report order, and puts in place of the rest one finding
    /// that counts them, where the first of them was. Document rules that
    /// no suppression names were already folded as they ran (a finding that
    /// already stands for others is kept as it is); this folds the rest:
    /// set rules, the engine's own findings, and rules a suppression names,
    /// whose findings had to meet the suppressions first.
    fn fold(&mut self, max: usize) {
        if max == 0 {
            return;
        }
        let mut shown: FastMap<(DocId, &'static str), usize> = FastMap::default();
        // Per group past its limit: the index in `kept` of its folding
        // finding, and how many it stands for.
        let mut folds: FastMap<(DocId, &'static str), (usize, usize)> = FastMap::default();
        let mut kept = Vec::with_capacity(self.diagnostics.len());
        for diagnostic in std::mem::take(&mut self.diagnostics) {
            let group = (diagnostic.primary().doc, diagnostic.rule);
            let count = shown.entry(group).or_default();
            if diagnostic.folded > 0 || *count < max {
                *count += usize::from(diagnostic.folded == 0);
                kept.push(diagnostic);
                continue;
            }
            match folds.get_mut(&group) {
                Some((_, n)) => *n += 1,
                None => {
                    folds.insert(group, (kept.len(), 1));
                    kept.push(diagnostic);
                }
            }
        }
        for ((_, rule), (index, n)) in folds {
            let first = &kept[index];
            let fold = folding_finding(first.primary().clone(), rule, n, max);
            kept[index] = fold.into_diagnostic(rule, first.level);
        }
        self.diagnostics = kept;
    }

    fn sort(&mut self) {
        let names: Vec<&str> = self.documents.iter().map(|d| d.name.as_str()).collect();
        self.diagnostics.sort_by(|a, b| {
            let (pa, pb) = (a.primary(), b.primary());
            (names[pa.doc], pa.byte_start, a.rule, &a.message, pa.byte_end).cmp(&(
                names[pb.doc],
                pb.byte_start,
                b.rule,
                &b.message,
                pb.byte_end,
            ))
        });
    }
}

fn gather(inputs: Vec<Input>, options: &Options, failures: &mut Vec<String>) -> Vec<Job> {
    let mut jobs = Vec::new();
    for input in inputs {
        match input {
            Input::Stdin(bytes) => jobs.push(Job {
                name: "-".to_owned(),
                url: options.url.clone(),
                origin: Origin::Bytes(bytes),
                explicit: true,
            }),
            Input::Path(path) if path.is_dir() => walk(&path, options, &mut jobs, failures),
            Input::Path(path) => {
                let url = options.url.clone().or_else(|| {
                    let name = path.file_name()?.to_string_lossy().into_owned();
                    mapped_url(options, &[name]).or_else(|| file_url(&path))
                });
                jobs.push(Job {
                    name: path.display().to_string(),
                    url,
                    origin: Origin::File(path),
                    explicit: true,
                });
            }
        }
    }
    jobs
}

fn walk(root: &Path, options: &Options, jobs: &mut Vec<Job>, failures: &mut Vec<String>) {
    // The root is made canonical once; files below it get their URLs by
    // joining their path segments (a realpath per file costs more than
    // parsing small feeds).
    let root_url = file_url(root).map(as_directory);
    let walker = walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| entry.depth() == 0 || !entry.file_name().to_string_lossy().starts_with('.'));
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                failures.push(format!("cannot walk {}: {error}", root.display()));
                continue;
            }
        };
        if !entry.file_type().is_file() {
            continue;
        }
        let path = entry.into_path();
        let segments: Vec<String> = path
            .strip_prefix(root)
            .map(|rel| {
                rel.components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        let url = mapped_url(options, &segments).or_else(|| joined(root_url.as_ref()?, &segments));
        jobs.push(Job {
            name: path.display().to_string(),
            url,
            origin: Origin::File(path),
            explicit: false,
        });
    }
}

/// The URL of a file under `--base-url`, from its path segments.
fn mapped_url(options: &Options, segments: &[String]) -> Option<Url> {
    joined(&as_directory(options.base_url.clone()?), segments)
}

/// A directory URL with path segments added.
fn joined(directory: &Url, segments: &[String]) -> Option<Url> {
    let mut url = directory.clone();
    url.path_segments_mut().ok()?.pop_if_empty().extend(segments);
    Some(url)
}

/// The URL with a trailing `/`, so that it names a directory.
fn as_directory(mut url: Url) -> Url {
    if !url.path().ends_with('/') {
        let path = format!("{}/", url.path());
        url.set_path(&path);
    }
    url
}

fn file_url(path: &Path) -> Option<Url> {
    let absolute = std::fs::canonicalize(path).ok()?;
    Url::from_file_path(absolute).ok()
}

pub(crate) struct Outcome {
    pub document: Document,
    pub diagnostics: Vec<Diagnostic>,
    /// One `unused-suppression` finding per suppression, kept only for the
    /// suppressions that turn out to suppress nothing.
    unused: Vec<Diagnostic>,
}

fn run_job(job: Job, options: &Options) -> Result<Option<Outcome>, String> {
    let (bytes, path) = match job.origin {
        Origin::Bytes(bytes) if bytes.len() as u64 > options.max_file_size() => {
            let named = Named {
                name: job.name,
                path: None,
                url: job.url,
            };
            return Ok(Some(too_large(named, Some(bytes.len() as u64), options)));
        }
        Origin::Bytes(bytes) => (bytes, None),
        Origin::File(path) => match read_file(&path, options.max_file_size()) {
            Ok(Read::Whole(bytes)) => (bytes, Some(path)),
            Ok(Read::TooLarge { size, prefix }) => {
                // A walked file too large to read is reported only if it
                // looks like a feed; a video in the tree is not a finding.
                let looks_like_feed = looks_like_xml(&prefix) && root_name_is_feed(&String::from_utf8_lossy(&prefix));
                if !job.explicit && !looks_like_feed {
                    return Ok(None);
                }
                let named = Named {
                    name: job.name,
                    path: Some(path),
                    url: job.url,
                };
                return Ok(Some(too_large(named, size, options)));
            }
            Err(error) => return Err(format!("cannot read {}: {error}", path.display())),
        },
    };
    if !job.explicit && !looks_like_xml(&bytes) {
        return Ok(None);
    }
    let named = Named {
        name: job.name,
        path,
        url: job.url,
    };
    Ok(lint_document(named, bytes, job.explicit, options))
}

enum Read {
    Whole(Vec<u8>),
    /// Over the limit: the file's size (unknown for a stream), and its
    /// first bytes for a look.
    TooLarge {
        size: Option<u64>,
        prefix: Vec<u8>,
    },
}

/// Reads a file unless it is larger than `limit`; the size is checked
/// before reading and again while reading (a file can grow meanwhile).
fn read_file(path: &Path, limit: u64) -> std::io::Result<Read> {
    use std::io::Read as _;
    let file = std::fs::File::open(path)?;
    let size = file.metadata()?.len();
    let mut bytes = Vec::new();
    if size > limit {
        file.take(64 * 1024).read_to_end(&mut bytes)?;
        return Ok(Read::TooLarge {
            size: Some(size),
            prefix: bytes,
        });
    }
    // Never much more than the limit, whatever the size claims (a pipe, a
    // device such as /dev/zero, or a /proc file that says 0): `Take` stops
    // 8 KiB past it (some /proc files refuse reads smaller than that). Room is reserved for the size claimed plus one byte to
    // see the end, and `read_to_end` reads into it without zeroing it first
    // (3% of the instructions of a run over many small feeds): a regular
    // file takes two or three reads.
    let most = limit.saturating_add(8192);
    let claimed = usize::try_from(size.saturating_add(1).min(most)).unwrap_or(usize::MAX);
    bytes.reserve_exact(claimed.max(8192));
    file.take(most).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        bytes.truncate(64 * 1024);
        return Ok(Read::TooLarge {
            size: None,
            prefix: bytes,
        });
    }
    Ok(Read::Whole(bytes))
}

/// The single lines between the lines a finding points at, shown so that
/// its snippet reads as the source does (longer gaps are marked `·`).
fn lines_between<'d>(text: &'d str, diagnostic: &'d Diagnostic) -> impl Iterator<Item = Place> + 'd {
    let mut lines: Vec<(usize, usize)> = diagnostic.spans.iter().map(|s| (s.line_start, s.byte_start)).collect();
    lines.sort_unstable();
    let gaps: Vec<Place> = lines
        .windows(2)
        .filter(|pair| pair[1].0 == pair[0].0 + 2)
        .filter_map(|pair| {
            let (line, offset) = pair[0];
            let next = offset + text.get(offset..)?.find('\n')? + 1;
            Some(Place {
                offset: next,
                line: line + 1,
                column: 1,
            })
        })
        .collect();
    gaps.into_iter()
}

/// The start of a document.
const START: Place = Place {
    offset: 0,
    line: 1,
    column: 1,
};

/// The finding for a file over `--max-file-size`: it is not read.
fn too_large(named: Named, size: Option<u64>, options: &Options) -> Outcome {
    let source = Source::new(String::new());
    let limit = options.max_file_size();
    let level = options.levels.level_for(&FILE_TOO_LARGE, named.path.as_deref());
    let diagnostics = level
        .map(|level| {
            let size = size.map_or_else(String::new, |size| format!("{size} bytes, "));
            Pending::new(0..0, format!("not linted: the file is {size}larger than the limit of {limit} bytes (--max-file-size)"))
                .label("this file")
                .note("feedlint reads a whole document into memory before parsing it; the limit keeps a huge or hostile file from exhausting memory")
                .help("raise --max-file-size if the file is a legitimate feed")
                .resolve(FILE_TOO_LARGE.id, level, 0, &mut source.locator())
        })
        .into_iter()
        .collect();
    Outcome {
        document: Document {
            name: named.name,
            path: named.path,
            url: named.url,
            aliases: Vec::new(),
            snippets: options.keep_sources.then(|| Snippets::cut("", [START])),
            summary: None,
            suppressions: Vec::new(),
        },
        diagnostics,
        unused: Vec::new(),
    }
}

/// How a document is known: its name in findings, its file, its URL.
pub(crate) struct Named {
    pub name: String,
    pub path: Option<PathBuf>,
    pub url: Option<Url>,
}

/// A cheap first look for walked files: XML starts with `<` (after a BOM
/// and white space) or is UTF-16.
fn looks_like_xml(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    matches!(
        bytes.iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'<' | 0xFE | 0xFF | 0x00)
    )
}

/// Decodes, parses and lints one document. `None`: a walked file that is
/// not a feed, skipped silently.
pub(crate) fn lint_document(named: Named, bytes: Vec<u8>, explicit: bool, options: &Options) -> Option<Outcome> {
    let Named { name, path, url } = named;
    let (text, decode_error) = match source::decode(bytes) {
        Ok(text) => (text, None),
        Err((text, error)) => (text, Some(error)),
    };
    if !explicit && !root_name_is_feed(&text) {
        return None;
    }
    // Every rule's level for this document, looked up once.
    let levels: Vec<Option<Level>> = rules::RULES
        .iter()
        .map(|rule| options.levels.level_for(rule, path.as_deref()))
        .collect();
    let level_of = |rule: &Rule| {
        let index = rules::RULES.iter().position(|r| std::ptr::eq(*r, rule))?;
        levels[index]
    };
    let source = Source::new(text);
    let mut findings: Vec<(&'static Rule, Pending)> = Vec::new();
    let mut summary = None;
    let mut suppressions = Vec::new();
    if let Some(error) = decode_error {
        findings.push((&XML_MALFORMED, malformed(&source, error.offset, error.message)));
    } else {
        match xml::parse(source.text()) {
            Err(error) => findings.push((&XML_MALFORMED, malformed(&source, error.at, error.message))),
            Ok(xml) => match DocKind::of_root(xml.root_element()) {
                None if !explicit => return None,
                None => findings.push((&UNKNOWN_DOCUMENT, unknown_document(&xml))),
                Some(kind) => {
                    let feed = FeedDoc::new(&xml, kind, url.as_ref());
                    let enabled: Vec<&'static Rule> = rules::RULES
                        .iter()
                        .copied()
                        .filter(|rule| level_of(rule).is_some())
                        .collect();
                    let large = source.text().len() >= LARGE_DOCUMENT;
                    suppressions = suppress::gather(feed.everywhere.suppressions.iter());
                    // A rule that a suppression names is folded only once
                    // the suppressions have met its findings (in the report).
                    let named: FastSet<&str> = suppressions.iter().map(|s| s.rule.as_str()).collect();
                    let limit = |rule: &'static Rule| {
                        if named.contains(rule.id) {
                            0
                        } else {
                            options.max_per_rule
                        }
                    };
                    let (found, summarized) = feed::both(
                        large,
                        || rules::check_document(&feed, &enabled, large, &limit),
                        || DocSummary::of(&feed, &source),
                    );
                    findings = found;
                    findings.extend(
                        xml.unread_entity()
                            .map(|unread| (&EXTERNAL_DTD_NOT_READ, unread_entity(unread))),
                    );
                    summary = Some(summarized);
                }
            },
        }
    }
    let mut locator = source.locator();
    let diagnostics: Vec<Diagnostic> = findings
        .into_iter()
        .filter_map(|(rule, pending)| Some(pending.resolve(rule.id, level_of(rule)?, 0, &mut locator)))
        .collect();
    drop(locator);
    // Where unused suppressions will point, resolved while the text is here.
    let unused_level = level_of(&UNUSED_SUPPRESSION);
    let unused = unused_level.map_or_else(Vec::new, |level| {
        suppress::report_unused(&suppressions, 0, &source, level)
    });
    let snippets = options.keep_sources.then(|| {
        let spans = diagnostics.iter().chain(&unused).flat_map(|d| &d.spans);
        let places = spans.flat_map(|span| {
            let end = (span.line_end != span.line_start).then(|| span.end_place());
            std::iter::once(span.start_place()).chain(end)
        });
        let summary_places = summary.iter().flat_map(DocSummary::places);
        let gaps = diagnostics.iter().flat_map(|d| lines_between(source.text(), d));
        Snippets::cut(source.text(), places.chain(summary_places).chain(gaps))
    });
    Some(Outcome {
        document: Document {
            name,
            path,
            url,
            aliases: Vec::new(),
            snippets,
            summary,
            suppressions,
        },
        diagnostics,
        unused,
    })
}

fn malformed(source: &Source, offset: usize, message: String) -> Pending {
    let offset = offset.min(source.text().len());
    // One character wide, so the snippet shows where; empty at end of file.
    let end = source.text()[offset..]
        .chars()
        .next()
        .map_or(offset, |c| offset + c.len_utf8());
    Pending::new(offset..end, format!("not well-formed XML: {message}"))
        .label("here")
        .note("no other rule runs on a document that does not parse")
}

fn unread_entity(unread: &xml::UnreadEntity) -> Pending {
    let name = &unread.name;
    let (message, help) = if unread.declared_external {
        (
            format!("the external entity \"&{name};\" is not read: feedlint never reads files or URLs an entity names, so its text is not checked"),
            "put the text in the document itself, or in an internal entity",
        )
    } else {
        (
            format!("\"&{name};\" is not expanded: it is not declared in the document, and the external DTD or parameter entity that may declare it is not read"),
            "declare the entity in the internal subset (<!DOCTYPE ... [<!ENTITY ...>]>), or write the character as a reference such as &#233;",
        )
    };
    Pending::new(unread.range.clone(), message)
        .label("not expanded")
        .note("the rest of the document is linted; text that uses the entity is read without it, and only the first such reference is reported")
        .help(help)
}

fn unknown_document(xml: &xml::Document) -> Pending {
    let root = xml.root_element();
    let name = root.tag_name();
    let what = match name.namespace() {
        Some(ns) => format!("<{}> in namespace \"{ns}\"", name.name()),
        None => format!("<{}>", name.name()),
    };
    let finding = Pending::new(crate::feed::start_tag(root), format!("not a feed: the root element is {what}"))
        .label("root element")
        .note("feedlint lints Atom feeds (atom:feed), RSS (rss) and Deleted Entry Documents (at:deleted-entry); this file is not linted further");
    match name.namespace().and_then(crate::feed::intended_namespace) {
        Some(intended) => finding.help(format!(
            "the namespace is a near miss: declare it as \"{intended}\" (namespace names compare as exact strings)"
        )),
        None => finding,
    }
}

/// A lexical look at the root element's local name, before parsing, so that
/// walked files that are not feeds are skipped without building a DOM.
fn root_name_is_feed(text: &str) -> bool {
    let mut rest = text.trim_start_matches('\u{FEFF}');
    loop {
        rest = rest.trim_start();
        let skip = if rest.starts_with("<?") {
            rest.find("?>").map(|i| i + 2)
        } else if rest.starts_with("<!--") {
            rest.find("-->").map(|i| i + 3)
        } else if rest.starts_with("<!DOCTYPE") {
            xml::declaration_len(rest)
        } else {
            break;
        };
        match skip {
            Some(len) => rest = &rest[len..],
            None => return false,
        }
    }
    let Some(tag) = rest.strip_prefix('<') else {
        return false;
    };
    let name_len = tag
        .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
        .unwrap_or(tag.len());
    let qname = &tag[..name_len];
    let local = qname.rsplit(':').next().unwrap_or(qname);
    matches!(local, "feed" | "rss" | "deleted-entry")
}
