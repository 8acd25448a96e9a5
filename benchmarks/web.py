"""The table server's speed with eight phones: the time from a POST to every open stream holding
the update (median, p99), and the weight of the player page as a phone downloads it.

The app runs in-process under waitress (the real server, real sockets, a real Session on a
temporary SQLite journal); eight event streams read on their own threads, as eight phones would.

Run: .venv/bin/python benchmarks/web.py [--rounds N]
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

from load import load_line
from waitress.server import create_server

from companion.session import Session
from companion.web import THREADS, create_app

PIN = "2525"
SEATS = [str(n) for n in range(1, 9)]
# Token programming: a seat's press is then a whole lock-in (or unlock), one real command.
SETUP = {
    "edition": "season2",
    "mode": "suspicion",
    "players": 8,
    "tracking": "dealt",
    "settings": {"programming": "tokens"},
}
HEADERS = {"X-Room25": "1", "Content-Type": "application/json"}


class Phone:
    """One seat's phone: its cookie, and a stream of versions seen, read on a thread."""

    def __init__(self, port: int, cookie: str) -> None:
        self.port, self.cookie = port, cookie
        self.seen: dict[int, float] = {}
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port)
        conn.request("GET", "/api/stream?as=seat", headers={"Cookie": self.cookie})
        answer = conn.getresponse()
        for raw in answer:
            line = raw.decode().strip()
            if line == "event: bye":
                return
            if line.startswith("data:"):
                update = json.loads(line[5:])
                self.seen.setdefault(update["version"], time.perf_counter())
                self.ready.set()


def post(port: int, path: str, body: dict, cookie: str = "") -> tuple[dict, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.request("POST", path, json.dumps(body), headers={**HEADERS, "Cookie": cookie})
    answer = conn.getresponse()
    found = json.loads(answer.read())
    cookie = (answer.getheader("Set-Cookie") or "").split(";")[0]
    conn.close()
    return found, cookie


def page_weight(port: int) -> int:
    """Bytes a phone downloads for the player page: the HTML and every script and style it
    names, headers included (nothing is compressed on the Pi, so this is what travels)."""
    total = 0
    conn = http.client.HTTPConnection("127.0.0.1", port)
    paths = ["/"]
    while paths:
        path = paths.pop()
        conn.request("GET", path)
        answer = conn.getresponse()
        body = answer.read()
        total += len(body) + sum(len(k) + len(v) + 4 for k, v in answer.getheaders())
        if path == "/":
            paths += re.findall(r'(?:src|href)="(/static/[^"]+)"', body.decode())
    conn.close()
    return total


def run(rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        session = Session(Path(tmp) / "journal.sqlite")
        session.open()
        app = create_app(session, None, pin=PIN)
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        server = create_server(app, host="127.0.0.1", port=port, threads=THREADS)
        threading.Thread(target=server.run, daemon=True).start()
        _, host = post(port, "/api/host/login", {"pin": PIN})
        found, _ = post(port, "/api/host/games", {"setup": SETUP}, host)
        assert found["ok"], found
        cookies = {seat: post(port, "/api/join", {"seat": seat})[1] for seat in SEATS}
        for seat in SEATS:
            clue = {"command": {"type": "clue", "cell": "B3"}}
            assert post(port, "/api/commands", clue, cookies[seat])[0]["ok"]
        phones = [Phone(port, cookies[seat]) for seat in SEATS]
        for phone in phones:
            phone.ready.wait(10)
        samples = []
        for n in range(rounds):
            # Seat 1 locks in, then changes its mind: each POST must reach all eight streams.
            for path, body, cookie in (
                ("/api/seats/1/press", {}, cookies["1"]),
                ("/api/seats/1/press", {}, cookies["1"]),
            ):
                began = time.perf_counter()
                found, _ = post(port, path, body, cookie)
                assert found["ok"], (n, found)
                wanted = found["version"]
                deadline = began + 10
                while not all(wanted in p.seen for p in phones) and time.perf_counter() < deadline:
                    time.sleep(0.0005)
                samples.append(max(p.seen[wanted] for p in phones) - began)
                for p in phones:
                    p.seen.clear()
        weight = page_weight(port)
        app.extensions["room25.access"].free_all()  # every phone's stream ends within a second
        time.sleep(1.5)
        server.close()
        session.close()
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(
        f"POST -> 8 streams updated: median {statistics.median(samples) * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms over {len(samples)} POSTs"
    )
    print(f"player page weight: {weight / 1024:.1f} KB (HTML, script and style, uncompressed)")
    print(f"waitress threads: {THREADS}")
    print(load_line())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=100)
    run(parser.parse_args().rounds)
