#!/usr/bin/env python3
"""Makes feedlint's npm packages, as esbuild and biome ship theirs: one
package per platform holding its binary (`os` and `cpu` say where npm
installs it), and the `feedlint` package, whose launcher
(release/npm/feedlint/bin/feedlint.js) runs the binary of the platform
package npm installed. Nothing is downloaded at install time.

    release/npm.py platform TARGET BINARY OUT
        Writes OUT/<package folder> for TARGET's platform package with
        BINARY in it, and prints the folder.
    release/npm.py main OUT
        Writes OUT/feedlint, the main package, its version and optional
        dependencies Cargo.toml's version; prints the folder.

Each folder is then `npm pack`ed (the release workflow publishes them).
"""

import json
import pathlib
import re
import shutil
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Rust's target triples, and the npm platform (os, cpu) each is built for.
PLATFORMS = {
    "x86_64-unknown-linux-musl": ("linux", "x64"),
    "aarch64-unknown-linux-musl": ("linux", "arm64"),
    "x86_64-unknown-linux-gnu": ("linux", "x64"),
    "aarch64-unknown-linux-gnu": ("linux", "arm64"),
    "x86_64-apple-darwin": ("darwin", "x64"),
    "aarch64-apple-darwin": ("darwin", "arm64"),
    "x86_64-pc-windows-msvc": ("win32", "x64"),
}
# The platform packages the main package names, one per platform released.
RELEASED = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"]


def version():
    text = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    return re.search(r'^version = "([^"]+)"', text, re.M).group(1)


def common():
    return {
        "version": version(),
        "license": "MIT OR Apache-2.0",
        "repository": {"type": "git", "url": "git+https://github.com/feedlint/feedlint.git"},
        "homepage": "https://github.com/feedlint/feedlint",
    }


def write_json(path, value):
    path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")


def platform_package(target, binary, out):
    os_name, cpu = PLATFORMS[target]
    folder = out / f"feedlint-{os_name}-{cpu}"
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "bin").mkdir(parents=True)
    executable = "feedlint.exe" if os_name == "win32" else "feedlint"
    shutil.copy(binary, folder / "bin" / executable)
    (folder / "bin" / executable).chmod(0o755)
    write_json(
        folder / "package.json",
        {
            "name": f"@feedlint/{os_name}-{cpu}",
            **common(),
            "description": f"The feedlint binary for {os_name} on {cpu} (installed by the feedlint package).",
            "os": [os_name],
            "cpu": [cpu],
            "files": ["bin/"],
            "preferUnplugged": True,
        },
    )
    (folder / "README.md").write_text(
        f"# @feedlint/{os_name}-{cpu}\n\nThe `feedlint` binary for {os_name} on {cpu}. "
        "Install [`feedlint`](https://www.npmjs.com/package/feedlint) instead: it installs this package where it fits.\n",
        encoding="utf-8",
    )
    return folder


def main_package(out):
    folder = out / "feedlint"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(ROOT / "release/npm/feedlint", folder)
    shutil.copy(ROOT / "README.md", folder / "README.md")
    for license_file in ["LICENSE-MIT", "LICENSE-APACHE"]:
        shutil.copy(ROOT / license_file, folder / license_file)
    write_json(
        folder / "package.json",
        {
            "name": "feedlint",
            **common(),
            "description": "A fast, strict validator and linter for Atom, RSS and podcast feeds, their archive and paging chains (RFC 5005) and tombstones (RFC 6721).",
            "keywords": ["rss", "atom", "feed", "podcast", "linter", "validator"],
            "bin": {"feedlint": "bin/feedlint.js"},
            "files": ["bin/", "README.md", "LICENSE-MIT", "LICENSE-APACHE"],
            "engines": {"node": ">=18"},
            "optionalDependencies": {f"@feedlint/{platform}": version() for platform in RELEASED},
        },
    )
    return folder


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "platform":
        print(platform_package(sys.argv[2], pathlib.Path(sys.argv[3]), pathlib.Path(sys.argv[4])))
    elif len(sys.argv) == 3 and sys.argv[1] == "main":
        print(main_package(pathlib.Path(sys.argv[2])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
