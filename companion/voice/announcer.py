"""The announcer's queue: one announcement speaking and at most one waiting, so the voice is
never more than MAX_LAG seconds behind the game, however fast the commands come or however long
a clip is.

Each announcement has the priority of its most urgent line (`priority` in events.json: the end,
an elimination, the alarm, the Timer room, the last turn, whose action, a card's text). A later
announcement replaces the waiting one (only its lasting lines are carried on); a higher one cuts
the one speaking at once. A waiting one that has waited MAX_LAG seconds is stale: it cuts the one
speaking if that one is no more urgent, and is dropped otherwise (its lasting lines wait on).

`Queue` is the decision alone, on a clock it is handed (tests drive it without sleeping);
`Announcer` runs it on threads with the real clock.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from .script import Line

log = logging.getLogger(__name__)

MAX_LAG = 2.0  # seconds an announcement may wait before it is stale


@dataclass(frozen=True)
class Announcement:
    """The lines of one update (with what was carried on), numbered in the order announced,
    with the time it was announced at and the priority of its most urgent line."""

    id: int
    lines: tuple[Line, ...]
    at: float = 0.0

    @property
    def priority(self) -> int:
        return max((line.priority for line in self.lines), default=0)

    @property
    def lasting(self) -> tuple[Line, ...]:
        return tuple(line for line in self.lines if line.lasting)


class Queue:
    """What to say next, decided on the times it is given (no thread, no clock of its own)."""

    def __init__(self, lag: float = MAX_LAG) -> None:
        self.lag = lag
        self.speaking: Announcement | None = None
        self.waiting: Announcement | None = None
        self.dropped = 0  # announcements never heard (replaced or stale)
        self.cuts = 0  # announcements cut while spoken
        self._cut: Announcement | None = None  # the one speaking, once it is told to stop
        self._next_id = 1

    def offer(self, lines: list[Line], now: float) -> tuple[Announcement | None, bool]:
        """Queue an update's lines: the announcement made, and True when it cuts the one
        speaking (it is more urgent)."""
        if not lines:
            return None, False
        if self.waiting is not None:
            self.dropped += 1
            lines = list(dict.fromkeys([*self.waiting.lasting, *lines]))
        announcement = Announcement(self._next_id, tuple(lines), now)
        self._next_id += 1
        self.waiting = announcement
        speaking = self._still_speaking()
        urgent = speaking is not None and announcement.priority > speaking.priority
        if urgent:
            self._cut_off()
        return announcement, urgent

    def _still_speaking(self) -> Announcement | None:
        """The one speaking, unless it has been cut already (its clip is stopping)."""
        return None if self.speaking is self._cut else self.speaking

    def _cut_off(self) -> None:
        self.cuts += 1
        self._cut = self.speaking

    def take(self) -> Announcement | None:
        """The speaker is free: the announcement it says now, if any."""
        self.speaking, self.waiting = self.waiting, None
        return self.speaking

    def done(self, announcement: Announcement) -> None:
        """The announcement was heard to its end, or cut."""
        if self.speaking is announcement:
            self.speaking = None

    def deadline(self) -> float | None:
        """When the waiting announcement goes stale (None: nothing waits behind a speaker)."""
        if self.waiting is None or self._still_speaking() is None:
            return None
        return self.waiting.at + self.lag

    def expire(self, now: float) -> bool:
        """At the deadline: True when the one speaking is cut for the waiting one; otherwise
        the waiting one is dropped (its lasting lines, if any, wait on)."""
        deadline = self.deadline()
        if deadline is None or now < deadline or self.waiting is None or self.speaking is None:
            return False
        if self.waiting.priority >= self.speaking.priority:
            self._cut_off()
            return True
        self.dropped += 1
        kept = self.waiting.lasting
        self.waiting = replace(self.waiting, lines=kept, at=now) if kept else None
        return False


class Announcer:
    """Hands announcements to `speak` on its own thread; `cut(id)` stops the clip of the
    announcement being spoken when the queue says so."""

    def __init__(
        self,
        speak: Callable[[Announcement], None],
        cut: Callable[[int], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._speak = speak
        self._cut = cut
        self._clock = clock
        self._queue = Queue()
        self._ready = threading.Condition()
        self._closed = False
        self._threads = [
            threading.Thread(target=self._run, name="room25-voice", daemon=True),
            threading.Thread(target=self._watch, name="room25-voice-clock", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    @property
    def dropped(self) -> int:
        return self._queue.dropped

    @property
    def cuts(self) -> int:
        return self._queue.cuts

    def announce(self, lines: list[Line]) -> Announcement | None:
        """Queue an update's lines; the one waiting, if any, is replaced."""
        with self._ready:
            if self._closed:
                return None
            announcement, urgent = self._queue.offer(lines, self._clock())
            speaking = self._queue.speaking
            if announcement is not None:  # an update with nothing to say wakes no thread
                self._ready.notify_all()
        if urgent and speaking is not None:
            self._cut_clip(speaking)
        return announcement

    def waiting(self) -> int:
        """Announcements queued behind the one speaking: 0 or 1."""
        with self._ready:
            return 0 if self._queue.waiting is None else 1

    def idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is speaking or waiting (tests, the benchmark, the CLI)."""
        with self._ready:
            return self._ready.wait_for(
                lambda: (
                    self._closed or (self._queue.waiting is None and self._queue.speaking is None)
                ),
                timeout,
            )

    def _cut_clip(self, announcement: Announcement) -> None:
        if self._cut is not None:
            self._cut(announcement.id)

    def _run(self) -> None:
        while True:
            with self._ready:
                self._ready.wait_for(
                    lambda: (
                        self._closed
                        or (self._queue.waiting is not None and self._queue.speaking is None)
                    )
                )
                if self._closed:
                    return
                announcement = self._queue.take()
            assert announcement is not None
            try:
                self._speak(announcement)
            except Exception:  # the voice must never stop the game: log it and go on
                log.exception("announcement %s failed", announcement)
            finally:
                with self._ready:
                    self._queue.done(announcement)
                    self._ready.notify_all()

    def _watch(self) -> None:
        """Wakes at each waiting announcement's deadline: cut the speaker or drop it."""
        while True:
            with self._ready:
                if self._closed:
                    return
                deadline = self._queue.deadline()
                if deadline is None:
                    self._ready.wait()
                    continue
                left = deadline - self._clock()
                if left > 0:
                    self._ready.wait(left)
                    continue
                speaking = self._queue.speaking
                cut = self._queue.expire(self._clock())
                self._ready.notify_all()
            if cut and speaking is not None:
                self._cut_clip(speaking)

    def close(self, timeout: float = 2.0) -> None:
        with self._ready:
            self._closed = True
            self._queue.waiting = None
            self._ready.notify_all()
        for thread in self._threads:
            thread.join(timeout=timeout)
