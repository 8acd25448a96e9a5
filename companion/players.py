"""Seats for simulated games: a random player and a heuristic one.

A player sees what its seat may see and nothing else: the driver (`companion.simulate`) hands it
`seat_view(state, seat)` and `legal_commands(state, seat)`, and it answers with one of those
commands. The heuristic player keeps its own small model of the complex built from that view
(the revealed rooms, the rooms in its notebook, the positions) and plans with it; it never
applies a command to the real state to see what would happen, since that would show it hidden
rooms.

Table talk. The rules let players say how dangerous a room they looked at is, never which room
it is (001, Look: "You are allowed to give indications about the room's danger level"). Allies
(everyone in Cooperation, a team in Team mode) share a `Table` on which each one writes the
danger level (safe, obstacle, danger) of the rooms in its notebook; nobody talks in Suspicion or
Competition. The reminder token is also used as a public "danger here" mark.
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from dataclasses import dataclass, field

# --- the complex's geometry (the engine's own helpers are not part of its public interface) ---

SIZE = 5
CENTRE = 12
NAMES = tuple(f"{'ABCDE'[c % SIZE]}{c // SIZE + 1}" for c in range(SIZE * SIZE))
INDEX = {name: c for c, name in enumerate(NAMES)}
STEP = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
MOVABLE = (0, 1, 3, 4)


def _adjacent(c: int) -> dict[str, int]:
    row, col = divmod(c, SIZE)
    found = {}
    for direction, (dr, dc) in STEP.items():
        if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE:
            found[direction] = (row + dr) * SIZE + col + dc
    return found


ADJ = tuple(_adjacent(c) for c in range(SIZE * SIZE))
NEIGHBOURS = tuple(tuple(a.values()) for a in ADJ)


def is_exit(c: int) -> bool:
    row, col = divmod(c, SIZE)
    return (row in (0, 4) and col != 2) or (col in (0, 4) and row != 2)


def is_edge(c: int) -> bool:
    row, col = divmod(c, SIZE)
    return row in (0, 4) or col in (0, 4)


def _exit_distances() -> tuple[int, ...]:
    """Slides needed to bring a room at each cell into an exit zone (the Central room: never)."""
    dist = [99] * (SIZE * SIZE)
    queue = [c for c in range(SIZE * SIZE) if is_exit(c)]
    for c in queue:
        dist[c] = 0
    for c in queue:
        row, col = divmod(c, SIZE)
        for direction, n in ADJ[c].items():
            along_row = direction in ("east", "west")
            if (along_row and row == 2) or (not along_row and col == 2) or n == CENTRE:
                continue
            if dist[n] > dist[c] + 1:
                dist[n] = dist[c] + 1
                queue.append(n)
    return tuple(dist)


EXIT_DIST = _exit_distances()


def line_cells(axis: str, index: int) -> list[int]:
    if axis == "row":
        return [index * SIZE + col for col in range(SIZE)]
    return [row * SIZE + index for row in range(SIZE)]


def line_name(axis: str, index: int) -> str:
    return f"row{index + 1}" if axis == "row" else f"col{'ABCDE'[index]}"


def slide_of(cell: int, direction: str) -> tuple[str, int]:
    """The line a Control played from this cell moves in this direction."""
    row, col = divmod(cell, SIZE)
    return ("row", row) if direction in ("east", "west") else ("col", col)


def slid(tiles: tuple[int, ...], axis: str, index: int, direction: str) -> tuple[int, ...]:
    cells = line_cells(axis, index)
    line = [tiles[c] for c in cells]
    line = line[-1:] + line[:-1] if direction in ("east", "south") else line[1:] + line[:1]
    result = list(tiles)
    for c, t in zip(cells, line, strict=True):
        result[c] = t
    return tuple(result)


def leading(axis: str, index: int, direction: str) -> int:
    cells = line_cells(axis, index)
    return cells[-1] if direction in ("east", "south") else cells[0]


# --- what the rooms mean to a player ---

LEVEL = {
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
ENTRY_COST = {
    "cold": 8.0,
    "dark": 3.0,
    "prison": 25.0,
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
BAD = frozenset(
    ("mortal", "illusion", "flooded", "trapped", "acid", "shredder", "timer", "paranoia")
    + ("prison", "vortex", "mirror")
)
KNOWN_SAFE = frozenset(k for k, v in LEVEL.items() if v == "safe")
# The cost of stepping onto a room on the way somewhere (in actions; None: avoid).
PATH_COST = {
    "cold": 1.6,
    "dark": 1.2,
    "prison": 3.0,
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
INF = 1e9
UNKNOWN_PATH = 2.2  # look, then move
BASE_COMPOSITION = {
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

# Weights of the evaluation.
DEATH = 1000.0
ESCAPE = 5000.0
DIST_W = 30.0
EXIT_W = 35.0
FRONT_W = 10.0
INFO_BASE = 6.0
R25_FOUND = 160.0
VISION_GAIN = 25.0


@dataclass
class Table:
    """What allies have said aloud: the danger level of rooms they have seen, by tile."""

    levels: dict[int, str] = field(default_factory=dict)


class RandomPlayer:
    """Any legal command, uniformly."""

    wants_view = False

    def __init__(self, seat: str, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng

    def choose(self, view: dict | None, legal: list[dict]) -> dict:
        return self.rng.choice(legal)


# --- the heuristic player's model of the complex ---


class Knowledge:
    """What one seat knows at one moment, in a form quick to plan with."""

    def __init__(self, player: HeuristicPlayer, view: dict) -> None:
        self.view = view
        self.mode = view["ruleset"]["mode"]
        self.settings = view["ruleset"]["settings"]
        self.seat = player.seat
        self.turn = view["turn"]
        self.turns_left = view["turns_left"]
        self.last_turn = view["last_turn"]
        cells = [entry for row in view["complex"] for entry in row]
        self.tiles = tuple(entry["tile"] for entry in cells)
        notebook = view.get("notebook", {})
        kinds: dict[int, str] = {}
        revealed: set[int] = set()
        sealed: set[int] = set()
        marked: dict[int, list[str]] = {}
        for c, entry in enumerate(cells):
            tile = entry["tile"]
            if entry["revealed"]:
                revealed.add(tile)
                kinds[tile] = entry["room"]
            elif NAMES[c] in notebook:
                kinds[tile] = notebook[NAMES[c]]
            if entry["sealed"]:
                sealed.add(tile)
            if entry["reminders"]:
                marked[tile] = entry["reminders"]
        self.kinds, self.revealed, self.sealed = kinds, revealed, sealed
        table = player.table
        if table is not None:
            for tile, kind in kinds.items():
                if tile not in revealed:
                    table.levels[tile] = LEVEL.get(kind, "danger")
        self.levels = {} if table is None else table.levels
        self.marked = marked

        chars = view["characters"]
        self.pos: dict[str, int] = {}
        self.public_role: dict[str, str] = {}
        self.mine: list[str] = []
        self.trapped: set[str] = set()
        self.flood_due: set[str] = set()
        for cid, c in chars.items():
            if c["role"] is not None:
                self.public_role[cid] = c["role"]
            if not c["alive"] or c["cell"] is None:
                continue
            self.pos[cid] = INDEX[c["cell"]]
            if c["seat"] == self.seat:
                self.mine.append(cid)
            if c["trapped"]:
                self.trapped.add(cid)
            since = c["flooded_since"]
            if since is not None and self.turn >= since + 1:
                self.flood_due.add(cid)
        self.dead = [cid for cid, c in chars.items() if not c["alive"]]
        self.controls = dict(view["controls"])
        self.room25_tile = next((t for t, k in kinds.items() if k == "room25"), None)
        self._side(player, chars)
        self._prior(player)
        self._costs()
        self._dist_cache: dict[tuple, list[float]] = {}
        self._front_cache: dict[tuple, list[float]] = {}

    # Whose success matters to this seat, and how much (negative: an opponent).
    def _side(self, player: HeuristicPlayer, chars: dict) -> None:
        mode = self.mode
        me = self.seat
        self.guard = False
        weight: dict[str, float] = {}
        if mode in ("cooperation", "solo"):
            weight = {cid: 1.0 for cid in chars}
        elif mode == "competition":
            weight = {cid: 1.0 if c["seat"] == me else -0.4 for cid, c in chars.items()}
        elif mode == "team":
            side = player.team_of
            weight = {
                cid: 1.0 if side.get(c["seat"]) == side.get(me) else -0.5
                for cid, c in chars.items()
            }
        else:  # suspicion
            my_role = next(
                (c["role"] for c in chars.values() if c["seat"] == me and c["role"]), "prisoner"
            )
            self.guard = my_role == "guard"
            for cid, c in chars.items():
                role = c["role"]
                if c["seat"] == me:
                    weight[cid] = 1.0
                elif self.guard:
                    weight[cid] = 0.3 if role == "guard" else -0.7
                else:
                    weight[cid] = {"guard": -0.3, "prisoner": 0.9}.get(role, 0.45)
        self.weight = weight
        # Characters who must be inside Room 25 for it to leave, as far as this seat can tell.
        living = [cid for cid in chars if cid in self.pos]
        if mode in ("cooperation", "solo"):
            self.required = living
        elif mode in ("competition", "team"):
            self.required = [cid for cid in living if weight[cid] > 0]
        elif self.guard:
            self.required = []
        else:
            self.required = [cid for cid in living if self.public_role.get(cid) != "guard"]
        self.allies = [cid for cid in living if weight.get(cid, 0) > 0]

    def _prior(self, player: HeuristicPlayer) -> None:
        """The chances of each room on a tile nobody told this seat about."""
        left = Counter(player.composition)
        unknown = [t for t in self.tiles if t not in self.kinds]
        for t, k in self.kinds.items():
            if left[k] > 0:
                left[k] -= 1
        left = Counter({k: n for k, n in left.items() if n > 0 and k != "central"})
        total = sum(left.values()) or 1
        self.p = {k: n / total for k, n in left.items()}
        self.unknown = unknown
        p = self.p
        self.p_mortal = p.get("mortal", 0.0)
        self.safe_hidden = [
            t for t, k in self.kinds.items() if t not in self.revealed and k in KNOWN_SAFE
        ]
        illusion_death = 0.0 if self.safe_hidden else self.p_mortal
        self.p_death_unknown = self.p_mortal + p.get("illusion", 0.0) * illusion_death
        self.p_trap_unknown = p.get("trapped", 0.0)
        cost = sum(p.get(k, 0.0) * v for k, v in ENTRY_COST.items())
        cost -= p.get("vision", 0.0) * VISION_GAIN
        self.cost_unknown = cost
        self.p_bad = sum(p.get(k, 0.0) for k in BAD) + sum(
            v for k, v in p.items() if k not in LEVEL and k not in BAD
        )
        good = [(k, v) for k, v in p.items() if k not in BAD and (k in LEVEL)]
        weight = sum(v for _, v in good) or 1.0
        self.cost_good = sum(v * ENTRY_COST.get(k, 0.0) for k, v in good) / weight
        # Where Room 25 may be: on the edge at the start, anywhere a slide took it since.
        if self.room25_tile is None:
            weights = {}
            for c, t in enumerate(self.tiles):
                if t in self.kinds:
                    continue
                level = self.levels.get(t)
                if level in ("danger", "obstacle"):
                    continue
                w = 1.0 if is_edge(c) else 0.2
                weights[t] = w * (2.0 if level == "safe" else 1.0)
            total_w = sum(weights.values()) or 1.0
            self.p25 = {t: w / total_w for t, w in weights.items()}
        else:
            self.p25 = {}

    def _costs(self) -> None:
        """Path cost of stepping onto each tile, from what this seat knows or was told."""
        cost: dict[int, float] = {}
        for t in self.tiles:
            kind = self.kinds.get(t)
            if t in self.sealed:
                c = INF
            elif kind is not None:
                if kind in ("mortal", "vortex", "shredder"):
                    c = INF
                else:
                    c = PATH_COST.get(kind, 1.0)
            else:
                level = self.levels.get(t)
                c = {"danger": 8.0, "obstacle": 3.0, "safe": 1.2}.get(level, UNKNOWN_PATH)
                if self._marked_by_other(t):
                    c += 2.0
            cost[t] = c
        self.path_cost = cost

    def _marked_by_other(self, tile: int) -> bool:
        return any(s != self.seat for s in self.marked.get(tile, ()))

    def dist_to_room25(self, tiles: tuple[int, ...]) -> list[float] | None:
        if self.room25_tile is None:
            return None
        key = tiles
        found = self._dist_cache.get(key)
        if found is None:
            target = tiles.index(self.room25_tile)
            found = _dijkstra({target: 0.0}, tiles, self.path_cost)
            self._dist_cache[key] = found
        return found

    def frontier(self, tiles: tuple[int, ...]) -> list[float]:
        found = self._front_cache.get(tiles)
        if found is None:
            sources = {}
            for c, t in enumerate(tiles):
                w = self.p25.get(t)
                if w is not None:
                    sources[c] = 0.0 if is_edge(c) else 1.0
            found = _dijkstra(sources, tiles, self.path_cost) if sources else [0.0] * 25
            self._front_cache[tiles] = found
        return found


def _dijkstra(
    sources: dict[int, float], tiles: tuple[int, ...], cost: dict[int, float]
) -> list[float]:
    """Cost to reach a source from every cell, paying each room's cost on entering it."""
    dist = [INF] * 25
    heap = []
    for c, d in sources.items():
        dist[c] = d
        heap.append((d, c))
    heapq.heapify(heap)
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        step = cost[tiles[u]] if u != CENTRE else 1.0
        if step >= INF:
            continue
        nd = d + step
        for v in NEIGHBOURS[u]:
            if nd < dist[v]:
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return dist


class Sim:
    """One line of play in the planner's model: positions, tiles, risks taken so far."""

    __slots__ = (
        "tiles",
        "pos",
        "death",
        "value",
        "trap",
        "escaped",
        "controls",
        "hyp",
        "sealed",
    )

    def __init__(self) -> None:
        self.tiles: tuple[int, ...] = ()
        self.pos: dict[str, int] = {}
        self.death: dict[str, float] = {}
        self.value = 0.0
        self.trap = 0.0  # chance the planning character must leave his room with his next action
        self.escaped = False
        self.controls: dict[str, str] = {}
        self.hyp: tuple[int, bool] | None = None  # a tile just looked at: (tile, turned out good)
        self.sealed: frozenset[int] = frozenset()

    def copy(self) -> Sim:
        s = Sim.__new__(Sim)
        s.tiles, s.pos, s.death, s.value = self.tiles, self.pos, self.death, self.value
        s.trap, s.escaped, s.controls = self.trap, self.escaped, self.controls
        s.hyp, s.sealed = self.hyp, self.sealed
        return s


class HeuristicPlayer:
    """Plans each character's two actions with a one-turn lookahead (the others standing still)
    over its own model of the complex; see `companion/simulate.py` for the policy in words."""

    wants_view = True

    def __init__(
        self,
        seat: str,
        rng: random.Random,
        composition: dict[str, int] | None = None,
        table: Table | None = None,
        team_of: dict[str, str] | None = None,
        clue_index: int = 0,
    ) -> None:
        self.seat, self.rng = seat, rng
        self.composition = dict(composition or BASE_COMPOSITION)
        self.table = table
        self.team_of = team_of or {}
        self.clue_index = clue_index

    # --- the entry point ---

    def choose(self, view: dict | None, legal: list[dict]) -> dict:
        if view is None or view.get("complex") is None:
            return self.rng.choice(legal)
        if any("room" in c for c in legal):
            return self._physical(view, legal)
        kinds = {c["type"] for c in legal}
        if "clue" in kinds:
            return self._clue(legal)
        know = Knowledge(self, view)
        if view["pending"] is not None and "choose" in kinds:
            return self._choose(know, view, legal)
        if "program" in kinds:
            return self._program(know, legal)
        reminder = self._reminder(know, legal)
        if reminder is not None:
            return reminder
        actions = [c for c in legal if c["type"] in ("act", "wait", "pass")]
        if actions:
            return self._act(know, view, actions)
        others = [c for c in legal if c["type"] not in ("reminder", "expose")]
        return self.rng.choice(others or legal)

    def _physical(self, view: dict, legal: list[dict]) -> dict:
        """Physical tracking: whoever shows a tile says which room it is; the simulation does not
        know, so it names one the engine accepts and plays the same way otherwise."""
        plain = [c for c in legal if "room" not in c]
        return self.rng.choice(plain or legal)

    def _clue(self, legal: list[dict]) -> dict:
        """Allies agree to look at different rooms around the Central room."""
        order = ["C2", "D3", "C4", "B3"]
        if self.table is not None:
            wanted = order[self.clue_index % 4]
            for c in legal:
                if c["cell"] == wanted:
                    return c
        return self.rng.choice(legal)

    # --- planning ---

    def _start(self, know: Knowledge) -> Sim:
        s = Sim()
        s.tiles = know.tiles
        s.pos = dict(know.pos)
        s.death = {}
        s.controls = know.controls
        s.sealed = frozenset(know.sealed)
        return s

    def _leaf(self, know: Knowledge, s: Sim, me: str) -> float:
        value = s.value
        weight = know.weight
        for cid, p in s.death.items():
            w = weight.get(cid, 0.0)
            if cid == me or w > 0:
                value -= p * DEATH * (w if cid != me else 1.0)
            else:
                value -= p * DEATH * w  # an opponent's death is a gain
        if s.escaped:
            return value + (-ESCAPE if know.guard else ESCAPE)
        alive = {cid: c for cid, c in s.pos.items() if s.death.get(cid, 0.0) < 0.5}
        here = alive.get(me)
        dist = know.dist_to_room25(s.tiles)
        if dist is not None:
            r = s.tiles.index(know.room25_tile)
            sign = -1.0 if know.guard else 1.0
            value -= sign * EXIT_W * min(EXIT_DIST[r], 3)
            for cid, c in alive.items():
                w = weight.get(cid, 0.0)
                if cid == me and not know.guard:
                    w = 1.0
                elif cid == me:
                    w = 0.1
                d = dist[c]
                value -= w * DIST_W * (d if d < 30 else 30)
            if not know.guard and self._alarm_early(know) and here == r:
                value -= 4.0 * (know.turns_left - 5)
        elif here is not None:
            front = know.frontier(s.tiles)
            d = front[here]
            value -= FRONT_W * (d if d < 20 else 20)
            if know.mode in ("cooperation", "solo", "team"):
                for cid, c in alive.items():
                    if cid != me and c == here and here != CENTRE and weight.get(cid, 0) > 0:
                        value -= 4.0  # explorers spread out
        if here is not None:
            value -= self._standing(know, s, me, here, alive)
        value -= s.trap * 30.0
        return value

    def _alarm_early(self, know: Knowledge) -> bool:
        return (
            know.mode in ("suspicion", "competition", "team")
            and not know.view["alarm"]
            and know.turn <= 5
            and know.settings.get("alarm", True)
        )

    def _standing(self, know: Knowledge, s: Sim, me: str, here: int, alive: dict) -> float:
        """What staying in this room until others move costs."""
        tile = s.tiles[here]
        kind = know.kinds.get(tile)
        cost = 0.0
        company = sum(1 for cid, c in alive.items() if c == here and cid != me)
        if kind == "acid":
            cost += 12.0 if know.mode in ("cooperation", "solo") else 30.0
        if me in know.flood_due and tile in know.sealed and kind == "flooded":
            cost += DEATH
        if know.mode == "suspicion" and here != CENTRE and tile != know.room25_tile:
            if know.guard:
                cost -= 6.0 * company  # someone to push
            else:
                cost += 6.0 * company  # someone who may push
        return cost

    def _enter(self, know: Knowledge, s: Sim, who: str, cell: int, planner: str) -> None:
        """`who` arrives at `cell` (moved or pushed): the room's effect, as far as known."""
        tile = s.tiles[cell]
        kind = know.kinds.get(tile)
        pos = dict(s.pos)
        pos[who] = cell
        s.pos = pos
        w_who = 1.0 if who == planner else abs(know.weight.get(who, 0.0))
        if s.hyp is not None and s.hyp[0] == tile and kind is None:
            if s.hyp[1]:
                s.value -= know.cost_good * w_who
            else:
                s.value -= 300.0 * w_who
            return
        if kind is None:
            self._enter_unknown(know, s, who, tile, planner, w_who)
            return
        if kind == "mortal":
            self._die(s, who, 1.0)
        elif kind == "acid":
            others = [cid for cid, c in s.pos.items() if c == cell and cid != who]
            if others:
                self._die(s, others[0], 1.0)
        elif kind == "vortex":
            pos[who] = CENTRE
        elif kind in ("twin", "tunnel"):
            for c, t in enumerate(s.tiles):
                if t != tile and know.kinds.get(t) == kind and t in know.revealed:
                    pos[who] = c
                    break
        elif kind == "trapped":
            if who == planner:
                s.trap = 1.0
            else:
                s.value -= 30.0 * w_who
        elif kind == "illusion":
            if know.room25_tile is not None and know.room25_tile not in know.revealed:
                s.value += 20.0 * w_who  # the exit itself comes to him
            elif not know.safe_hidden:
                s.value -= w_who * know.cost_unknown
                self._die(s, who, know.p_death_unknown)
        elif kind == "vision":
            if know.unknown:
                s.value += VISION_GAIN * w_who if know.room25_tile is not None else 50.0 * w_who
        elif kind == "flooded":
            s.sealed = s.sealed | {tile}
            s.value -= ENTRY_COST["flooded"] * w_who
        elif kind in ("control", "moving"):
            s.value += 5.0 * w_who
        else:
            s.value -= ENTRY_COST.get(kind, 0.0 if kind in LEVEL else 40.0) * w_who

    def _enter_unknown(
        self, know: Knowledge, s: Sim, who: str, tile: int, planner: str, w_who: float
    ) -> None:
        level = know.levels.get(tile)
        if level == "safe":
            s.value -= know.cost_good * w_who
        elif level == "obstacle":
            s.value -= 15.0 * w_who
        else:
            p_death = know.p_death_unknown
            cost = know.cost_unknown
            if level == "danger":
                scale = 1.0 / max(know.p_bad, 0.05)
                p_death, cost = min(1.0, p_death * scale), cost * scale
            if know._marked_by_other(tile):
                p_death, cost = min(1.0, p_death * 1.5), cost * 1.5
            s.value -= cost * w_who
            self._die(s, who, p_death)
            if who == planner:
                s.trap = max(s.trap, know.p_trap_unknown)
        p25 = know.p25.get(tile)
        if p25:
            s.value += p25 * R25_FOUND * (1.0 if not know.guard else 0.2)

    def _die(self, s: Sim, who: str, p: float) -> None:
        if p <= 0:
            return
        death = dict(s.death)
        q = death.get(who, 0.0)
        death[who] = 1.0 - (1.0 - q) * (1.0 - p)
        s.death = death

    def _step(
        self, know: Knowledge, s0: Sim, me: str, action: str, params: dict
    ) -> tuple[Sim, tuple[int, float] | None]:
        """Play one action in the model. Returns the new line and, for a Look at a room this
        seat does not know, (tile, chance it is bad) for the planner to branch on."""
        s = s0.copy()
        here = s.pos.get(me)
        trap = s.trap
        s.trap = 0.0
        s.hyp = None
        looked = None
        if here is None:
            return s, None
        if action == "move":
            dest = ADJ[here].get(params["direction"])
            if dest is not None:
                self._enter(know, s, me, dest, me)
                trap = 0.0  # he left his room
        elif action == "push":
            dest = ADJ[here].get(params["direction"])
            target = params.get("target")
            if dest is not None and target in s.pos:
                self._enter(know, s, target, dest, me)
        elif action == "control":
            s = self._slide(know, s, me, here, params["direction"])
        elif action == "look":
            cell = ADJ[here].get(params["direction"])
            if cell is not None:
                tile = s.tiles[cell]
                if tile not in know.kinds and know.kinds.get(s.tiles[here]) != "dark":
                    told = tile in know.levels
                    gain = INFO_BASE * (0.4 if told else 1.0)
                    gain += know.p25.get(tile, 0.0) * R25_FOUND
                    s.value += gain if not know.guard else gain * 0.6
                    if not told:
                        looked = (tile, know.p_bad)
        else:
            s.value -= 2.0  # a talent: not modelled, kept for when nothing else helps
        if trap:
            self._die(s, me, trap)
        return s, looked

    def _slide(self, know: Knowledge, s: Sim, me: str, here: int, direction: str) -> Sim:
        axis, index = slide_of(here, direction)
        name = line_name(axis, index)
        lead = leading(axis, index, direction)
        r_tile = know.room25_tile
        if r_tile is not None and s.tiles[lead] == r_tile and know.room25_tile in know.revealed:
            inside = [cid for cid, c in s.pos.items() if c == lead and s.death.get(cid, 0) < 0.5]
            if self._may_leave(know, s, inside):
                s.escaped = True
                return s
        s.tiles = slid(s.tiles, axis, index, direction)
        cells = line_cells(axis, index)
        if any(c in cells for c in s.pos.values()):
            shift = 1 if direction in ("east", "south") else -1
            pos = dict(s.pos)
            for cid, c in s.pos.items():
                if c in cells:
                    i = cells.index(c)
                    pos[cid] = cells[(i + shift) % SIZE]
            s.pos = pos
        controls = dict(s.controls)
        controls[name] = direction
        s.controls = controls
        return s

    def _may_leave(self, know: Knowledge, s: Sim, inside: list[str]) -> bool:
        if know.guard:
            return False  # he would not: but the model still says what it does
        living = [cid for cid in know.required if s.death.get(cid, 0.0) < 0.5]
        missing = [cid for cid in living if cid not in inside]
        dead_required = len(know.required) - len(living)
        if know.mode == "suspicion":
            unknown_out = [c for c in s.pos if c not in inside and know.public_role.get(c) is None]
            missing = [c for c in missing if c not in unknown_out] + unknown_out
            return not missing or (len(missing) + len(know.dead) <= 1 and know.last_turn)
        if know.mode == "cooperation":
            return not missing
        if know.mode == "solo":
            return not missing and not know.dead
        return not missing and (dead_required == 0 or know.last_turn)

    def _options(self, know: Knowledge, s: Sim, me: str, action: str) -> list[dict]:
        """Ways to complete an action in the model (the engine's rules, as far as known)."""
        here = s.pos.get(me)
        if here is None:
            return []
        kind = know.kinds.get(s.tiles[here]) if here != CENTRE else "central"
        steps = ADJ[here]
        if action == "look":
            if kind == "dark":
                return []
            return [{"direction": d} for d in steps]
        if action == "move":
            found = []
            for d, c in steps.items():
                if s.tiles[c] in s.sealed:
                    continue
                if kind == "prison" and c != CENTRE and not any(
                    p == c for cid, p in s.pos.items() if cid != me
                ):
                    continue
                found.append({"direction": d})
            return found
        if action == "push":
            if here == CENTRE:
                return []
            targets = [cid for cid, c in s.pos.items() if c == here and cid != me]
            return [
                {"target": t, "direction": d}
                for t in targets
                for d, c in steps.items()
                if s.tiles[c] not in s.sealed
            ]
        if action == "control":
            found = []
            row, col = divmod(here, SIZE)
            for d in ("east", "west", "north", "south"):
                axis, index = slide_of(here, d)
                if index == 2:
                    continue
                used = s.controls.get(line_name(axis, index))
                if used is None or used == d:
                    found.append({"direction": d})
            return found
        return [{}]  # a talent or another token: one way, not modelled

    def _best_single(self, know: Knowledge, s: Sim, me: str, action: str) -> float:
        options = self._options(know, s, me, action)
        if not options:
            lost, _ = self._step(know, s, me, "lost", {})
            return self._leaf(know, lost, me) + 2.0  # no talent penalty for a lost action
        best = -INF
        for params in options:
            s2, _ = self._step(know, s, me, action, params)
            v = self._leaf(know, s2, me)
            if v > best:
                best = v
        return best

    def _then(self, know: Knowledge, s1: Sim, looked, me: str, rest: list[str]) -> float:
        """The value after a first action, with the best of the actions left."""
        if not rest:
            return self._leaf(know, s1, me)
        if looked is None:
            return max(self._best_single(know, s1, me, a) for a in rest)
        tile, p_bad = looked
        good, bad = s1.copy(), s1.copy()
        good.hyp, bad.hyp = (tile, True), (tile, False)
        v_good = max(self._best_single(know, good, me, a) for a in rest)
        v_bad = max(self._best_single(know, bad, me, a) for a in rest)
        return (1.0 - p_bad) * v_good + p_bad * v_bad

    def _plan_value(self, know: Knowledge, s0: Sim, me: str, tokens: list[str]) -> float:
        first, rest = tokens[0], tokens[1:]
        options = self._options(know, s0, me, first)
        if not options:
            s1, _ = self._step(know, s0, me, "lost", {})
            s1.value += 2.0
            return self._then(know, s1, None, me, rest)
        best = -INF
        for params in options:
            s1, looked = self._step(know, s0, me, first, params)
            v = self._then(know, s1, looked, me, rest)
            if v > best:
                best = v
        return best

    def _program(self, know: Knowledge, legal: list[dict]) -> dict:
        programs = [c for c in legal if c["type"] == "program" and not c.get("adrenaline")]
        if not programs:
            return self.rng.choice(legal)
        me = programs[0]["character"]
        programs = [c for c in programs if c["character"] == me]
        s0 = self._start(know)
        if me in know.trapped:
            s0.trap = 1.0
        cache: dict[tuple[str, ...], float] = {}
        best, chosen = -INF, []
        for command in programs:
            tokens = tuple(command.get("actions") or ())
            if not tokens:
                chosen.append(command)
                continue
            if tokens not in cache:
                v = self._plan_value(know, s0, me, list(tokens))
                if len(tokens) == 1:
                    v -= 3.0  # one action only: kept for the Cold chamber or a trap
                cache[tokens] = v
            v = cache[tokens]
            if v > best + 1e-9:
                best, chosen = v, [command]
            elif abs(v - best) <= 1e-9:
                chosen.append(command)
        return self.rng.choice(chosen)

    def _act(self, know: Knowledge, view: dict, legal: list[dict]) -> dict:
        me = view["current"]
        mine = view["characters"].get(me, {})
        s0 = self._start(know)
        if me in know.trapped:
            s0.trap = 1.0
        programmed = mine.get("program") or []
        free = not programmed
        if free:
            played = mine.get("played") or []
            later = [] if view["round"] != 1 else ["look", "move", "push", "control"]
            later = [a for a in later if a not in played]
        best, chosen = -INF, []
        for command in legal:
            kind = command["type"]
            if kind == "act":
                action = command.get("action")
                if action is None:
                    v = self._leaf(know, s0, me) - 1.0
                else:
                    s1, looked = self._step(know, s0, me, action, command)
                    if free:
                        rest = [a for a in later if a != action]
                    else:
                        rest = list(programmed)
                        if action in rest:
                            rest.remove(action)
                        if view["round"] != 1:
                            rest = []
                    if rest and free:
                        v = max(
                            self._leaf(know, s1, me) if looked is None else -INF,
                            self._then(know, s1, looked, me, rest),
                        )
                    else:
                        v = self._then(know, s1, looked, me, rest)
            elif kind == "wait":
                v = max(self._best_single(know, s0, me, a) for a in programmed) - 1.0
            else:  # pass
                if view["round"] == 1 and free:
                    v = max(self._best_single(know, s0, me, a) for a in later) - 1.0
                else:
                    v = self._leaf(know, s0, me)
            if v > best + 1e-9:
                best, chosen = v, [command]
            elif abs(v - best) <= 1e-9:
                chosen.append(command)
        return self.rng.choice(chosen)

    # --- choices asked by a room ---

    def _choose(self, know: Knowledge, view: dict, legal: list[dict]) -> dict:
        pending = view["pending"]
        kind = pending["kind"]
        me = pending["character"]
        s0 = self._start(know)
        if me not in s0.pos:
            return self.rng.choice(legal)
        best, chosen = -INF, []
        for command in legal:
            v = self._choice_value(know, s0, me, kind, command)
            if v is None:
                return self.rng.choice(legal)
            if v > best + 1e-9:
                best, chosen = v, [command]
            elif abs(v - best) <= 1e-9:
                chosen.append(command)
        return self.rng.choice(chosen)

    def _choice_value(
        self, know: Knowledge, s0: Sim, me: str, kind: str, command: dict
    ) -> float | None:
        if kind == "control":
            axis = "row" if command["line"].startswith("row") else "col"
            index = (
                int(command["line"][3:]) - 1
                if axis == "row"
                else "ABCDE".index(command["line"][3])
            )
            s = s0.copy()
            # The chamber's slide wraps Room 25 round unless the table plays otherwise.
            cell = line_cells(axis, index)[2]
            if not know.settings.get("control_chamber_can_exit"):
                saved = know.room25_tile
                know.room25_tile = None
                s = self._slide(know, s, me, cell, command["direction"])
                know.room25_tile = saved
            else:
                s = self._slide(know, s, me, cell, command["direction"])
            return self._leaf(know, s, me)
        if "cell" not in command:
            return None
        target = INDEX[command["cell"]]
        tile = s0.tiles[target]
        if kind == "vision":
            if tile in know.kinds:
                return -1.0
            return know.p25.get(tile, 0.0) * 100 - min(
                abs(target // 5 - c // 5) + abs(target % 5 - c % 5) for c in s0.pos.values()
            )
        here = s0.pos[me]
        s = s0.copy()
        tiles = list(s.tiles)
        tiles[here], tiles[target] = tiles[target], tiles[here]
        s.tiles = tuple(tiles)
        if kind == "moving":
            pos = dict(s.pos)
            for cid, c in s0.pos.items():
                if c == here:
                    pos[cid] = target
            s.pos = pos
            return self._leaf(know, s, me)
        if kind == "illusion":
            self._enter(know, s, me, here, me)
            return self._leaf(know, s, me)
        return None

    # --- reminder token ---

    def _reminder(self, know: Knowledge, legal: list[dict]) -> dict | None:
        """Mark a dangerous room this seat has seen near the characters (a guard marks the exit
        or a safe room instead, to keep the prisoners away)."""
        places = {c["cell"]: c for c in legal if c["type"] == "reminder"}
        if not places:
            return None
        near = {n for c in know.pos.values() for n in NEIGHBOURS[c]}
        best, pick = 0.0, None
        for cell_name, command in places.items():
            c = INDEX[cell_name]
            kind = know.kinds.get(know.tiles[c])
            if kind is None:
                continue
            if know.guard:
                score = 3.0 if kind == "room25" else (1.0 if kind in KNOWN_SAFE else 0.0)
            else:
                score = {"mortal": 3.0, "illusion": 2.0, "trapped": 1.5, "flooded": 1.5}.get(
                    kind, 1.0 if LEVEL.get(kind, "danger") == "danger" else 0.0
                )
            if score and c in near:
                score += 1.0
            if score > best:
                best, pick = score, command
        return pick if best >= 2.0 else None
