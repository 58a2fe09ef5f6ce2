#!/usr/bin/env python3
"""The packages, installed as their users install them, on this machine.
`.ci/run` runs this after `cargo test`: each check builds feedlint again
(with the test build's profile, reusing its artifacts), which must not
happen while the tests run that binary.

    release/check-packages.py --python-tools VENV

VENV is a virtual environment holding maturin and pre-commit. Checks:

- wheel: `maturin build` makes the host's wheel; it installs into a fresh
  virtual environment with no index, and `feedlint examples/site` there
  gives the README's summary line and exit status 1.
- sdist: `maturin sdist` makes the source package, pip installs it into
  a fresh virtual environment as on a platform with no wheel (building
  feedlint from it, maturin fetched by pip as pyproject.toml asks), and
  `feedlint examples/site` there gives the README's summary line.
- npm: the host's platform package and the `feedlint` package, packed
  by `npm pack`, installed from their tarballs into a fresh project:
  `npx feedlint --version`, and `npx feedlint examples/site` gives the
  README's summary line.
- pre-commit: `pre-commit try-repo` this repository in a new git
  repository with a broken, a valid and a fixable feed: the `feedlint`
  hook fails on the broken one naming its rule and passes on the valid
  one, and `feedlint-fix` fixes the fixable one and fails, as fixers do.

Each check says how long it took and how large its artifact is; any
failure exits 1.
"""

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
README_SUMMARY = (
    "feedlint: found: 1 error, 6 warnings and 1 info in 5 documents; "
    "examples/site/ is published at https://example.org/, as the self links say"
)
# The builds a check makes are the test build's (`dev`), in the test
# build's folder: only what differs is compiled again.
BUILD_ENV = {
    "MATURIN_PEP517_ARGS": "--profile dev",
    "CARGO_TARGET_DIR": str(ROOT / "target"),
}


def run(args, cwd, env=None, check=True):
    shown = subprocess.run(
        [str(arg) for arg in args], cwd=cwd, env=env, capture_output=True, text=True
    )
    if check and shown.returncode != 0:
        sys.exit(f"{' '.join(map(str, args))} exited {shown.returncode}:\n{shown.stdout}{shown.stderr}")
    return shown


def installed_lints_the_site(scratch, pip_args, env, what):
    """`pip install PIP_ARGS` into a fresh virtual environment, then
    `feedlint examples/site` there: the README's summary and exit status 1."""
    env_dir = scratch / "fresh"
    run([sys.executable, "-m", "venv", env_dir], scratch)
    run([env_dir / "bin" / "pip", "install", *pip_args], scratch, env)
    linted = run([env_dir / "bin" / "feedlint", "examples/site"], ROOT, check=False)
    said = linted.stdout + linted.stderr
    if linted.returncode != 1 or README_SUMMARY not in said:
        sys.exit(f"{what} exited {linted.returncode}, saying:\n{said}")


def check_wheel(tools, scratch):
    wheels = scratch / "wheels"
    run([tools / "bin" / "maturin", "build", "--profile", "dev", "--out", wheels], ROOT)
    (wheel,) = wheels.glob("feedlint-*.whl")
    installed_lints_the_site(scratch, ["--no-index", "--quiet", wheel], None, "the installed wheel's feedlint")
    return f"{wheel.name}, {wheel.stat().st_size / 1e6:.1f} MB"


def check_sdist(tools, scratch):
    made = scratch / "sdist"
    run([tools / "bin" / "maturin", "sdist", "--out", made], ROOT)
    (sdist,) = made.glob("feedlint-*.tar.gz")
    pip = ["--quiet", "--disable-pip-version-check", sdist]
    installed_lints_the_site(scratch, pip, dict(os.environ, **BUILD_ENV), "the feedlint built from the sdist")
    return f"{sdist.name}, {sdist.stat().st_size / 1e6:.1f} MB"


def check_pre_commit(tools, scratch):
    repo = scratch / "repo"
    repo.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    run(["git", "init", "-q"], repo)
    shutil.copy(ROOT / "testsuite/sets/valid/atom-chain/index.atom", repo / "valid.atom")
    # An error (exit status 1), and a warning with a safe fix.
    shutil.copy(ROOT / "testsuite/rules/atom-missing-id/fail-feed-and-entry.atom", repo / "broken.atom")
    shutil.copy(ROOT / "testsuite/rules/fh-marker-duplicate/fail-twice.atom", repo / "fixable.atom")
    run(git + ["add", "."], repo)
    run(git + ["commit", "-q", "-m", "feeds"], repo)
    # try-repo commits a shadow copy of the repository: an identity for it.
    identity = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
    }
    env = dict(os.environ, **BUILD_ENV, **identity, PRE_COMMIT_HOME=str(scratch / "cache"))
    env["PATH"] = f"{tools / 'bin'}{os.pathsep}{env['PATH']}"
    pre_commit = [tools / "bin" / "pre-commit", "try-repo", ROOT]
    broken = run(pre_commit + ["feedlint", "--files", "broken.atom"], repo, env, check=False)
    if broken.returncode == 0 or "atom-missing-id" not in broken.stdout:
        sys.exit(f"the feedlint hook passed a broken feed:\n{broken.stdout}{broken.stderr}")
    valid = run(pre_commit + ["feedlint", "--files", "valid.atom"], repo, env, check=False)
    if valid.returncode != 0:
        sys.exit(f"the feedlint hook failed a valid feed:\n{valid.stdout}{valid.stderr}")
    before = (repo / "fixable.atom").read_text(encoding="utf-8")
    fixing = run(pre_commit + ["feedlint-fix", "--files", "fixable.atom"], repo, env, check=False)
    after = (repo / "fixable.atom").read_text(encoding="utf-8")
    if fixing.returncode == 0 or after == before or "files were modified by this hook" not in fixing.stdout:
        sys.exit(f"feedlint-fix did not fix the feed:\n{fixing.stdout}{fixing.stderr}")
    return "hooks feedlint and feedlint-fix"


def check_npm(tools, scratch):
    """The host's platform package and the main package, packed, installed
    from their tarballs into a fresh project, run with npx."""
    host = next(
        line.split(": ", 1)[1]
        for line in run(["rustc", "-vV"], ROOT).stdout.splitlines()
        if line.startswith("host: ")
    )
    binary = scratch / "feedlint"
    run(["strip", "-o", binary, ROOT / "target/debug/feedlint"], scratch)
    made = scratch / "packages"
    platform = pathlib.Path(run([sys.executable, ROOT / "release/npm.py", "platform", host, binary, made], ROOT).stdout.strip())
    main_package = pathlib.Path(run([sys.executable, ROOT / "release/npm.py", "main", made], ROOT).stdout.strip())
    tarballs = []
    for folder in [platform, main_package]:
        packed = run(["npm", "pack", "--silent", "--pack-destination", scratch], folder).stdout.strip().splitlines()[-1]
        tarballs.append(scratch / packed)
    project = scratch / "project"
    project.mkdir()
    (project / "package.json").write_text('{"name": "project", "version": "1.0.0", "private": true}\n', encoding="utf-8")
    run(["npm", "install", "--no-audit", "--no-fund", "--save-dev"] + tarballs, project)
    version = run(["npx", "--no-install", "feedlint", "--version"], project)
    if not version.stdout.startswith("feedlint "):
        sys.exit(f"npx feedlint --version said: {version.stdout}{version.stderr}")
    linted = run(["npx", "--no-install", "feedlint", ROOT / "examples/site"], project, check=False)
    said = linted.stdout + linted.stderr
    summary = README_SUMMARY.replace("examples/site/", f"{ROOT / 'examples/site'}/")
    if linted.returncode != 1 or summary not in said:
        sys.exit(f"npx feedlint examples/site exited {linted.returncode}, saying:\n{said}")
    # Without its platform's package, the launcher says what is missing.
    bare = scratch / "bare"
    bare.mkdir()
    (bare / "package.json").write_text('{"name": "bare", "version": "1.0.0", "private": true}\n', encoding="utf-8")
    run(["npm", "install", "--no-audit", "--no-fund", "--omit=optional", tarballs[1]], bare)
    missing = run(["npx", "--no-install", "feedlint", "--version"], bare, check=False)
    if missing.returncode != 2 or "is not installed" not in missing.stderr:
        sys.exit(f"the launcher without a binary exited {missing.returncode}: {missing.stderr}")
    sizes = ", ".join(f"{tarball.name} {tarball.stat().st_size / 1e6:.2f} MB" for tarball in tarballs)
    return sizes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python-tools", type=pathlib.Path, required=True)
    parser.add_argument(
        "--checks",
        default="wheel,sdist,npm,pre-commit",
        help="the checks to run, separated by commas (default: all)",
    )
    args = parser.parse_args()
    chosen = args.checks.split(",")
    tools = args.python_tools.resolve()
    with tempfile.TemporaryDirectory(prefix="feedlint-packages-") as scratch:
        scratch = pathlib.Path(scratch)
        checks = [
            ("wheel", check_wheel),
            ("sdist", check_sdist),
            ("npm", check_npm),
            ("pre-commit", check_pre_commit),
        ]
        unknown = set(chosen) - {name for name, _ in checks}
        if unknown:
            sys.exit(f"no such check: {', '.join(sorted(unknown))}")
        for name, check in [(name, check) for name, check in checks if name in chosen]:
            started = time.monotonic()
            place = scratch / name
            place.mkdir()
            made = check(tools, place)
            print(f"packages: {name}: ok in {time.monotonic() - started:.0f} s ({made})")


if __name__ == "__main__":
    main()
