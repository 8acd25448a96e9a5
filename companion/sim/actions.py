"""How each action token plays in the heuristic planner's model: the ways to complete it as far
as the seat can tell (`ways`), and the line after it (`step`). A talent plays as `talents` models
it; other characters stand still."""

from __future__ import annotations

from typing import Final

from companion.engine import grid
from companion.sim import talents
from companion.sim.complex import ADJ, CENTRE, EXIT_DIST, SIZE, slide_of
from companion.sim.knowledge import Knowledge
from companion.sim.lines import Sim, die, enter, slide
from companion.sim.weights import ESCAPE

ALL_TOKENS: Final = ("look", "move", "push", "control")
BLIND: Final = {"blind": True}  # an action the plan does not follow in detail
HOPE: Final = {"hope": True}  # a Control kept for when the others will have played (`_hope`)
STEP_OPTIONS: Final = tuple([{"direction": d} for d in ADJ[c]] for c in range(SIZE * SIZE))


def step(know: Knowledge, s0: Sim, action: str, params: dict) -> tuple[Sim, tuple]:
    """Play one action of the planning character in the model. Returns the new line and,
    for a Look at a room this seat does not know, (tile, chance it is bad) to branch on."""
    me = know.me
    s = s0.copy()
    s.step += 1
    here = s.pos.get(me)
    trap, s.trap = s.trap, 0.0
    looked: tuple = ()
    if here is None:
        return s, looked
    direction: str = params.get("direction", "")
    if not direction and action in ALL_TOKENS and params is not BLIND:
        action = "lost"  # played with no way to complete it
    if action == "move":
        dest = ADJ[here].get(direction)
        if dest is not None:
            enter(know, s, me, dest)
            trap = 0.0  # he left his room
    elif action == "look":
        cell = ADJ[here].get(direction)
        if cell is not None:
            tile = s.tiles[cell]
            if tile not in know.kinds and know.kinds.get(s.tiles[here]) != "dark":
                s.value += know.look_gain(tile)
                if tile not in know.levels:
                    looked = (tile, know.p_bad)
    elif params is BLIND:
        s.value -= blind_cost(action)
    elif params is HOPE:
        s.value += 0.3 * ESCAPE
    elif action == "push":
        dest = ADJ[here].get(direction)
        target = params.get("target", "")
        if dest is not None and target in s.pos:
            enter(know, s, target, dest)
    elif action == "control":
        axis, index = slide_of(here, direction)
        slide(know, s, axis, index, direction, True)
    elif action == "talent":
        if talents.play(know, s, params):
            trap = 0.0  # he left his room, or the room is gone
    elif action != "lost":
        s.value -= 15.0  # a token the model does not know: kept for when nothing else helps
    if trap:
        die(s, me, trap, know.me)
    s.hyp = None
    return s, looked


def blind_cost(action: str) -> float:
    """What an action the plan does not follow costs the line (`BLIND`): a slide that does not
    move Room 25 disturbs little, a push with only allies at hand is nearly wasted."""
    return 8.0 if action == "control" else 25.0


def ways(know: Knowledge, s: Sim, action: str) -> list[dict]:
    """Ways to complete an action in the model (the engine's rules, as far as known)."""
    me = know.me
    here = s.pos.get(me)
    if here is None:
        return []
    kind = know.kinds.get(s.tiles[here])
    steps = ADJ[here]
    if action == "look":
        return [] if kind == "dark" else STEP_OPTIONS[here]
    if action == "move":
        sealed = s.sealed
        if kind != "prison" and not sealed:
            return STEP_OPTIONS[here]
        found: list[dict] = []
        for d, c in steps.items():
            if s.tiles[c] in sealed:
                continue
            if kind == "prison" and c != CENTRE and c not in s.pos.values():
                continue
            found.append({"direction": d})
        return found
    if action == "push":
        if here == CENTRE:
            return []
        # Allies are never pushed in a plan: they have plans of their own. If only allies
        # stand here, the push is still played on one of them.
        weight = know.weight
        chars = know.chars
        others = [
            cid for cid, c in s.pos.items() if c == here and cid != me and not chars[cid].hidden
        ]
        targets = [cid for cid in others if weight[cid] < 0]
        if not targets:
            return [BLIND] if others else []
        return [
            {"target": t, "direction": d}
            for t in targets
            for d, c in steps.items()
            if s.tiles[c] not in s.sealed
        ]
    if action == "control":
        if here == CENTRE:
            return []
        # Only slides that move Room 25 are planned; any other is counted as a small
        # disturbance (and chosen properly if it comes to be played). On the prisoners'
        # side one character inside drives Room 25, the others come to it.
        r_tile = know.room25_tile
        if r_tile is None:
            return [BLIND]
        r = s.tiles.index(r_tile)
        if r != here and not know.guard:
            return [BLIND]
        drives = know.guard or driver(know, s, r) == me
        found = []
        for d in ("east", "west", "north", "south"):
            axis, index = slide_of(here, d)
            if index == 2 or index != (r // SIZE if axis == "row" else r % SIZE):
                continue
            used = s.controls.get(grid.line_key(axis, index))
            if used is not None and used != d:
                continue
            if drives or grid.leading_cell(axis, index, d) == r:
                found.append({"direction": d})
        if s.step and not know.guard and _hope(know, s, r):
            found.append(HOPE)
        return found or [BLIND]
    if action == "talent":
        return talents.ways(know, s)
    return [{}]  # another token: one way, not modelled


def _hope(know: Knowledge, s: Sim, r: int) -> bool:
    """A later Control from inside Room 25 may take it out after the others have played:
    Room 25 one slide from an exit zone with another ally inside to slide it, and everyone
    who must escape inside or one step away."""
    if EXIT_DIST[r] != 1 or know.base_dist is None:
        return False
    me, dist, weight = know.me, know.base_dist, know.weight
    others_inside = [
        cid for cid, c in s.pos.items() if c == r and cid != me and weight.get(cid, 0) > 0
    ]
    if not others_inside:
        return False
    return all(
        s.pos.get(cid) == r or (cid in know.pos and dist[know.pos[cid]] <= 1.3)
        for cid in know.required
    )


def driver(know: Knowledge, s: Sim, r: int) -> str | None:
    """The ally inside Room 25 who slides it: the first of them in the table's order."""
    weight = know.weight
    for cid, c in s.pos.items():
        if c == r and weight.get(cid, 0.0) > 0 and s.death.get(cid, 0.0) < 0.5:
            return cid
    return None
