#!/usr/bin/env node
// Runs the feedlint binary of this platform's package (@feedlint/linux-x64,
// @feedlint/darwin-arm64, ...), an optional dependency of this package, as
// esbuild and biome do: npm installs the one whose `os` and `cpu` match,
// and nothing is downloaded at install time.
"use strict";

const { spawnSync } = require("node:child_process");

const platform = `${process.platform}-${process.arch}`;
const executable = process.platform === "win32" ? "feedlint.exe" : "feedlint";
let binary;
try {
  binary = require.resolve(`@feedlint/${platform}/bin/${executable}`);
} catch {
  console.error(
    `feedlint: no binary for ${platform}: the package @feedlint/${platform} is not installed. ` +
      "It is an optional dependency of feedlint: install without --no-optional (or --omit=optional), " +
      "or on a platform feedlint is built for (linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64).",
  );
  process.exit(2);
}
const ran = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (ran.error) {
  console.error(`feedlint: could not run ${binary}: ${ran.error.message}`);
  process.exit(2);
}
// A signal that ended it ends this process the same way.
if (ran.signal) {
  process.kill(process.pid, ran.signal);
}
process.exit(ran.status ?? 2);
