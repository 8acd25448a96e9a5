"""Entering a room and what each room does (001_30b8f356e0d93ba4.txt, ROOMS Description).

Effects are small functions keyed by room kind. A room whose effect asks a choice sets a
pending decision for the entering character's player; `resolve_choice` carries it out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..kernel import grid
from ..kernel.context import Context, Refused, cell_named
from ..kernel.registry import registrar
from ..kernel.state import GameState
from . import board

if TYPE_CHECKING:
    from ..face.commands import Choose

Effect = Callable[[Context, str, int], None]
EFFECTS: dict[str, Effect] = {}  # what a room does to a character entering it
LEAVE_EFFECTS: dict[str, Effect] = {}  # what a room does when a character leaves it
CHOICES: dict[str, Callable[[Context, dict], None]] = {}  # pending kinds resolved elsewhere
# Choices a room asks whose answer is a cell, by pending kind: (ctx, character, cell, command).
CellChoice = Callable[[Context, str, int, dict], None]
CELL_CHOICES: dict[str, CellChoice] = {}
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


effect = registrar(EFFECTS)
on_leave = registrar(LEAVE_EFFECTS)
choice = registrar(CELL_CHOICES)


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
    tile_id: int,
    how: str = "move",
    origin: int | None = None,
) -> None:
    """A character arrives in a room: reveal it if hidden, then apply its effect (every time).
    `origin` is the cell he comes from (by default where he stands): the Pivoting room turns
    towards it. A carried character arrives with him and the effect falls on both."""
    state = ctx.state
    tile = state.tiles[tile_id]
    kind = board.identify(ctx, tile_id) if not tile.revealed else tile.kind
    group = _arrivals(ctx, cid, tile_id, how, origin)
    if not tile.revealed:
        ctx.emit("room_revealed", tile=tile_id, room=kind, cell=state.cell_of(tile_id))
    _leave(ctx, group)
    if kind not in PER_CHARACTER:
        EFFECTS.get(kind, _no_effect)(ctx, cid, tile_id)
        return
    for member in group:
        if state.characters[member].alive and state.outcome is None:
            EFFECTS[kind](ctx, member, tile_id)


def place(ctx: Context, cid: str, tile_id: int, how: str) -> None:
    """Put a character in a revealed room without applying its effect (Twin, Tunnel, Vortex)."""
    _leave(ctx, _arrivals(ctx, cid, tile_id, how, None))


def _arrivals(ctx: Context, cid: str, tile_id: int, how: str, origin: int | None) -> dict:
    """Move the character (and the one he carries) onto the tile; where each stood before."""
    state = ctx.state
    group = company(state, cid) if how in TOGETHER else [cid]
    before = {member: state.characters[member].tile for member in group}
    if origin is None:
        origin = state.where(cid)
    cell = state.cell_of(tile_id)
    for member in group:
        ctx.emit("moved", character=member, tile=tile_id, cell=cell, how=how, origin=origin)
    return before


def _leave(ctx: Context, before: dict) -> None:
    """Once everyone arriving together has moved: what the rooms they left do."""
    for member, tile_id in before.items():
        left(ctx, member, tile_id)


def left(ctx: Context, cid: str, tile_id: int | None) -> None:
    """A character has just left a room, however he went: what that room does then (the
    Shredder room). `enter` and `place` call it after each move, so a talent taking two
    characters out together (Max's Carry: "both characters can survive by leaving the Shredder
    Room together") must move both before calling it."""
    if tile_id is None or tile_id == ctx.state.characters[cid].tile:
        return
    tile = ctx.state.tiles[tile_id]
    if tile.revealed:
        LEAVE_EFFECTS.get(tile.kind, _no_effect)(ctx, cid, tile_id)


def _no_effect(ctx: Context, cid: str, tile_id: int) -> None:
    return None


def _ask(
    ctx: Context, kind: str, cid: str, tile_id: int, options: list, field: str | None = None
) -> None:
    """Wait for the choice of `cid`'s player; `field` names the command's key for an answer
    that is not a cell."""
    state = ctx.state
    pending = {
        "kind": kind,
        "seat": state.characters[cid].seat,
        "character": cid,
        "tile": tile_id,
        "options": options,
    }
    if field is not None:
        pending["field"] = field
    ctx.emit("pending", pending=pending)


@effect("room25")
def _room25(ctx: Context, cid: str, tile_id: int) -> None:
    board.entered_room25(ctx)


@effect("vision")
def _vision(ctx: Context, cid: str, tile_id: int) -> None:
    """Look secretly at any room of the board. Only a hidden room shows anything new, so the
    English 'any room' and the French 'any hidden room' offer the same information."""
    options = board.hidden_cells(ctx.state)
    if options:
        _ask(ctx, "vision", cid, tile_id, [grid.name(c) for c in options])


@effect("moving")
def _moving(ctx: Context, cid: str, tile_id: int) -> None:
    options = board.hidden_cells(ctx.state)
    if options:
        _ask(ctx, "moving", cid, tile_id, [grid.name(c) for c in options])


@effect("illusion")
def _illusion(ctx: Context, cid: str, tile_id: int) -> None:
    options = board.hidden_cells(ctx.state)
    if options:
        _ask(ctx, "illusion", cid, tile_id, [grid.name(c) for c in options])


@effect("control")
def _control_room(ctx: Context, cid: str, tile_id: int) -> None:
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
        _ask(ctx, "control", cid, tile_id, options)


@effect("twin")
def _twin(ctx: Context, cid: str, tile_id: int) -> None:
    for tile in ctx.state.tiles.values():
        if tile.id != tile_id and tile.kind == "twin" and tile.revealed:
            place(ctx, cid, tile.id, "twin")
            return


@effect("vortex")
def _vortex(ctx: Context, cid: str, tile_id: int) -> None:
    place(ctx, cid, ctx.state.cells[grid.CENTRE], "vortex")


@effect("acid")
def _acid(ctx: Context, cid: str, tile_id: int) -> None:
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
        _ask(ctx, "acid", cid, tile_id, together, "target")


def _acid_chosen(ctx: Context, command: Choose) -> None:
    pending = ctx.state.pending
    assert pending is not None
    target = command.target
    if target not in pending["options"]:
        raise Refused("choose_who_is_eliminated", characters=pending["options"])
    ctx.emit("pending_cleared")
    board.eliminate(ctx, target, "acid")


CHOICES["acid"] = _acid_chosen


@effect("flooded")
def _flooded(ctx: Context, cid: str, tile_id: int) -> None:
    if not ctx.state.tiles[tile_id].sealed:
        ctx.emit("sealed", tile=tile_id)
    ctx.emit("flooding", character=cid, tile=tile_id)


@effect("trapped")
def _trapped(ctx: Context, cid: str, tile_id: int) -> None:
    ctx.emit("trapped", character=cid, tile=tile_id)


@effect("mortal")
def _mortal(ctx: Context, cid: str, tile_id: int) -> None:
    board.eliminate(ctx, cid, "mortal")


def resolve_choice(ctx: Context, command: Choose) -> None:
    """Carry out the pending room choice with the option the player picked."""
    state = ctx.state
    pending = state.pending
    assert pending is not None
    cid = pending["character"]
    if pending["kind"] in CHOICES:
        CHOICES[pending["kind"]](ctx, command)
        return
    if pending["kind"] == "control":
        option = f"{command.line} {command.direction}"
        if option not in pending["options"]:
            raise Refused("choose_line_and_direction", options=pending["options"])
        ctx.emit("pending_cleared")
        line, direction = option.split()
        axis, index = grid.parse_line(line)
        exit_allowed = state.ruleset.settings.control_chamber_can_exit
        token = state.ruleset.settings.control_chamber_uses_token
        board.slide(ctx, axis, index, direction, exit_allowed, token)
        return
    target = cell_named(command.cell, "choose_a_room_cell")
    if grid.name(target) not in pending["options"]:
        raise Refused("choose_one_of_these_rooms", cells=pending["options"])
    ctx.emit("pending_cleared")
    kind = pending["kind"]
    if kind == "vision":
        # Carried in: "the same room is looked at when arriving in the Vision Chamber" (000).
        for member in company(state, cid):
            look_at(ctx, member, target)
    elif kind == "moving":
        here = state.cell_of(state.characters[cid].tile)
        ctx.emit("swapped", cells=[here, target], how="moving")
    elif kind == "illusion":
        # The room brought in is entered from where the character came into the Illusion
        # room: a Pivoting room turns towards that room.
        c = state.characters[cid]
        here = state.cell_of(c.tile)
        ctx.emit("swapped", cells=[here, target], how="illusion")
        enter(ctx, cid, state.cells[here], "illusion", c.came_from)
    else:
        CELL_CHOICES[kind](ctx, cid, target, command)


def look_at(ctx: Context, cid: str, cell: int) -> None:
    """A secret look: the room goes into the looker's notebook only."""
    state = ctx.state
    tile = state.tile_at(cell)
    seat = state.characters[cid].seat
    ctx.emit("looked", character=cid, cell=grid.name(cell))
    if not tile.revealed:
        kind = board.identify(ctx, tile.id, private=seat)
        ctx.emit("room_seen", seat=seat, tile=tile.id, room=kind, private=seat)
