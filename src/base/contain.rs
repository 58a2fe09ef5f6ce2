//! A panic in one rule or one document is contained: that document gets
//! one `internal-error` finding, and every other document, the run, the
//! language server's session and the web server go on. A bug in a rule
//! must never cost a user the rest of their report.
//!
//! [`install_hook`] (called once by each front door) makes a contained
//! panic silent on standard error: the finding says what happened, once,
//! where the user reads findings. A panic anywhere else is one line on
//! standard error, not the default hook's two.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// How many [`contained`] calls this thread is inside.
    static DEPTH: Cell<usize> = const { Cell::new(0) };
    /// What the last panic on this thread said, and where (from the hook,
    /// which knows the place; the payload knows only the message).
    static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs the panic hook (once per process; later calls do nothing).
pub fn install_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        panic::set_hook(Box::new(|info| {
            let what = describe(info);
            if DEPTH.with(Cell::get) > 0 {
                LAST.with(|last| *last.borrow_mut() = Some(what));
            } else {
                eprintln!("feedlint: internal error: {what}");
            }
        }));
    });
}

/// One line: the panic's message and the place in feedlint's source.
fn describe(info: &panic::PanicHookInfo<'_>) -> String {
    let message = message_of(info.payload());
    match info.location() {
        Some(at) => format!("{message} (at {}:{})", at.file(), at.line()),
        None => message,
    }
}

fn message_of(payload: &(dyn std::any::Any + Send)) -> String {
    let message = if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic with no message".to_owned()
    };
    // One line, whatever the message held.
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Runs `work`; a panic in it is returned as one line saying what it was
/// (and where, once [`install_hook`] has run), not unwound further.
///
/// What `work` touched may be half-done: callers throw it away (a rule's
/// findings for the document, the document's analysis) and keep nothing
/// that the panic could have left inconsistent.
pub fn contained<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    DEPTH.with(|depth| depth.set(depth.get() + 1));
    let result = panic::catch_unwind(AssertUnwindSafe(work));
    DEPTH.with(|depth| depth.set(depth.get() - 1));
    result.map_err(|payload| {
        LAST.with(|last| last.borrow_mut().take())
            .unwrap_or_else(|| message_of(&*payload))
    })
}

/// The file stem that makes a debug build panic in a document's analysis
/// ([`panic_if_asked`]).
pub const TEST_PANIC_STEM: &str = "feedlint-test-panic";

/// In a debug build (the one `cargo test` runs), a document whose file name
/// is `feedlint-test-panic.*` panics in its analysis, so that the tests of
/// every front door (command line, language server, web page) can see a
/// contained panic from end to end. A release build has no such name.
pub fn panic_if_asked(name: &str) {
    if cfg!(debug_assertions)
        && std::path::Path::new(name)
            .file_stem()
            .is_some_and(|stem| stem == TEST_PANIC_STEM)
    {
        panic!("a panic asked for by the document's name ({TEST_PANIC_STEM}, debug builds only)");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_one_line_and_the_thread_goes_on() {
        install_hook();
        let error = contained(|| -> usize { panic!("two\nlines") }).unwrap_err();
        assert!(error.starts_with("two lines (at src/base/contain.rs:"), "{error}");
        assert_eq!(contained(|| 7), Ok(7));
        // Nested: the inner panic is the inner call's.
        let outer = contained(|| contained(|| -> u8 { panic!("inner") }).unwrap_err());
        assert!(outer.unwrap().starts_with("inner"));
        assert_eq!(DEPTH.with(Cell::get), 0);
    }
}
