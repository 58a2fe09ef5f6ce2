#!/usr/bin/env python3
"""feedlint's benchmark: one command, `python3 bench/run.py`.

Generates a deterministic corpus under target/bench/ (about 2,000 Atom
feeds of 40-50 KB, chained as archives with xml:base, markers, tombstones
and entries, and one ~100 MB feed with 100,000 entries), then times, in one
run:

- `feedlint --format json` (all rules on),
- `xmllint --noout` (libxml2 well-formedness only; one process, one core),
- a parse-only pass with roxmltree (bench/parse_only.rs: the reference,
  the parse alone that feedlint's whole run is measured against), at the
  same thread count as feedlint,
- and, to show where feedlint's time goes, its own read, decode and parse
  alone (bench/own_parse.rs) and the whole run with every rule off
  (`--ignore all`),

and a second corpus of 2,000 RSS 2.0 feeds generated with other features
(the dc and content modules, xml:base chains, suppressions used, unused and
naming unknown ids, a finding on most items, ISO-8859-1 and windows-1252),
and prints the ratios, peak memory (GNU time) and whether the targets are
met (with --threads 1, on each corpus: the whole run at most 0.6x
roxmltree's parse and 0.5x xmllint; the 96 MiB feed at most 2x its size in
memory), then a table of wall times at 1, 2, 4, 8 and 16 threads (as many
as the machine has) against the parse alone at the same thread count
(target: at most 1.0x).
A third corpus of 2,000 JSON Feed 1.1 documents (200 feeds of 10 pages
linked by next_url) is timed against the RSS corpus, CPU time per byte
(target: at most 1.0x; `--json-only` times only these two).
Each measurement is the median of --runs runs (default 5), the three
commands taking turns. Wall time and CPU time (user + system) are both
printed; the targets are judged on CPU time, which on a shared virtual
machine varies far less from run to run than wall time (the same binaries
measured 0.53x to 0.74x xmllint by wall time within minutes), and which
with one thread is the same work. Options: --threads N (default: all
cores), --runs N, --keep (reuse an existing corpus), --bin-dir DIR (time
the feedlint and parse-only binaries in DIR instead of building them: how
the benchmark runs on a machine without Rust).
"""

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "bench"
CORPUS = OUT / "corpus"
BIG = OUT / "big" / "feed.atom"
# GNU time, found on PATH (a machine without it in /usr/bin may carry it).
GNU_TIME = shutil.which("time") or "/usr/bin/time"
WORDS = ("archive feed entry paging history tombstone deleted current previous next "
         "robots amok lorem ipsum dolor sit amet consectetur adipiscing elit sed do "
         "eiusmod tempor incididunt labore dolore magna aliqua").split()

def text(rng, words):
    return " ".join(rng.choice(WORDS) for _ in range(words))

def entry(rng, feed, n, when, words=60):
    return (f'  <entry>\n    <title>{text(rng, 6)}</title>\n'
            f'    <link href="posts/{feed}/{n}.html"/>\n'
            f'    <link rel="enclosure" href="media/{feed}/{n}.mp3" length="{rng.randint(1000, 99999)}" type="audio/mpeg"/>\n'
            f'    <id>tag:example.org,2024:{feed}/{n}</id>\n    <updated>{when}</updated>\n'
            f'    <published>{when}</published>\n'
            f'    <author><name>{text(rng, 2)}</name></author>\n'
            f'    <summary>{text(rng, words // 2)}</summary>\n'
            f'    <content type="html">&lt;p&gt;{text(rng, words)}&lt;/p&gt;</content>\n  </entry>\n')

def document(rng, feed, k, archives, entries):
    """Document k of a logical feed: 0 is the subscription document."""
    name = "index.atom" if k == 0 else f"archive/{k}.atom"
    # Every document has xml:base="https://example.org/FEED/": links are
    # written relative to the feed's root.
    links = [f'<link rel="self" href="{name}"/>']
    if k == 0:
        links.append('<link rel="prev-archive" href="archive/1.atom"/>')
    else:
        links.append('<link rel="current" href="index.atom"/>')
        if k < archives:
            links.append(f'<link rel="prev-archive" href="archive/{k + 1}.atom"/>')
        if k > 1:
            links.append(f'<link rel="next-archive" href="archive/{k - 1}.atom"/>')
    updated = f"2024-12-{max(1, 28 - k):02d}T12:00:00Z" if k else "2025-01-01T00:00:00Z"
    head = ('<?xml version="1.0" encoding="utf-8"?>\n'
            '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:fh="http://purl.org/syndication/history/1.0" '
            f'xmlns:at="http://purl.org/atompub/tombstones/1.0" xml:base="https://example.org/{feed}/">\n'
            f'  <title>{text(rng, 4)}</title>\n  <id>tag:example.org,2024:{feed}</id>\n'
            f'  <updated>{updated}</updated>\n  <author><name>{text(rng, 2)}</name></author>\n'
            + ('  <fh:archive/>\n' if k else '')
            + "".join(f"  {l}\n" for l in links))
    tomb = ""
    if k == 0:
        tomb = (f'  <at:deleted-entry ref="tag:example.org,2024:{feed}/{(archives * entries) - 1}" '
                f'when="2024-12-31T00:00:00Z"><at:by><name>{text(rng, 2)}</name></at:by></at:deleted-entry>\n')
    body = "".join(entry(rng, feed, k * entries + i, updated) for i in range(entries))
    return name, head + tomb + body + "</feed>\n"

RSS_CORPUS = OUT / "rss"
RSS_DATES = ["Tue, 03 Jun 2003 09:39:21 GMT", "Fri, 30 May 2003 11:06:42 GMT", "Sat, 31 May 2003 23:59:59 +0200"]

def rss_item(rng, feed, n):
    """An RSS 2.0 item with extensions, a relative xml:base and link, and a
    guid that is no URL at all, relative (an rss-invalid-guid error), some
    suppressed."""
    comment = ""
    if n % 5 == 0:
        comment = "    <!-- feedlint-disable-next rss-invalid-guid -->\n"      # used
    elif n % 7 == 0:
        comment = "    <!-- feedlint-disable-next rss-invalid-date -->\n"      # unused, valid id
    elif n % 11 == 0:
        comment = "    <!-- feedlint-disable-next no-such-rule -->\n"          # unknown id
    return (f'    <item xml:base="posts/{n}/">\n      <title>{text(rng, 6)} caf\u00e9</title>\n'
            f'      <link>index.html</link>\n      <description>{text(rng, 40)}</description>\n'
            f'      <pubDate>{rng.choice(RSS_DATES)}</pubDate>\n'
            f'      <dc:creator>{text(rng, 2)}</dc:creator>\n'
            f'      <content:encoded>&lt;p&gt;{text(rng, 60)}&lt;/p&gt;</content:encoded>\n'
            f'      <enclosure url="media/{n}.mp3" length="{rng.randint(1000, 99999)}" type="audio/mpeg"/>\n'
            + comment +
            f'      <guid>{feed}/{n}</guid>\n    </item>\n')

def generate_rss(feeds=2000, items=40):
    """The second corpus: RSS 2.0 with the dc and content modules, xml:base
    chains, suppressions used, unused and naming unknown ids, a finding on
    most items, and a third of the files in ISO-8859-1, a third in
    windows-1252."""
    rng = random.Random(2002)
    if RSS_CORPUS.exists():
        shutil.rmtree(RSS_CORPUS)
    RSS_CORPUS.mkdir(parents=True)
    total = 0
    for f in range(feeds):
        encoding = ["utf-8", "iso-8859-1", "windows-1252"][f % 3]
        xml = (f'<?xml version="1.0" encoding="{encoding}"?>\n'
               '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" '
               'xmlns:content="http://purl.org/rss/1.0/modules/content/" '
               'xmlns:atom="http://www.w3.org/2005/Atom">\n'
               f'  <channel xml:base="https://example.org/{f}/">\n'
               f'    <title>{text(rng, 4)}</title>\n    <link>https://example.org/{f}/</link>\n'
               f'    <description>{text(rng, 12)}</description>\n    <language>en-us</language>\n'
               f'    <atom:link rel="self" href="https://example.org/{f}/feed.rss" type="application/rss+xml"/>\n'
               f'    <lastBuildDate>{RSS_DATES[0]}</lastBuildDate>\n'
               + "".join(rss_item(rng, f, n) for n in range(items))
               + '  </channel>\n</rss>\n')
        data = xml.encode(encoding)
        (RSS_CORPUS / f"{f:04d}.rss").write_bytes(data)
        total += len(data)
    return feeds, total

JSON_CORPUS = OUT / "json"
JSON_DATES = ["2003-06-03T09:39:21Z", "2003-05-30T11:06:42+00:00", "2003-05-31T23:59:59+02:00"]

def json_item(rng, feed, page, n):
    """A JSON Feed 1.1 item with authors, tags and an attachment; most
    items have one finding (an RSS-style date, a member that is no
    extension's, a relative image), as most of the RSS corpus's have one."""
    finding = n % 4
    item = {
        "id": f"https://example.org/{feed}/{page}/{n}",
        "url": f"https://example.org/{feed}/posts/{page}-{n}",
        "title": f"{text(rng, 6)} caf\u00e9",
        "content_html": f"<p>{text(rng, 60)}</p>",
        "summary": text(rng, 40),
        "date_published": rng.choice(JSON_DATES) if finding != 1 else RSS_DATES[0],
        "authors": [{"name": text(rng, 2), "url": f"https://example.org/{feed}/about"}],
        "tags": text(rng, 3).split(),
        "attachments": [{"url": f"https://example.org/{feed}/media/{n}.mp3", "mime_type": "audio/mpeg",
                         "size_in_bytes": rng.randint(1000, 99999)}],
    }
    if finding == 2:
        item["summary_text"] = item.pop("summary")
    elif finding == 3:
        item["image"] = f"media/{n}.jpg"
    return item

def generate_json(feeds=200, pages=10, items=40):
    """The third corpus: 2,000 JSON Feed 1.1 documents, 200 feeds of 10
    pages linked by next_url (each page with the first page's feed_url),
    40 items a page, about as large as the RSS corpus's files."""
    import json as json_module
    rng = random.Random(1101)
    if JSON_CORPUS.exists():
        shutil.rmtree(JSON_CORPUS)
    total = 0
    for f in range(feeds):
        folder = JSON_CORPUS / f"feed-{f:03d}"
        folder.mkdir(parents=True)
        for page in range(pages):
            name = "feed.json" if page == 0 else f"feed-{page + 1}.json"
            document = {
                "version": "https://jsonfeed.org/version/1.1",
                "title": text(rng, 4),
                "home_page_url": f"https://example.org/feed-{f:03d}/",
                "feed_url": f"https://example.org/feed-{f:03d}/feed.json",
                "language": "en-US",
                "items": [json_item(rng, f, page, n) for n in range(items)],
            }
            if page + 1 < pages:
                document["next_url"] = f"https://example.org/feed-{f:03d}/feed-{page + 2}.json"
            data = json_module.dumps(document, indent=2, ensure_ascii=False).encode()
            (folder / name).write_bytes(data)
            total += len(data)
    return feeds * pages, total

def json_against_rss(feedlint, runs, env):
    """Issue 53's target: a JSON Feed costs no more per byte than RSS. The
    whole run (every rule, the paging chains, the report) over each corpus,
    CPU time per MiB."""
    lint_json, lint_rss = measure([
        [str(feedlint), "--format", "json", "--exit-zero", str(JSON_CORPUS)],
        [str(feedlint), "--format", "json", "--exit-zero", str(RSS_CORPUS)],
    ], runs, env)
    size = lambda folder: sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20
    json_size, rss_size = size(JSON_CORPUS), size(RSS_CORPUS)
    per_json, per_rss = lint_json.cpu / json_size, lint_rss.cpu / rss_size
    print(f"\nJSON Feed against RSS, the whole run, CPU per MiB (median of {runs}):")
    print(f"  2,000 JSON  {json_size:6.1f} MiB  {lint_json.cpu:.3f}s CPU  {lint_json.wall:.3f}s wall  peak {lint_json.peak:.0f}M  {per_json * 1000:.1f} ms/MiB")
    print(f"  2,000 RSS   {rss_size:6.1f} MiB  {lint_rss.cpu:.3f}s CPU  {lint_rss.wall:.3f}s wall  peak {lint_rss.peak:.0f}M  {per_rss * 1000:.1f} ms/MiB")
    ratio = per_json / per_rss
    print(f"  JSON / RSS per byte: {ratio:.2f}x  (at most 1.0x: {'met' if ratio <= 1.0 else 'NOT met'})")

def generate(feeds=200, per_feed=10, entries=40):
    rng = random.Random(5005)
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    total = 0
    for f in range(feeds):
        feed = f"feed-{f:03d}"
        for k in range(per_feed):
            name, xml = document(rng, feed, k, per_feed - 1, entries)
            path = CORPUS / feed / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(xml)
            total += len(xml)
    BIG.parent.mkdir(parents=True, exist_ok=True)
    with open(BIG, "w") as out:
        out.write('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
                  'xmlns:fh="http://purl.org/syndication/history/1.0" xml:base="https://example.org/big/">\n'
                  '  <title>Big</title>\n  <id>tag:example.org,2024:big</id>\n  <updated>2025-01-01T00:00:00Z</updated>\n'
                  '  <author><name>Big</name></author>\n  <fh:complete/>\n  <link rel="self" href="feed.atom"/>\n')
        for n in range(100_000):
            out.write(entry(rng, "big", n, "2024-12-01T00:00:00Z", words=52))
        out.write("</feed>\n")
    return feeds * per_feed, total

def run_once(command, env):
    """Wall seconds (perf_counter: GNU time's own clock rounds to 10 ms),
    CPU seconds (user + system of the command, from the rusage of waited-for
    children, to the microsecond) and peak RSS in MiB (GNU time, which starts
    the command from a small process: a child forked from Python would count
    Python's memory too)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run([GNU_TIME, "-f", "%x %M", *command], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    status, peak = result.stderr.strip().splitlines()[-1].split()
    if status not in ("0", "1"):
        sys.exit(f"{command[0]} exited with {status}")
    return seconds, cpu, int(peak) / 1024

def measure(commands, runs, env):
    """Median wall seconds, median CPU seconds and the largest peak RSS of
    each command. The commands take turns, run after run, so that a slow
    spell of a shared machine falls on all of them alike."""
    results = [[] for _ in commands]
    for _ in range(runs):
        for i, command in enumerate(commands):
            results[i].append(run_once(command, env))
    return [Timing(statistics.median(t for t, _, _ in r), statistics.median(c for _, c, _ in r),
                   max(m for _, _, m in r)) for r in results]

class Timing:
    def __init__(self, wall, cpu, peak):
        self.wall, self.cpu, self.peak = wall, cpu, peak

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", action="store_true", help="reuse the corpus in target/bench")
    parser.add_argument("--no-scaling", action="store_true", help="leave out the table by thread count")
    parser.add_argument("--json-only", action="store_true", help="time only the JSON Feed corpus against the RSS corpus")
    parser.add_argument("--bin-dir", type=Path, help="time the feedlint and parse-only binaries in this folder instead of building them")
    args = parser.parse_args()

    if shutil.which("xmllint") is None:
        print("installing libxml2-utils for xmllint ...", file=sys.stderr)
        subprocess.run(["apt-get", "install", "-y", "-qq", "libxml2-utils"], check=True, stdout=subprocess.DEVNULL)
    if shutil.which(GNU_TIME) is None:
        subprocess.run(["apt-get", "install", "-y", "-qq", "time"], check=True, stdout=subprocess.DEVNULL)
    if args.bin_dir:
        feedlint, parse_only, own_parse = (args.bin_dir / name for name in ("feedlint", "parse-only", "own-parse"))
    else:
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "feedlint", "--example", "parse-only",
                        "--example", "own-parse"], cwd=ROOT, check=True)
        feedlint = ROOT / "target" / "release" / "feedlint"
        parse_only = ROOT / "target" / "release" / "examples" / "parse-only"
        own_parse = ROOT / "target" / "release" / "examples" / "own-parse"

    env = dict(os.environ, RAYON_NUM_THREADS=str(args.threads))
    if not (args.keep and JSON_CORPUS.exists() and RSS_CORPUS.exists()):
        count, size = generate_json()
        print(f"JSON corpus: {count} JSON Feeds in 200 chains of 10 pages, {size / count / 1024:.1f} KiB on average")
        if not (args.keep and RSS_CORPUS.exists()):
            generate_rss()
    if args.json_only:
        json_against_rss(feedlint, args.runs, env)
        return
    if not (args.keep and CORPUS.exists() and BIG.exists() and RSS_CORPUS.exists()):
        count, size = generate()
        print(f"corpus: {count} feeds, {size / count / 1024:.1f} KiB on average; big feed: {BIG.stat().st_size / 2**20:.1f} MiB")
        count, size = generate_rss()
        print(f"second corpus: {count} RSS feeds, {size / count / 1024:.1f} KiB on average (extensions, suppressions, xml:base, ISO-8859-1 and windows-1252)")
    files = sorted(str(p) for p in CORPUS.rglob("*.atom"))
    rss_files = sorted(str(p) for p in RSS_CORPUS.glob("*.rss"))

    env = dict(os.environ, RAYON_NUM_THREADS=str(args.threads))
    print(f"machine: {os.cpu_count()} cores; feedlint and parse-only on {args.threads} thread(s); median of {args.runs} runs\n")
    rows = []
    corpora = [("2,000 feeds", [str(CORPUS)], files), ("100 MB feed", [str(BIG)], [str(BIG)]),
               ("2,000 RSS", [str(RSS_CORPUS)], rss_files)]
    # Beside the three, where feedlint's own time goes: its read, decode
    # and parse alone (bench/own_parse.rs), and the whole run with every
    # rule off (the feed view, the summaries, the set stage and the output
    # without a rule or a finding).
    parts = []
    for label, target, xml_targets in corpora:
        lint, floor, xmllint, rules_off, *own = measure([
            [str(feedlint), "--format", "json", "--exit-zero", *target],
            [str(parse_only), *target],
            ["xmllint", "--noout", "--huge", *xml_targets],
            [str(feedlint), "--format", "json", "--exit-zero", "--ignore", "all", *target],
            *([[str(own_parse), *target]] if own_parse.exists() else []),
        ], args.runs, env)
        rows.append((label, lint, floor, xmllint))
        parts.append((own[0] if own else None, rules_off))
    print(f"{'':14}{'feedlint':>22}{'parse-only':>22}{'xmllint':>22}{'vs xmllint':>12}{'vs parse':>10}")
    print(f"{'':14}{'wall / CPU / peak':>22}{'wall / CPU / peak':>22}{'wall / CPU / peak':>22}{'(CPU)':>12}{'(CPU)':>10}")
    cell = lambda t: f"{t.wall:.3f}s {t.cpu:.3f}s {t.peak:4.0f}M"
    for label, lint, floor, xmllint in rows:
        print(f"{label:14}{cell(lint):>22}{cell(floor):>22}{cell(xmllint):>22}"
              f"{lint.cpu / xmllint.cpu:>11.2f}x{lint.cpu / floor.cpu:>9.2f}x")
    big = BIG.stat().st_size / 2**20
    print(f"\n100 MB feed: feedlint peak memory {rows[1][1].peak:.0f} MiB = {rows[1][1].peak / big:.2f}x its size")
    # The targets of the XML layer (measured with --threads 1).
    _, lint, floor, xmllint = rows[0]
    _, rss_lint, rss_floor, rss_xmllint = rows[2]
    checks = [
        ("2,000 feeds: feedlint / parse-only", lint.cpu / floor.cpu, 0.6),
        ("2,000 feeds: feedlint / xmllint", lint.cpu / xmllint.cpu, 0.5),
        ("2,000 RSS: feedlint / parse-only", rss_lint.cpu / rss_floor.cpu, 0.6),
        ("2,000 RSS: feedlint / xmllint", rss_lint.cpu / rss_xmllint.cpu, 0.5),
        ("100 MB feed: peak memory / size", rows[1][1].peak / big, 2.0),
    ]
    print(f"\ntargets{'' if args.threads == 1 else ' (set for --threads 1)'}, by CPU time:")
    for label, value, target in checks:
        print(f"  {label:38} {value:5.2f}x  (at most {target}x: {'met' if value <= target else 'NOT met'})")
    print(f"  (by wall time: {lint.wall / floor.wall:.2f}x parse-only, {lint.wall / xmllint.wall:.2f}x xmllint)")
    print("\nwhere feedlint's time goes: CPU time, and against parse-only's")
    print(f"{'':14}{'own parse':>18}{'every rule off':>18}{'whole run':>18}")
    share = lambda t, floor: f"{t.cpu:.3f}s {t.cpu / floor.cpu:4.2f}x" if t else "-"
    for (label, whole, floor, _), (own, rules_off) in zip(rows, parts):
        print(f"{label:14}{share(own, floor):>18}{share(rules_off, floor):>18}{share(whole, floor):>18}")
    json_against_rss(feedlint, args.runs, env)
    if not args.no_scaling:
        scaling(feedlint, parse_only, [("2,000 feeds", str(CORPUS)), ("2,000 RSS", str(RSS_CORPUS))], args.runs)

def scaling(feedlint, parse_only, corpora, runs):
    """Wall time of feedlint and of the parse alone at 1, 2, 4, 8 and 16
    threads (as many as the machine has), and their ratio: the target is at
    most 1.0x at every thread count."""
    counts = [n for n in (1, 2, 4, 8, 16) if n <= (os.cpu_count() or 1)]
    print(f"\nthreads: wall time, feedlint / parse-only at the same thread count (target at most 1.0x; median of {runs})")
    print(f"{'':14}" + "".join(f"{n:>24}" for n in counts))
    for label, target in corpora:
        cells = []
        for n in counts:
            env = dict(os.environ, RAYON_NUM_THREADS=str(n))
            lint, floor = measure([[str(feedlint), "--format", "json", "--exit-zero", target], [str(parse_only), target]], runs, env)
            cells.append(f"{lint.wall:.3f}s/{floor.wall:.3f}s {lint.wall / floor.wall:.2f}x")
        print(f"{label:14}" + "".join(f"{c:>24}" for c in cells))

if __name__ == "__main__":
    main()
