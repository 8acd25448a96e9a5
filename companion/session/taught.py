"""What the table was taught this evening, kept beside the journal so a restart does not teach
it again, whether the host wants teaching at all, and the set-up step the table is at (a plug
pulled mid set-up comes back to the same step)."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.teaching import Teacher, lesson

from .notices import Notice

log = logging.getLogger(__name__)

FILE = "taught.json"
# An evening ends after this long without a lesson, a set-up step or a command while the table
# is taught (docs/teaching.md, "An evening"): longer than any break of one evening, shorter
# than the night and the day between two.
QUIET = 6 * 3600.0
# The last moment of play on disk may lag this far behind (seconds): a command writes the file
# only when what it holds is older, so a pulled plug loses at most this much of the evening.
STALE = 600.0


@dataclass(frozen=True)
class WalkMark:
    """Which game's set-up walk the table is in, and at which step: all a restart needs, the
    steps themselves being the game's (teaching/setup.py builds them again from its record)."""

    game: str
    at: int


class TaughtBook:
    """The evening's lessons on disk: `{"on": bool, "taught": [lesson ids], "last": seconds
    since the epoch of the table's last play, "walk": {"game", "at"} or null}`. Off until the
    host asks for it (a table that knows the game is not taught). An unreadable file is an
    evening that taught nothing yet (teaching is never worth refusing a game for)."""

    def __init__(self, path: Path, wall: Callable[[], float]) -> None:
        self.path = path
        self._wall = wall
        self.on, taught, self.last, self.walk = self._read()
        self._teacher = Teacher(taught)
        self._shown = 0
        self._ended()

    def _read(self) -> tuple[bool, list[str], float | None, WalkMark | None]:
        try:
            found = json.loads(self.path.read_text("utf-8"))
            last = found.get("last")
            return (
                bool(found.get("on", False)),
                [str(t) for t in found.get("taught", [])],
                float(last) if isinstance(last, int | float) else None,
                _walk_mark(found.get("walk")),
            )
        except FileNotFoundError:
            return False, [], None, None
        except (OSError, ValueError, AttributeError, TypeError) as error:
            log.warning("lessons taught unreadable (%s): starting afresh", error)
            return False, [], None, None

    @property
    def taught(self) -> list[str]:
        return list(self._teacher.taught)

    def _ended(self) -> bool:
        """Whether the evening ended since the table last played (what it taught is then
        forgotten: the next table, or the same one the day after, is taught again)."""
        if self.last is None or self._wall() - self.last < QUIET:
            return False
        if self._teacher.taught:
            log.info("a new evening: %d lessons taught before are taught again", len(self.taught))
        self._teacher = Teacher()
        self.last = None
        return True

    def _played(self) -> bool:
        """The table played now; whether the file must say so (an evening ended, or what it
        holds is stale)."""
        ended = self._ended()
        now = self._wall()
        stale = self.last is None or now - self.last >= STALE
        if stale:
            self.last = now
        return ended or stale

    def hear(self, public_events: Iterable[Mapping[str, object]]) -> list[str]:
        """The lessons a change's public events fire (none while teaching is off), written."""
        if not self.on:
            return []
        written = self._played()
        found = self._teacher.hear(public_events)
        if found or written:
            self._write()
        return found

    def notice(self, lessons: list[str]) -> Notice:
        """The table's lesson notice: the lessons and which showing this is, so that a page that
        closed a lesson's card shows it again when the host replays it (the same lessons, a new
        showing) and the voice says it again. `rules` are the rules at a tap the cards open
        (None: the lesson's text is its own)."""
        self._shown += 1
        rules = [lesson(found).rule for found in lessons]
        return Notice("lesson", {"lessons": lessons, "rules": rules, "shown": self._shown})

    def turn(self, on: bool) -> None:
        """The host's setting: teach, or not."""
        self.on = on
        self._played()
        self._write()

    def walked(self, mark: WalkMark | None) -> None:
        """The set-up step the table is at now (None: no walk), written when it moved."""
        if mark == self.walk:
            return
        self.walk = mark
        self._played()
        self._write()

    def _write(self) -> None:
        """Whole or not at all, and on the card before it counts: a pulled plug leaves the file
        before or after, never half of it."""
        walk = None if self.walk is None else {"game": self.walk.game, "at": self.walk.at}
        kept = {"on": self.on, "taught": self.taught, "last": self.last, "walk": walk}
        part = self.path.with_suffix(".part")
        try:
            with part.open("w", encoding="utf-8") as out:
                json.dump(kept, out)
                out.flush()
                os.fsync(out.fileno())
            os.replace(part, self.path)
        except OSError as error:
            log.warning("lessons taught not written (%s)", error)


def _walk_mark(found: object) -> WalkMark | None:
    """A walk as the file holds it; anything else is no walk (the table presses Next again)."""
    if not isinstance(found, dict):
        return None
    game, at = found.get("game"), found.get("at")
    if not isinstance(game, str) or isinstance(at, bool) or not isinstance(at, int) or at < 0:
        return None
    return WalkMark(game, at)
