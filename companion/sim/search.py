"""The planner's lookahead: the best value of a line after one action, with the best of the
actions left, a Look at an unknown room weighing what it may show.

Within one decision, the line after an action with no effect (`idle`, which a Look or an
action the plan does not follow only adds a worth to) and the Looks every programme beginning
with a Look shares (`looks`) are computed once and reused by every option.
"""

from __future__ import annotations

from companion.sim.actions import BLIND, step, ways
from companion.sim.complex import ADJ, INF
from companion.sim.knowledge import Knowledge
from companion.sim.lines import Sim, leaf


def best_single(know: Knowledge, s: Sim, action: str) -> float:
    """The best way to play one last action."""
    options = ways(know, s, action)
    if not options:
        return leaf(know, idle(know, s))
    # An action that changes nothing but the line's worth (a Look, or one the plan does
    # not follow) is the line after an idle action, that worth added.
    if options[0] is BLIND:
        return leaf(know, idle(know, s)) - (8.0 if action == "control" else 25.0)
    if action == "look":
        # Only the best Look needs a value: what it tells.
        steps, tiles, gain = ADJ[s.pos[know.me]], s.tiles, know.look_gain
        top = -INF
        for o in options:
            cell = steps.get(o["direction"])
            g = 0.0 if cell is None else gain(tiles[cell])
            if g > top:
                top = g
        return leaf(know, idle(know, s)) + top
    best = -INF
    for params in options:
        v = leaf(know, step(know, s, action, params)[0])
        if v > best:
            best = v
    return best


def idle(know: Knowledge, s: Sim) -> Sim:
    """The line after an action with no effect (`_step` "lost"), kept with the line."""
    if s.idle is None:
        s.idle = step(know, s, "lost", {})[0]
    return s.idle


def _split(know: Knowledge, s1: Sim, action: str, tile: int) -> tuple[float, float]:
    """The best last action that does not enter the room just looked at, and the best that
    does if that room turns out good (entering it if it is bad is never the best)."""
    options = ways(know, s1, action)
    if not options:
        v = leaf(know, idle(know, s1))
        return v, -INF
    if action not in ("move", "push"):
        return best_single(know, s1, action), -INF
    here = s1.pos[know.me]
    good = s1.copy()
    good.hyp = (tile, True)
    other = into = -INF
    for params in options:
        cell = ADJ[here].get(params.get("direction", ""))
        if cell is not None and s1.tiles[cell] == tile:
            v = leaf(know, step(know, good, action, params)[0])
            into = v if v > into else into
        else:
            v = leaf(know, step(know, s1, action, params)[0])
            other = v if v > other else other
    return other, into


def then(know: Knowledge, s1: Sim, looked: tuple, rest: list[str]) -> float:
    """The value after a first action, with the best of the actions left; after a Look at
    an unknown room, the chance that it is bad weighs the two outcomes."""
    if not rest:
        return leaf(know, s1)
    if not looked or ("move" not in rest and "push" not in rest):
        if len(rest) == 1:
            return best_single(know, s1, rest[0])
        return max(best_single(know, s1, a) for a in rest)
    tile, p_bad = looked
    v_good = v_bad = -INF
    for a in rest:
        other, into = _split(know, s1, a, tile)
        v_bad = other if other > v_bad else v_bad
        best = other if other > into else into
        v_good = best if best > v_good else v_good
    if v_bad == -INF:
        v_bad = leaf(know, s1) - 300.0
    return (1.0 - p_bad) * v_good + p_bad * v_bad


def looks(know: Knowledge, s0: Sim) -> tuple[Sim, list[tuple[float, int | None]]]:
    """What every program that begins with a Look shares: the line after a Look (its gain
    apart), and each Look's gain with the room it may show (None: nothing to branch on)."""
    options = ways(know, s0, "look")
    here = s0.pos.get(know.me)
    base = idle(know, s0)
    looks: list[tuple[float, int | None]] = []
    if not options or here is None:
        return base, looks
    steps, tiles, kinds, levels = ADJ[here], s0.tiles, know.kinds, know.levels
    for o in options:
        tile = tiles[steps[o["direction"]]]
        hyp = tile not in kinds and tile not in levels
        looks.append((know.look_gain(tile), tile if hyp else None))
    return base, looks


def look_first(know: Knowledge, s0: Sim, rest: list[str], shared: tuple[Sim, list]) -> float:
    """A Look first, then `rest`: the same as `_then` after each Look, computed once. A Look
    changes nothing but what is known, so every line is the same but for its gain and for
    what the second action finds in the room looked at (`_looks`)."""
    base, looks = shared
    if not looks:
        return then(know, base, (), rest)
    here = s0.pos[know.me]
    top = max(g for g, _ in looks)
    if not rest:
        return leaf(know, base) + top
    a = rest[0]
    if len(rest) > 1 or a not in ("move", "push"):
        return top + max(best_single(know, base, a) for a in rest)
    plain: list[tuple[int | None, float]] = []  # (tile entered, value)
    good: dict[int, float] = {}
    moves = ways(know, base, a)
    if not moves:
        return top + leaf(know, idle(know, base))
    looked_tiles = {t for _, t in looks if t is not None}
    for params in moves:
        cell = ADJ[here].get(params.get("direction", ""))
        tile = None if cell is None else base.tiles[cell]
        plain.append((tile, leaf(know, step(know, base, a, params)[0])))
        if tile is not None and tile in looked_tiles:
            hyp = base.copy()
            hyp.hyp = (tile, True)
            v = leaf(know, step(know, hyp, a, params)[0])
            good[tile] = max(good.get(tile, -INF), v)
    best = -INF
    p_bad = know.p_bad
    for gain, tile in looks:
        if tile is None:
            v = gain + max(v for _, v in plain)
        else:
            other = max((v for t, v in plain if t != tile), default=-INF)
            into = good.get(tile, -INF)
            if other == -INF:
                other = leaf(know, base) - 300.0
            v = gain + (1.0 - p_bad) * max(other, into) + p_bad * other
        if v > best:
            best = v
    return best
