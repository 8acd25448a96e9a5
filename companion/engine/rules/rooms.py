"""Entering a room and what each room does (001_30b8f356e0d93ba4.txt, ROOMS Description).

Effects are small functions filed by room kind (`@effect("acid")`, `@on_leave("shredder")`);
a room that does nothing when entered is in `EFFECTS.idle`, with the reason. A room whose effect
asks a choice asks it through choices.py, and files what the answer does with
`@choices.answers(kind)` here, next to the room's quote.
"""

from __future__ import annotations

from collections.abc import Callable

from ..kernel import grid
from ..kernel.context import Context
from ..kernel.grid import Cell
from ..kernel.registry import Filing, Table
from ..kernel.state import GameState, TileId
from . import board, choices

Effect = Callable[[Context, str, TileId], None]  # (ctx, character, the room's tile)
# What a room does to a character entering it (001, ROOMS Description).
EFFECTS: Table[Effect] = Table(
    "room kind",
    idle={
        "central": "the starting room: only its limits on actions (actions.py)",
        "empty": "'This room is empty and has no effect'",
        "dark": "no Look while in it: a limit on actions (actions.py)",
        "cold": "one action programmed while in it: a limit on programming (flow.py)",
        "prison": "leaving it is limited: a limit on moves (actions.py)",
        "jamming": "no talking while it is occupied: the table keeps that rule",
        "shredder": "it acts when a character leaves it (shredder.py) or a robot enters",
    },
)
LEAVE_EFFECTS: Table[Effect] = Table("room kind")  # what a room does when a character leaves it
# Max's Carry: "Max and the carried character are both affected by their destination room in
# an identical and unique way. If the room requires a choice to be made, Max makes that choice"
# (000, MAX: CARRY). A room's effect is applied once, for the carrier, and moves both; these
# rooms' effects fall on each character ("both characters are eliminated in the Mortal
# Chamber").
PER_CHARACTER = ("mortal", "trapped", "flooded", "paranoia", "mirror")
# The ways of arriving that take the carried character along: the Carry itself and the rooms
# that send the carrier on (Illusion, Tunnel, Twin, Vortex: "both characters move to the same
# Tunnel Chamber").
TOGETHER = ("carry", "illusion", "tunnel", "twin", "vortex")


effect: Filing[Effect] = EFFECTS.register
on_leave: Filing[Effect] = LEAVE_EFFECTS.register


def company(state: GameState, cid: str) -> list[str]:
    """The character and the one he carries, while a Carry is under way and they stand
    together; otherwise the character alone."""
    carrying = state.carrying
    if carrying is None or carrying[0] != cid:
        return [cid]
    carried = state.characters[carrying[1]]
    if carried.alive and carried.tile == state.characters[cid].tile:
        return [cid, carried.id]
    return [cid]


def enter(
    ctx: Context,
    cid: str,
    tile_id: TileId,
    how: str = "move",
    origin: Cell | None = None,
) -> None:
    """A character arrives in a room: reveal it if hidden, then apply its effect (every time).
    `origin` is the cell he comes from (by default where he stands): the Pivoting room turns
    towards it. A carried character arrives with him and the effect falls on both."""
    state = ctx.state
    tile = state.tiles[tile_id]
    kind = board.identify(ctx, tile_id) if not tile.revealed else tile.room
    group = _arrivals(ctx, cid, tile_id, how, origin)
    if not tile.revealed:
        ctx.emit(
            {"type": "room_revealed", "tile": tile_id, "room": kind, "cell": state.cell_of(tile_id)}
        )
    _leave(ctx, group)
    if kind not in PER_CHARACTER:
        EFFECTS.get(kind, _no_effect)(ctx, cid, tile_id)
        return
    for member in group:
        if state.characters[member].alive and state.outcome is None:
            EFFECTS[kind](ctx, member, tile_id)


def place(ctx: Context, cid: str, tile_id: TileId, how: str) -> None:
    """Put a character in a revealed room without applying its effect (Twin, Tunnel, Vortex)."""
    _leave(ctx, _arrivals(ctx, cid, tile_id, how, None))


def _arrivals(ctx: Context, cid: str, tile_id: TileId, how: str, origin: Cell | None) -> dict:
    """Move the character (and the one he carries) onto the tile; where each stood before."""
    state = ctx.state
    group = company(state, cid) if how in TOGETHER else [cid]
    before = {member: state.characters[member].tile for member in group}
    if origin is None:
        origin = state.where(cid)
    cell = state.cell_of(tile_id)
    for member in group:
        ctx.emit(
            {
                "type": "moved",
                "character": member,
                "tile": tile_id,
                "cell": cell,
                "how": how,
                "origin": origin,
            }
        )
    return before


def _leave(ctx: Context, before: dict) -> None:
    """Once everyone arriving together has moved: what the rooms they left do."""
    for member, tile_id in before.items():
        left(ctx, member, tile_id)


def left(ctx: Context, cid: str, tile_id: TileId | None) -> None:
    """A character has just left a room, however he went: what that room does then (the
    Shredder room). `enter` and `place` call it after each move, so a talent taking two
    characters out together (Max's Carry: "both characters can survive by leaving the Shredder
    Room together") must move both before calling it."""
    if tile_id is None or tile_id == ctx.state.characters[cid].tile:
        return
    tile = ctx.state.tiles[tile_id]
    if tile.revealed:
        LEAVE_EFFECTS.get(tile.room, _no_effect)(ctx, cid, tile_id)


def _no_effect(ctx: Context, cid: str, tile_id: TileId) -> None:
    return None


@effect("room25")
def _room25(ctx: Context, cid: str, tile_id: TileId) -> None:
    board.entered_room25(ctx)


@effect("vision")
def _vision(ctx: Context, cid: str, tile_id: TileId) -> None:
    """Look secretly at any room of the board. Only a hidden room shows anything new, so the
    English 'any room' and the French 'any hidden room' offer the same information."""
    options = board.hidden_cells(ctx.state)
    if options:
        choices.ask(ctx, "vision", cid, [grid.name(c) for c in options], tile_id)


@effect("moving")
def _moving(ctx: Context, cid: str, tile_id: TileId) -> None:
    options = board.hidden_cells(ctx.state)
    if options:
        choices.ask(ctx, "moving", cid, [grid.name(c) for c in options], tile_id)


@effect("illusion")
def _illusion(ctx: Context, cid: str, tile_id: TileId) -> None:
    options = board.hidden_cells(ctx.state)
    if options:
        choices.ask(ctx, "illusion", cid, [grid.name(c) for c in options], tile_id)


@effect("control")
def _control_room(ctx: Context, cid: str, tile_id: TileId) -> None:
    state = ctx.state
    if state.ruleset.settings.control_chamber_uses_token:
        moves = board.line_moves(state)
    else:
        moves = [
            (axis, index, d)
            for axis in ("row", "col")
            for index in grid.MOVABLE
            for d in grid.AXIS_DIRECTIONS[axis]
        ]
    if moves:
        options = [f"{grid.line_key(a, i)} {d}" for a, i, d in moves]
        choices.ask(ctx, "control", cid, options, tile_id)


@effect("twin")
def _twin(ctx: Context, cid: str, tile_id: TileId) -> None:
    for tile in ctx.state.tiles.values():
        if tile.id != tile_id and tile.kind == "twin" and tile.revealed:
            place(ctx, cid, tile.id, "twin")
            return


@effect("vortex")
def _vortex(ctx: Context, cid: str, tile_id: TileId) -> None:
    place(ctx, cid, ctx.state.cells[grid.CENTRE], "vortex")


@effect("acid")
def _acid(ctx: Context, cid: str, tile_id: TileId) -> None:
    """The one who entered earlier is eliminated by the arrival of the second one. Carried in
    together: "When arriving in an Acid Bath, Max decides which character is eliminated" (000,
    MAX: CARRY). Decision: a third character already in the bath entered earlier than both, so
    he is eliminated too (the sources are silent)."""
    state = ctx.state
    together = company(state, cid)
    others = [state.characters[o] for o in state.occupants(tile_id) if o not in together]
    if others:
        first = min(others, key=lambda c: c.entered)
        board.eliminate(ctx, first.id, "acid")
    if len(together) > 1 and state.outcome is None:
        choices.ask(ctx, "acid", cid, together, tile_id)


@choices.answers("acid")
def _acid_chosen(ctx: Context, pending: dict, target: str) -> None:
    board.eliminate(ctx, target, "acid")


@effect("flooded")
def _flooded(ctx: Context, cid: str, tile_id: TileId) -> None:
    if not ctx.state.tiles[tile_id].sealed:
        ctx.emit({"type": "sealed", "tile": tile_id})
    ctx.emit({"type": "flooding", "character": cid, "tile": tile_id})


@effect("trapped")
def _trapped(ctx: Context, cid: str, tile_id: TileId) -> None:
    ctx.emit({"type": "trapped", "character": cid, "tile": tile_id})


@effect("mortal")
def _mortal(ctx: Context, cid: str, tile_id: TileId) -> None:
    board.eliminate(ctx, cid, "mortal")


@choices.answers("control")
def _control_chosen(ctx: Context, pending: dict, option: str) -> None:
    line, direction = option.split()
    axis, index = grid.parse_line(line)
    settings = ctx.state.ruleset.settings
    exit_allowed = settings.control_chamber_can_exit
    board.slide(ctx, axis, index, direction, exit_allowed, settings.control_chamber_uses_token)


@choices.answers("vision")
def _vision_chosen(ctx: Context, pending: dict, cell: str) -> None:
    """Carried in: "the same room is looked at when arriving in the Vision Chamber" (000)."""
    for member in company(ctx.state, pending["character"]):
        look_at(ctx, member, grid.parse_cell(cell))


@choices.answers("moving")
def _moving_chosen(ctx: Context, pending: dict, cell: str) -> None:
    here = ctx.state.here(pending["character"])
    ctx.emit({"type": "swapped", "cells": [here, grid.parse_cell(cell)], "how": "moving"})


@choices.answers("illusion")
def _illusion_chosen(ctx: Context, pending: dict, cell: str) -> None:
    """The room brought in is entered from where the character came into the Illusion room:
    a Pivoting room turns towards that room."""
    state = ctx.state
    cid = pending["character"]
    here, came_from = state.here(cid), state.characters[cid].came_from
    ctx.emit({"type": "swapped", "cells": [here, grid.parse_cell(cell)], "how": "illusion"})
    enter(ctx, cid, state.cells[here], "illusion", came_from)


def look_at(ctx: Context, cid: str, cell: Cell) -> None:
    """A secret look: the room goes into the looker's notebook only."""
    state = ctx.state
    tile = state.tile_at(cell)
    seat = state.characters[cid].seat
    ctx.record({"type": "looked", "character": cid, "cell": grid.name(cell)})
    if not tile.revealed:
        kind = board.identify(ctx, tile.id, private=seat)
        ctx.emit(
            {"type": "room_seen", "seat": seat, "tile": tile.id, "room": kind, "private": seat}
        )
