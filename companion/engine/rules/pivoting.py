"""The Pivoting room's corridor (000_f9f1d5a43eaf8620.txt, NEW ROOMS, Pivoting room;
002_e232164e7c8dd598.txt, LES NOUVELLES SALLES, Salle pivot).

The corridor is straight: two opposite exits, "north-south" or "east-west", kept on the tile
(`Tile.corridor`) so that it travels with the room when a line slides. It only limits what an
occupant does *through* the exits; the four rooms around stay adjacent for everything else
("All four rooms around the Pivoting room are still considered adjacent").
"""

from __future__ import annotations

from collections.abc import Mapping

from ..kernel import grid
from ..kernel.context import Context
from ..kernel.grid import Cell
from ..kernel.state import GameState, TileId

CORRIDORS = ("north-south", "east-west")
# The uses the corridor restricts in every edition: "A character in this room can only move,
# look, or push through the corridor's exits" (000).
ALWAYS = ("move", "look", "push")


def corridor_towards(direction: str) -> str:
    return "north-south" if direction in ("north", "south") else "east-west"


def restricts(state: GameState, use: str) -> bool:
    """Whether the corridor limits this use: an action or a talent's name ("carry", "call"...).
    000: 'Other abilities and the control action are not affected'; 002's page adds Carry
    ('porter'), its sheet every talent ('exercer son talent') - setting `pivoting_corridor`."""
    if use in ALWAYS:
        return True
    if use == "control":
        return False
    setting = state.ruleset.settings.pivoting_corridor
    return setting == "talents" or (setting == "carry" and use == "carry")


def exits(state: GameState, cell: Cell, use: str) -> Mapping[str, Cell]:
    """The adjacent cells a character standing at `cell` reaches for this use, by direction:
    mostly the grid's own table (`grid.ADJACENT`, read and never changed), not a copy."""
    steps = grid.ADJACENT[cell]
    tile = state.tiles[state.cells[cell]]
    if not (tile.revealed and tile.kind == "pivoting" and tile.corridor and restricts(state, use)):
        return steps
    return {d: c for d, c in steps.items() if corridor_towards(d) == tile.corridor}


def turn_towards(ctx: Context, tile_id: TileId, origin: Cell | None) -> None:
    """'Whenever a character enters this room, turn it so that the corridor lines up with the
    room from which that character just entered' (000). A character called in: 'the corridor
    takes the orientation of the room from where the character is drawn' - the same cell.
    From a cell that is not next to the room (no such entry today) the corridor stays."""
    state = ctx.state
    cell = state.cell_of(tile_id)
    direction = None if origin is None else grid.direction_to(cell, origin)
    if direction is None:
        return
    corridor = corridor_towards(direction)
    if state.tiles[tile_id].corridor != corridor:
        ctx.emit(
            {
                "type": "corridor_turned",
                "tile": tile_id,
                "cell": grid.name(cell),
                "corridor": corridor,
            }
        )


def turn_quarter(ctx: Context, tile_id: TileId) -> None:
    """Chaos M.A.C. card (000): 'The Pivoting Room is turned 90°.' A corridor nobody has lined
    up yet has no orientation to turn."""
    state = ctx.state
    corridor = state.tiles[tile_id].corridor
    if corridor is None:
        return
    turned = CORRIDORS[1 - CORRIDORS.index(corridor)]
    cell = grid.name(state.cell_of(tile_id))
    ctx.emit({"type": "corridor_turned", "tile": tile_id, "cell": cell, "corridor": turned})
