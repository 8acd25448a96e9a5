"""The eight characters' special talents (000_f9f1d5a43eaf8620.txt, SPECIAL ABILITIES and each
character's section; 002_e232164e7c8dd598.txt, LES TALENTS SPÉCIAUX and each TALENT SPÉCIAL).

Each talent is a pair of functions registered in talents.py: its options now, as the command's
parameters, and its resolution. Rooms "adjacent" to a character are those his room opens onto
for that use: a Pivoting room's corridor restricts talents as the setting `pivoting_corridor`
says (pivoting.exits).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from ..kernel import grid
from ..kernel.catalogue import colour
from ..kernel.context import Context
from ..kernel.grid import Cell
from ..kernel.state import LOCK_TOKENS, GameState
from . import actions, board, choices, pivoting, robots, rooms
from .talents import register


def _blue(state: GameState, cell: Cell) -> bool:
    """A room seen to be blue (Central room, Room 25, Key room). A hidden room's colour is
    unknown to the table, so it never counts as blue (decision)."""
    tile = state.tile_at(cell)
    return tile.revealed and tile.kind is not None and colour(tile.kind) == "blue"


def _visible(state: GameState, cid: str) -> bool:
    """000, ALICE: "A hidden character cannot be pushed, carried, or called." """
    return not state.characters[cid].hidden


# Franck ----------------------------------------------------------------------------------


def recover_options(state: GameState, cid: str) -> list[dict]:
    """000, FRANCK: RECOVER: "Recover your Adrenaline token If you no longer have it. You can
    program it at next turn. Clarification: This ability has no effect if you still have your
    Adrenaline." An ability with no effect cannot be completed: the token is lost."""
    c = state.characters[cid]
    return [{}] if state.ruleset.settings.adrenaline and not c.adrenaline else []


def recover(ctx: Context, cid: str) -> None:
    ctx.emit({"type": "adrenaline_recovered", "character": cid})


register("franck", "Recover", recover_options, lambda ctx, cid, p: recover(ctx, cid))


# Jennifer --------------------------------------------------------------------------------


def call_options(state: GameState, caller: str) -> list[dict]:
    """000, JENNIFER: CALL: "Move an adjacent character of your choice immediately into the
    room you occupy." Never a hidden character (a robot is no character: it cannot be named);
    never one who may not enter her room (a Do Not Cross marker; a Lock token, but for Emmett)."""
    here = state.here(caller)
    if _calls_no_one(state, here):
        return []
    found = []
    for cell in pivoting.exits(state, here, "call").values():
        for target in state.occupants(state.cells[cell]):
            if _visible(state, target) and board.may_enter(state, here, target):
                found.append({"target": target})
    return found


def _calls_no_one(state: GameState, here: Cell) -> bool:
    """000: "Jennifer cannot call someone into a Flooded Chamber. Jennifer cannot call someone
    into a locked room"; 002: "Jennifer ne peut pas appeler depuis une salle Inondable [...]
    depuis une salle verrouillée". The Flooded chamber she stands in is the room she would call
    into, so both read alike there. A locked room: setting `call_blocked` - "from", she calls no
    one at all; "into", only Emmett, whose immunity lets him "be called or pushed" into it."""
    if board.kind_at(state, here) == "flooded":
        return True
    return board.locked(state, here) and state.ruleset.settings.call_blocked == "from"


def call(ctx: Context, caller: str, target: str) -> None:
    """ "The character called is affected by the room." In the Acid bath the caller entered
    first, so she is the one eliminated: "If Jennifer calls someone into the Acid Bath, it is
    she who is eliminated.\""""
    state = ctx.state
    rooms.enter(ctx, target, state.cells[state.here(caller)], how="call")


register("jennifer", "Call", call_options, lambda ctx, cid, p: call(ctx, cid, p["target"]))


# Max -------------------------------------------------------------------------------------


def carry_options(state: GameState, carrier: str, spared: tuple[str, ...] = ()) -> list[dict]:
    """000, MAX: CARRY: "Move another character present in Max's room together with Max."
    "The Carry action is lost if no one is in the room"; "A robot cannot be carried" (robots
    are no characters); a hidden character cannot be. Both must be able to enter the room they
    go to, and from a Prison cell Max leaves only as a move may (decision: Carry is a move)."""
    here = state.here(carrier)
    tile = state.cells[here]
    targets = [
        t for t in state.occupants(tile) if t != carrier and t not in spared and _visible(state, t)
    ]
    prison = board.kind_at(state, here) == "prison"
    found = []
    for target in targets:
        for direction, cell in pivoting.exits(state, here, "carry").items():
            if not (board.may_enter(state, cell, carrier) and board.may_enter(state, cell, target)):
                continue
            if prison and not actions.prison_exit(state, cell):
                continue
            found.append({"target": target, "direction": direction})
    return found


def carry(ctx: Context, carrier: str, params: dict) -> None:
    """Both arrive together and the room acts once for both, the carrier choosing (rooms.enter,
    rooms.company); leaving a Shredder room together, no one stays behind in it."""
    state = ctx.state
    cell = grid.neighbour(state.here(carrier), params["direction"])
    assert cell is not None
    ctx.emit({"type": "carrying", "character": carrier, "target": params["target"]})
    rooms.enter(ctx, carrier, state.cells[cell], how="carry")


register("max", "Carry", carry_options, carry)


# Kevin -----------------------------------------------------------------------------------

HACKS = ("hack_complex", "hack_robot")


def hack_complex_options(state: GameState, cid: str) -> list[dict]:
    """000, KEVIN, HACK THE COMPLEX: "Swap two non-blue rooms which are adjacent to the room
    occupied by Kevin, whether they are occupied or not." A hidden room may be swapped: the
    table cannot see it is blue (decision; it stays hidden, nothing is shown)."""
    here = state.here(cid)
    cells = sorted(c for c in pivoting.exits(state, here, "hack").values() if not _blue(state, c))
    return [
        {"ability": "hack_complex", "cells": [grid.name(a), grid.name(b)]}
        for a, b in combinations(cells, 2)
    ]


def kevin_options(state: GameState, cid: str) -> list[dict]:
    """Both abilities, or the one chosen while programming (setting `kevin_chooses`): "If
    either of the ability is not playable at the time it is resolved, the other must be
    applied." HACK A ROBOT: "Immediately give a MOVE or PUSH order to a robot somewhere in the
    complex. If there are no robots in play, this ability is useless." """
    hacks = {
        "hack_complex": hack_complex_options(state, cid),
        "hack_robot": [{"ability": "hack_robot", **o} for o in robots.orders(state)],
    }
    chosen = state.characters[cid].talent_choice
    if chosen is not None and hacks.get(chosen):
        return hacks[chosen]
    return [o for ability, found in hacks.items() if ability != chosen for o in found]


def kevin(ctx: Context, cid: str, params: dict) -> None:
    if params["ability"] == "hack_complex":
        a, b = (grid.parse_cell(c) for c in params["cells"])
        ctx.emit({"type": "swapped", "cells": [a, b], "how": "hack"})
    else:
        robots.carry_out(ctx, cid, _order(params))


def _order(params: dict) -> dict:
    return {key: params[key] for key in choices.ORDER_FIELDS if key in params}


register("kevin", "Hack", kevin_options, kevin, HACKS)


# Emmett ----------------------------------------------------------------------------------


def reactivate_options(state: GameState, cid: str) -> list[dict]:
    """000, EMMETT, REACTIVATE: "Remove the "Do Not Cross" token from an adjacent room if it is
    not occupied." (a robot occupies a room too)."""
    here = state.here(cid)
    found = []
    for cell in pivoting.exits(state, here, "reactivate").values():
        tile = state.tile_at(cell)
        if tile.sealed and not state.occupants(tile.id) and not state.robots_in(tile.id):
            found.append({"cell": grid.name(cell)})
    return found


def reactivate(ctx: Context, cell_name: str) -> None:
    """ "This room is then turned face-down." """
    cell = grid.parse_cell(cell_name)
    ctx.emit(
        {
            "type": "room_hidden",
            "tile": ctx.state.cells[cell],
            "cell": cell_name,
            "cause": "reactivate",
        }
    )


def lock_options(state: GameState, cid: str) -> list[dict]:
    """000, EMMETT, LOCK ON: "Place a Lock token on an adjacent visible non-Blue room." 002:
    "une salle visible non bleue à proximité (une salle adjacente ou celle qu'il occupe)"
    (setting `lock_own_room`). "You cannot put two locks on the same room." With both tokens
    placed, "Emmett decides from which room a lock token is moved" (`from`)."""
    here = state.here(cid)
    cells = set(pivoting.exits(state, here, "lock").values())
    if state.ruleset.settings.lock_own_room:
        cells.add(here)
    free = [
        grid.name(c)
        for c in sorted(cells)
        if state.tile_at(c).revealed and not _blue(state, c) and not board.locked(state, c)
    ]
    if len(state.locks) < LOCK_TOKENS:
        return [{"ability": "lock", "cell": c} for c in free]
    placed = sorted(state.cell_of(t) for t in state.locks)
    return [{"ability": "lock", "cell": c, "from": grid.name(p)} for c in free for p in placed]


def emmett_options(state: GameState, cid: str) -> list[dict]:
    """ "He makes his choice when revealing the action. If either of his abilities are not
    playable when it is time to resolve, he must use the other ability." """
    reactivations = [{"ability": "reactivate", **o} for o in reactivate_options(state, cid)]
    return reactivations + lock_options(state, cid)


def emmett(ctx: Context, cid: str, params: dict) -> None:
    state = ctx.state
    if params["ability"] == "reactivate":
        reactivate(ctx, params["cell"])
        return
    cell = grid.parse_cell(params["cell"])
    moved = params.get("from")
    ctx.emit(
        {
            "type": "lock_placed",
            "character": cid,
            "tile": state.cells[cell],
            "cell": params["cell"],
            "moved_from": None if moved is None else state.cells[grid.parse_cell(moved)],
        }
    )


register("emmett", "Reactivate or Lock on", emmett_options, emmett, ("reactivate", "lock"))


# Alice -----------------------------------------------------------------------------------


def hide_options(state: GameState, cid: str) -> list[dict]:
    """000, ALICE: BE HIDDEN: "Alice disappears until her next action, regardless of when it
    occurs." Her room is still occupied and its effects still apply to her."""
    return [{}]


def hide(ctx: Context, cid: str) -> None:
    ctx.emit({"type": "hid", "character": cid})


register("alice", "Be hidden", hide_options, lambda ctx, cid, p: hide(ctx, cid))


# Sarah -----------------------------------------------------------------------------------


def sabotage_room_options(state: GameState, cid: str) -> list[dict]:
    """000, SARAH, SABOTAGE A ROOM: "Replace the non-Blue room she occupies with one of her
    empty rooms." "Sarah can sabotage up to 2 rooms per game." "If Sarah is in a blue room,
    sabotage does not work." "If Sarah sabotages an Empty Room, she still loses one of her
    Empty Rooms." """
    c = state.characters[cid]
    return [{}] if c.reserve > 0 and not _blue(state, state.here(cid)) else []


def sabotage_room(ctx: Context, cid: str) -> None:
    """ "The replaced room is discarded." "Sarah can sabotage a Trapped room that she entered
    with the previous action. If she does this, she does not die." Decision: whoever the
    replaced room was trapping or flooding is spared too - the room is now an Empty room; a
    Do Not Cross marker or a Lock token on it goes with it."""
    state = ctx.state
    tile = state.characters[cid].tile
    assert tile is not None
    ctx.emit({"type": "empty_room_used", "character": cid, "tile": tile})
    for other in state.occupants(tile):
        c = state.characters[other]
        trapped, flooded = c.trapped == tile, c.flooded == tile
        if trapped:
            ctx.emit({"type": "trap_cleared", "character": other})
        if flooded:
            ctx.emit({"type": "flood_cleared", "character": other})
    board.destroy_room(ctx, tile)


def sabotage_robot_options(state: GameState, cid: str) -> list[dict]:
    """SABOTAGE A ROBOT: "Sarah destroys a robot present in her current room. If there is not a
    robot in her room, she must sabotage the room instead." Decision: in a blue room too."""
    tile = state.characters[cid].tile
    return [{}] if tile is not None and state.robots_in(tile) else []


def sarah_options(state: GameState, cid: str) -> list[dict]:
    return [{"ability": "sabotage_room", **o} for o in sabotage_room_options(state, cid)] + [
        {"ability": "sabotage_robot", **o} for o in sabotage_robot_options(state, cid)
    ]


def sarah(ctx: Context, cid: str, params: dict) -> None:
    if params["ability"] == "sabotage_room":
        sabotage_room(ctx, cid)
        return
    tile = ctx.state.characters[cid].tile
    assert tile is not None
    cell = grid.name(ctx.state.cell_of(tile))
    ctx.emit({"type": "robot_destroyed", "tile": tile, "cell": cell, "cause": "sabotage"})


register("sarah", "Sabotage", sarah_options, sarah, ("sabotage_room", "sabotage_robot"))


# Bruce -----------------------------------------------------------------------------------

MimicOptions = Callable[[GameState, str, bool], list[dict]]  # (state, Bruce, same room)
# 000, BRUCE: MIMIC, "the effects Bruce can use when imitating another character".
MIMICS: dict[str, MimicOptions] = {
    # "Bruce mimics the effect of the Call ability."
    "jennifer": lambda state, cid, same: call_options(state, cid),
    # "only if Franck is in the same room as Bruce."
    "franck": lambda state, cid, same: recover_options(state, cid) if same else [],
    # "Bruce can use Max's Carry ability. However, Max cannot be carried."
    "max": lambda state, cid, same: carry_options(state, cid, spared=("max",)),
    # "Bruce can only use Kevin's Hack a Robot ability."
    "kevin": lambda state, cid, same: robots.orders(state),
    # "Bruce can only mimic Emmett's Reactivate ability. He cannot place Locks."
    "emmett": lambda state, cid, same: reactivate_options(state, cid),
    # "Bruce imitates Alice's Be Hidden ability."
    "alice": lambda state, cid, same: hide_options(state, cid),
    # "only imitate Sarah's Sabotage A Room ability once (using the empty room he received at
    # the beginning of the game). He cannot Sabotage a Robot."
    "sarah": lambda state, cid, same: sabotage_room_options(state, cid),
}


def mimic_options(state: GameState, cid: str) -> list[dict]:
    """000, BRUCE: MIMIC: "Bruce can use part of the Special Ability of another character who
    is orthagonally adjacent or in the same room as him." "Mimic has no effect if there is no
    character nearby when it is time to resolve this action. If multiple characters are
    nearby, Bruce may choose which special ability to mimic." Adjacent: any of the four rooms
    around, a Pivoting room's corridor aside ("Bruce (for example) can still imitate a
    character in this room if he is in one of the four surrounding rooms")."""
    here = state.here(cid)
    nearby = {here, *grid.neighbours(here).values()}
    found: list[dict] = []
    for other in state.living():
        cell = state.where(other.id)
        if other.id == cid or other.id not in MIMICS or cell not in nearby:
            continue
        same_room = cell == here
        found.extend({"mimic": other.id, **o} for o in MIMICS[other.id](state, cid, same_room))
    return found


def mimic(ctx: Context, cid: str, params: dict) -> None:
    mimicked = params["mimic"]
    if mimicked == "jennifer":
        _mimic_call(ctx, cid, params["target"])
    elif mimicked == "franck":
        recover(ctx, cid)
    elif mimicked == "max":
        carry(ctx, cid, params)
    elif mimicked == "kevin":
        robots.carry_out(ctx, cid, _order(params))
    elif mimicked == "emmett":
        reactivate(ctx, params["cell"])
    elif mimicked == "alice":
        hide(ctx, cid)
    else:
        sabotage_room(ctx, cid)


def _mimic_call(ctx: Context, cid: str, target: str) -> None:
    """ "If this effect is used on Jennifer, she can choose not to move. Regardless of her
    decision, the action is still used." """
    if target != "jennifer":
        call(ctx, cid, target)
        return
    tile = ctx.state.characters[cid].tile
    assert tile is not None
    choices.ask(ctx, "called", target, ["come", "stay"], tile)


@choices.answers("called")
def _called(ctx: Context, pending: dict, answer: str) -> None:
    if answer == "come":
        rooms.enter(ctx, pending["character"], pending["tile"], how="call")


register("bruce", "Mimic", mimic_options, mimic)
