"""The C heap of `room25 serve`, kept small for a Pi Zero 2 W's 512 MB (issue 29, point 7).

glibc gives each thread that allocates its own arena (up to eight per core), and memory freed in
an arena stays in the process: the server's forty threads (waitress' pool, the streams, the
session's writer, the hardware, the voice) each kept what their largest answer had needed (a
replay's JSON, the history of 200 games). Two arenas are enough for a table's load, and after a
large answer the freed pages are handed back. Elsewhere than glibc (musl, macOS) both do nothing.
"""

from __future__ import annotations

import ctypes

M_ARENA_MAX = -8  # glibc's mallopt parameter
ARENAS = 2


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
