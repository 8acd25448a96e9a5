"""The programming clock's room of the session: the limit starts with each programming phase
and stops with it, and its warning and its end are told to every screen (timer.py keeps the
clock itself)."""

from __future__ import annotations

from companion import engine

from .core import SessionCore, log
from .notices import Notice
from .timer import ProgrammingTimer


class Timing(SessionCore):
    """The session's programming clock, run by the writer."""

    def _apply_options(self, options: dict) -> None:
        self._timer = ProgrammingTimer(
            float(options.get("time_limit", 0)), float(options.get("warning", 15))
        )

    @staticmethod
    def _entered_programming(events: list[dict]) -> bool:
        return any(e["type"] == "phase" and e.get("phase") == "programming" for e in events)

    def _sync_timer(self, entering: bool) -> None:
        """Start the limit when a programming phase begins, stop it when it ends."""
        programming = self._game is not None and self._game.state.phase == "programming"
        if not programming:
            self._timer.stop()
            self._notices.pop("timer", None)
        elif entering or not self._timer.running:
            self._timer.begin(self.clock.now())
            self._notices.pop("timer", None)

    def _check_timer(self) -> None:
        """The warning and the end of the programming time, told to everyone as a notice and a
        session event (`time_warning`, `time_up`) the buzzer can sound; the game is unchanged."""
        happened = self._timer.due(self.clock.now())
        if not happened:
            return
        if "expired" in happened:
            waiting = engine.waiting_for(self._game.state).as_dict() if self._game else {}
            late = list(waiting.get("seats", []))
            log.info("programming time is up (still programming: %s)", ", ".join(late) or "-")
            self._notice("timer", Notice("time_up", {"seats": late}), publish=False)
            self._publish([{"type": "time_up", "seats": late}])
        else:
            left = round(self._timer.left(self.clock.now()) or 0)
            self._notice("timer", Notice("seconds_left", {"left": left}), publish=False)
            self._publish([{"type": "time_warning", "left": left}])

    def _time_is_up(self) -> bool:
        return self._game is not None and self._timer.expired and "timer" in self._notices
