//! `feedlint server`: the linter as a language server (LSP over standard
//! input and output), built on `lsp-server`'s messages and `lsp-types`, the
//! crates rust-analyzer is built on, with a transport of its own that reads
//! messages within limits (`transport.rs`).
//!
//! The open documents are linted as the files they are, their text taking
//! the place of what is on disk, with the workspace's other feeds read as
//! context: the chain rules work across open and saved files.
//! Linting runs on a thread of its own, after a short pause in the edits,
//! so a large workspace never blocks typing. Positions are UTF-16 code
//! units, as LSP counts them, converted here at the edge.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{CodeActionRequest, HoverRequest, Request as _};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionProviderCapability, CodeDescription,
    Diagnostic as LspDiagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Hover, HoverContents, HoverParams,
    HoverProviderCapability, MarkupContent, MarkupKind, NumberOrString, Position, PublishDiagnosticsParams, Range,
    ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, TextEdit, Uri, WorkspaceEdit,
};
use url::Url;

use crate::findings::diagnostic::{Diagnostic, Level};
use crate::findings::fix::Fix;
use crate::run::discover::Input;
use crate::settings::config::Config;
use crate::settings::options::{FrontDoor, Options, Overrides, Resolved};

mod transport;

pub use transport::MAX_MESSAGE;

/// How long the edits must pause before a lint starts.
const DEBOUNCE: Duration = Duration::from_millis(150);

/// An open document: its text, as the editor has it, and its file (`None`
/// for a buffer the editor has not saved anywhere, an `untitled:` URI).
struct Open {
    path: Option<PathBuf>,
    text: String,
}

/// What the last lint found in one open document, for code actions and
/// hovers, in LSP terms.
#[derive(Default)]
struct Found {
    findings: Vec<Finding>,
}

struct Finding {
    diagnostic: LspDiagnostic,
    fix: Option<QuickFix>,
    /// The rule's documentation, shown on hover.
    doc: &'static str,
}

struct QuickFix {
    title: String,
    edits: Vec<TextEdit>,
    safe: bool,
}

#[derive(Default)]
struct State {
    open: HashMap<String, Open>,
    found: HashMap<String, Found>,
}

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// `shutdown`, then `exit`: the server exits with status 0.
    Shutdown,
    /// `exit` without `shutdown`, or the input closed: status 1, as LSP
    /// says.
    WithoutShutdown,
}

/// Runs the server on standard input and output until the client exits.
pub fn run(config: Option<PathBuf>) -> Result<Ended, String> {
    let stdio = transport::Stdio::start();
    let connection = Connection {
        sender: stdio.sender.clone(),
        receiver: stdio.receiver.clone(),
    };
    let ended = serve_with(connection, config)?;
    stdio.finish().map_err(|e| e.to_string())?;
    Ok(ended)
}

/// Serves one client over `connection` (tests use an in-memory one) until
/// it sends `exit` or closes the connection. Requests after `shutdown` are
/// answered with an error, as LSP says.
pub fn serve(connection: Connection) -> Result<Ended, String> {
    serve_with(connection, None)
}

/// [`serve`], with the settings of the config file `config` (the editor's
/// setting, `feedlint server --config FILE`) instead of the workspace's
/// `feedlint.toml`.
pub fn serve_with(connection: Connection, config: Option<PathBuf>) -> Result<Ended, String> {
    let capabilities = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    let initialize = connection.initialize(capabilities).map_err(|e| e.to_string())?;
    let root = workspace_root(&initialize);
    let (mut settings, mut told) = Settings::read(root.clone(), config);
    if watches_files(&initialize) {
        send(&connection, Message::Request(watch_configs(settings.config.as_deref())))?;
    }
    // A root that is no project (the whole file system, a kernel file
    // system) is not walked: only the open documents are linted.
    let root = match root {
        Some(root) if !is_walkable_workspace(&root) => {
            told.push(show_message(
                lsp_types::MessageType::WARNING,
                format!(
                    "feedlint: the workspace root {} is not walked (it is the file system's root or a kernel file system): only open documents are linted; open a project folder to check the chains across its feeds",
                    root.display()
                ),
            ));
            None
        }
        root => root,
    };
    for notification in told {
        send(&connection, Message::Notification(notification))?;
    }
    let state = Arc::new(Mutex::new(State::default()));
    let (lint_requests, lint_queue) = mpsc::channel::<()>();
    let linter = spawn_linter(&state, &connection, root, Arc::clone(&settings.options), lint_queue);
    let mut lint_requests = Some(lint_requests);
    let mut shut_down = false;
    let ended = loop {
        let Ok(message) = connection.receiver.recv() else {
            // The input closed without `exit`.
            break if shut_down {
                Ended::Shutdown
            } else {
                Ended::WithoutShutdown
            };
        };
        let lint_again = match message {
            Message::Request(request) if shut_down => {
                let response = Response::new_err(
                    request.id,
                    lsp_server::ErrorCode::InvalidRequest as i32,
                    "the server is shut down: only the exit notification is accepted now".to_owned(),
                );
                send(&connection, Message::Response(response))?;
                false
            }
            Message::Request(request) if request.method == lsp_types::request::Shutdown::METHOD => {
                shut_down = true;
                // No lint starts after shutdown.
                lint_requests = None;
                send(&connection, Message::Response(Response::new_ok(request.id, ())))?;
                false
            }
            Message::Request(request) => {
                send(&connection, Message::Response(respond(&state, request)))?;
                false
            }
            Message::Notification(notification) if notification.method == lsp_types::notification::Exit::METHOD => {
                break if shut_down {
                    Ended::Shutdown
                } else {
                    Ended::WithoutShutdown
                };
            }
            Message::Notification(notification) if names_a_config(&notification, settings.config.as_deref()) => {
                // The config is read again: its mistakes are told (and the
                // ones fixed cleared), and every open document linted anew.
                for notification in settings.read_again() {
                    send(&connection, Message::Notification(notification))?;
                }
                true
            }
            Message::Notification(notification) => document_changed(&state, notification),
            Message::Response(_) => false,
        };
        if let (true, Some(requests)) = (lint_again, &lint_requests) {
            let _ = requests.send(());
        }
    };
    drop(lint_requests);
    linter.join().map_err(|_| "the linting thread panicked".to_owned())?;
    Ok(ended)
}

/// What the server says it can do.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::FULL),
            save: Some(TextDocumentSyncSaveOptions::Supported(true)),
            ..TextDocumentSyncOptions::default()
        })),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    }
}

fn send(connection: &Connection, message: Message) -> Result<(), String> {
    connection.sender.send(message).map_err(|e| e.to_string())
}

/// The thread that lints the open documents each time `lint_queue` says
/// so (edits in quick succession make one lint), with the settings as
/// they are then.
fn spawn_linter(
    state: &Arc<Mutex<State>>,
    connection: &Connection,
    root: Option<PathBuf>,
    settings: Arc<Mutex<Options>>,
    lint_queue: mpsc::Receiver<()>,
) -> std::thread::JoinHandle<()> {
    let (state, sender) = (Arc::clone(state), connection.sender.clone());
    std::thread::spawn(move || {
        while lint_queue.recv().is_ok() {
            while lint_queue.recv_timeout(DEBOUNCE).is_ok() {}
            let options = settings.lock().unwrap_or_else(PoisonError::into_inner).clone();
            for notification in lint_open_documents(&state, root.as_ref(), &options) {
                if sender.send(Message::Notification(notification)).is_err() {
                    return;
                }
            }
        }
    })
}

/// The workspace's settings, read from its `feedlint.toml` at the start
/// and again whenever the config changes, and the files whose mistakes the
/// editor was last shown.
struct Settings {
    /// The folder whose config applies.
    root: Option<PathBuf>,
    /// The config file named by the editor, in place of the folder's.
    config: Option<PathBuf>,
    /// Shared with the linting thread.
    options: Arc<Mutex<Options>>,
    marked: Vec<String>,
}

impl Settings {
    fn read(root: Option<PathBuf>, config: Option<PathBuf>) -> (Settings, Vec<Notification>) {
        let (options, told) = options_for(root.as_deref(), config.as_deref());
        let settings = Settings {
            root,
            config,
            options: Arc::new(Mutex::new(options)),
            marked: marked_files(&told),
        };
        (settings, told)
    }

    /// Reads the config again: what the editor is told of it, the
    /// diagnostics of mistakes since fixed cleared.
    fn read_again(&mut self) -> Vec<Notification> {
        let (options, mut told) = options_for(self.root.as_deref(), self.config.as_deref());
        *self.options.lock().unwrap_or_else(PoisonError::into_inner) = options;
        let marked = marked_files(&told);
        told.extend(
            self.marked
                .iter()
                .filter(|uri| !marked.contains(uri))
                .map(|uri| cleared(uri)),
        );
        self.marked = marked;
        told
    }
}

/// Whether a notification says that a `feedlint.toml` (or the config
/// file the editor named) was saved in the editor or changed on disk
/// (`workspace/didChangeWatchedFiles`).
fn names_a_config(notification: &Notification, named: Option<&Path>) -> bool {
    let named = named.and_then(|path| Url::from_file_path(std::path::absolute(path).ok()?).ok());
    let is_config = |uri: &serde_json::Value| {
        uri.as_str().is_some_and(|uri| {
            uri.rsplit('/').next() == Some(crate::settings::config::CONFIG_FILE)
                || named.as_ref().is_some_and(|named| named.as_str() == uri)
        })
    };
    match notification.method.as_str() {
        DidSaveTextDocument::METHOD => is_config(&notification.params["textDocument"]["uri"]),
        lsp_types::notification::DidChangeWatchedFiles::METHOD => notification.params["changes"]
            .as_array()
            .is_some_and(|changes| changes.iter().any(|change| is_config(&change["uri"]))),
        _ => false,
    }
}

/// Whether the client lets the server ask it to watch files.
fn watches_files(initialize: &serde_json::Value) -> bool {
    initialize["capabilities"]["workspace"]["didChangeWatchedFiles"]["dynamicRegistration"] == true
}

/// The request that asks the client to tell of every `feedlint.toml`
/// created, changed or deleted in the workspace, and of the config file
/// the editor named.
fn watch_configs(named: Option<&Path>) -> lsp_server::Request {
    let mut watchers =
        vec![serde_json::json!({ "globPattern": format!("**/{}", crate::settings::config::CONFIG_FILE) })];
    if let Some(path) = named.and_then(|path| std::path::absolute(path).ok()) {
        watchers.push(serde_json::json!({ "globPattern": path.to_string_lossy().replace('\\', "/") }));
    }
    let registration = serde_json::json!({
        "registrations": [{
            "id": "feedlint-config",
            "method": lsp_types::notification::DidChangeWatchedFiles::METHOD,
            "registerOptions": { "watchers": watchers },
        }]
    });
    lsp_server::Request::new(
        lsp_server::RequestId::from("feedlint-watch-config".to_owned()),
        "client/registerCapability".to_owned(),
        registration,
    )
}

/// The files that notifications publish diagnostics for (a config's
/// mistakes), by URI.
fn marked_files(told: &[Notification]) -> Vec<String> {
    told.iter()
        .filter(|notification| notification.method == PublishDiagnostics::METHOD)
        .filter_map(|notification| Some(notification.params["uri"].as_str()?.to_owned()))
        .collect()
}

/// The notification that clears the diagnostics of `uri`.
fn cleared(uri: &str) -> Notification {
    let params = serde_json::json!({ "uri": uri, "diagnostics": [] });
    Notification::new(PublishDiagnostics::METHOD.to_owned(), params)
}

/// Whether a workspace root may be walked: not `/`, and not in a kernel
/// file system (whose reads can block for good).
fn is_walkable_workspace(root: &std::path::Path) -> bool {
    let canonical = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_owned());
    canonical.parent().is_some() && !crate::run::discover::is_kernel_path(&canonical)
}

/// The workspace's directory: the first workspace folder, else the root URI.
fn workspace_root(initialize: &serde_json::Value) -> Option<PathBuf> {
    let folder = initialize["workspaceFolders"][0]["uri"].as_str();
    let uri = folder.or_else(|| initialize["rootUri"].as_str())?;
    Url::parse(uri).ok()?.to_file_path().ok()
}

/// The settings of the workspace's `feedlint.toml` (or of the config file
/// the editor named), resolved as the command line resolves them, and what
/// the editor is told of them.
fn options_for(root: Option<&Path>, named: Option<&Path>) -> (Options, Vec<Notification>) {
    let paths: Vec<PathBuf> = root.map(Path::to_path_buf).into_iter().collect();
    let read = match named {
        Some(path) => crate::settings::config::load(path),
        None => crate::settings::config::for_paths(&paths),
    };
    let resolved = match read {
        Ok(config) => Options::resolve(config, Overrides::default(), FrontDoor::Editor),
        // The editor is told, at the mistake, and the defaults apply
        // meanwhile: never a silent fall back.
        Err(error) => return (defaults(), config_error_notifications(&error)),
    };
    match resolved {
        Ok(Resolved { options, warnings }) => {
            let told = warnings
                .iter()
                .map(|warning| show_message(lsp_types::MessageType::WARNING, format!("feedlint: {warning}")))
                .collect();
            (options, told)
        }
        Err(mistakes) => {
            let message = format!(
                "feedlint: {}; linting with the default settings until it is fixed",
                mistakes.join("; ")
            );
            (defaults(), vec![show_message(lsp_types::MessageType::ERROR, message)])
        }
    }
}

/// The settings an editor lints with when its config cannot be used.
fn defaults() -> Options {
    let defaults = Options::resolve(Config::default(), Overrides::default(), FrontDoor::Editor);
    defaults.expect("the defaults resolve").options
}

fn show_message(typ: lsp_types::MessageType, message: String) -> Notification {
    let params = lsp_types::ShowMessageParams { typ, message };
    Notification::new(lsp_types::notification::ShowMessage::METHOD.to_owned(), params)
}

/// What the editor is told of a config it cannot use: a message, and a
/// diagnostic at each mistake in the config file.
fn config_error_notifications(error: &crate::settings::config::ConfigError) -> Vec<Notification> {
    let mut told = vec![show_message(
        lsp_types::MessageType::ERROR,
        format!(
            "feedlint: {}; linting with the default settings until it is fixed",
            error.lines().join("; ")
        ),
    )];
    let mut by_file: Vec<(PathBuf, Vec<LspDiagnostic>)> = Vec::new();
    for (path, line, message) in error.places() {
        let at = lsp_types::Position {
            line: u32::try_from(line.saturating_sub(1)).unwrap_or(u32::MAX),
            character: 0,
        };
        let diagnostic = LspDiagnostic {
            range: lsp_types::Range { start: at, end: at },
            severity: Some(DiagnosticSeverity::ERROR),
            source: Some("feedlint".to_owned()),
            message: message.to_owned(),
            ..LspDiagnostic::default()
        };
        match by_file.iter_mut().find(|(file, _)| *file == path) {
            Some((_, diagnostics)) => diagnostics.push(diagnostic),
            None => by_file.push((path, vec![diagnostic])),
        }
    }
    for (path, diagnostics) in by_file {
        let Some(uri) = Url::from_file_path(&path)
            .ok()
            .and_then(|url| url.as_str().parse::<Uri>().ok())
        else {
            continue;
        };
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        };
        told.push(Notification::new(PublishDiagnostics::METHOD.to_owned(), params));
    }
    told
}

/// Applies an open, change, save or close; says whether to lint again.
fn document_changed(state: &Mutex<State>, notification: Notification) -> bool {
    let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
    match notification.method.as_str() {
        DidOpenTextDocument::METHOD => {
            let Ok(params) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(notification.params) else {
                return false;
            };
            let uri = params.text_document.uri.as_str().to_owned();
            // A `file:` document is linted as its file; any other (an
            // unsaved `untitled:` buffer) from its text alone.
            let path = file_path(&uri);
            state.open.insert(
                uri,
                Open {
                    path,
                    text: params.text_document.text,
                },
            );
            true
        }
        DidChangeTextDocument::METHOD => {
            let Ok(params) = serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(notification.params)
            else {
                return false;
            };
            let uri = params.text_document.uri.as_str();
            // Full synchronisation: the last change holds the whole text.
            match (state.open.get_mut(uri), params.content_changes.into_iter().last()) {
                (Some(open), Some(change)) => {
                    open.text = change.text;
                    true
                }
                _ => false,
            }
        }
        DidSaveTextDocument::METHOD => true,
        DidCloseTextDocument::METHOD => {
            let Ok(params) = serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(notification.params)
            else {
                return false;
            };
            let uri = params.text_document.uri.as_str();
            state.open.remove(uri);
            state.found.remove(uri);
            true
        }
        _ => false,
    }
}

/// Whether an open text is JSON (it opens an object or an array) that
/// names no JSON Feed version.
fn other_json(text: &str) -> bool {
    let start = text.trim_start_matches('\u{FEFF}').trim_start();
    (start.starts_with('{') || start.starts_with('[')) && !crate::run::analyze::may_be_json_feed(text)
}

fn file_path(uri: &str) -> Option<PathBuf> {
    Url::parse(uri).ok()?.to_file_path().ok()
}

/// Lints the open documents as one run (their text over the disk), and
/// makes their diagnostics; a buffer with no file is linted on its own.
fn lint_open_documents(state: &Mutex<State>, root: Option<&PathBuf>, options: &Options) -> Vec<Notification> {
    let open: Vec<(String, Option<PathBuf>, String)> = {
        let state = state.lock().unwrap_or_else(PoisonError::into_inner);
        state
            .open
            .iter()
            .map(|(uri, open)| (uri.clone(), open.path.clone(), open.text.clone()))
            .collect()
    };
    // An editor opens every JSON file of a project (package.json,
    // tsconfig.json): one that is no JSON Feed is not named as a feed here,
    // and gets no finding.
    let (other, open): (Vec<_>, Vec<_>) = open.into_iter().partition(|(_, _, text)| other_json(text));
    let files: Vec<(&String, &PathBuf, &String)> = open
        .iter()
        .filter_map(|(uri, path, text)| Some((uri, path.as_ref()?, text)))
        .collect();
    let options = options.clone().with_overlay(
        files
            .iter()
            .map(|(_, path, text)| ((*path).clone(), text.as_bytes().to_vec()))
            .collect(),
    );
    // The workspace is walked, so the chain rules see every feed of it (the
    // documents that link to an open one too); open documents outside it
    // are linted beside it.
    let mut inputs: Vec<Input> = root.into_iter().map(|root| Input::Path(root.clone())).collect();
    inputs.extend(
        files
            .iter()
            // The walk finds only what is on disk: a new file the editor
            // has not saved yet is linted from its open text.
            .filter(|(_, path, _)| root.is_none_or(|root| !path.starts_with(root)) || !path.is_file())
            .map(|(_, path, _)| Input::Path((*path).clone())),
    );
    let report = crate::lint(inputs, &options);
    let mut texts = Texts::new(&report, &open);
    let mut published = Vec::new();
    for (uri, path, text) in &files {
        let doc = report
            .documents
            .iter()
            .position(|d| d.path.as_deref() == Some(path.as_path()));
        published.push(((*uri).clone(), findings_in(&report, doc, text, &mut texts)));
    }
    for (uri, path, text) in &open {
        if path.is_some() {
            continue;
        }
        let Ok(alone) = crate::lint_bytes(uri, None, text.as_bytes(), &options) else {
            continue;
        };
        let mut texts = Texts::new(&alone, &open);
        published.push((uri.clone(), findings_in(&alone, Some(0), text, &mut texts)));
    }
    published.extend(other.into_iter().map(|(uri, _, _)| (uri, Found::default())));
    let mut notifications = Vec::new();
    let mut found_by_uri = HashMap::new();
    for (uri, found) in published {
        let diagnostics = found.findings.iter().map(|f| f.diagnostic.clone()).collect();
        found_by_uri.insert(uri.clone(), found);
        let Ok(uri) = uri.parse::<Uri>() else { continue };
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        };
        notifications.push(Notification::new(PublishDiagnostics::METHOD.to_owned(), params));
    }
    let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
    for (uri, found) in found_by_uri {
        // A document closed while it was being linted stays closed.
        if state.open.contains_key(&uri) {
            state.found.insert(uri, found);
        }
    }
    notifications
}

/// The findings of document `doc` of a report, in LSP terms, `text` being
/// its open text.
fn findings_in(report: &crate::Report, doc: Option<usize>, text: &str, texts: &mut Texts) -> Found {
    let lines = LineIndex::new(text);
    let mut found = Found::default();
    for diagnostic in report.diagnostics.iter().filter(|d| Some(d.primary().doc) == doc) {
        let mut lsp = lsp_diagnostic(diagnostic, &lines);
        lsp.related_information = related(diagnostic, texts);
        let fix = diagnostic.fix.as_ref().map(|fix| lsp_fix(fix, &lines));
        found.findings.push(Finding {
            diagnostic: lsp,
            fix,
            doc: diagnostic.rule.doc(),
        });
    }
    found
}

/// The texts of a report's documents, as LSP positions need them (UTF-16
/// columns): the editor's where a document is open, else its file's as
/// feedlint decodes it, read once, when a finding points into it.
struct Texts<'r> {
    report: &'r crate::Report,
    open: HashMap<PathBuf, &'r str>,
    read: HashMap<usize, Option<Text>>,
}

/// A document's URI, text and line starts, for related locations.
struct Text {
    uri: Uri,
    text: String,
    starts: Vec<usize>,
}

impl Text {
    fn lines(&self) -> LineIndex<'_> {
        LineIndex {
            text: &self.text,
            starts: std::borrow::Cow::Borrowed(&self.starts),
        }
    }
}

/// Files larger than this are not read to place a related location.
const MOST_RELATED_BYTES: u64 = 16 * 1024 * 1024;

impl<'r> Texts<'r> {
    fn new(report: &'r crate::Report, open: &'r [(String, Option<PathBuf>, String)]) -> Self {
        Texts {
            report,
            open: open
                .iter()
                .filter_map(|(_, path, text)| Some((path.clone()?, text.as_str())))
                .collect(),
            read: HashMap::new(),
        }
    }

    /// A document's URI and text.
    fn of(&mut self, doc: usize) -> Option<&Text> {
        let (report, open) = (self.report, &self.open);
        self.read
            .entry(doc)
            .or_insert_with(|| {
                let path = report.documents.get(doc)?.path.as_ref()?;
                let absolute = std::path::absolute(path).ok()?;
                let uri = Url::from_file_path(&absolute).ok()?.as_str().parse::<Uri>().ok()?;
                let text = match open.get(path).or_else(|| open.get(&absolute)) {
                    Some(text) => (*text).to_owned(),
                    None => {
                        if std::fs::metadata(path).ok()?.len() > MOST_RELATED_BYTES {
                            return None;
                        }
                        match crate::findings::source::decode(std::fs::read(path).ok()?) {
                            Ok(text) | Err((text, _)) => text,
                        }
                    }
                };
                let starts = crate::findings::source::line_starts(&text);
                Some(Text { uri, text, starts })
            })
            .as_ref()
    }
}

/// The other places of a finding (a chain finding's other documents), as
/// LSP's related information, each with its label.
fn related(diagnostic: &Diagnostic, texts: &mut Texts) -> Option<Vec<DiagnosticRelatedInformation>> {
    let related: Vec<DiagnosticRelatedInformation> = diagnostic
        .spans
        .iter()
        .filter(|span| !span.is_primary)
        .filter_map(|span| {
            let text = texts.of(span.doc)?;
            Some(DiagnosticRelatedInformation {
                location: lsp_types::Location {
                    uri: text.uri.clone(),
                    range: text.lines().range(span.byte_start, span.byte_end),
                },
                message: span.label.as_deref().unwrap_or("related").to_owned(),
            })
        })
        .collect();
    (!related.is_empty()).then_some(related)
}

fn lsp_diagnostic(diagnostic: &Diagnostic, lines: &LineIndex) -> LspDiagnostic {
    let primary = diagnostic.primary();
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    LspDiagnostic {
        range: lines.range(primary.byte_start, primary.byte_end),
        severity: Some(match diagnostic.level {
            Level::Error => DiagnosticSeverity::ERROR,
            Level::Warning => DiagnosticSeverity::WARNING,
            Level::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(diagnostic.rule.as_str().to_owned())),
        code_description: crate::report::rule_doc_url(diagnostic.rule)
            .parse::<Uri>()
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some("feedlint".to_owned()),
        message,
        ..LspDiagnostic::default()
    }
}

fn lsp_fix(fix: &Fix<crate::findings::diagnostic::Location>, lines: &LineIndex) -> QuickFix {
    let edits = fix
        .edits
        .iter()
        .map(|edit| TextEdit {
            range: lines.range(edit.at.byte_start(), edit.at.byte_end()),
            new_text: edit.replacement.clone(),
        })
        .collect();
    QuickFix {
        title: fix.title.clone(),
        edits,
        safe: fix.applicability == crate::findings::fix::Applicability::Safe,
    }
}

/// Answers a code action or hover request from the last lint.
fn respond(state: &Mutex<State>, request: Request) -> Response {
    let state = state.lock().unwrap_or_else(PoisonError::into_inner);
    let result = match request.method.as_str() {
        CodeActionRequest::METHOD => serde_json::from_value::<CodeActionParams>(request.params)
            .ok()
            .map(|params| serde_json::to_value(code_actions(&state, &params))),
        HoverRequest::METHOD => serde_json::from_value::<HoverParams>(request.params)
            .ok()
            .map(|params| serde_json::to_value(hover(&state, &params))),
        _ => {
            return Response::new_err(
                request.id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("feedlint does not answer {}", request.method),
            )
        }
    };
    match result {
        Some(Ok(value)) => Response::new_ok(request.id, value),
        _ => Response::new_err(
            request.id,
            lsp_server::ErrorCode::InvalidParams as i32,
            "the parameters could not be read".to_owned(),
        ),
    }
}

fn code_actions(state: &State, params: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    let uri = &params.text_document.uri;
    let Some(found) = state.found.get(uri.as_str()) else {
        return Vec::new();
    };
    found
        .findings
        .iter()
        .filter(|finding| overlaps(&finding.diagnostic.range, &params.range))
        .filter_map(|finding| {
            let fix = finding.fix.as_ref()?;
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title.clone(),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![finding.diagnostic.clone()]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), fix.edits.clone())])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(fix.safe),
                ..CodeAction::default()
            }))
        })
        .collect()
}

/// The rule documentation of the finding under the cursor.
fn hover(state: &State, params: &HoverParams) -> Option<Hover> {
    let at = &params.text_document_position_params;
    let found = state.found.get(at.text_document.uri.as_str())?;
    let finding = found
        .findings
        .iter()
        .find(|finding| contains(&finding.diagnostic.range, at.position))?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: finding.doc.to_owned(),
        }),
        range: Some(finding.diagnostic.range),
    })
}

fn overlaps(a: &Range, b: &Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

fn contains(range: &Range, position: Position) -> bool {
    range.start <= position && position <= range.end
}

/// Where each line of a text starts, to turn byte offsets into LSP
/// positions: lines end at LF, CR or CRLF, and characters are counted in
/// UTF-16 code units.
struct LineIndex<'t> {
    text: &'t str,
    starts: std::borrow::Cow<'t, [usize]>,
}

impl<'t> LineIndex<'t> {
    fn new(text: &'t str) -> Self {
        LineIndex {
            text,
            starts: crate::findings::source::line_starts(text).into(),
        }
    }

    fn position(&self, offset: usize) -> Position {
        let offset = crate::text::snippet::floor_char_boundary(self.text, offset.min(self.text.len()));
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let character = self.text[self.starts[line]..offset].encode_utf16().count();
        Position::new(line as u32, character as u32)
    }

    fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_every_line_end() {
        let text = "a\r\nb\rcé𝄞x\nz";
        let lines = LineIndex::new(text);
        assert_eq!(lines.position(0), Position::new(0, 0));
        assert_eq!(lines.position(3), Position::new(1, 0));
        assert_eq!(lines.position(5), Position::new(2, 0));
        // "c" 1 unit, "é" 1 unit, "𝄞" 2 units.
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(x), Position::new(2, 4));
        assert_eq!(lines.position(text.len()), Position::new(3, 1));
    }
}
