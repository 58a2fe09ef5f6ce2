//! `feedlint server` driven over standard input and output as an editor
//! drives it: initialize, open a feed, diagnostics with UTF-16 ranges, a
//! code action from a fix, the fix applied, hover, shutdown and exit.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

use crate::common;
use common::scratch;

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        Client::start_with(&[])
    }

    /// `feedlint server ARGS`.
    fn start_with(args: &[&str]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_feedlint"))
            .arg("server")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (sender, messages) = mpsc::channel();
        std::thread::spawn(move || loop {
            // Content-Length framing (LSP base protocol).
            let mut length = None;
            loop {
                let mut line = String::new();
                if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(value) = line.strip_prefix("Content-Length: ") {
                    length = value.parse::<usize>().ok();
                }
            }
            let mut body = vec![0; length.expect("a Content-Length header")];
            stdout.read_exact(&mut body).unwrap();
            if sender.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 1,
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its response (notifications that come
    /// first are skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.next();
            if message["id"] == id {
                return message;
            }
        }
    }

    fn next(&mut self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(20))
            .expect("the server answers within 20 s")
    }

    /// Initializes the server for the workspace `dir`, named by `rootUri`
    /// or, with `as_folder`, as the first workspace folder.
    fn initialize(&mut self, dir: &std::path::Path, as_folder: bool) -> Value {
        let root = url::Url::from_directory_path(dir).unwrap().to_string();
        let params = if as_folder {
            json!({ "processId": null, "workspaceFolders": [{ "uri": root, "name": "site" }], "capabilities": {} })
        } else {
            json!({ "processId": null, "rootUri": root, "capabilities": {} })
        };
        let initialized = self.request("initialize", params);
        self.notify("initialized", json!({}));
        initialized
    }

    /// Opens `path` with `text` in the editor; its URI.
    fn open(&mut self, path: &std::path::Path, text: &str) -> String {
        let uri = url::Url::from_file_path(path).unwrap().to_string();
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "xml", "version": 1, "text": text } }),
        );
        uri
    }

    /// Shuts the server down as an editor does, and checks it exits cleanly.
    fn finish(mut self) {
        let shutdown = self.request("shutdown", json!(null));
        assert!(shutdown["error"].is_null(), "{shutdown}");
        self.notify("exit", json!(null));
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let message = self.next();
            if message["method"] == "textDocument/publishDiagnostics" && message["params"]["uri"] == uri {
                return message["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }
}

/// A feed whose previous link is written `prev`, after characters that
/// count differently in UTF-16 (𝄞 is two code units, one scalar value).
fn feed(rel: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>Caf\u{e9} \u{1D11E}</title>\n  <id>tag:example.org,2024:feed</id>\n  <updated>2024-01-01T00:00:00Z</updated>\n  <author><name>a</name></author>\n  <link title=\"\u{1D11E}\u{1D11E} \u{e9}\" rel=\"{rel}\" href=\"https://example.org/search?page=1\"/>\n  <link rel=\"next\" href=\"https://example.org/search?page=3\"/>\n</feed>\n"
    )
}

#[test]
fn an_editor_session() {
    let dir = scratch("lsp");
    let path = dir.join("feed.atom");
    std::fs::write(&path, feed("prev")).unwrap();

    let mut client = Client::start();
    let initialized = client.initialize(&dir, false);
    let capabilities = &initialized["result"]["capabilities"];
    assert_eq!(capabilities["codeActionProvider"], true, "{initialized}");
    assert_eq!(capabilities["hoverProvider"], true);
    let uri = client.open(&path, &feed("prev"));
    let diagnostics = client.diagnostics(&uri);
    let alias = diagnostics
        .iter()
        .find(|d| d["code"] == "paging-prev-alias")
        .unwrap_or_else(|| panic!("{diagnostics:#?}"));
    // Line 7 (0-based 6): `  <link title="𝄞𝄞 é" rel="prev"`: the value
    // "prev" starts after 28 UTF-16 code units, which are 26 scalar values
    // (each 𝄞 is two units): the position is in UTF-16, as LSP requires.
    assert_eq!(alias["range"]["start"], json!({ "line": 6, "character": 28 }));
    assert_eq!(alias["range"]["end"], json!({ "line": 6, "character": 32 }));
    // An info (rel="prev" is registered, RFC 5005 names it "previous"):
    // LSP's Information.
    assert_eq!(alias["severity"], 3);
    assert_eq!(alias["source"], "feedlint");

    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri },
            "range": alias["range"],
            "context": { "diagnostics": [alias] },
        }),
    );
    let action = &actions["result"][0];
    assert_eq!(action["title"], "Write rel=\"previous\"", "{actions}");
    assert_eq!(action["kind"], "quickfix");
    let edit = &action["edit"]["changes"][&uri][0];
    assert_eq!(edit["newText"], "previous");
    assert_eq!(edit["range"], alias["range"]);

    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 6, "character": 30 } }),
    );
    let docs = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(docs.starts_with("# paging-prev-alias"), "{hover}");

    // The fix applied, as the editor would: the finding is gone.
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "text": feed("previous") }],
        }),
    );
    let diagnostics = client.diagnostics(&uri);
    assert!(
        diagnostics.iter().all(|d| d["code"] != "paging-prev-alias"),
        "{diagnostics:#?}"
    );

    client.finish();
}

/// A copy of a set case of the testsuite, as a workspace.
fn set_case(case: &str, test: &str) -> std::path::PathBuf {
    let dir = scratch(test);
    let case = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testsuite/sets")
        .join(case);
    copy_tree(&case, &dir);
    dir
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn a_link_that_cuts_the_chain_is_one_error_where_it_is_written() {
    // The site's one typo is in the open archive: reported there, as an
    // error (it stands for the chain findings it causes elsewhere).
    let dir = set_case("archive-link-dangling/fail-typo-cuts-chain", "lsp-typo");
    let mut client = Client::start();
    client.initialize(&dir, true);
    let path = dir.join("archive/2024-03.atom");
    let uri = client.open(&path, &std::fs::read_to_string(&path).unwrap());
    let diagnostics = client.diagnostics(&uri);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["code"], "archive-link-dangling");
    assert_eq!(diagnostics[0]["severity"], 1, "an error");
    // The neighbour that names it back is right: nothing is reported there.
    let path = dir.join("archive/2024-02.atom");
    let uri = client.open(&path, &std::fs::read_to_string(&path).unwrap());
    let diagnostics = client.diagnostics(&uri);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    client.finish();
}

#[test]
fn documents_that_link_to_the_open_one_count_too() {
    // The archive links nowhere; the subscription document on disk names it
    // as its prev-archive, which makes it an archive without fh:archive.
    let dir = set_case("archive-missing-marker/fail-prev-archive-target", "lsp-inbound");
    let path = dir.join("2003-11.atom");
    let mut client = Client::start();
    client.initialize(&dir, false);
    let uri = client.open(&path, &std::fs::read_to_string(&path).unwrap());
    let diagnostics = client.diagnostics(&uri);
    assert!(
        diagnostics.iter().any(|d| d["code"] == "archive-missing-marker"),
        "{diagnostics:#?}"
    );
    client.finish();
}

#[test]
fn the_chain_rules_see_the_files_on_disk() {
    // Only the oldest archive is open; the chain it belongs to is on disk.
    let dir = set_case("archive-chain-asymmetric/fail-wrong-next-archive", "lsp-chain");
    let path = dir.join("2003-10.atom");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut client = Client::start();
    client.initialize(&dir, false);
    let uri = client.open(&path, &text);
    let diagnostics = client.diagnostics(&uri);
    assert!(
        diagnostics.iter().any(|d| d["code"] == "archive-chain-asymmetric"),
        "{diagnostics:#?}"
    );
    // Corrected in the editor, not saved: the open text counts.
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "text": text.replace("next-archive\" href=\"2003-12.atom\"", "next-archive\" href=\"2003-11.atom\"") }],
        }),
    );
    let diagnostics = client.diagnostics(&uri);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    client.finish();
}

#[test]
fn the_workspace_config_applies() {
    let dir = scratch("lsp-config");
    std::fs::write(dir.join("feedlint.toml"), "[rules]\npaging-prev-alias = \"off\"\n").unwrap();
    let path = dir.join("feed.atom");
    std::fs::write(&path, feed("prev")).unwrap();
    let mut client = Client::start();
    client.initialize(&dir, true);
    let uri = client.open(&path, &feed("prev"));
    let diagnostics = client.diagnostics(&uri);
    assert!(
        diagnostics.iter().all(|d| d["code"] != "paging-prev-alias"),
        "{diagnostics:#?}"
    );
    client.finish();
}

impl Client {
    /// Writes raw bytes, as a broken client would.
    fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next response with a null id: the answer to a message the
    /// server could not read.
    fn error_for_unreadable(&mut self) -> Value {
        loop {
            let message = self.next();
            if message.get("id") == Some(&Value::Null) {
                return message;
            }
        }
    }
}

#[test]
fn bad_messages_are_answered_and_the_session_goes_on() {
    let dir = scratch("lsp-bad-messages");
    let mut client = Client::start();
    client.initialize(&dir, false);
    // Malformed JSON, invalid UTF-8, a length that is no number, a length
    // far beyond the limit (not allocated: the body never comes), each
    // answered with the JSON-RPC error, the server still serving.
    client.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    assert_eq!(client.error_for_unreadable()["error"]["code"], -32700);
    client.send_raw(b"Content-Length: 2\r\n\r\n\xff\xfe");
    assert_eq!(client.error_for_unreadable()["error"]["code"], -32700);
    client.send_raw(b"Content-Length: many\r\n\r\n");
    assert_eq!(client.error_for_unreadable()["error"]["code"], -32700);
    let request_without_method = json!({ "jsonrpc": "2.0", "id": 99, "params": {} }).to_string();
    client.send_raw(
        format!(
            "Content-Length: {}\r\n\r\n{request_without_method}",
            request_without_method.len()
        )
        .as_bytes(),
    );
    loop {
        let answer = client.next();
        if answer["id"] == 99 {
            assert_eq!(answer["error"]["code"], -32600, "{answer}");
            break;
        }
    }
    // A document is still linted.
    let path = dir.join("feed.atom");
    let uri = client.open(&path, &feed("prev"));
    assert!(!client.diagnostics(&uri).is_empty());
    client.finish();
}

#[test]
fn a_huge_content_length_is_refused_without_reserving_it() {
    let dir = scratch("lsp-huge-length");
    let mut client = Client::start();
    client.initialize(&dir, false);
    // 4 GB claimed and 100 bytes sent: refused as soon as the header is
    // read, never allocated; the server's memory stays small.
    client.send_raw(b"Content-Length: 4000000000\r\n\r\n");
    client.send_raw(&[b' '; 100]);
    assert_eq!(client.error_for_unreadable()["error"]["code"], -32600);
    let status = std::fs::read_to_string(format!("/proc/{}/status", client.child.id())).unwrap();
    let resident_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    assert!(resident_kib < 200 * 1024, "{resident_kib} KiB resident");
    let _ = client.child.kill();
    let _ = client.child.wait();
}

#[test]
fn requests_after_shutdown_are_errors_and_exit_says_how_it_ended() {
    let dir = scratch("lsp-after-shutdown");
    let mut client = Client::start();
    client.initialize(&dir, false);
    let shutdown = client.request("shutdown", json!(null));
    assert!(shutdown["error"].is_null(), "{shutdown}");
    let after = client.request("textDocument/hover", json!({}));
    assert_eq!(after["error"]["code"], -32600, "{after}");
    client.notify("exit", json!(null));
    assert_eq!(client.child.wait().unwrap().code(), Some(0));

    // exit without shutdown: status 1, as LSP says.
    let mut client = Client::start();
    client.initialize(&dir, false);
    client.notify("exit", json!(null));
    assert_eq!(client.child.wait().unwrap().code(), Some(1));
}

#[test]
fn a_new_file_not_yet_on_disk_is_linted_from_its_open_text() {
    let dir = scratch("lsp-unsaved");
    let mut client = Client::start();
    client.initialize(&dir, true);
    let path = dir.join("new").join("draft.atom");
    let uri = client.open(&path, &feed("prev"));
    let diagnostics = client.diagnostics(&uri);
    assert!(
        diagnostics.iter().any(|d| d["code"] == "paging-prev-alias"),
        "{diagnostics:#?}"
    );
    assert!(!path.exists());
    client.finish();
}

#[test]
fn an_untitled_buffer_is_linted_from_its_text() {
    let dir = scratch("lsp-untitled");
    let mut client = Client::start();
    client.initialize(&dir, true);
    let uri = "untitled:Untitled-1";
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "xml", "version": 1, "text": feed("prev") } }),
    );
    let diagnostics = client.diagnostics(uri);
    let alias = diagnostics
        .iter()
        .find(|d| d["code"] == "paging-prev-alias")
        .unwrap_or_else(|| panic!("{diagnostics:#?}"));
    // UTF-16 columns, as in a file: 𝄞 counts two.
    assert_eq!(alias["range"]["start"], json!({ "line": 6, "character": 28 }));
    client.finish();
}

#[test]
fn diagnostics_link_their_rule_doc_and_the_other_places_of_a_chain_finding() {
    let dir = set_case("archive-link-dangling/fail-typo-cuts-chain", "lsp-related");
    let mut client = Client::start();
    client.initialize(&dir, true);
    let path = dir.join("archive/2024-03.atom");
    let uri = client.open(&path, &std::fs::read_to_string(&path).unwrap());
    let diagnostics = client.diagnostics(&uri);
    let dangling = &diagnostics[0];
    assert_eq!(
        dangling["codeDescription"]["href"],
        "https://github.com/feedlint/feedlint/blob/main/rules/archive-link-dangling.md"
    );
    let related = dangling["relatedInformation"].as_array().unwrap();
    let places: Vec<(String, u64, String)> = related
        .iter()
        .map(|r| {
            let file = r["location"]["uri"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_owned();
            (
                file,
                r["location"]["range"]["start"]["line"].as_u64().unwrap(),
                r["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        places.contains(&(
            "2024-02.atom".to_owned(),
            11,
            "archive-chain-asymmetric, because of this link".to_owned()
        )),
        "{places:?}"
    );
    assert!(
        places.contains(&(
            "2024-01.atom".to_owned(),
            8,
            "archive-orphan, because of this link".to_owned()
        )),
        "{places:?}"
    );
    client.finish();
}

#[test]
fn a_workspace_root_of_slash_is_not_walked_and_the_editor_is_told() {
    let dir = scratch("lsp-root-slash");
    let mut client = Client::start();
    // The whole file system as the workspace (an editor opened at /): a
    // walk would read /proc, where a read can block for good.
    client.initialize(std::path::Path::new("/"), false);
    let told = loop {
        let message = client.next();
        if message["method"] == "window/showMessage" {
            break message;
        }
    };
    let said = told["params"]["message"].as_str().unwrap();
    assert!(said.contains("the workspace root / is not walked"), "{said}");
    // Open documents are still linted, at once.
    assert_an_open_feed_is_linted(&mut client, &dir);
    client.finish();
}

#[test]
fn a_broken_config_is_reported_at_its_mistake_and_linting_goes_on() {
    let dir = scratch("lsp-broken-config");
    let config = dir.join("feedlint.toml");
    std::fs::write(&config, "[rules]\narchive-orphan = \"loud\"\n").unwrap();
    let mut client = Client::start();
    client.initialize(&dir, true);
    // The editor is told: a message, and a diagnostic on the config's line.
    let config_uri = url::Url::from_file_path(std::fs::canonicalize(&config).unwrap())
        .unwrap()
        .to_string();
    let (mut said, mut marked) = (None, None);
    while said.is_none() || marked.is_none() {
        let message = client.next();
        if message["method"] == "window/showMessage" {
            said = Some(message["params"]["message"].as_str().unwrap().to_owned());
        } else if message["method"] == "textDocument/publishDiagnostics"
            && (message["params"]["uri"] == config_uri.as_str()
                || message["params"]["uri"].as_str().unwrap().ends_with("/feedlint.toml"))
        {
            marked = Some(message["params"]["diagnostics"][0].clone());
        }
    }
    let said = said.unwrap();
    assert!(said.contains("feedlint.toml:2") && said.contains("loud"), "{said}");
    assert!(said.contains("default settings"), "{said}");
    let marked = marked.unwrap();
    assert_eq!(marked["range"]["start"]["line"], 1, "{marked}");
    assert!(marked["message"].as_str().unwrap().contains("loud"), "{marked}");
    // And the feeds are linted meanwhile, with the defaults.
    assert_an_open_feed_is_linted(&mut client, &dir);
    client.finish();
}

/// Opens a feed in `dir` whose previous link is written `prev`, and checks
/// that its finding is published (with the default settings).
fn assert_an_open_feed_is_linted(client: &mut Client, dir: &std::path::Path) {
    let path = dir.join("feed.atom");
    std::fs::write(&path, feed("prev")).unwrap();
    let uri = client.open(&path, &feed("prev"));
    let diagnostics = client.diagnostics(&uri);
    assert!(
        diagnostics.iter().any(|d| d["code"] == "paging-prev-alias"),
        "{diagnostics:#?}"
    );
}

#[test]
fn a_document_feedlint_fails_on_is_one_internal_error_and_the_session_goes_on() {
    // A debug build panics in the analysis of a document named
    // feedlint-test-panic.*: the panic is that document's finding, and the
    // next document of the session is linted as ever.
    let dir = scratch("lsp-internal-error");
    let mut client = Client::start();
    client.initialize(&dir, true);
    let broken = client.open(&dir.join("feedlint-test-panic.atom"), &feed("prev"));
    let diagnostics = client.diagnostics(&broken);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["code"], "internal-error");
    assert!(
        diagnostics[0]["message"]
            .as_str()
            .unwrap()
            .contains("internal error: the analysis stopped on this document"),
        "{diagnostics:#?}"
    );
    let uri = client.open(&dir.join("next.atom"), &feed("prev"));
    let diagnostics = client.diagnostics(&uri);
    assert!(
        diagnostics.iter().any(|d| d["code"] == "paging-prev-alias"),
        "{diagnostics:#?}"
    );
    client.finish();
}

#[test]
fn a_config_fixed_on_disk_or_saved_is_read_again_without_a_restart() {
    let dir = scratch("lsp-config-read-again");
    let config = dir.join("feedlint.toml");
    std::fs::write(&config, "[rules]\narchive-orphan = \"loud\"\n").unwrap();
    let config_uri = url::Url::from_file_path(std::fs::canonicalize(&config).unwrap())
        .unwrap()
        .to_string();
    let mut client = Client::start();
    client.initialize(&dir, true);
    let path = dir.join("feed.atom");
    std::fs::write(&path, feed("prev")).unwrap();
    let uri = client.open(&path, &feed("prev"));
    let diagnostics = client.diagnostics(&uri);
    assert!(
        diagnostics.iter().any(|d| d["code"] == "paging-prev-alias"),
        "{diagnostics:#?}"
    );
    // Fixed on disk (and told by the client's file watcher): the mistake's
    // diagnostic is cleared, and the new settings apply at once.
    std::fs::write(&config, "[rules]\npaging-prev-alias = \"off\"\n").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": config_uri, "type": 2 }] }),
    );
    assert_eq!(
        client.diagnostics(&config_uri),
        Vec::<Value>::new(),
        "the mistake is cleared"
    );
    let diagnostics = client.diagnostics(&uri);
    assert!(
        !diagnostics.iter().any(|d| d["code"] == "paging-prev-alias"),
        "{diagnostics:#?}"
    );
    // Broken again and saved in the editor: told again, at the mistake.
    std::fs::write(&config, "[rules]\npaging-prev-alias = \"loud\"\n").unwrap();
    client.notify("textDocument/didSave", json!({ "textDocument": { "uri": config_uri } }));
    let marked = client.diagnostics(&config_uri);
    assert_eq!(marked.len(), 1, "{marked:#?}");
    assert!(marked[0]["message"].as_str().unwrap().contains("loud"), "{marked:#?}");
    client.finish();
}

/// `feedlint server --config FILE` (an editor's setting): that file's
/// settings, not the workspace's `feedlint.toml`, and read again when the
/// editor says it changed.
#[test]
fn the_config_the_editor_names_applies_and_is_read_again() {
    let dir = scratch("lsp-named-config");
    std::fs::write(dir.join("feedlint.toml"), "[rules]\n").unwrap();
    let named = scratch("lsp-named-config-elsewhere").join("editor.toml");
    std::fs::write(&named, "[rules]\npaging-prev-alias = \"off\"\n").unwrap();
    let named_uri = url::Url::from_file_path(&named).unwrap().to_string();
    let mut client = Client::start_with(&["--config", named.to_str().unwrap()]);
    client.initialize(&dir, true);
    let path = dir.join("feed.atom");
    std::fs::write(&path, feed("prev")).unwrap();
    let uri = client.open(&path, &feed("prev"));
    let codes = |diagnostics: Vec<Value>| -> Vec<String> {
        diagnostics
            .iter()
            .map(|d| d["code"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    let before = codes(client.diagnostics(&uri));
    assert!(!before.contains(&"paging-prev-alias".to_owned()), "{before:?}");
    std::fs::write(&named, "[rules]\n").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": named_uri, "type": 2 }] }),
    );
    let after = codes(client.diagnostics(&uri));
    assert!(after.contains(&"paging-prev-alias".to_owned()), "{after:?}");
    client.finish();
}

#[test]
fn json_feeds_are_linted_and_other_json_is_left_alone() {
    let dir = scratch("lsp-json-feed");
    let mut client = Client::start();
    client.initialize(&dir, true);
    // A JSON Feed whose item has no id: the finding at the item's opening
    // brace, in UTF-16 positions.
    let feed = "{\n  \"version\": \"https://jsonfeed.org/version/1.1\",\n  \"title\": \"𝄞 Example\",\n  \"items\": [{ \"content_text\": \"x\" }]\n}\n";
    let uri = client.open(&dir.join("feed.json"), feed);
    let diagnostics = client.diagnostics(&uri);
    let missing = diagnostics
        .iter()
        .find(|d| d["code"] == "json-feed-missing-member")
        .unwrap_or_else(|| panic!("{diagnostics:#?}"));
    assert_eq!(missing["range"]["start"], json!({ "line": 3, "character": 12 }));
    // A package.json, in the workspace or outside it: no feed, no finding.
    let outside = scratch("lsp-json-outside");
    for path in [dir.join("package.json"), outside.join("package.json")] {
        let uri = client.open(&path, "{ \"name\": \"site\", \"version\": \"1.0.0\" }\n");
        assert_eq!(client.diagnostics(&uri), Vec::<Value>::new(), "{}", path.display());
    }
    client.finish();
}
