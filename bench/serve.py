#!/usr/bin/env python3
"""feedlint serve under load: `python3 bench/serve.py`.

Starts `feedlint serve` (release build) on a loopback port and posts a
generated Atom feed of about 50 KB to `POST /api/lint`, from 1, 8 and 64
clients at once (each level bounded in requests and seconds), then from
256 clients at once, past the server's job cap and queue. Prints, per
level: requests per second answered 200, the p50 and p99 latency of those,
how many were answered 503 (busy, with Retry-After), how many connections
the server closed while the client was still sending (a request refused
before its body is read), and the server's resident memory (VmRSS now,
VmHWM the peak so far). Then the same under attack: while 2,000
connections are held open (half sending nothing, half their headers a byte
at a time, each reopened as soon as the server closes it) and 10 clients
trickle request bodies a byte a second, it times a fresh client's front
page and runs the 8-client level again. Between the two, GET /badge for a
feed on a loopback server, its verdict made once and then served from the
cache, from 1 and 64 clients. Last, the body-reader attacks: 64
connections from one address that announce a body and send nothing
(reconnecting whenever cut), and 64 from one address that send their
bodies just above the minimum rate (16 KiB/s); under each, and under the
held connections above, a normal client on another loopback address
(127.0.0.2) checks a URL (GET /api/lint?url=, no body) and posts a small
feed, one request at a time: its requests per second, p50 and p99, and
the slowest. Loopback only.
Options: --requests N (per level, default 400), --seconds N (per level,
default 20), --jobs N (the server's job cap; default its own: the cores),
--held N (connections held in the attack, default 2000), --binary PATH
(a feedlint to measure instead of building this tree's release build).
"""

import argparse
import http.client
import http.server
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from run import entry  # noqa: E402  (the benchmark corpus's entries)


def feed_of_about(size):
    """An Atom feed of about `size` bytes, with one finding per entry kind."""
    rng = random.Random(28)
    head = ('<?xml version="1.0" encoding="utf-8"?>\n'
            '<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://example.org/load/">\n'
            '  <title>Load</title>\n  <id>tag:example.org,2024:load</id>\n'
            '  <updated>2025-01-01T00:00:00Z</updated>\n  <author><name>Load</name></author>\n'
            '  <link rel="self" href="feed.atom"/>\n')
    entries, n = [], 0
    while len(head) + sum(map(len, entries)) < size:
        entries.append(entry(rng, "load", n, "2024-12-01T00:00:00Z"))
        n += 1
    return (head + "".join(entries) + "</feed>\n").encode()


def memory(pid):
    """VmRSS and VmHWM of a process, in MiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024
    return fields.get("VmRSS", 0), fields.get("VmHWM", 0)


def load(port, body, clients, requests, seconds, path="/api/lint?name=feed.atom", source="127.0.0.1"):
    """`clients` threads posting `body` (or, without one, getting `path`)
    until `requests` are sent or `seconds` pass, from the loopback address
    `source`: latencies of the 200s, and the count of 503s."""
    lock = threading.Lock()
    latencies, busy, errors = [], [0], [0]
    left = [requests]
    deadline = time.monotonic() + seconds

    def connect():
        return http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0))

    def client():
        connection = connect()
        while True:
            with lock:
                if left[0] == 0 or time.monotonic() > deadline:
                    return
                left[0] -= 1
            started = time.perf_counter()
            try:
                if body is None:
                    connection.request("GET", path)
                else:
                    connection.request("POST", path, body=body,
                                       headers={"Content-Type": "application/atom+xml"})
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException):
                connection.close()
                connection = connect()
                with lock:
                    errors[0] += 1
                continue
            took = time.perf_counter() - started
            with lock:
                if status == 200:
                    latencies.append(took)
                elif status == 503:
                    busy[0] += 1
                else:
                    errors[0] += 1

    started = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started, latencies, busy[0], errors[0]


class Attack:
    """Slowloris and slow bodies against the server, on threads, until
    stopped: `held` connections kept open (reopened when closed), and
    `slow` clients that send a body a byte a second."""

    def __init__(self, port, held, slow):
        self.port, self.held, self.slow = port, held, slow
        self.stopping = threading.Event()
        self.open = [0]
        self.reopened = [0]
        self.threads = [threading.Thread(target=self.hold) for _ in range(8)]
        self.threads += [threading.Thread(target=self.trickle) for _ in range(slow)]

    def connect(self):
        connection = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        connection.setblocking(False)
        return connection

    def hold(self):
        """One eighth of the held connections; odd ones send header bytes."""
        sockets = []
        for n in range(self.held // 8):
            try:
                connection = self.connect()
                if n % 2:
                    connection.send(b"GET / HTTP/1.1\r\nHost: x\r\n")
                sockets.append((n, connection))
            except OSError:
                break
        self.open[0] += len(sockets)
        while not self.stopping.wait(1.0):
            for i, (n, connection) in enumerate(sockets):
                try:
                    if n % 2:
                        connection.send(b"X")
                    if connection.recv(1, socket.MSG_PEEK) == b"":
                        raise ConnectionError
                except BlockingIOError:
                    continue
                except OSError:
                    connection.close()
                    try:
                        sockets[i] = (n, self.connect())
                        if n % 2:
                            sockets[i][1].send(b"GET / HTTP/1.1\r\nHost: x\r\n")
                        self.reopened[0] += 1
                    except OSError:
                        pass
        for _, connection in sockets:
            connection.close()

    def trickle(self):
        while not self.stopping.is_set():
            try:
                connection = socket.create_connection(("127.0.0.1", self.port), timeout=5)
                connection.send(b"POST /api/lint HTTP/1.1\r\nHost: x\r\n"
                                b"Content-Type: application/atom+xml\r\nContent-Length: 100000\r\n\r\n")
                while not self.stopping.wait(1.0):
                    connection.send(b" ")
            except OSError:
                pass
            finally:
                connection.close()

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        time.sleep(3)  # the connections are open, the bodies started
        return self

    def __exit__(self, *_):
        self.stopping.set()
        for thread in self.threads:
            thread.join()


class BodyAttack:
    """Body readers taken from one address (127.0.0.1): `silent`
    connections that announce a body of 100,000 bytes and send nothing,
    each reopened as soon as the server cuts it, and `slow` that send
    their bodies at `rate` bytes a second (4 MB each), until stopped."""

    def __init__(self, port, silent, slow, rate=17 * 1024):
        self.port, self.rate = port, rate
        self.stopping = threading.Event()
        self.cut = [0]
        self.threads = [threading.Thread(target=self.silent) for _ in range(silent)]
        self.threads += [threading.Thread(target=self.slow) for _ in range(slow)]

    def start_body(self, length):
        connection = socket.create_connection(("127.0.0.1", self.port), timeout=5,
                                              source_address=("127.0.0.1", 0))
        connection.send(b"POST /api/lint HTTP/1.1\r\nHost: x\r\n"
                        b"Content-Type: application/atom+xml\r\n"
                        + f"Content-Length: {length}\r\n\r\n".encode())
        return connection

    def silent(self):
        while not self.stopping.is_set():
            connection = None
            try:
                connection = self.start_body(100_000)
                connection.settimeout(0.5)
                while not self.stopping.is_set():
                    try:
                        if connection.recv(4096) == b"":
                            break
                    except socket.timeout:
                        continue
            except OSError:
                self.stopping.wait(0.05)
            finally:
                if connection is not None:
                    connection.close()
                self.cut[0] += 1

    def slow(self):
        piece = b" " * (self.rate // 10)
        while not self.stopping.is_set():
            connection = None
            try:
                connection = self.start_body(4_000_000)
                while not self.stopping.wait(0.1):
                    connection.send(piece)
            except OSError:
                self.stopping.wait(0.05)
            finally:
                if connection is not None:
                    connection.close()

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        time.sleep(3)  # every reader the attack can take is taken
        return self

    def __exit__(self, *_):
        self.stopping.set()
        for thread in self.threads:
            thread.join()


def normal_client(port, body, url, seconds):
    """One person's requests from 127.0.0.2, one at a time for `seconds`:
    a URL checked (no body) and a small feed posted, in turn. Requests
    per second answered 200, p50 and p99 in ms, the slowest, and how many
    were not answered 200."""
    deadline = time.monotonic() + seconds
    latencies, failed = [], 0
    started = time.perf_counter()
    n = 0
    while time.monotonic() < deadline:
        n += 1
        began = time.perf_counter()
        if n % 2:
            status = ask(port, "GET", "/api/lint?url=" + urllib.parse.quote(url, safe=""), source="127.0.0.2")
        else:
            status = ask(port, "POST", "/api/lint?name=feed.atom", source="127.0.0.2", body=body,
                         headers={"Content-Type": "application/atom+xml"})
        if status == 200:
            latencies.append(time.perf_counter() - began)
        else:
            failed += 1
    took = time.perf_counter() - started
    slowest = max(latencies, default=float("nan"))
    return len(latencies) / took, percentile(latencies, 50) * 1000, percentile(latencies, 99) * 1000, slowest * 1000, failed


def feed_server(body):
    """A loopback server of `body` as /feed.atom, on a thread; its port."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "application/atom+xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def ask(port, method, path, source="127.0.0.1", body=None, headers=None):
    """One request on a fresh connection from `source`: its status (0: no
    answer within 30 s)."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        response.read()
        connection.close()
        return response.status
    except (OSError, http.client.HTTPException):
        return 0


def front_page(port):
    """Seconds for a fresh client to get `/`, and the status (0: no answer
    within 30 s)."""
    started = time.perf_counter()
    status = ask(port, "GET", "/")
    return time.perf_counter() - started, status


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--held", type=int, default=2000)
    parser.add_argument("--binary")
    args = parser.parse_args()
    # The attack's sockets are this process's descriptors.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, args.held + 512)), hard))
    binary = args.binary
    if binary is None:
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "feedlint"], cwd=ROOT, check=True)
        binary = str(ROOT / "target" / "release" / "feedlint")
    # Loopback may be fetched: the badge's feed is served here.
    command = [binary, "serve", "--listen", "127.0.0.1:0", "--allow-private-addresses"]
    if args.jobs:
        command += ["--jobs", str(args.jobs)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
        body = feed_of_about(50 * 1024)
        print(f"machine: {os.cpu_count()} cores; feed: {len(body) / 1024:.1f} KiB; "
              f"POST /api/lint, at most {args.requests} requests and {args.seconds:.0f} s a level\n")
        print(f"{'clients':>8} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'503s':>6} {'reset':>7} {'RSS MiB':>8} {'peak MiB':>9}")
        load(port, body, 2, 20, 10)  # warm up
        for clients in (1, 8, 64, 256):
            took, latencies, busy, errors = load(port, body, clients, args.requests, args.seconds)
            rss, peak = memory(server.pid)
            print(f"{clients:>8} {len(latencies) / took:>8.1f} {percentile(latencies, 50) * 1000:>8.1f} "
                  f"{percentile(latencies, 99) * 1000:>8.1f} {busy:>6} {errors:>7} {rss:>8.1f} {peak:>9.1f}")
        feeds = feed_server(body)
        badge = "/badge?url=" + urllib.parse.quote(f"http://127.0.0.1:{feeds}/feed.atom", safe="")
        load(port, None, 1, 1, 30, badge)  # the verdict made and kept
        print(f"\nGET /badge, its verdict cached (the feed checked once, {args.requests} requests)")
        print(f"{'clients':>8} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'503s':>6} {'reset':>7} {'RSS MiB':>8} {'peak MiB':>9}")
        for clients in (1, 64):
            took, latencies, busy, errors = load(port, None, clients, args.requests, args.seconds, badge)
            rss, peak = memory(server.pid)
            print(f"{clients:>8} {len(latencies) / took:>8.1f} {percentile(latencies, 50) * 1000:>8.1f} "
                  f"{percentile(latencies, 99) * 1000:>8.1f} {busy:>6} {errors:>7} {rss:>8.1f} {peak:>9.1f}")
        print(f"\nunder attack: {args.held} connections held (reopened when closed), 10 bodies trickled")
        with Attack(port, args.held, 10) as attack:
            seconds, status = front_page(port)
            print(f"  held open: {attack.open[0]}; a fresh client's front page: {seconds * 1000:.1f} ms (status {status})")
            took, latencies, busy, errors = load(port, body, 8, args.requests, args.seconds)
            rss, peak = memory(server.pid)
            print(f"{'clients':>8} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'503s':>6} {'reset':>7} {'RSS MiB':>8} {'peak MiB':>9}")
            print(f"{8:>8} {len(latencies) / took:>8.1f} {percentile(latencies, 50) * 1000:>8.1f} "
                  f"{percentile(latencies, 99) * 1000:>8.1f} {busy:>6} {errors:>7} {rss:>8.1f} {peak:>9.1f}")
            print(f"  connections the server closed and the attack reopened meanwhile: {attack.reopened[0]}")
        small = feed_of_about(5 * 1024)
        url = f"http://127.0.0.1:{feeds}/feed.atom"
        seconds = min(args.seconds, 15)
        print(f"\na normal client (127.0.0.2), {seconds:.0f} s each: GET /api/lint?url= and POST /api/lint in turn")
        print(f"{'attack':<44} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'not 200':>8}")
        row = "{:<44} {:>7.1f} {:>8.1f} {:>8.1f} {:>8.1f} {:>8}"
        print(row.format("none", *normal_client(port, small, url, seconds)))
        with Attack(port, args.held, 10):
            print(row.format(f"{args.held} idle connections, 10 slow bodies", *normal_client(port, small, url, seconds)))
        with BodyAttack(port, 64, 0) as attack:
            print(row.format("64 silent bodies from one address", *normal_client(port, small, url, seconds)))
            print(f"  silent connections cut by the server and reopened: {attack.cut[0]}")
        with BodyAttack(port, 0, 64):
            print(row.format("64 bodies at 17 KiB/s from one address", *normal_client(port, small, url, seconds)))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
