"""Changes to the board shared by actions and rooms: identifying, sliding, eliminating."""

from __future__ import annotations

from ..kernel import grid
from ..kernel.catalogue import rooms as room_catalogue
from ..kernel.context import Context, Refused
from ..kernel.grid import Cell
from ..kernel.state import GameState, TileId
from . import modes


def kind_at(state: GameState, cell: Cell) -> str | None:
    """The room at a cell if it is revealed (what everyone at the table can see)."""
    tile = state.tile_at(cell)
    return tile.kind if tile.revealed else None


def inaccessible(state: GameState, cell: Cell) -> Refused:
    """Why a character may not enter a room: in Season 2 and Ultimate a "Do Not Cross" marker
    lies on every inaccessible room (000, 002: 4 markers for the Flooded and Shredder rooms);
    a Lock token keeps out everyone but Emmett."""
    if not state.tile_at(cell).sealed:
        return Refused("room_locked", cell=grid.name(cell))
    if state.ruleset.edition == "base":
        return Refused("flooded_locked")
    return Refused("do_not_cross", room=state.tile_at(cell).kind, cell=grid.name(cell))


def locked(state: GameState, cell: Cell) -> bool:
    """A Lock token lies on the room (Emmett's Lock on)."""
    return state.cells[cell] in state.locks


def may_enter(state: GameState, cell: Cell, cid: str) -> bool:
    """Whether a character may enter the room at a cell. No one enters a room with a "Do Not
    Cross" marker; a locked room is "inaccessible to everyone other than Robots or Emmett
    himself" (000, EMMETT, LOCK ON; Immunity To Locks: "He can also be called or pushed")."""
    tile = state.tile_at(cell)
    if tile.sealed:
        return False
    return cid == "emmett" or tile.id not in state.locks


def hidden_cells(state: GameState) -> list[Cell]:
    return [c for c in grid.CELLS if not state.tile_at(c).revealed]


def room25_tile(state: GameState) -> TileId | None:
    return state.room25


def in_room25(state: GameState) -> set[str]:
    tile = room25_tile(state)
    return set() if tile is None else set(state.occupants(tile))


def reportable(state: GameState) -> list[str]:
    """Rooms a hidden physical tile may turn out to be, from what the whole table knows: the
    composition less the rooms already face up. Private looks are never used, so neither a
    refusal nor the list of choices can give one away."""
    shown: dict[str, int] = {}
    for tile in state.tiles.values():
        if tile.revealed and tile.kind is not None:
            shown[tile.kind] = shown.get(tile.kind, 0) + 1
    return [k for k, n in sorted(state.composition.items()) if n > shown.get(k, 0)]


def with_room(state: GameState, command: dict, cell: Cell | None) -> list[dict]:
    """A command that shows a physical tile nobody has reported yet must name the room on it:
    the command once for each room it may turn out to be (`reportable`)."""
    if cell is None:
        return [command]
    if state.ruleset.tracking != "physical" or state.tile_at(cell).revealed:
        return [command]
    return [{**command, "room": kind} for kind in reportable(state)]


def identify(ctx: Context, tile_id: TileId, private: str | None = None) -> str:
    """The room on a tile about to be seen: known to the engine, or reported by the player
    holding the physical tile (the command's `room`, carried on the context). Refuses a report
    the composition cannot hold."""
    state = ctx.state
    reported = ctx.report
    tile = state.tiles[tile_id]
    if state.ruleset.tracking != "physical":
        # A dealt tile is what the engine dealt: a report about it is ignored, never checked
        # aloud, so a refusal cannot tell anyone what lies there.
        return tile.room
    if reported is None:
        raise Refused("say_which_room", cell=grid.name(state.cell_of(tile_id)))
    if not isinstance(reported, str) or reported not in room_catalogue():
        raise Refused("not_a_room", room=str(reported)[:20])
    if not state.composition.get(reported):
        raise Refused("composition_lacks", room=reported)
    if reported not in reportable(state):
        raise Refused("all_face_up", room=reported)
    if reported == tile.kind:
        return reported
    if private is None:
        ctx.emit("tile_identified", tile=tile_id, room=reported)
    else:
        ctx.emit("tile_identified", tile=tile_id, room=reported, private=private)
    return reported


def eliminate(ctx: Context, cid: str, cause: str) -> None:
    state = ctx.state
    if not state.characters[cid].alive:
        return
    ctx.emit("eliminated", character=cid, cause=cause)
    if cid == "emmett" and state.locks:
        # 000, EMMETT: "If Emmett is eliminated, all Lock tokens are removed from the complex".
        ctx.emit("locks_removed")
    modes.reveal_after_death(ctx)
    if state.outcome is None:
        outcome = modes.death_outcome(state)
        if outcome is not None:
            ctx.emit("game_over", outcome=outcome)


def destroy_room(ctx: Context, tile_id: TileId) -> None:
    """'Salle détruite : Remplacez la salle par une salle vide. La destruction n'affecte pas les
    personnages et robots présents dans la salle.' (002, new-rooms sheet)"""
    state = ctx.state
    kind = state.tiles[tile_id].kind
    cell = grid.name(state.cell_of(tile_id))
    ctx.emit("room_destroyed", tile=tile_id, cell=cell, room=kind)


def entered_room25(ctx: Context) -> None:
    """Alert! (001, Escape the Complex): on the 10-turn side, entering Room 25 during the first
    five turns leaves 5 turns. Decision: the alarm goes off once and never adds turns."""
    state = ctx.state
    if state.ruleset.has_alarm and not state.alarm and state.turn <= 5:
        ctx.emit("alarm", turns_left=min(state.turns_left, 5))


def line_moves(state: GameState, cells: list[Cell] | None = None) -> list[tuple[str, int, str]]:
    """Legal slides (axis, index, direction) of the given lines, or of every movable line."""
    options = []
    axes = (
        [(axis, index) for axis in ("row", "col") for index in grid.MOVABLE]
        if cells is None
        else [line for c in cells for line in grid.lines_through(c)]
    )
    for axis, index in axes:
        for direction in grid.AXIS_DIRECTIONS[axis]:
            used = state.controls.get(grid.line_key(axis, index))
            if used is None or used == direction:
                options.append((axis, index, direction))
    return options


def slide(
    ctx: Context, axis: str, index: int, direction: str, exit_allowed: bool, token: bool = True
) -> None:
    """Slide a line one rank. Room 25 pushed off the edge takes its occupants out of the
    complex when the mode lets them leave now; otherwise it wraps like any room."""
    state = ctx.state
    key = grid.line_key(axis, index)
    leading = state.cells[grid.leading_cell(axis, index, direction)]
    if exit_allowed and leading == room25_tile(state):
        inside = state.occupants(leading)
        outcome = modes.escape_outcome(state, inside)
        if outcome is not None:
            ctx.emit("escaped", characters=inside, line=key, direction=direction)
            ctx.emit("game_over", outcome=outcome)
            return
    ctx.emit(
        "slid",
        line=key,
        direction=direction,
        cells=grid.slide(state.cells, axis, index, direction),
        token=token,
    )
