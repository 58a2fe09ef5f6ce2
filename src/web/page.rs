//! The web pages, as maud templates: every text a feed or a user gave
//! (titles, URLs, file names, messages that quote them) goes through
//! maud's escaping; only the rule documents, feedlint's own, are HTML made
//! here (from Markdown, raw HTML in them escaped too).

use maud::{html, Markup};

use crate::feed::DocKind;
use crate::findings::diagnostic::{Diagnostic, Level};
use crate::findings::rule_id::RuleId;
use crate::report::Report;

use super::layout::layout;
use super::snippets::{fix_diff, source, Lines};
use super::words;

/// The front page: three ways in.
pub fn index(max_body: usize, max_files: usize, checks_media: bool) -> Markup {
    layout(
        "Check a feed",
        html! {
            h1 { "Check a feed" }
            p.lead {
                "Paste a feed's URL, its text, or upload its files. Archive and paging chains are followed and checked "
                "across documents (RFC 5005), tombstones too (RFC 6721), and every finding points at its place in the source."
            }
            @if checks_media {
                p.lead.media {
                    "This server also checks a podcast's media: it asks the server of each episode's file and of the artwork "
                    "what it holds (its status, type and size, byte ranges; the artwork's format, size and colour space)."
                }
            }
            section.way id="by-url" {
                h2 { "By URL" }
                form method="get" action="/check" {
                    label for="url" { "Feed URL" }
                    // Text, not type=url: a browser refuses `example.org/feed`,
                    // which the server takes (https://, then http://).
                    input id="url" type="text" inputmode="url" autocapitalize="off" spellcheck="false" name="url" required placeholder="https://example.org/feed.atom";
                    button type="submit" { "Check the URL" }
                }
                p.hint { "Type the address as you have it (example.org/feed, https://…, feed://…). Its archive and paging links are followed, within limits. The result page's address can be shared." }
            }
            section.way id="by-input" {
                h2 { "By direct input" }
                form method="post" action="/check" {
                    label for="text" { "Feed" }
                    textarea id="text" name="text" rows="12" required spellcheck="false" placeholder="<feed xmlns=\"http://www.w3.org/2005/Atom\">…" {}
                    label for="published" { "Published at (optional)" }
                    input id="published" type="url" name="published" placeholder="https://example.org/feed.atom";
                    button type="submit" { "Check the text" }
                }
                p.hint {
                    "At most " (max_body / 1024 / 1024) " MiB as the form sends it: a character other than a letter "
                    "or digit takes three bytes (" code { "<" } " is sent as " code { "%3C" } "), so a feed of about "
                    (max_body / 1024 / 1024 / 3) " MiB always fits. A larger one: check it by URL or upload it."
                }
            }
            section.way id="by-upload" {
                h2 { "By upload" }
                form method="post" action="/upload" enctype="multipart/form-data" {
                    label for="files" { "Feed files" }
                    input id="files" type="file" name="files" multiple required;
                    label for="files-published" { "Published under (optional)" }
                    input id="files-published" type="url" name="published" placeholder="https://example.org/feeds/";
                    button type="submit" { "Check the files" }
                }
                form method="post" action="/upload" enctype="multipart/form-data" {
                    label for="folder" { "Or a whole folder" }
                    input id="folder" type="file" name="files" webkitdirectory multiple required;
                    label for="folder-published" { "Published under (optional)" }
                    input id="folder-published" type="url" name="published" placeholder="https://example.org/";
                    button type="submit" { "Check the folder" }
                }
                p.hint {
                    "Files are checked together, as the tree they form: relative links between them are followed, "
                    "and a folder's root is where a link starting with / starts. Files chosen one by one come without "
                    "their folders, so a link finds them by file name. Fill in the folder's URL where they are published "
                    "(with or without its closing /) to check their self links against it. At most " (max_files) " files, " (max_body / 1024 / 1024) " MiB in all; "
                    "nothing is stored."
                }
            }
        },
    )
}

/// What was checked, to check it again from the page it gave.
pub enum Retry<'a> {
    /// A URL, as typed.
    Url(&'a str),
    /// A paste, and where it is published.
    Paste { text: &'a str, published: &'a str },
    /// Files: they cannot be chosen again for the person.
    Upload,
}

/// The most bytes of a paste put back in the form of its result page: a
/// page stays small whatever was pasted.
const MOST_TEXT_SHOWN_AGAIN: usize = 1024 * 1024;

/// The form that checks the same input again, filled in.
fn retry_form(retry: &Retry) -> Markup {
    html! {
        section.retry {
            @match retry {
                Retry::Url(url) => {
                    form method="get" action="/check" {
                        label for="again-url" { "Feed URL" }
                        input id="again-url" type="text" name="url" required value=(url);
                        button type="submit" { "Check again" }
                    }
                }
                Retry::Paste { text, published } => {
                    @if text.len() <= MOST_TEXT_SHOWN_AGAIN {
                        form method="post" action="/check" {
                            label for="again-text" { "Feed" }
                            textarea id="again-text" name="text" rows="4" required spellcheck="false" { (text) }
                            label for="again-published" { "Published at (optional)" }
                            input id="again-published" type="url" name="published" value=(published);
                            button type="submit" { "Check again" }
                        }
                    } @else {
                        p.hint { "The paste is too long to put back here; paste it again on " a href="/" { "the front page" } "." }
                    }
                }
                Retry::Upload => {
                    p { a.button href="/#by-upload" { "Check other files" } }
                }
            }
        }
    }
}

/// A URL pasted into the box for a feed's text: the way to check it by
/// URL, one click away.
pub fn pasted_url(url: &str) -> Markup {
    layout(
        "A URL, not a feed",
        html! {
            h1 { "A URL, not a feed's text" }
            p.problem { "What was pasted is the address of a feed, not its text. Check it by URL: its archive and paging links are followed too." }
            section.retry {
                form method="get" action="/check" {
                    label for="again-url" { "Feed URL" }
                    input id="again-url" type="text" inputmode="url" name="url" required value=(url);
                    button type="submit" { "Check the URL" }
                }
            }
        },
    )
}

/// A page that says something went wrong, and what to do.
pub fn problem(title: &str, message: &str) -> Markup {
    problem_with(title, message, None)
}

/// [`problem`], with the form to try the input again, filled in.
pub fn problem_with(title: &str, message: &str, retry: Option<&Retry>) -> Markup {
    // A problem often echoes what was sent (a URL that is not one): any
    // password in it is masked here, once for every problem page.
    let message = crate::base::secret::mask_text(message);
    layout(
        title,
        html! {
            h1 { (title) }
            p.problem { (message) }
            @if let Some(retry) = retry {
                (retry_form(retry))
            }
            p { a href="/" { "Check another feed" } }
        },
    )
}

/// What a check was of, as its front door knows it.
pub struct About<'a> {
    /// What was checked, in words: a URL, "the pasted document".
    pub what: &'a str,
    pub retry: Retry<'a>,
    /// What the page says of how it read the input (a scheme it added).
    pub said: Option<&'a str>,
    /// The badge of a checked URL, to copy into a README.
    pub share: Option<Share>,
}

/// What a result page is about besides its report.
pub struct Checked<'a> {
    pub about: About<'a>,
    /// The fixed document, where it can be downloaded.
    pub fixed: Option<&'a super::fixed::FixedDocument>,
}

/// The snippets that show a URL's badge, linked to its result page.
pub struct Share {
    pub html: String,
    pub markdown: String,
    /// The badge on this server, relative to the result page.
    pub preview: String,
}

impl Share {
    /// For the feed at `url`, on the server reached at `base` (a scheme
    /// and host, and the path it is served under, with no trailing slash).
    pub fn of(base: &str, url: &str) -> Share {
        let query: String = url::form_urlencoded::byte_serialize(url.as_bytes()).collect();
        let (badge, result) = (format!("{base}/badge?url={query}"), format!("{base}/check?url={query}"));
        Share {
            html: format!("<a href=\"{result}\"><img src=\"{badge}\" alt=\"feed validity\"></a>"),
            markdown: format!("[![feed validity]({badge})]({result})"),
            preview: format!("badge?url={query}"),
        }
    }
}

/// The result of a run: the verdict, the downloads, then each document
/// with its findings in source order.
pub fn result(report: &Report, run: &str, checked: &Checked) -> Markup {
    let Checked {
        about: About {
            what,
            retry,
            said,
            share,
        },
        fixed,
    } = checked;
    let (checked, fixed) = (*what, *fixed);
    let [errors, warnings, infos] = [Level::Error, Level::Warning, Level::Info].map(|level| total(report, level));
    let documents: Vec<usize> = (0..report.documents.len())
        .filter(|doc| !report.documents[*doc].context)
        .collect();
    let documents = super::chain_order::chain_order(report, &documents);
    // A document feedlint does not check (RSS 1.0, an encrypted Deleted
    // Entry Document) is no pass: the verdict says it was not checked.
    let unchecked = report.nothing_checked();
    let valid = report.valid();
    let verdict_class = match (valid, unchecked && report.failures.is_empty()) {
        (_, true) => "verdict unchecked",
        (true, false) => "verdict valid",
        (false, false) => "verdict invalid",
    };
    let what = described(report, &documents);
    let folded = report.folded() > 0;
    let mut budget = MOST_FINDINGS_BYTES;
    let shown: Vec<Markup> = documents
        .iter()
        .map(|doc| document(report, *doc, run, &mut budget))
        .collect();
    html! {
        // Past the verdict and the form, to the findings, in one key press.
        @if !documents.is_empty() {
            a.skip href="#findings" { "Skip to the findings" }
        }
        h1 { "Results for " span.checked { (checked) } }
        @if let Some(said) = said {
            p.hint { (said) }
        }
        section class=(verdict_class) {
            @if !report.failures.is_empty() {
                h2.big { "Could not be checked" }
            } @else if unchecked {
                h2.big { "Not checked" }
                p { "feedlint does not check this kind of document (" (what) "): see the finding below." }
            } @else if valid && warnings + infos == 0 {
                h2.big { "Valid" }
                p { (what) ": no findings." }
            } @else {
                h2.big { (if valid { "Valid, with remarks" } else { "Not valid" }) }
                p {
                    (what) ": " (counts(errors, warnings, infos)) "."
                    @if folded {
                        " (the first findings of each rule in a document shown, the repeats after them counted)"
                    }
                }
            }
            @let unplaced = !documents.is_empty()
                && documents.iter().all(|doc| report.documents[*doc].url().is_some_and(|url| url.starts_with("file:")));
            @if unplaced {
                p.hint {
                    "Checked as files: relative links resolve between them. Where they are published is not known, "
                    "so their self links and absolute links are not compared with it: fill in Published at to check these links."
                }
            }
            @let context = report.documents.len() - documents.len();
            @if context > 0 {
                p.context { (plural(context, "other document")) " read for the chains, not reported on." }
            }
        }
        @for failure in &report.failures {
            p.problem {
                (words::failure(failure))
                @if let Some(anchor) = super::help::anchor(failure) {
                    " " a href=(format!("/help/fetching#{anchor}")) { "Why this happens, and what to do" }
                }
            }
        }
        // The form to check again, filled in, beside the verdict: not
        // after every finding.
        (retry_form(retry))
        @for warning in &report.warnings {
            p.warning-note { (warning) }
        }
        p.downloads {
            "Download this report: "
            a.button href=(format!("/runs/{run}/report.json")) download="feedlint-report.json" { "JSON" }
            " "
            a.button href=(format!("/runs/{run}/report.sarif")) download="feedlint-report.sarif" { "SARIF" }
        }
        @if let Some(fixed) = fixed {
            p.downloads.fixed {
                a.button href=(format!("/runs/{run}/fixed")) { "Download the fixed file" }
                " " (fixed.name) " with " (fixes(fixed.applied)) " applied, each safe to apply."
                @if fixed.left_out > 0 {
                    " " (fixes(fixed.left_out)) " left out: "
                    (if fixed.left_out == 1 { "it changes" } else { "each changes" })
                    " what the feed says, so it is yours to review and make ("
                    @for (n, (title, rule)) in fixed.left_out_kinds.iter().enumerate() {
                        @if n > 0 { "; " }
                        (title) ", " a href=(format!("/rules/{rule}")) { (rule) }
                    }
                    ")."
                }
            }
        }
        div id="findings" {
            @for doc in shown {
                (doc)
            }
        }
        // A badge is something to show off: offered once the feed is valid.
        @if let (Some(share), true) = (share, valid) {
            section.share {
                h2 { "Show it off" }
                p { "This feed's badge, linked to its result page, checked again every few minutes:" }
                p.preview { img src=(share.preview) alt="The badge: feed, valid"; }
                label for="badge-html" { "HTML" }
                input id="badge-html" type="text" readonly value=(share.html);
                label for="badge-markdown" { "Markdown" }
                input id="badge-markdown" type="text" readonly value=(share.markdown);
            }
        } @else if share.is_some() && report.failures.is_empty() {
            p.hint { "Once the feed is valid, this page offers its badge to show it off." }
        }
        p { a href="/" { "Check another feed" } }
    }
}

/// The findings of a level, each group of repeats counted whole and
/// those past the run's cap too: the real total, not what is shown.
fn total(report: &Report, level: Level) -> usize {
    let kept: usize = report
        .diagnostics
        .iter()
        .filter(|d| d.level == level)
        .map(|d| d.folded.max(1))
        .sum();
    kept + report.dropped.of(level)
}

/// What was checked: "Atom 1.0 feed", "RSS 2.0 podcast", "3 Atom 1.0
/// feeds and 1 Deleted Entry Document".
fn described(report: &Report, documents: &[usize]) -> String {
    let mut kinds: Vec<(&str, &str, usize)> = Vec::new();
    // The documents not well-formed, found in one pass over the findings.
    let malformed: crate::base::hash::FastSet<usize> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule == RuleId::XmlMalformed)
        .map(|d| d.primary().doc)
        .collect();
    for doc in documents {
        let (one, many) = kind_words(report, *doc, &malformed);
        match kinds.iter_mut().find(|(kind, _, _)| *kind == one) {
            Some((_, _, n)) => *n += 1,
            None => kinds.push((one, many, 1)),
        }
    }
    let parts: Vec<String> = kinds
        .into_iter()
        .map(|(one, many, n)| {
            if n == 1 && documents.len() == 1 {
                one.to_owned()
            } else if n == 1 {
                format!("1 {one}")
            } else {
                format!("{n} {many}")
            }
        })
        .collect();
    match parts.split_last() {
        None => "no document".to_owned(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// What a document is, in the page's words, one and many: its kind and
/// version where feedlint read it; where it could not (not well-formed),
/// what its text starts as.
fn kind_words(
    report: &Report,
    doc: usize,
    malformed: &crate::base::hash::FastSet<usize>,
) -> (&'static str, &'static str) {
    let document = &report.documents[doc];
    let version = document.summary.as_ref().and_then(|summary| summary.rss_version);
    match (document.kind(), version) {
        (Some(DocKind::Rss), Some("0.91")) => ("RSS 0.91 feed", "RSS 0.91 feeds"),
        (Some(DocKind::Rss), Some(_)) => ("RSS 0.92 feed", "RSS 0.92 feeds"),
        (Some(DocKind::Rss), None) if document.is_podcast() => ("RSS 2.0 podcast", "RSS 2.0 podcasts"),
        (Some(DocKind::Rss), None) => ("RSS 2.0 feed", "RSS 2.0 feeds"),
        (Some(DocKind::Atom), _) => ("Atom 1.0 feed", "Atom 1.0 feeds"),
        (Some(DocKind::AtomEntry), _) => ("Atom Entry Document", "Atom Entry Documents"),
        (Some(DocKind::DeletedEntry), _) => ("Deleted Entry Document", "Deleted Entry Documents"),
        (Some(DocKind::JsonFeed), _) => ("JSON Feed", "JSON Feeds"),
        (None, _) => unread_kind(report, doc, malformed.contains(&doc)),
    }
}

/// What a document feedlint did not read as a feed is, by what was found
/// in it: a web page, a feed that is not well-formed (by its root element's
/// start), or something else.
fn unread_kind(report: &Report, doc: usize, malformed: bool) -> (&'static str, &'static str) {
    let text = report.documents[doc].text().unwrap_or_default();
    let head = text.get(..text.len().min(4096)).unwrap_or(text);
    if crate::base::html::web_page_start(head).is_some() {
        return ("web page (HTML)", "web pages (HTML)");
    }
    if malformed {
        if head.contains("<rss") {
            return ("RSS feed, not well-formed", "RSS feeds, not well-formed");
        }
        if head.contains("<feed") {
            return ("Atom feed, not well-formed", "Atom feeds, not well-formed");
        }
        return (
            "document that is not well-formed XML",
            "documents that are not well-formed XML",
        );
    }
    (
        "document that is no feed feedlint checks",
        "documents that are no feeds feedlint checks",
    )
}

/// "2 errors and 1 warning": the levels found, none of the ones not.
fn counts(errors: usize, warnings: usize, infos: usize) -> String {
    let parts: Vec<String> = [(errors, "error"), (warnings, "warning"), (infos, "info")]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| plural(n, what))
        .collect();
    match parts.split_last() {
        None => "no findings".to_owned(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// "1 fix", "3 fixes".
fn fixes(n: usize) -> String {
    match n {
        1 => "1 fix".to_owned(),
        n => format!("{} fixes", thousands(n)),
    }
}

fn plural(n: usize, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        n => format!("{} {what}s", thousands(n)),
    }
}

/// A count with thousands separated: "12,900".
fn thousands(n: usize) -> String {
    crate::base::shown::thousands(n as u64)
}

/// The most bytes of findings one result page shows: past them, the page
/// says how many more there are, and the downloads hold every one. Each
/// finding is bounded already (its texts, its lines); this bounds their
/// sum, whatever a document holds.
const MOST_FINDINGS_BYTES: usize = 2 * 1024 * 1024;

/// One rule's findings in a document: the first shown whole, the repeats
/// a line each.
struct Group<'r> {
    rule: RuleId,
    level: Level,
    findings: Vec<(usize, &'r Diagnostic)>,
}

impl Group<'_> {
    /// How many findings the group stands for, folded ones counted whole.
    fn total(&self) -> usize {
        self.findings.iter().map(|(_, f)| f.folded.max(1)).sum()
    }
}

/// A document's findings by rule, in the order each rule first appears,
/// errors first, then warnings, then infos.
fn groups_of<'r>(findings: &[&'r Diagnostic]) -> Vec<Group<'r>> {
    let mut groups: Vec<Group> = Vec::new();
    let mut index: crate::base::hash::FastMap<RuleId, usize> = crate::base::hash::FastMap::default();
    for (n, finding) in findings.iter().enumerate() {
        match index.get(&finding.rule) {
            Some(&g) => groups[g].findings.push((n, finding)),
            None => {
                index.insert(finding.rule, groups.len());
                groups.push(Group {
                    rule: finding.rule,
                    level: finding.level,
                    findings: vec![(n, finding)],
                });
            }
        }
    }
    // Stable: within a level, the order the rules first appear.
    groups.sort_by_key(|group| std::cmp::Reverse(group.level));
    groups
}

/// One document and its findings, as many as `budget` (bytes) lets show:
/// a summary of its rules, then for each rule its first finding whole and
/// its repeats a line each (folded away), as the W3C service counts "(60
/// occurrences)", so that sixty bad dates are one card and one line.
fn document(report: &Report, doc: usize, run: &str, budget: &mut usize) -> Markup {
    let document = &report.documents[doc];
    let findings: Vec<&Diagnostic> = report.diagnostics.iter().filter(|d| d.primary().doc == doc).collect();
    let lines = document.text().map(Lines::of);
    // Where "line N" leads: the numbered source, kept with the run.
    let view = lines.as_ref().map(|_| format!("/runs/{run}/source/{doc}"));
    let view = view.as_deref();
    let groups = groups_of(&findings);
    let mut shown = Vec::new();
    let mut left_out = 0;
    for (g, group) in groups.iter().enumerate() {
        if *budget == 0 {
            left_out += group.findings.len();
            continue;
        }
        let (_, first) = group.findings[0];
        let card = finding(report, first, lines.as_ref(), view, &format!("d{doc}-r{g}"));
        let repeats = (group.findings.len() > 1).then(|| self::repeats(group, doc, view));
        *budget = budget.saturating_sub(card.0.len() + repeats.as_ref().map_or(0, |r| r.0.len()));
        shown.push(html! { (card) @if let Some(repeats) = repeats { (repeats) } });
    }
    html! {
        section.document {
            h2 { (document.name) }
            @if let Some(url) = document.url().filter(|url| !url.starts_with("file:")) {
                p.url { "Published at " code { (url) } }
            }
            @if findings.is_empty() {
                p.ok { "No findings." }
            }
            @if findings.len() > 1 {
                nav.rules-found aria-label=(format!("Findings in {} by rule", document.name)) {
                    ul {
                        @for (g, group) in groups.iter().enumerate() {
                            li class=(group.level) {
                                a href=(format!("#d{doc}-r{g}")) { (group.rule) }
                                @if group.total() > 1 { " × " (thousands(group.total())) }
                            }
                        }
                    }
                }
            }
            @for group in shown {
                (group)
            }
            @if left_out > 0 {
                p.warning-note { (plural(left_out, "more finding")) " of this document not shown here: the JSON and SARIF downloads list every one." }
            }
        }
    }
}

/// A rule's repeats after its first finding: one line each, the line and
/// column and the message, in a list folded away under their count.
fn repeats(group: &Group, doc: usize, view: Option<&str>) -> Markup {
    let more = group.total() - 1;
    let places: Vec<String> = group
        .findings
        .iter()
        .skip(1)
        .filter(|(_, f)| f.folded == 0)
        .take(3)
        .map(|(_, f)| f.primary().line_start.to_string())
        .collect();
    html! {
        details class=(format!("repeats {}", group.level)) {
            summary {
                (group.rule) " × " (thousands(more)) " more: "
                (if places.len() == 1 { "line " } else { "lines " }) (places.join(", "))
                @if more > places.len() { ", …" }
            }
            ol {
                @for (n, finding) in group.findings.iter().skip(1) {
                    @if finding.folded > 0 {
                        li.folded data-rule=(finding.rule) {
                            (thousands(finding.folded)) " more, first at line " (finding.primary().line_start)
                            " (not shown: fix the ones above and check again)"
                        }
                    } @else {
                        li id=(format!("d{doc}-{n}")) data-rule=(finding.rule) {
                            (place(finding.primary(), view))
                            ": " (finding.message)
                        }
                    }
                }
            }
        }
    }
}

/// One finding: what, where (the lines around it, the span marked), why,
/// what to do, and the fix as a diff.
fn finding(report: &Report, finding: &Diagnostic, lines: Option<&Lines>, view: Option<&str>, id: &str) -> Markup {
    let rule = crate::rules::by_id(finding.rule);
    let primary = finding.primary();
    // The repeats of a rule past the first ones shown: one line, as the
    // W3C service groups them.
    if finding.folded > 0 {
        return html! {
            p class=(format!("grouped {}", finding.level)) id=(id) data-rule=(finding.rule) {
                a.rule href=(format!("/rules/{}", finding.rule)) { (finding.rule) }
                " × " (thousands(finding.folded)) " more, first at line " (primary.line_start)
                " (not shown: fix the ones above and check again)"
            }
        };
    }
    html! {
        article class=(format!("finding {}", finding.level)) id=(id) data-rule=(finding.rule) {
            // A heading, so that screen readers move from finding to finding.
            h3 {
                span.level { (finding.level) }
                " "
                a.rule href=(format!("/rules/{}", finding.rule)) { (finding.rule) }
                " "
                (place(primary, view))
            }
            p.message { (finding.message) }
            @if let Some(lines) = lines {
                (source(lines, primary.byte_start, primary.byte_end, primary.label.as_deref()))
            }
            @let others = related(finding);
            @if !others.is_empty() {
                ul.related {
                    @for (doc, label, lines) in others {
                        li {
                            (report.documents[doc].name) ": " (label)
                            (if lines.len() == 1 { ", line " } else { ", lines " }) (lines.join(", "))
                        }
                    }
                }
            }
            @if !finding.notes.is_empty() {
                ul.notes {
                    @for note in &finding.notes {
                        li { (note) }
                    }
                }
            }
            @if let Some(help) = &finding.help {
                p.help { strong { "Help: " } (help) }
            }
            p.spec { "Specification: " (spec_of(rule, lines.map(|lines| lines.text))) }
            @if let (Some(fix), Some(lines)) = (&finding.fix, lines) {
                (fix_diff(fix, lines))
            }
        }
    }
}

/// A finding's other places, those of one document with one label in a
/// row said once with their lines ("here too, lines 3, 4, 5"), as a
/// reader scans them.
fn related(finding: &Diagnostic) -> Vec<(usize, &str, Vec<String>)> {
    let mut related: Vec<(usize, &str, Vec<String>)> = Vec::new();
    for span in finding.spans.iter().filter(|span| !span.is_primary) {
        let label = span.label.as_deref().unwrap_or("related");
        let line = span.line_start.to_string();
        match related.last_mut() {
            Some((doc, last, lines)) if *doc == span.doc && *last == label => lines.push(line),
            _ => related.push((span.doc, label, vec![line])),
        }
    }
    related
}

/// "line N, column M", linked to the line in the numbered source where
/// the run kept it.
fn place(span: &crate::findings::diagnostic::Span, view: Option<&str>) -> Markup {
    let (line, column) = (span.line_start, span.column_start);
    html! {
        @if let Some(view) = view {
            a.place href=(format!("{view}?line={line}#L{line}")) { "line " (line) ", column " (column) }
        } @else {
            span.place { "line " (line) ", column " (column) }
        }
    }
}

/// The sections a finding's rule enforces, for this document: a document
/// that is not well-formed is held to RFC 6721 only if it is a Deleted
/// Entry Document, as far as its broken text says.
fn spec_of(rule: &crate::rules::Rule, text: Option<&str>) -> std::borrow::Cow<'static, str> {
    let deleted_entry = text.is_some_and(|text| text.contains("deleted-entry"));
    match rule.spec.strip_suffix("; RFC 6721 §4") {
        Some(xml_only) if rule.id == RuleId::XmlMalformed && !deleted_entry => xml_only.into(),
        _ => rule.spec.into(),
    }
}
