"""The heap handed back as an evening goes (companion/heap.py, issue 29 point 7): a trim when
the resident set has grown by enough since the last, none otherwise, and a real one hands back
the free pages that many small answers leave scattered."""

from __future__ import annotations

import platform
import subprocess
import sys
import threading

import pytest

from companion import heap

SCATTERED = """
from companion import heap
kept, freed = [], []
for n in range(120_000):  # heap-allocated answers, one in eight kept: free pages between them
    (kept if n % 8 == 0 else freed).append(bytes(700 + n % 800))
freed.clear()
trimmer = heap.Trimmer(growth=1)
trimmer.held = 0
before = heap.resident()
print(trimmer.check(), before - heap.resident())
"""


def test_a_trim_once_the_resident_set_has_grown_enough() -> None:
    sizes, trims = [100, 150, 200, 180, 190, 260], []
    trimmer = heap.Trimmer(lambda: sizes.pop(0), lambda: trims.append(True) or True, growth=100)
    assert [trimmer.check() for _ in range(2)] == [False, True]  # 150, then 200: grown by 100
    assert trimmer.held == 180 and trims == [True]  # what it held after the trim
    assert [trimmer.check(), trimmer.check()] == [False, False]  # 190, 260: not 100 past 180
    assert len(trims) == 1


def test_the_thread_stops_with_the_server() -> None:
    stop = threading.Event()
    thread = heap.keep_trimmed(stop, every=0.01)
    if heap.LIBC is None:
        assert thread is None
        return
    assert thread is not None and thread.is_alive()
    stop.set()
    thread.join(timeout=10)
    assert not thread.is_alive()


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_a_trim_hands_scattered_free_pages_back() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCATTERED], capture_output=True, check=True, timeout=60, text=True
    ).stdout.split()
    assert done[0] == "True" and int(done[1]) > 4 * 2**20, done  # 70 MB allocated, 60 freed
