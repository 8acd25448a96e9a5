"""What the table was taught this evening, kept beside the journal so a restart does not teach
it again, and whether the host wants teaching at all."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from companion.teaching import Teacher, lesson

from .notices import Notice

log = logging.getLogger(__name__)

FILE = "taught.json"


class TaughtBook:
    """The evening's lessons on disk: `{"on": bool, "taught": [lesson ids]}`. Off until the host
    asks for it (a table that knows the game is not taught). An unreadable file is an evening
    that taught nothing yet (teaching is never worth refusing a game for)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.on, taught = self._read()
        self._teacher = Teacher(taught)
        self._shown = 0

    def _read(self) -> tuple[bool, list[str]]:
        try:
            found = json.loads(self.path.read_text("utf-8"))
            return bool(found.get("on", False)), [str(t) for t in found.get("taught", [])]
        except FileNotFoundError:
            return False, []
        except (OSError, ValueError, AttributeError) as error:
            log.warning("lessons taught unreadable (%s): starting afresh", error)
            return False, []

    @property
    def taught(self) -> list[str]:
        return list(self._teacher.taught)

    def hear(self, public_events: Iterable[Mapping[str, object]]) -> list[str]:
        """The lessons a change's public events fire (none while teaching is off), written."""
        if not self.on:
            return []
        found = self._teacher.hear(public_events)
        if found:
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
        self._write()

    def _write(self) -> None:
        try:
            part = self.path.with_suffix(".part")
            part.write_text(json.dumps({"on": self.on, "taught": self.taught}), "utf-8")
            os.replace(part, self.path)
        except OSError as error:
            log.warning("lessons taught not written (%s)", error)
