"""The M.A.C. deck in play (Move Alone Complex): shuffles, draws at the moments the rules say,
and each card's effect (000_f9f1d5a43eaf8620.txt, M.A.C. CARDS and M.A.C. CARDS DESCRIPTION;
002_e232164e7c8dd598.txt, LES CARTES M.A.C.).

Draws come in batches (two before programming at the standard level, one before each of the
first player's actions at the Madness level, one for the M.A.C. room). A card that asks a
player for a choice pauses the batch; `run` carries on once the choice is made. The order of the
draw pile is a chance outcome kept in the state (a shuffle event only the engine sees); with a
physical deck the table reports each card drawn.
"""

from __future__ import annotations

from collections.abc import Callable

from ..kernel import chance, grid
from ..kernel.catalogue import box, colour
from ..kernel.context import Context
from ..kernel.grid import Cell
from ..kernel.mac_cards import Deck, MacCard
from ..kernel.registry import Filing, Table
from ..kernel.state import LOCK_TOKENS, GameState, MacPile
from . import board, choices, pivoting, rooms, talents
from .abilities import sabotage_room, sabotage_room_options

# Cards that stay face up until the end of the turn (000: "placed in plain view until end of turn").
STAY_IN_PLAY = ("jamming", "time_bomb")
PUNISHABLE = ("look", "control", "talent")


def busy(state: GameState) -> bool:
    """A batch of draws is under way (perhaps waiting for a choice)."""
    return state.mac is not None and (state.mac.due > 0 or state.mac.current is not None)


def standard_draw_due(state: GameState) -> bool:
    """Standard level: 'All rounds EXCEPT during the final round: BEFORE each programming phase,
    draw 2 M.A.C. cards (or more if the cards tell you to draw again)' (000, COOPERATION)."""
    return state.mac is not None and state.mac.level == "standard" and not state.last_turn


def first_player(state: GameState) -> str | None:
    living = [cid for cid in state.order if state.characters[cid].alive]
    return living[0] if living else None


def madness_draw_due(state: GameState, cid: str) -> bool:
    """Madness level: 'AFTER the programming phase, draw 1 M.A.C. card before the first action
    of the first player ... Draw another card before the first player's second action' (000),
    except in the last turn."""
    mac = state.mac
    return (
        mac is not None
        and mac.level == "madness"
        and not state.last_turn
        and state.round in (1, 2)
        and state.round not in mac.madness_rounds
        and cid == first_player(state)
    )


def start(ctx: Context, count: int, after: str, drawer: str | None = None) -> None:
    ctx.emit(
        {
            "type": "mac_batch",
            "count": count,
            "after": after,
            "drawer": drawer,
            "round": ctx.state.round,
        }
    )


def run(ctx: Context) -> bool:
    """Draw and apply until the batch is over (True) or a choice is awaited (False)."""
    state = ctx.state
    while state.pending is None and state.outcome is None:
        mac = pile(state)  # each event puts a new pile in place
        if mac.current is not None:
            ctx.emit(
                {"type": "mac_card_done", "card": mac.current, "stays": _stays(state, mac.current)}
            )
            continue
        if mac.due <= 0:
            ctx.emit({"type": "mac_batch_done"})
            return True
        _draw(ctx)
    return state.outcome is not None


def _stays(state: GameState, card_id: str) -> bool:
    return _deck(state).by_id(card_id).kind in STAY_IN_PLAY


def pile(state: GameState) -> MacPile:
    """The piles of a game known to play the M.A.C. deck."""
    assert state.mac is not None, "the M.A.C. deck in a game without it"
    return state.mac


def _deck(state: GameState) -> Deck:
    assert state.mac_deck is not None, "the M.A.C. deck in a game without it"
    return state.mac_deck


def _draw(ctx: Context) -> None:
    state = ctx.state
    mac = pile(state)
    if mac.draw is None:
        choices.ask(ctx, "mac_card", None, remaining_cards(state))
        return
    if not mac.draw:
        if not mac.discard:
            ctx.emit({"type": "mac_batch_over", "reason": "every card is in play"})
            return
        rng, shuffled = chance.shuffled(state.rng, mac.discard)
        ctx.emit({"type": "mac_shuffled", "pile": shuffled, "rng": rng, "private": "engine"})
        ctx.emit({"type": "mac_reshuffled", "cards": len(shuffled)})
    draw = pile(state).draw  # the shuffle put a new pile in place
    assert draw is not None
    reveal(ctx, draw[0])


def remaining_cards(state: GameState) -> list[str]:
    """Physical deck: the cards that may still come off the pile (the deck less the cards face
    up in the discard and in play)."""
    mac = pile(state)
    out = [*mac.discard, *mac.in_play]
    left = []
    for card in _deck(state).cards:
        if card.count > out.count(card.id):
            left.append(card.id)
    return left


def reveal(ctx: Context, card_id: str) -> None:
    """The card comes off the pile: announce it (name, texts, mini-map) and apply it."""
    card = _deck(ctx.state).by_id(card_id)
    ctx.emit({"type": "mac_drawn", "card": card_id, "shown": card.shown_in(ctx.state.characters)})
    if ctx.state.tracked:
        EFFECTS.get(card.kind, _no_effect)(ctx, card)
    elif card.draw_again:
        # Without a tracked board the table carries the card out; the Pi still counts draws.
        ctx.emit({"type": "mac_batch_more", "count": 1})


def _first_player_character(state: GameState) -> list[str]:
    first = first_player(state)
    return _drawer_or(state, [first] if first else [])


def _yellow_rooms(state: GameState, cell: Cell) -> list[Cell]:
    """Adjacent rooms seen to be yellow that a push from this cell reaches (a Pivoting room's
    corridor restricts pushes)."""
    steps = pivoting.exits(state, cell, "push").values()
    return [step for step in steps if colour_of(state, step) == "yellow"]


def _yellow_exits(state: GameState, cid: str, cell: Cell) -> list[Cell]:
    """Adjacent yellow rooms face up that the character may enter; none for a hidden one
    (000, ALICE: "A hidden character cannot be pushed")."""
    if state.characters[cid].hidden:
        return []
    return [step for step in _yellow_rooms(state, cell) if board.may_enter(state, step, cid)]


def _other_tunnels(state: GameState, cid: str) -> list[Cell]:
    """Chaos: 'moved to another visible Tunnel Chamber' (002: 'visible et accessible')."""
    here = state.characters[cid].tile
    return [
        state.cell_of(t.id)
        for t in state.tiles.values()
        if t.id != here
        and t.revealed
        and t.kind == "tunnel"
        and board.may_enter(state, state.cell_of(t.id), cid)
    ]


def _moves(ctx: Context, steps: list[list[str]]) -> None:
    """Carry out the moves a card imposes, one character after the other, each asking its
    player where to go: 'push' into an adjacent yellow room, 'tunnel' to another Tunnel room."""
    state = ctx.state
    while steps:
        (kind, cid), steps = steps[0], steps[1:]
        cell = state.where(cid)
        if cell is None:
            continue
        options = _yellow_exits(state, cid, cell) if kind == "push" else _other_tunnels(state, cid)
        if not options:
            continue
        if kind == "push" and talents.may_refuse_robot_push(state, cid):
            options.append(cell)  # Alice may refuse the robot's push: she stays
        asked = "mac_push" if kind == "push" else "mac_tunnel"
        choices.ask(ctx, asked, cid, [grid.name(c) for c in options], queue=steps)
        return


@choices.answers("mac_card")
def _card_shown(ctx: Context, pending: dict, card: str) -> None:
    reveal(ctx, card)


@choices.answers("mac_push")
def _pushed(ctx: Context, pending: dict, cell: str) -> None:
    state = ctx.state
    here = grid.parse_cell(cell)
    if here != state.where(pending["character"]):
        rooms.enter(ctx, pending["character"], state.cells[here], how="robot")
    _moves(ctx, pending["queue"])


@choices.answers("mac_tunnel")
def _tunnel_chosen(ctx: Context, pending: dict, cell: str) -> None:
    rooms.place(ctx, pending["character"], ctx.state.cells[grid.parse_cell(cell)], "chaos")
    _moves(ctx, pending["queue"])


@choices.answers("punishment")
def _punished(ctx: Context, pending: dict, token: str) -> None:
    ctx.emit({"type": "token_lost", "character": pending["character"], "token": token})
    _punish_next(ctx, pending["queue"])


@choices.answers("mac_lock")
def _lock_chosen(ctx: Context, pending: dict, cell: str) -> None:
    _lock(ctx, pending["character"], cell)


@choices.answers("mac_lock_from")
def _lock_moved(ctx: Context, pending: dict, cell: str) -> None:
    state = ctx.state
    tile = state.cells[grid.parse_cell(pending["target"])]
    moved = state.cells[grid.parse_cell(cell)]
    ctx.emit(
        {
            "type": "lock_placed",
            "character": None,
            "tile": tile,
            "cell": pending["target"],
            "moved_from": moved,
        }
    )


@choices.answers("mac_panic_room")
def _panic_room_chosen(ctx: Context, pending: dict, cell: str) -> None:
    _panic_move(ctx, pending["character"], grid.parse_cell(cell))


@choices.answers("mac_panic_swap")
def _panic_swap_chosen(ctx: Context, pending: dict, cells: str) -> None:
    a, b = (grid.parse_cell(c) for c in cells.split())
    ctx.emit({"type": "swapped", "cells": [a, b], "how": "panic"})


# --- effects ------------------------------------------------------------------------------

Effect = Callable[[Context, MacCard], None]
# What each card kind does (000, M.A.C. CARDS DESCRIPTION); every kind of the deck has one.
EFFECTS: Table[Effect] = Table("card kind")


effect: Filing[Effect] = EFFECTS.register


def _no_effect(ctx: Context, card: MacCard) -> None:
    return None


def _drawer_or(state: GameState, cids: list[str]) -> list[str]:
    """Cards that name characters hit the M.A.C. room's drawer instead (000, M.A.C. room); Max
    carrying a character in, both ("affected by their destination room in an identical and
    unique way", 000, MAX : CARRY: one card drawn, falling on both)."""
    drawer = state.mac.card_drawer if state.mac else None
    return rooms.company(state, drawer) if drawer is not None else cids


@effect("complex_movement")
def _complex_movement(ctx: Context, card: MacCard) -> None:
    """Like a Control action, read from the companion's side; a Control token each time; a move
    against a line's direction this turn is ignored; x2 twice; 'draw again' one more card.
    Decision: a card's slide never takes Room 25 out: escaping takes a character's Control."""
    assert card.line is not None and card.direction is not None
    for _ in range(card.steps):
        used = ctx.state.controls.get(grid.line_key(card.line.axis, card.line.index))
        if used is not None and used != card.direction:
            ctx.emit({"type": "mac_move_ignored", "card": card.id})
            break
        board.slide(ctx, card.line.axis, card.line.index, card.direction, exit_allowed=False)
    if card.draw_again:
        ctx.emit({"type": "mac_batch_more", "count": 1})


@effect("punishment")
def _punishment(ctx: Context, card: MacCard) -> None:
    """Both pictured characters lose Look, Control or their talent for the game, their choice;
    several cards stack; Alice is immune (000, ALICE: 'The M.A.C. cards Punishment, Panic, and
    Rewind never affect her')."""
    assert card.characters is not None
    _punish_next(ctx, _drawer_or(ctx.state, list(card.characters)))


def _punish_next(ctx: Context, queue: list[str]) -> None:
    state = ctx.state
    while queue:
        cid, queue = queue[0], queue[1:]
        c = state.characters.get(cid)
        if c is None or not c.alive or _immune(state, cid):
            continue
        held = [t for t in PUNISHABLE if t not in c.lost]
        if t := [t for t in held if t != "talent" or state.ruleset.settings.talents]:
            choices.ask(ctx, "punishment", cid, t, queue=queue)
            return


def _immune(state: GameState, cid: str) -> bool:
    return cid == "alice" and state.ruleset.settings.talents


@effect("time_bomb")
def _time_bomb(ctx: Context, card: MacCard) -> None:
    """'If the second Time Bomb card is drawn this turn, all characters in red rooms die
    immediately' (000); Season 2 sets no limit of time (setting time_bomb_same_turn)."""
    state = ctx.state
    mac = pile(state)
    if state.ruleset.settings.time_bomb_same_turn:
        second = mac.drawn.count(card.id) >= 2
    else:
        second = mac.bombs >= 2
    if not second:
        return
    doomed = []
    for c in state.living():
        cell = state.where(c.id)
        kind = board.kind_at(state, cell) if cell is not None else None
        if kind is not None and colour(kind) == "red":
            doomed.append(c.id)
    board.eliminate_all(ctx, doomed, "time_bomb")


@effect("jamming")
def _jamming(ctx: Context, card: MacCard) -> None:
    """Cooperation: no communication this round. Solo: every reminder token leaves the board and
    none may be placed until the next round."""
    ctx.emit({"type": "jammed", "reminders_removed": ctx.state.ruleset.mode == "solo"})


@effect("rewind")
def _rewind(ctx: Context, card: MacCard) -> None:
    state = ctx.state
    first = first_player(state)
    for cid in _drawer_or(state, [first] if first else []):
        if not _immune(state, cid):
            rooms.place(ctx, cid, state.cells[grid.CENTRE], "rewind")


@effect("robot")
def _robot(ctx: Context, card: MacCard) -> None:
    """'If the first player's character is in a red or blue room, this card has no effect.
    Otherwise a robot is moved to the first player's room (or placed there if there is no Robot
    in play). That robot then pushes the first player's character into an adjacent yellow room
    of his choice (if any).' Decision: with several robots in play, the nearest one comes (the
    first in reading order among the nearest)."""
    state = ctx.state
    for cid in _first_player_character(state):
        cell = state.where(cid)
        if cell is None or colour(state.tile_at(cell).room) in ("red", "blue"):
            continue
        target = state.cells[cell]
        if not state.robots:
            if not box(state.ruleset.edition).get("robot"):
                continue  # a box without robots (the base game with a M.A.C. deck): no effect
            ctx.emit({"type": "robot_placed", "tile": target, "cell": cell})
        elif target not in state.robots:
            nearest = min(
                state.robots, key=lambda t: (_distance(state.cell_of(t), cell), state.cell_of(t))
            )
            ctx.emit({"type": "robot_moved", "tile": nearest, "to": target, "cell": cell})
        _moves(ctx, [["push", cid]])


def _distance(a: Cell, b: Cell) -> int:
    (ra, ca), (rb, cb) = grid.row_col(a), grid.row_col(b)
    return abs(ra - rb) + abs(ca - cb)


@effect("chaos")
def _chaos(ctx: Context, card: MacCard) -> None:
    """'The Pivoting Room is turned 90°. Characters present in the same room as a robot are
    pushed into an adjacent yellow room of their choice (if any). Characters in a Tunnel
    Chamber are moved to another visible Tunnel Chamber.' (000; 002 adds 'et accessible').
    Decision: every Pivoting room face up turns; the characters move in turn order."""
    state = ctx.state
    for tile in list(state.tiles.values()):
        if tile.revealed and tile.kind == "pivoting":
            pivoting.turn_quarter(ctx, tile.id)
    living = [state.characters[cid] for cid in state.order if state.characters[cid].alive]
    steps = [["push", c.id] for c in living if c.tile in state.robots]
    steps += [["tunnel", c.id] for c in living if state.tile_at(state.here(c.id)).kind == "tunnel"]
    _moves(ctx, steps)


def _lockable(state: GameState, cells: list[Cell]) -> list[str]:
    """Visible, non-blue rooms without a Lock token (000, EMMETT, LOCK ON; LOCK ON card)."""
    return [
        grid.name(c)
        for c in sorted(cells)
        if state.tile_at(c).revealed
        and colour(state.tile_at(c).room) != "blue"
        and not board.locked(state, c)
    ]


def _lock(ctx: Context, cid: str, target: str) -> None:
    """Put a Lock token on a room; with both tokens already placed, 'Emmett must move one
    already on the board' (000, LOCK ON card). Decision: without Emmett in play, the first
    player chooses which one moves."""
    state = ctx.state
    cell = state.cells[grid.parse_cell(target)]
    if len(state.locks) < LOCK_TOKENS:
        ctx.emit(
            {
                "type": "lock_placed",
                "character": None,
                "tile": cell,
                "cell": target,
                "moved_from": None,
            }
        )
        return
    emmett = state.characters.get("emmett")
    chooser = "emmett" if emmett is not None and emmett.alive else cid
    placed = sorted(grid.name(state.cell_of(t)) for t in state.locks)
    choices.ask(ctx, "mac_lock_from", chooser, placed, target=target)


@effect("lock_on")
def _lock_on(ctx: Context, card: MacCard) -> None:
    """'The first player places a lock on an adjacent and visible non-blue room. Only Emmett
    can enter this room.' (000)"""
    state = ctx.state
    for cid in _first_player_character(state):
        cell = state.where(cid)
        options = _lockable(state, list(grid.neighbours(cell).values())) if cell is not None else []
        if options:
            choices.ask(ctx, "mac_lock", cid, options)


Panic = Callable[[Context, str], None]  # (ctx, the character who panics)
# How each character panics (000, PANIC card).
PANICS: Table[Panic] = Table(
    "character",
    idle={"alice": "'The M.A.C. cards Punishment, Panic, and Rewind never affect her' (000)"},
)
panics: Filing[Panic] = PANICS.register


@effect("panic")
def _panic(ctx: Context, card: MacCard) -> None:
    """'The first player applies the following effect to his character' (000, PANIC): each
    character panics in his own way; Alice is immune."""
    state = ctx.state
    for cid in _first_player_character(state):
        if state.where(cid) is not None and not _immune(state, cid) and cid in PANICS:
            PANICS[cid](ctx, cid)


@panics("franck")
def _panic_franck(ctx: Context, cid: str) -> None:
    """'His Adrenaline token is discarded but can be recovered.'"""
    if ctx.state.characters[cid].adrenaline:
        ctx.emit({"type": "adrenaline_lost", "character": cid, "cause": "panic"})


@panics("jennifer")
def _panic_jennifer(ctx: Context, cid: str) -> None:
    """'If she occupies a yellow room, all adjacent characters are drawn to her.' Decision: the
    characters she could call (not hidden, allowed into her room), each applying the room."""
    state = ctx.state
    here = state.here(cid)
    if colour_of(state, here) != "yellow":
        return
    tile = state.cells[here]
    for cell in grid.neighbours(here).values():
        for other in state.occupants(state.cells[cell]):
            if not state.characters[other].hidden and board.may_enter(state, here, other):
                rooms.enter(ctx, other, tile, how="panic")


@panics("kevin")
def _panic_kevin(ctx: Context, cid: str) -> None:
    """'He exchanges the positions of two adjacent rooms (except visible blue rooms). If one or
    more rooms are occupied, they must be chosen to swap (if possible).'"""
    state = ctx.state
    here = state.here(cid)
    cells = [c for c in grid.neighbours(here).values() if colour_of(state, c) != "blue"]
    occupied = [c for c in cells if state.occupants(state.cells[c])]
    pairs = [
        (a, b)
        for i, a in enumerate(cells)
        for b in cells[i + 1 :]
        if sum(c in occupied for c in (a, b)) == min(len(occupied), 2)
    ]
    if pairs:
        options = [f"{grid.name(a)} {grid.name(b)}" for a, b in pairs]
        choices.ask(ctx, "mac_panic_swap", cid, options)


def colour_of(state: GameState, cell: Cell) -> str | None:
    """The colour the table sees: None for a hidden room."""
    tile = state.tile_at(cell)
    return colour(tile.kind) if tile.revealed and tile.kind else None


@panics("emmett")
def _panic_emmett(ctx: Context, cid: str) -> None:
    """'He places a "lock" token in the room he occupies. There is no effect if the room is
    blue.'"""
    state = ctx.state
    options = _lockable(state, [state.here(cid)])
    if options:
        _lock(ctx, cid, options[0])


@panics("max", "bruce")
def _panic_group(ctx: Context, cid: str) -> None:
    """Max: 'He carries all the characters in the room he occupies into an adjacent yellow room
    of his choice.' Bruce: 'He pushes all of the characters in his room into an adjacent yellow
    room of his choice.' No effect without an adjacent yellow room he may enter."""
    state = ctx.state
    here = state.here(cid)
    if cid == "max":
        rooms_ = _yellow_exits(state, cid, here)
    else:  # Bruce pushes the others, hidden or not himself
        others = [o for o in state.occupants(state.cells[here]) if o != cid]
        rooms_ = [
            c
            for c in _yellow_rooms(state, here)
            if any(board.may_enter(state, c, o) for o in others)
        ]
    if rooms_:
        choices.ask(ctx, "mac_panic_room", cid, [grid.name(c) for c in rooms_])


def _panic_move(ctx: Context, cid: str, cell: Cell) -> None:
    """Max goes along with those he carries; Bruce stays and pushes them. Decision: each
    character applies the room in turn; a hidden one stays (she cannot be carried or pushed)."""
    state = ctx.state
    tile = state.cells[cell]
    group = [o for o in state.occupants(state.cells[state.here(cid)]) if o != cid]
    group = [o for o in group if not state.characters[o].hidden]
    if cid == "max":
        group.insert(0, cid)
    for other in group:
        if state.characters[other].alive and board.may_enter(state, cell, other):
            rooms.enter(ctx, other, tile, how="panic")


@panics("sarah")
def _panic_sarah(ctx: Context, cid: str) -> None:
    """'She replaces the non-blue room she occupies with an empty room from her reserve. If her
    reserve is empty, this card has no effect.'"""
    if sabotage_room_options(ctx.state, cid):
        sabotage_room(ctx, cid)


@effect("acceleration")
def _acceleration(ctx: Context, card: MacCard) -> None:
    ctx.emit({"type": "accelerated"})


@effect("disabled_rooms")
def _disabled_rooms(ctx: Context, card: MacCard) -> None:
    """All unoccupied rooms of the card's colour are turned face down; any token on them goes
    back to its owner (a Do Not Cross marker included)."""
    state = ctx.state
    for cell in grid.CELLS:
        tile = state.tile_at(cell)
        same_colour = tile.revealed and tile.kind and colour(tile.kind) == card.colour
        # Decision: a robot occupies a room as a character does.
        if same_colour and not state.occupants(tile.id) and tile.id not in state.robots:
            ctx.emit({"type": "room_hidden", "tile": tile.id, "cell": grid.name(cell)})


@effect("blackout")
def _blackout(ctx: Context, card: MacCard) -> None:
    """'All robots are destroyed and all green rooms are replaced with Empty Rooms (even if
    occupied)'. Decision: only the rooms face up: a hidden tile is not known to be green."""
    state = ctx.state
    for robot in list(state.robots):
        ctx.emit(
            {
                "type": "robot_destroyed",
                "tile": robot,
                "cell": grid.name(state.cell_of(robot)),
                "cause": "blackout",
            }
        )
    for cell in grid.CELLS:
        tile = state.tile_at(cell)
        if tile.revealed and tile.kind not in (None, "empty") and colour(tile.kind) == "green":
            board.destroy_room(ctx, tile.id)


def deck_for(deck: Deck, level: str) -> Deck:
    """Standard level: 'Play only with basic M.A.C cards'; Madness: all of them (000)."""
    return deck if level == "madness" else deck.without_madness()
