"""The Shredder room (000_f9f1d5a43eaf8620.txt, ROOMS, Shredder room; 002_e232164e7c8dd598.txt,
SALLE BROYEUR): "When a character exits or a robot enters this room, the Shredder room goes into
action. Any characters still in this room are eliminated and this room becomes inaccessible for
the rest of the game. Place a "Do Not Cross" token on this room."

Entering it does nothing to a character; leaving it, however he leaves (moved, pushed, called),
sets it off for those who stay. The "Do Not Cross" marker is the tile's `sealed` flag.
"""

from __future__ import annotations

from ..kernel.context import Context
from ..kernel.state import TileId
from . import board, rooms


def shred(ctx: Context, tile_id: TileId) -> None:
    """The Shredder goes into action: whoever is still inside dies, then no one may enter."""
    state = ctx.state
    board.eliminate_all(ctx, state.occupants(tile_id), "shredder")
    if not state.tiles[tile_id].sealed:
        ctx.emit({"type": "sealed", "tile": tile_id})


@rooms.on_leave("shredder")
def _exited(ctx: Context, cid: str, tile_id: TileId) -> None:
    shred(ctx, tile_id)
