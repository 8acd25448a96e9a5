"""What the characters' talents (Season 2 and Ultimate) and the robots' orders do in the heuristic
planner's model, and the ways a seat expects to have of playing a talent token it programs.

The rules are the engine's (000_f9f1d5a43eaf8620.txt, SPECIAL ABILITIES and each character's
section; 002_e232164e7c8dd598.txt, LES TALENTS SPÉCIAUX); the model keeps what changes a plan:
who ends up where, which rooms are swapped or emptied, what becomes known to everyone. When the
token is played, the engine's legal commands give the real ways and `play` values each; while
programming, `ways` guesses them from the seat's own picture. No way at all: the token is lost.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Final

from companion.sim.complex import ADJ, CENTRE, INDEX, NAMES
from companion.sim.knowledge import Knowledge
from companion.sim.lines import Sim, die, enter
from companion.sim.rooms import ENTRY_COST
from companion.sim.weights import (
    ADRENALINE_BACK,
    DEATH,
    HIDDEN_COVER,
    ROBOT_REVEAL,
    SABOTAGE_SPEND,
    TOKEN_SPENT,
)

# Blue rooms: Kevin swaps and Sarah sabotages only the others (000, KEVIN: "Swap two non-blue
# rooms"; SARAH: "If Sarah is in a blue room, sabotage does not work").
BLUE: Final = frozenset(("central", "room25", "key"))
# What Sarah's Sabotage spares her in the room she stands in, besides a trap (cleared).
SABOTAGE_RELIEF: Final = {**ENTRY_COST, "acid": 30.0, "prison": 60.0, "trapped": 0.0}

Ways = Callable[[Knowledge, Sim, int], list[dict]]
# The fields of an `act` command that are not its action's parameters.
NOT_PARAMETERS: Final = frozenset(("type", "seat", "character", "action", "version"))
# Talents played without parameters: any other with none is a token lost (no way to play it).
NO_PARAMETERS: Final = frozenset(("franck", "alice"))


def ways(know: Knowledge, s: Sim) -> list[dict]:
    """The ways the planning character may play his talent at his next action, as far as this
    seat can tell: never in the Central room (000, SPECIAL ABILITIES: "Special Abilities CANNOT
    be used in the Central Room")."""
    here = s.pos.get(know.me)
    if here is None or here == CENTRE:
        return []
    found = WAYS.get(know.me)
    return found(know, s, here) if found is not None else []


def play(know: Knowledge, s: Sim, params: dict) -> bool:
    """Carry out a talent on the line; whether the planning character is out of his room's
    trap (he left the room, or it is gone)."""
    me = know.me
    here = s.pos[me]
    who = params.get("mimic", me)  # Bruce plays the talent of the character he mimics
    if not (params.keys() - NOT_PARAMETERS) and who not in NO_PARAMETERS:
        return False  # no way to play it: the token is lost
    if who == "franck":
        if not know.chars[me].adrenaline and not know.last_turn:
            s.value += ADRENALINE_BACK
    elif who == "jennifer":
        if params.get("target") in s.pos:
            enter(know, s, params["target"], here)
    elif who == "max":
        return _carry(know, s, here, params.get("target", ""), params.get("direction", ""))
    elif who == "kevin":
        if "cells" in params:
            _swap(s, *(INDEX[c] for c in params["cells"]))
        elif "robot" in params:
            order(know, s, params)
    elif who == "emmett":
        if "cell" in params and params.get("ability", "reactivate") == "reactivate":
            s.sealed = s.sealed - {s.tiles[INDEX[params["cell"]]]}
        s.value -= TOKEN_SPENT
    elif who == "alice":
        s.value += _cover(know, s, here)
    elif who == "sarah":
        if params.get("ability", "sabotage_room") == "sabotage_room":
            _sabotage(know, s, here)
            return True
        s.value += 5.0  # a robot less to push anyone
    return False


def order(know: Knowledge, s: Sim, params: dict) -> None:
    """A robot's order (a Robot room, Kevin's Hack a Robot): a move into a hidden room shows it
    to everyone, a Look nobody risks anything for; a push is a push (000, ROBOTS)."""
    cell = ADJ[INDEX[params["robot"]]].get(params["direction"])
    if cell is None:
        return
    if params["order"] == "push":
        if params.get("target") in s.pos:
            enter(know, s, params["target"], cell)
        return
    tile = s.tiles[cell]
    if tile not in know.kinds:
        s.value += ROBOT_REVEAL * know.look_gain(tile)


def _carry(know: Knowledge, s: Sim, here: int, target: str, direction: str) -> bool:
    """Max and the character he carries arrive together; the room acts on both (000, MAX)."""
    dest = ADJ[here].get(direction)
    if dest is None or target not in s.pos:
        return False
    me = know.me
    before = s.death.get(me, 0.0)
    enter(know, s, me, dest)
    pos = dict(s.pos)
    pos[target] = pos[me]
    s.pos = pos
    s.moved = True
    risk = s.death.get(me, 0.0) - before
    if risk > 0:
        die(s, target, risk, me)
    return True


def _swap(s: Sim, a: int, b: int) -> None:
    """Two rooms change places, with whoever stands in them."""
    tiles = list(s.tiles)
    tiles[a], tiles[b] = tiles[b], tiles[a]
    s.tiles = tuple(tiles)
    s.pos = {cid: b if c == a else a if c == b else c for cid, c in s.pos.items()}
    s.moved = True


def _cover(know: Knowledge, s: Sim, here: int) -> float:
    """Alice hidden cannot be pushed, carried or called until her next action (000, ALICE):
    worth what the company of someone who may push her costs."""
    weight = know.weight
    others = sum(1 for cid, c in s.pos.items() if c == here and weight.get(cid, 0.0) < 0.9)
    return HIDDEN_COVER * others - TOKEN_SPENT if others and here != CENTRE else -TOKEN_SPENT


def _sabotage(know: Knowledge, s: Sim, here: int) -> None:
    """Sarah's room becomes an Empty room: a trap, a flood, an acid bath she stands in are gone
    (000, SARAH: "Sarah can sabotage a Trapped room that she entered with the previous action.
    If she does this, she does not die")."""
    kind = know.kinds.get(s.tiles[here])
    relief = SABOTAGE_RELIEF.get(kind or "", 0.0)
    if kind == "flooded" and know.me in know.flood_due:
        relief += DEATH
    s.value += relief - SABOTAGE_SPEND


# --- the ways each character expects to have, from the seat's picture ---


def _visible(know: Knowledge, cid: str) -> bool:
    return not know.chars[cid].hidden


def _open(s: Sim, cell: int) -> bool:
    return s.tiles[cell] not in s.sealed


def _recover(know: Knowledge, s: Sim, here: int) -> list[dict]:
    """000, FRANCK: "Recover your Adrenaline token If you no longer have it." """
    mine = know.chars[know.me]
    return [{}] if know.settings.get("adrenaline") and not mine.adrenaline else []


def _call(know: Knowledge, s: Sim, here: int) -> list[dict]:
    """000, JENNIFER: "Move an adjacent character of your choice immediately into the room you
    occupy." """
    near = set(ADJ[here].values())
    return [
        {"target": cid}
        for cid, c in s.pos.items()
        if c in near and cid != know.me and _visible(know, cid)
    ]


def _carry_ways(know: Knowledge, s: Sim, here: int) -> list[dict]:
    """000, MAX: "Move another character present in Max's room together with Max." """
    me = know.me
    targets = [cid for cid, c in s.pos.items() if c == here and cid != me and _visible(know, cid)]
    if me == "bruce":
        targets = [t for t in targets if t != "max"]  # "Max cannot be carried"
    return [
        {"target": t, "direction": d}
        for t in targets
        for d, cell in ADJ[here].items()
        if _open(s, cell)
    ]


def _hack(know: Knowledge, s: Sim, here: int) -> list[dict]:
    """000, KEVIN, HACK THE COMPLEX: "Swap two non-blue rooms which are adjacent to the room
    occupied by Kevin." (Hack a Robot is valued when it is played, on the robots' real orders.)"""
    cells = sorted(c for c in ADJ[here].values() if know.kinds.get(s.tiles[c]) not in BLUE)
    pairs = combinations(cells, 2)
    return [{"ability": "hack_complex", "cells": [NAMES[a], NAMES[b]]} for a, b in pairs]


def _reactivate(know: Knowledge, s: Sim, here: int) -> list[dict]:
    """000, EMMETT, REACTIVATE: "Remove the "Do Not Cross" token from an adjacent room if it
    is not occupied." (His Lock is left to the table: the model sees little in it.)"""
    taken = set(s.pos.values())
    return [
        {"ability": "reactivate", "cell": NAMES[c]}
        for c in ADJ[here].values()
        if s.tiles[c] in s.sealed and c not in taken
    ]


def _hide(know: Knowledge, s: Sim, here: int) -> list[dict]:
    """000, ALICE: BE HIDDEN: always possible."""
    return [{}]


def _sabotage_ways(know: Knowledge, s: Sim, here: int) -> list[dict]:
    """000, SARAH: "Replace the non-Blue room she occupies with one of her empty rooms." """
    mine = know.chars[know.me]
    blue = know.kinds.get(s.tiles[here]) in BLUE
    return [{"ability": "sabotage_room"}] if mine.reserve > 0 and not blue else []


# 000, BRUCE: MIMIC: "part of the Special Ability of another character who is orthogonally
# adjacent or in the same room as him"; Franck's only in the same room; never Kevin's Hack the
# Complex, Emmett's Lock or Sarah's Sabotage a Robot.
MIMICKED: Final[dict[str, Ways]] = {
    "jennifer": _call,
    "max": _carry_ways,
    "emmett": _reactivate,
    "alice": _hide,
    "sarah": _sabotage_ways,
}


def _mimic(know: Knowledge, s: Sim, here: int) -> list[dict]:
    near = {here, *ADJ[here].values()}
    found: list[dict] = []
    for cid, c in s.pos.items():
        if cid == know.me or c not in near:
            continue
        if cid == "franck" and c == here:
            found.extend({"mimic": cid, **o} for o in _recover(know, s, here))
        elif cid in MIMICKED:
            found.extend({"mimic": cid, **o} for o in MIMICKED[cid](know, s, here))
    return found


WAYS: Final[dict[str, Ways]] = {
    "franck": _recover,
    "jennifer": _call,
    "max": _carry_ways,
    "kevin": _hack,
    "emmett": _reactivate,
    "alice": _hide,
    "sarah": _sabotage_ways,
    "bruce": _mimic,
}
