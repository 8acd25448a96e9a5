"""Changes to the board shared by actions and rooms: identifying, sliding, eliminating."""

from __future__ import annotations

from ..kernel import grid
from ..kernel.catalogue import rooms as room_catalogue
from ..kernel.context import Context, Refused
from ..kernel.grid import Cell
from ..kernel.state import GameState, TileId
from . import compose, modes


def kind_at(state: GameState, cell: Cell) -> str | None:
    """The room at a cell if it is revealed (what everyone at the table can see)."""
    tile = state.tiles[state.cells[cell]]  # `tile_at`, without its call: asked at every step
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
    tile = state.tiles[state.cells[cell]]
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


def reportable(state: GameState, tile_id: TileId | None = None) -> list[str]:
    """Rooms a hidden physical tile may turn out to be, from what the whole table knows: the
    composition less the rooms whose tiles everyone has seen (face up, or face up once and
    turned down since). For a tile (`tile_id`), also what the construction allows where it was
    laid: "Set aside the Vision chamber and Room 25. Shuffle the 22 remaining rooms and place
    12 of them face down. Then add the Vision chamber and Room 25 to the 10 remaining rooms
    [...] Room 25 is therefore placed, hidden, along one of the edges of the board" (001,
    Construction of the Complex; 000, CONSTRUCTION OF THE COMPLEX puts aside the Key, Vision,
    Moving and Robot rooms too, the twelve others "forming a cross"). A tile keeps its id, the
    cell it was laid on, wherever lines slide it. Private looks are never used, so neither a
    refusal nor the list of choices can give one away."""
    left = dict(state.composition)
    hidden_exits = 0
    for tile in state.tiles.values():
        if tile.revealed or tile.seen:
            if tile.kind is not None and left.get(tile.kind):
                left[tile.kind] -= 1
        elif tile.id in EXIT_TILES:
            hidden_exits += 1
    kinds = [k for k, n in sorted(left.items()) if n > 0]
    if tile_id is None:
        return kinds
    aside = compose.exit_zone_rooms(state.ruleset.edition)
    if tile_id not in EXIT_TILES:
        return [k for k in kinds if k not in aside]
    if sum(n for k, n in left.items() if k in aside and n > 0) >= hidden_exits:
        # Every exit-zone tile still face down holds one of the rooms set aside.
        return [k for k in kinds if k in aside]
    return kinds


EXIT_TILES = frozenset(TileId(c) for c in grid.EXIT_ZONES)  # tiles laid on the exit zones


def known_room(state: GameState, tile_id: TileId, seat: str | None) -> str | None:
    """The room a seat already knows on a face-down physical tile: the whole table's (seen face
    up once) or its own report (its notebook: a starting clue, a Look, the Vision chamber)."""
    tile = state.tiles[tile_id]
    if tile.seen:
        return tile.kind
    own = state.seats.get(seat) if seat is not None else None
    return None if own is None else own.notebook.get(tile_id)


def rooms_for(state: GameState, tile_id: TileId, seat: str | None) -> list[str]:
    """What a seat may report a face-down physical tile to be: what it already knows of it,
    else what `reportable` allows. A seat's own earlier report that the whole table's knowledge
    has since ruled out (every copy of that room face up elsewhere) was a slip, and binds
    nothing: a player is never left with no room he may name."""
    tile = state.tiles[tile_id]
    if tile.seen and tile.kind is not None:
        return [tile.kind]
    kinds = reportable(state, tile_id)
    known = known_room(state, tile_id, seat)
    return [known] if known in kinds else kinds


def with_room(state: GameState, command: dict, cell: Cell | None) -> list[dict]:
    """A command that shows a physical tile nobody has reported yet must name the room on it:
    the command once for each room the sender may report it to be (`rooms_for`)."""
    if cell is None:
        return [command]
    if state.ruleset.tracking != "physical" or state.tile_at(cell).revealed:
        return [command]
    tile_id = state.cells[cell]
    return [{**command, "room": kind} for kind in rooms_for(state, tile_id, command["seat"])]


def identify(ctx: Context, tile_id: TileId, private: str | None = None) -> str:
    """The room on a tile about to be seen: known to the engine, or reported by the player
    holding the physical tile (the command's `room`, carried on the context). Refuses a report
    the composition cannot hold, one the construction cannot have put there, and one that
    denies what the sender already knows (the fact named in the refusal is his own)."""
    state = ctx.state
    reported = ctx.report
    tile = state.tiles[tile_id]
    if state.ruleset.tracking != "physical":
        # A dealt tile is what the engine dealt: a report about it is ignored, never checked
        # aloud, so a refusal cannot tell anyone what lies there.
        return tile.room
    cell = grid.name(state.cell_of(tile_id))
    if reported is None:
        raise Refused("say_which_room", cell=cell)
    if not isinstance(reported, str) or reported not in room_catalogue():
        raise Refused("not_a_room", room=str(reported)[:20])
    if reported not in rooms_for(state, tile_id, ctx.reporter):
        raise _unreportable(state, tile_id, ctx.reporter, reported, cell)
    if reported == tile.kind:
        return reported
    if private is None:
        ctx.emit({"type": "tile_identified", "tile": tile_id, "room": reported})
    else:
        ctx.emit({"type": "tile_identified", "tile": tile_id, "room": reported, "private": private})
    return reported


def _unreportable(
    state: GameState, tile_id: TileId, seat: str | None, reported: str, cell: str
) -> Refused:
    """Why a report is not one of `rooms_for`, the first reason in the order a player would
    look for it: the box, the table's knowledge, the construction, the sender's own report."""
    tile = state.tiles[tile_id]
    if tile.seen and tile.kind is not None:
        return Refused("report_denies_face_up", cell=cell, room=tile.kind)
    if not state.composition.get(reported):
        return Refused("composition_lacks", room=reported)
    if reported not in reportable(state):
        return Refused("all_face_up", room=reported)
    possible = reportable(state, tile_id)
    if reported not in possible:
        if tile_id not in EXIT_TILES:
            return Refused("set_aside_for_exit_zones", room=reported, cell=cell)
        return Refused("exit_zone_holds_set_aside", cell=cell, rooms=possible)
    known = known_room(state, tile_id, seat)
    return Refused("report_denies_your_own", cell=cell, room=known)


def eliminate(ctx: Context, cid: str, cause: str) -> None:
    eliminate_all(ctx, [cid], cause)


def eliminate_all(ctx: Context, cids: list[str], cause: str) -> None:
    """Characters who die together (a Shredder, a robot in an Acid bath, a Time bomb, the
    Flooded chambers at the end of a turn): every death is told before the end of the game it
    may bring, which is the outcome as the first deadly one left it."""
    state = ctx.state
    outcome = None
    for cid in cids:
        if not state.characters[cid].alive:
            continue
        ctx.emit({"type": "eliminated", "character": cid, "cause": cause})
        if cid == "emmett" and state.locks:
            # 000, EMMETT: "If Emmett is eliminated, all Lock tokens are removed from the complex".
            ctx.emit({"type": "locks_removed"})
        modes.reveal_after_death(ctx)
        if outcome is None and state.outcome is None:
            outcome = modes.death_outcome(state)
    if outcome is not None:
        ctx.emit({"type": "game_over", "outcome": outcome})


def destroy_room(ctx: Context, tile_id: TileId) -> None:
    """'Salle détruite : Remplacez la salle par une salle vide. La destruction n'affecte pas les
    personnages et robots présents dans la salle.' (002, new-rooms sheet)"""
    state = ctx.state
    kind = state.tiles[tile_id].kind
    cell = grid.name(state.cell_of(tile_id))
    ctx.emit({"type": "room_destroyed", "tile": tile_id, "cell": cell, "room": kind})


def entered_room25(ctx: Context) -> None:
    """Alert! (001, Escape the Complex): on the 10-turn side, entering Room 25 during the first
    five turns leaves 5 turns. Decision: the alarm goes off once and never adds turns."""
    state = ctx.state
    if state.ruleset.has_alarm and not state.alarm and state.turn <= 5:
        ctx.emit({"type": "alarm", "turns_left": min(state.turns_left, 5)})


def line_moves(state: GameState, cell: Cell | None = None) -> list[tuple[str, int, str]]:
    """Legal slides (axis, index, direction) of the lines through a cell (a Control from
    there), or of every movable line."""
    options = []
    controls = state.controls
    for axis, index, direction, key in (
        grid.LINE_SLIDES if cell is None else grid.SLIDES_THROUGH[cell]
    ):
        used = controls.get(key)
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
            ctx.emit({"type": "escaped", "characters": inside, "line": key, "direction": direction})
            ctx.emit({"type": "game_over", "outcome": outcome})
            return
    ctx.emit(
        {
            "type": "slid",
            "line": key,
            "direction": direction,
            "cells": grid.slide(state.cells, axis, index, direction),
            "token": token,
        }
    )
