"""The lessons catalogue (`lessons.json`) as typed entries, and a lesson's card in words."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources

from companion import engine
from companion.engine.kernel.catalogue import colour
from companion.words import text


@dataclass(frozen=True)
class Lesson:
    """One lesson: its id, the public events that trigger it (any of `when`), the rule at a tap
    it shows (None: its own text), and the rulebook section it is written from."""

    id: str
    when: tuple[Mapping[str, object], ...]
    rule: str | None
    source: str

    def triggered_by(self, event: Mapping[str, object]) -> bool:
        """Whether one public event is one of this lesson's triggers."""
        return any(_matches(trigger, event) for trigger in self.when)


def _matches(trigger: Mapping[str, object], event: Mapping[str, object]) -> bool:
    if event.get("type") != trigger["event"]:
        return False
    for field, wanted in trigger.items():
        if field == "event":
            continue
        if field == "colour":
            room = event.get("room")
            if not isinstance(room, str) or colour(room) != wanted:
                return False
        elif event.get(field) != wanted:
            return False
    return True


def _load() -> tuple[Lesson, ...]:
    data = json.loads(resources.files(__package__).joinpath("lessons.json").read_text("utf-8"))
    return tuple(
        Lesson(id=e["id"], when=tuple(e["when"]), rule=e["rule"], source=e["source"])
        for e in data["lessons"]
    )


LESSONS: tuple[Lesson, ...] = _load()
_BY_ID = {found.id: found for found in LESSONS}


def lesson(lesson_id: str) -> Lesson:
    """A lesson by its id; KeyError for one the catalogue does not have."""
    return _BY_ID[lesson_id]


def lesson_card(lesson_id: str, lang: str, edition: str = "base") -> dict[str, str]:
    """What a lesson says in a language: its name, the sentences spoken, and the full rule text
    (the rule at a tap when it has one, as the edition decides it)."""
    found = lesson(lesson_id)
    key = f"lessons_{found.id}"
    rule = (
        engine.rule_text(found.rule, lang, edition).text
        if found.rule
        else text(lang, f"{key}_text")
    )
    return {"id": found.id, **lesson_said(found.id, lang), "rule": rule}


def lesson_said(lesson_id: str, lang: str) -> dict[str, str]:
    """A lesson as the voice says it: its name and its one or two sentences."""
    key = f"lessons_{lesson(lesson_id).id}"
    return {"name": text(lang, f"{key}_name"), "said": text(lang, f"{key}_said")}
