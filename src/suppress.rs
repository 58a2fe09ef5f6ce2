//! Inline suppressions in XML comments:
//!
//! - `<!-- feedlint-disable RULE[, RULE] -->`: the rest of the file;
//! - `<!-- feedlint-disable-next RULE[, RULE] -->`: the next element and
//!   its subtree (findings whose primary span starts inside it).
//!
//! A suppression that suppresses nothing is reported as
//! `unused-suppression`, so that stale ones do not pile up.

use std::ops::Range;

use crate::xml::Node;

use crate::diagnostic::{Diagnostic, DocId, Pending};
use crate::rules;
use crate::source::Source;

const DISABLE: &str = "feedlint-disable";
const DISABLE_NEXT: &str = "feedlint-disable-next";

/// One rule named in a suppression comment.
#[derive(Debug, Clone)]
pub struct Suppression {
    /// The rule id as written.
    pub rule: String,
    /// Which comment form it came from, for messages.
    pub directive: &'static str,
    /// Where in the document findings are suppressed (byte offsets).
    pub scope: Range<usize>,
    /// The rule id inside the comment, where `unused-suppression` points.
    pub at: Range<usize>,
    /// Whether it suppressed at least one finding.
    pub used: bool,
}

/// What every suppression comment starts with.
pub const PREFIX: &str = DISABLE;

/// The suppressions of a document's `feedlint-disable` comments (as the
/// feed's one pass over its nodes gathered them).
pub fn gather<'a, 'i: 'a>(comments: impl IntoIterator<Item = Node<'a, 'i>>) -> Vec<Suppression> {
    let mut found = Vec::new();
    for comment in comments {
        let text = comment.document().input_text();
        let body = comment.text().unwrap_or_default();
        let trimmed = body.trim_start();
        let (directive, rest) = if let Some(rest) = trimmed.strip_prefix(DISABLE_NEXT) {
            (DISABLE_NEXT, rest)
        } else if let Some(rest) = trimmed.strip_prefix(DISABLE) {
            (DISABLE, rest)
        } else {
            continue;
        };
        // The comment's text starts after "<!--".
        let body_start = comment.range().start + 4;
        let rest_start = body_start + (body.len() - rest.len());
        let scope = match directive {
            DISABLE => comment.range().end..text.len(),
            _ => next_element(comment).map_or(0..0, |element| element.range()),
        };
        for word in rest
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
        {
            // `word` is a slice of `rest`: its offset is the pointer distance.
            let start = rest_start + (word.as_ptr() as usize - rest.as_ptr() as usize);
            found.push(Suppression {
                rule: word.to_owned(),
                directive,
                scope: scope.clone(),
                at: start..start + word.len(),
                used: false,
            });
        }
    }
    found
}

/// The first element after `node` in document order, outside it.
fn next_element<'a, 'i>(node: Node<'a, 'i>) -> Option<Node<'a, 'i>> {
    let mut at = Some(node);
    while let Some(current) = at {
        if let Some(element) = current.next_siblings().skip(1).find(Node::is_element) {
            return Some(element);
        }
        at = current.parent();
    }
    None
}

/// Whether a suppression covers a finding of `rule` starting at `offset`.
fn covers(suppression: &Suppression, rule: &str, offset: usize) -> bool {
    suppression.rule == rule && suppression.scope.contains(&offset)
}

/// Removes the findings of one document that its suppressions cover, and
/// marks the suppressions used.
pub fn apply(diagnostics: &mut Vec<Diagnostic>, doc: DocId, suppressions: &mut [Suppression]) {
    diagnostics.retain(|d| {
        let primary = d.primary();
        if primary.doc != doc {
            return true;
        }
        match suppressions.iter_mut().find(|s| covers(s, d.rule, primary.byte_start)) {
            Some(suppression) => {
                suppression.used = true;
                false
            }
            None => true,
        }
    });
}

/// The `unused-suppression` finding for a suppression that matched nothing.
pub fn unused(suppression: &Suppression) -> Pending {
    let rule = &suppression.rule;
    let (message, help) = match rules::find(rule) {
        None => (
            format!("{} names unknown rule '{rule}'", suppression.directive),
            "use a rule id from 'feedlint rules'".to_owned(),
        ),
        Some(_) if suppression.scope.is_empty() => (
            format!("{} {rule} is followed by no element to apply to", suppression.directive),
            "put the comment right before the element, or remove it".to_owned(),
        ),
        Some(_) => (
            format!(
                "{} {rule} suppresses nothing: no {rule} finding is in its scope",
                suppression.directive
            ),
            format!("remove '{rule}' from the comment"),
        ),
    };
    Pending::new(suppression.at.clone(), message)
        .label("unused suppression")
        .note("a stale suppression would hide the next real finding of this rule")
        .help(help)
}

/// Resolves the `unused-suppression` findings of a document.
pub fn report_unused(
    suppressions: &[Suppression],
    doc: DocId,
    source: &Source,
    level: crate::Level,
) -> Vec<Diagnostic> {
    suppressions
        .iter()
        .filter(|s| !s.used)
        .map(|s| {
            unused(s).resolve(
                crate::rules::xml::UNUSED_SUPPRESSION.id,
                level,
                doc,
                &mut source.locator(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_name_rules_and_scopes() {
        let text =
            "<feed><!-- feedlint-disable-next a-rule, b-rule --><link/><x/><!--feedlint-disable c-rule--></feed>";
        let xml = crate::xml::parse(text).unwrap();
        let comments: Vec<Node> = xml.root().descendants().filter(Node::is_comment).collect();
        let found = gather(comments);
        let rules: Vec<&str> = found.iter().map(|s| s.rule.as_str()).collect();
        assert_eq!(rules, ["a-rule", "b-rule", "c-rule"]);
        assert_eq!(&text[found[0].at.clone()], "a-rule");
        assert_eq!(&text[found[1].at.clone()], "b-rule");
        assert_eq!(&text[found[0].scope.clone()], "<link/>");
        assert_eq!(&text[found[2].at.clone()], "c-rule");
        assert_eq!(&text[found[2].scope.clone()], "</feed>");
    }

    #[test]
    fn next_element_can_be_outside_the_comment_parent() {
        let text = "<feed><entry><!-- feedlint-disable-next a-rule --></entry><entry/></feed>";
        let xml = crate::xml::parse(text).unwrap();
        let comments: Vec<Node> = xml.root().descendants().filter(Node::is_comment).collect();
        let found = gather(comments);
        assert_eq!(&text[found[0].scope.clone()], "<entry/>");
    }
}
