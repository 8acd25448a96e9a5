"""The table session's figures: the time from an input to every listener notified (8 seat
streams, the public display and the host page), what publishing one change costs the writer
(the views, legal commands and updates of the ten audiences, each encoded as its stream sends
it), the resume of a 500-command game from its
journal, the resident memory of `room25 serve` after a full game, and the CPU used while idle.

Run: .venv/bin/python benchmarks/session.py [--inputs N] [--no-serve]

The figures mean something only on a quiet machine: the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # serving
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "session"))

from load import cpu_seconds, load_line

from companion.session import Session

EIGHT = {
    "edition": "ultimate",
    "mode": "suspicion",
    "players": 8,
    "tracking": "countdown",
    "programming": "tokens",
}
DEALT_EIGHT = {"edition": "ultimate", "mode": "suspicion", "players": 8, "tracking": "dealt"}
AUDIENCES = ("public", "host", *"12345678")
RESUME_COMMANDS = 500
IDLE_SECONDS = 10.0


def table_input(session: Session) -> dict:
    """The next input a table would give: a seat button while programming, Next otherwise, a
    new game when one is over."""
    snapshot = session.snapshot("host")
    waiting = snapshot["waiting"]
    if waiting["phase"] in ("none", "over"):
        session.host("new_game", setup=EIGHT)
        return table_input(session)
    if waiting["phase"] == "programming":
        return {"type": "lock", "seat": waiting["seats"][0]}
    return {"type": "next", "seat": "host"}


def notify_latency(inputs: int) -> list[float]:
    """Seconds from `submit` to the last of the ten listeners holding the update."""
    with tempfile.TemporaryDirectory() as folder, Session(Path(folder) / "j.sqlite") as session:
        session.host("new_game", setup=EIGHT)
        received: dict[str, dict[int, float]] = {a: {} for a in AUDIENCES}
        stop = threading.Event()

        def read(audience: str) -> None:
            listener = session.listen(audience)
            ready.wait()
            while not stop.is_set():
                update = listener.get(timeout=0.5)
                if update is not None:
                    received[audience][update["version"]] = time.perf_counter()
            listener.close()

        ready = threading.Event()
        readers = [threading.Thread(target=read, args=(a,)) for a in AUDIENCES]
        for reader in readers:
            reader.start()
        time.sleep(0.2)
        ready.set()
        latencies = []
        for _ in range(inputs):
            command = table_input(session)
            started = time.perf_counter()
            reply = session.submit(command, source="bench")
            assert reply.ok, reply
            deadline = time.perf_counter() + 5
            while time.perf_counter() < deadline:
                times = [received[a].get(reply.version) for a in AUDIENCES]
                if all(t is not None for t in times):
                    latencies.append(max(times) - started)  # type: ignore[type-var]
                    break
                time.sleep(0.0002)
        stop.set()
        for reader in readers:
            reader.join()
        return latencies


def publish_times(changes: int) -> list[float]:
    """Seconds to publish one change to the ten audiences and encode each one's update as its
    stream would (what `views_for` alone left out: the legal commands, the session's part, the
    JSON), over the positions of a game played through a session."""
    from companion import engine
    from companion.session.listeners import Update
    from companion.session.publish import Published, tell

    class Encoder:
        """A listener that encodes its update at once, as a stream does."""

        def __init__(self, audience: str) -> None:
            self.audience = audience

        def put(self, update: Update) -> None:
            update.message()

    listeners = [Encoder(a) for a in AUDIENCES]
    samples = []
    with tempfile.TemporaryDirectory() as folder, Session(Path(folder) / "j.sqlite") as session:
        session.host("new_game", setup=EIGHT)
        for _ in range(changes):
            assert session.submit(table_input(session)).ok
            state = session._game.state
            began = time.perf_counter()
            waiting = engine.waiting_for(state).as_dict()
            published = Published("g", state, waiting, session._published.session)
            tell(published, listeners, [], quiet=False)
            samples.append(time.perf_counter() - began)
    return samples


def resume_time() -> tuple[float, int, int]:
    """Seconds to open the journal and rebuild a 500-command game (median of 5)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "j.sqlite"
        with Session(path) as session:
            session.host("new_game", setup=EIGHT)
            count = 0
            while count < RESUME_COMMANDS:
                waiting = session.snapshot("public")["waiting"]
                if waiting["phase"] == "over":  # too short: play another game, slower
                    session.host("new_game", setup=EIGHT)
                    count = 0
                    continue
                if waiting["phase"] == "programming" and count % 2 == 0 and waiting["locked_in"]:
                    command = {"type": "unlock", "seat": waiting["locked_in"][0]}
                else:
                    command = table_input(session)
                assert session.submit(command).ok
                count += 1
            events = sum(len(a.events) for a in session._game.applied)
        return reopen_time(path, RESUME_COMMANDS), RESUME_COMMANDS, events


def reopen_time(path: Path, commands: int) -> float:
    """Median seconds (of 5) to open the journal at `path` and rebuild its game of `commands`."""
    times = []
    for _ in range(5):
        started = time.perf_counter()
        session = Session(path)
        session.open()
        times.append(time.perf_counter() - started)
        assert session._game is not None and len(session._game.applied) == commands
        session.close()
    return statistics.median(times)


def dealt_game(seed: int) -> tuple[dict, list[dict]]:
    """A random legal game of a dealt complex, stopped just before its end (resume only concerns
    unfinished games)."""
    from session_helpers import legal_move

    from companion import engine

    setup = {**DEALT_EIGHT, "seed": seed}
    state = engine.start(setup).state
    rng = random.Random(seed)
    commands: list[dict] = []
    while len(commands) < RESUME_COMMANDS:
        command = legal_move(state, rng)
        if command is None:
            break
        result = engine.apply(state, command)
        if engine.waiting_for(result.state).phase == "over":
            break
        state = result.state
        commands.append(command)
    return setup, commands


def dealt_resume_time() -> tuple[float, int, int]:
    """Seconds to resume the longest of a few random dealt games, scaled to 500 commands."""
    setup, commands = max((dealt_game(seed) for seed in range(12)), key=lambda g: len(g[1]))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "j.sqlite"
        with Session(path) as session:
            assert session.host("new_game", setup=setup).ok
            for command in commands:
                assert session.submit(command).ok
            events = sum(len(a.events) for a in session._game.applied)
        seconds = reopen_time(path, len(commands))
    return seconds * RESUME_COMMANDS / len(commands), len(commands), events


def idle_writer_cpu() -> float:
    """Share of a core the writer thread uses over 10 s with a game waiting for the table."""
    with tempfile.TemporaryDirectory() as folder, Session(Path(folder) / "j.sqlite") as session:
        session.host("new_game", setup={**EIGHT, "time_limit": 600})
        stat = f"/proc/self/task/{session._thread.native_id}/stat"  # type: ignore[union-attr]
        before = cpu_seconds(stat)
        time.sleep(IDLE_SECONDS)
        return (cpu_seconds(stat) - before) / IDLE_SECONDS


def serve_figures() -> tuple[int, float]:
    """RSS (kB) of a real `room25 serve` after a full game over HTTP, then its CPU share over
    10 idle seconds."""
    from serving import Serve, host_of
    from test_serve import step

    with tempfile.TemporaryDirectory() as folder:
        server = Serve(Path(folder) / "data").wait_ready()
        try:
            host = host_of(server)
            step(host)
            game = host.get("/api/view")[1]["game"]
            while True:
                status, body, now = step(host)
                assert status == 200, body
                if now != game:
                    break
            rss = next(
                int(line.split()[1])
                for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines()
                if line.startswith("VmRSS:")
            )
            stat = f"/proc/{server.process.pid}/stat"
            before = cpu_seconds(stat)
            time.sleep(IDLE_SECONDS)
            idle = (cpu_seconds(stat) - before) / IDLE_SECONDS
        finally:
            server.terminate()
        return rss, idle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--inputs", type=int, default=400)
    parser.add_argument("--no-serve", action="store_true", help="skip the serve process figures")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores")
    print(load_line())
    latencies = sorted(notify_latency(args.inputs))
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(
        f"input -> 10 listeners notified (8 seats, public, host), {len(latencies)} inputs: "
        f"median {statistics.median(latencies) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"
    )
    print(load_line())
    published = sorted(publish_times(args.inputs))
    print(
        f"publish one change (10 audiences: views, legal commands, updates, JSON), "
        f"{len(published)} positions: median {statistics.median(published) * 1000:.3f} ms, "
        f"p99 {published[int(len(published) * 0.99)] * 1000:.3f} ms"
    )
    print(load_line())
    seconds, commands, events = resume_time()
    print(f"resume a {commands}-command countdown game ({events} events): {seconds * 1000:.1f} ms")
    seconds, commands, events = dealt_resume_time()
    print(
        f"resume a dealt-complex game, scaled to {RESUME_COMMANDS} commands "
        f"(from {commands} commands, {events} events): {seconds * 1000:.1f} ms"
    )
    print(load_line())
    print(f"writer thread idle for {IDLE_SECONDS:.0f} s: {idle_writer_cpu() * 100:.3f} % of a core")
    if not args.no_serve:
        rss, idle = serve_figures()
        print(f"room25 serve after a full game: RSS {rss / 1024:.1f} MB")
        print(f"room25 serve idle for {IDLE_SECONDS:.0f} s: {idle * 100:.2f} % of a core")
    print(load_line())


if __name__ == "__main__":
    main()
