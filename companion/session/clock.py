"""Time for the session, injected so that tests never sleep.

The writer thread blocks on its queue; a clock says how long it may block before the next
deadline (the programming time limit), and a clock that jumps (the tests' `FakeClock`) wakes the
writer itself when a deadline passes. Nothing here polls.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

Wake = Callable[[], None]


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale."""
        ...

    def wall(self) -> float:
        """Seconds since the epoch: what a time kept across a restart is measured in."""
        ...

    def schedule(self, deadline: float | None, wake: Wake) -> float | None:
        """Arrange to be woken at `deadline` (None: no deadline). Returns how long the writer may
        block on its queue before it must look at the time again (None: until woken)."""
        ...


class SystemClock:
    """The real clock: the writer's queue timeout is the wake-up."""

    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def schedule(self, deadline: float | None, wake: Wake) -> float | None:
        if deadline is None:
            return None
        return max(0.0, deadline - time.monotonic())


class FakeClock:
    """A clock the tests move by hand: `advance` calls the wake-up of a deadline it passes."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._deadline: float | None = None
        self._wake: Wake | None = None

    def now(self) -> float:
        with self._lock:
            return self._now

    def wall(self) -> float:
        """The same hand-moved time: a test restarts on a later clock to say hours went by."""
        return self.now()

    def schedule(self, deadline: float | None, wake: Wake) -> float | None:
        with self._lock:
            self._deadline, self._wake = deadline, wake
        return None

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds
            due = self._deadline is not None and self._now >= self._deadline
            wake = self._wake
        if due and wake is not None:
            wake()
