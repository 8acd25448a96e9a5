"""Reading a command from its wire form, once, at the edge of `apply`: each field's shape is
checked (a word, a cell "C3", a list of actions) and the first wrong one is refused in plain
words; whether the rules allow the command now is the rules' business. Apart from the command
types (`commands.py`) so that the optional compiled build compiles this, the part every
command goes through.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..kernel.context import Refused
from .commands import (
    ACTION,
    CELL_NAME,
    CELL_NAMES,
    CELLS,
    COMMAND_TYPES,
    DIRECTION,
    DIRECTIONS,
    FLAG,
    REPORT,
    REPORTS,
    ROOM,
    SEAT_NAMES,
    SPECS,
    TOKENS,
    WORD,
    WORDS,
    Command,
    build,
)

_SEATS: Final = frozenset(SEAT_NAMES)
_CELLS: Final = frozenset(CELL_NAMES)


def _seat(value: object, wire: str) -> str:
    if not isinstance(value, str) or value not in _SEATS:
        raise Refused("unknown_seat", seat=str(value)[:20])
    return value


def _version(value: object, wire: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Refused("field_not_a_version")
    return value


def _flag(value: object, wire: str) -> bool:
    if not isinstance(value, bool):
        raise Refused("field_not_a_flag", field=wire)
    return value


def _word(value: object, wire: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 40:
        raise Refused("field_not_a_word", field=wire)
    return value


def _cell(value: object, wire: str) -> str:
    if not isinstance(value, str) or value not in _CELLS:
        raise Refused("field_not_a_cell", field=wire)
    return value


def _one_of(allowed: tuple[str, ...]) -> Callable[[object, str], str]:
    def check(value: object, wire: str) -> str:
        if value not in allowed:
            raise Refused("field_not_one_of", field=wire, allowed=list(allowed))
        return value

    return check


def _list_of(item: Callable[[object, str], str]) -> Callable[[object, str], tuple[str, ...]]:
    def check(value: object, wire: str) -> tuple[str, ...]:
        if not isinstance(value, list) or len(value) > 8:
            raise Refused("field_not_a_list", field=wire)
        return tuple(item(v, wire) for v in value)

    return check


# How each kind of field is checked; the room a command reports is checked by the rules, which
# can say in their own words that a game has no such room.
CHECKS: dict[str, Callable[[object, str], object]] = {
    "seat": _seat,
    "version": _version,
    FLAG: _flag,
    WORD: _word,
    ROOM: _word,
    CELL_NAME: _cell,
    ACTION: _one_of(TOKENS),
    DIRECTION: _one_of(DIRECTIONS),
    REPORT: _one_of(REPORTS),
    CELLS: _list_of(_cell),
    WORDS: _list_of(_word),
}


# Wire name -> (attribute, check), what `parse` walks through.
CHECKED = {
    name: {wire: (attr, CHECKS[kind]) for wire, (attr, kind) in spec.items()}
    for name, spec in SPECS.items()
}


# The commands the engine built itself and hands out again and again (`legal.py`'s shared
# offers), by identity, each with its typed form once read: a player who sends back one of his
# legal commands, as the simulator and the seat buttons do, has it read once a game rather than
# once a command. Kept for good, like the offers themselves, so an identity is never reused;
# the offers are values nobody changes (`legal_commands`).
_SHARED: dict[int, list] = {}


def shared(command: dict) -> dict:
    """File a command the engine keeps and hands out again (a cached legal offer)."""
    _SHARED[id(command)] = [command, None]
    return command


def parse(wire: object) -> Command:
    """A typed command from its wire form, or a refusal naming the first field that is wrong."""
    own = _SHARED.get(id(wire))
    if own is not None and own[0] is wire:
        typed = own[1]
        if typed is None:
            typed = own[1] = _read(wire)
        return typed
    return _read(wire)


def _read(wire: object) -> Command:
    if not isinstance(wire, dict) or not isinstance(wire.get("type"), str):
        raise Refused("not_a_command")
    kind = wire["type"]
    cls = COMMAND_TYPES.get(kind)
    if cls is None:
        raise Refused("unknown_command", command=kind[:20], commands=sorted(COMMAND_TYPES))
    checked = CHECKED[kind]
    values: dict[str, object] = {}
    for name, value in wire.items():
        if name == "type":
            continue
        spec = checked.get(name)
        if spec is None:
            raise Refused("unknown_field", field=str(name)[:20], command=kind)
        if value is None:  # a field has a value or is left out (COMMAND_SCHEMA: no null)
            raise Refused("field_is_null", field=name)
        attr, check = spec
        values[attr] = check(value, name)
    if "seat" not in values:
        raise Refused("unknown_seat", seat="")
    return build(cls, values)
