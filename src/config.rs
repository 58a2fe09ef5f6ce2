//! Rule levels as the user set them: defaults, then `--allow/--warn/--deny`
//! in command-line order, then `--deny warnings`.

use std::collections::HashMap;

use crate::diagnostic::Level;
use crate::rules::{self, Rule};

#[derive(Debug, Clone, Default)]
pub struct Levels {
    /// `None` turns a rule off.
    overrides: HashMap<&'static str, Option<Level>>,
    deny_warnings: bool,
}

/// A rule id that no rule has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRule(pub String);

impl std::fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown rule '{}' (see 'feedlint rules' for the accepted ids)",
            self.0
        )
    }
}

impl Levels {
    /// Sets a rule's level (`None`: off). `warnings` with `Some(Error)` is
    /// `--deny warnings`.
    pub fn set(&mut self, id: &str, level: Option<Level>) -> Result<(), UnknownRule> {
        if id == "warnings" && level == Some(Level::Error) {
            self.deny_warnings = true;
            return Ok(());
        }
        let rule = rules::find(id).ok_or_else(|| UnknownRule(id.to_owned()))?;
        self.overrides.insert(rule.id, level);
        Ok(())
    }

    /// The level a rule's findings are reported at, `None` if it is off.
    pub fn level(&self, rule: &Rule) -> Option<Level> {
        let level = self.overrides.get(rule.id).copied().unwrap_or(Some(rule.level))?;
        Some(if self.deny_warnings && level == Level::Warning {
            Level::Error
        } else {
            level
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_settings_win_and_deny_warnings_raises() {
        let rule = rules::find("archive-missing-current").unwrap();
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
}
