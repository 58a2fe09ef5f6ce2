#!/usr/bin/env python3
"""Lays out the files of feedlint's container image (Containerfile), which
is built from nothing (`FROM scratch`): no base image is pulled.

    release/container.py rootfs BINARY CONTEXT [--arch ARCH]
        Writes CONTEXT/rootfs-ARCH/: BINARY as /usr/local/bin/feedlint, the
        shared libraries it loads (none for the release's static musl
        builds; a glibc build's, as `ldd` lists them, with their loader),
        and /etc/passwd and /etc/group naming the user it runs as
        (feedlint, 65532, no shell, no home). ARCH is Docker's name for the
        platform (amd64, arm64), by default this machine's: the
        Containerfile copies rootfs-$TARGETARCH.

Then, from the repository's root:

    podman build --format docker -f Containerfile -t feedlint CONTEXT

(`--format docker`: the OCI format has no HEALTHCHECK.) The release
workflow runs the same two steps with the static builds, for both
platforms at once; tests/it/release.rs runs them with the test's build.
"""

import argparse
import os
import pathlib
import platform
import re
import shutil
import subprocess

USER = "feedlint:x:65532:65532:feedlint:/nonexistent:/sbin/nologin\n"
GROUP = "feedlint:x:65532:\n"
ARCHES = {"x86_64": "amd64", "aarch64": "arm64", "arm64": "arm64", "amd64": "amd64"}


def libraries(binary):
    """The absolute paths of the shared objects `binary` loads: ldd's
    `name => /path (address)` lines and the loader's own `/path (address)`;
    none for a static binary."""
    listed = subprocess.run(["ldd", str(binary)], capture_output=True, text=True)
    if listed.returncode != 0:
        # "not a dynamic executable" (glibc's ldd) or "Not a valid dynamic
        # program" (musl's): a static binary needs nothing.
        return []
    found = []
    for line in listed.stdout.splitlines():
        match = re.search(r"(/\S+) \(0x[0-9a-f]+\)", line)
        if match:
            found.append(pathlib.Path(match.group(1)))
    return found


def place(source, root, inside, mode):
    target = root / inside.lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    # The file itself, not a link to it: the image holds no links out.
    shutil.copyfile(os.path.realpath(source), target)
    target.chmod(mode)


def rootfs(binary, context, arch):
    root = context / f"rootfs-{arch}"
    if root.exists():
        shutil.rmtree(root)
    place(binary, root, "/usr/local/bin/feedlint", 0o755)
    for library in libraries(binary):
        place(library, root, str(library), 0o755)
    (root / "etc").mkdir(exist_ok=True)
    (root / "etc/passwd").write_text(USER, encoding="utf-8")
    (root / "etc/group").write_text(GROUP, encoding="utf-8")
    for name in ("etc/passwd", "etc/group"):
        (root / name).chmod(0o644)
    return root


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    steps = parser.add_subparsers(dest="step", required=True)
    laying = steps.add_parser("rootfs")
    laying.add_argument("binary", type=pathlib.Path)
    laying.add_argument("context", type=pathlib.Path)
    laying.add_argument("--arch", default=ARCHES.get(platform.machine(), platform.machine()))
    args = parser.parse_args()
    root = rootfs(args.binary, args.context, args.arch)
    size = sum(path.stat().st_size for path in root.rglob("*") if path.is_file())
    print(f"{root} ({size} bytes)")


if __name__ == "__main__":
    main()
