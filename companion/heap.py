"""The C heap of `room25 serve`, kept small for a Pi Zero 2 W's 512 MB (issue 29, point 7).

glibc gives each thread that allocates its own arena (up to eight per core), and memory freed in
an arena stays in the process: the server's forty threads (waitress' pool, the streams, the
session's writer, the hardware, the voice) each kept what their largest answer had needed (a
replay's JSON, the history of 200 games). Two arenas are enough for a table's load, and after a
large answer the freed pages are handed back. Elsewhere than glibc (musl, macOS) both do nothing.

An evening's many small answers (each update's views and JSON for every stream) leave free pages
scattered in the heap as well, which no single large answer hands back: about 0.9 MB after the
memory benchmark's 2,000 updates. A thread looks at the resident set once a second and hands
them back when it has grown by half a megabyte since it last did, so a table at rest holds what
it uses. A look is one read of /proc/self/statm; a trim, done only then, runs outside the GIL.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Callable
from pathlib import Path

M_ARENA_MAX = -8  # glibc's mallopt parameter
ARENAS = 2
GROWTH = 512 * 1024  # bytes the resident set grows by before the heap is trimmed again
EVERY = 1.0  # seconds between two looks at the resident set
STATM = Path("/proc/self/statm")


def _libc() -> ctypes.CDLL | None:
    """The C library the process runs on, found among what it has loaded (`ctypes.util` would
    run `ldconfig` to name a file, and import 0.1 MB of code to do it)."""
    try:
        found = ctypes.CDLL(None)
    except OSError:
        return None
    return found if hasattr(found, "mallopt") and hasattr(found, "malloc_trim") else None


LIBC = _libc()


def limit_arenas(arenas: int = ARENAS) -> bool:
    """At most `arenas` malloc arenas from now on (call it before the threads start); whether
    the C library took it."""
    return LIBC is not None and LIBC.mallopt(M_ARENA_MAX, arenas) == 1


def give_back() -> bool:
    """Hand the heap's free pages back to the system (after a large answer was sent); whether
    any were."""
    return LIBC is not None and LIBC.malloc_trim(0) == 1


def resident() -> int:
    """The process's resident set, in bytes (Linux's /proc)."""
    return int(STATM.read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class Trimmer:
    """Hands the heap's free pages back when the resident set has grown by `growth` bytes
    since it last did (or since it was made): memory that is used is not looked at again
    until it grows by as much once more."""

    def __init__(
        self,
        measure: Callable[[], int] = resident,
        trim: Callable[[], bool] = give_back,
        growth: int = GROWTH,
    ) -> None:
        self.measure, self.trim, self.growth = measure, trim, growth
        self.held = measure()

    def check(self) -> bool:
        """Trim if the resident set has grown enough; whether it was trimmed."""
        if self.measure() - self.held < self.growth:
            return False
        self.trim()
        self.held = self.measure()
        return True


def keep_trimmed(stop: threading.Event, every: float = EVERY) -> threading.Thread | None:
    """A thread that checks a Trimmer every `every` seconds until `stop` is set; None where
    there is nothing to trim with (no glibc) or no resident set to read (no /proc)."""
    if LIBC is None or not STATM.is_file():
        return None
    trimmer = Trimmer()

    def run() -> None:
        while not stop.wait(every):
            trimmer.check()

    thread = threading.Thread(target=run, name="room25-heap", daemon=True)
    thread.start()
    return thread
