#!/usr/bin/env python3
"""feedlint's batch benchmark: `python3 bench/batch.py`.

Starts --hosts servers on 127.0.0.1 (loopback only; many hosts simulated
by many ports), each serving --per-host small feeds (an RSS feed of five
items, without a self link: a warning each; one in ten with an error too,
one in fifty answering 404), writes the
list of their URLs, and runs `feedlint --urls-from LIST -o OUT` (release
build) on it: documents per second, peak memory (GNU time), the output's
size and its records, checked one per input, with --http-cache. The
servers send an ETag and honour it, and count what they are asked. Then
cuts the output at half its records and resumes with the cache: every
document left is asked for conditionally, answered 304 and linted from
the cache. Measured on a 2-core machine, one request to a host at a time
(the default --host-jobs 1, counting every request of every input), with
the cache and the http rules' conditional request (two requests an
input): 100,000 inputs in 109.5 s (914 documents/s), peak 26 MiB, 114.7
MiB of records (1,202 bytes each); the half left after a cut, resumed
from the cache, in 36.7 s, every request conditional but the 404s' (RFC
9110 §13.2.1: a server ignores preconditions where its answer would be
no 2xx, so a missing feed cannot be revalidated). (Politeness by input
rather than by request: 139.1 s; one request an input, before the http
rules: 102.5 s; before the per-host gate: 79.9 s.) Then runs it again with
--resume OUT, which must lint nothing, and times that too. Then splits the
list into --shards shards and checks that together they hold every input
once. Options: --hosts 50, --per-host 2000 (100,000 inputs), --jobs 8,
--shards 4.
"""

import argparse
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINARY = ROOT / "target" / "release" / "feedlint"
OUT = ROOT / "target" / "batch"
GNU_TIME = shutil.which("time") or "/usr/bin/time"


def feed(n):
    finding = "" if n % 10 else "<lastBuildDate>yesterday</lastBuildDate>"
    items = "".join(
        f"<item><title>Item {i}</title><link>https://example.org/{n}/{i}</link>"
        f"<guid>https://example.org/{n}/{i}</guid><description>An item.</description></item>"
        for i in range(5)
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">'
        f"<channel><title>Feed {n}</title><link>https://example.org/{n}/</link><description>d</description>"
        f"{finding}{items}</channel></rss>"
    ).encode()


# Requests the servers answered, by kind: a lock, as the servers' threads
# count together.
COUNTS = {"plain": 0, "conditional": 0, "not modified": 0, "not found": 0}
COUNTING = threading.Lock()


def count(kind):
    with COUNTING:
        COUNTS[kind] += 1


class Feeds(http.server.BaseHTTPRequestHandler):
    """Serves as a well-kept server does: an ETag, honoured with a 304."""
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_GET(self):
        n = int(self.path.strip("/").split(".")[0] or 0)
        asked_with = self.headers.get("If-None-Match")
        count("conditional" if asked_with else "plain")
        if n % 50 == 49:
            count("not found")
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = feed(n)
        tag = f'"{n}-{len(body)}"'
        if asked_with == tag:
            count("not modified")
            self.send_response(304)
            self.send_header("ETag", tag)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("ETag", tag)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def timed(command):
    """Wall seconds and peak resident MiB of `command`."""
    start = time.perf_counter()
    result = subprocess.run([GNU_TIME, "-f", "%M", *command], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} exited {result.returncode}: {result.stderr[-2000:]}")
    peak = int(result.stderr.strip().splitlines()[-1]) / 1024
    return wall, peak


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hosts", type=int, default=50)
    parser.add_argument("--per-host", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=8)
    parser.add_argument("--shards", type=int, default=4)
    args = parser.parse_args()
    if shutil.which(GNU_TIME) is None:
        subprocess.run(["apt-get", "install", "-y", "-qq", "time"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "feedlint"], cwd=ROOT, check=True)
    servers = []
    for _ in range(args.hosts):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Feeds)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    listing, out = OUT / "list.jsonl", OUT / "records.jsonl"
    total = args.hosts * args.per_host
    with listing.open("w") as f:
        for n in range(args.per_host):
            for server in servers:
                f.write(json.dumps({"id": f"{server.server_address[1]}-{n}", "url": f"http://127.0.0.1:{server.server_address[1]}/{n}.xml"}) + "\n")
    jobs = ["--jobs", str(args.jobs), "--http-cache", str(OUT / "cache")]
    wall, peak = timed([str(BINARY), "--urls-from", str(listing), "-o", str(out), "--quiet", *jobs])
    first = dict(COUNTS)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    ids = {record["id"] for record in records}
    linted = sum(1 for record in records if record["status"] == "linted")
    failed = sum(1 for record in records if record["status"] == "failed")
    with_findings = sum(1 for record in records if record["findings"])
    assert len(records) == total and len(ids) == total, (len(records), len(ids), total)
    size = out.stat().st_size
    print(f"machine: {os.cpu_count()} cores; {total:,} inputs on {args.hosts} loopback hosts; --jobs {args.jobs}; --http-cache")
    print(f"batch:   {wall:.1f} s wall, {total / wall:,.0f} documents/s, peak {peak:.0f} MiB, "
          f"output {size / 2**20:.1f} MiB ({size / total:.0f} bytes a record)")
    print(f"records: {linted:,} linted ({with_findings:,} with findings), {failed:,} failed (the 404s)")
    print(f"asked:   {first['plain']:,} plain requests, {first['conditional']:,} conditional (the http rules' second request), "
          f"{first['not modified']:,} answered 304")
    # A run cut at half its records (and in the middle of a line), resumed
    # with the cache: what is left is asked for conditionally.
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[: total // 2]) + lines[total // 2][:40])
    for kind in COUNTS:
        COUNTS[kind] = 0
    resumed_wall, resumed_peak = timed([str(BINARY), "--urls-from", str(listing), "--resume", str(out), "-o", str(out), "--quiet", *jobs])
    again = dict(COUNTS)
    left = total - total // 2
    records = [json.loads(line) for line in out.read_text().splitlines()[1:] if line.startswith("{") and line.endswith("}")]
    assert out.read_text().count("\n") == total + 1, out.read_text().count("\n")
    # Every plain request is a 404's, of which nothing was cached; every
    # conditional one is answered 304.
    assert again["plain"] == again["not found"] and again["conditional"] == again["not modified"], again
    assert again["conditional"] + again["plain"] == left, (again, left)
    print(f"resumed: {left:,} inputs left after a cut, {resumed_wall:.1f} s wall, peak {resumed_peak:.0f} MiB; "
          f"{again['conditional']:,} conditional requests ({again['not modified']:,} answered 304), "
          f"{again['plain']:,} plain (the 404s, of which nothing was cached)")
    done_wall, _ = timed([str(BINARY), "--urls-from", str(listing), "--resume", str(out), "-o", str(out), "--quiet", *jobs])
    print(f"resumed again: {done_wall:.1f} s wall, no input linted again")
    seen = []
    for k in range(1, args.shards + 1):
        shard_out = OUT / f"shard-{k}.jsonl"
        subprocess.run([str(BINARY), "--urls-from", str(listing), "--shard", f"{k}/{args.shards}", "-o", str(shard_out), "--quiet", *jobs],
                       check=True, capture_output=True)
        seen.extend(json.loads(line)["id"] for line in shard_out.read_text().splitlines())
    assert len(seen) == total and len(set(seen)) == total, (len(seen), len(set(seen)))
    print(f"shards:  {args.shards} shards by host hold every input once")
    for server in servers:
        server.shutdown()


if __name__ == "__main__":
    main()
