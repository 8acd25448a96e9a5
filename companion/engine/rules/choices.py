"""Choices in the middle of an action or a card (the Vision chamber, a robot's order, a
Punishment card...): the one place that asks them, offers their answers and takes the answer.

A rule that needs a decision calls `ask`: the game then waits (`state.pending`) for a `choose`
command from that seat. `offers` lists the answers as ready-made commands (for
`legal_commands`). `answer` reads the answer a command gives, refuses one that is not among the
options, and hands the option chosen to the rule that asked: `ANSWERS`, filed by pending kind
with `@choices.answers(kind)` next to the rule's quote. `KINDS` is the catalogue of pending
kinds: which field of the command carries the answer and how a wrong one is refused.
`flow.after_choice` then finishes whatever the choice interrupted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..kernel import grid
from ..kernel.context import Context, Refused, cell_named
from ..kernel.grid import Cell
from ..kernel.registry import Filing, Table
from ..kernel.state import HOST, GameState, TileId
from . import board

if TYPE_CHECKING:
    from ..face.commands import Choose

# The fields of `choose` (and of a talent's options) that make a robot's order.
ORDER_FIELDS = ("robot", "order", "target", "direction")
# How an answer is read from `choose`, besides a plain field holding the option: "room" a cell
# whose room the rule acts on (written any way a cell may be), "line" a line and a direction,
# "order" a robot's order. A pending choice read by a plain field names it as its "field".
READERS = ("room", "line", "order")

Answer = Callable[[Context, dict, Any], None]  # (ctx, the pending choice, the option chosen)
ANSWERS: Table[Answer] = Table("pending kind")
answers: Filing[Answer] = ANSWERS.register


def _option_cell(state: GameState, pending: dict, option: Any) -> Cell | None:
    return grid.parse_cell(option)


def _pushed_into(state: GameState, pending: dict, option: Any) -> Cell | None:
    return state.cell_of(pending["tile"]) if option == "pushed" else None


def _robot_step(state: GameState, pending: dict, option: Any) -> Cell | None:
    return grid.neighbour(grid.parse_cell(option["robot"]), option["direction"])


def _not_a_room(options: list) -> Refused:
    return Refused("choose_one_of_these_rooms", cells=options)


def _not_a_line(options: list) -> Refused:
    return Refused("choose_line_and_direction", options=options)


def _not_an_order(options: list) -> Refused:
    return Refused("robot_orders", ways=options)


def _not_a_character(options: list) -> Refused:
    return Refused("choose_who_is_eliminated", characters=options)


def _not_come_or_stay(options: list) -> Refused:
    return Refused("call_answer")


def _not_pushed_or_stays(options: list) -> Refused:
    return Refused("robot_push_answer")


def _not_an_option(options: list) -> Refused:
    return Refused("choose_one_of", options=options)


@dataclass(frozen=True)
class Kind:
    """How one kind of pending choice is answered."""

    reads: str  # a field of `choose` holding the option, or one of READERS
    wrong: Callable[[list], Refused]  # the refusal of an answer that is not an option
    # The cell whose room an answer shows, when it may be a physical tile nobody has reported.
    shows: Callable[[GameState, dict, Any], Cell | None] | None = None


KINDS: dict[str, Kind] = {
    # Rooms (rooms.py, new_rooms.py)
    "vision": Kind("room", _not_a_room, _option_cell),
    "moving": Kind("room", _not_a_room),
    "illusion": Kind("room", _not_a_room, _option_cell),
    "tunnel": Kind("room", _not_a_room),
    "control": Kind("line", _not_a_line),
    "acid": Kind("target", _not_a_character),
    # Robots (robots.py) and Jennifer's Call mimicked on her (abilities.py)
    "robot": Kind("order", _not_an_order, _robot_step),
    "android": Kind("answer", _not_pushed_or_stays, _pushed_into),
    "called": Kind("answer", _not_come_or_stay),
    # M.A.C. cards (mac.py): the card a physical deck shows, and what the cards ask
    "mac_card": Kind("card", _not_an_option),
    "mac_push": Kind("cell", _not_an_option),
    "mac_tunnel": Kind("cell", _not_an_option),
    "mac_lock": Kind("cell", _not_an_option),
    "mac_lock_from": Kind("cell", _not_an_option),
    "mac_panic_room": Kind("cell", _not_an_option),
    "mac_panic_swap": Kind("cells", _not_an_option),
    "punishment": Kind("token", _not_an_option),
}


def ask(
    ctx: Context,
    kind: str,
    cid: str | None,
    options: list,
    tile: TileId | None = None,
    **extra: object,
) -> None:
    """Wait for the choice of `cid`'s player (of the table itself when no character chooses:
    the card a physical deck shows). `tile` is the room the choice is about, `extra` what the
    rule needs to carry on once it is answered (the characters still to move...)."""
    reads = KINDS[kind].reads
    seat = HOST if cid is None else ctx.state.characters[cid].seat
    pending: dict[str, Any] = {"kind": kind, "seat": seat, "character": cid}
    if tile is not None:
        pending["tile"] = tile
    if reads not in READERS:
        pending["field"] = reads
    pending["options"] = options
    ctx.emit({"type": "pending", "pending": {**pending, **extra}})


def offers(state: GameState, seat: str) -> list[dict]:
    """The answers this seat may send to the pending choice, as `choose` commands; one that
    shows a physical tile nobody reported names each room it may be."""
    pending = state.pending
    assert pending is not None
    if pending["seat"] not in (HOST, seat):
        return []
    kind = KINDS[pending["kind"]]
    found = []
    for option in pending["options"]:
        command = {"type": "choose", "seat": seat, **_fields(kind.reads, option)}
        cell = kind.shows(state, pending, option) if kind.shows else None
        found.extend(board.with_room(state, command, cell))
    return found


def _fields(reads: str, option: Any) -> dict:
    """The fields of `choose` that give this option."""
    if reads == "room":
        return {"cell": option}
    if reads == "line":
        line, direction = option.split()
        return {"line": line, "direction": direction}
    if reads == "order":
        return dict(option)
    return {reads: option.split() if reads == "cells" else option}


def answer(ctx: Context, command: Choose) -> None:
    """Carry out the pending choice with the option the command names, or refuse it."""
    pending = ctx.state.pending
    assert pending is not None
    kind = KINDS[pending["kind"]]
    chosen = _read(command, kind.reads, pending["options"])
    if chosen is None or chosen not in pending["options"]:
        raise kind.wrong(pending["options"])
    ctx.emit({"type": "pending_cleared"})
    ANSWERS[pending["kind"]](ctx, pending, chosen)


def _read(command: Choose, reads: str, options: list) -> Any:
    """The option a `choose` command names (None when it names none)."""
    if reads == "room":
        return grid.name(cell_named(command.cell, "choose_a_room_cell"))
    if reads == "line":
        return f"{command.line} {command.direction}"
    if reads == "order":
        parameters = command.parameters()
        return {key: parameters[key] for key in ORDER_FIELDS if key in parameters}
    given = getattr(command, reads)
    if isinstance(given, tuple):  # two cells, in either order
        return next((o for o in options if set(o.split()) == set(given)), None)
    return given
