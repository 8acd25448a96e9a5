"""The fold: how each event changes the state. Nothing else changes a state.

A state's next version shares everything that does not change with it (`GameState.clone`), so
a handler never changes a shared value in place: it puts a new list, table or tile in the new
version (`_retile`, `_seat`, `_pile`), and copies a character the first time the version changes
him (`_character`).

Replaying a game's events through `evolve` from nothing rebuilds the state exactly, which is
what the journal, undo and the property tests rely on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .mac_deck import deck_from_data
from .registry import Filing, Table
from .ruleset import Settings, make_ruleset
from .state import RESERVED_EMPTY, Character, GameState, MacPile, Seat, Tile, TileId

Handler = Callable[[GameState, dict], None]
# What each event type does to a state: every type of `shapes.EVENT_FIELDS` has a handler.
HANDLERS: Table[Handler] = Table(
    "event type", idle={"game_created": "it makes a state rather than change one: `created`"}
)


handles: Filing[Handler] = HANDLERS.register


def evolve(state: GameState, event: dict) -> None:
    FOLD[event["type"]](state, event)
    # The version counts the events every seat sees: a private one (a programme, a room seen)
    # must not tell the other seats that it happened.
    if event.get("private") is None:
        state.version += 1


def replay(events: Iterable[dict]) -> GameState:
    """Rebuild a state from its events (the first must be `game_created`)."""
    state: GameState | None = None
    for event in events:
        if event["type"] == "game_created":
            state = created(event)
        else:
            assert state is not None, "a game's events start with game_created"
            evolve(state, event)
    assert state is not None, "no events"
    return state


def created(event: dict) -> GameState:
    rules = event["ruleset"]
    ruleset = make_ruleset(
        rules["edition"], rules["mode"], rules["tracking"], rules["settings"], rules["turns"]
    )
    assert ruleset.settings == Settings(**rules["settings"])
    state = GameState(
        ruleset=ruleset,
        rng=event["rng"],
        seats={s["id"]: Seat(s["id"], tuple(s["characters"])) for s in event["seats"]},
        characters={},
        tiles={
            TileId(i): Tile(TileId(i), kind, revealed)
            for i, (kind, revealed) in enumerate(event["tiles"])
        },
        cells=[],  # laid below, with their inverse
        order=list(event["order"]),
        composition=dict(event["composition"]),
        turns_left=event["turns_left"],
        phase=event["phase"],
        version=1,
    )
    state.lay(list(event["cells"]))
    if event.get("mac"):
        deck = deck_from_data({"cards": event["mac"]["cards"]}, "game")
        state.mac_deck = deck
        physical = event["mac"]["physical"]
        state.mac = MacPile(event["mac"]["level"], None if physical else [])
    for seat in event["seats"]:
        for cid in seat["characters"]:
            state.characters[cid] = Character(
                cid,
                seat["id"],
                event["start"],
                adrenaline=ruleset.settings.adrenaline,
                reserve=RESERVED_EMPTY.get(cid, 0) if ruleset.settings.talents else 0,
            )
    state.fresh = set(state.characters)
    state.room25 = _face_up_room25(state.tiles)
    return state


def _pile(state: GameState) -> MacPile:
    """The M.A.C. piles are shared between a state and its copies: copy before changing."""
    assert state.mac is not None, "a M.A.C. event in a game without the deck"
    pile = state.mac = state.mac.copy()
    return pile


def _character(state: GameState, cid: str) -> Character:
    """Characters are shared between versions of a state: a version copies one the first time
    it changes it, then changes its own copy in place."""
    c = state.characters[cid]
    fresh = state.fresh
    if cid not in fresh:
        c = state.characters[cid] = c.copy()
        if isinstance(fresh, set):
            fresh.add(cid)
        else:  # `NOBODY`, shared by every version just cloned: this version's own set now
            state.fresh = {cid}
    return c


def _seat(state: GameState, sid: str) -> Seat:
    """Seats, and the table of them, are shared between versions: copy both before changing
    a seat."""
    seat = state.seats[sid].copy()
    state.seats = {**state.seats, sid: seat}
    return seat


def _retile(
    state: GameState,
    tile_id: TileId,
    *,
    kind: str | None = None,
    revealed: bool | None = None,
    sealed: bool | None = None,
    corridor: str | None = None,
) -> None:
    """Tiles are immutable and the table of them is shared between versions: a change puts a
    new tile in a new table. What is not given (None) stays as it was, since no event takes a
    room or a corridor away; made field by field, at half the cost of `dataclasses.replace`."""
    tile = state.tiles[tile_id]
    _put_tile(
        state,
        Tile(
            tile.id,
            tile.kind if kind is None else kind,
            tile.revealed if revealed is None else revealed,
            tile.sealed if sealed is None else sealed,
            tile.corridor if corridor is None else corridor,
            tile.seen or tile.revealed,
        ),
    )


def _put_tile(state: GameState, tile: Tile) -> None:
    state.tiles = {**state.tiles, tile.id: tile}
    if tile.revealed and tile.kind == "room25":
        state.room25 = tile.id
    elif state.room25 == tile.id:
        state.room25 = None


def _face_up_room25(tiles: dict[TileId, Tile]) -> TileId | None:
    return next((t.id for t in tiles.values() if t.revealed and t.kind == "room25"), None)


@handles("position_set")
def _position(state: GameState, e: dict) -> None:
    """A whole position written down mid-game (scenario files): replaces what it names."""
    for key in (
        "phase",
        "turn",
        "turns_left",
        "alarm",
        "round",
        "current",
        "arrivals",
        "key_activated",
    ):
        if key in e:
            setattr(state, key, e[key])
    # Containers are copied: the event stays in the journal and must not share them.
    copies: tuple[tuple[str, Callable[[Any], object]], ...] = (
        ("order", list),
        ("controls", dict),
        ("robots", tuple),
        ("locks", tuple),
        ("deaths", list),
    )
    for key, copy in copies:
        if key in e:
            setattr(state, key, copy(e[key]))
    if "cells" in e:
        state.lay(list(e["cells"]))  # the cells with their inverse, `places`
    if "tiles" in e:
        state.tiles = {
            TileId(i): Tile(
                TileId(i),
                t["kind"],
                t["revealed"],
                t["sealed"],
                t.get("corridor"),
                t.get("seen", False),
            )
            for i, t in enumerate(e["tiles"])
        }
        state.room25 = _face_up_room25(state.tiles)
    if "mac" in e:
        mac = _pile(state)
        if mac.draw is not None:
            mac.draw = list(e["mac"]["draw"])
        mac.discard, mac.in_play = list(e["mac"]["discard"]), list(e["mac"]["in_play"])
        # Cards face up in play were drawn this turn; every Time bomb face up was drawn.
        mac.drawn = list(mac.in_play)
        assert state.mac_deck is not None, "a M.A.C. position in a game without the deck"
        bombs = [c.id for c in state.mac_deck.cards if c.kind == "time_bomb"]
        mac.bombs = sum(1 for card in [*mac.discard, *mac.in_play] if card in bombs)
    for cid, fields in e.get("characters", {}).items():
        for key, value in fields.items():
            setattr(_character(state, cid), key, tuple(value) if isinstance(value, list) else value)
    for sid, fields in e.get("seats", {}).items():
        seat = _seat(state, sid)
        for key, value in fields.items():
            if key == "notebook":
                seat.notebook = {TileId(int(t)): kind for t, kind in value.items()}
            else:
                setattr(seat, key, value)


@handles("role_dealt")
def _role(state: GameState, e: dict) -> None:
    _character(state, e["character"]).role = e["role"]
    state.rng = e.get("rng", state.rng)


@handles("role_revealed")
def _role_revealed(state: GameState, e: dict) -> None:
    _character(state, e["character"]).role_public = True


@handles("guard_exposed")
def _exposed(state: GameState, e: dict) -> None:
    c = _character(state, e["character"])
    c.exposed_turn = state.turn
    c.role_public = True


@handles("clue_taken")
def _clue(state: GameState, e: dict) -> None:
    _seat(state, e["seat"]).clue = e["cell"]


@handles("room_seen")
def _seen(state: GameState, e: dict) -> None:
    _seat(state, e["seat"]).notebook[e["tile"]] = e["room"]
    _identify(state, e["tile"], e["room"])


@handles("tile_identified")
def _identified(state: GameState, e: dict) -> None:
    _identify(state, e["tile"], e["room"])


def _identify(state: GameState, tile_id: TileId, kind: str) -> None:
    """A physical tile is what the latest report says: a reveal overrides an earlier Look. A
    tile already known as that room (every dealt tile) stays shared with the last version."""
    if state.tiles[tile_id].kind != kind:
        _retile(state, tile_id, kind=kind)


@handles("phase")
def _phase(state: GameState, e: dict) -> None:
    state.phase = e["phase"]
    state.round = e.get("round", state.round)
    state.current = None
    if e["phase"] == "programming":
        state.previous = None
        for cid in state.characters:
            c = _character(state, cid)
            c.program, c.single_action, c.locked, c.played, c.slots = (), False, False, (), 0
            c.adrenaline_programmed, c.talent_choice = False, None
            c.limit = e["limits"].get(c.id, 2)


@handles("limits")
def _limits(state: GameState, e: dict) -> None:
    for cid in state.characters:
        _character(state, cid).limit = e["limits"].get(cid, 2)


@handles("locked_in")
def _locked(state: GameState, e: dict) -> None:
    _character(state, e["character"]).locked = True


@handles("unlocked")
def _unlocked(state: GameState, e: dict) -> None:
    _character(state, e["character"]).locked = False


@handles("adrenaline_may_follow")
def _adrenaline_may_follow(state: GameState, e: dict) -> None:
    """Token programming: an Adrenaline token may lie face down on these pedestals."""
    for cid in e["characters"]:
        _character(state, cid).adrenaline_programmed = True


@handles("programmed")
def _programmed(state: GameState, e: dict) -> None:
    c = _character(state, e["character"])
    c.program = tuple(e["tokens"])
    c.single_action = len(e["tokens"]) == 1
    c.adrenaline_programmed = e.get("adrenaline", False)
    c.talent_choice = e.get("talent_choice")


@handles("actor")
def _actor(state: GameState, e: dict) -> None:
    state.current = e["character"]
    state.round = e["round"]


@handles("action_revealed")
def _revealed_action(state: GameState, e: dict) -> None:
    c = _character(state, e["character"])
    c.actions += 1
    c.played = (*c.played, e["action"])
    c.hidden = False  # "The character becomes visible as soon as she takes an action" (000)
    program, action = c.program, e["action"]
    if program and program[0] == action:  # the top token, as most slots play
        c.program = program[1:]
    elif action in program:
        rest = list(program)
        rest.remove(action)
        c.program = tuple(rest)


@handles("looked")
@handles("mac_reshuffled")
@handles("mac_move_ignored")
@handles("robot_ordered")
@handles("action_played")
@handles("action_lost")
def _nothing(state: GameState, e: dict) -> None:
    """Public record only: the room seen, if any, is in a private `room_seen`."""


@handles("slot_done")
def _slot_done(state: GameState, e: dict) -> None:
    _character(state, e["character"]).slots += 1
    state.previous = e["character"]
    state.current = None
    state.carrying = None


@handles("adrenaline_used")
@handles("adrenaline_lost")
def _adrenaline_gone(state: GameState, e: dict) -> None:
    c = _character(state, e["character"])
    c.adrenaline = c.adrenaline_programmed = False


@handles("moved")
def _moved(state: GameState, e: dict) -> None:
    state.arrivals += 1
    c = _character(state, e["character"])
    c.tile = e["tile"]
    c.entered = state.arrivals
    c.came_from = e.get("origin")


@handles("room_revealed")
def _room_revealed(state: GameState, e: dict) -> None:
    _identify(state, e["tile"], e["room"])
    _retile(state, e["tile"], revealed=True)
    for sid, seat in state.seats.items():
        if e["tile"] in seat.reminders:
            _seat(state, sid).reminders = tuple(t for t in seat.reminders if t != e["tile"])


@handles("sealed")
def _sealed(state: GameState, e: dict) -> None:
    _retile(state, e["tile"], sealed=True)


@handles("robot_placed")
def _robot_placed(state: GameState, e: dict) -> None:
    state.robots = (*state.robots, e["tile"])


@handles("robot_moved")
def _robot_moved(state: GameState, e: dict) -> None:
    robots = list(state.robots)
    robots[robots.index(e["tile"])] = e["to"]
    state.robots = tuple(robots)


@handles("robot_destroyed")
def _robot_destroyed(state: GameState, e: dict) -> None:
    robots = list(state.robots)
    robots.remove(e["tile"])
    state.robots = tuple(robots)


@handles("trapped")
def _trapped(state: GameState, e: dict) -> None:
    c = _character(state, e["character"])
    c.trapped, c.trapped_at = e["tile"], c.actions


@handles("trap_cleared")
def _trap_cleared(state: GameState, e: dict) -> None:
    _character(state, e["character"]).trapped = None


@handles("flooding")
def _flooding(state: GameState, e: dict) -> None:
    c = _character(state, e["character"])
    c.flooded, c.flooded_turn = e["tile"], state.turn


@handles("flood_cleared")
def _flood_cleared(state: GameState, e: dict) -> None:
    _character(state, e["character"]).flooded = None


@handles("eliminated")
def _eliminated(state: GameState, e: dict) -> None:
    c = _character(state, e["character"])
    c.alive, c.tile, c.trapped, c.flooded, c.program = False, None, None, None, ()
    c.came_from = c.paranoia = None
    c.hidden = False
    state.deaths = [*state.deaths, c.id]


@handles("slid")
def _slid(state: GameState, e: dict) -> None:
    state.lay(list(e["cells"]))
    if e.get("token"):
        state.controls = {**state.controls, e["line"]: e["direction"]}


@handles("swapped")
def _swapped(state: GameState, e: dict) -> None:
    a, b = e["cells"]
    cells = list(state.cells)
    cells[a], cells[b] = cells[b], cells[a]
    state.lay(cells)


@handles("reminder_placed")
def _reminder(state: GameState, e: dict) -> None:
    seat = _seat(state, e["seat"])
    seat.reminders = (*seat.reminders, e["tile"])


@handles("alarm")
def _alarm(state: GameState, e: dict) -> None:
    state.alarm = True
    state.turns_left = e["turns_left"]


@handles("pending")
def _pending(state: GameState, e: dict) -> None:
    state.pending = e["pending"]


@handles("pending_cleared")
def _pending_cleared(state: GameState, e: dict) -> None:
    state.pending = None


@handles("countdown")
def _countdown(state: GameState, e: dict) -> None:
    state.order = list(e["order"])
    state.turn = e["turn"]
    state.turns_left = e["turns_left"]
    state.controls = {}
    if state.mac is not None:
        mac = _pile(state)
        mac.discard.extend(mac.in_play)
        mac.in_play, mac.drawn, mac.madness_rounds = [], [], ()
        mac.accelerated = mac.jammed = False


@handles("mac_batch")
def _mac_batch(state: GameState, e: dict) -> None:
    mac = _pile(state)
    mac.due, mac.after, mac.drawer = e["count"], e["after"], e["drawer"]
    if e["after"] == "slot":
        mac.madness_rounds = (*mac.madness_rounds, e["round"])


@handles("mac_batch_more")
def _mac_more(state: GameState, e: dict) -> None:
    mac = _pile(state)
    mac.due += e["count"]
    if e.get("drawer"):
        mac.queued = (*mac.queued, e["drawer"])


@handles("mac_batch_over")
@handles("mac_batch_done")
def _mac_batch_done(state: GameState, e: dict) -> None:
    mac = _pile(state)
    mac.due, mac.after, mac.drawer = 0, None, None


@handles("mac_shuffled")
def _mac_shuffled(state: GameState, e: dict) -> None:
    mac = _pile(state)
    mac.draw = list(e["pile"])
    mac.discard = []
    state.rng = e["rng"]


@handles("mac_drawn")
def _mac_drawn(state: GameState, e: dict) -> None:
    mac = _pile(state)
    if mac.draw is not None:
        mac.draw.remove(e["card"])
    mac.current = e["card"]
    mac.card_drawer = mac.queued[0] if mac.queued else mac.drawer
    mac.queued = mac.queued[1:]
    mac.drawn.append(e["card"])
    mac.due -= 1
    if e["shown"]["kind"] == "time_bomb":
        mac.bombs += 1


@handles("mac_card_done")
def _mac_card_done(state: GameState, e: dict) -> None:
    mac = _pile(state)
    mac.current = mac.card_drawer = None
    (mac.in_play if e["stays"] else mac.discard).append(e["card"])


@handles("token_lost")
def _token_lost(state: GameState, e: dict) -> None:
    c = _character(state, e["character"])
    c.lost = (*c.lost, e["token"])
    if e["token"] in c.program:
        c.program = tuple(t for t in c.program if t != e["token"])


@handles("jammed")
def _jammed(state: GameState, e: dict) -> None:
    _pile(state).jammed = True
    if e["reminders_removed"]:
        for sid, seat in state.seats.items():
            if seat.reminders:
                _seat(state, sid).reminders = ()


@handles("accelerated")
def _accelerated(state: GameState, e: dict) -> None:
    _pile(state).accelerated = True


@handles("room_hidden")
def _room_hidden(state: GameState, e: dict) -> None:
    _retile(state, e["tile"], revealed=False, sealed=False)
    _unlock(state, e["tile"])


def _unlock(state: GameState, tile_id: TileId) -> None:
    """A room turned face down or taken out of the complex gives its Lock token back."""
    if tile_id in state.locks:
        state.locks = tuple(t for t in state.locks if t != tile_id)


@handles("escaped")
def _escaped(state: GameState, e: dict) -> None:
    for cid in e["characters"]:
        _character(state, cid).tile = None


@handles("game_over")
def _over(state: GameState, e: dict) -> None:
    state.phase = "over"
    state.current = None
    state.pending = None
    state.outcome = e["outcome"]


@handles("corridor_turned")
def _corridor(state: GameState, e: dict) -> None:
    _retile(state, e["tile"], corridor=e["corridor"])


@handles("reports_withdrawn")
def _withdrawn(state: GameState, e: dict) -> None:
    """The host's correction: every report about a face-down physical tile is forgotten, by
    the engine and in every notebook, until the tile is seen again."""
    tile = state.tiles[e["tile"]]
    _put_tile(state, Tile(tile.id, None, False, tile.sealed, tile.corridor, False))
    for sid, seat in state.seats.items():
        if e["tile"] in seat.notebook:
            _seat(state, sid).notebook.pop(e["tile"])


@handles("reported")
def _reported(state: GameState, e: dict) -> None:
    """Countdown-only games: the Timer room, once played, is an Empty room (000, Timer room)."""
    if e["event"] == "entered_timer":
        state.timer_played = True


@handles("room_destroyed")
def _destroyed(state: GameState, e: dict) -> None:
    """The tile becomes a face-up Empty room; the game's composition follows, so that what a
    hidden physical tile may be is still counted right."""
    tile = state.tiles[e["tile"]]
    _put_tile(state, Tile(tile.id, "empty", revealed=True))
    composition = dict(state.composition)
    if composition.get(e["room"], 0) > 1:
        composition[e["room"]] -= 1
    else:
        composition.pop(e["room"], None)
    composition["empty"] = composition.get("empty", 0) + 1
    state.composition = composition
    _unlock(state, tile.id)


@handles("regenerated")
def _regenerated(state: GameState, e: dict) -> None:
    """Back in the Central room, sitting out what is left of this turn."""
    for cid in e["characters"]:
        c = _character(state, cid)
        state.arrivals += 1
        c.alive, c.tile, c.entered, c.came_from = True, e["tile"], state.arrivals, None
        c.program, c.played, c.single_action, c.adrenaline_programmed = (), (), False, False
        c.locked, c.slots = True, e["slots"]
        state.deaths = [d for d in state.deaths if d != cid]
    state.order = list(e["order"])


@handles("turns_reduced")
def _turns_reduced(state: GameState, e: dict) -> None:
    state.turns_left = e["turns_left"]


@handles("actions_cancelled")
def _cancelled(state: GameState, e: dict) -> None:
    """No more action this turn, programmed or chosen."""
    c = _character(state, e["character"])
    c.program, c.single_action, c.limit = (), False, len(c.played)


@handles("paranoia")
def _paranoia(state: GameState, e: dict) -> None:
    """What was programmed and not yet played goes into the pile."""
    c = _character(state, e["character"])
    c.paranoia, c.program, c.single_action = (), (), False


@handles("paranoia_pile")
def _paranoia_pile(state: GameState, e: dict) -> None:
    _character(state, e["character"]).paranoia = tuple(e["pile"])
    state.rng = e.get("rng", state.rng)


@handles("token_drawn")
def _drawn(state: GameState, e: dict) -> None:
    c = _character(state, e["character"])
    assert c.paranoia and c.paranoia[0] == e["action"]
    c.program, c.paranoia = (e["action"],), c.paranoia[1:]


@handles("paranoia_ended")
def _paranoia_ended(state: GameState, e: dict) -> None:
    _character(state, e["character"]).paranoia = None


@handles("key_activated")
def _key(state: GameState, e: dict) -> None:
    state.key_activated = True


@handles("hid")
def _hid(state: GameState, e: dict) -> None:
    _character(state, e["character"]).hidden = True


@handles("adrenaline_recovered")
def _adrenaline_recovered(state: GameState, e: dict) -> None:
    _character(state, e["character"]).adrenaline = True


@handles("carrying")
def _carrying(state: GameState, e: dict) -> None:
    state.carrying = (e["character"], e["target"])


@handles("lock_placed")
def _lock_placed(state: GameState, e: dict) -> None:
    moved = e.get("moved_from")
    state.locks = (*(t for t in state.locks if t != moved), e["tile"])


@handles("locks_removed")
def _locks_removed(state: GameState, e: dict) -> None:
    state.locks = ()


@handles("empty_room_used")
def _empty_room_used(state: GameState, e: dict) -> None:
    _character(state, e["character"]).reserve -= 1


# The public events whose fold changes only the version: the rules keep them with
# `Context.record`, which skips the handler (`_nothing`) that replay still calls.
RECORDS: frozenset[str] = frozenset({"looked", "action_played", "action_lost"})

# The handlers above as a plain dict, which the fold looks every event up in: a dict subclass
# (`Table`) is looked up by the interpreter's general path, at half again the cost.
FOLD: dict[str, Handler] = dict(HANDLERS)
