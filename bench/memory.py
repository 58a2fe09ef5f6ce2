#!/usr/bin/env python3
"""feedlint's memory benchmark: `python3 bench/memory.py`.

Generates four large feeds of one shape each under target/memory/ (many
tombstones with at:by and at:comment, many small entries, elements with 40
attributes, small entries all on one line; --mib N each, default 100),
runs `feedlint --format json` on each (release build), and prints the peak
resident memory (GNU time) as a multiple of the file's size. The target is
at most 2x on every shape; the run fails (exit status 1) where it is not met.
"""

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "memory"
HEAD = ('<feed xmlns="http://www.w3.org/2005/Atom" xmlns:at="http://purl.org/atompub/tombstones/1.0">'
        '<title>t</title><id>tag:example.org,2024:f</id><updated>2024-01-01T00:00:00Z</updated>'
        '<author><name>a</name></author>\n')

SHAPES = {
    "tombstones": (lambda n: f'<at:deleted-entry ref="tag:example.org,2024:{n}" when="2023-01-01T00:00:00Z">'
                   '<at:by><name>a</name></at:by><at:comment>removed</at:comment></at:deleted-entry>', "\n"),
    "small entries": (lambda n: f'<entry><title>Entry {n}</title><id>tag:example.org,2024:{n}</id>'
                      f'<updated>2024-01-01T00:00:00Z</updated><link href="https://example.org/{n}"/>'
                      f'<summary>Some text for entry {n}.</summary></entry>', "\n"),
    "attributes": (lambda n: '<x:e xmlns:x="urn:x" ' + " ".join(f'a{i}="v{n}-{i}"' for i in range(40)) + "/>", "\n"),
    "one line": (lambda n: f'<entry><title>Entry {n}</title><id>tag:example.org,2024:{n}</id>'
                 f'<updated>2024-01-01T00:00:00Z</updated><link href="https://example.org/{n}"/>'
                 '<summary>s</summary></entry>', ""),
}


def generate(path, unit, separator, size):
    with open(path, "w") as out:
        out.write(HEAD)
        written, n = len(HEAD), 0
        while written < size:
            piece = unit(n) + separator
            out.write(piece)
            written += len(piece)
            n += 1
        out.write("</feed>\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mib", type=int, default=100)
    args = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "feedlint"], cwd=ROOT, check=True)
    feedlint = str(ROOT / "target" / "release" / "feedlint")
    OUT.mkdir(parents=True, exist_ok=True)
    failed = []
    print(f"{'shape':16}{'size':>10}{'peak':>10}{'peak / size':>14}")
    for name, (unit, separator) in SHAPES.items():
        path = OUT / (name.replace(" ", "-") + ".atom")
        generate(path, unit, separator, args.mib * 2**20)
        size = path.stat().st_size
        result = subprocess.run(["/usr/bin/time", "-f", "%M", feedlint, "--format", "json", "--exit-zero",
                                 "--max-file-size", str(4 * size), str(path)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        peak = int(result.stderr.strip().splitlines()[-1]) * 1024
        ratio = peak / size
        print(f"{name:16}{size / 2**20:>8.0f}M{peak / 2**20:>8.0f}M{ratio:>13.2f}x{'' if ratio <= 2 else '  <-- over 2x'}")
        if ratio > 2:
            failed.append(name)
        path.unlink()
    if failed:
        sys.exit(f"\nover 2x its size: {', '.join(failed)}")
    print("\nevery shape within 2x its size")


if __name__ == "__main__":
    main()
