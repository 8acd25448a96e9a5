"""Shared pieces of the hardware tests: a hand-moved clock, a real session with a journal in a
temporary folder (waiting on background threads: tests/waiting.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from companion.config import Config

# Base Suspicion at five seats with token programming: a seat button press is a whole lock-in.
TOKENS_GAME = {
    "edition": "base",
    "mode": "suspicion",
    "players": 5,
    "settings": {"programming": "tokens"},
}


class Ticks:
    """A clock for the hardware (a callable returning seconds) that only moves when told, with
    the timers of `companion.hardware.buttons.Timers` on it: what falls due runs in `advance`,
    in order, at its own moment."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start
        self._lock = threading.Lock()
        self._due: list[list] = []  # [when, order, action, cancelled]
        self._made = 0

    def __call__(self) -> float:
        with self._lock:
            return self.now

    def after(self, delay: float, action: Callable[[], None]) -> _Timer:
        with self._lock:
            self._made += 1
            entry = [self.now + delay, self._made, action, False]
            self._due.append(entry)
            return _Timer(entry)

    def advance(self, seconds: float) -> None:
        """Move on by `seconds`, running each timer due on the way at its moment (outside the
        clock's lock: an action may take locks that other threads hold while reading it)."""
        with self._lock:
            end = self.now + seconds
        while True:
            with self._lock:
                live = [e for e in self._due if not e[3] and e[0] <= end]
                if not live:
                    self._due = [e for e in self._due if not e[3]]
                    self.now = end
                    return
                entry = min(live, key=lambda e: (e[0], e[1]))
                self._due.remove(entry)
                self.now = max(self.now, entry[0])
            entry[2]()

    @property
    def pending(self) -> int:
        """Timers set and not yet run nor cancelled."""
        with self._lock:
            return sum(1 for e in self._due if not e[3])


class _Timer:
    def __init__(self, entry: list) -> None:
        self._entry = entry

    def cancel(self) -> None:
        self._entry[3] = True


@pytest.fixture
def ticks() -> Ticks:
    return Ticks()


@pytest.fixture
def config() -> Config:
    return Config()
