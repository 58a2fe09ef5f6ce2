//! What walking skips besides hidden paths and ignore files: `--exclude`
//! and the config's `exclude`, globs in gitignore syntax.

use std::path::Path;

/// The `--exclude` globs (gitignore syntax) as the walker's overrides,
/// matched below `root`: `drafts/` skips every directory named drafts,
/// `/drafts/` only the one at the top.
pub(crate) fn overrides(root: &Path, globs: &[String]) -> Result<ignore::overrides::Override, ignore::Error> {
    let mut builder = ignore::overrides::OverrideBuilder::new(root);
    for glob in globs {
        builder.add(&format!("!{glob}"))?;
    }
    builder.build()
}

/// Whether `--exclude` globs are valid, for a usage error before any work.
pub fn check_exclusions(globs: &[String]) -> Result<(), String> {
    overrides(Path::new("."), globs)
        .map(drop)
        .map_err(|e| format!("invalid --exclude glob: {e}"))
}
