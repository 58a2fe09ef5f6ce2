//! The rules on the web: their index, and a rule's page, its
//! documentation (`rules/ID.md`) in the page's words. The doc's sections come under the headings a reader of a
//! result asks by (what it means, why it matters, an example, how to fix
//! it), and what the doc says of the command line alone (flags, the
//! config, standard input) stays with `feedlint explain`: the docs keep
//! such sentences in their notes, and a note that speaks of the command
//! line is left off here.

use maud::{html, Markup, PreEscaped};

use super::layout::layout;
use crate::findings::diagnostic::Level;
use crate::findings::rule_id::{RuleId, UnknownRule};
use crate::rules::Scope;

/// The page of one rule.
pub fn rule(id: RuleId) -> Markup {
    let rule = crate::rules::by_id(id);
    let found_where = match rule.scope {
        Scope::Doc => "Found in one document",
        Scope::Set => "Found across the documents checked together",
        Scope::DocAndSet => "Found in one document, and across the documents checked together",
    };
    layout(
        id.as_str(),
        html! {
            h1 { code { (id) } }
            p.lead { (capitalized(rule.summary)) "." }
            p.spec {
                (level_in_words(rule.level)) " · " (found_where) " · "
                (crate::settings::select::group_names(id, ", ")) " rules · " (rule.spec)
            }
            @for (heading, body) in sections(id.doc()) {
                section.rule-doc {
                    h2 { (heading) }
                    (PreEscaped(body))
                }
            }
            p { a href="/rules" { "Every rule" } " · " a href="/" { "Check a feed" } }
        },
    )
}

/// The page for a rule id that names no rule, with the nearest one.
pub fn unknown(unknown: &UnknownRule) -> Markup {
    layout(
        "No such rule",
        html! {
            h1 { "No such rule" }
            p.problem {
                "No rule is called “" (unknown.0) "”."
                @if let Some(near) = RuleId::suggest(&unknown.0) {
                    " Did you mean " a href=(format!("/rules/{near}")) { code { (near) } } "?"
                }
            }
            p { a href="/rules" { "Every rule" } " · " a href="/" { "Check a feed" } }
        },
    )
}

fn level_in_words(level: Level) -> &'static str {
    match level {
        Level::Error => "An error: the specification says must",
        Level::Warning => "A warning: the specification says should",
        Level::Info => "An info: worth knowing, nothing wrong",
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The doc's sections as the page shows them: each heading in the page's
/// words and its body rendered, in the doc's order (its title and the
/// line under it are the page's own header instead).
fn sections(doc: &str) -> Vec<(&'static str, String)> {
    let mut shown = Vec::new();
    for (heading, body) in split_sections(doc) {
        let (heading, body) = match heading {
            "What it checks" => ("What it means", body),
            "Why" => ("Why it matters", body),
            "Example" => ("An example", body),
            "Passes" => (
                "How to fix it",
                body.replacen("This does not:", "Written like this, it is not found:", 1),
            ),
            "Specification" => ("What the specification says", body),
            "Notes" => ("Details", web_notes(&body)),
            _ => continue,
        };
        if !body.trim().is_empty() {
            shown.push((heading, rendered(&body)));
        }
    }
    shown
}

/// The `## ` sections of a doc, by heading, outside code blocks.
fn split_sections(doc: &str) -> Vec<(&str, String)> {
    let mut sections: Vec<(&str, String)> = Vec::new();
    let mut in_code = false;
    for line in doc.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        match line.strip_prefix("## ") {
            Some(heading) if !in_code => sections.push((heading.trim(), String::new())),
            _ => {
                if let Some((_, body)) = sections.last_mut() {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    sections
}

/// The notes' paragraphs that hold for the web page too: a paragraph that
/// names a flag, the config or the command line is the command line's.
fn web_notes(notes: &str) -> String {
    notes
        .split("\n\n")
        .filter(|paragraph| !speaks_of_the_command_line(paragraph))
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn speaks_of_the_command_line(text: &str) -> bool {
    const WORDS: [&str; 6] = [
        "command line",
        "feedlint.toml",
        "config",
        "standard input",
        "exit status",
        "linted",
    ];
    text.match_indices("--").any(|(at, _)| {
        text[at + 2..].starts_with(|c: char| c.is_ascii_lowercase())
            && !text[..at].ends_with(|c: char| c.is_alphanumeric())
    }) || WORDS.iter().any(|word| text.contains(word))
        || text.contains("`feedlint ")
}

/// Markdown as HTML, any raw HTML in it escaped all the same.
fn rendered(markdown: &str) -> String {
    use pulldown_cmark::{Event, Parser};
    let events = Parser::new(markdown).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        other => other,
    });
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

/// Every rule, with its level and summary.
pub fn rules() -> Markup {
    layout(
        "Rules",
        html! {
            h1 { "Rules" }
            table.rules {
                thead { tr { th { "rule" } th { "level" } th { "finds" } } }
                tbody {
                    @for rule in crate::rules::RULES {
                        tr {
                            td { a href=(format!("/rules/{}", rule.id)) { (rule.id) } }
                            td { (rule.level) }
                            td { (rule.summary) }
                        }
                    }
                }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_of_the_command_line_is_left_off() {
        let notes = "Links are compared after resolving `xml:base`.\n\nOn the command line, the limit is `--max-file-size`.\n\nThe config's `select` names it.";
        assert_eq!(web_notes(notes), "Links are compared after resolving `xml:base`.");
        // An em dash written as two hyphens between words is no flag.
        assert!(!speaks_of_the_command_line("a feed -- any feed -- is read"));
    }

    #[test]
    fn sections_come_in_the_pages_words_and_code_blocks_stay_whole() {
        let doc = "# x\n\nLevel\n\n## What it checks\n\nA thing.\n\n## Example\n\n```xml\n## not a heading\n```\n\n## Passes\n\nThis does not:\n\n```xml\n<a/>\n```\n";
        let shown = sections(doc);
        let headings: Vec<&str> = shown.iter().map(|(heading, _)| *heading).collect();
        assert_eq!(headings, ["What it means", "An example", "How to fix it"]);
        assert!(shown[1].1.contains("## not a heading"), "{}", shown[1].1);
        assert!(
            shown[2].1.contains("Written like this, it is not found:"),
            "{}",
            shown[2].1
        );
    }
}
