#!/usr/bin/env python3
"""Builds, tests and packages the VS Code extension (editors/vscode/).

    release/vscode.py test BINARY
        Type-checks and bundles the extension, then runs its harness
        (editors/vscode/test/): the extension's client code against BINARY's
        `feedlint server`, over the LSP library vscode-languageclient uses.
    release/vscode.py package TARGET BINARY OUT
        Packs the extension with BINARY inside for TARGET (a Rust target:
        the release's) into OUT/feedlint-VERSION-VSCODETARGET.vsix, with
        @vscode/vsce, from a staging folder that holds only what the
        extension needs: its manifest, README, licence, bundle and binary.

Both install the extension's pinned npm packages first (npm ci) when
editors/vscode/node_modules is missing. The release workflow packages each
platform's extension with this script; tests/it/editors.rs runs both steps.
"""

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "editors" / "vscode"
# Rust's targets, by the names VS Code's marketplace gives platforms.
PLATFORMS = {
    "x86_64-unknown-linux-musl": "linux-x64",
    "x86_64-unknown-linux-gnu": "linux-x64",
    "aarch64-unknown-linux-musl": "linux-arm64",
    "aarch64-unknown-linux-gnu": "linux-arm64",
    "x86_64-apple-darwin": "darwin-x64",
    "aarch64-apple-darwin": "darwin-arm64",
    "x86_64-pc-windows-msvc": "win32-x64",
}


def npm(*args, env=None):
    npm_program = shutil.which("npm") or sys.exit("npm is not installed")
    subprocess.run([npm_program, *args], cwd=EXTENSION, check=True, env=env)


def build():
    if not (EXTENSION / "node_modules").is_dir():
        npm("ci", "--no-audit", "--no-fund")
    npm("run", "--silent", "build")


def test(binary):
    build()
    npm("test", env=dict(os.environ, FEEDLINT_BIN=str(pathlib.Path(binary).resolve())))


def package(target, binary, out):
    if target not in PLATFORMS:
        sys.exit(f"no VS Code platform for {target}; known: {', '.join(PLATFORMS)}")
    platform = PLATFORMS[target]
    build()
    stage = ROOT / "target" / "vscode" / platform
    if stage.exists():
        shutil.rmtree(stage)
    (stage / "out").mkdir(parents=True)
    (stage / "bin").mkdir()
    for name in ("package.json", "README.md"):
        shutil.copyfile(EXTENSION / name, stage / name)
    shutil.copyfile(EXTENSION / "out" / "extension.js", stage / "out" / "extension.js")
    exe = "feedlint.exe" if platform.startswith("win32") else "feedlint"
    shutil.copyfile(binary, stage / "bin" / exe)
    (stage / "bin" / exe).chmod(0o755)
    # One LICENSE file, as vsce looks for: both licences, either applies.
    texts = [(ROOT / name).read_text(encoding="utf-8") for name in ("LICENSE-MIT", "LICENSE-APACHE")]
    (stage / "LICENSE").write_text(
        "feedlint is licensed under the MIT license or the Apache License 2.0, at your option.\n\n"
        + "\n\n".join(texts),
        encoding="utf-8",
    )
    version = json_version(EXTENSION / "package.json")
    out = pathlib.Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    vsix = out / f"feedlint-{version}-{platform}.vsix"
    vsce = EXTENSION / "node_modules" / ".bin" / "vsce"
    subprocess.run(
        [str(vsce), "package", "--no-dependencies", "--target", platform, "--out", str(vsix)],
        cwd=stage,
        check=True,
    )
    return vsix


def json_version(path):
    return json.loads(path.read_text(encoding="utf-8"))["version"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    steps = parser.add_subparsers(dest="step", required=True)
    testing = steps.add_parser("test")
    testing.add_argument("binary", type=pathlib.Path)
    packing = steps.add_parser("package")
    packing.add_argument("target")
    packing.add_argument("binary", type=pathlib.Path)
    packing.add_argument("out", type=pathlib.Path)
    args = parser.parse_args()
    if args.step == "test":
        test(args.binary)
    else:
        vsix = package(args.target, args.binary, args.out)
        print(f"{vsix} ({vsix.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
