#!/usr/bin/env python3
"""Do two feedlint binaries say the same? `python3 bench/compare.py OLD NEW`.

A change that only moves code must change no output. This runs both
binaries over the same inputs in every output format and compares what
they write, byte for byte (standard output, standard error and the exit
status):

- testsuite/: every rule fixture alone, and every set case as one run;
- examples/: each example, as the README lints it;
- ../shared/corpus/realworld/: the real-world corpus, as one run;
- the benchmark corpora of bench/run.py (generated under target/bench/ if
  missing), as one run each.

Prints one line per difference and a summary; exits 1 if anything
differs. Both binaries run from the project's root, offline; nothing is
fetched. Options: --formats text,json,... (default: all six),
--quick (skips the benchmark corpora).
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ["text", "concise", "json", "json-lines", "sarif", "github"]


def runs(quick):
    """(label, arguments) of every run to compare."""
    suite = ROOT / "testsuite"
    for fixture in sorted((suite / "rules").rglob("*")):
        if fixture.is_file() and fixture.suffix in (".atom", ".rss", ".xml", ".atomdeleted"):
            yield str(fixture.relative_to(ROOT)), [str(fixture.relative_to(ROOT))]
    for case in sorted(p for p in (suite / "sets").rglob("*") if p.is_dir()):
        if any(child.is_file() for child in case.iterdir()):
            yield str(case.relative_to(ROOT)), [str(case.relative_to(ROOT))]
    for example in sorted((ROOT / "examples").iterdir()):
        yield str(example.relative_to(ROOT)), [str(example.relative_to(ROOT))]
    realworld = ROOT.parent / "shared" / "corpus" / "realworld"
    if realworld.is_dir():
        yield "corpus/realworld", [str(realworld)]
    if not quick:
        bench = ROOT / "target" / "bench"
        if not (bench / "corpus").is_dir():
            sys.path.insert(0, str(ROOT / "bench"))
            import run  # noqa: E402  (bench/run.py's generators)
            run.generate()
            run.generate_rss()
        for corpus in sorted(p for p in bench.iterdir() if p.is_dir()):
            yield str(corpus.relative_to(ROOT)), [str(corpus)]


def output(binary, arguments, form):
    env = dict(os.environ, NO_COLOR="1", RAYON_NUM_THREADS="2")
    env.pop("GITHUB_WORKSPACE", None)
    done = subprocess.run([binary, "--format", form, "--color", "never", *arguments],
                          cwd=ROOT, env=env, capture_output=True, timeout=600)
    return done.returncode, done.stdout, done.stderr


def first_difference(a, b):
    """The first line where two outputs differ, both sides."""
    for n, (x, y) in enumerate(zip(a.splitlines(), b.splitlines()), 1):
        if x != y:
            return f"line {n}: {x[:160]!r} / {y[:160]!r}"
    return f"lengths {len(a)} / {len(b)}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    formats = args.formats.split(",")
    compared = differing = 0
    for label, arguments in runs(args.quick):
        for form in formats:
            old = output(args.old, arguments, form)
            new = output(args.new, arguments, form)
            compared += 1
            if old != new:
                differing += 1
                what = ("status" if old[0] != new[0] else
                        "stdout " + first_difference(old[1], new[1]) if old[1] != new[1] else
                        "stderr " + first_difference(old[2], new[2]))
                print(f"differs: {label} ({form}): {what}")
    print(f"{compared} runs compared ({len(formats)} formats), {differing} differ")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
