//! The fixed document a result page offers: a pasted or uploaded
//! document with its safe fixes applied, as `--fix` writes it, and what it
//! holds and leaves out.

use crate::findings::rule_id::RuleId;
use crate::report::Report;
use crate::{lint_in_memory, InMemory};

/// A document with its safe fixes applied, as `--fix` writes it.
pub struct FixedDocument {
    pub name: String,
    pub bytes: Vec<u8>,
    /// How many fixes it holds.
    pub applied: usize,
    /// How many fixes were left out, each unsafe (it changes what the
    /// feed says).
    pub left_out: usize,
    /// The kinds of fix left out, at most a few: their titles and rules.
    pub left_out_kinds: Vec<(String, RuleId)>,
}

/// One document with its safe fixes applied as `--fix` applies them,
/// where it has one; what it holds and what it leaves out (an unsafe fix is
/// for a person to review).
pub fn fixed(
    document: InMemory,
    report: &Report,
    options: &crate::settings::options::Options,
    deadline: std::time::Instant,
) -> Option<FixedDocument> {
    /// The most kinds of fix left out that the page names.
    const MOST_KINDS: usize = 5;
    let fixed_by: Vec<_> = report
        .diagnostics
        .iter()
        .filter_map(|d| d.fix.as_ref().map(|fix| (d.rule, fix)))
        .collect();
    if !fixed_by.iter().any(|(_, fix)| fix.applies(false)) {
        return None;
    }
    let unsafe_fixes: Vec<_> = fixed_by.iter().filter(|(_, fix)| !fix.applies(false)).collect();
    let mut left_out_kinds: Vec<(String, RuleId)> = Vec::new();
    for (rule, fix) in &unsafe_fixes {
        if left_out_kinds.len() == MOST_KINDS {
            break;
        }
        if !left_out_kinds
            .iter()
            .any(|(title, kind)| kind == rule && *title == fix.title)
        {
            left_out_kinds.push((fix.title.to_string(), *rule));
        }
    }
    let text = std::str::from_utf8(&document.bytes).ok()?;
    // Fixed as the command line fixes: every finding kept, no text kept.
    // The fixed text names the same media, checked already.
    let options = crate::run::fix_files::for_fixing(options)
        .keeping_texts(false)
        .with_media(None);
    let lint = |text: &str| {
        let again = InMemory {
            bytes: text.as_bytes().to_vec(),
            ..document.clone()
        };
        lint_in_memory(vec![again], &[], &options).unwrap_or_default()
    };
    let (text, applied) = crate::run::fix_files::fix_text(text, lint, deadline)?;
    Some(FixedDocument {
        name: document.name,
        bytes: text.into_bytes(),
        applied,
        left_out: unsafe_fixes.len(),
        left_out_kinds,
    })
}
