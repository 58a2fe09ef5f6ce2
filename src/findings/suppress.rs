//! Inline suppressions in XML comments:
//!
//! - `<!-- feedlint-disable RULE[, RULE] -->`: the rest of the file;
//! - `<!-- feedlint-disable-next RULE[, RULE] -->` (or
//!   `feedlint-disable-next-line`, as eslint users write it): the next
//!   element and its subtree (findings whose primary span starts inside
//!   it);
//! - either with a reason in parentheses after the rule ids:
//!   `<!-- feedlint-disable-next rss-invalid-guid (kept for an old reader) -->`
//!   (XML forbids `--` inside a comment, so eslint's `-- reason` cannot be
//!   written).
//!
//! A suppression that suppresses nothing is reported as
//! `unused-suppression`, so that stale ones do not pile up; so is a
//! comment that starts like a directive but is none (`feedlint-disable-next:`),
//! which suppresses nothing and says which forms are accepted.

use std::ops::Range;

use crate::xml::Node;

use crate::base::hash::FastMap;
use crate::findings::diagnostic::{Diagnostic, Location, Spanned};
use crate::findings::rule_id::RuleId;

const DISABLE: &str = "feedlint-disable";
const DISABLE_NEXT: &str = "feedlint-disable-next";
const DISABLE_NEXT_LINE: &str = "feedlint-disable-next-line";

/// The forms a suppression comment takes, for the message about one that
/// takes none of them.
pub const ACCEPTED_FORMS: &str = "<!-- feedlint-disable RULE[, RULE] [(reason)] --> for the rest of the file, <!-- feedlint-disable-next RULE[, RULE] [(reason)] --> (or feedlint-disable-next-line) for the next element";

/// One rule named in a suppression comment.
#[derive(Debug, Clone)]
pub struct Suppression {
    /// The rule named, or the word as written if no rule has that id (empty
    /// for a comment that names no rule at all).
    pub rule: Result<RuleId, String>,
    /// Which comment form it came from, for messages.
    pub directive: &'static str,
    /// Where in the document findings are suppressed (byte offsets).
    pub scope: Range<usize>,
    /// The rule id inside the comment, where `unused-suppression` points.
    pub at: Range<usize>,
    /// `at` with its lines and columns, found while the text is at hand:
    /// the finding itself is made only if the suppression stays unused.
    pub located: Option<Location>,
    /// What removing it takes out of the document: the rule id and the
    /// separator before it (after it, for the first), or the whole comment
    /// (and its line) when it names nothing else.
    pub removal: Range<usize>,
    /// `removal` located, when the document can be fixed.
    pub removal_located: Option<Location>,
    /// How many findings it suppressed.
    pub suppressed: usize,
    /// The reason written in parentheses after the rule ids, if any.
    pub reason: Option<Box<str>>,
    /// The comment starts like a directive but is none (`feedlint-disable-next:`):
    /// the directive as written. It suppresses nothing.
    pub malformed: Option<Box<str>>,
}

impl Suppression {
    /// Whether it suppressed at least one finding.
    pub fn used(&self) -> bool {
        self.suppressed > 0
    }
}

/// What every suppression comment starts with.
pub const PREFIX: &str = DISABLE;

/// The suppressions of a document's `feedlint-disable` comments (as the
/// feed's one pass over its nodes gathered them), in document order.
pub fn gather<'a, 'i: 'a>(comments: impl IntoIterator<Item = Node<'a, 'i>>) -> Vec<Suppression> {
    let mut found = Vec::new();
    let mut next_elements = NextElements::default();
    for comment in comments {
        let text = comment.tree().input_text();
        let body = comment.text().unwrap_or_default();
        let next = || next_elements.after(comment).map(|element| element.range());
        read_comment(text, comment.range(), body, next, &mut found);
    }
    found
}

/// The suppressions of a web page's `feedlint-disable` comments, each
/// given with its range and the range of the tag that follows it (what
/// `feedlint-disable-next` covers), in document order.
pub fn gather_html(
    text: &str,
    comments: impl IntoIterator<Item = (Range<usize>, Option<Range<usize>>)>,
) -> Vec<Suppression> {
    let mut found = Vec::new();
    for (comment, next) in comments {
        let Some(body) = text.get(comment.start + 4..comment.end.saturating_sub(3)) else {
            continue;
        };
        read_comment(text, comment.clone(), body, || next, &mut found);
    }
    found
}

/// The suppressions one comment (`comment`, of body `body`, in `text`)
/// writes, onto `found`; `next` gives what `feedlint-disable-next` covers.
fn read_comment(
    text: &str,
    comment: Range<usize>,
    body: &str,
    next: impl FnOnce() -> Option<Range<usize>>,
    found: &mut Vec<Suppression>,
) {
    let trimmed = body.trim_start();
    if !trimmed.starts_with(DISABLE) {
        return;
    }
    // The comment's text starts after "<!--".
    let body_start = comment.start + 4;
    let directive_start = body_start + (body.len() - trimmed.len());
    let word_len = trimmed
        .find(|c: char| c.is_whitespace() || c == '(')
        .unwrap_or(trimmed.len());
    let whole_comment = crate::findings::fix::remove_element(text, comment.clone()).at;
    let directive = match &trimmed[..word_len] {
        DISABLE => DISABLE,
        DISABLE_NEXT => DISABLE_NEXT,
        DISABLE_NEXT_LINE => DISABLE_NEXT_LINE,
        written => {
            found.push(malformed(
                written,
                directive_start..directive_start + word_len,
                whole_comment,
            ));
            return;
        }
    };
    let rest = &trimmed[word_len..];
    let rest_start = directive_start + word_len;
    // The reason: from the first "(" to a ")" that ends the comment.
    let (ids, reason) = match rest.find('(') {
        None => (rest, None),
        Some(open) => match rest.trim_end().strip_suffix(')') {
            Some(inner) if inner.len() > open => (&rest[..open], Some(inner[open + 1..].trim())),
            _ => {
                let at = rest_start + open..rest_start + rest.trim_end().len();
                found.push(malformed(&text[at.clone()], at, whole_comment));
                return;
            }
        },
    };
    let reason: Option<Box<str>> = reason.filter(|r| !r.is_empty()).map(Into::into);
    let scope = match directive {
        DISABLE => comment.end..text.len(),
        _ => next().unwrap_or(0..0),
    };
    let mut words = ids
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .peekable();
    if words.peek().is_none() {
        // A comment that names no rule suppresses nothing: it is
        // reported at its directive, which says what to add.
        found.push(Suppression {
            rule: Err(String::new()),
            directive,
            scope: 0..0,
            at: directive_start..rest_start,
            located: None,
            removal: whole_comment.clone(),
            removal_located: None,
            suppressed: 0,
            reason: reason.clone(),
            malformed: None,
        });
    }
    // `word` is a slice of `rest`: its offset is the pointer distance.
    let spans: Vec<Range<usize>> = words
        .map(|word| {
            let start = rest_start + (word.as_ptr() as usize - rest.as_ptr() as usize);
            start..start + word.len()
        })
        .collect();
    for (i, at) in spans.iter().enumerate() {
        let removal = match (i, spans.len()) {
            (_, 1) => whole_comment.clone(),
            (0, _) => at.start..spans[1].start,
            _ => spans[i - 1].end..at.end,
        };
        let word = &text[at.clone()];
        found.push(Suppression {
            rule: word.parse().map_err(|_| word.to_owned()),
            directive,
            scope: scope.clone(),
            at: at.clone(),
            located: None,
            removal,
            removal_located: None,
            suppressed: 0,
            reason: reason.clone(),
            malformed: None,
        });
    }
}

/// A comment that starts like a directive but takes none of the accepted
/// forms: it suppresses nothing, and is reported where it goes wrong.
fn malformed(written: &str, at: Range<usize>, whole_comment: Range<usize>) -> Suppression {
    Suppression {
        rule: Err(String::new()),
        directive: DISABLE,
        scope: 0..0,
        at,
        located: None,
        removal: whole_comment,
        removal_located: None,
        suppressed: 0,
        reason: None,
        malformed: Some(written.into()),
    }
}

/// The element each comment applies to: the first element after it in
/// document order (a comment has no subtree, so that is the next element
/// sibling, else the next one after its parent, and so on). Asked in
/// document order, each search starts where the last one ended, or its
/// answer is reused: 60,000 comments in a row cost one pass, not 60,000.
#[derive(Default)]
struct NextElements<'a, 'i> {
    /// The last comment asked about and its answer.
    last: Option<(u32, Option<Node<'a, 'i>>)>,
}

impl<'a, 'i> NextElements<'a, 'i> {
    fn after(&mut self, comment: Node<'a, 'i>) -> Option<Node<'a, 'i>> {
        let id = comment.id().get() as u32;
        let element = match self.last {
            // No element between the last comment and its answer, so none
            // between this later comment and that answer either.
            Some((last, answer)) if last < id && answer.is_none_or(|e| e.id().get() as u32 > id) => answer,
            _ => comment.following().find(Node::is_element),
        };
        self.last = Some((id, element));
        element
    }
}

/// Drops the findings of one document that its suppressions cover, and
/// marks those suppressions used. A finding is covered by the first
/// suppression (in document order) of its rule whose scope holds its
/// primary span's start; found by a sweep over the scopes' ends and the
/// findings, rule by rule, so the cost is O(n log n) in findings and
/// suppressions whatever their number.
pub fn apply<S: Spanned>(diagnostics: &mut Vec<Diagnostic<S>>, suppressions: &mut [Suppression]) {
    let mut by_rule: FastMap<RuleId, Vec<usize>> = FastMap::default();
    for (k, suppression) in suppressions.iter().enumerate() {
        if let Ok(rule) = suppression.rule {
            by_rule.entry(rule).or_default().push(k);
        }
    }
    if by_rule.is_empty() {
        return;
    }
    let mut findings: FastMap<RuleId, Vec<(usize, usize)>> = FastMap::default();
    for (index, diagnostic) in diagnostics.iter().enumerate() {
        if by_rule.contains_key(&diagnostic.rule) {
            findings
                .entry(diagnostic.rule)
                .or_default()
                .push((diagnostic.primary().byte_start(), index));
        }
    }
    let mut suppressed = vec![false; diagnostics.len()];
    let mut used = Vec::new();
    for (rule, mut found) in findings {
        let candidates = &by_rule[&rule];
        found.sort_unstable();
        // Scope starts and ends, starts first at the same offset: a scope
        // holds the offsets from its start up to, not including, its end.
        let mut events: Vec<(usize, bool, usize)> = candidates
            .iter()
            .flat_map(|&k| {
                [
                    (suppressions[k].scope.start, false, k),
                    (suppressions[k].scope.end, true, k),
                ]
            })
            .collect();
        events.sort_unstable();
        let mut open = std::collections::BTreeSet::new();
        let mut next = 0;
        for (offset, index) in found {
            while let Some(&(_, is_end, k)) = events.get(next).filter(|e| e.0 <= offset) {
                if is_end {
                    open.remove(&k);
                } else {
                    open.insert(k);
                }
                next += 1;
            }
            if let Some(&first) = open.first() {
                suppressed[index] = true;
                used.push(first);
            }
        }
    }
    for k in used {
        suppressions[k].suppressed += 1;
    }
    let mut index = 0;
    diagnostics.retain(|_| {
        index += 1;
        !suppressed[index - 1]
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_name_rules_and_scopes() {
        let text =
            "<feed><!-- feedlint-disable-next invalid-date, b-rule --><link/><x/><!--feedlint-disable archive-order--></feed>";
        let xml = crate::xml::parse(text).unwrap();
        let comments: Vec<Node> = xml.root().descendants().filter(Node::is_comment).collect();
        let found = gather(comments);
        let rules: Vec<_> = found.iter().map(|s| s.rule.clone()).collect();
        assert_eq!(
            rules,
            [
                Ok(RuleId::InvalidDate),
                Err("b-rule".to_owned()),
                Ok(RuleId::ArchiveOrder)
            ]
        );
        assert_eq!(&text[found[0].at.clone()], "invalid-date");
        assert_eq!(&text[found[1].at.clone()], "b-rule");
        assert_eq!(&text[found[0].scope.clone()], "<link/>");
        assert_eq!(&text[found[2].at.clone()], "archive-order");
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
