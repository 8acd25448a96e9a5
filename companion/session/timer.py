"""The programming time limit: optional, per game, paused by the host, with a warning before it
runs out.

When it runs out the game is NOT changed: nobody's action is chosen for them. The table is told
that time is up and the host decides (wait, or have the late seat lock in). The limit restarts
at each programming phase; it is not journaled, so after a restart the current phase gets the
full limit again.
"""

from __future__ import annotations

from dataclasses import dataclass

from .shapes import TimerView


@dataclass
class ProgrammingTimer:
    limit: float = 0.0  # seconds, 0 = off
    warning: float = 15.0
    deadline: float | None = None  # when running
    left_when_paused: float | None = None
    warned: bool = False
    expired: bool = False

    @property
    def enabled(self) -> bool:
        return self.limit > 0

    @property
    def paused(self) -> bool:
        return self.left_when_paused is not None

    def begin(self, now: float) -> None:
        """A programming phase starts: the full limit again."""
        self.deadline = now + self.limit if self.enabled else None
        self.left_when_paused, self.warned, self.expired = None, False, False

    def stop(self) -> None:
        self.deadline, self.left_when_paused, self.warned, self.expired = None, None, False, False

    @property
    def running(self) -> bool:
        return self.deadline is not None or self.paused

    def pause(self, now: float) -> None:
        if self.deadline is not None:
            self.left_when_paused = max(0.0, self.deadline - now)
            self.deadline = None

    def resume(self, now: float) -> None:
        if self.left_when_paused is not None:
            self.deadline = now + self.left_when_paused
            self.left_when_paused = None

    def next_deadline(self) -> float | None:
        """The next moment the writer must wake: the warning, then the end."""
        if self.deadline is None or self.expired:
            return None
        warn_at = self.deadline - self.warning
        return warn_at if not self.warned and self.warning > 0 else self.deadline

    def due(self, now: float) -> list[str]:
        """What happened by `now`: "warning" and/or "expired", each once per phase."""
        happened: list[str] = []
        if self.deadline is None or self.expired:
            return happened
        if not self.warned and self.warning > 0 and now >= self.deadline - self.warning:
            self.warned = True
            happened.append("warning")
        if now >= self.deadline:
            self.warned = self.expired = True
            happened.append("expired")
        return happened

    def left(self, now: float) -> float | None:
        if self.left_when_paused is not None:
            return self.left_when_paused
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - now)

    def as_dict(self, now: float) -> TimerView | None:
        if not self.enabled:
            return None
        left = self.left(now)
        return {"left": None if left is None else round(left, 1), "limit": self.limit}
