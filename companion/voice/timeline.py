"""The announcer's queue played on a virtual clock: given when each update's lines come and how
long each announcement takes to say, what is heard, when, and what is cut or dropped. The
benchmark runs a burst through it with the real clips' lengths; the tests with made-up ones."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .announcer import MAX_LAG, Announcement, Queue
from .script import Line


@dataclass(frozen=True)
class Heard:
    """One announcement as the table hears it: from `start` to `end`, cut or whole."""

    announcement: Announcement
    start: float
    end: float
    cut: bool

    @property
    def lag(self) -> float:
        """Seconds between the update and the start of its announcement."""
        return self.start - self.announcement.at


@dataclass(frozen=True)
class Burst:
    heard: tuple[Heard, ...]
    dropped: int
    cuts: int


def play(
    updates: Iterable[tuple[float, list[Line]]],
    length: Callable[[Announcement], float],
    lag: float = MAX_LAG,
) -> Burst:
    """Run updates (time, lines) through a Queue; `length` says how long an announcement
    lasts when said whole."""
    queue = Queue(lag)
    pending = sorted(updates, key=lambda update: update[0])
    heard: list[Heard] = []
    playing: tuple[Announcement, float, float] | None = None  # what, started, ends
    now = 0.0

    def finish(at: float, cut: bool) -> None:
        nonlocal playing
        assert playing is not None
        heard.append(Heard(playing[0], playing[1], at, cut))
        queue.done(playing[0])
        playing = None

    while pending or queue.waiting is not None or playing is not None:
        times = [pending[0][0]] if pending else []
        if playing is not None:
            times.append(playing[2])
        deadline = queue.deadline()
        if deadline is not None:
            times.append(deadline)
        now = max(now, min(times))
        if playing is not None and playing[2] <= now:
            finish(playing[2], cut=False)
        elif pending and pending[0][0] <= now:
            _, lines = pending.pop(0)
            _, urgent = queue.offer(lines, now)
            if urgent:
                finish(now, cut=True)
        elif queue.expire(now) and playing is not None:
            finish(now, cut=True)
        if playing is None and queue.waiting is not None:
            taken = queue.take()
            assert taken is not None
            playing = (taken, now, now + length(taken))
    return Burst(tuple(heard), queue.dropped, queue.cuts)
