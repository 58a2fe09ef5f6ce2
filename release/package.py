#!/usr/bin/env python3
"""Builds and packs feedlint's release archives: the steps of the release
workflow (.github/workflows/release.yml) that run on any machine, so that
the workflow and the test that runs them here (tests/it/release.rs) run the
same code.

    release/package.py build TARGET [--binary PATH] [--out DIR]
        Builds feedlint for TARGET with cargo's `dist` profile (stripped),
        unless --binary names one already built, and packs it with README,
        CHANGELOG and the licenses into DIR/feedlint-VERSION-TARGET.tar.gz
        (.zip for Windows), its SHA-256 beside it in a .sha256 file.
    release/package.py checksums DIR
        Writes DIR/SHA256SUMS: every archive's SHA-256, as `sha256sum`
        writes them, and checks each against its .sha256 file.
    release/package.py formula DIR
        Writes DIR/feedlint.rb, the Homebrew formula for the tap: the
        macOS and Linux archives of this version, named by their URLs on
        the release and their SHA-256 from DIR/SHA256SUMS.

Python's own tarfile, zipfile and hashlib, so that Linux, macOS and Windows
runners pack alike. An archive is the same bytes for the same inputs: its
entries sorted, owned by root, dated by SOURCE_DATE_EPOCH (else the
commit's time), gzip without a time stamp.
"""

import argparse
import gzip
import hashlib
import io
import os
import pathlib
import re
import subprocess
import sys
import tarfile
import time
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHIPPED = ["README.md", "CHANGELOG.md", "LICENSE-MIT", "LICENSE-APACHE"]


def manifest(key):
    """A string of Cargo.toml's [package]."""
    text = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    return re.search(rf'^{key} = "([^"]+)"', text, re.M).group(1)


def version():
    return manifest("version")


def commit():
    return subprocess.run(
        ["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


def epoch():
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return int(os.environ["SOURCE_DATE_EPOCH"])
    shown = subprocess.run(
        ["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return int(shown) if shown else 0


def windows(target):
    return "windows" in target


def build(target):
    """cargo's dist build for `target`, with the commit `--version` names."""
    env = dict(os.environ, FEEDLINT_COMMIT=os.environ.get("FEEDLINT_COMMIT") or commit())
    subprocess.run(
        ["cargo", "build", "--locked", "--profile", "dist", "--target", target], cwd=ROOT, env=env, check=True
    )
    exe = "feedlint.exe" if windows(target) else "feedlint"
    return ROOT / "target" / target / "dist" / exe


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def pack(target, binary, out):
    name = f"feedlint-{version()}-{target}"
    exe = "feedlint.exe" if windows(target) else "feedlint"
    files = [(f"{name}/{exe}", pathlib.Path(binary), 0o755)]
    files += [(f"{name}/{doc}", ROOT / doc, 0o644) for doc in SHIPPED]
    files.sort()
    when = epoch()
    out.mkdir(parents=True, exist_ok=True)
    if windows(target):
        archive = out / f"{name}.zip"
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
            for inside, path, mode in files:
                # A zip's dates start in 1980.
                info = zipfile.ZipInfo(inside, date_time=time.gmtime(max(when, 315532800))[:6])
                info.external_attr = (0o100000 | mode) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                zipped.writestr(info, path.read_bytes())
    else:
        archive = out / f"{name}.tar.gz"
        raw = io.BytesIO()
        with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for inside, path, mode in files:
                info = tarfile.TarInfo(inside)
                data = path.read_bytes()
                info.size, info.mode, info.mtime = len(data), mode, when
                info.uid = info.gid = 0
                info.uname = info.gname = "root"
                tar.addfile(info, io.BytesIO(data))
        with open(archive, "wb") as file:
            with gzip.GzipFile(filename="", mode="wb", fileobj=file, mtime=0, compresslevel=9) as zipped:
                zipped.write(raw.getvalue())
    (out / f"{archive.name}.sha256").write_text(f"{sha256(archive)}  {archive.name}\n", encoding="utf-8")
    return archive


def checksums(out):
    lines = []
    for archive in sorted(out.glob("feedlint-*")):
        if archive.suffix == ".sha256" or not (archive.name.endswith(".tar.gz") or archive.name.endswith(".zip")):
            continue
        digest = sha256(archive)
        said = (out / f"{archive.name}.sha256").read_text(encoding="utf-8").split()[0]
        if said != digest:
            sys.exit(f"{archive.name}: its .sha256 says {said}, its bytes {digest}")
        lines.append(f"{digest}  {archive.name}\n")
    if not lines:
        sys.exit(f"no archives in {out}")
    (out / "SHA256SUMS").write_text("".join(lines), encoding="utf-8")
    return len(lines)


# Homebrew's platforms, by the release's targets.
BREWED = [
    ("on_macos", "on_arm", "aarch64-apple-darwin"),
    ("on_macos", "on_intel", "x86_64-apple-darwin"),
    ("on_linux", "on_arm", "aarch64-unknown-linux-musl"),
    ("on_linux", "on_intel", "x86_64-unknown-linux-musl"),
]

# Homebrew's audit wants a description of at most 80 characters, with no
# article before it: not the crate's. The test lints a feed with one error
# (atom-missing-id), which exits 1.
FORMULA = """\
# The Homebrew formula for feedlint, written by release/package.py formula
# from the release's SHA256SUMS: do not edit it by hand.
class Feedlint < Formula
  desc "Validator and linter for paged and archived syndication feeds"
  homepage "{homepage}"
  version "{version}"
  license any_of: ["MIT", "Apache-2.0"]
{platforms}
  def install
    bin.install "feedlint"
  end

  test do
    assert_match "feedlint #{{version}}", shell_output("#{{bin}}/feedlint --version")
    (testpath/"feed.atom").write <<~XML
      <?xml version="1.0" encoding="utf-8"?>
      <feed xmlns="http://www.w3.org/2005/Atom">
        <title>Example</title>
        <updated>2003-12-13T18:30:02Z</updated>
        <author><name>John Doe</name></author>
      </feed>
    XML
    assert_match "atom-missing-id", shell_output("#{{bin}}/feedlint #{{testpath}}/feed.atom", 1)
  end
end
"""


def formula(out):
    """The tap's formula, from the archives SHA256SUMS lists."""
    listed = {}
    for line in (out / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, name = line.split()
        listed[name] = digest
    release = f"{manifest('repository')}/releases/download/v{version()}"
    platforms, last_os = [], None
    for os_block, cpu_block, target in BREWED:
        name = f"feedlint-{version()}-{target}.tar.gz"
        if name not in listed:
            sys.exit(f"{out / 'SHA256SUMS'} lists no {name}")
        if os_block != last_os:
            if last_os:
                platforms.append("  end")
            platforms += ["", f"  {os_block} do"]
            last_os = os_block
        platforms += [
            f"    {cpu_block} do",
            f'      url "{release}/{name}"',
            f'      sha256 "{listed[name]}"',
            "    end",
        ]
    platforms += ["  end", ""]
    text = FORMULA.format(
        homepage=manifest("homepage"),
        version=version(),
        platforms="\n".join(platforms),
    )
    (out / "feedlint.rb").write_text(text, encoding="utf-8")
    return out / "feedlint.rb"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    steps = parser.add_subparsers(dest="step", required=True)
    packing = steps.add_parser("build")
    packing.add_argument("target")
    packing.add_argument("--binary", type=pathlib.Path)
    packing.add_argument("--out", type=pathlib.Path, default=ROOT / "dist")
    summing = steps.add_parser("checksums")
    summing.add_argument("out", type=pathlib.Path)
    brewing = steps.add_parser("formula")
    brewing.add_argument("out", type=pathlib.Path)
    args = parser.parse_args()
    if args.step == "build":
        binary = args.binary or build(args.target)
        archive = pack(args.target, binary, args.out)
        print(f"{archive} ({archive.stat().st_size} bytes)")
    elif args.step == "checksums":
        print(f"{checksums(args.out)} archives in {args.out / 'SHA256SUMS'}")
    else:
        print(formula(args.out))


if __name__ == "__main__":
    main()
