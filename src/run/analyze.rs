//! The second stage: one document's bytes to its findings and summary.
//! No I/O: what the command line, the fetcher and an editor all call.
//! The document is decoded, parsed, viewed as a feed and checked by every
//! enabled rule; its tree is dropped at the end, and only the summary the
//! set checks need (and, for the text format, windows of its lines) kept.

use std::path::PathBuf;

use url::Url;

use crate::feed::json_feed::JsonFeed;
use crate::feed::placement::{self, Learning};
use crate::feed::{self, DocKind, FeedDoc, LARGE_DOCUMENT};
use crate::findings::diagnostic::{fold_document, word_folds, Diagnostic, DocSpan, Level, Pending};
use crate::findings::remedy::{Limit, Remedy};
use crate::findings::rule_id::RuleMap;
use crate::findings::source::{self, Source};
use crate::findings::suppress;
use crate::model::document::Document;
use crate::model::summary::DocSummary;
use crate::rules::fetch::{charset_mismatch, served_as_web_page, CHARSET_MISMATCH, UNEXPECTED_CONTENT_TYPE};
use crate::rules::json_feed::{self, JSON_MALFORMED};
use crate::rules::xml::{
    malformed, no_feed_checked, read_past, unread_entity, web_page, EXTERNAL_DTD_NOT_READ, FILE_TOO_LARGE,
    INTERNAL_ERROR, NOT_A_FEED, UNUSED_SUPPRESSION, XML_MALFORMED,
};
use crate::rules::{self, websub, Rule};
use crate::settings::options::Options;
use crate::text::snippet::{Place, Snippets};
use crate::xml;

/// What analyzing one document gives: the document as the run keeps it,
/// its findings, and the level its unused suppressions are reported at.
pub(crate) struct Outcome {
    pub document: Document,
    /// Its findings, whose places name no document yet.
    pub diagnostics: Vec<Diagnostic<DocSpan>>,
    /// The level of `unused-suppression` in this document, if it is on.
    pub unused_level: Option<Level>,
    /// Its findings past `--max-findings`, counted but not kept.
    pub dropped: crate::findings::diagnostic::LevelCounts,
}

/// The single lines between the lines a finding points at, shown so that
/// its snippet reads as the source does (longer gaps are marked `·`).
fn lines_between(text: &str, diagnostic: &Diagnostic<DocSpan>) -> Vec<Place> {
    let mut lines: Vec<(usize, usize)> = diagnostic
        .spans
        .iter()
        .map(|s| (s.at.line_start(), s.at.byte_start()))
        .collect();
    lines.sort_unstable();
    lines
        .windows(2)
        .filter(|pair| pair[1].0 == pair[0].0 + 2)
        .filter_map(|pair| {
            let (line, offset) = pair[0];
            // Looked for only near the span: past a long line the gap is
            // marked instead, and no scan grows with the line.
            let near = text.get(offset..)?.as_bytes();
            let next = offset + memchr::memchr(b'\n', &near[..near.len().min(4 * crate::text::snippet::WIDTH)])? + 1;
            Some(Place {
                offset: next,
                line: line + 1,
                column: 1,
            })
        })
        .collect()
}

/// The finding for a file over `--max-file-size`: it is not read.
pub(crate) fn too_large(named: Named, size: Option<u64>, options: &Options) -> Outcome {
    let limit = options.max_file_size();
    let size = size.map_or_else(String::new, |size| format!("{size} bytes, "));
    let words = options.words();
    let finding = Pending::new(
        0..0,
        format!(
            "not linted: the file is {size}larger than the limit of {limit} bytes{}",
            words.aside(Limit::FileSize)
        ),
    )
    .label("this file")
    .note("feedlint reads a whole document into memory before parsing it; the limit keeps a huge or hostile file from exhausting memory")
    .help(words.remedy(Remedy::ReadLargerFiles));
    unchecked(named, &FILE_TOO_LARGE, finding, options)
}

/// The finding for a document whose analysis panicked (a bug in
/// feedlint): it stands for the whole document, which has no summary.
pub(crate) fn internal_error(named: Named, panic: &str, options: &Options) -> Outcome {
    let finding = crate::rules::xml::internal_error(0..0, "the analysis", panic);
    unchecked(named, &INTERNAL_ERROR, finding, options)
}

/// A document that was not checked, with the one finding that says why.
fn unchecked(named: Named, rule: &Rule, finding: Pending, options: &Options) -> Outcome {
    let source = Source::new(String::new());
    let level = options.levels().level_for(rule, named.path.as_deref());
    let diagnostics = level
        .map(|level| source.locator().resolve(finding, rule.id, level))
        .into_iter()
        .collect();
    let snippets = options.keep_sources().then(|| Snippets::cut("", [Place::START]));
    Outcome {
        document: Document {
            internal_error: rule.id == INTERNAL_ERROR.id,
            ..named.into_document(snippets, None)
        },
        diagnostics,
        unused_level: None,
        dropped: Default::default(),
    }
}

/// How a document is known: its name in findings, its file, its URL.
#[derive(Clone)]
pub(crate) struct Named {
    pub name: String,
    pub path: Option<PathBuf>,
    pub url: Option<Url>,
    /// The `charset` of the HTTP `Content-Type` the document came with.
    pub charset: Option<String>,
    /// That `Content-Type`'s media type, lower case.
    pub media_type: Option<String>,
    /// Where a fetched document was asked for, and its headers' links.
    pub fetched: Option<Box<crate::run::discover::FetchedFrom>>,
    /// The file, canonical.
    pub canonical: Option<PathBuf>,
    /// Whether its `self` link may give it its URL.
    pub learning: Learning,
    /// Read only for the set checks: its summary is made, its rules not
    /// run (nothing would be reported in it).
    pub context: bool,
}

impl Named {
    /// The document as the run keeps it, with nothing of its content yet:
    /// windows of its lines and its text, where the run keeps them.
    fn into_document(self, snippets: Option<Snippets>, text: Option<String>) -> Document {
        Document {
            name: self.name,
            path: self.path,
            url: self.url,
            aliases: Vec::new(),
            snippets,
            summary: None,
            page: None,
            suppressions: Vec::new(),
            context: false,
            explicit: true,
            canonical: self.canonical,
            placement: None,
            misplaced: None,
            text,
            internal_error: false,
        }
    }
}

/// The groups that, selected by name, check every RSS feed as a podcast.
const PODCAST_GROUPS: &[crate::rules::Group] = &[crate::rules::Group::Podcast, crate::rules::Group::Itunes];

/// Decodes, parses and lints one document. `None`: a walked file that is
/// not a feed, skipped silently.
///
/// Four named steps over values: the bytes are decoded ([`decode`]), the
/// text parsed ([`parse`]: what it is, as a [`Parsed`]), a feed checked by
/// every enabled rule ([`check_feed`]), and the findings located in the
/// text ([`locate`]), whose tree is then dropped.
pub(crate) fn lint_document(named: Named, bytes: Vec<u8>, explicit: bool, options: &Options) -> Option<Outcome> {
    let mut named = named;
    // Fixes are byte edits of the file: offered only where the text is the
    // file's bytes (UTF-8 or US-ASCII without a byte order mark, read from
    // a file rather than fetched).
    let file_len = bytes.len();
    let bytes_are_text = source::may_be_its_own_text(&bytes) && named.charset.is_none();
    let (source, decode_error, charset_note) = decode(bytes, named.charset.take());
    // A document that opens an object is read as JSON: where it was named as
    // a feed, or where it names JSON Feed's version (a walk meets many JSON
    // files that are no feed, and parses only these).
    let json = decode_error.is_none()
        && (explicit && (crate::json::starts_an_object(source.text()) || named_as_json(&named))
            || may_be_json_feed(source.text()));
    if !explicit && !json && !root_name_is_feed(source.text()) {
        return page_of_site(named, &source, options);
    }
    // Every rule's level for this document, looked up once; then by id,
    // in constant time per finding.
    let levels = options.levels().levels_for(named.path.as_deref());
    let level_of = |rule: &Rule| levels[rule.id];
    let served_as_html = named.media_type.as_deref() == Some("text/html");
    let mut checked = Checked::default();
    if let Some(note) = charset_note {
        checked
            .findings
            .push((&CHARSET_MISMATCH, charset_mismatch(&source, note)));
    }
    if json {
        check_json(&source, explicit, &mut named, &mut checked, &level_of, options)?;
        let fixable = bytes_are_text && source.text().len() == file_len;
        return Some(locate(named, explicit, source, checked, fixable, &level_of, options));
    }
    match parse(&source, decode_error, explicit, served_as_html) {
        Parsed::Undecodable(error) => checked
            .findings
            .push((&XML_MALFORMED, malformed(&source, error.offset, error.message))),
        Parsed::WebPage => checked.findings.push((&NOT_A_FEED, web_page(&source))),
        Parsed::Malformed(error) => checked
            .findings
            .push((&XML_MALFORMED, malformed(&source, error.at, error.message))),
        Parsed::Xml(xml) => {
            // What the parse read past is reported, and the document is
            // checked as if it were not there.
            for recovered in xml.recovered() {
                checked
                    .findings
                    .push((&XML_MALFORMED, read_past(source.text(), recovered)));
            }
            match DocKind::of_root(xml.root_element()) {
                None => checked.findings.push(no_feed_checked(&xml, explicit)?),
                Some(kind) => {
                    if served_as_html {
                        checked
                            .findings
                            .push((&UNEXPECTED_CONTENT_TYPE, served_as_web_page(&xml, kind)));
                    }
                    check_feed(&xml, kind, &source, &mut named, &mut checked, &level_of, options);
                }
            }
        }
    }
    let fixable = bytes_are_text && source.text().len() == file_len;
    Some(locate(named, explicit, source, checked, fixable, &level_of, options))
}

/// A fetched web page that names its feed (the page a user gave for its
/// site): kept as a page of the run, as a walked one is.
pub(crate) fn fetched_page(named: Named, bytes: Vec<u8>, options: &Options) -> Option<Outcome> {
    let charset = named.charset.clone();
    let (source, _, _) = decode(bytes, charset);
    page_of_site(named, &source, options)
}

/// A web page met in a walk, kept where a `discovery` rule is on for the
/// feeds its head advertises; one that advertises none is kept only if it
/// may be a site's home page (an `index.html`), whose silence a rule
/// judges. Its text is dropped here, as a feed's tree is.
fn page_of_site(named: Named, source: &Source, options: &Options) -> Option<Outcome> {
    if named.context || !options.reads_pages() || crate::base::html::web_page_start(source.text()).is_none() {
        return None;
    }
    let head = crate::base::html::page_head(source.text());
    // By its name: a page uploaded to the web page has no path.
    let home = std::path::Path::new(&named.name)
        .file_name()
        .is_some_and(|name| name == "index.html");
    if head.advertised.is_empty() && !home {
        return None;
    }
    // Its `feedlint-disable` comments meet the set rules' findings about
    // it, as a feed's do.
    let mut suppressions = suppress::gather_html(source.text(), head.directives.iter().cloned());
    let mut at = source.locator();
    let page = crate::model::page::Page::of(head, &mut at);
    for suppression in &mut suppressions {
        suppression.located = Some(at.locate(suppression.at.clone()));
    }
    drop(at);
    let snippets = options.keep_sources().then(|| {
        let suppression_places = suppressions.iter().filter_map(|s| Some(s.located?.start_place()));
        Snippets::cut(source.text(), page.places().chain(suppression_places))
    });
    let text = options.keep_texts().then(|| source.text().to_owned());
    let unused_level = options.levels().level_for(&UNUSED_SUPPRESSION, named.path.as_deref());
    Some(Outcome {
        document: Document {
            page: Some(Box::new(page)),
            suppressions,
            explicit: false,
            ..named.into_document(snippets, text)
        },
        diagnostics: Vec::new(),
        unused_level,
        dropped: Default::default(),
    })
}

/// The text of a document's bytes (decoded by the `charset` its transport
/// named, else by its own declaration), why it could not be decoded whole,
/// and where the transport's charset and the document disagree.
fn decode(
    bytes: Vec<u8>,
    charset: Option<String>,
) -> (Source, Option<source::DecodeError>, Option<source::CharsetNote>) {
    let (decoded, charset_note) = match charset {
        Some(charset) => source::decode_transported(bytes, &charset),
        None => (source::decode(bytes), None),
    };
    let (text, decode_error) = match decoded {
        Ok(text) => (text, None),
        Err((text, error)) => (text, Some(error)),
    };
    (Source::new(text), decode_error, charset_note)
}

/// What a document's text is, as far as parsing tells.
// One value a document, matched at once: the tree is not worth a box.
#[allow(clippy::large_enum_variant)]
enum Parsed<'t> {
    /// It is not text in the encoding it names.
    Undecodable(source::DecodeError),
    /// A web page where a feed was expected: said to be one, not taken
    /// apart as broken XML.
    WebPage,
    /// It is not well-formed XML.
    Malformed(xml::XmlError),
    /// Well-formed XML (past what recovery read over, which it lists).
    Xml(xml::Tree<'t>),
}

fn parse(
    source: &Source,
    decode_error: Option<source::DecodeError>,
    explicit: bool,
    served_as_html: bool,
) -> Parsed<'_> {
    if let Some(error) = decode_error {
        return Parsed::Undecodable(error);
    }
    match xml::parse_recovering(source.text()) {
        Err(_) if explicit && (served_as_html || crate::base::html::web_page_start(source.text()).is_some()) => {
            Parsed::WebPage
        }
        Err(error) => Parsed::Malformed(error),
        Ok(mut xml) => {
            // One vocabulary, two names, and a name written almost right:
            // every check reads them as the podcast namespaces
            // (podcast-namespace-legacy and extension-namespace-near-miss
            // say which is written).
            xml.alias_namespaces(crate::feed::podcast_namespace_read_as);
            Parsed::Xml(xml)
        }
    }
}

/// What the checks of a document made: its findings (not yet located),
/// its summary, its suppression comments, and where its self link places
/// its folder.
#[derive(Default)]
struct Checked {
    findings: Vec<(&'static Rule, Pending)>,
    summary: Option<DocSummary>,
    suppressions: Vec<crate::findings::suppress::Suppression>,
    placement: Option<crate::feed::placement::Placement>,
}

/// Checks a feed of `kind`: its URL settled from its self link where
/// `named` allows, its enabled rules run (none for a document read as
/// context), its summary made.
fn check_feed(
    xml: &xml::Tree,
    kind: DocKind,
    source: &Source,
    named: &mut Named,
    checked: &mut Checked,
    level_of: &dyn Fn(&Rule) -> Option<Level>,
    options: &Options,
) {
    checked.placement = place(named, FeedDoc::self_target(xml, kind, named.url.as_ref()));
    // A document with no URL at all (standard input without --url) is
    // where its absolute self link says: relative references resolve
    // against it, as a reader that subscribed by the self link would
    // resolve them.
    if named.url.is_none() {
        named.url = FeedDoc::self_target(xml, kind, None)
            .filter(|target| !target.cannot_be_a_base())
            .map(|mut target| {
                target.set_fragment(None);
                target
            });
    }
    let mut feed = FeedDoc::new(xml, kind, named.url.as_ref());
    if options
        .levels()
        .selects_groups_for(PODCAST_GROUPS, named.path.as_deref())
    {
        feed.check_as_podcast();
    }
    let enabled: Vec<&'static Rule> = rules::RULES
        .iter()
        .copied()
        .filter(|rule| level_of(rule).is_some())
        .collect();
    let large = source.text().len() >= LARGE_DOCUMENT;
    checked.suppressions = suppress::gather(feed.everywhere.suppressions.iter());
    // A rule that a suppression names is folded only once the suppressions
    // have met its findings (in the report).
    let mut suppressed = RuleMap::filled(false);
    for suppression in &checked.suppressions {
        if let Ok(rule) = suppression.rule {
            suppressed[rule] = true;
        }
    }
    let per_rule = per_rule_limit(options);
    let limit = |rule: &'static Rule| if suppressed[rule.id] { 0 } else { per_rule };
    let (found, mut summary) = if named.context {
        (Vec::new(), DocSummary::of(&feed, source))
    } else {
        feed::both(
            large,
            || rules::check_document(&feed, &enabled, large, &limit, options.words()),
            || DocSummary::of(&feed, source),
        )
    };
    if !named.context && options.checks_media() {
        summary.media = crate::model::summary::MediaRef::gather(&feed, source);
    }
    // Read again for the set rule only where it is on: the document rules
    // read the same HTML for their own findings.
    if options.levels().enabled_anywhere(&rules::content::CONTENT_LINK_MISSING) {
        let mut at = source.locator();
        summary.content_links = rules::content::site_links(&feed)
            .into_iter()
            .map(|(value, range)| crate::model::summary::Located {
                value,
                span: at.locate(range),
            })
            .collect();
    }
    if !named.context {
        let advertised = websub::Advertised::of_feed(&feed);
        let root = crate::feed::start_tag(feed.root);
        checked.findings.extend(check_websub(&advertised, named, root.clone()));
        checked
            .findings
            .extend(check_http(named, summary.is_archive(), root.clone()));
        if options.checks_hubs() {
            summary.hubs = hubs_to_ask(&advertised, named, root, source);
        }
    }
    checked.findings.extend(found);
    checked.findings.extend(
        xml.unread_entity()
            .map(|unread| (&EXTERNAL_DTD_NOT_READ, unread_entity(unread))),
    );
    checked.summary = Some(summary);
}

/// The WebSub findings of a document, with what it was served with where
/// it was fetched.
fn check_websub(
    advertised: &websub::Advertised,
    named: &Named,
    root: std::ops::Range<usize>,
) -> Vec<(&'static Rule, Pending)> {
    let served = named
        .fetched
        .as_deref()
        .zip(named.url.as_ref())
        .map(|(fetched, url)| websub::Served {
            url,
            asked: Some(&fetched.asked),
            header: &fetched.links,
            named: fetched.named,
        });
    websub::check(advertised, served.as_ref(), root)
}

/// How a fetched document was served, judged (nothing for a file): an
/// archive by its `fh:archive` (`marked_archive`) or the link that led to
/// it.
fn check_http(named: &Named, marked_archive: bool, root: std::ops::Range<usize>) -> Vec<(&'static Rule, Pending)> {
    let Some(fetched) = named.fetched.as_deref() else {
        return Vec::new();
    };
    let served = crate::rules::http::Served {
        delivery: &fetched.delivery,
        archive: marked_archive || fetched.by_archive_link,
        named: fetched.named,
    };
    crate::rules::http::check(&served, root)
}

/// The http(s) hubs a document names, each once, for `--check-hub`: the
/// document's where it writes them, then its `Link` header's (at `root`).
fn hubs_to_ask(
    advertised: &websub::Advertised,
    named: &Named,
    root: std::ops::Range<usize>,
    source: &Source,
) -> Vec<crate::model::summary::Located<Url>> {
    let header = named.fetched.as_deref().map_or(&[][..], |fetched| &fetched.links.hubs);
    let mut at = source.locator();
    let mut seen = std::collections::HashSet::new();
    let written = advertised
        .hubs
        .iter()
        .filter_map(|hub| Some((hub.target.clone()?, hub.at.clone())));
    let told = header.iter().map(|hub| (hub.clone(), root.clone()));
    let mut hubs: Vec<(Url, std::ops::Range<usize>)> = written
        .chain(told)
        .filter(|(hub, _)| matches!(hub.scheme(), "http" | "https") && seen.insert(hub.to_string()))
        .collect();
    // Located in document order, as the locator reads forward.
    hubs.sort_by_key(|(_, range)| range.start);
    hubs.into_iter()
        .map(|(value, range)| crate::model::summary::Located {
            value,
            span: at.locate(range),
        })
        .collect()
}

/// Where a self link (or a JSON Feed's `feed_url`) says the file is
/// published: its folder's placement, and its URL, unless one is given
/// (relative references resolve against it).
fn place(named: &mut Named, self_target: Option<Url>) -> Option<placement::Placement> {
    let canonical = named.canonical.as_deref()?;
    let mut target = self_target?;
    target.set_fragment(None);
    let placed = placement::placement(&target, canonical)?;
    if named.learning.takes(&target) {
        named.url = Some(target);
    }
    Some(placed)
}

/// How many findings a rule keeps in a document. A rule keeps at most
/// --max-per-rule findings, and never more than --max-findings: the rest
/// are counted as they come, not built (a rule reports in document order,
/// so those past the run's cap could never be shown). So the cap bounds
/// memory inside a document too.
fn per_rule_limit(options: &Options) -> usize {
    match (options.max_per_rule(), options.max_findings()) {
        (0, cap) | (cap, 0) => cap,
        (fold, cap) => fold.min(cap),
    }
}

/// Checks a document that opens as JSON: one that is not JSON is
/// `json-malformed`; one that is no JSON Feed is `not-a-feed` where it was
/// named as a feed, and passed over (`None`) where a walk found it; a JSON
/// Feed is checked by the enabled `json-feed` rules and summarized.
fn check_json(
    source: &Source,
    explicit: bool,
    named: &mut Named,
    checked: &mut Checked,
    level_of: &dyn Fn(&Rule) -> Option<Level>,
    options: &Options,
) -> Option<()> {
    let text = source.text();
    let value = match crate::json::parse(text) {
        Ok(value) => value,
        Err(error) => {
            checked
                .findings
                .push((&JSON_MALFORMED, json_feed::malformed(text, &error)));
            return Some(());
        }
    };
    let Some(found) = JsonFeed::recognize(&value, text, named.url.as_ref()) else {
        if explicit {
            checked.findings.push((&NOT_A_FEED, json_feed::not_a_feed(&value)));
            return Some(());
        }
        return None;
    };
    // `feed_url` places the folder as a self link does, where it names this
    // file (the first page of a paged feed; later pages carry the first
    // page's, which places nothing).
    let feed_url = found.feed_url();
    checked.placement = place(named, feed_url);
    let feed = JsonFeed::recognize(&value, text, named.url.as_ref())?;
    if !named.context {
        let enabled: Vec<&'static Rule> = rules::RULES
            .iter()
            .copied()
            .filter(|rule| rule.json_check.is_some() && level_of(rule).is_some())
            .collect();
        let per_rule = per_rule_limit(options);
        let limit = |_: &'static Rule| per_rule;
        checked
            .findings
            .extend(rules::check_json_document(&feed, &enabled, &limit, options.words()));
        let advertised = websub::Advertised::of_json(&feed);
        let root = crate::feed::json_feed::opening(feed.root);
        checked.findings.extend(check_websub(&advertised, named, root.clone()));
        checked.findings.extend(check_http(named, false, root.clone()));
        let mut summary = DocSummary::of_json(&feed, source);
        if options.checks_hubs() {
            summary.hubs = hubs_to_ask(&advertised, named, root, source);
        }
        checked.summary = Some(summary);
        return Some(());
    }
    checked.summary = Some(DocSummary::of_json(&feed, source));
    Some(())
}

/// The document as the run keeps it: its findings located in its text (a
/// fix kept only where the text is the file's bytes), suppressed, sorted
/// and folded; its suppressions located; windows of its lines where the
/// run shows snippets.
fn locate(
    named: Named,
    explicit: bool,
    source: Source,
    checked: Checked,
    fixable: bool,
    level_of: &dyn Fn(&Rule) -> Option<Level>,
    options: &Options,
) -> Outcome {
    let Checked {
        findings,
        summary,
        mut suppressions,
        placement,
    } = checked;
    let internal_error = findings.iter().any(|(rule, _)| rule.id == INTERNAL_ERROR.id);
    // Located in the order of their places, each scanned on from the one
    // before: the rules report one after another, each from the top, and
    // scanning back from a mark made the bench's RSS corpus (a finding on
    // most items) 8% slower. The order they are reported in is settled by
    // the sort below.
    let mut findings = findings;
    findings.sort_by_key(|(_, pending)| pending.primary.start);
    let mut locator = source.locator();
    let mut diagnostics: Vec<Diagnostic<DocSpan>> = findings
        .into_iter()
        .filter_map(|(rule, mut pending)| {
            if !fixable {
                pending.fix = None;
            }
            Some(locator.resolve(pending, rule.id, level_of(rule)?))
        })
        .collect();
    drop(locator);
    // Suppressions, order and folding are settled here, where the document
    // is analyzed in parallel with the others: the report only merges.
    suppress::apply(&mut diagnostics, &mut suppressions);
    diagnostics.sort_by(Diagnostic::cmp_in_document);
    fold_document(&mut diagnostics, options.max_per_rule());
    word_folds(&mut diagnostics, options.words());
    diagnostics.iter_mut().for_each(Diagnostic::make_texts_showable);
    // Held until every document is read: made in the place of the
    // findings as the rules gave them (larger, and room for more), they
    // would hold about twice the memory.
    diagnostics.shrink_to_fit();
    suppressions.shrink_to_fit();
    // Where unused suppressions would point, located while the text is here.
    // Every suppression is located (the JSON report lists the used ones
    // with their reasons); where it is removed, only if it may be unused.
    let unused_level = level_of(&UNUSED_SUPPRESSION);
    let mut locator = source.locator();
    for suppression in &mut suppressions {
        suppression.located = Some(locator.locate(suppression.at.clone()));
        if fixable && unused_level.is_some() {
            suppression.removal_located = Some(locator.locate(suppression.removal.clone()));
        }
    }
    drop(locator);
    let snippets = options.keep_sources().then(|| {
        let spans = diagnostics.iter().flat_map(|d| &d.spans);
        let places = spans.flat_map(|span| {
            let end = (span.at.line_end() != span.at.line_start()).then(|| span.at.end_place());
            std::iter::once(span.at.start_place()).chain(end)
        });
        let summary_places = summary.iter().flat_map(DocSummary::places);
        let suppression_places = suppressions.iter().filter_map(|s| Some(s.located?.start_place()));
        let gaps = diagnostics.iter().flat_map(|d| lines_between(source.text(), d));
        Snippets::cut(
            source.text(),
            places.chain(summary_places).chain(suppression_places).chain(gaps),
        )
    });
    let text = options.keep_texts().then(|| source.text().to_owned());
    Outcome {
        document: Document {
            summary: summary.map(Box::new),
            suppressions,
            explicit,
            placement,
            internal_error,
            ..named.into_document(snippets, text)
        },
        diagnostics,
        unused_level,
        dropped: Default::default(),
    }
}

/// Whether a document is said to be JSON: by its name's extension (its
/// file's, or the name a document in memory is given), or by the media
/// type it was served as.
fn named_as_json(named: &Named) -> bool {
    let by_extension = named
        .name
        .rsplit_once('.')
        .is_some_and(|(_, extension)| extension.eq_ignore_ascii_case("json"));
    let by_media_type = named.media_type.as_deref().is_some_and(|media_type| {
        media_type.eq_ignore_ascii_case("application/json") || media_type.eq_ignore_ascii_case("application/feed+json")
    });
    by_extension || by_media_type
}

/// Whether a text found in a walk may be a JSON Feed: it opens an object
/// and names JSON Feed's version somewhere (a tree holds many JSON files
/// that are no feed, and only these are parsed).
pub(crate) fn may_be_json_feed(text: &str) -> bool {
    // JSON may escape a slash: PHP's json_encode writes `https:\/\/jsonfeed.org\/version\/1`.
    crate::json::starts_an_object(text)
        && (memchr::memmem::find(text.as_bytes(), b"jsonfeed.org/version/").is_some()
            || memchr::memmem::find(text.as_bytes(), b"jsonfeed.org\\/version\\/").is_some())
}

/// A lexical look at the root element's local name, before parsing, so that
/// walked files that are not feeds are skipped without building a DOM.
pub(crate) fn root_name_is_feed(text: &str) -> bool {
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
    matches!(local, "feed" | "entry" | "rss" | "deleted-entry" | "RDF")
}
