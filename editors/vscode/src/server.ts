// Which feedlint the extension runs, with which arguments, for which
// documents. Kept apart from the VS Code API so that the harness
// (test/server.test.mjs) runs this very code, in Node, against the real
// `feedlint server`.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The extension's settings (package.json's `contributes.configuration`). */
export interface Settings {
  /** `feedlint.path`: the binary; empty for the bundled one or the PATH's. */
  path: string;
  /** `feedlint.config`: a config file; empty for the workspace's feedlint.toml. */
  config: string;
}

/** The server to start: a program, its arguments, its working folder. */
export interface ServerCommand {
  command: string;
  args: string[];
  cwd?: string;
}

/** What the extension asks of the file system and the environment. */
export interface Host {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  isFile(file: string): boolean;
}

export const nodeHost: Host = {
  platform: process.platform,
  env: process.env,
  isFile: (file) => {
    try {
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  },
};

/** The documents the server lints: XML (VS Code's language for .xml,
 * .atom and .rss, and .atomdeleted by this extension's contribution),
 * saved or untitled. */
// JSON documents too: the server lints those that are JSON Feeds and
// leaves every other JSON file (package.json, tsconfig.json) alone.
export const documentSelector = [
  { scheme: "file", language: "xml" },
  { scheme: "untitled", language: "xml" },
  { scheme: "file", language: "json" },
  { scheme: "untitled", language: "json" },
];

function executable(name: string, host: Host): string {
  return host.platform === "win32" ? `${name}.exe` : name;
}

/** The binary bundled in a platform's extension package. */
export function bundledBinary(extensionPath: string, host: Host = nodeHost): string {
  return path.join(extensionPath, "bin", executable("feedlint", host));
}

/** `feedlint` on the PATH, as the shell would find it; undefined if none. */
export function onPath(host: Host = nodeHost): string | undefined {
  const folders = (host.env.PATH ?? host.env.Path ?? "").split(path.delimiter).filter((folder) => folder !== "");
  return folders.map((folder) => path.join(folder, executable("feedlint", host))).find((file) => host.isFile(file));
}

/** A path as the user wrote it in a setting: `~` is the home folder, and
 * a relative path is relative to the workspace folder. */
function settingPath(written: string, workspaceFolder: string | undefined): string {
  const home = written === "~" || written.startsWith("~/") ? os.homedir() + written.slice(1) : written;
  return path.isAbsolute(home) || workspaceFolder === undefined ? home : path.join(workspaceFolder, home);
}

/** The server to start, or why none can be: the `feedlint.path` setting,
 * else the bundled binary, else `feedlint` on the PATH; `server`, with
 * `--config` where the setting names one. */
export function resolveServer(
  settings: Settings,
  extensionPath: string,
  workspaceFolder: string | undefined,
  host: Host = nodeHost,
): ServerCommand | { error: string } {
  let command: string | undefined;
  const written = settings.path.trim();
  if (written !== "") {
    command = settingPath(written, workspaceFolder);
    if (!host.isFile(command)) {
      return { error: `feedlint: the feedlint.path setting names ${command}, which is not a file.` };
    }
  } else if (host.isFile(bundledBinary(extensionPath, host))) {
    command = bundledBinary(extensionPath, host);
  } else {
    command = onPath(host);
    if (command === undefined) {
      return {
        error:
          "feedlint: no feedlint binary was found: this extension's package has none for this platform, and feedlint is not on the PATH. " +
          "Install it (pipx install feedlint, npm install -g feedlint, or cargo install --locked feedlint) or set feedlint.path.",
      };
    }
  }
  const args = ["server"];
  const config = settings.config.trim();
  if (config !== "") {
    args.push("--config", settingPath(config, workspaceFolder));
  }
  return { command, args, cwd: workspaceFolder };
}
