"""The new rooms of Season 2 and Ultimate (000_f9f1d5a43eaf8620.txt, ROOMS and NEW ROOMS;
002_e232164e7c8dd598.txt, the new-rooms sheet and LES NOUVELLES SALLES).

Each effect is registered with `rooms.effect` like the base rooms. The Robot and Shredder rooms
come with the robots; the M.A.C. room draws a card through mac.py.
"""

from __future__ import annotations

from ..kernel import chance, grid
from ..kernel.context import Context
from ..kernel.state import GameState, TileId
from . import board, choices, flow, mac, modes, pivoting, rooms

# The order of a Paranoia pile is face down: no seat may see it, its owner included.
FACE_DOWN = "face-down"


@rooms.effect("tunnel")
def _tunnel(ctx: Context, cid: str, tile_id: TileId) -> None:
    """'This room has the same effect as the Tunnel chamber from the base game, but if all
    three Tunnel rooms are visible, the player chooses which of the other two their character
    moves to. Similarly, if a character is pushed or drawn into a tunnel room and the other two
    are visible, the player may decide which of the other two he moves to.' (000, Tunnel
    chamber). 002: 'il doit choisir dans laquelle des deux il arrive'. Setting `tunnel_choice`:
    with "may", a character pushed or drawn in may also stay (his own cell is an option)."""
    state = ctx.state
    others = [
        t.id for t in state.tiles.values() if t.id != tile_id and t.revealed and t.kind == "tunnel"
    ]
    if len(others) == 1:
        rooms.place(ctx, cid, others[0], "tunnel")
    elif len(others) == 2:
        options = sorted(grid.name(state.cell_of(t)) for t in others)
        sent_in = state.current != cid  # pushed, called or carried by someone else's action
        if sent_in and state.ruleset.settings.tunnel_choice == "may":
            options.append(grid.name(state.cell_of(tile_id)))
        choices.ask(ctx, "tunnel", cid, options, tile_id)


@choices.answers("tunnel")
def _tunnel_chosen(ctx: Context, pending: dict, cell: str) -> None:
    state = ctx.state
    cid, tile = pending["character"], state.cells[grid.parse_cell(cell)]
    if tile != state.characters[cid].tile:
        rooms.place(ctx, cid, tile, "tunnel")


@rooms.effect("regeneration")
def _regeneration(ctx: Context, cid: str, tile_id: TileId) -> None:
    """'When a character enters the Regeneration Room he activates it if one or more characters
    have already been eliminated. [...] all eliminated characters are returned immediately to
    the central room. Once this occurs, this room is destroyed. Their players [...] will be able
    to program actions at the beginning of the next round.' (000). Roles and lost Adrenaline
    tokens stay as they were."""
    state = ctx.state
    dead = [d for d in state.deaths if not state.characters[d].alive]
    if not dead:
        return
    ctx.emit(
        {
            "type": "regenerated",
            "characters": dead,
            "tile": state.cells[grid.CENTRE],
            "cell": grid.name(grid.CENTRE),
            "order": _order_with(state, dead),
            "slots": flow.ADRENALINE_ROUND,
        }
    )
    board.destroy_room(ctx, tile_id)


def _order_with(state: GameState, revived: list[str]) -> list[str]:
    """'Flip their turn markers back off of their skull side. If their turn markers were
    removed from the board, place them so they will act first so as not to change the number
    of turns remaining.' (000). 002: 'en première position (dans le sens du tour de table)'.
    They act from the next turn, so they go right behind the current first marker, which the
    countdown sends to the end; several go in clockwise order from the seat after his."""
    removed = [cid for cid in revived if cid not in state.order]
    if not removed:
        return list(state.order)
    seats = list(state.seats)
    first = seats.index(state.characters[state.order[0]].seat) if state.order else -1

    def clockwise(cid: str) -> tuple[int, int]:
        seat = state.characters[cid].seat
        return (seats.index(seat) - first - 1) % len(seats), state.seats[seat].characters.index(cid)

    return [*state.order[:1], *sorted(removed, key=clockwise), *state.order[1:]]


@rooms.effect("pivoting")
def _pivoting(ctx: Context, cid: str, tile_id: TileId) -> None:
    pivoting.turn_towards(ctx, tile_id, ctx.state.characters[cid].came_from)


@rooms.effect("paranoia")
def _paranoia(ctx: Context, cid: str, tile_id: TileId) -> None:
    """'When your character enters this room, mix all of your action tokens (including those
    played this turn) and make a face-down pile.' (000) 002 names the talent token too. Tokens
    lost to a Punishment card stay out; what was programmed and not yet played goes into the
    pile. The shuffle is a chance outcome of the game's generator, kept in a face-down event."""
    state = ctx.state
    c = state.characters[cid]
    ctx.emit({"type": "paranoia", "character": cid})
    rng, pile = chance.shuffled(state.rng, flow.tokens(state, c))
    ctx.emit(
        {"type": "paranoia_pile", "character": cid, "pile": pile, "rng": rng, "private": FACE_DOWN}
    )


@rooms.effect("mac")
def _mac(ctx: Context, cid: str, tile_id: TileId) -> None:
    """'Immediately draw a card from the M.A.C. deck and apply its effects. If the effect is
    applied to one or more specific characters (for example, the "punishment" cards), your
    character suffers the effects instead.' (000, M.A.C. room). Decision: entered while other
    cards are being drawn, the room's card is the next one drawn, and it falls on the entrant."""
    state = ctx.state
    if state.mac is None:
        return
    if mac.busy(state):
        ctx.emit({"type": "mac_batch_more", "count": 1, "drawer": cid})
        return
    mac.start(ctx, 1, "action", drawer=cid)
    mac.run(ctx)


@rooms.effect("mirror")
def _mirror(ctx: Context, cid: str, tile_id: TileId) -> None:
    """'Lose your Adrenaline token. If you have other actions programmed this turn, they are
    cancelled. Your turn ends.' (000) 'If your Adrenaline token has already been discarded and
    you do not have any other actions programmed this turn, this room has no effect on you.'
    'A character under the effect of the Paranoia room loses his Adrenaline token, but not his
    remaining actions, as they were not programmed.'"""
    state = ctx.state
    c = state.characters[cid]
    being_used = state.round == flow.ADRENALINE_ROUND and state.current == cid
    if c.adrenaline and not being_used:
        ctx.emit({"type": "adrenaline_lost", "character": cid, "cause": "mirror"})
    if not flow.draws(c) and _actions_left(state, cid):
        ctx.emit({"type": "actions_cancelled", "character": cid, "cause": "mirror"})


def _actions_left(state: GameState, cid: str) -> bool:
    """Whether the character still has an action to play this turn, besides the Adrenaline.
    Decision: one who chooses at his turn (an exposed guard) loses his remaining choices too,
    since 'Your turn ends' (002: 'vos actions restantes pour ce tour sont annulées')."""
    c = state.characters[cid]
    if state.phase != "action" or state.round == flow.ADRENALINE_ROUND:
        return False
    if flow.programs(state, c):
        return bool(c.program)
    return len(c.played) < c.limit


@rooms.effect("timer")
def _timer(ctx: Context, cid: str, tile_id: TileId) -> None:
    """'If a character enters this room before the last turn, the countdown is reduced by 1
    turn - all of the turn markers should be advanced one space without changing the turn
    order. If a character enters this room during the final round [...] That character is
    immediately eliminated from the game and the countdown is not reduced. In both cases, the
    Timer room is then removed from play and replaced with an empty room.' (000) Carried in,
    both are 'affected by their destination room in an identical and unique way' (000, MAX :
    CARRY): the countdown drops once, and in the final round both are eliminated."""
    state = ctx.state
    if state.last_turn:
        for member in rooms.company(state, cid):
            board.eliminate(ctx, member, "timer")
    else:
        ctx.emit({"type": "turns_reduced", "turns_left": state.turns_left - 1, "cause": "timer"})
    board.destroy_room(ctx, tile_id)


@rooms.effect("key")
def _key(ctx: Context, cid: str, tile_id: TileId) -> None:
    """'When a character enters the Key room, it is triggered. Replace it with an Empty room.
    You cannot escape the complex in Room 25 until this has been done.' (000) In a mode that
    does not use it the room does nothing (modes.key_in_play)."""
    state = ctx.state
    if modes.key_in_play(state) and not state.key_activated:
        ctx.emit({"type": "key_activated", "character": cid, "tile": tile_id})
        board.destroy_room(ctx, tile_id)
