"""The planner's lookahead: the best value of a line after one action, with the best of the
actions left, a Look at an unknown room weighing what it may show.

Within one decision, what several options reach is computed once: the line after an action
with no effect (`idle`, which a Look or an action the plan does not follow only adds a worth
to, and which is not even built when it is worth what its line is), the lines after each way
to play an action (`successors`, kept with the line they start from), the Looks every
programme beginning with a Look shares (`looks`, `look_values`) and the best Look from a cell
(`top_look`). A first action the plan does not follow is valued on the idle line
(`blind_first`). Each gives the value the plain computation gives (`tests/sim/test_planner.py`).
"""

from __future__ import annotations

from typing import TypeAlias

from companion.sim.actions import BLIND, blind_cost, step, ways
from companion.sim.complex import ADJ, INF, NEIGHBOURS
from companion.sim.knowledge import Knowledge
from companion.sim.lines import Sim, leaf

# What the programmes beginning with a Look share (`looks`): the line after a Look, and each
# Look's gain with the room it may show.
Looks: TypeAlias = tuple[Sim, list[tuple[float, int | None]]]


def best_single(know: Knowledge, s: Sim, action: str) -> float:
    """The best way to play one last action (its lines kept with `s`: programmes that share
    a first line, and a Look first, ask them again)."""
    options = ways(know, s, action)
    if not options:
        return idle_worth(know, s)
    # An action that changes nothing but the line's worth (a Look, or one the plan does
    # not follow) is the line after an idle action, that worth added.
    if options[0] is BLIND:
        return idle_worth(know, s) - blind_cost(action)
    if action == "look":
        # Only the best Look needs a value: what it tells.
        return idle_worth(know, s) + top_look(know, s)
    best = -INF
    for _, s1, _ in successors(know, s, action, options):
        v = s1.worth
        if v is None:
            v = leaf(know, s1)
        if v > best:
            best = v
    return best


def highest(values: list[float]) -> float:
    """The largest of some values (at least one): a loop rather than `max`, which a compiled
    build calls as any Python function, on boxed numbers."""
    best = values[0]
    for v in values:
        if v > best:
            best = v
    return best


def best_after(know: Knowledge, s: Sim, rest: list[str]) -> float:
    """The best of `best_single` for the actions left (at least one), as `highest` finds it,
    by index with no list made."""
    best = best_single(know, s, rest[0])
    for i in range(1, len(rest)):
        v = best_single(know, s, rest[i])
        if v > best:
            best = v
    return best


def top_look(know: Knowledge, s: Sim) -> float:
    """What the best Look from the planning character's cell tells; kept by cell while the
    rooms have not moved, since most lines that end there ask it."""
    here = s.pos[know.me]
    kept = s.tiles is know.tiles
    if kept:
        found = know.look_top[here]
        if found is not None:
            return found
    tiles = s.tiles
    top = -INF
    for cell in NEIGHBOURS[here]:
        g = know.look_gain(tiles[cell])
        if g > top:
            top = g
    if kept:
        know.look_top[here] = top
    return top


def successors(
    know: Knowledge, s: Sim, action: str, options: list[dict]
) -> list[tuple[dict, Sim, tuple]]:
    """Each way to play an action from this line (`options`, its `ways`), with the line after
    it and what a Look may show (`step`); kept with the line."""
    after = s.next
    if after is None:
        after = s.next = {}
    found = after.get(action)
    if found is None:
        found = after[action] = []
        for p in options:
            s1, looked = step(know, s, action, p)
            found.append((p, s1, looked))
    return found


def blind_first(know: Knowledge, s0: Sim, action: str, rest: list[str]) -> float:
    """A first action the plan does not follow (`BLIND`), then `rest`: every line after it is
    the line after an idle action less that action's cost, so the idle line's values serve."""
    return then(know, idle(know, s0), (), rest) - blind_cost(action)


def idle(know: Knowledge, s: Sim) -> Sim:
    """The line after an action with no effect (`_step` "lost"), kept with the line."""
    if s.idle is None:
        s.idle = step(know, s, "lost", {})[0]
    return s.idle


def idle_worth(know: Knowledge, s: Sim) -> float:
    """`leaf` of the line after an action with no effect. With nothing to fall into (`trap`)
    that line is worth what this one is (`step` "lost" changes only its count of actions), so
    it is not built just to be valued."""
    if s.idle is None and not s.trap:
        return leaf(know, s)
    return leaf(know, idle(know, s))


def _split(know: Knowledge, s1: Sim, action: str, tile: int) -> tuple[float, float]:
    """The best last action that does not enter the room just looked at, and the best that
    does if that room turns out good (entering it if it is bad is never the best)."""
    options = ways(know, s1, action)
    if not options:
        v = idle_worth(know, s1)
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
        return best_single(know, s1, rest[0]) if len(rest) == 1 else best_after(know, s1, rest)
    tile: int = looked[0]
    p_bad: float = looked[1]
    v_good = v_bad = -INF
    for a in rest:
        other, into = _split(know, s1, a, tile)
        v_bad = other if other > v_bad else v_bad
        best = other if other > into else into
        v_good = best if best > v_good else v_good
    if v_bad == -INF:
        v_bad = leaf(know, s1) - 300.0
    return (1.0 - p_bad) * v_good + p_bad * v_bad


def looks(know: Knowledge, s0: Sim) -> Looks:
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


def look_values(know: Knowledge, s0: Sim, rest: list[str], shared: Looks) -> list[float]:
    """Each Look (in the order of `ways`), then `rest`: the same as `then` after each Look,
    computed once. A Look changes nothing but what is known, so every line is the same but for
    its gain and for what the second action finds in the room looked at (`looks`)."""
    base, looks = shared
    if not rest:
        here_value = leaf(know, base)
        return [here_value + g for g, _ in looks]
    a = rest[0]
    if len(rest) > 1 or a not in ("move", "push"):
        after = best_after(know, base, rest)
        return [g + after for g, _ in looks]
    moves = ways(know, base, a)
    if not moves:
        after = idle_worth(know, base)
        return [g + after for g, _ in looks]
    here = s0.pos[know.me]
    plain: list[tuple[int | None, float]] = []  # (tile entered, value)
    good: dict[int, float] = {}
    looked_tiles = {t for _, t in looks if t is not None}
    for params, s2, _ in successors(know, base, a, moves):
        cell = ADJ[here].get(params.get("direction", ""))
        tile = None if cell is None else base.tiles[cell]
        plain.append((tile, leaf(know, s2)))
        if tile is not None and tile in looked_tiles:
            hyp = base.copy()
            hyp.hyp = (tile, True)
            v = leaf(know, step(know, hyp, a, params)[0])
            good[tile] = max(good.get(tile, -INF), v)
    p_bad = know.p_bad
    best = highest([v for _, v in plain])
    values = []
    for gain, tile in looks:
        if tile is None:
            v = gain + best
        else:
            other = -INF
            for t, v in plain:
                if t != tile and v > other:
                    other = v
            into = good.get(tile, -INF)
            if other == -INF:
                other = leaf(know, base) - 300.0
            v = gain + (1.0 - p_bad) * max(other, into) + p_bad * other
        values.append(v)
    return values
