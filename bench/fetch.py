#!/usr/bin/env python3
"""feedlint's fetching benchmark: `python3 bench/fetch.py`.

Starts N local servers on 127.0.0.1 (loopback only), each the host of one
archived feed: a subscription document and a chain of archives linked by
prev-archive. Every answer waits --latency seconds first (a distant
server), on a socket with TCP_NODELAY (without it, Nagle's algorithm adds
about 40 ms per response and measures the network stack, not feedlint), and
connections are kept alive (HTTP/1.1).

It measures the wall time of `feedlint URL...` (release build) on one feed
alone, the slowest single chain, and on all N feeds at once (the default
--jobs 8, and --jobs 1 for comparison). A chain is sequential by nature:
each archive's URL is known only once the archive before it is read. So the
N feeds together can at best take as long as the slowest one alone; the run
fails (exit status 1) if they take more than --limit times that.
Options: --feeds 8, --archives 25, --latency 0.05, --runs 3 (the least
wall time counts), --limit 1.5.
"""

import argparse
import http.server
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINARY = ROOT / "target" / "release" / "feedlint"


def document(base, n, archives):
    """The subscription document (n = 0) or archive n of a chain, newest first."""
    path = "/index.atom" if n == 0 else f"/{n}.atom"
    links = [f'<link rel="self" href="{base}{path}"/>']
    if n > 0:
        links.append(f'<link rel="current" href="{base}/index.atom"/>')
        links.append(f'<link rel="next-archive" href="{base}/{n - 1}.atom"/>' if n > 1 else "")
    if n < archives:
        links.append(f'<link rel="prev-archive" href="{base}/{n + 1}.atom"/>')
    marker = "<fh:archive/>" if n > 0 else ""
    return (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:fh="http://purl.org/syndication/history/1.0">'
        f"<title>Feed</title><id>tag:example.org,2024:{base}</id>"
        f"<updated>2024-01-{28 - n:02d}T00:00:00Z</updated><author><name>A</name></author>{marker}"
        + "".join(links)
        + f"<entry><title>e{n}</title><id>tag:example.org,2024:{base}/{n}</id>"
        f"<updated>2024-01-{28 - n:02d}T00:00:00Z</updated><summary>s</summary></entry></feed>"
    ).encode()


def serve(archives, latency):
    """A threaded HTTP/1.1 server on a free loopback port; returns its base URL."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self):
            super().setup()
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def do_GET(self):
            time.sleep(latency)
            name = self.path.lstrip("/").removesuffix(".atom")
            n = 0 if name == "index" else int(name) if name.isdigit() else -1
            if not 0 <= n <= archives:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = document(self.server.base, n, archives)
            self.send_response(200)
            self.send_header("Content-Type", "application/atom+xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.base = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.base


def wall_time(urls, runs, jobs=None):
    """The least wall time of `feedlint --format json URL...` over `runs` runs."""
    args = [str(BINARY), "--format", "json", "--quiet", "--max-documents", "10000"]
    if jobs is not None:
        args += ["--jobs", str(jobs)]
    best = None
    for _ in range(runs):
        started = time.perf_counter()
        result = subprocess.run(args + urls, capture_output=True)
        elapsed = time.perf_counter() - started
        if result.returncode not in (0, 1):
            sys.exit(f"feedlint failed: {result.stderr.decode()}")
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--feeds", type=int, default=8)
    parser.add_argument("--archives", type=int, default=25)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=float, default=1.5)
    args = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    urls = [serve(args.archives, args.latency) + "/index.atom" for _ in range(args.feeds)]
    documents = args.archives + 1
    print(f"{args.feeds} feeds x {documents} documents, {args.latency * 1000:.0f} ms per response, loopback")
    slowest = max(wall_time([url], args.runs) for url in urls)
    print(f"one chain alone (slowest):   {slowest:6.2f} s  ({documents} sequential requests)")
    together = wall_time(urls, args.runs)
    print(f"all {args.feeds} feeds, --jobs 8:     {together:6.2f} s  ({together / slowest:.2f}x the slowest chain)")
    sequential = wall_time(urls, 1, jobs=1)
    print(f"all {args.feeds} feeds, --jobs 1:     {sequential:6.2f} s")
    if together > args.limit * slowest:
        sys.exit(f"FAIL: {together:.2f} s is more than {args.limit}x the slowest chain ({slowest:.2f} s)")


if __name__ == "__main__":
    main()
