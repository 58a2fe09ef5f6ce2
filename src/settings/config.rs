//! Settings and rule levels. A rule's level for a file comes from, in
//! order of precedence: the command line (`--allow/--warn/--deny`, in
//! command-line order), the last `[[overrides]]` of the config file whose
//! `files` globs match the file, the config file's `[rules]`, and the rule's
//! default. `--deny warnings` then raises warnings to errors.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use toml::de::{DeTable, DeValue, ValueDeserializer};
use toml::Spanned;
use url::Url;

use crate::findings::diagnostic::Level;
use crate::findings::rule_id::{RuleId, RuleMap, UnknownRule};
use crate::rules::Rule;
use crate::settings::select::{Selection, Selector, UnknownSelector};

/// The config file's name, looked up from the paths linted upwards.
pub const CONFIG_FILE: &str = "feedlint.toml";

/// The level words of the config file.
const LEVEL_WORDS: &str = "error, warning, info, off";

/// A rule's setting: a level, or `None` for off.
type Setting = Option<Level>;

/// Each rule's setting where one is made (`None`: not set there).
type Settings = RuleMap<Option<Setting>>;

#[derive(Debug, Clone, Default)]
pub struct Levels {
    command_line: Settings,
    /// `--select` and `--ignore`.
    selection: Selection,
    /// One per config file, each for the files below its directory.
    layers: Vec<Layer>,
    deny_warnings: bool,
}

/// What one config file sets.
#[derive(Debug, Clone)]
struct Layer {
    /// The config file's directory, absolute.
    root: PathBuf,
    file: Settings,
    /// Its `select` and `ignore`.
    selection: Selection,
    overrides: Vec<Override>,
}

impl Layer {
    /// The setting of the last override whose globs match `absolute`.
    fn matching_override(&self, rule: &Rule, absolute: &Path) -> Option<Setting> {
        let relative = absolute.strip_prefix(&self.root).ok()?;
        self.overrides.iter().rev().find_map(|o| {
            if o.files.is_match(relative) {
                o.rules[rule.id]
            } else {
                None
            }
        })
    }
}

#[derive(Debug, Clone)]
struct Override {
    /// Matched relative to the config file's directory (its layer's root).
    files: GlobSet,
    rules: Settings,
}

impl Levels {
    /// Sets a rule's level from the command line (`None`: off).
    /// `warnings` with `Some(Error)` is `--deny warnings`.
    pub fn set(&mut self, id: &str, level: Setting) -> Result<(), UnknownRule> {
        if id == "warnings" && level == Some(Level::Error) {
            self.deny_warnings = true;
            return Ok(());
        }
        let id: RuleId = id.parse()?;
        self.command_line[id] = Some(level);
        Ok(())
    }

    /// Narrows the rules on to those `select` names (where given), less
    /// those `ignore` names, as `--select` and `--ignore` do. A rule set
    /// by `--allow`, `--warn` or `--deny` keeps that setting.
    pub fn select(&mut self, select: Option<&[String]>, ignore: &[String]) -> Result<(), UnknownSelector> {
        let parse = |words: &[String]| {
            words
                .iter()
                .map(|word| Selector::parse(word))
                .collect::<Result<Vec<_>, _>>()
        };
        self.selection = Selection {
            select: select.map(parse).transpose()?,
            ignore: parse(ignore)?,
        };
        Ok(())
    }

    /// Adds the settings of another config file, for the files below its
    /// directory (the nearest config of each path linted applies to it).
    pub fn add_config(&mut self, other: Levels) {
        self.layers.extend(other.layers);
    }

    /// The level of a rule's findings in the document at `path` (`None`
    /// for standard input), or `None` if the rule is off there.
    pub fn level_for(&self, rule: &Rule, path: Option<&Path>) -> Setting {
        self.level_in(rule, self.absolute(path).as_deref())
    }

    /// Every rule's level in the document at `path`, its path made
    /// absolute once.
    pub fn levels_for(&self, path: Option<&Path>) -> RuleMap<Setting> {
        let absolute = self.absolute(path);
        RuleMap::from_fn(|id| self.level_in(crate::rules::by_id(id), absolute.as_deref()))
    }

    /// Whether `--select` (or the select of the config nearest `path`)
    /// names one of `groups` by name.
    pub fn selects_groups_for(&self, groups: &[crate::rules::Group], path: Option<&Path>) -> bool {
        let absolute = self.absolute(path);
        let layer = self.layer_for(absolute.as_deref());
        self.selection.names_group_over(layer.map(|l| &l.selection), groups)
    }

    /// The path made absolute, when choosing the settings needs it (several
    /// configs, or per-path overrides).
    fn absolute(&self, path: Option<&Path>) -> Option<PathBuf> {
        let needed = self.layers.len() > 1 || self.layers.iter().any(|l| !l.overrides.is_empty());
        std::path::absolute(path.filter(|_| needed)?).ok()
    }

    fn level_in(&self, rule: &Rule, absolute: Option<&Path>) -> Setting {
        let layer = self.layer_for(absolute);
        let selected = || {
            self.selection
                .decides_over(layer.map(|l| &l.selection), rule.id)
                .unwrap_or(true)
        };
        let setting = self.command_line[rule.id]
            .or_else(|| (!selected()).then_some(None))
            .or_else(|| layer.and_then(|l| l.matching_override(rule, absolute?)))
            .or_else(|| layer.and_then(|l| l.file[rule.id]))
            .unwrap_or(Some(rule.level))?;
        Some(if self.deny_warnings && setting == Level::Warning {
            Level::Error
        } else {
            setting
        })
    }

    /// The config whose directory is the nearest above `absolute`; the
    /// first one for standard input or a path below none.
    fn layer_for(&self, absolute: Option<&Path>) -> Option<&Layer> {
        if self.layers.len() <= 1 {
            return self.layers.first();
        }
        absolute
            .and_then(|path| deepest_above(path, &self.layers, |l| &l.root))
            .or(self.layers.first())
    }

    /// The level of a rule where no per-path override applies.
    pub fn level(&self, rule: &Rule) -> Setting {
        self.level_for(rule, None)
    }

    /// Whether a rule is on for some document: set rules run if so, and
    /// their findings are then filtered per document.
    pub fn enabled_anywhere(&self, rule: &Rule) -> bool {
        if let Some(setting) = self.command_line[rule.id] {
            return setting.is_some();
        }
        if self.layers.is_empty() {
            return self.selection.decides(rule.id) != Some(false);
        }
        self.layers.iter().any(|layer| {
            self.selection.decides_over(Some(&layer.selection), rule.id) != Some(false)
                && (layer.file[rule.id].unwrap_or(Some(rule.level)).is_some()
                    || layer
                        .overrides
                        .iter()
                        .any(|o| o.rules[rule.id].is_some_and(|s| s.is_some())))
        })
    }
}

/// Of `items`, the one whose directory is the deepest above `path` (or
/// is `path`): the nearest config, tree or exclude list of a file.
pub(crate) fn deepest_above<'a, T>(
    path: &Path,
    items: impl IntoIterator<Item = &'a T>,
    dir: impl Fn(&T) -> &Path,
) -> Option<&'a T> {
    items
        .into_iter()
        .filter(|item| path.starts_with(dir(item)))
        .max_by_key(|item| dir(item).components().count())
}

/// What the config file sets.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// `base-url`, checked to be an absolute URL.
    pub base_url: Option<String>,
    /// The directory `base-url` names: `root` (relative to the config's
    /// directory), else the config's directory itself.
    pub base_root: Option<PathBuf>,
    pub levels: Levels,
    /// `exclude`: globs (gitignore syntax) of what walking skips, each list
    /// with the directory of its config (walking a directory uses the list
    /// of the config nearest above it). Other configs' lists follow the
    /// config's own (see [`for_paths`]).
    pub excludes: Vec<(PathBuf, Vec<String>)>,
    /// The base URLs of the other configs found for the paths linted, each
    /// with the directory it names (see [`for_paths`]).
    pub more_bases: Vec<(String, PathBuf)>,
    /// Config files found but skipped (not regular files), and why.
    pub warnings: Vec<String>,
}

/// The largest config file read: a config is a few lines; a larger file
/// (or `/dev/zero`) is refused rather than read until memory runs out.
pub const MAX_CONFIG_FILE: u64 = 1024 * 1024;

/// A config file that cannot be used: every mistake found in it, a line
/// each, naming the file and line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub Vec<Mistake>);

/// One mistake in a config: its file, the 1-based line where the mistake
/// has one (a file that cannot be read has none), and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mistake {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for Mistake {
    /// `PATH:LINE: MESSAGE`, or the message alone where it has no line
    /// (it names its file itself).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.path.display(), self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl ConfigError {
    fn one(mistake: Mistake) -> ConfigError {
        ConfigError(vec![mistake])
    }

    /// The mistakes, a line each.
    pub fn lines(&self) -> Vec<String> {
        self.0.iter().map(Mistake::to_string).collect()
    }

    /// Each mistake's file, 1-based line and message, where it has a line.
    pub fn places(&self) -> Vec<(PathBuf, usize, &str)> {
        self.0
            .iter()
            .filter_map(|mistake| Some((mistake.path.clone(), mistake.line?, mistake.message.as_str())))
            .collect()
    }
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.lines().join("\n"))
    }
}

/// A config's keys as written, each with its place in the file.
#[derive(Default)]
struct RawConfig {
    base_url: Option<Spanned<String>>,
    rules: BTreeMap<Spanned<String>, Spanned<String>>,
    overrides: Vec<RawOverride>,
    exclude: Vec<Spanned<String>>,
    root: Option<Spanned<String>>,
    select: Option<Vec<Spanned<String>>>,
    ignore: Vec<Spanned<String>>,
}

struct RawOverride {
    files: Spanned<Vec<Spanned<String>>>,
    rules: BTreeMap<Spanned<String>, Spanned<String>>,
}

const CONFIG_KEYS: [&str; 7] = ["base-url", "rules", "overrides", "exclude", "root", "select", "ignore"];

/// What is said of an unknown key: the one meant, where it is a near miss
/// (`base_url`), else every key there is.
fn unknown_key(written: &str) -> String {
    let dashed = written.replace('_', "-");
    match CONFIG_KEYS
        .iter()
        .find(|key| crate::findings::rule_id::is_near(&dashed, key))
    {
        Some(meant) => format!("unknown key `{written}`; did you mean `{meant}`?"),
        None => format!(
            "unknown key `{written}`, expected one of {}",
            CONFIG_KEYS.map(|key| format!("`{key}`")).join(", ")
        ),
    }
}

/// Reads the config's keys, each value on its own, so that every mistake
/// is found in one pass: every TOML syntax error the parser recovers from,
/// every unknown key, every value of the wrong type (a serde struct would
/// stop at the first). `None` where the syntax is broken.
fn read_raw(text: &str, mistakes: &mut Mistakes) -> Option<RawConfig> {
    let (table, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        for error in errors {
            mistakes.push(error.span(), error.message().trim());
        }
        mistakes.found.sort_by_key(|mistake| mistake.line.unwrap_or(0));
        return None;
    }
    let mut raw = RawConfig::default();
    for (key, value) in table.into_inner() {
        match key.get_ref().as_ref() {
            "base-url" => raw.base_url = typed("base-url", value, mistakes),
            "root" => raw.root = typed("root", value, mistakes),
            "exclude" => raw.exclude = typed("exclude", value, mistakes).unwrap_or_default(),
            "select" => raw.select = typed("select", value, mistakes),
            "ignore" => raw.ignore = typed("ignore", value, mistakes).unwrap_or_default(),
            "rules" => raw.rules = levels(value, mistakes),
            "overrides" => match value.into_inner() {
                DeValue::Array(array) => {
                    raw.overrides = array
                        .into_iter()
                        .filter_map(|item| an_override_raw(item, mistakes))
                        .collect();
                }
                _ => mistakes.push(Some(key.span()), "overrides must be an array of tables ([[overrides]])"),
            },
            other => mistakes.push(Some(key.span()), &unknown_key(other)),
        }
    }
    Some(raw)
}

/// The value of `key`, as its type says, or the mistake at it.
fn typed<'i, T: Deserialize<'i>>(key: &str, value: Spanned<DeValue<'i>>, mistakes: &mut Mistakes) -> Option<T> {
    let span = value.span();
    T::deserialize(ValueDeserializer::from(value))
        .map_err(|error| {
            let message = format!("{key}: {}", error.message().trim());
            mistakes.push(error.span().or(Some(span)), &message);
        })
        .ok()
}

/// A `[rules]` table: each level read on its own.
fn levels(value: Spanned<DeValue>, mistakes: &mut Mistakes) -> BTreeMap<Spanned<String>, Spanned<String>> {
    let span = value.span();
    let DeValue::Table(table) = value.into_inner() else {
        mistakes.push(Some(span), "rules must be a table of levels by rule id ([rules])");
        return BTreeMap::new();
    };
    table
        .into_iter()
        .filter_map(|(id, level)| {
            let level_span = level.span();
            match level.into_inner() {
                DeValue::String(level) => Some((
                    Spanned::new(id.span(), id.get_ref().to_string()),
                    Spanned::new(level_span, level.to_string()),
                )),
                _ => {
                    let message = format!(
                        "the level of `{}` must be a string: \"error\", \"warning\", \"info\" or \"off\"",
                        id.get_ref()
                    );
                    mistakes.push(Some(level_span), &message);
                    None
                }
            }
        })
        .collect()
}

/// One `[[overrides]]` table: its `files` and its `rules`.
fn an_override_raw(value: Spanned<DeValue>, mistakes: &mut Mistakes) -> Option<RawOverride> {
    let span = value.span();
    let DeValue::Table(table) = value.into_inner() else {
        mistakes.push(Some(span), "an override must be a table ([[overrides]])");
        return None;
    };
    let (mut files, mut rules, mut has_files) = (None, BTreeMap::new(), false);
    for (key, value) in table {
        match key.get_ref().as_ref() {
            "files" => {
                has_files = true;
                files = typed("files", value, mistakes);
            }
            "rules" => rules = levels(value, mistakes),
            other => mistakes.push(
                Some(key.span()),
                &format!("unknown key `{other}` in an override, expected `files` or `rules`"),
            ),
        }
    }
    if !has_files {
        mistakes.push(Some(span), "an override needs `files`, the globs it applies to");
    }
    // A `files` of the wrong type is said where it is written, once.
    files.map(|files| RawOverride { files, rules })
}

/// `path` with its `.` and `..` parts resolved by their names alone (a
/// `..` past the root stays at the root).
fn lexically_normal(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

/// The nearest `feedlint.toml` in `start` or a directory above it, below
/// the home folder and `/` (a config there would bound every tree below
/// it, a downloaded one too). One that is not a regular file (a FIFO would
/// block the run) is skipped, with a warning.
pub fn discover(start: &Path, warnings: &mut Vec<String>) -> Option<PathBuf> {
    let start = std::path::absolute(start).ok()?;
    let home = std::env::var_os("HOME").map(|home| lexically_normal(Path::new(&home)));
    start
        .ancestors()
        .take_while(|dir| dir.parent().is_some() && Some(*dir) != home.as_deref())
        .map(|dir| dir.join(CONFIG_FILE))
        .find(|candidate| match std::fs::metadata(candidate) {
            Ok(metadata) if metadata.is_file() => true,
            Ok(_) => {
                let warning = format!("{} is skipped: it is not a regular file", candidate.display());
                if !warnings.contains(&warning) {
                    warnings.push(warning);
                }
                false
            }
            Err(_) => false,
        })
}

/// The settings of the nearest config above each path (a directory
/// itself, a file its directory; no path: the current directory), as ruff
/// finds its config: each config's rule levels and exclusions apply below
/// its directory, and its base URL below its root.
pub fn for_paths(paths: &[PathBuf]) -> Result<Config, ConfigError> {
    let here = PathBuf::from(".");
    let starts = paths.iter().map(|path| {
        if path.is_dir() {
            path.clone()
        } else {
            path.parent()
                .filter(|parent| !parent.as_os_str().is_empty())
                .map_or_else(|| here.clone(), Path::to_path_buf)
        }
    });
    let mut found: Vec<PathBuf> = Vec::new();
    let starts: Vec<PathBuf> = if paths.is_empty() {
        vec![here.clone()]
    } else {
        starts.collect()
    };
    let mut warnings = Vec::new();
    for config in starts.iter().filter_map(|start| discover(start, &mut warnings)) {
        if !found.contains(&config) {
            found.push(config);
        }
    }
    let Some((first_path, others)) = found.split_first() else {
        return Ok(Config {
            warnings,
            ..Config::default()
        });
    };
    let mut first = load(first_path)?;
    for path in others {
        let other = load(path)?;
        first.excludes.extend(other.excludes);
        if let (Some(url), Some(root)) = (other.base_url, other.base_root) {
            first.more_bases.push((url, root));
        }
        first.levels.add_config(other.levels);
    }
    first.warnings = warnings;
    Ok(first)
}

/// Reads a config file.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let cannot = |why: &str| {
        ConfigError::one(Mistake {
            path: path.to_owned(),
            line: None,
            message: format!("cannot read {}: {why}", path.display()),
        })
    };
    let bytes = crate::settings::exclude::read_regular_file(path, MAX_CONFIG_FILE)
        .map_err(|why| cannot(&why))?
        .ok_or_else(|| cannot("No such file or directory"))?;
    let text = String::from_utf8(bytes).map_err(|_| cannot("it is not UTF-8"))?;
    parse(&text, path)
}

/// Parses a config file's text; `path` names it in errors and anchors the
/// override globs.
pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
    let mut mistakes = Mistakes {
        text,
        path,
        found: Vec::new(),
    };
    // Every mistake is collected, and all are said at once.
    let Some(raw) = read_raw(text, &mut mistakes) else {
        return Err(ConfigError(mistakes.found));
    };
    let base_url = raw.base_url.and_then(|value| match Url::parse(value.get_ref()) {
        Ok(url) => Some(crate::base::secret::masked(&url).into()),
        Err(e) => {
            let message = format!(
                "base-url \"{}\" is not an absolute URL ({e})",
                crate::base::secret::mask_text(value.get_ref())
            );
            mistakes.push(Some(value.span()), &message);
            None
        }
    });
    let directory = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let root = std::path::absolute(directory).map_err(|e| ConfigError::one(mistakes.unplaced(e.to_string())))?;
    let overrides: Vec<Override> = raw
        .overrides
        .into_iter()
        .filter_map(|raw| an_override(raw, &mut mistakes))
        .collect();
    let mut exclude = Vec::with_capacity(raw.exclude.len());
    for glob in raw.exclude {
        match crate::settings::exclude::check_exclusions(std::slice::from_ref(glob.get_ref())) {
            Ok(()) => exclude.push(glob.into_inner()),
            Err(e) => mistakes.push(Some(glob.span()), &format!("invalid exclude glob: {e}")),
        }
    }
    let base_root = base_root(raw.root.as_ref(), &root, &mut mistakes);
    let file = settings(raw.rules, &mut mistakes);
    let selection = Selection {
        select: raw.select.map(|words| selectors(&words, &mut mistakes)),
        ignore: selectors(&raw.ignore, &mut mistakes),
    };
    if !mistakes.found.is_empty() {
        // In the order of the file's lines.
        let mut found = mistakes.found;
        found.sort_by_key(|mistake| mistake.line.unwrap_or(0));
        return Err(ConfigError(found));
    }
    Ok(Config {
        more_bases: Vec::new(),
        warnings: Vec::new(),
        base_root: Some(base_root),
        excludes: if exclude.is_empty() {
            Vec::new()
        } else {
            vec![(root.clone(), exclude)]
        },
        base_url,
        levels: Levels {
            layers: vec![Layer {
                root: root.clone(),
                file,
                selection,
                overrides,
            }],
            ..Levels::default()
        },
    })
}

/// The mistakes found in one config's text, each at its line.
struct Mistakes<'t> {
    text: &'t str,
    path: &'t Path,
    found: Vec<Mistake>,
}

impl Mistakes<'_> {
    /// A mistake at `span` of the text (its first line where none).
    fn at(&self, span: Option<std::ops::Range<usize>>, message: &str) -> Mistake {
        let text = self.text;
        Mistake {
            path: self.path.to_owned(),
            line: Some(span.map_or(1, |s| text[..s.start.min(text.len())].matches('\n').count() + 1)),
            message: message.to_owned(),
        }
    }

    /// A mistake of the file, at no line of it.
    fn unplaced(&self, message: String) -> Mistake {
        Mistake {
            path: self.path.to_owned(),
            line: None,
            message,
        }
    }

    fn push(&mut self, span: Option<std::ops::Range<usize>>, message: &str) {
        let mistake = self.at(span, message);
        self.found.push(mistake);
    }
}

/// A `[rules]` table's levels by rule.
fn settings(table: BTreeMap<Spanned<String>, Spanned<String>>, mistakes: &mut Mistakes) -> Settings {
    let mut settings = Settings::default();
    for (id, level) in table {
        let rule: RuleId = match id.get_ref().parse() {
            Ok(rule) => rule,
            Err(e) => {
                mistakes.push(Some(id.span()), &UnknownRule::to_string(&e));
                continue;
            }
        };
        settings[rule] = match level.get_ref().as_str() {
            "off" => Some(None),
            // As on the command line: --warn.
            "warn" => Some(Some(Level::Warning)),
            word => match Level::parse(word) {
                Some(level) => Some(Some(level)),
                None => {
                    let message = format!("invalid level '{word}' for rule '{rule}'; accepted: {LEVEL_WORDS}");
                    mistakes.push(Some(level.span()), &message);
                    continue;
                }
            },
        };
    }
    settings
}

/// The rule ids and groups of `select` or `ignore`.
fn selectors(words: &[Spanned<String>], mistakes: &mut Mistakes) -> Vec<Selector> {
    words
        .iter()
        .filter_map(|word| match Selector::parse(word.get_ref()) {
            Ok(selector) => Some(selector),
            Err(e) => {
                mistakes.push(Some(word.span()), &e.to_string());
                None
            }
        })
        .collect()
}

/// One `[[overrides]]` entry: its globs and its levels.
fn an_override(raw: RawOverride, mistakes: &mut Mistakes) -> Option<Override> {
    let mut files = GlobSetBuilder::new();
    if raw.files.get_ref().is_empty() {
        mistakes.push(Some(raw.files.span()), "an override needs at least one glob in files");
    }
    for glob in raw.files.get_ref() {
        match Glob::new(glob.get_ref()) {
            Ok(parsed) => {
                files.add(parsed);
            }
            Err(e) => {
                let message = format!("invalid glob \"{}\": {}", glob.get_ref(), e.kind());
                mistakes.push(Some(glob.span()), &message);
            }
        }
    }
    let rules = settings(raw.rules, mistakes);
    match files.build() {
        Ok(files) => Some(Override { files, rules }),
        Err(e) => {
            let mistake = mistakes.unplaced(e.to_string());
            mistakes.found.push(mistake);
            None
        }
    }
}

/// The folder the config's `root` names (its own folder where it names
/// none). A config travels with the tree it is in (a cloned or downloaded
/// tree brings its own): its root may name the config's folder or one
/// below it, never a folder above, or the files there would be read and
/// quoted by a tree that was only meant to be linted.
fn base_root(relative: Option<&Spanned<String>>, root: &Path, mistakes: &mut Mistakes) -> PathBuf {
    let Some(relative) = relative else {
        return root.to_owned();
    };
    let wanted = lexically_normal(&root.join(relative.get_ref()));
    let inside = wanted.starts_with(root)
        && std::fs::canonicalize(&wanted).map_or(true, |real| {
            std::fs::canonicalize(root).is_ok_and(|folder| real.starts_with(folder))
        });
    if !inside {
        let message = format!(
            "root = \"{}\" is outside the config's folder; a config's root is its folder or one below it (give --root on the command line to lint a larger tree)",
            relative.get_ref()
        );
        mistakes.push(Some(relative.span()), &message);
    }
    wanted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(id: &str) -> &'static Rule {
        crate::rules::by_id(id.parse().unwrap())
    }

    #[test]
    fn a_mistake_names_its_file_and_line() {
        let error = parse("[rules]\narchive-orphan = \"loud\"\n", Path::new("/w:x/feedlint.toml")).unwrap_err();
        let places = error.places();
        assert_eq!(places.len(), 1, "{error}");
        assert_eq!(places[0].0, Path::new("/w:x/feedlint.toml"));
        assert_eq!(places[0].1, 2);
        assert!(places[0].2.contains("loud"), "{}", places[0].2);
    }

    #[test]
    fn later_settings_win_and_deny_warnings_raises() {
        let rule = rule("archive-missing-current");
        let mut levels = Levels::default();
        assert_eq!(levels.level(rule), Some(Level::Warning));
        levels.set("archive-missing-current", None).unwrap();
        assert_eq!(levels.level(rule), None);
        levels.set("archive-missing-current", Some(Level::Warning)).unwrap();
        levels.set("warnings", Some(Level::Error)).unwrap();
        assert_eq!(levels.level(rule), Some(Level::Error));
        assert_eq!(
            levels.set("no-such-rule", None),
            Err(UnknownRule("no-such-rule".into()))
        );
    }

    #[test]
    fn file_overrides_and_command_line_layers() {
        let config = parse(
            "base-url = \"https://example.org/\"\n[rules]\narchive-missing-self = \"off\"\nlegacy-previous-archive = \"error\"\n\n[[overrides]]\nfiles = [\"legacy/**\"]\nrules = { legacy-previous-archive = \"off\", archive-missing-self = \"warning\" }\n",
            Path::new("/site/feedlint.toml"),
        )
        .unwrap();
        assert_eq!(config.base_url.unwrap(), "https://example.org/");
        let mut levels = config.levels;
        let (legacy, self_rule) = (rule("legacy-previous-archive"), rule("archive-missing-self"));
        let old = Some(Path::new("/site/legacy/2003/feed.atom"));
        let new = Some(Path::new("/site/feed.atom"));
        assert_eq!(levels.level_for(legacy, new), Some(Level::Error));
        assert_eq!(levels.level_for(legacy, old), None);
        assert_eq!(levels.level_for(self_rule, new), None);
        assert_eq!(levels.level_for(self_rule, old), Some(Level::Warning));
        assert!(levels.enabled_anywhere(self_rule));
        levels.set("legacy-previous-archive", Some(Level::Warning)).unwrap();
        assert_eq!(
            levels.level_for(legacy, old),
            Some(Level::Warning),
            "the command line wins"
        );
    }

    #[test]
    fn errors_name_the_file_line_and_accepted_values() {
        let error = |text: &str| parse(text, Path::new("feedlint.toml")).unwrap_err().to_string();
        assert_eq!(
            error("[rules]\n\nnope = \"off\"\n"),
            "feedlint.toml:3: unknown rule 'nope' (see 'feedlint rules' for the accepted ids)"
        );
        assert_eq!(
            error("[rules]\narchive-order = \"fatal\"\n"),
            "feedlint.toml:2: invalid level 'fatal' for rule 'archive-order'; accepted: error, warning, info, off"
        );
        assert_eq!(
            error("base_url = \"https://example.org/\"\n"),
            "feedlint.toml:1: unknown key `base_url`; did you mean `base-url`?"
        );
        let unknown_key = error("colour = true\n");
        assert!(
            unknown_key
                .starts_with("feedlint.toml:1: unknown key `colour`, expected one of `base-url`, `rules`, `overrides`"),
            "{unknown_key}"
        );
        assert!(error("base-url = \"example.org\"\n")
            .starts_with("feedlint.toml:1: base-url \"example.org\" is not an absolute URL"));
        assert!(error("[[overrides]]\nfiles = [\"a/[\"]\n").starts_with("feedlint.toml:2: invalid glob"));
    }

    #[test]
    fn every_mistake_is_said_at_once_and_warn_is_a_level() {
        let text = "base-url = \"example.org\"\nselect = [\"rfc5006\"]\n[rules]\nnope = \"off\"\narchive-order = \"fatal\"\narchive-orphan = \"warn\"\n";
        let error = parse(text, Path::new("feedlint.toml")).unwrap_err();
        let said = error.lines();
        let lines: Vec<&str> = said.iter().map(|l| &l[..l.find(' ').unwrap()]).collect();
        assert_eq!(
            lines,
            [
                "feedlint.toml:1:",
                "feedlint.toml:2:",
                "feedlint.toml:4:",
                "feedlint.toml:5:"
            ],
            "{error}"
        );
        let config = parse("[rules]\narchive-orphan = \"warn\"\n", Path::new("feedlint.toml")).unwrap();
        assert_eq!(config.levels.level(rule("archive-orphan")), Some(Level::Warning));
    }
}
