//! What a run is told besides its inputs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use url::Url;

use crate::findings::diagnostic::{DocId, Pending, Span};
use crate::findings::remedy::{Plain, Wording};
use crate::model::summary::MediaRef;
use crate::rules::Rule;
use crate::settings::config::{Config, Levels};
use crate::Level;

/// What a run is told besides the paths. The URLs are set with
/// [`Options::with_base_url`] and [`Options::with_url`], which check them.
#[derive(Debug, Clone)]
pub struct Options {
    levels: Levels,
    /// Where `base_root` is published.
    base_url: Option<Url>,
    /// The directory `base_url` names (`--root`, the config's directory);
    /// `None`: the directory that holds every path linted.
    base_root: Option<PathBuf>,
    /// Other trees of the run published at URLs of their own (the base URL
    /// of a second config), each with its root directory.
    more_bases: Vec<(Url, PathBuf)>,
    /// The URL of the single document linted (a file or stdin).
    url: Option<Url>,
    /// Keep windows of the documents' lines, for the text renderer's
    /// snippets (set findings show snippets of several documents).
    keep_sources: bool,
    /// Keep each document's whole text (the web page shows the lines
    /// around every finding and the diff of every fix).
    keep_texts: bool,
    /// Files larger than this are not read (`--max-file-size`); 0 means the
    /// default, [`DEFAULT_MAX_FILE_SIZE`].
    max_file_size: u64,
    /// The most findings of one rule shown per document, the rest counted
    /// in one more finding (`--max-per-rule`); 0 shows every finding.
    max_per_rule: usize,
    /// The most findings a run keeps (`--max-findings`); the rest are
    /// counted by level, not kept, so that a run's memory does not grow
    /// with its findings. 0 keeps every finding.
    max_findings: usize,
    /// Globs (gitignore syntax) of what walking skips, below each walked
    /// directory (`--exclude`).
    exclude: Vec<String>,
    /// Configs' `exclude` lists, each with its config's directory: walking
    /// a directory adds the list of the config nearest above it.
    config_excludes: Vec<(PathBuf, Vec<String>)>,
    /// Contents that stand for files on disk, by the path a run reads them
    /// by: an editor's unsaved buffers, or the text `--fix` has made so far.
    overlay: Arc<HashMap<PathBuf, Vec<u8>>>,
    /// The check of the media the documents name (`--check-media`), made
    /// once they are all read; `None`: no media is asked for.
    media: Option<Arc<dyn MediaCheck>>,
    /// The check of the WebSub hubs the documents name (`--check-hub`);
    /// `None`: no hub is asked.
    hubs: Option<Arc<dyn HubCheck>>,
    /// How the run's findings name limits and remedies: the front door's
    /// words ([`Options::with_words`]), plain ones by default.
    words: Arc<dyn Wording>,
}

impl Options {
    /// Whether the run checks media: asked to, with a rule of group
    /// `media` on (`--ignore media` asks no server).
    pub(crate) fn checks_media(&self) -> bool {
        self.media.is_some()
            && crate::rules::RULES
                .iter()
                .filter(|rule| rule.groups.contains(&crate::rules::Group::Media))
                .any(|rule| self.levels.enabled_anywhere(rule))
    }

    /// Whether a walk keeps the web pages it meets, for the feeds they
    /// advertise: only while a `discovery` rule is on.
    pub(crate) fn reads_pages(&self) -> bool {
        crate::rules::RULES
            .iter()
            .filter(|rule| rule.groups.contains(&crate::rules::Group::Discovery))
            .any(|rule| self.levels.enabled_anywhere(rule))
    }
}

impl Options {
    /// Whether a fetched document is asked for a second time, conditionally:
    /// a rule that judges the answer is on somewhere.
    pub(crate) fn revalidates(&self) -> bool {
        use crate::rules::http::{HTTP_ETAG_IGNORED, HTTP_ETAG_UNSTABLE, HTTP_LAST_MODIFIED_IGNORED, HTTP_NO_CORS};
        [
            &HTTP_ETAG_IGNORED,
            &HTTP_LAST_MODIFIED_IGNORED,
            &HTTP_ETAG_UNSTABLE,
            &HTTP_NO_CORS,
        ]
        .into_iter()
        .any(|rule| self.levels.enabled_anywhere(rule))
    }

    /// Whether the run asks hubs: asked to, with `websub-hub-unreachable`
    /// on somewhere.
    pub(crate) fn checks_hubs(&self) -> bool {
        self.hubs.is_some()
            && self
                .levels
                .enabled_anywhere(&crate::rules::websub::WEBSUB_HUB_UNREACHABLE)
    }

    /// The check of the hubs, if one is asked for.
    pub fn hubs(&self) -> Option<&Arc<dyn HubCheck>> {
        self.hubs.as_ref()
    }

    /// The options with the hub check given (`None`: no hub asked).
    pub fn with_hubs(mut self, hubs: Option<Arc<dyn HubCheck>>) -> Options {
        self.hubs = hubs;
        self
    }
}

/// A check of the WebSub hubs the documents name (`--check-hub`): one
/// discovery request to each, never a subscription. As [`MediaCheck`], the
/// fetcher makes it and the run hands it what its documents name.
pub trait HubCheck: std::fmt::Debug + Send + Sync {
    /// Gives `found` each finding about `hubs` (each linted document's
    /// index with the hubs it names, and where).
    fn check(
        &self,
        hubs: &[(DocId, &[crate::model::summary::Located<Url>])],
        walk: Option<&Walked>,
        words: &dyn Wording,
        found: &mut dyn FnMut((&'static Rule, Pending<Span>)),
    );
}

/// A check of the media the documents name (`--check-media`): the fetcher
/// makes it; a run only hands it what its documents name, once they are
/// read, and reports what it finds with the other findings.
pub trait MediaCheck: std::fmt::Debug + Send + Sync {
    /// Gives `found` each finding about `media` (each linted document's
    /// index in the run with what it names) as it is made, so that the
    /// run spends its `--max-findings` on them then and keeps none past
    /// it. `walk`: the deadline and start URLs of the walk that fetched
    /// the documents, when they were fetched. `words`: how the findings
    /// name limits and remedies.
    fn check(
        &self,
        media: &[(DocId, &[MediaRef])],
        walk: Option<&Walked>,
        words: &dyn Wording,
        found: &mut dyn FnMut((&'static Rule, Pending<Span>)),
    );
}

/// What a walk over URLs tells the media check: its deadline, which the
/// check shares, and the URLs it started from with the addresses their
/// hosts resolved to when the walk began (resolved once a run: the check
/// may reach the address space the walk could, and no second answer of a
/// name server can widen it).
#[derive(Debug, Clone)]
pub struct Walked {
    pub deadline: std::time::Instant,
    pub start: Vec<Url>,
    pub start_addresses: Vec<Vec<std::net::IpAddr>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            levels: Levels::default(),
            base_url: None,
            base_root: None,
            more_bases: Vec::new(),
            url: None,
            keep_sources: false,
            keep_texts: false,
            max_file_size: 0,
            max_per_rule: crate::findings::diagnostic::DEFAULT_MAX_PER_RULE,
            max_findings: DEFAULT_MAX_FINDINGS,
            exclude: Vec::new(),
            config_excludes: Vec::new(),
            overlay: Arc::default(),
            media: None,
            hubs: None,
            words: Arc::new(Plain),
        }
    }
}

impl Options {
    /// The options, their findings worded by `words` (each front door
    /// names limits and remedies its own way).
    pub fn with_words(mut self, words: Arc<dyn Wording>) -> Options {
        self.words = words;
        self
    }

    /// How the run's findings name limits and remedies.
    pub fn words(&self) -> &dyn Wording {
        self.words.as_ref()
    }

    /// The options with every finding kept, none folded into a count.
    pub fn keeping_every_finding(&self) -> Options {
        Options {
            max_per_rule: 0,
            max_findings: 0,
            ..self.clone()
        }
    }

    /// The options with `overlay`'s contents read in place of the files
    /// they stand for.
    pub fn with_overlay(mut self, overlay: HashMap<PathBuf, Vec<u8>>) -> Options {
        self.overlay = Arc::new(overlay);
        self
    }

    /// The options with the media check given (`None`: no media asked).
    pub fn with_media(mut self, media: Option<Arc<dyn MediaCheck>>) -> Options {
        self.media = media;
        self
    }

    /// Where the tree of the run's root is published, if given.
    pub(crate) fn base_url(&self) -> Option<&Url> {
        self.base_url.as_ref()
    }

    /// The directory the base URL names, if given.
    pub(crate) fn base_root(&self) -> Option<&Path> {
        self.base_root.as_deref()
    }

    /// Other trees of the run, each at its URL, with its root directory.
    pub(crate) fn more_bases(&self) -> &[(Url, PathBuf)] {
        &self.more_bases
    }

    /// The URL of the single document linted, if given.
    pub(crate) fn url(&self) -> Option<&Url> {
        self.url.as_ref()
    }

    /// The rules' levels, by path.
    pub fn levels(&self) -> &Levels {
        &self.levels
    }

    /// The options with these rule levels.
    pub fn with_levels(mut self, levels: Levels) -> Options {
        self.levels = levels;
        self
    }

    /// The options keeping windows of each document's lines (for the text
    /// format's snippets), or not.
    pub fn keeping_sources(mut self, keep: bool) -> Options {
        self.keep_sources = keep;
        self
    }

    pub(crate) fn keep_sources(&self) -> bool {
        self.keep_sources
    }

    pub(crate) fn keep_texts(&self) -> bool {
        self.keep_texts
    }

    /// The most findings of one rule shown per document (0: all).
    pub fn max_per_rule(&self) -> usize {
        self.max_per_rule
    }

    /// The most findings a run keeps (0: all).
    pub fn max_findings(&self) -> usize {
        self.max_findings
    }

    /// The globs walking skips, and the configs' lists by their folders.
    pub(crate) fn exclusions(&self) -> (&[String], &[(PathBuf, Vec<String>)]) {
        (&self.exclude, &self.config_excludes)
    }

    /// The contents that stand for files on disk.
    pub(crate) fn overlay(&self) -> &HashMap<PathBuf, Vec<u8>> {
        &self.overlay
    }

    /// The check of the media, if one is asked for.
    pub fn media(&self) -> Option<&Arc<dyn MediaCheck>> {
        self.media.as_ref()
    }

    /// The options keeping each document's whole text, or not.
    pub fn keeping_texts(mut self, keep: bool) -> Options {
        self.keep_texts = keep;
        self
    }
}

/// The most findings a run keeps by default: far more than anyone reads,
/// and about 50 MB of memory.
pub const DEFAULT_MAX_FINDINGS: usize = 100_000;

/// The largest file read by default: 256 MiB.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 256 * 1024 * 1024;

/// A URL given to feedlint that is not an absolute URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidUrl {
    pub url: String,
    /// Why, as the URL parser says it.
    pub reason: String,
}

impl std::fmt::Display for InvalidUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}' is not an absolute URL: {}", self.url, self.reason)
    }
}

impl std::error::Error for InvalidUrl {}

/// `url` parsed as an absolute URL, its password masked: a URL given to
/// describe local files is never requested, and whatever it is shown in
/// must not show the password.
pub(crate) fn absolute_url(url: &str) -> Result<Url, InvalidUrl> {
    match Url::parse(url) {
        Ok(url) => Ok(crate::base::secret::masked(&url)),
        Err(e) => Err(InvalidUrl {
            url: crate::base::secret::mask_text(url).into_owned(),
            reason: e.to_string(),
        }),
    }
}

impl Options {
    /// Where the linted directory (or a named file's directory) is
    /// published (`--base-url`).
    pub fn with_base_url(mut self, url: &str) -> Result<Self, InvalidUrl> {
        self.base_url = Some(absolute_url(url)?);
        Ok(self)
    }

    /// The root of the tree: the directory the base URL names, files
    /// mapping to URLs by their path below it, and what root-relative links
    /// start from (`--root`, or a config's directory). Without it, the
    /// directory that holds every path linted.
    pub fn with_base_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.base_root = Some(root.into());
        self
    }

    /// Another tree linted in the same run, published at a URL of its own:
    /// the files below `root` map to URLs below `url` (a second config's
    /// `base-url`, for the files below that config).
    pub fn with_tree_base_url(mut self, url: &str, root: impl Into<PathBuf>) -> Result<Self, InvalidUrl> {
        self.more_bases.push((absolute_url(url)?, root.into()));
        Ok(self)
    }

    /// The URL of the single document linted, a file or standard input
    /// (`--url`).
    pub fn with_url(mut self, url: &str) -> Result<Self, InvalidUrl> {
        self.url = Some(absolute_url(url)?);
        Ok(self)
    }

    pub(crate) fn max_file_size(&self) -> u64 {
        if self.max_file_size == 0 {
            DEFAULT_MAX_FILE_SIZE
        } else {
            // The parser keeps offsets in 32 bits.
            self.max_file_size.min(u64::from(u32::MAX))
        }
    }
}

/// The front door a run comes in by. It decides which of a config's parts
/// apply: each describes local files or a walk, which not every door has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrontDoor {
    /// `feedlint PATH...`: every setting applies.
    Files,
    /// `feedlint URL...`: a fetched document's URL is the one it was fetched
    /// from, and nothing is walked. The config is the current directory's,
    /// written for the local files; its base URL and excludes are left for
    /// them, not refused.
    Urls,
    /// The language server: the workspace's config, whole.
    Editor,
    /// `feedlint serve`: a server walks no folder, and a checked URL is its
    /// own base. A config's `exclude` and `base-url` are refused at start
    /// rather than ignored.
    Server,
}

/// What a front door was told besides the config: the command line's flags,
/// or a server's or editor's fixed settings. Each unset field leaves the
/// config's setting, else the default.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--select`: check only these rules (ids, prefixes, groups).
    pub select: Option<Vec<String>>,
    /// `--ignore`.
    pub ignore: Vec<String>,
    /// `--allow`, `--warn` and `--deny` in the order given (`None` turns the
    /// rule off): a later one wins.
    pub levels: Vec<(String, Option<Level>)>,
    /// `--exclude` globs.
    pub exclude: Vec<String>,
    /// The config was named (`--config`): its excludes apply to everything
    /// linted, not only below its own directory.
    pub config_named: bool,
    /// `--base-url`: the whole run's, over every config's.
    pub base_url: Option<String>,
    /// `--root`.
    pub root: Option<PathBuf>,
    /// `--url`.
    pub url: Option<String>,
    pub max_file_size: Option<u64>,
    pub max_per_rule: Option<usize>,
    pub max_findings: Option<usize>,
    pub keep_sources: bool,
    pub keep_texts: bool,
}

/// A run's settings, and what the person should be told of them.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub options: Options,
    /// The config's warnings: files found but skipped, and why.
    pub warnings: Vec<String>,
}

impl Options {
    /// The run's settings from the config and a front door's overrides: the
    /// one place that decides what wins. `Err` holds every mistake, a line
    /// each, before any work is done.
    pub fn resolve(config: Config, overrides: Overrides, door: FrontDoor) -> Result<Resolved, Vec<String>> {
        if door == FrontDoor::Server {
            let mut refused = Vec::new();
            if config.excludes.iter().any(|(_, globs)| !globs.is_empty()) {
                refused.push("exclude (a server walks no folder)");
            }
            if config.base_url.is_some() {
                refused.push("base-url (a checked URL is its own base; an upload can say where it is published)");
            }
            if !refused.is_empty() {
                return Err(vec![format!(
                    "{} cannot apply to `feedlint serve`: remove it, or give the server a config of its own",
                    refused.join(" and ")
                )]);
            }
        }
        let mut options = Options {
            levels: config.levels,
            keep_sources: overrides.keep_sources,
            keep_texts: overrides.keep_texts,
            ..Options::default()
        };
        options
            .levels
            .select(overrides.select.as_deref(), &overrides.ignore)
            .map_err(|e| vec![e.to_string()])?;
        for (id, level) in &overrides.levels {
            options.levels.set(id, *level).map_err(|e| vec![e.to_string()])?;
        }
        if let Some(size) = overrides.max_file_size {
            options.max_file_size = size;
        }
        if let Some(most) = overrides.max_per_rule {
            options.max_per_rule = most;
        }
        if let Some(most) = overrides.max_findings {
            options.max_findings = most;
        }
        crate::settings::exclude::check_exclusions(&overrides.exclude)
            .map_err(|e| vec![format!("invalid --exclude glob: {e}")])?;
        options.exclude = overrides.exclude;
        if door == FrontDoor::Urls {
            // What follows describes local files.
            return Ok(Resolved {
                options,
                warnings: config.warnings,
            });
        }
        if overrides.config_named {
            let globs = config.excludes.into_iter().flat_map(|(_, globs)| globs);
            options.exclude.extend(globs);
        } else {
            options.config_excludes = config.excludes;
        }
        // The base URL names a directory: --root, else the config's (for
        // the config's base-url), else the one that holds every path linted.
        let (base_url, base_root) = match (&overrides.base_url, config.base_url) {
            (Some(url), _) => (Some(url.clone()), overrides.root.clone()),
            (None, Some(url)) => (Some(url), overrides.root.clone().or(config.base_root)),
            (None, None) => (None, overrides.root.clone()),
        };
        if let Some(base_url) = base_url {
            options = options.with_base_url(&base_url).map_err(|e| vec![e.to_string()])?;
        }
        if let Some(root) = base_root {
            options = options.with_base_root(root);
        }
        // Other configs' base URLs, each for its own tree, unless --base-url
        // names one for the whole run.
        if overrides.base_url.is_none() {
            for (url, root) in &config.more_bases {
                options = options.with_tree_base_url(url, root).map_err(|e| vec![e.to_string()])?;
            }
        }
        if let Some(url) = &overrides.url {
            options = options.with_url(url).map_err(|e| vec![e.to_string()])?;
        }
        Ok(Resolved {
            options,
            warnings: config.warnings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleId;

    fn config_with(base_url: Option<&str>, excludes: &[&str]) -> Config {
        Config {
            base_url: base_url.map(str::to_owned),
            base_root: Some(PathBuf::from("/site")),
            excludes: vec![(
                PathBuf::from("/site"),
                excludes.iter().map(|g| (*g).to_owned()).collect(),
            )],
            more_bases: vec![("https://other.example/".to_owned(), PathBuf::from("/other"))],
            warnings: vec!["a warning".to_owned()],
            ..Config::default()
        }
    }

    #[test]
    fn a_later_level_flag_wins_and_a_mistake_is_an_error() {
        for (first, last) in [(Some(Level::Error), None), (None, Some(Level::Error))] {
            let overrides = Overrides {
                levels: vec![
                    ("archive-orphan".to_owned(), first),
                    ("archive-orphan".to_owned(), last),
                ],
                ..Overrides::default()
            };
            let resolved = Options::resolve(Config::default(), overrides, FrontDoor::Files).unwrap();
            assert_eq!(
                resolved
                    .options
                    .levels
                    .level(crate::rules::by_id(RuleId::ArchiveOrphan)),
                last
            );
        }
        let unknown = Overrides {
            levels: vec![("no-such-rule".to_owned(), None)],
            ..Overrides::default()
        };
        let mistakes = Options::resolve(Config::default(), unknown, FrontDoor::Files).unwrap_err();
        assert!(mistakes[0].contains("no-such-rule"), "{mistakes:?}");
        let glob = Overrides {
            exclude: vec!["[".to_owned()],
            ..Overrides::default()
        };
        let mistakes = Options::resolve(Config::default(), glob, FrontDoor::Files).unwrap_err();
        assert!(mistakes[0].starts_with("invalid --exclude glob"), "{mistakes:?}");
    }

    #[test]
    fn files_take_the_whole_config_and_the_flags_win() {
        let resolved = Options::resolve(
            config_with(Some("https://site.example/"), &["drafts/"]),
            Overrides::default(),
            FrontDoor::Files,
        )
        .unwrap();
        assert_eq!(resolved.warnings, ["a warning"]);
        let options = resolved.options;
        assert_eq!(options.base_url.unwrap().as_str(), "https://site.example/");
        assert_eq!(options.base_root, Some(PathBuf::from("/site")));
        assert_eq!(options.more_bases.len(), 1);
        assert_eq!(options.config_excludes.len(), 1);
        assert!(options.exclude.is_empty());

        let flags = Overrides {
            base_url: Some("https://flag.example/".to_owned()),
            config_named: true,
            ..Overrides::default()
        };
        let options = Options::resolve(
            config_with(Some("https://site.example/"), &["drafts/"]),
            flags,
            FrontDoor::Files,
        )
        .unwrap()
        .options;
        assert_eq!(options.base_url.unwrap().as_str(), "https://flag.example/");
        // --base-url is for the whole run: no other tree's, and the root is
        // the paths' own.
        assert!(options.more_bases.is_empty());
        assert_eq!(options.base_root, None);
        // A named config's excludes apply everywhere.
        assert_eq!(options.exclude, ["drafts/"]);
        assert!(options.config_excludes.is_empty());
    }

    #[test]
    fn urls_leave_what_describes_local_files_and_a_server_refuses_it() {
        let options = Options::resolve(
            config_with(Some("https://site.example/"), &["drafts/"]),
            Overrides::default(),
            FrontDoor::Urls,
        )
        .unwrap()
        .options;
        assert!(options.base_url.is_none() && options.more_bases.is_empty() && options.config_excludes.is_empty());

        let refused = Options::resolve(
            config_with(Some("https://site.example/"), &["drafts/"]),
            Overrides::default(),
            FrontDoor::Server,
        )
        .unwrap_err();
        assert!(
            refused[0].starts_with("exclude (a server walks no folder) and base-url"),
            "{refused:?}"
        );
        let levels_only = Options::resolve(config_with(None, &[]), Overrides::default(), FrontDoor::Server);
        assert!(levels_only.is_ok());
    }
}
