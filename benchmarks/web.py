"""The table server under a crowd, measured on a real `room25 serve --hardware mock`:

- the time from a POST to every stream holding the update (median, p99): the ten streams of an
  eight-seat table (eight phones, the host, the table page), the table's own stream timed too;
  then the sixteen streams the server allows (a second host login and table page, four
  strangers' streams); then with 100 more anonymous streams asked for by strangers (from
  127.0.1.1 and up, addresses that are not the Pi's own), and whether every seat was still
  served;
- the server's CPU time and context switches per POST with the ten streams fed (every thread of
  the process, from /proc: the CPU in nanoseconds, not the clock ticks of `times`), the same
  seconds of idling taken off, and which threads spent it: a burst of presses on one kept-alive
  connection (as a phone's browser sends them); `--cpu` prints this alone, then the same on a
  new connection a press, and quiet presses 80 ms apart, each drawing its own OLED picture;
- the memory the server holds (its resident set, and any temporary file it keeps open) after
  2,000 updates with those ten streams reading and four strangers' streams that never read;
- the weight of the player page as a phone downloads it;
- the time to build the episode replay of a finished 500-command game from its journal export
  (target ≤ 200 ms), and the size of its recap file (`--replay` prints these alone);
- `--flood`: a seat's press (POST -> 8 seat streams) and the host's and the table's reads, quiet
  and while one phone (another address than the Pi's loopback) floods the episode replay of that
  500-command game on 8 connections without ever waiting, with how many of its reads were served
  and how many refused by the per-address read share (companion/web/reads.py).

Run: .venv/bin/python benchmarks/web.py [--rounds N] [--updates N] [--cpu] [--replay] [--flood]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import os
import random
import re
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # serving

from load import load_line
from serving import Phone, Serve, held_mb, host_of

from companion.lan import join_host
from companion.web.reads import BURST, SHARE

SEATS = [str(n) for n in range(1, 9)]
# Token programming: a seat's press is then a whole lock-in (or unlock), one real command.
SETUP = {
    "edition": "season2",
    "mode": "suspicion",
    "players": 8,
    "tracking": "dealt",
    "settings": {"programming": "tokens"},
}


def cookie_of(phone: Phone) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in phone.cookies)


QUIET_GAP = 0.08  # seconds between quiet presses: more than the OLED's frame gap (50 ms)
SEEN = threading.Condition()  # told whenever a stream reads an update, so nobody polls


class Stream:
    """One open event stream read on its own thread: the versions seen, and when."""

    def __init__(self, port: int, audience: str, cookie: str = "", source: str = "127.0.0.1"):
        self.seen: dict[int, float] = {}
        self.ready = threading.Event()
        self.status = 0
        self._conn = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
        extra = f"Cookie: {cookie}\r\n" if cookie else ""
        self._conn.sendall(
            f"GET /api/stream?as={audience} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode()
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buffer = b""
        try:
            while chunk := self._conn.recv(1 << 16):
                now = time.perf_counter()
                buffer += chunk
                if not self.status and b"\r\n" in buffer:
                    self.status = int(buffer.split(b" ", 2)[1])
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if line.startswith(b"data: "):
                        version = json.loads(line[6:]).get("version", -1)
                        with SEEN:
                            self.seen.setdefault(version, now)
                            SEEN.notify_all()
                        self.ready.set()
        except OSError:
            pass
        finally:
            self.ready.set()

    def close(self) -> None:
        """Closed as a phone closes it, at once: a socket closed while its reader thread waits
        in `recv` stays open, and the server sees the client leave only when bytes next come."""
        with contextlib.suppress(OSError):  # the server ended it already
            self._conn.shutdown(socket.SHUT_RDWR)
        self._conn.close()


class KeptAlive:
    """A phone's writes on one kept-alive connection, as a browser's `fetch` sends them (a new
    connection a press, as `urllib` opens, costs the server an accept and a close each time)."""

    def __init__(self, port: int, phone: Phone) -> None:
        self._conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self._headers = {
            "Content-Type": "application/json",
            "X-Room25": "1",
            "Cookie": cookie_of(phone),
        }

    def post(self, path: str, body: object = None) -> tuple[int, dict]:
        """The answer; a connection the server closed meanwhile (idle for 15 s) is opened
        again, as a browser does."""
        for last in (False, True):
            try:
                self._conn.request("POST", path, json.dumps(body or {}), self._headers)
                answer = self._conn.getresponse()
                return answer.status, json.loads(answer.read() or b"{}")
            except (http.client.RemoteDisconnected, ConnectionError):
                self._conn.close()
                if last:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self._conn.close()


def deaf(port: int, source: str) -> socket.socket:
    """A stranger's stream that is never read."""
    conn = socket.socket()
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    conn.bind((source, 0))
    conn.connect(("127.0.0.1", port))
    conn.sendall(b"GET /api/stream?as=table HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    return conn


def press_rounds(
    phone: Phone | KeptAlive, streams: list[Stream], rounds: int, pause: float = 0.0
) -> list[float]:
    """Seat 1 locks in, then changes its mind: the time until every stream of `streams` holds
    each change, the other streams open and served meanwhile; `pause` seconds between presses
    (none: each as soon as every stream has the last, a burst)."""
    samples = []
    for _ in range(rounds):
        for _ in range(2):
            time.sleep(pause)
            began = time.perf_counter()
            status, found = phone.post("/api/seats/1/press")
            assert status == 200, found
            wanted = found["version"]
            deadline = began + 10
            with SEEN:
                SEEN.wait_for(lambda v=wanted: all(v in s.seen for s in streams), 10)
            samples.append(max(s.seen.get(wanted, deadline) for s in streams) - began)
    return samples


def figures(samples: list[float]) -> str:
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return (
        f"median {statistics.median(samples) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms "
        f"over {len(samples)} POSTs"
    )


def threads_of(pid: int) -> dict[int, tuple[int, int]]:
    """Each thread of a process: the nanoseconds it ran (`schedstat`) and its context switches,
    voluntary and not."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            ran = int((task / "schedstat").read_text().split()[0])
            status = (task / "status").read_text().splitlines()
        except OSError:  # a thread that ended meanwhile
            continue
        switches = sum(int(line.split()[1]) for line in status if "ctxt_switches" in line)
        found[int(task.name)] = (ran, switches)
    return found


def spent(before: dict[int, tuple[int, int]], after: dict[int, tuple[int, int]]) -> dict:
    """Per thread, the nanoseconds and switches between two `threads_of` readings."""
    return {
        tid: (ran - before.get(tid, (0, 0))[0], switched - before.get(tid, (0, 0))[1])
        for tid, (ran, switched) in after.items()
    }


def cpu_per_post(
    pid: int, phone: Phone | KeptAlive, streams: list[Stream], posts: int, pause: float = 0.0
) -> str:
    """The server's CPU per POST with `streams` fed: every thread of the process over `posts`
    POSTs (`pause` seconds apart), less what the same process spends idling for as long (the
    streams' one-second checks, waitress' loop, the mock hardware), and the threads that spent
    the most."""
    before, began = threads_of(pid), time.perf_counter()
    press_rounds(phone, streams, posts // 2, pause)
    busy, seconds = spent(before, threads_of(pid)), time.perf_counter() - began
    before = threads_of(pid)
    time.sleep(seconds)
    idle = spent(before, threads_of(pid))
    ran = sum(r for r, _ in busy.values()) / posts
    switched = sum(s for _, s in busy.values()) / posts
    idle_ran = sum(r for r, _ in idle.values()) / posts
    idle_switched = sum(s for _, s in idle.values()) / posts
    top = sorted(busy.items(), key=lambda item: -item[1][0])[:4]
    threads = ", ".join(f"{r / posts / 1e6:.2f} ms ({s / posts:.0f} sw)" for _, (r, s) in top)
    return (
        f"server CPU per POST ({len(streams)} streams fed, {posts} POSTs, {len(busy)} threads): "
        f"{ran / 1e6:.2f} ms, {switched:.0f} context switches; less the same time idle "
        f"({idle_ran / 1e6:.2f} ms, {idle_switched:.0f} switches): "
        f"{(ran - idle_ran) / 1e6:.2f} ms, {switched - idle_switched:.0f} switches; "
        f"busiest threads: {threads}"
    )


def seated_table(server: Serve) -> tuple[Phone, dict[str, Phone]]:
    """The host and eight phones, each seat taken and its clue looked at: the game under way,
    in its first programming phase."""
    host = host_of(server)
    assert host.post("/api/host/games", {"setup": SETUP})[0] == 200
    phones = {seat: Phone(server.url) for seat in SEATS}
    for seat, phone in phones.items():  # every seat taken before the game is under way
        assert phone.post("/api/join", {"seat": seat})[0] == 200
    for phone in phones.values():
        assert phone.post("/api/commands", {"command": {"type": "clue", "cell": "B3"}})[0]
    return host, phones


def opened(streams: list[Stream]) -> list[Stream]:
    for stream in streams:
        stream.ready.wait(10)
    return streams


def cpu_only(posts: int) -> None:
    """`--cpu`: the CPU and switches per POST with the ten streams fed, and the latency."""
    with tempfile.TemporaryDirectory() as tmp:
        server = Serve(Path(tmp) / "data").wait_ready()
        try:
            host, phones = seated_table(server)
            streams = opened(
                [Stream(server.port, "seat", cookie_of(p)) for p in phones.values()]
                + [Stream(server.port, "host", cookie_of(host)), Stream(server.port, "table")]
            )
            tap = KeptAlive(server.port, phones["1"])
            press_rounds(tap, streams, 10)  # warm: every code path loaded once
            press_rounds(phones["1"], streams, 10)
            print(load_line())
            print("a burst of presses on a phone's kept-alive connection, as a browser sends them:")
            print(cpu_per_post(server.process.pid, tap, streams, posts))
            print("the same, a new connection a press:")
            print(cpu_per_post(server.process.pid, phones["1"], streams, posts))
            print(f"quiet presses, {QUIET_GAP * 1000:.0f} ms apart (each its own OLED picture):")
            print(cpu_per_post(server.process.pid, tap, streams, posts, QUIET_GAP))
            latencies = press_rounds(tap, streams, posts // 2)
            print(f"POST -> every stream (10 open): {figures(latencies)}")
            print(load_line())
            tap.close()
            for stream in streams:
                stream.close()
        finally:
            server.stop()


def page_weight(port: int, lang: str = "") -> int:
    """Bytes a phone downloads for the player page (in the browser's language `lang`, the
    fallback's by default): the HTML and every script and style it names, headers included
    (nothing is compressed on the Pi, so this is what travels)."""
    total = 0
    conn = http.client.HTTPConnection("127.0.0.1", port)
    paths = ["/"]
    while paths:
        path = paths.pop()
        conn.request("GET", path, headers={"Accept-Language": lang} if lang else {})
        answer = conn.getresponse()
        body = answer.read()
        total += len(body) + sum(len(k) + len(v) + 4 for k, v in answer.getheaders())
        if path == "/":
            paths += re.findall(r'(?:src|href)="(/static/[^"]+)"', body.decode())
    conn.close()
    return total


def weight_figures() -> None:
    """The player page's weight in each language of the catalogue, and the texts it embeds
    (the page carries only its own language's, issue 30)."""
    from companion import words

    with tempfile.TemporaryDirectory() as folder:
        server = Serve(Path(folder)).wait_ready()
        try:
            for lang in words.languages():
                weight = page_weight(server.port, lang)
                conn = http.client.HTTPConnection("127.0.0.1", server.port)
                conn.request("GET", "/", headers={"Accept-Language": lang})
                html = conn.getresponse().read().decode()
                conn.close()
                embedded = re.search(
                    r'<script type="application/json" id="texts">(.*?)</script>', html, re.S
                )
                texts = len(embedded[1].encode()) if embedded else 0
                print(
                    f"player page ({lang}): {weight / 1024:.1f} KB (HTML, script and style, "
                    f"uncompressed), {texts / 1024:.1f} KB of it the page's texts"
                )
        finally:
            server.stop()
    print(load_line())


def run(rounds: int, updates: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = Serve(Path(tmp) / "data").wait_ready()
        try:
            host, phones = seated_table(server)
            seats = [Stream(server.port, "seat", cookie_of(p)) for p in phones.values()]
            table = [Stream(server.port, "host", cookie_of(host)), Stream(server.port, "table")]
            everyone = opened(seats + table)
            quiet = press_rounds(phones["1"], everyone, rounds)
            table_only = press_rounds(phones["1"], table[1:], rounds)
            tap = KeptAlive(server.port, phones["1"])
            cpu = cpu_per_post(server.process.pid, tap, everyone, 2 * rounds)
            tap.close()
            crowd = [Stream(server.port, "table", source=f"127.0.1.{n}") for n in range(1, 101)]
            time.sleep(1)
            served = [s for s in crowd if s.status == 200]
            crowded = press_rounds(phones["1"], everyone, rounds)
            still = all(s.status == 200 for s in everyone)
            for stream in crowd:
                stream.close()
            time.sleep(5)  # the crowd's places free again (noticed late on a loaded machine)
            second = host_of(server)
            more = opened(
                [Stream(server.port, "host", cookie_of(second))]
                + [Stream(server.port, "table", cookie_of(second))]
                + [Stream(server.port, "table", source=f"127.0.3.{n // 2 + 1}") for n in range(4)]
            )
            heard = [s for s in more if s.status == 200]
            sixteen = press_rounds(phones["1"], everyone + heard, rounds)
            for stream in more:
                stream.close()
            time.sleep(2)
            strangers = [deaf(server.port, f"127.0.2.{n}") for n in range(1, 5)]
            time.sleep(1)
            rss_before, _ = held_mb(server.process.pid)
            for _ in range(updates // 2):
                for _ in range(2):
                    assert phones["1"].post("/api/seats/1/press")[0] == 200
            time.sleep(1)
            rss, files = held_mb(server.process.pid)
            weight = page_weight(server.port)
            for conn in strangers:
                conn.close()
            for stream in everyone:
                stream.close()
        finally:
            server.stop()
    print(load_line())
    print(f"POST -> every stream, 8 seats, host and table (10 open): {figures(quiet)}")
    print(f"POST -> the table's stream alone (10 open): {figures(table_only)}")
    print(cpu)
    print(
        f"POST -> every stream, {10 + len(heard)} open (2 hosts, 2 tables, "
        f"{len(heard) - 2} of 4 strangers served): {figures(sixteen)}"
    )
    print(
        f"POST -> every stream with 100 more anonymous streams asked for "
        f"({len(served)} served, {100 - len(served)} refused): {figures(crowded)}; "
        f"every seat, the host and the table served: {'yes' if still else 'NO'}"
    )
    print(
        f"server memory after {updates} updates, 10 streams reading and 4 never: "
        f"RSS {rss:.1f} MB (before the updates {rss_before:.1f} MB), "
        f"temporary files held {files:.1f} MB"
    )
    print(f"player page weight: {weight / 1024:.1f} KB (HTML, script and style, uncompressed)")
    print(load_line())
    replay_figures()


# An eight-seat game of the heuristic players in which every seat changes its mind four times a turn
# (unlock, program again): a finished game of 500 commands and more.
LONG_GAME = {"edition": "ultimate", "mode": "suspicion", "players": 8, "tracking": "dealt"}
MIND_CHANGES = 4


def long_finished_game(folder: Path) -> dict:
    """The journal export of a finished game of at least 500 commands (its journal is
    `folder/<seed>.sqlite`)."""
    from companion.session import FakeClock, Session
    from companion.sim.simulate import PlayedGame

    for seed in range(1, 50):
        setup = {**LONG_GAME, "seed": seed}
        with Session(folder / f"{seed}.sqlite", FakeClock()) as session:
            game = session.host("new_game", setup=setup).game
            for decision in PlayedGame(setup, "heuristic", random.Random(seed)):
                assert session.submit(decision.command).ok
                programming = session.snapshot("public")["waiting"]["phase"] == "programming"
                if decision.command["type"] == "program" and programming:
                    for _ in range(MIND_CHANGES):
                        assert session.submit({"type": "unlock", "seat": decision.seat}).ok
                        assert session.submit(decision.command).ok
            exported = session.export(game)
        if exported and exported["complete"] and len(exported["commands"]) >= 500:
            return exported
    raise RuntimeError("no simulated game of 500 commands")


def replay_figures() -> None:
    """The episode of a 500-command game built from its export (median of 9), and its recap."""
    from companion.story.recap import recap_html
    from companion.story.replay import episode

    with tempfile.TemporaryDirectory() as folder:
        exported = long_finished_game(Path(folder))
    times = []
    for _ in range(9):
        started = time.perf_counter()
        told = episode(exported)
        times.append(time.perf_counter() - started)
    recap = recap_html(exported, "en").encode()
    commands = len(exported["commands"])
    turns = told["steps"][-1]["turn"]
    print(
        f"episode replay of a {commands}-command game ({turns} turns, {len(told['steps'])} steps): "
        f"{statistics.median(times) * 1000:.1f} ms median (target <= 200 ms)"
    )
    print(f"its recap file: {len(recap) / 1024:.1f} KB (target < 300 KB for a 10-turn game)")
    print(load_line())


FLOODERS = 8  # connections the flooding phone keeps busy


ANSWERS = {
    200: 0,
    429: 1,
    0: 2,
}  # a flooding connection's answers as counted: served, refused, lost


def flood(port: int, path: str, source: str, stop: threading.Event, counts: Any, held: Any) -> None:
    """One connection asking for `path` again and again, never waiting (not even when told to),
    its answers counted as they come in `counts`; `held` is set once the companion has refused
    it: its burst is spent, the flood is in the steady state it keeps all evening."""
    conn = http.client.HTTPConnection("127.0.0.1", port, source_address=(source, 0), timeout=30)
    while not stop.is_set():
        try:
            conn.request("GET", path, headers={"Host": "127.0.0.1"})
            answer = conn.getresponse()
            answer.read()
            status = answer.status
        except (OSError, http.client.HTTPException):  # closed under it: connect again at once
            conn.close()
            status = 0
        with counts.get_lock():
            counts[ANSWERS.get(status, 2)] += 1
        if status == 429:
            held.set()
    conn.close()


def flooding_phone(port: int, path: str, source: str, stop: Any, counts: Any, held: Any) -> None:
    """The flooding phone, a process of its own (another device: its threads do not slow the
    measuring ones): `FLOODERS` connections until `stop`, their answers counted in `counts`
    (served, refused, lost). It runs at the lowest priority: a phone floods from its own
    processor, so here it takes only the time the companion and the measured phones leave (on
    this 2-core machine it would otherwise take a core from them, which no phone on the Wi-Fi
    can)."""
    os.nice(19)
    halt = threading.Event()
    threads = [
        threading.Thread(target=flood, args=(port, path, source, halt, counts, held))
        for _ in range(FLOODERS)
    ]
    for thread in threads:
        thread.start()
    stop.wait()
    halt.set()
    for thread in threads:
        thread.join()


def read_times(reader: Phone, path: str, rounds: int) -> list[float]:
    samples = []
    for _ in range(rounds):
        began = time.perf_counter()
        assert reader.get(path)[0] == 200
        samples.append(time.perf_counter() - began)
    return samples


def flood_figures(rounds: int) -> None:
    """A seat's press and the host's and the table's reads, quiet and under one phone's flood."""
    source = join_host()
    if source.startswith("127."):
        raise SystemExit("--flood needs an address other than loopback (the flooding phone's)")
    with tempfile.TemporaryDirectory() as tmp:
        exported = long_finished_game(Path(tmp))
        data = Path(tmp) / "data"
        data.mkdir()
        shutil.copy(Path(tmp) / f"{exported['seed']}.sqlite", data / "journal.sqlite")
        server = Serve(data).wait_ready()
        try:
            host = host_of(server)
            assert host.post("/api/host/games", {"setup": SETUP})[0] == 200
            phones = {seat: Phone(server.url) for seat in SEATS}
            for seat, phone in phones.items():
                assert phone.post("/api/join", {"seat": seat})[0] == 200
            for phone in phones.values():
                assert phone.post("/api/commands", {"command": {"type": "clue", "cell": "B3"}})[0]
            seats = [Stream(server.port, "seat", cookie_of(p)) for p in phones.values()]
            for stream in seats:
                stream.ready.wait(10)
            table = Phone(server.url)

            def measured() -> tuple[list[float], list[float], list[float]]:
                return (
                    press_rounds(phones["1"], seats, rounds),
                    read_times(host, "/api/view?as=host", rounds),
                    read_times(table, "/api/view?as=table", rounds),
                )

            quiet = measured()
            spawn = multiprocessing.get_context("spawn")
            stop, counts, held = spawn.Event(), spawn.Array("i", 3), spawn.Event()
            path = f"/api/games/{exported['game']}/replay"
            phone = spawn.Process(
                target=flooding_phone, args=(server.port, path, source, stop, counts, held)
            )
            began = time.perf_counter()
            phone.start()
            # Measured once the phone's burst is spent, as a flood goes on all evening: a flood
            # that takes more than its share spends the burst within BURST / SHARE seconds.
            if not held.wait(120):
                raise SystemExit("the flooding phone was never refused in 120 s")
            time.sleep(max(0.0, began + BURST / SHARE - time.perf_counter()))
            spent_burst = time.perf_counter() - began
            served_in_burst = counts[0]
            flooded = measured()
            after_burst = counts[0] - served_in_burst
            stop.set()
            lasted = time.perf_counter() - began
            phone.join(30)
            for stream in seats:
                stream.close()
        finally:
            server.stop()
    refused, failed = counts[1], counts[2]
    names = ("seat press -> 8 seat streams", "host view", "table view")
    for name, calm, busy in zip(names, quiet, flooded, strict=True):
        print(f"{name}: quiet {figures(calm)}; flooded {figures(busy)}")
    print(
        f"the flood ({FLOODERS} connections from {source}, {len(exported['commands'])}-command "
        f"game's replay): {served_in_burst} served in its first {spent_burst:.1f} s (its burst), "
        f"then {after_burst / (lasted - spent_burst):.1f} replays/s served while measured; "
        f"{refused / lasted:.0f}/s refused (429 too_many_reads), {failed} connections lost, "
        f"over its {lasted:.1f} s"
    )
    print(load_line())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--updates", type=int, default=2000)
    parser.add_argument("--replay", action="store_true", help="only the replay's figures")
    parser.add_argument("--cpu", action="store_true", help="only the CPU per POST")
    parser.add_argument("--flood", action="store_true", help="only the figures under a flood")
    parser.add_argument("--weight", action="store_true", help="only the player page's weight")
    arguments = parser.parse_args()
    if arguments.weight:
        weight_figures()
    elif arguments.replay:
        replay_figures()
    elif arguments.cpu:
        cpu_only(2 * arguments.rounds)
    elif arguments.flood:
        flood_figures(arguments.rounds)
    else:
        run(arguments.rounds, arguments.updates)
