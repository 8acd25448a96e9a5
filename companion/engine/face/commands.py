"""The engine's edge: one frozen dataclass per command type, and the JSON Schema of every
command, generated from the same dataclasses.

Phones, seat buttons, the serial panel and the host page all send the wire form (JSON objects);
`reading.parse` turns one into a typed command or refuses it in plain words, so the rules read
typed fields and never a raw dictionary.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from ..kernel import grid
from ..kernel.catalogue import rooms as room_catalogue
from ..kernel.state import ACTIONS, HOST, SEAT_IDS, TALENT

# The names a seat or a cell field may hold: the parser and the schema both read these.
SEAT_NAMES = (*SEAT_IDS, HOST)
CELL_NAMES = grid.NAMES  # "A1" to "E5"
DIRECTIONS = ("north", "south", "east", "west")
TOKENS = (*ACTIONS, TALENT)
REPORTS = ("entered_room25", "entered_timer", "eliminated", "escaped")

# What each kind of field holds; the parser and the schema both read this table.
WORD, CELL_NAME, ACTION, DIRECTION, ROOM, CELLS, WORDS, FLAG, REPORT = (
    "word",
    "cell",
    "action",
    "direction",
    "room",
    "cells",
    "words",
    "flag",
    "report",
)


def _field(kind: str, wire: str | None = None, default: Any = None) -> Any:
    return field(default=default, metadata={"kind": kind, "wire": wire})


@dataclass(frozen=True)
class Command:
    """What every command carries: who sends it, and the version it was made against."""

    type: ClassVar[str]
    host_may_send: ClassVar[bool] = False  # the table itself may send it as seat "host"
    host_only: ClassVar[bool] = False  # only the table itself (seat "host") may send it
    seat: str
    version: int | None = None


@dataclass(frozen=True)
class Clue(Command):
    """The starting clue: a look at one room next to the Central room."""

    type: ClassVar[str] = "clue"
    cell: str | None = _field(CELL_NAME)
    room: str | None = _field(ROOM)


@dataclass(frozen=True)
class Program(Command):
    """Secret programming of one character, by app (token programming uses `lock`)."""

    type: ClassVar[str] = "program"
    character: str | None = _field(WORD)
    actions: tuple[str, ...] | None = _field(WORDS)
    adrenaline: bool = _field(FLAG, default=False)
    talent_choice: str | None = _field(WORD)
    lock_in: bool = _field(FLAG, default=True)


@dataclass(frozen=True)
class Parameters(Command):
    """The fields an action, a talent or an answer to a choice may need."""

    direction: str | None = _field(DIRECTION)
    cell: str | None = _field(CELL_NAME)
    cells: tuple[str, ...] | None = _field(CELLS)
    target: str | None = _field(WORD)
    robot: str | None = _field(CELL_NAME)
    order: str | None = _field(WORD)
    line: str | None = _field(WORD)
    ability: str | None = _field(WORD)
    mimic: str | None = _field(WORD)
    from_: str | None = _field(CELL_NAME, wire="from")
    answer: str | None = _field(WORD)
    card: str | None = _field(WORD)
    token: str | None = _field(WORD)
    room: str | None = _field(ROOM)

    def parameters(self) -> dict[str, Any]:
        """The parameters given, by their wire names (a talent's options are written so)."""
        found: dict[str, Any] = {}
        for name, wire in PARAMETER_NAMES:
            value = getattr(self, name)
            if value is not None:
                found[wire] = list(value) if isinstance(value, tuple) else value
        return found


@dataclass(frozen=True)
class Act(Parameters):
    """The action of the character whose turn it is: the programmed token, or a chosen one."""

    type: ClassVar[str] = "act"
    character: str | None = _field(WORD)
    action: str | None = _field(ACTION)


@dataclass(frozen=True)
class Choose(Parameters):
    """The answer to a choice the rules ask for in the middle of an action or a card."""

    type: ClassVar[str] = "choose"
    host_may_send: ClassVar[bool] = True
    character: str | None = _field(WORD)


@dataclass(frozen=True)
class Wait(Command):
    """A single programmed action kept for the second round."""

    type: ClassVar[str] = "wait"
    character: str | None = _field(WORD)


@dataclass(frozen=True)
class Pass(Command):
    """No action in this round (Solo; with token programming, an empty pedestal slot)."""

    type: ClassVar[str] = "pass"
    character: str | None = _field(WORD)


@dataclass(frozen=True)
class Reminder(Command):
    """A reminder token on a hidden room, during one's own turn."""

    type: ClassVar[str] = "reminder"
    cell: str | None = _field(CELL_NAME)


@dataclass(frozen=True)
class Expose(Command):
    """A guard exposes himself during his turn (Suspicion)."""

    type: ClassVar[str] = "expose"
    character: str | None = _field(WORD)


@dataclass(frozen=True)
class Next(Command):
    """Countdown-only games: the current action is done."""

    type: ClassVar[str] = "next"
    host_may_send: ClassVar[bool] = True


@dataclass(frozen=True)
class Report(Command):
    """Countdown-only games: an event at the table that matters to the countdown."""

    type: ClassVar[str] = "report"
    host_may_send: ClassVar[bool] = True
    event: str | None = _field(REPORT)
    character: str | None = _field(WORD)
    characters: tuple[str, ...] | None = _field(WORDS)


@dataclass(frozen=True)
class Correct(Command):
    """Physical tiles: the host corrects the earlier reports about a face-down room, which are
    forgotten (by the engine and in every notebook) until the room is seen again."""

    type: ClassVar[str] = "correct"
    host_may_send: ClassVar[bool] = True
    host_only: ClassVar[bool] = True
    cell: str | None = _field(CELL_NAME)


@dataclass(frozen=True)
class Lock(Command):
    """A seat locks in: every living character of the seat is ready (the seat button)."""

    type: ClassVar[str] = "lock"


@dataclass(frozen=True)
class Unlock(Command):
    """A seat changes its mind before everyone is locked in (a second press)."""

    type: ClassVar[str] = "unlock"


TYPES = (
    Clue,
    Program,
    Act,
    Wait,
    Pass,
    Choose,
    Reminder,
    Expose,
    Next,
    Report,
    Correct,
    Lock,
    Unlock,
)
COMMAND_TYPES: dict[str, type[Command]] = {cls.type: cls for cls in TYPES}
# A talent's or a robot order's parameters; the room is the table's report, not a parameter.
PARAMETER_NAMES = tuple(
    (f.name, f.metadata["wire"] or f.name)
    for f in fields(Parameters)
    if f.name not in ("seat", "version", "room")
)


def _specs(cls: type[Command]) -> dict[str, tuple[str, str]]:
    """Wire name -> (attribute, kind) of a command type's fields."""
    found = {"seat": ("seat", "seat"), "version": ("version", "version")}
    for f in fields(cls):
        if "kind" in f.metadata:
            found[f.metadata["wire"] or f.name] = (f.name, f.metadata["kind"])
    return found


SPECS = {name: _specs(cls) for name, cls in COMMAND_TYPES.items()}


def build(cls: type[Command], values: dict[str, object]) -> Command:
    """A command from checked values. The generated `__init__` of a frozen dataclass sets every
    field through `object.__setattr__`, eighteen of them for an act, which was most of the cost
    of a command; the fields a command leaves out read their defaults from the class, so only
    the given ones are stored. Equality, hashing and `repr` are the dataclass's own."""
    command = object.__new__(cls)
    command.__dict__.update(values)
    return command


def wire(command: Command) -> dict[str, object]:
    """The wire form of a typed command (what `parse` reads back to the same command)."""
    found: dict[str, object] = {"type": command.type}
    for name, (attr, _kind) in SPECS[command.type].items():
        value = getattr(command, attr)
        if value is not None:
            found[name] = list(value) if isinstance(value, tuple) else value
    return found


def _schema_of(kind: str) -> dict[str, Any]:
    word = {"type": "string", "minLength": 1, "maxLength": 40}
    cell = {"enum": list(CELL_NAMES)}
    shapes: dict[str, dict[str, Any]] = {
        "seat": {"enum": list(SEAT_NAMES)},
        "version": {"type": "integer", "minimum": 0},
        FLAG: {"type": "boolean"},
        WORD: word,
        CELL_NAME: cell,
        ACTION: {"enum": list(TOKENS)},
        DIRECTION: {"enum": list(DIRECTIONS)},
        REPORT: {"enum": list(REPORTS)},
        ROOM: {"enum": sorted(room_catalogue())},
        CELLS: {"type": "array", "items": cell, "maxItems": 8},
        WORDS: {"type": "array", "items": word, "maxItems": 8},
    }
    properties: dict[str, Any] = {"type": {"const": kind}}
    for name, (_attr, shape) in SPECS[kind].items():
        properties[name] = shapes[shape]
    if COMMAND_TYPES[kind].host_only:
        properties["seat"] = {"const": HOST}
    return {
        "type": "object",
        "title": kind,
        "description": (COMMAND_TYPES[kind].__doc__ or "").strip(),
        "properties": properties,
        "required": ["type", "seat"],
        "additionalProperties": False,
    }


COMMAND_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Room 25 command",
    "description": (
        "A field is given with a value or left out: none takes null, and a null one is "
        "refused (field_is_null) rather than read as left out."
    ),
    "oneOf": [{"$ref": f"#/$defs/{kind}"} for kind in COMMAND_TYPES],
    "$defs": {kind: _schema_of(kind) for kind in COMMAND_TYPES},
}

__all__ = ["COMMAND_SCHEMA", "COMMAND_TYPES", "HOST", "Command", "wire"]
