"""The announcer's queue: one announcement speaking and at most one waiting. A later
announcement makes the waiting one stale: it is dropped, and only its lasting lines (the alarm,
an elimination, the end) are carried into the new one. So the voice is never more than one
announcement behind the game, however fast the commands come."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from .script import Line

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Announcement:
    """The lines of one update (with what was carried on), numbered in the order announced."""

    id: int
    lines: tuple[Line, ...]


class Announcer:
    """Hands announcements to `speak` on its own thread, newest first and never a backlog."""

    def __init__(self, speak: Callable[[Announcement], None]) -> None:
        self._speak = speak
        self._ready = threading.Condition()
        self._waiting: Announcement | None = None
        self._speaking = False
        self._closed = False
        self._next_id = 1
        self.dropped = 0
        self._thread = threading.Thread(target=self._run, name="room25-voice", daemon=True)
        self._thread.start()

    def announce(self, lines: list[Line]) -> Announcement | None:
        """Queue an update's lines; the one waiting, if any, becomes stale."""
        if not lines:
            return None
        with self._ready:
            if self._closed:
                return None
            if self._waiting is not None:
                self.dropped += 1
                carried = [line for line in self._waiting.lines if line.lasting]
                lines = list(dict.fromkeys([*carried, *lines]))
            announcement = Announcement(self._next_id, tuple(lines))
            self._next_id += 1
            self._waiting = announcement
            self._ready.notify_all()
            return announcement

    def waiting(self) -> int:
        """Announcements queued behind the one speaking: 0 or 1."""
        with self._ready:
            return 0 if self._waiting is None else 1

    def idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is speaking or waiting (tests, the benchmark, the CLI)."""
        with self._ready:
            return self._ready.wait_for(
                lambda: self._closed or (self._waiting is None and not self._speaking), timeout
            )

    def _run(self) -> None:
        while True:
            with self._ready:
                self._ready.wait_for(lambda: self._waiting is not None or self._closed)
                if self._closed:
                    return
                announcement, self._waiting = self._waiting, None
                self._speaking = True
            try:
                assert announcement is not None
                self._speak(announcement)
            except Exception:  # the voice must never stop the game: log it and go on
                log.exception("announcement %s failed", announcement)
            finally:
                with self._ready:
                    self._speaking = False
                    self._ready.notify_all()

    def close(self, timeout: float = 2.0) -> None:
        with self._ready:
            self._closed = True
            self._waiting = None
            self._ready.notify_all()
        self._thread.join(timeout=timeout)
