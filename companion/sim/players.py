"""Seats for simulated games: a random player and a heuristic one.

A player sees what its seat may see and nothing else. The driver (`companion.sim.simulate`) hands it
the seat's `legal_commands` and a way to ask for the seat's `seat_view`, and before each of its
decisions the changes of its view since the last one (`changes_for`); it answers with one of the
legal commands.

The heuristic player keeps a `Mirror` of its seat's view, built once from `seat_view` and kept
current from those changes, because the view is costly to build before every decision. From it,
it plans on its own small model of the complex: the revealed rooms, the rooms in its notebook,
the positions. It never applies a command to the real state to see what would happen (that would
show it hidden rooms) and never looks at `full_view`.

Speed (`room25 simulate` plays thousands of games, `benchmarks/players.py` measures it). What
does not change between two decisions is kept rather than worked out again: by the complex and
the notebook (`Mirror.board`) the tiles in place and the rooms known (`_board`), the chances of a
room nobody told the seat about, the path costs and distances; by the roles shown and who is
alive, whose side each character is on (`Knowledge._side`); for any game, the chances of each
room once some are seen (`_chances`). Within one decision, what a cell is worth to the planning
character, what lines that move others or slide the complex are worth, the Looks every program
beginning with a Look shares (`_looks`), and the line after an action with no effect
(`_idle`, which a Look or an action the plan does not follow only adds a worth to) are computed
once and reused by every option. None of this changes a decision: the same seed plays the same
game as without it.

Table talk. The rules let players say how dangerous a room they looked at is, never which room
it is (001, Look: "You are allowed to give indications about the room's danger level"). Allies
(everyone in Cooperation and Solo, a team in Team mode) share a `Table` on which each one writes
the danger level (safe, obstacle, danger) of the rooms in its notebook; nobody talks in
Suspicion or Competition. The reminder token is also put on a dangerous room as a public mark.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.engine import apply_changes, grid

# --- the complex's geometry, from the engine's grid ---

SIZE, CENTRE = grid.SIZE, grid.CENTRE
NAMES = tuple(grid.name(c) for c in grid.CELLS)
INDEX = {name: c for c, name in enumerate(NAMES)}
ADJ = grid.ADJACENT
NEIGHBOURS = tuple(tuple(a.values()) for a in ADJ)
is_exit = grid.is_exit_zone
line_cells = grid.line_cells
line_name = grid.line_key
leading = grid.leading_cell


def is_edge(c: int) -> bool:
    row, col = divmod(c, SIZE)
    return row in (0, 4) or col in (0, 4)


EDGE = tuple(is_edge(c) for c in range(SIZE * SIZE))


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


def slide_of(cell: int, direction: str) -> tuple[str, int]:
    """The line a Control played from this cell moves in this direction."""
    row, col = divmod(cell, SIZE)
    return ("row", row) if direction in ("east", "west") else ("col", col)


def slid(tiles: tuple[int, ...], axis: str, index: int, direction: str) -> tuple[int, ...]:
    return tuple(grid.slide(list(tiles), axis, index, direction))


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
BAD = frozenset(
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
KNOWN_SAFE = frozenset(k for k, v in LEVEL.items() if v == "safe")
# The cost of stepping onto a room on the way somewhere (in actions; None: avoid).
PATH_COST = {
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
INF = 1e9
UNKNOWN_PATH = 2.2  # look, then move
# The rooms a player expects when the game's record does not give its composition.
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

# Weights of the evaluation (tuned by playing: `room25 simulate`).
DEATH = 1000.0  # a character of one's side eliminated (an opponent's: a gain, by his weight)
ESCAPE = 5000.0  # Room 25 taken out with one's side
DIST_W = 30.0  # per action still needed to reach Room 25
EXIT_W = 35.0  # per slide still needed to bring Room 25 to an exit zone
FRONT_W = 10.0  # per action to reach a room where Room 25 may be, while it is not found
INFO_BASE = 6.0  # a Look at a room nobody told this seat about
R25_FOUND = 160.0  # finding Room 25 (times the chance that a room is it)
VISION_GAIN = 25.0  # the Vision chamber's look
LATE_W = 150.0  # per action a way to Room 25 is longer than the actions left
KEY_GAIN = 300.0  # entering the Key room while it is needed
KEY_FOUND = 120.0  # finding the Key room (times the chance)
ALARM_PRISONER = 60.0  # per turn the alarm would take off the countdown
ALARM_GUARD = 10.0


@dataclass
class Table:
    """What allies have said aloud: the danger level of rooms they have seen, by tile."""

    levels: dict[int, str] = field(default_factory=dict)


class RandomPlayer:
    """Any legal command, uniformly."""

    def __init__(self, seat: str, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng

    following = False  # keeps no view: `observe` needs no changes

    def observe(self, changes: list[dict]) -> None:
        return None

    def choose(self, look: Callable[[], dict], legal: list[dict]) -> dict:
        return self.rng.choice(legal)


# --- the heuristic player's model of the complex ---


class Seen:
    """One character as a seat sees him."""

    __slots__ = ("alive", "flooded", "flooded_turn", "played", "program", "role", "seat", "tile")

    def __init__(self, seat: str) -> None:
        self.seat = seat
        self.alive = True
        self.tile: int | None = None
        self.role: str | None = None
        self.flooded: int | None = None
        self.flooded_turn = 0
        self.program: list[str] = []
        self.played: list[str] = []


class Mirror:
    """What a seat may know of the game, in the form the planner reads: built from the seat's
    `seat_view`, then kept current from the view's changes (`changes_for`), so that the player
    need not ask for its whole view before every decision."""

    serials = itertools.count()

    def __init__(self, view: dict) -> None:
        self.serial = next(Mirror.serials)
        self.board = 0  # counts the changes of the complex and the notebook...
        self.known = 0  # ...and those of them that are not rooms changing places
        ruleset = view["ruleset"]
        self.mode = ruleset["mode"]
        self.settings = ruleset["settings"]
        self.cells = [-1] * (SIZE * SIZE)  # the tile at each cell (-1: none yet)
        self.revealed: dict[int, str] = {}
        self.sealed: set[int] = set()
        # Reminder tokens on the board: (seat, tile) pairs, a seat holding one per character.
        self.reminder: set[tuple[str, int]] = set()
        for row, entries in enumerate(view["complex"]):
            for col, entry in enumerate(entries):
                self._cell(row * SIZE + col, entry)
        self.notebook: dict[int, str] = {}
        self._notebook(view["notebook"])
        self.trapped: dict[str, int] = {}
        self.chars: dict[str, Seen] = {}
        self.entries: dict[str, dict] = dict(view["characters"])
        for cid, entry in self.entries.items():
            self._character(cid, entry)
        for key in TOP_FOLLOWED:
            setattr(self, key, view[key])

    def observe(self, changes: list[dict]) -> None:
        """The changes of this seat's view since the last ones: the complex first, since the
        characters' and the notebook's cells are read on it."""
        later = []
        changed = set()  # the cells whose room changed
        for change in changes:
            path = change["path"]
            if path[0] == "complex":
                cell = path[1] * SIZE + path[2]
                if self._cell(cell, change["value"]):
                    self.board += 1
                    changed.add(NAMES[cell])
            else:
                later.append(change)
        # A character is seen at a cell: those standing where the room changed, and those who
        # moved, are read again once the complex is current.
        again = set()
        for change in later:
            path, value = change["path"], change["value"]
            head = path[0]
            if head == "characters":
                self.entries[path[1]] = value
                again.add(path[1])
            elif head == "notebook":
                self._notebook(value)
                self.board += 1
                self.known += 1
            elif head in TOP_FOLLOWED:
                setattr(self, head, value)
        for cid, entry in self.entries.items():
            if cid in again or entry["cell"] in changed:
                self._character(cid, entry)

    def _cell(self, cell: int, entry: dict) -> bool:
        """Follow one cell's entry; whether the rooms known or their places changed. The
        planner keeps what it derives from those while they do not (`board`), and what it
        derives from the rooms known alone while only their places change (`known`)."""
        tile = entry["tile"]
        room = entry["room"] if entry["revealed"] else None
        sealed = entry["sealed"]
        reminders = entry["reminders"]
        marks = {(seat, tile) for seat in reminders} if reminders else NO_MARKS
        marked = (
            {(seat, t) for seat, t in self.reminder if t == tile} if self.reminder else NO_MARKS
        )
        learned = (
            self.revealed.get(tile) != room or (tile in self.sealed) != sealed or marked != marks
        )
        if self.cells[cell] == tile and not learned:
            return False
        self.known += learned
        self.cells[cell] = tile
        if room is not None:
            self.revealed[tile] = room
        else:
            self.revealed.pop(tile, None)
        if sealed:
            self.sealed.add(tile)
        else:
            self.sealed.discard(tile)
        if marked or marks:
            self.reminder = (self.reminder - marked) | marks
        return True

    def _notebook(self, notes: dict[str, str]) -> None:
        """The notebook shows the rooms seen that are still face down: the mirror keeps the
        others too (they are face up, in `revealed`)."""
        cells = self.cells
        self.notebook.update({cells[INDEX[cell]]: kind for cell, kind in notes.items()})

    def _character(self, cid: str, entry: dict) -> None:
        seen = self.chars[cid] = Seen(entry["seat"])
        seen.alive = entry["alive"]
        seen.role = entry["role"]
        self.trapped.pop(cid, None)
        if entry["cell"] is not None:
            seen.tile = self.cells[INDEX[entry["cell"]]]
            if entry["trapped"]:
                self.trapped[cid] = seen.tile
            if entry["flooded_since"] is not None:
                seen.flooded, seen.flooded_turn = seen.tile, entry["flooded_since"]
        seen.program = list(entry.get("program") or ())
        seen.played = list(entry["played"])

    def summary(self) -> dict:
        """What the planner uses, to check the mirror against one built from a fresh view."""
        chars = {
            cid: (
                c.alive,
                c.tile if c.alive else None,
                c.role,
                self.trapped.get(cid) == c.tile and c.tile is not None,
                c.flooded_turn if c.flooded is not None and c.flooded == c.tile else None,
                c.program,
                c.played,
            )
            for cid, c in self.chars.items()
        }
        notebook = {t: k for t, k in self.notebook.items() if t not in self.revealed}
        return {
            "cells": list(self.cells),
            "revealed": dict(self.revealed),
            "sealed": set(self.sealed),
            "reminder": set(self.reminder),
            "notebook": notebook,
            "chars": chars,
            **{k: getattr(self, k) for k in TOP_FOLLOWED},
        }


NO_MARKS: frozenset[tuple[str, int]] = frozenset()  # no reminder token on a cell

# The top-level parts of the view the planner reads.
TOP_FOLLOWED = (
    "turn",
    "turns_left",
    "alarm",
    "round",
    "phase",
    "current",
    "pending",
    "controls",
    "key_activated",
)


class Knowledge:
    """What one seat knows at one moment, in a form quick to plan with."""

    def __init__(self, player: HeuristicPlayer, m: Mirror, fingerprint: tuple) -> None:
        self.mode = m.mode
        self.settings = m.settings
        self.seat = player.seat
        self.turn = m.turn
        self.turns_left = m.turns_left
        self.fingerprint = fingerprint  # `_fingerprint` of the mirror it was built from
        self.last_turn = m.turns_left == 1
        revealed = m.revealed
        layout = player.layout
        if layout is None or layout[0] != (m.serial, m.board):
            layout = player.layout = ((m.serial, m.board), *_board(m))
        _, tiles, where, kinds, marked, self.room25_tile, self.key_tile = layout
        self.tiles = tiles
        self.kinds, self.revealed, self.sealed, self.marked = kinds, revealed, m.sealed, marked
        table = player.table
        if table is not None:
            levels = table.levels
            for tile, kind in kinds.items():
                if tile not in revealed and tile not in levels:
                    levels[tile] = LEVEL.get(kind, "danger")
            self.levels = levels
        else:
            self.levels = {}

        self.chars = chars = m.chars
        self.pos: dict[str, int] = {}
        self.public_role: dict[str, str] = {}
        self.flood_due: set[str] = set()
        self.dead: list[str] = []
        for cid, c in chars.items():
            if c.role is not None:
                self.public_role[cid] = c.role
            if not c.alive:
                self.dead.append(cid)
                continue
            if c.tile is None:
                continue
            self.pos[cid] = where[c.tile]
            if c.flooded is not None and c.flooded == c.tile and self.turn >= c.flooded_turn + 1:
                self.flood_due.add(cid)
        self.trapped = {cid for cid, t in m.trapped.items() if chars[cid].tile == t}
        self.controls = m.controls
        # Season 2 / Ultimate Cooperation: Room 25 leaves only once the Key room was entered.
        self.key_needed = (
            player.composition.get("key", 0) > 0
            and not m.key_activated
            and (
                self.mode == "cooperation"
                or (self.mode == "solo" and self.settings.get("key_room_in_solo", False))
            )
        )
        side_key = (m.serial, tuple(self.public_role.items()), tuple(self.pos), tuple(self.dead))
        side = player.side
        if side is None or side[0] != side_key:
            self._side(player, chars)
            side = player.side = (side_key, {k: getattr(self, k) for k in SIDE})
        else:
            self.__dict__.update(side[1])
        # What follows depends on the rooms known and the tiles' places only: kept from the
        # last decision while those have not changed.
        key = (m.serial, m.board, len(self.levels))
        known = (m.serial, m.known, len(self.levels))
        kept = player.static
        if kept is not None and kept[0] == key:
            self.__dict__.update(kept[2])
        else:
            self._prior(player)
            if kept is not None and kept[1] == known:
                # Only rooms changed places: the costs of entering them, and the distances
                # already found for each layout of the complex, still hold.
                for name in KNOWN_ONLY:
                    setattr(self, name, kept[2][name])
            else:
                self._costs()
                self._dist_cache: dict[tuple, list[float]] = {}
                self._front_cache: dict[tuple, list[float]] = {}
            self._share_cache: dict[tuple, tuple] = {}  # by positions, on this layout
            self.base_dist = self.dist_to_room25(self.tiles)
            player.static = (key, known, {k: getattr(self, k) for k in STATIC})
        self.alarm_early = (
            self.mode in ("suspicion", "competition", "team")
            and not m.alarm
            and self.turn <= 5
            and self.settings.get("alarm", True)
        )
        self.me: str | None = None
        self.base_front: list[float] | None = None  # `frontier` of the complex as it is
        # Actions each character has left after this turn, less those that take Room 25 to an
        # exit and out: a longer way to Room 25 is as good as lost, worth some risk to shorten.
        self.actions_left = 2.0 * (self.turns_left - 1) - 1.0
        if self.room25_tile is not None:
            self.actions_left -= min(EXIT_DIST[self.tiles.index(self.room25_tile)], 3)
        self.late_w = LATE_W if not self.guard else 0.0
        # Time presses as the countdown runs: exploring is worth more risk.
        self.front_w = FRONT_W * 8.0 / max(self.turns_left, 2)
        self.exit_w = EXIT_W * 6.0 / max(self.turns_left, 2) if not self.guard else EXIT_W

    def _side(self, player: HeuristicPlayer, chars: dict) -> None:
        """Whose success matters to this seat, and how much (negative: an opponent)."""
        mode = self.mode
        me = self.seat
        self.guard = False
        weight: dict[str, float] = {}
        if mode in ("cooperation", "solo"):
            weight = {cid: 1.0 for cid in chars}
        elif mode == "competition":
            weight = {cid: 1.0 if c.seat == me else -0.4 for cid, c in chars.items()}
        elif mode == "team":
            side = player.team_of
            weight = {
                cid: 1.0 if side.get(c.seat) == side.get(me) else -0.5 for cid, c in chars.items()
            }
        else:  # suspicion
            my_role = "prisoner"
            for c in chars.values():
                if c.seat == me and c.role:
                    my_role = c.role
            self.guard = my_role == "guard"
            for cid, c in chars.items():
                role = c.role
                if c.seat == me:
                    weight[cid] = 1.0
                elif self.guard:
                    weight[cid] = 0.3 if role == "guard" else -0.7
                else:
                    weight[cid] = {"guard": -0.3, "prisoner": 0.9}.get(role, 0.45)
        self.weight = weight
        self.exit_sign = -1.0 if self.guard else 1.0
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
        self.dead_allies = [cid for cid in self.dead if weight.get(cid, 0.0) > 0]

    def _prior(self, player: HeuristicPlayer) -> None:
        """The chances of each room on a tile nobody told this seat about."""
        kinds = self.kinds
        chances = _chances(player.deck, tuple(sorted(kinds.values())))
        p, self.cost_unknown, self.p_bad, self.cost_good = chances
        self.p = p
        self.unknown = [t for t in self.tiles if t not in kinds]
        self.p_mortal = p.get("mortal", 0.0)
        revealed = self.revealed
        self.safe_hidden = [t for t, k in kinds.items() if t not in revealed and k in KNOWN_SAFE]
        illusion_death = 0.0 if self.safe_hidden else self.p_mortal
        self.p_death_unknown = self.p_mortal + p.get("illusion", 0.0) * illusion_death
        self.p_trap_unknown = p.get("trapped", 0.0)
        # Where Room 25 may be: on the edge at the start, anywhere a slide took it since.
        self.p25: dict[int, float] = {}
        if self.room25_tile is None:
            weights = {}
            levels = self.levels
            for c, t in enumerate(self.tiles):
                if t in kinds:
                    continue
                level = levels.get(t)
                if level == "danger" or level == "obstacle":
                    continue
                w = 1.0 if EDGE[c] else 0.2
                weights[t] = w * 2.0 if level == "safe" else w
            total_w = sum(weights.values()) or 1.0
            self.p25 = {t: w / total_w for t, w in weights.items()}
        # Where the Key room may be, while it is needed and nobody here has seen it.
        self.pkey: dict[int, float] = {}
        if self.key_needed and self.key_tile is None:
            open_ = [t for t in self.unknown if self.levels.get(t) in (None, "safe")]
            self.pkey = {t: 1.0 / len(open_) for t in open_} if open_ else {}

    def _costs(self) -> None:
        """Path cost of stepping onto each tile, from what this seat knows or was told."""
        cost: dict[int, float] = {}
        kinds, levels, sealed = self.kinds, self.levels, self.sealed
        for t in self.tiles:
            kind = kinds.get(t)
            if t in sealed:
                c = INF
            elif kind is not None:
                c = INF if kind in ("mortal", "vortex", "shredder") else PATH_COST.get(kind, 1.0)
            else:
                level = levels.get(t)
                c = UNKNOWN_PATH if level is None else LEVEL_PATH[level]
                if t in self.marked and self._marked_by_other(t):
                    c += 2.0
            cost[t] = c
        self.path_cost = cost

    def _marked_by_other(self, tile: int) -> bool:
        return any(s != self.seat for s in self.marked.get(tile, ()))

    def dist_to_room25(self, tiles: tuple[int, ...]) -> list[float] | None:
        if self.room25_tile is None:
            return None
        found = self._dist_cache.get(tiles)
        if found is None:
            found = _dijkstra({tiles.index(self.room25_tile): 0.0}, tiles, self.path_cost)
            self._dist_cache[tiles] = found
        return found

    def frontier(self, tiles: tuple[int, ...]) -> list[float]:
        """Cost to come next to a room where Room 25 may be (among those this character
        explores, when allies share the work)."""
        if tiles is self.tiles and self.base_front is not None:
            return self.base_front
        key = (tiles, self.me, self.share_key)
        found = self._front_cache.get(key)
        if found is None:
            p25, share, pkey = self.p25, self.share, self.pkey
            sources = {
                c: (0.0 if EDGE[c] else 1.0)
                for c, t in enumerate(tiles)
                if (t in p25 or t in pkey) and share.get(t, 1.0) == 1.0
            }
            if not sources:
                sources = {c: 0.0 for c, t in enumerate(tiles) if t in p25 or t in pkey}
            found = _dijkstra(sources, tiles, self.path_cost) if sources else [0.0] * 25
            self._front_cache[key] = found
        if tiles is self.tiles:
            self.base_front = found
        return found

    def _share(self, me: str) -> dict[int, float]:
        """Allies split the exploring: each hidden room goes to the nearest ally, and at equal
        distance (all in the Central room at first) by quarter of the complex, in the order of
        the starting clues. 1.0 for this character's rooms, 0.5 for the others'."""
        if not self.p25:
            return {}
        allies = [cid for cid in self.chars if cid in self.pos and self.weight.get(cid, 0.0) > 0]
        if len(allies) < 2 or me not in allies:
            return {}
        n = len(allies)
        rows = [(i, cid, MANHATTAN[self.pos[cid]]) for i, cid in enumerate(allies)]
        share = {}
        p25 = self.p25
        for c, t in enumerate(self.tiles):
            if t not in p25:
                continue
            sector = SECTOR[c] % n
            best, owner = INF, None
            for i, cid, dist in rows:
                d = dist[c] + (0.0 if sector == i % n else 0.6) + i * 0.01
                if d < best:
                    best, owner = d, cid
            share[t] = 1.0 if owner == me else 0.5
        return share

    def look_gain(self, tile: int) -> float:
        """What a Look at this room tells: its danger, and perhaps where Room 25 is."""
        if tile in self.kinds:
            return 0.0
        told = tile in self.levels
        gain = INFO_BASE * (0.4 if told else 1.0)
        found = self.p25.get(tile, 0.0) * R25_FOUND + self.pkey.get(tile, 0.0) * KEY_FOUND
        gain += found * (0.3 if told else 1.0) * self.share.get(tile, 1.0)
        return gain * 0.6 if self.guard else gain

    def focus(self, me: str) -> None:
        """Fix the planning character, and what every cell is worth to him while nobody else
        moves and no line slides (most lines of play)."""
        if me == self.me:
            return  # the same character on the same knowledge: all still holds
        self.me = me
        w = self.weight
        self.death_cost = {
            cid: DEATH * (1.0 if cid == me else w.get(cid, 0.0)) for cid in self.chars
        }
        if self.guard:
            self.death_cost[me] = DEATH * 0.6
        self.my_w = 0.1 if self.guard else 1.0
        self.spread = self.mode in ("cooperation", "solo", "team", "competition")
        if self.spread or not self.guard:
            key = (me, tuple(self.pos.items()))
            found = self._share_cache.get(key)
            if found is None:
                share = self._share(me)
                mine = tuple(sorted(t for t, v in share.items() if v == 1.0))
                found = self._share_cache[key] = (share, mine)
            self.share, self.share_key = found
        else:
            self.share, self.share_key = {}, ()
        self.risky_company = self.mode == "suspicion"
        self.key_runner = False
        if self.key_needed and self.key_tile is not None and me in self.pos:
            tiles = self.tiles
            self.key_dist = _dijkstra({tiles.index(self.key_tile): 0.0}, tiles, self.path_cost)
            allies = [c for c in self.chars if c in self.pos and w.get(c, 0.0) > 0]
            if self.key_tile not in self.revealed:  # only this seat knows where it is
                allies = [c for c in allies if self.chars[c].seat == self.seat]
            nearest = min(allies, key=lambda c: self.key_dist[self.pos[c]])
            self.key_runner = nearest == me
        self.base_front = None
        self.base_world = self.world_value(self.tiles, self.pos, {})
        self.cell_value: list[float | None] = [None] * 25  # filled when first needed
        self.moved_value: dict[tuple, tuple[float, float]] = {}  # the same for moved lines

    def world_value(self, tiles: tuple[int, ...], pos: dict[str, int], death: dict) -> float:
        """The others' distances to Room 25 and Room 25's distance to an exit."""
        r_tile = self.room25_tile
        if r_tile is None:
            return 0.0
        dist = self.base_dist if tiles is self.tiles else self.dist_to_room25(tiles)
        e = EXIT_DIST[tiles.index(r_tile)]
        value = -self.exit_sign * self.exit_w * (e if e < 3 else 3)
        me, w = self.me, self.weight
        late = self.late_w
        left = self.actions_left + 1.0
        for cid, c in pos.items():
            if cid == me or death.get(cid, 0.0) >= 0.5:
                continue
            d = dist[c]
            d = d if d < 30 else 30
            wc = w.get(cid, 0.0)
            value -= wc * DIST_W * d
            if wc > 0 and d > left:
                value -= wc * late * (d - left)
        return value

    def my_value(self, tiles: tuple[int, ...], pos: dict[str, int], here: int) -> float:
        """The planning character's place: his way to Room 25 (or to the rooms where it may
        be), and what staying there until others move costs."""
        me = self.me
        r_tile = self.room25_tile
        tile = tiles[here]
        if self.key_runner and tiles is self.tiles:
            d = self.key_dist[here]
            value = -DIST_W * (d if d < 30 else 30)
        elif r_tile is not None:
            dist = self.base_dist if tiles is self.tiles else self.dist_to_room25(tiles)
            d = dist[here]
            d = d if d < 30 else 30
            value = -self.my_w * DIST_W * d
            if self.pkey:  # the Key room is still to be found: half the team keeps looking
                f = self.frontier(tiles)[here]
                value = 0.5 * value - self.front_w * (f if f < 20 else 20)
            if d > self.actions_left and not self.guard:
                value -= self.late_w * (d - self.actions_left)
            if tile == r_tile and self.alarm_early:
                # Entering Room 25 in the first five turns leaves five turns to play.
                value += (ALARM_GUARD if self.guard else -ALARM_PRISONER) * (self.turns_left - 5)
        else:
            d = self.frontier(tiles)[here]
            kind = self.kinds.get(tile)
            if kind == "dark":
                d += 1.5  # no Look from here: a step out first
            value = -self.front_w * (d if d < 20 else 20)
        kind = self.kinds.get(tile)
        if kind == "acid":
            value -= 12.0 if self.spread else (30.0 if self.guard else 80.0)
        elif kind == "flooded" and me in self.flood_due and tile in self.sealed:
            value -= DEATH
        if here != CENTRE and tile != r_tile:
            company = 0
            for cid, c in pos.items():
                if c == here and cid != me:
                    company += 1
            if company:
                if not self.risky_company:
                    if r_tile is None:
                        value -= 4.0 * company  # explorers spread out
                elif self.guard:
                    value += 6.0 * company  # someone to push
                else:
                    w = self.weight
                    for cid, c in pos.items():
                        if c == here and cid != me and w.get(cid, 0.0) < 0.9:
                            value -= 25.0  # perhaps a guard, who may push him anywhere
        return value


def _fingerprint(player: HeuristicPlayer, m: Mirror) -> tuple:
    """Everything of the mirror a `Knowledge` is built from: two decisions with the same
    fingerprint plan on the same knowledge."""
    chars = tuple((c.alive, c.tile, c.role, c.flooded, c.flooded_turn) for c in m.chars.values())
    return (
        m.serial,
        m.board,
        m.turn,
        m.turns_left,
        m.alarm,
        m.key_activated,
        tuple(m.controls.items()),
        chars,
        tuple(m.trapped.items()),
        len(player.table.levels) if player.table is not None else 0,
    )


@functools.lru_cache(maxsize=4096)
def _chances(composition: tuple[tuple[str, int], ...], seen: tuple[str, ...]) -> tuple:
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


def _board(m: Mirror) -> tuple:
    """What a seat's knowledge takes from the complex and the notebook alone, kept while neither
    changes (`Mirror.board`): the tiles in place, the cell of each tile, the rooms known, the
    reminder tokens by tile, and where Room 25 and the Key room are if known."""
    tiles = tuple(m.cells)
    revealed = m.revealed
    kinds = dict(revealed)
    for t, k in m.notebook.items():
        if t not in revealed:
            kinds[t] = k
    marked: dict[int, list[str]] = {}
    for seat, t in sorted(m.reminder):
        marked.setdefault(t, []).append(seat)
    room25_tile = key_tile = None
    for t, k in kinds.items():
        if k == "room25":
            room25_tile = t
        elif k == "key":
            key_tile = t
    where = {t: c for c, t in enumerate(tiles)}
    return tiles, where, kinds, marked, room25_tile, key_tile


SECTOR = tuple(
    0 if r < 2 and c >= 2 else 1 if r >= 2 and c > 2 else 2 if r > 2 and c <= 2 else 3
    for r, c in (divmod(cell, SIZE) for cell in range(SIZE * SIZE))
)
MANHATTAN = tuple(
    tuple(abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE) for b in range(SIZE * SIZE))
    for a in range(SIZE * SIZE)
)
# Suspicion, role tiles "doubt": guards dealt on average (001: 4 prisoner tiles and 1 guard tile
# at 4 players, 2 guard tiles from 5, one tile left over at 4 and 5 players).
GUARDS_EXPECTED = {4: 0.8, 5: 5 / 3, 6: 2.0}
STATIC = (
    "p",
    "unknown",
    "p_mortal",
    "safe_hidden",
    "p_death_unknown",
    "p_trap_unknown",
    "cost_unknown",
    "p_bad",
    "cost_good",
    "p25",
    "pkey",
    "path_cost",
    "_dist_cache",
    "_front_cache",
    "_share_cache",
    "base_dist",
)
# What `Knowledge._side` finds: kept while the roles shown and who is alive do not change.
SIDE = ("guard", "weight", "exit_sign", "required", "dead_allies")
# What depends on the rooms known but not on their places (the caches are by layout).
KNOWN_ONLY = ("path_cost", "_dist_cache", "_front_cache")
LEVEL_PATH = {"danger": 8.0, "obstacle": 3.0, "safe": 1.2}


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
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d, u = pop(heap)
        if d > dist[u]:
            continue
        step = cost[tiles[u]] if u != CENTRE else 1.0
        if step >= INF:
            continue
        nd = d + step
        for v in NEIGHBOURS[u]:
            if nd < dist[v]:
                dist[v] = nd
                push(heap, (nd, v))
    return dist


class Sim:
    """One line of play in the planner's model: positions, tiles, risks taken so far."""

    __slots__ = (
        "controls",
        "death",
        "escaped",
        "hyp",
        "idle",
        "key",
        "moved",
        "pos",
        "sealed",
        "step",
        "tiles",
        "trap",
        "value",
    )

    def copy(self) -> Sim:
        s = Sim.__new__(Sim)
        s.tiles, s.pos, s.death, s.value = self.tiles, self.pos, self.death, self.value
        s.trap, s.escaped, s.controls = self.trap, self.escaped, self.controls
        s.hyp, s.sealed, s.moved, s.step = self.hyp, self.sealed, self.moved, self.step
        s.key, s.idle = self.key, None
        return s


# The rooms whose entry does more than cost something (`HeuristicPlayer._enter`).
ENTRY_EFFECTS = frozenset(
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
ALL_TOKENS = ("look", "move", "push", "control")
BLIND = {"blind": True}  # an action the plan does not follow in detail
HOPE = {"hope": True}  # a Control kept for when the others will have played (`_hope`)
STEP_OPTIONS = tuple([{"direction": d} for d in ADJ[c]] for c in range(SIZE * SIZE))


class HeuristicPlayer:
    """Plans each character's two actions with a one-turn lookahead (the others standing still)
    over its own model of the complex; see `companion/simulate.py` for the policy in words."""

    def __init__(
        self,
        seat: str,
        rng: random.Random,
        composition: dict[str, int] | None = None,
        table: Table | None = None,
        team_of: dict[str, str] | None = None,
        clue_index: int = 0,
        check: bool = False,
    ) -> None:
        self.seat, self.rng = seat, rng
        self.composition = dict(composition or BASE_COMPOSITION)
        self.deck = tuple(self.composition.items())  # the composition, as a key
        self.table = table
        self.team_of = team_of or {}
        self.clue_index = clue_index
        self.check = check  # compare the mirror with a fresh seat_view at every decision
        self.mirror: Mirror | None = None
        self.view: dict = {}  # with `check`: the seat's view kept current by its changes
        self.static: tuple | None = None  # the planning data of the last decision, by board
        self.known: Knowledge | None = None  # the knowledge of the last decision
        self.layout: tuple | None = None  # `_board` of the last decision, by board
        self.side: tuple | None = None  # `Knowledge._side` of the last decision, by roles

    # --- the entry point ---

    @property
    def following(self) -> bool:
        """Whether it keeps a view that `observe` brings up to date; until its first plan it
        keeps none, and asks for its whole view then."""
        return self.mirror is not None

    def observe(self, changes: list[dict]) -> None:
        """The changes of this seat's view since it last chose (`changes_for`)."""
        if self.mirror is not None:
            self.mirror.observe(changes)
            if self.check:
                self.view = apply_changes(self.view, changes)

    def choose(self, look: Callable[[], dict], legal: list[dict]) -> dict:
        """One of `legal`; `look()` gives this seat's `seat_view` when the mirror needs it."""
        first = legal[0]["type"]
        if first == "clue":
            return self._clue(legal)
        if any("room" in c for c in legal):
            # Physical tracking: a command that shows a tile says which room it is. The player
            # decides what to do; the simulated tile is any room the engine accepts.
            variants: dict[str, list[dict]] = {}
            for c in legal:
                plain = {k: v for k, v in c.items() if k != "room"}
                variants.setdefault(repr(sorted(plain.items())), []).append(c)
            plain_legal = [
                {k: v for k, v in group[0].items() if k != "room"} for group in variants.values()
            ]
            chosen = self.choose(look, plain_legal)
            return self.rng.choice(variants[repr(sorted(chosen.items()))])
        m = self.mirror
        if m is None:
            view = look()
            if view.get("complex") is None:
                return self.rng.choice(legal)  # countdown tracking: no board to plan on
            self.mirror = m = Mirror(view)
            self.view = view
        elif self.check:
            fresh = look()
            if self.view != fresh:
                wrong = {k: (self.view[k], fresh[k]) for k in fresh if self.view.get(k) != fresh[k]}
                raise AssertionError(f"seat {self.seat}: view kept by its changes differs: {wrong}")
            mine, theirs = m.summary(), Mirror(fresh).summary()
            if mine != theirs:
                wrong = {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs[k]}
                raise AssertionError(f"seat {self.seat}: mirror differs from view: {wrong}")
        actions = [c for c in legal if c["type"] in ("act", "wait", "pass")]
        if len(actions) == 1 and not self._worth_marking(m, legal):
            return actions[0]  # nothing to decide
        # Nothing this seat knows changed since its last decision (its first action after
        # programming, most often): the same knowledge, with all it has worked out.
        fingerprint = _fingerprint(self, m)
        know = self.known
        if know is None or know.fingerprint != fingerprint:
            know = self.known = Knowledge(self, m, fingerprint)
        if m.pending is not None and first == "choose":
            return self._choose(know, m, legal)
        if first == "program":
            return self._program(know, legal)
        reminder = self._reminder(know, legal)
        if reminder is not None:
            return reminder
        if actions:
            return self._act(know, m, actions)
        others = [c for c in legal if c["type"] not in ("reminder", "expose")]
        return self.rng.choice(others or legal)

    def _clue(self, legal: list[dict]) -> dict:
        """Allies agree to look at different rooms around the Central room."""
        if self.table is not None:
            wanted = ("C2", "D3", "C4", "B3")[self.clue_index % 4]
            for c in legal:
                if c["cell"] == wanted:
                    return c
        return self.rng.choice(legal)

    # --- the model ---

    def _start(self, know: Knowledge, me: str) -> Sim:
        know.focus(me)
        s = Sim()
        s.tiles = know.tiles
        s.pos = know.pos
        s.death = {}
        s.value = 0.0
        s.trap = 1.0 if me in know.trapped else 0.0
        s.escaped = False
        s.controls = know.controls
        s.hyp = None
        s.sealed = know.sealed
        s.moved = False
        s.step = 0
        s.key = False
        s.idle = None
        return s

    def _leaf(self, know: Knowledge, s: Sim) -> float:
        """What a line of play is worth to this seat."""
        me = know.me
        value = s.value - s.trap * 30.0
        death = s.death
        if death:
            cost = know.death_cost
            for cid, p in death.items():
                value -= p * cost.get(cid, 0.0)
        if s.escaped:
            return value + (-ESCAPE if know.guard else ESCAPE)
        here = s.pos.get(me)
        if here is None or death.get(me, 0.0) >= 0.5:
            return value + (know.world_value(s.tiles, s.pos, death) if s.moved else know.base_world)
        if not s.moved:
            mine = know.cell_value[here]
            if mine is None:
                mine = know.cell_value[here] = know.my_value(s.tiles, s.pos, here)
            return value + know.base_world + mine
        # Lines that move others or slide a line often meet again: their worth is kept.
        key = (s.tiles, s.tiles is know.tiles, tuple(s.pos.items()), tuple(death.items()))
        found = know.moved_value.get(key)
        if found is None:
            found = know.moved_value[key] = (
                know.world_value(s.tiles, s.pos, death),
                know.my_value(s.tiles, s.pos, here),
            )
        return value + found[0] + found[1]

    def _enter(self, know: Knowledge, s: Sim, who: str, cell: int) -> None:
        """`who` arrives at `cell` (moved or pushed): the room's effect, as far as known."""
        tile = s.tiles[cell]
        kind = know.kinds.get(tile)
        pos = dict(s.pos)
        pos[who] = cell
        s.pos = pos
        me = know.me
        if who != me:
            s.moved = True
            w_who = abs(know.weight.get(who, 0.0))
        else:
            w_who = 1.0
        if kind is None:
            hyp = s.hyp
            if hyp is not None and hyp[0] == tile:
                s.value -= (know.cost_good if hyp[1] else 300.0) * w_who
                return
            self._enter_unknown(know, s, who, tile, w_who)
            return
        if kind not in ENTRY_EFFECTS:  # a room that only costs something to enter
            s.value -= ENTRY_COST.get(kind, 0.0 if kind in LEVEL else 40.0) * w_who
            return
        if kind == "mortal":
            self._die(s, who, 1.0, know.me)
        elif kind == "acid":
            for cid, c in s.pos.items():
                if c == cell and cid != who:
                    self._die(s, cid, 1.0, know.me)
                    break
        elif kind == "vortex":
            pos[who] = CENTRE
            s.value -= 5.0 * w_who
        elif kind == "twin" or kind == "tunnel":
            for c, t in enumerate(s.tiles):
                if t != tile and t in know.revealed and know.kinds.get(t) == kind:
                    pos[who] = c
                    break
        elif kind == "trapped":
            if who == me:
                s.trap = 1.0
            else:
                s.value -= 30.0 * w_who
        elif kind == "illusion":
            r_tile = know.room25_tile
            if r_tile is not None and r_tile not in know.revealed and who == me:
                s.value += 20.0  # the exit itself comes to him
            elif not know.safe_hidden or who != me:
                s.value -= w_who * know.cost_unknown
                self._die(s, who, know.p_death_unknown, know.me)
        elif kind == "vision":
            if know.p25:
                s.value += VISION_GAIN * 2.0 * w_who
        elif kind == "flooded":
            s.sealed = s.sealed | {tile}
            s.value -= ENTRY_COST["flooded"] * w_who
        elif kind == "control" or kind == "moving":
            s.value += 5.0 * w_who
        elif kind == "key" and know.key_needed and not s.key:
            s.key = True
            s.value += KEY_GAIN

    def _enter_unknown(self, know: Knowledge, s: Sim, who: str, tile: int, w_who: float) -> None:
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
            if tile in know.marked and know._marked_by_other(tile):
                p_death, cost = min(1.0, p_death * 1.5), cost * 1.5
            s.value -= cost * w_who
            self._die(s, who, p_death, know.me)
            if who == know.me:
                s.trap = max(s.trap, know.p_trap_unknown)
        if know.key_needed and know.key_tile is None and not s.key:
            s.value += know.p.get("key", 0.0) * KEY_GAIN * 0.5
        p25 = know.p25.get(tile)
        if p25:
            s.value += p25 * R25_FOUND * (0.2 if know.guard else 1.0)
            if know.alarm_early and not know.guard:
                s.value -= p25 * ALARM_PRISONER * (know.turns_left - 5)

    def _die(self, s: Sim, who: str, p: float, me: str) -> None:
        if p <= 0:
            return
        death = dict(s.death)
        death[who] = 1.0 - (1.0 - death.get(who, 0.0)) * (1.0 - p)
        s.death = death
        if who != me:
            s.moved = True  # the others' worth must be counted again

    def _step(self, know: Knowledge, s0: Sim, action: str, params: dict) -> tuple[Sim, tuple]:
        """Play one action of the planning character in the model. Returns the new line and,
        for a Look at a room this seat does not know, (tile, chance it is bad) to branch on."""
        me = know.me
        s = s0.copy()
        s.step += 1
        here = s.pos.get(me)
        trap, s.trap = s.trap, 0.0
        looked = ()
        if here is None:
            return s, looked
        direction = params.get("direction")
        if direction is None and action in ALL_TOKENS and params is not BLIND:
            action = "lost"  # played with no way to complete it
        if action == "move":
            dest = ADJ[here].get(direction)
            if dest is not None:
                self._enter(know, s, me, dest)
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
            s.value -= 8.0 if action == "control" else 25.0
        elif params is HOPE:
            s.value += 0.3 * ESCAPE
        elif action == "push":
            dest = ADJ[here].get(direction)
            target = params.get("target")
            if dest is not None and target in s.pos:
                self._enter(know, s, target, dest)
        elif action == "control":
            axis, index = slide_of(here, direction)
            self._slide(know, s, axis, index, direction, True)
        elif action != "lost":
            s.value -= 15.0  # a talent: not modelled, kept for when nothing else helps
        if trap:
            self._die(s, me, trap, know.me)
        s.hyp = None
        return s, looked

    def _slide(
        self, know: Knowledge, s: Sim, axis: str, index: int, direction: str, can_exit: bool
    ) -> None:
        lead = leading(axis, index, direction)
        r_tile = know.room25_tile
        if can_exit and r_tile is not None and s.tiles[lead] == r_tile and r_tile in know.revealed:
            inside = [cid for cid, c in s.pos.items() if c == lead and s.death.get(cid, 0.0) < 0.5]
            if self._may_leave(know, s, inside):
                s.escaped = True
                return
            if know.mode == "suspicion" and not know.guard:
                # Who is still outside may be a guard: the attempt costs little if it fails
                # (Room 25 comes back at the other end of its line with those inside).
                p = self._leave_chance(know, s, inside)
                if p >= 0.2:
                    s.escaped = True
                    s.value -= (1.0 - p) * ESCAPE
                    return
            if s.step > 1:
                # A later action: allies one step from Room 25 may well be inside by then.
                dist = know.base_dist
                coming = [
                    cid
                    for cid in know.required
                    if cid in know.pos and cid not in inside and dist[know.pos[cid]] <= 1.3
                ]
                if coming and self._may_leave(know, s, inside + coming):
                    s.escaped = True
                    s.value -= 0.5 * ESCAPE
                    return
        s.tiles = slid(s.tiles, axis, index, direction)
        s.moved = True
        cells = line_cells(axis, index)
        shift = 1 if direction in ("east", "south") else -1
        pos = None
        for cid, c in s.pos.items():
            if c in cells:
                if pos is None:
                    pos = dict(s.pos)
                pos[cid] = cells[(cells.index(c) + shift) % SIZE]
        if pos is not None:
            s.pos = pos
        controls = dict(s.controls)
        controls[line_name(axis, index)] = direction
        s.controls = controls

    def _may_leave(self, know: Knowledge, s: Sim, inside: list[str]) -> bool:
        """Whether Room 25 would leave with these characters, as far as this seat can tell."""
        if know.guard:
            return True  # the prisoners might all be inside: a guard never risks it
        if know.key_needed and not s.key:
            return False
        death = s.death
        living = [cid for cid in know.required if death.get(cid, 0.0) < 0.5]
        missing = [cid for cid in living if cid not in inside]
        dead = len(know.dead_allies) + len(know.required) - len(living)
        if know.mode == "suspicion":
            return not missing or (len(missing) + dead <= 1 and know.last_turn)
        if know.mode == "cooperation":
            return not missing
        if know.mode == "solo":
            return not missing and not dead
        return not missing and (not dead or know.last_turn)

    def _leave_chance(self, know: Knowledge, s: Sim, inside: list[str]) -> float:
        """Suspicion: the chance Room 25 leaves with these characters, the roles this seat does
        not know being guards as often as the role tiles make likely."""
        unknown = [
            cid
            for cid in know.chars
            if cid not in know.public_role and know.chars[cid].seat != know.seat
        ]
        known_guards = sum(1 for r in know.public_role.values() if r == "guard")
        expected = GUARDS_EXPECTED.get(len(know.chars), 2.0)
        if know.settings.get("role_tiles", "doubt") != "doubt" and len(know.chars) < 6:
            expected = 1.0 if len(know.chars) == 4 else 1.5
        p_guard = min(0.95, max(0.0, expected - known_guards) / len(unknown)) if unknown else 0.0
        missing_known = 0
        doubtful = 0
        for cid, c in know.chars.items():
            out = cid not in inside or not c.alive or s.death.get(cid, 0.0) >= 0.5
            if not out:
                continue
            role = know.public_role.get(cid)
            if role == "prisoner":
                missing_known += 1
            elif role is None:
                doubtful += 1
        allowed = 1 if know.last_turn else 0
        if missing_known > allowed:
            return 0.0
        p = p_guard**doubtful  # every doubtful one a guard
        if missing_known < allowed and doubtful:
            p += doubtful * (1.0 - p_guard) * p_guard ** (doubtful - 1)
        return p

    def _options(self, know: Knowledge, s: Sim, action: str) -> list[dict]:
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
            found = []
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
            others = [cid for cid, c in s.pos.items() if c == here and cid != me]
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
            driver = know.guard or self._driver(know, s, r) == me
            found = []
            for d in ("east", "west", "north", "south"):
                axis, index = slide_of(here, d)
                if index == 2 or index != (r // SIZE if axis == "row" else r % SIZE):
                    continue
                used = s.controls.get(line_name(axis, index))
                if used is not None and used != d:
                    continue
                if driver or leading(axis, index, d) == r:
                    found.append({"direction": d})
            if s.step and not know.guard and self._hope(know, s, r):
                found.append(HOPE)
            return found or [BLIND]
        return [{}]  # a talent or another token: one way, not modelled

    def _hope(self, know: Knowledge, s: Sim, r: int) -> bool:
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

    def _driver(self, know: Knowledge, s: Sim, r: int) -> str | None:
        """The ally inside Room 25 who slides it: the first of them in the table's order."""
        weight = know.weight
        for cid, c in s.pos.items():
            if c == r and weight.get(cid, 0.0) > 0 and s.death.get(cid, 0.0) < 0.5:
                return cid
        return None

    def _best_single(self, know: Knowledge, s: Sim, action: str) -> float:
        """The best way to play one last action."""
        options = self._options(know, s, action)
        if not options:
            return self._leaf(know, self._idle(know, s))
        # An action that changes nothing but the line's worth (a Look, or one the plan does
        # not follow) is the line after an idle action, that worth added.
        if options[0] is BLIND:
            line = self._idle(know, s).copy()
            line.value -= 8.0 if action == "control" else 25.0
            return self._leaf(know, line)
        if action == "look":
            # Only the best Look needs a value: what it tells.
            steps, tiles, gain = ADJ[s.pos[know.me]], s.tiles, know.look_gain
            top = -INF
            for o in options:
                cell = steps.get(o["direction"])
                g = 0.0 if cell is None else gain(tiles[cell])
                if g > top:
                    top = g
            line = self._idle(know, s).copy()
            if top:  # a room nobody told this seat about
                line.value += top
            return self._leaf(know, line)
        best = -INF
        for params in options:
            v = self._leaf(know, self._step(know, s, action, params)[0])
            if v > best:
                best = v
        return best

    def _idle(self, know: Knowledge, s: Sim) -> Sim:
        """The line after an action with no effect (`_step` "lost"), kept with the line."""
        if s.idle is None:
            s.idle = self._step(know, s, "lost", {})[0]
        return s.idle

    def _split(self, know: Knowledge, s1: Sim, action: str, tile: int) -> tuple[float, float]:
        """The best last action that does not enter the room just looked at, and the best that
        does if that room turns out good (entering it if it is bad is never the best)."""
        options = self._options(know, s1, action)
        if not options:
            v = self._leaf(know, self._idle(know, s1))
            return v, -INF
        if action not in ("move", "push"):
            return self._best_single(know, s1, action), -INF
        here = s1.pos[know.me]
        good = s1.copy()
        good.hyp = (tile, True)
        other = into = -INF
        for params in options:
            cell = ADJ[here].get(params.get("direction", ""))
            if cell is not None and s1.tiles[cell] == tile:
                v = self._leaf(know, self._step(know, good, action, params)[0])
                into = v if v > into else into
            else:
                v = self._leaf(know, self._step(know, s1, action, params)[0])
                other = v if v > other else other
        return other, into

    def _then(self, know: Knowledge, s1: Sim, looked: tuple, rest: list[str]) -> float:
        """The value after a first action, with the best of the actions left; after a Look at
        an unknown room, the chance that it is bad weighs the two outcomes."""
        if not rest:
            return self._leaf(know, s1)
        if not looked or ("move" not in rest and "push" not in rest):
            if len(rest) == 1:
                return self._best_single(know, s1, rest[0])
            return max(self._best_single(know, s1, a) for a in rest)
        tile, p_bad = looked
        v_good = v_bad = -INF
        for a in rest:
            other, into = self._split(know, s1, a, tile)
            v_bad = other if other > v_bad else v_bad
            best = other if other > into else into
            v_good = best if best > v_good else v_good
        if v_bad == -INF:
            v_bad = self._leaf(know, s1) - 300.0
        return (1.0 - p_bad) * v_good + p_bad * v_bad

    def _looks(self, know: Knowledge, s0: Sim) -> tuple[Sim, list[tuple[float, int | None]]]:
        """What every program that begins with a Look shares: the line after a Look (its gain
        apart), and each Look's gain with the room it may show (None: nothing to branch on)."""
        options = self._options(know, s0, "look")
        here = s0.pos.get(know.me)
        base = self._idle(know, s0)
        looks: list[tuple[float, int | None]] = []
        if not options or here is None:
            return base, looks
        steps, tiles, kinds, levels = ADJ[here], s0.tiles, know.kinds, know.levels
        for o in options:
            tile = tiles[steps[o["direction"]]]
            hyp = tile not in kinds and tile not in levels
            looks.append((know.look_gain(tile), tile if hyp else None))
        return base, looks

    def _look_first(
        self, know: Knowledge, s0: Sim, rest: list[str], shared: tuple[Sim, list]
    ) -> float:
        """A Look first, then `rest`: the same as `_then` after each Look, computed once. A Look
        changes nothing but what is known, so every line is the same but for its gain and for
        what the second action finds in the room looked at (`_looks`)."""
        base, looks = shared
        if not looks:
            return self._then(know, base, (), rest)
        here = s0.pos[know.me]
        top = max(g for g, _ in looks)
        if not rest:
            return self._leaf(know, base) + top
        a = rest[0]
        if len(rest) > 1 or a not in ("move", "push"):
            return top + max(self._best_single(know, base, a) for a in rest)
        plain: list[tuple[int | None, float]] = []  # (tile entered, value)
        good: dict[int, float] = {}
        moves = self._options(know, base, a)
        if not moves:
            return top + self._leaf(know, self._idle(know, base))
        looked_tiles = {t for _, t in looks if t is not None}
        for params in moves:
            cell = ADJ[here].get(params.get("direction", ""))
            tile = None if cell is None else base.tiles[cell]
            plain.append((tile, self._leaf(know, self._step(know, base, a, params)[0])))
            if tile in looked_tiles:
                hyp = base.copy()
                hyp.hyp = (tile, True)
                v = self._leaf(know, self._step(know, hyp, a, params)[0])
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
                    other = self._leaf(know, base) - 300.0
                v = gain + (1.0 - p_bad) * max(other, into) + p_bad * other
            if v > best:
                best = v
        return best

    def _program(self, know: Knowledge, legal: list[dict]) -> dict:
        programs = [c for c in legal if c["type"] == "program" and not c.get("adrenaline")]
        if not programs:
            return self.rng.choice(legal)
        me = programs[0]["character"]
        programs = [c for c in programs if c["character"] == me]
        s0 = self._start(know, me)
        # A first action the plan does not follow (a push among allies, a slide that leaves
        # Room 25 alone) is never better than a Look first, when a Look can be played.
        can_look = bool(self._options(know, s0, "look")) and any(
            (c.get("actions") or [None])[0] == "look" for c in programs
        )
        # Every first action once, then every second action after it.
        firsts: dict[str, list[tuple[Sim, tuple]]] = {}
        looks = None
        values: dict[tuple[str, ...], float] = {}
        best, chosen = -INF, []
        for command in programs:
            tokens = tuple(command.get("actions") or ())
            if not tokens:
                chosen.append(command)
                continue
            v = values.get(tokens)
            if v is None and tokens[0] == "look":
                if looks is None:
                    looks = self._looks(know, s0)
                v = self._look_first(know, s0, list(tokens[1:]), looks)
                if len(tokens) == 1:
                    v -= 3.0
                values[tokens] = v
            if v is None:
                first = tokens[0]
                lines = firsts.get(first)
                if lines is None:
                    options = self._options(know, s0, first)
                    if can_look and options == [BLIND]:
                        lines = []
                    elif options:
                        lines = [self._step(know, s0, first, params) for params in options]
                    else:
                        lines = [(self._idle(know, s0), ())]
                    firsts[first] = lines
                rest = list(tokens[1:])
                v = -INF
                for s1, looked in lines:
                    line_value = self._then(know, s1, looked, rest)
                    if line_value > v:
                        v = line_value
                if len(tokens) == 1:
                    v -= 3.0  # one action only: for the Cold chamber or a trap
                values[tokens] = v
            if v > best + 1e-9:
                best, chosen = v, [command]
            elif v > best - 1e-9:
                chosen.append(command)
        return self.rng.choice(chosen)

    def _act(self, know: Knowledge, m: Mirror, legal: list[dict]) -> dict:
        me = legal[0].get("character") or m.current
        s0 = self._start(know, me)
        mine = m.chars[me]
        programmed = list(mine.program)
        free = not programmed
        first_round = m.round == 1
        later: list[str] = []
        if free and first_round:
            played = mine.played
            later = [a for a in ALL_TOKENS if a not in played]
        best, chosen = -INF, []
        for command in legal:
            kind = command["type"]
            if kind == "act":
                action = command.get("action")
                s1, looked = self._step(know, s0, action or "lost", command)
                if free:
                    rest = [a for a in later if a != action]
                    v = self._leaf(know, s1)
                    if rest:
                        v = max(v, self._then(know, s1, looked, rest))
                else:
                    rest = list(programmed)
                    if action in rest:
                        rest.remove(action)
                    v = self._then(know, s1, looked, rest if first_round else [])
            elif kind == "wait":
                v = max(self._best_single(know, s0, a) for a in programmed) - 1.0
            elif first_round and free and later:  # pass now, play in the second round
                v = max(self._best_single(know, s0, a) for a in later) - 1.0
            else:
                v = self._leaf(know, s0)
            if v > best + 1e-9:
                best, chosen = v, [command]
            elif v > best - 1e-9:
                chosen.append(command)
        return self.rng.choice(chosen)

    # --- choices asked by a room ---

    def _choose(self, know: Knowledge, m: Mirror, legal: list[dict]) -> dict:
        pending = m.pending
        kind = pending["kind"]
        me = pending["character"]
        if me not in know.pos or kind not in ("control", "vision", "moving", "illusion"):
            return self.rng.choice(legal)
        s0 = self._start(know, me)
        best, chosen = -INF, []
        for command in legal:
            v = self._choice_value(know, s0, kind, command)
            if v > best + 1e-9:
                best, chosen = v, [command]
            elif v > best - 1e-9:
                chosen.append(command)
        return self.rng.choice(chosen)

    def _choice_value(self, know: Knowledge, s0: Sim, kind: str, command: dict) -> float:
        if kind == "control":
            line = command.get("line", "")
            if line.startswith("row"):
                axis, index = "row", int(line[3:]) - 1
            else:
                axis, index = "col", "ABCDE".index(line[3])
            # The chamber's slide wraps Room 25 round unless the table plays otherwise.
            can_exit = bool(know.settings.get("control_chamber_can_exit"))
            s = s0.copy()
            self._slide(know, s, axis, index, command["direction"], can_exit)
            return self._leaf(know, s)
        target = INDEX[command["cell"]]
        tile = s0.tiles[target]
        if kind == "vision":
            if tile in know.kinds:
                return -100.0
            near = min(abs(target // 5 - c // 5) + abs(target % 5 - c % 5) for c in s0.pos.values())
            return know.p25.get(tile, 0.0) * 100.0 - near
        here = s0.pos[know.me]
        s = s0.copy()
        tiles = list(s.tiles)
        tiles[here], tiles[target] = tiles[target], tiles[here]
        s.tiles = tuple(tiles)
        s.moved = True
        if kind == "moving":
            s.pos = {cid: (target if c == here else c) for cid, c in s0.pos.items()}
        else:  # illusion: the chosen room comes here and he enters it
            self._enter(know, s, know.me, here)
        return self._leaf(know, s)

    # --- reminder token ---

    def _worth_marking(self, m: Mirror, legal: list[dict]) -> bool:
        """Whether a reminder token may be worth placing: it is free, and this seat has seen a
        room worth marking (a guard: any room)."""
        if legal[-1]["type"] != "reminder":
            return False
        if m.mode == "suspicion":
            return True
        return any(REMINDER_SCORE.get(k, 0.0) >= 1.0 or k not in LEVEL for k in m.notebook.values())

    def _reminder(self, know: Knowledge, legal: list[dict]) -> dict | None:
        """Mark a dangerous room this seat has seen near the characters (a guard marks the exit
        or a safe room instead, to keep the prisoners away)."""
        if legal[-1]["type"] != "reminder":
            return None
        near = {n for c in know.pos.values() for n in NEIGHBOURS[c]}
        best, pick = 0.0, None
        for command in legal:
            if command["type"] != "reminder":
                continue
            c = INDEX[command["cell"]]
            kind = know.kinds.get(know.tiles[c])
            if kind is None:
                continue
            if know.guard:
                score = 3.0 if kind == "room25" else (1.0 if kind in KNOWN_SAFE else 0.0)
            else:
                score = REMINDER_SCORE.get(kind, 0.0 if kind in LEVEL else 1.0)
            if score and c in near:
                score += 1.0
            if score > best:
                best, pick = score, command
        return pick if best >= 2.0 else None


REMINDER_SCORE = {"mortal": 3.0, "illusion": 2.0, "trapped": 1.5, "flooded": 1.5, "acid": 1.0}
