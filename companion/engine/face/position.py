"""Writing a position down mid-game, the way a chess position is set up: so that a rules
question can be put to the engine directly (scenario files) and a table can resume a game
entered by hand."""

from __future__ import annotations

from ..kernel import catalogue, grid
from ..kernel.context import Context, Refused, cell_named
from ..kernel.grid import Cell
from ..kernel.state import ACTIONS, LOCK_TOKENS, TALENT, GameState, TileId
from ..rules import flow, pivoting
from .game import Result

CLUE_UNNAMED = "taken"  # a seat's clue, when the position says it was taken but not where

KEYS = {
    "turn",
    "turns_left",
    "alarm",
    "phase",
    "round",
    "order",
    "positions",
    "revealed",
    "sealed",
    "eliminated",
    "programs",
    "done",
    "played",
    "controls",
    "reminders",
    "notebooks",
    "trapped",
    "flooded",
    "exposed",
    "roles_revealed",
    "clues",
    "mac",
    "lost",
    "adrenaline",
    "robots",
    "corridors",
    "paranoia",
    "key_activated",
    "hidden",
    "locks",
    "reserve",
    "talent_choices",
    "adrenaline_programmed",
    "action_limits",
}

# A position at the very start of the programming phase: its M.A.C. cards not drawn yet.
MAC_DRAW = "mac_draw"


def set_position(state: GameState, position: dict) -> Result[GameState]:
    """Replace what the position names; refuse a position that names unknown things."""
    try:
        ctx = Context(state.clone())
        ctx.emit({"type": "position_set", **_event(state, position)})
        limits = _limits(ctx.state, position)
        if position.get("phase") == MAC_DRAW:
            # The programming phase opens: its M.A.C. draws, then the Cold chamber's limits.
            flow.start_programming(ctx)
        elif ctx.state.phase == "programming":
            ctx.emit({"type": "limits", "limits": limits})
            flow.lock_non_programmers(ctx)
        elif ctx.state.phase == "action":
            # The Cold chamber's limit, as if the turn had begun where the characters stand.
            ctx.emit({"type": "limits", "limits": limits})
            flow.advance(ctx)
    except Refused as refused:
        return Result(state, [], refused.refusal)
    return Result(ctx.state, ctx.events)


def _limits(state: GameState, p: dict) -> dict[str, int]:
    """The actions each character may program this turn: the Cold chamber's limit where the
    characters stand, unless the position names it (`action_limits`, 1 or 2)."""
    limits = flow.action_limits(state)
    given = p.get("action_limits", {})
    if given and (p.get("phase", state.phase) not in ("programming", "action")):
        raise Refused("position_action_limits")
    if not isinstance(given, dict):
        raise Refused("position_action_limits")
    for cid, limit in given.items():
        if limit not in (1, 2) or isinstance(limit, bool):
            raise Refused("position_action_limits")
        limits[_character(state, cid)] = limit
    return {cid: n for cid, n in limits.items() if n != 2}


def _cell(value: object) -> Cell:
    return cell_named(value, "position_not_a_cell")


def _robot(state: GameState, where: object) -> TileId:
    """A robot stands on a known room that is not red: a red room destroys it at once."""
    tile = state.tile_at(_cell(where))
    if tile.kind is None or catalogue.colour(tile.kind) == "red":
        raise Refused("position_robot", cell=str(where)[:20])
    return tile.id


def _lock(state: GameState, where: object) -> TileId:
    """A Lock token lies on a room face up (Emmett locks visible rooms)."""
    tile = state.cells[_cell(where)]
    if state.tiles[tile].kind is None:
        raise Refused("position_lock_room", cell=str(where)[:20])
    return tile


def _character(state: GameState, cid: object) -> str:
    if cid not in state.characters:
        raise Refused("position_unknown_character", character=str(cid)[:20])
    return str(cid)


def _event(state: GameState, p: dict) -> dict:
    """The `position_set` event of a position, each part checked in the order written: the
    first wrong part is the one refused."""
    if not isinstance(p, dict):
        raise Refused("position_not_an_object")
    unknown = set(p) - KEYS
    if unknown:
        raise Refused("position_unknown_fields", fields=sorted(map(str, unknown)))
    e: dict = {}
    for key in ("turn", "turns_left", "alarm", "round", "key_activated"):
        if key in p:
            e[key] = p[key]
    if "turn" in p and "turns_left" not in p:
        e["turns_left"] = state.ruleset.turns - p["turn"] + 1
    if "phase" in p:
        if p["phase"] not in ("clue", MAC_DRAW, "programming", "action"):
            raise Refused("position_phase")
        e["phase"] = "clue" if p["phase"] == MAC_DRAW else p["phase"]
    phase = p.get("phase", state.phase)
    dead = [_character(state, c) for c in p.get("eliminated", [])]
    order = [_character(state, c) for c in p.get("order", state.order)]
    e["order"] = order
    e["deaths"] = [*state.deaths, *dead]
    e["current"] = None
    chars: dict[str, dict] = {cid: {} for cid in state.characters}
    for cid in dead:
        chars[cid].update(alive=False, tile=None)
    for cid, where in p.get("positions", {}).items():
        chars[_character(state, cid)]["tile"] = state.cells[_cell(where)]
    e["tiles"] = _tiles(state, p, chars, dead, e)
    _programmes(state, p, chars, phase)
    _conditions(state, p, chars)
    e["characters"] = {cid: fields for cid, fields in chars.items() if fields}
    e["controls"] = dict(p.get("controls", state.controls))
    e["seats"] = _seats(state, p, phase)
    if "mac" in p:
        e["mac"] = _mac(state, p["mac"])
    return e


def _tiles(state: GameState, p: dict, chars: dict[str, dict], dead: list[str], e: dict) -> list:
    """Every tile as the position leaves it (a room under a character, a robot or a Lock
    token is face up), with the robots and the Lock tokens put in the event."""
    tiles = [
        {
            "kind": t.kind,
            "revealed": t.revealed,
            "sealed": t.sealed,
            "corridor": t.corridor,
            "seen": t.seen,
        }
        for t in (state.tiles[i] for i in sorted(state.tiles))
    ]
    for where, corridor in p.get("corridors", {}).items():
        if corridor not in pivoting.CORRIDORS:
            raise Refused("position_corridor", corridors=list(pivoting.CORRIDORS))
        tiles[state.cells[_cell(where)]].update(corridor=corridor, revealed=True)
    for where in p.get("revealed", []):
        tiles[state.cells[_cell(where)]]["revealed"] = True
    for where in p.get("sealed", []):
        sealed = state.cells[_cell(where)]
        tiles[sealed]["sealed"] = tiles[sealed]["revealed"] = True
    for cid, _ in chars.items():
        tile = chars[cid].get("tile", state.characters[cid].tile)
        if tile is not None and cid not in dead:
            tiles[tile]["revealed"] = True
    if "robots" in p:
        e["robots"] = [_robot(state, where) for where in p["robots"]]
        for tile in e["robots"]:
            tiles[tile]["revealed"] = True
    if "locks" in p:
        if len(p["locks"]) > LOCK_TOKENS or len(set(p["locks"])) != len(p["locks"]):
            raise Refused("position_locks", count=LOCK_TOKENS)
        e["locks"] = [_lock(state, where) for where in p["locks"]]
        for tile in e["locks"]:
            tiles[tile]["revealed"] = True
    # The physical tiles: a room face up is known only from the report that turned it.
    unnamed = [
        grid.name(state.cell_of(tid))
        for tid, t in zip(sorted(state.tiles), tiles, strict=True)
        if t["revealed"] and not t["kind"]
    ]
    if unnamed:
        raise Refused("position_unknown_rooms", cells=unnamed)
    return tiles


def _tokens(tokens: object) -> bool:
    """Whether a position's list of action tokens names tokens only."""
    return isinstance(tokens, list) and all(t in (*ACTIONS, TALENT) for t in tokens)


def _programmes(state: GameState, p: dict, chars: dict[str, dict], phase: str) -> None:
    """The tokens each character programmed, played, lost or holds, and the Adrenaline."""
    for cid, tokens in p.get("programs", {}).items():
        cid = _character(state, cid)
        if not _tokens(tokens):
            raise Refused("position_program", character=cid)
        chars[cid].update(program=list(tokens), single_action=len(tokens) == 1)
    if phase == "action":
        done = {_character(state, c) for c in p.get("done", [])}
        current_round = p.get("round", 1)
        for cid in chars:
            chars[cid].update(locked=True, slots=current_round - 1 + (cid in done))
    for cid, tokens in p.get("played", {}).items():
        chars[_character(state, cid)]["played"] = list(tokens)
    for cid, tokens in p.get("lost", {}).items():
        cid = _character(state, cid)
        if not _tokens(tokens):
            raise Refused("position_lost", character=cid)
        chars[cid]["lost"] = list(tokens)
    for cid in p.get("adrenaline_programmed", []):
        cid = _character(state, cid)
        chars[cid].update(adrenaline_programmed=True, adrenaline=True)
    for cid, held in p.get("adrenaline", {}).items():
        if not isinstance(held, bool):
            raise Refused("position_adrenaline", character=str(cid)[:20])
        chars[_character(state, cid)]["adrenaline"] = held


def _conditions(state: GameState, p: dict, chars: dict[str, dict]) -> None:
    """What rooms, roles and talents left on each character: trapped, flooded, exposed, a
    Paranoia pile, hidden, Empty rooms in reserve, a talent's choice, a role shown."""
    for cid in p.get("trapped", []):
        cid = _character(state, cid)
        tile = chars[cid].get("tile", state.characters[cid].tile)
        chars[cid].update(trapped=tile, trapped_at=0)
    for cid, turn in p.get("flooded", {}).items():
        cid = _character(state, cid)
        chars[cid].update(
            flooded=chars[cid].get("tile", state.characters[cid].tile), flooded_turn=turn
        )
    for cid, turn in p.get("exposed", {}).items():
        chars[_character(state, cid)].update(exposed_turn=turn, role_public=True)
    for cid, pile in p.get("paranoia", {}).items():
        cid = _character(state, cid)
        if not _tokens(pile):
            raise Refused("position_paranoia", character=cid)
        chars[cid].update(paranoia=list(pile), program=[], single_action=False)
    for cid in p.get("hidden", []):
        chars[_character(state, cid)]["hidden"] = True
    for cid, count in p.get("reserve", {}).items():
        if not isinstance(count, int) or count < 0:
            raise Refused("position_reserve", character=str(cid)[:20])
        chars[_character(state, cid)]["reserve"] = count
    for cid, ability in p.get("talent_choices", {}).items():
        chars[_character(state, cid)]["talent_choice"] = ability
    for cid in p.get("roles_revealed", []):
        chars[_character(state, cid)]["role_public"] = True


def _seats(state: GameState, p: dict, phase: str) -> dict[str, dict]:
    """Each seat's reminder tokens, notebook and starting clue."""
    seats: dict[str, dict] = {}
    for sid, where in p.get("reminders", {}).items():
        if sid not in state.seats:
            raise Refused("position_unknown_seat", seat=str(sid)[:20])
        cells = [] if where is None else where if isinstance(where, list) else [where]
        seats.setdefault(sid, {})["reminders"] = tuple(state.cells[_cell(c)] for c in cells)
    for sid, seen in p.get("notebooks", {}).items():
        if sid not in state.seats:
            raise Refused("position_unknown_seat", seat=str(sid)[:20])
        seats.setdefault(sid, {})["notebook"] = {
            str(state.cells[_cell(where)]): kind for where, kind in seen.items()
        }
    clues = p.get("clues", "all" if phase != "clue" else {})
    for sid in state.seats:
        if clues == "all":
            seats.setdefault(sid, {})["clue"] = CLUE_UNNAMED
        elif sid in clues:
            seats.setdefault(sid, {})["clue"] = grid.name(_cell(clues[sid]))
    return seats


def _mac(state: GameState, given: object) -> dict:
    """The M.A.C. piles: `draw` names the top cards (the rest of the deck follows in deck
    order), `discard` and `in_play` the face-up ones."""
    if state.mac is None or state.mac_deck is None:
        raise Refused("position_no_mac")
    if not isinstance(given, dict) or set(given) - {"draw", "discard", "in_play"}:
        raise Refused("position_mac_piles")
    remaining = state.mac_deck.expand()
    piles = {}
    for name in ("draw", "discard", "in_play"):
        piles[name] = list(given.get(name, []))
        for card in piles[name]:
            if card not in remaining:
                raise Refused("position_mac_card", card=str(card)[:40])
            remaining.remove(card)
    if state.mac.draw is not None:
        piles["draw"] += remaining
    return piles
