// The extension's client code (src/server.ts, compiled to out/test/) run
// against the real `feedlint server`, over the JSON-RPC and LSP library
// vscode-languageclient itself uses (vscode-languageserver-protocol), as
// VS Code would drive it: no VS Code is needed. FEEDLINT_BIN names the
// binary under test (tests/it/editors.rs sets it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const { resolveServer, documentSelector, bundledBinary } = require("../out/test/server.js");
const protocol = require("vscode-languageserver-protocol/node");

const binary = process.env.FEEDLINT_BIN;
assert.ok(binary, "FEEDLINT_BIN names the feedlint binary under test");

const feed = (rel) => `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Example</title>
  <id>tag:example.org,2024:feed</id>
  <updated>2024-01-01T00:00:00Z</updated>
  <author><name>a</name></author>
  <link rel="${rel}" href="https://example.org/search?page=1"/>
  <link rel="next" href="https://example.org/search?page=3"/>
</feed>
`;

function workspace() {
  return fs.mkdtempSync(path.join(os.tmpdir(), "feedlint-vscode-"));
}

/** Starts the server as the extension would, and speaks LSP to it. */
async function session(settings, folder) {
  const resolved = resolveServer(settings, "/nonexistent-extension", folder);
  assert.ok(!("error" in resolved), resolved.error);
  const child = spawn(resolved.command, resolved.args, { cwd: resolved.cwd, stdio: ["pipe", "pipe", "inherit"] });
  const connection = protocol.createProtocolConnection(
    new protocol.StreamMessageReader(child.stdout),
    new protocol.StreamMessageWriter(child.stdin),
  );
  const published = new Map();
  const waiting = [];
  connection.onNotification(protocol.PublishDiagnosticsNotification.type, (params) => {
    published.set(params.uri, params.diagnostics);
    for (const wait of waiting.splice(0)) wait();
  });
  connection.onRequest(protocol.RegistrationRequest.type, () => null);
  connection.listen();
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const root = pathToFileURL(folder).href;
  const initialized = await connection.sendRequest(protocol.InitializeRequest.type, {
    processId: process.pid,
    rootUri: root,
    workspaceFolders: [{ uri: root, name: "workspace" }],
    capabilities: {
      textDocument: { publishDiagnostics: { relatedInformation: true }, hover: { contentFormat: ["markdown"] } },
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true } },
    },
  });
  await connection.sendNotification(protocol.InitializedNotification.type, {});
  return {
    resolved,
    initialized,
    connection,
    async open(file, text) {
      const uri = pathToFileURL(file).href;
      await connection.sendNotification(protocol.DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: "xml", version: 1, text },
      });
      return uri;
    },
    async diagnostics(uri) {
      const deadline = Date.now() + 30_000;
      while (!published.has(uri)) {
        assert.ok(Date.now() < deadline, `no diagnostics for ${uri}`);
        await new Promise((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      const diagnostics = published.get(uri);
      published.delete(uri);
      return diagnostics;
    },
    async finish() {
      await connection.sendRequest(protocol.ShutdownRequest.type);
      await connection.sendNotification(protocol.ExitNotification.type);
      const code = await exited;
      connection.dispose();
      return code;
    },
  };
}

test("the extension's server lints an open feed, offers its fix and its rule's docs", async () => {
  const folder = workspace();
  const file = path.join(folder, "feed.atom");
  fs.writeFileSync(file, feed("prev"));
  const server = await session({ path: binary, config: "" }, folder);
  assert.deepEqual(server.resolved.args, ["server"]);
  assert.equal(server.resolved.cwd, folder);
  const capabilities = server.initialized.capabilities;
  assert.equal(capabilities.codeActionProvider, true);
  assert.equal(capabilities.hoverProvider, true);
  const uri = await server.open(file, feed("prev"));
  const diagnostics = await server.diagnostics(uri);
  const alias = diagnostics.find((d) => d.code === "paging-prev-alias");
  assert.ok(alias, JSON.stringify(diagnostics));
  assert.deepEqual(alias.range, { start: { line: 6, character: 13 }, end: { line: 6, character: 17 } });
  assert.equal(alias.source, "feedlint");
  assert.match(alias.codeDescription.href, /paging-prev-alias/);
  const actions = await server.connection.sendRequest(protocol.CodeActionRequest.type, {
    textDocument: { uri },
    range: alias.range,
    context: { diagnostics: [alias] },
  });
  assert.equal(actions[0].title, 'Write rel="previous"');
  assert.equal(actions[0].edit.changes[uri][0].newText, "previous");
  const hover = await server.connection.sendRequest(protocol.HoverRequest.type, {
    textDocument: { uri },
    position: { line: 6, character: 15 },
  });
  assert.match(hover.contents.value, /^# paging-prev-alias/);
  // The fix applied, as the editor applies it: the finding is gone.
  await server.connection.sendNotification(protocol.DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: feed("previous") }],
  });
  const after = await server.diagnostics(uri);
  assert.ok(!after.some((d) => d.code === "paging-prev-alias"), JSON.stringify(after));
  assert.equal(await server.finish(), 0);
});

test("the feedlint.config setting is the config the server lints with", async () => {
  const folder = workspace();
  fs.writeFileSync(path.join(folder, "editor.toml"), '[rules]\npaging-prev-alias = "off"\n');
  const file = path.join(folder, "feed.atom");
  fs.writeFileSync(file, feed("prev"));
  const server = await session({ path: binary, config: "editor.toml" }, folder);
  assert.deepEqual(server.resolved.args, ["server", "--config", path.join(folder, "editor.toml")]);
  const diagnostics = await server.diagnostics(await server.open(file, feed("prev")));
  assert.ok(!diagnostics.some((d) => d.code === "paging-prev-alias"), JSON.stringify(diagnostics));
  // The same document without the setting: the rule is on.
  const plain = await session({ path: binary, config: "" }, folder);
  const found = await plain.diagnostics(await plain.open(file, feed("prev")));
  assert.ok(found.some((d) => d.code === "paging-prev-alias"), JSON.stringify(found));
  assert.equal(await server.finish(), 0);
  assert.equal(await plain.finish(), 0);
});

test("the binary is the setting's, else the bundled one, else the PATH's, else a message that says how to install it", () => {
  const files = new Set();
  const host = { platform: "linux", env: { PATH: "/usr/bin:/opt/feedlint/bin" }, isFile: (file) => files.has(file) };
  const settings = { path: "", config: "" };
  const missing = resolveServer(settings, "/ext", "/work", host);
  assert.match(missing.error, /pipx install feedlint, npm install -g feedlint, or cargo install --locked feedlint/);
  files.add("/opt/feedlint/bin/feedlint");
  assert.equal(resolveServer(settings, "/ext", "/work", host).command, "/opt/feedlint/bin/feedlint");
  files.add(bundledBinary("/ext", host));
  assert.equal(resolveServer(settings, "/ext", "/work", host).command, "/ext/bin/feedlint");
  const named = resolveServer({ path: "tools/feedlint", config: "" }, "/ext", "/work", host);
  assert.match(named.error, /feedlint.path setting names \/work\/tools\/feedlint, which is not a file/);
  files.add("/work/tools/feedlint");
  assert.equal(resolveServer({ path: "tools/feedlint", config: "" }, "/ext", "/work", host).command, "/work/tools/feedlint");
  const windows = { platform: "win32", env: {}, isFile: () => true };
  assert.match(bundledBinary("C:\\ext", windows), /feedlint\.exe$/);
});

test("the settings the extension reads are the ones its package declares", () => {
  const manifest = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const declared = Object.keys(manifest.contributes.configuration.properties).sort();
  assert.deepEqual(declared, ["feedlint.config", "feedlint.path", "feedlint.trace.server"]);
  const source = fs.readFileSync(new URL("../src/extension.ts", import.meta.url), "utf8");
  for (const key of ["path", "config"]) assert.match(source, new RegExp(`get<string>\\("${key}"`));
  assert.deepEqual([...new Set(documentSelector.map((selector) => selector.language))], ["xml", "json"]);
  assert.ok(manifest.activationEvents.includes("onLanguage:json"));
  const xml = manifest.contributes.languages.find((language) => language.id === "xml");
  assert.ok(xml.extensions.includes(".atomdeleted"));
});
