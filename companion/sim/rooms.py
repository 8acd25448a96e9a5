"""What each room means to a heuristic player: its danger level (what allies may say aloud),
what entering it or crossing it costs, and the chances of each room on a tile nobody told the
seat about."""

from __future__ import annotations

import functools
from typing import Final

from companion.sim.complex import INF
from companion.sim.weights import VISION_GAIN

LEVEL: Final = {
    "empty": "safe",
    "vision": "safe",
    "moving": "safe",
    "control": "safe",
    "twin": "safe",
    "tunnel": "safe",
    "room25": "safe",
    "central": "safe",
    "key": "safe",
    "robot": "safe",
    "regeneration": "safe",
    "vortex": "obstacle",
    "dark": "obstacle",
    "cold": "obstacle",
    "prison": "obstacle",
    "pivoting": "obstacle",
    "jamming": "obstacle",
    "mirror": "obstacle",
    "mac": "obstacle",
}
# Every other room (mortal, acid, flooded, trapped, illusion, shredder, timer, paranoia, and any
# room this module does not know yet) is a danger.

# What entering a room costs (besides death and the special cases handled in `_enter`).
ENTRY_COST: Final = {
    "cold": 8.0,
    "dark": 3.0,
    "prison": 100.0,  # stuck until someone comes next to it: everyone must reach Room 25
    "flooded": 25.0,
    "acid": 6.0,
    "vortex": 12.0,
    "pivoting": 6.0,
    "jamming": 4.0,
    "mirror": 25.0,
    "mac": 15.0,
    "timer": 40.0,
    "paranoia": 30.0,
    "shredder": 60.0,
    "trapped": 0.0,  # handled as a trap to leave with the next action
}
# Rooms a Look may show that one would rather not enter.
BAD: Final = frozenset(
    (
        "mortal",
        "illusion",
        "flooded",
        "trapped",
        "acid",
        "shredder",
        "timer",
        "paranoia",
        "prison",
        "vortex",
        "mirror",
    )
)
KNOWN_SAFE: Final = frozenset(k for k, v in LEVEL.items() if v == "safe")
# The cost of stepping onto a room known on the way somewhere (in actions; a room that kills or
# sends back is never crossed).
PATH_COST: Final = {
    **dict.fromkeys(("mortal", "vortex", "shredder"), INF),
    "cold": 1.6,
    "dark": 1.2,
    "prison": 6.0,
    "trapped": 2.0,
    "flooded": 2.5,
    "acid": 1.5,
    "pivoting": 1.5,
    "jamming": 1.2,
    "mirror": 3.0,
    "mac": 2.0,
    "timer": 3.0,
    "paranoia": 3.0,
    "illusion": 4.0,
}
UNKNOWN_PATH: Final = 2.2  # look, then move
# The rooms a player expects when the game's record does not give its composition.
BASE_COMPOSITION: Final = {
    "empty": 8,
    "vision": 1,
    "control": 1,
    "vortex": 2,
    "dark": 2,
    "cold": 2,
    "acid": 2,
    "flooded": 2,
    "trapped": 2,
    "mortal": 2,
    "central": 1,
    "room25": 1,
}

LEVEL_PATH: Final = {"danger": 8.0, "obstacle": 3.0, "safe": 1.2}
# The rooms whose entry does more than cost something (`HeuristicPlayer._enter`).
ENTRY_EFFECTS: Final = frozenset(
    (
        "mortal",
        "acid",
        "vortex",
        "twin",
        "tunnel",
        "trapped",
        "illusion",
        "vision",
        "flooded",
        "control",
        "moving",
        "key",
    )
)
REMINDER_SCORE: Final = {
    "mortal": 3.0,
    "illusion": 2.0,
    "trapped": 1.5,
    "flooded": 1.5,
    "acid": 1.0,
}


@functools.lru_cache(maxsize=4096)
def chances(
    composition: tuple[tuple[str, int], ...], seen: tuple[str, ...]
) -> tuple[dict[str, float], float, float, float]:
    """The chances of each room on a tile one knows nothing of, the rooms `seen` being out of
    the draw; what entering such a room costs on average, the chance it is bad, and the average
    cost of entering it when it is good. The same few draws come back in every game and for
    every seat: kept."""
    left = dict(composition)
    for k in seen:
        if left.get(k, 0) > 0:
            left[k] -= 1
    left.pop("central", None)
    total = sum(left.values()) or 1
    p = {k: n / total for k, n in left.items() if n > 0}
    cost = 0.0
    p_bad = 0.0
    good_w = good_cost = 0.0
    for k, v in p.items():
        c = ENTRY_COST.get(k, 0.0 if k in LEVEL or k == "mortal" else 40.0)
        if k == "vision":
            c = -VISION_GAIN
        cost += v * c
        if k in BAD or k not in LEVEL:
            p_bad += v
        else:
            good_w += v
            good_cost += v * c
    return p, cost, p_bad, good_cost / good_w if good_w else 0.0
