"""What the simulator says of a composition, beside how the table fares with it: `room25
simulate`'s heuristic players, a fixed number of games from a fixed seed, so the same
composition always gets the same rates. Worked out once and kept in the data directory
(`simulated.json`): about 3 s a composition on a desktop core, several times that on a Pi, which
the host page must not wait for each time."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from companion import __version__

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

log = logging.getLogger(__name__)
GAMES = 100
# A smaller run where the rates themselves do not matter (a test's own companion): the work runs
# at a low priority, and on a busy machine a hundred games there take minutes.
GAMES_SETTING = "ROOM25_SIMULATED_GAMES"
SEED = 25
POLICY = "heuristic"
CACHE_NAME = "simulated.json"


def cache_key(setup: dict) -> str:
    """The cache's key for a simulation setup: the setup, the run's size and the companion's
    version (a newer engine or simulator may give other rates)."""
    return json.dumps([setup, games(), SEED, POLICY, __version__], sort_keys=True)


def games() -> int:
    """How many games a composition's rates are worked out from."""
    return int(os.environ.get(GAMES_SETTING) or GAMES)


class Simulated:
    """The simulated rates of a data directory: read from its cache, worked out when missing.
    Safe to share between threads; one simulation runs at a time."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / CACHE_NAME
        self._lock = threading.Lock()
        self._running = threading.Lock()
        self._pending: set[str] = set()

    def _read(self) -> dict:
        try:
            found = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return found if isinstance(found, dict) else {}

    def cached(self, setup: dict) -> dict | None:
        """The rates kept for this setup, or None when they were never worked out."""
        with self._lock:
            return self._read().get(cache_key(setup))

    def pending(self, setup: dict) -> bool:
        with self._lock:
            return cache_key(setup) in self._pending

    def rates(self, setup: dict) -> dict:
        """The rates for this setup, worked out now if they are not kept yet."""
        found = self.cached(setup)
        if found is not None:
            return found
        with self._running:
            found = self.cached(setup)
            if found is None:
                found = _run(setup)
                self._keep(setup, found)
        return found

    def in_background(self, setup: dict) -> None:
        """Work the rates out in a process of their own, at a lower priority, so the games
        being played keep the server's time (the host page asks again later)."""
        key = cache_key(setup)
        with self._lock:
            if key in self._pending:
                return
            self._pending.add(key)

        def work() -> None:
            try:
                with self._running:
                    if self.cached(setup) is None:
                        self._keep(setup, _apart(setup))
            except Exception:  # the next look at the history tries again
                log.exception("simulating %s", setup)
            finally:
                with self._lock:
                    self._pending.discard(key)

        threading.Thread(target=work, name="room25-simulated", daemon=True).start()

    def _keep(self, setup: dict, found: dict) -> None:
        """Written whole to a new file, then renamed: a reader never sees half a file."""
        with self._lock:
            kept = self._read()
            kept[cache_key(setup)] = found
            fresh = self.path.with_name(self.path.name + ".new")
            try:
                fresh.write_text(json.dumps(kept), encoding="utf-8")
                os.replace(fresh, self.path)
            except OSError:
                pass  # a read-only data directory: worked out again next time


def _apart(setup: dict) -> dict:
    """`_run` in a process of its own, spawned (not forked from the server's threads), niced;
    a server stopping meanwhile does not wait for it, and it ends with the server."""
    spawn = multiprocessing.get_context("spawn")
    reader, writer = spawn.Pipe(duplex=False)
    child = spawn.Process(target=_child, args=(setup, writer, os.getpid()), daemon=True)
    child.start()
    writer.close()
    try:
        return reader.recv()
    finally:
        child.join()


def _child(setup: dict, writer: Connection, server: int) -> None:
    os.nice(10)
    threading.Thread(target=_end_with, args=(server,), daemon=True).start()
    writer.send(_run(setup))


def _end_with(server: int) -> None:
    """Stop as soon as the server is gone, however it went (even killed outright)."""
    while os.getppid() == server:
        time.sleep(1)
    os._exit(0)


def _run(setup: dict) -> dict:
    """The simulator's rates per result for one setup; a setup it cannot play has none. The
    simulator is imported here, in the child that plays (`_apart`), or by `room25 simulate`:
    a server that only reads kept rates never holds it (2.4 MB, issue 29 point 7)."""
    from companion.sim.simulate import simulate

    try:
        summary = simulate(setup, games(), SEED, policy=POLICY)
    except (ValueError, RuntimeError) as error:
        return {"games": 0, "results": {}, "counts": {}, "problem": str(error)}
    figures = summary.as_dict()
    return {"games": figures["games"], "results": figures["results"], "counts": figures["counts"]}
