"""Shared pieces of the hardware tests: a hand-moved clock, a real session with a journal in a
temporary folder, and helpers to wait for what background threads do."""

from __future__ import annotations

import threading
import time
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
    """A clock for the hardware (a callable returning seconds) that only moves when told."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds


def eventually(check: Callable[[], object], timeout: float = 5.0) -> object:
    """Wait for a background thread's effect; fail with the last value after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still {value!r} after {timeout} s")
        time.sleep(0.01)


@pytest.fixture
def ticks() -> Ticks:
    return Ticks()


@pytest.fixture
def config() -> Config:
    return Config()
