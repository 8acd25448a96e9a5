"""Choices in the middle of an action or a M.A.C. card, valued on the heuristic planner's model:
a room's choice (the Control, Vision, Moving and Illusion chambers), a robot's order, who dies
when Max carries someone into an Acid bath, where a M.A.C. card moves a character, and which
token a Punishment card takes.

A choice the model cannot value (a card to name, a Lock to place, a pair of rooms a Panic card
swaps) is left to chance by the player.
"""

from __future__ import annotations

from typing import Final

from companion.engine import grid
from companion.sim import talents
from companion.sim.complex import INDEX, MANHATTAN
from companion.sim.knowledge import Knowledge
from companion.sim.lines import Sim, enter, leaf, slide

# The pending kinds `value` knows.
VALUED: Final = frozenset(
    (
        "control",
        "vision",
        "moving",
        "illusion",
        "robot",
        "acid",
        "mac_push",
        "mac_tunnel",
        "mac_panic_room",
    )
)


def value(know: Knowledge, s0: Sim, kind: str, command: dict) -> float:
    """What one answer to a pending choice of the planning character is worth to this seat."""
    if kind == "control":
        return _control(know, s0, command)
    if kind == "robot":
        s = s0.copy()
        talents.order(know, s, command)
        return leaf(know, s)
    if kind == "acid":
        # Max and the one he carried arrive in an Acid bath together: "Max decides which
        # character is eliminated" (000, MAX: CARRY). The one whose loss costs this seat least.
        return -know.death_cost.get(command["target"], 0.0)
    target = INDEX[command["cell"]]
    tile = s0.tiles[target]
    if kind == "vision":
        if tile in know.kinds:
            return -100.0
        near = min(MANHATTAN[target][c] for c in s0.pos.values())
        return know.p25.get(tile, 0.0) * 100.0 - near
    here = s0.pos[know.me]
    s = s0.copy()
    if kind.startswith("mac_"):
        # A M.A.C. card moves him (000, M.A.C. CARDS): he enters the room he is sent to, or
        # stays (Alice may refuse a push).
        if target != here:
            enter(know, s, know.me, target)
        return leaf(know, s)
    tiles = list(s.tiles)
    tiles[here], tiles[target] = tiles[target], tiles[here]
    s.tiles = tuple(tiles)
    s.moved = True
    if kind == "moving":
        s.pos = {cid: (target if c == here else c) for cid, c in s0.pos.items()}
    else:  # illusion: the chosen room comes here and he enters it
        enter(know, s, know.me, here)
    return leaf(know, s)


def _control(know: Knowledge, s0: Sim, command: dict) -> float:
    axis, index = grid.parse_line(command["line"])
    # The chamber's slide wraps Room 25 round unless the table plays otherwise.
    can_exit = bool(know.settings.get("control_chamber_can_exit"))
    s = s0.copy()
    slide(know, s, axis, index, command["direction"], can_exit)
    return leaf(know, s)


def punishment(know: Knowledge, me: str, legal: list[dict]) -> dict:
    """A Punishment card takes Look, Control or the talent for the rest of the game, the
    player's choice (000, M.A.C. CARDS, Punishment). The talent goes first; then the Control,
    while an ally of his still holds his own (one ally inside Room 25 is enough to take it
    out); the Look, which keeps him out of deadly rooms, last."""
    offered = {c.get("token"): c for c in legal}
    weight = know.weight
    ally_controls = any(
        cid != me and weight.get(cid, 0.0) > 0 and c.alive and "control" not in c.lost
        for cid, c in know.chars.items()
    )
    order = ("talent", "control", "look") if ally_controls else ("talent", "look", "control")
    for token in order:
        if token in offered:
            return offered[token]
    return legal[0]
