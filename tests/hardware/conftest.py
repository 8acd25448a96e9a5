"""Shared pieces of the hardware tests: a hand-moved clock, a real session with a journal in a
temporary folder, and helpers to wait for what background threads do."""

from __future__ import annotations

import threading

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


@pytest.fixture
def ticks() -> Ticks:
    return Ticks()


@pytest.fixture
def config() -> Config:
    return Config()
