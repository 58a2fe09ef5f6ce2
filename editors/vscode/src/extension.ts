// The VS Code side: starts `feedlint server` (as src/server.ts resolves
// it) with vscode-languageclient, and starts it again when its settings
// change. Diagnostics, quick fixes and hover come from the server.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from "vscode-languageclient/node";
import { documentSelector, resolveServer, Settings } from "./server";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("feedlint.restart", () => restart(context)),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("feedlint.path") || event.affectsConfiguration("feedlint.config")) {
        await restart(context);
      }
    }),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  await stop();
}

function settings(): Settings {
  const configuration = vscode.workspace.getConfiguration("feedlint");
  return {
    path: configuration.get<string>("path", ""),
    config: configuration.get<string>("config", ""),
  };
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const resolved = resolveServer(settings(), context.extensionPath, folder);
  if ("error" in resolved) {
    void vscode.window.showErrorMessage(resolved.error);
    return;
  }
  const server: ServerOptions = {
    command: resolved.command,
    args: resolved.args,
    options: { cwd: resolved.cwd },
    transport: TransportKind.stdio,
  };
  const options: LanguageClientOptions = {
    documentSelector,
    outputChannelName: "feedlint",
  };
  client = new LanguageClient("feedlint", "feedlint", server, options);
  await client.start();
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined) {
    await running.stop();
  }
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  await stop();
  await start(context);
}
