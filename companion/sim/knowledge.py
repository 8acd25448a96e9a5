"""What one seat knows at one moment, in the form the heuristic planner reads.

Built from the seat's `Mirror` (its view kept current) and the allies' `Table`: the rooms known
(revealed, or in the seat's notebook), the positions, whose side each character is on as far as
the roles shown tell, the chances of the rooms nobody told it about, path costs and distances.

Speed. What does not change between two decisions is kept in the seat's `Memory` rather than
worked out again: by the complex and the notebook (`Mirror.board`) the tiles in place and the
rooms known (`_board`), the chances of a room nobody told the seat about, the path costs and
distances (the distances even past a room learned, while no path cost changed:
`_keep_distances`); by the roles shown and who is alive, whose side each character is on
(`Knowledge._side`); for any game, the chances of each room once some are seen
(`rooms.chances`). None of this changes a decision: the same seed plays the same game as without
it.

A compiled build does arithmetic on native floats only where the types say floats: the parts
taken from untyped keeps are declared on the class, and the distances are clamped to float
bounds (30.0, not 30), else every product in the planner's values goes through boxed objects.
"""

from __future__ import annotations

from typing import Final

from companion.sim.complex import (
    CENTRE,
    EDGE,
    EXIT_DIST,
    INF,
    dijkstra,
    sharing,
)
from companion.sim.mirror import Mirror
from companion.sim.rooms import (
    BASE_COMPOSITION,
    KNOWN_SAFE,
    LEVEL,
    LEVEL_PATH,
    PATH_COST,
    UNKNOWN_PATH,
    chances,
)
from companion.sim.table import Table
from companion.sim.weights import (
    ALARM_GUARD,
    ALARM_PRISONER,
    DEATH,
    DIST_W,
    EXIT_W,
    FRONT_W,
    INFO_BASE,
    KEY_FOUND,
    LATE_W,
    R25_FOUND,
)

# The weight of Room 25 at each cell nobody said anything of (`_prior`): on the edge at the
# start, five times less inside, where only a slide can have taken it.
ROOM25_AT: Final = tuple(1.0 if edge else 0.2 for edge in EDGE)


class Memory:
    """What a seat's planning keeps from one decision to the next, with the game's facts it
    plans with: held by the player, handed to each `Knowledge`, so that the knowledge depends
    on no player (and the planner's modules on no policy)."""

    def __init__(
        self,
        seat: str,
        composition: dict[str, int] | None = None,
        table: Table | None = None,
        team_of: dict[str, str] | None = None,
    ) -> None:
        self.seat = seat
        self.composition = dict(composition or BASE_COMPOSITION)
        self.deck = tuple(self.composition.items())  # the composition, as a key
        self.table = table
        self.team_of = team_of or {}
        self.static: tuple | None = None  # the planning data of the last decision, by board
        self.layout: tuple | None = None  # `_board` of the last decision, by board
        self.side: tuple | None = None  # `Knowledge._side` of the last decision, by roles


class Knowledge:
    """What one seat knows at one moment, in a form quick to plan with."""

    # Read from the player's untyped keeps (`_board`, `_share`): declared, so that a compiled
    # build reads them as what they are rather than as any object.
    tiles: tuple[int, ...]
    kinds: dict[int, str]
    marked: set[int]
    room25_tile: int | None
    key_tile: int | None
    share: dict[int, float]
    share_key: tuple[int, ...]
    # Worked out, or taken back from an earlier decision (`Kept`, `_side`).
    guard: bool
    weight: dict[str, float]
    exit_sign: float
    required: list[str]
    dead_allies: list[str]
    path_cost: list[float]
    _dist_cache: dict[tuple, list[float]]
    _front_cache: dict[tuple, list[float]]

    def __init__(self, memory: Memory, m: Mirror, fingerprint: tuple) -> None:
        self.mode = m.mode
        self.settings = m.settings
        self.seat = memory.seat
        self.turn = m.turn
        self.turns_left = m.turns_left
        self.fingerprint = fingerprint  # `fingerprint_of` of the mirror it was built from
        self.last_turn = m.turns_left == 1
        revealed = m.revealed
        layout = memory.layout
        if layout is None or layout[0] != (m.serial, m.board, m.marks):
            layout = memory.layout = ((m.serial, m.board, m.marks), *_board(m))
        where: list[int]
        _, tiles, where, kinds, marked, self.room25_tile, self.key_tile = layout
        self.tiles = tiles
        self.kinds, self.revealed, self.sealed, self.marked = kinds, revealed, m.sealed, marked
        table = memory.table
        if table is not None:
            levels = table.levels
            for tile, kind in kinds.items():
                if tile not in revealed and tile not in levels:
                    levels[tile] = LEVEL.get(kind, "danger")
            self.levels = levels
        else:
            self.levels = {}
        self.chars = m.chars
        self._places(m, where)
        # Season 2 / Ultimate Cooperation: Room 25 leaves only once the Key room was entered.
        self.key_needed = (
            memory.composition.get("key", 0) > 0
            and not m.key_activated
            and (
                self.mode == "cooperation"
                or (self.mode == "solo" and self.settings.get("key_room_in_solo", False))
            )
        )
        self._sides_kept(memory, m)
        self._planning_kept(memory, m)
        self._pressures(m)

    def _places(self, m: Mirror, where: list[int]) -> None:
        """Where each living character stands, the roles shown, the dead, and who must leave
        a Flooded chamber or a Trapped chamber with his next action."""
        chars = m.chars
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

    def _sides_kept(self, memory: Memory, m: Mirror) -> None:
        """Whose side each character is on (`_side`), taken back from the last decision while
        the roles shown, the living and the dead are the same."""
        side_key = (m.serial, tuple(self.public_role.items()), tuple(self.pos), tuple(self.dead))
        side = memory.side
        if side is None or side[0] != side_key:
            self._side(memory, m.chars)
            memory.side = (
                side_key,
                (self.guard, self.weight, self.exit_sign, self.required, self.dead_allies),
            )
        else:
            sides: tuple[bool, dict[str, float], float, list[str], list[str]] = side[1]
            self.guard, self.weight, self.exit_sign, self.required, self.dead_allies = sides

    def _planning_kept(self, memory: Memory, m: Mirror) -> None:
        """What depends on the rooms known and the tiles' places only (the costs of crossing
        rooms on the reminder tokens too): kept from the last decision while those have not
        changed."""
        key = (m.serial, m.board, len(self.levels))
        known = (m.serial, m.known, m.marks, len(self.levels))
        kept = memory.static
        last: Kept | None = kept[2] if kept is not None else None
        same_board = kept is not None and kept[0] == key
        # Another seat's reminder token placed, with the rooms as they were: the costs change.
        fresh = kept is None or kept[1] != known
        if last is not None and same_board:
            last.restore(self)
        else:
            self._prior(memory)
            # Only rooms changed places: the costs of entering them, and the distances
            # already found for each layout of the complex, still hold.
            if last is not None and not fresh:
                last.restore_costs(self)
        if fresh:
            self._costs()
            self._keep_distances(last)
        if fresh or not same_board:
            # By positions, on this layout.
            self._share_cache: dict[tuple, tuple[dict[int, float], tuple[int, ...]]] = {}
            self.base_dist = self.dist_to_room25(self.tiles)
            memory.static = (key, known, Kept(self))

    def _pressures(self, m: Mirror) -> None:
        """What the countdown and the alarm press on this decision."""
        self.alarm_early = (
            self.mode in ("suspicion", "competition", "team")
            and not m.alarm
            and self.turn <= 5
            and self.settings.get("alarm", True)
        )
        self.me = ""  # the planning character (`focus`)
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

    def _keep_distances(self, last: Kept | None) -> None:
        """The distances found at the last decision, when the rooms learned since change no
        path cost (a room seen face up that was in the notebook, a room the same as the
        average): to Room 25 while the costs hold, to the rooms where it may be while those
        rooms are the same too."""
        self._dist_cache = {}
        self._front_cache = {}
        if last is None or last.path_cost != self.path_cost:
            return
        self._dist_cache = last.dist_cache
        if last.p25.keys() == self.p25.keys() and last.pkey.keys() == self.pkey.keys():
            self._front_cache = last.front_cache

    def _side(self, memory: Memory, chars: dict) -> None:
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
            side = memory.team_of
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

    def _prior(self, memory: Memory) -> None:
        """The chances of each room on a tile nobody told this seat about."""
        kinds = self.kinds
        p, self.cost_unknown, self.p_bad, self.cost_good = chances(
            memory.deck, tuple(sorted(kinds.values()))
        )
        self.p = p
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
            total_w = 0.0
            levels = self.levels
            for c, t in enumerate(self.tiles):
                if t in kinds:
                    continue
                w = ROOM25_AT[c]
                if levels:  # said aloud by allies: never a room said dangerous or an obstacle
                    level = levels.get(t)
                    if level is not None:
                        if level != "safe":
                            continue
                        w *= 2.0
                weights[t] = w
                total_w += w
            total_w = total_w or 1.0
            self.p25 = {t: w / total_w for t, w in weights.items()}
        # Where the Key room may be, while it is needed and nobody here has seen it.
        self.pkey: dict[int, float] = {}
        if self.key_needed and self.key_tile is None:
            open_ = [
                t for t in self.tiles if t not in kinds and self.levels.get(t) in (None, "safe")
            ]
            self.pkey = {t: 1.0 / len(open_) for t in open_} if open_ else {}

    def _costs(self) -> None:
        """Path cost of stepping onto each tile, from what this seat knows or was told; by tile
        (its number), which `dijkstra` reads more quickly than a table. Most tiles are rooms
        nobody told it about: each costs the same, and only the others are set over it."""
        cost = [UNKNOWN_PATH] * len(self.tiles)
        kinds = self.kinds
        for t, level in self.levels.items():
            cost[t] = LEVEL_PATH[level]
        for t in self.marked:
            if t not in kinds:
                cost[t] += 2.0
        for t, kind in kinds.items():
            cost[t] = PATH_COST.get(kind, 1.0)
        for t in self.sealed:
            cost[t] = INF
        self.path_cost = cost

    def dist_to_room25(self, tiles: tuple[int, ...]) -> list[float] | None:
        if self.room25_tile is None:
            return None
        found = self._dist_cache.get(tiles)
        if found is None:
            found = dijkstra({tiles.index(self.room25_tile): 0.0}, tiles, self.path_cost)
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
            found = dijkstra(sources, tiles, self.path_cost) if sources else [0.0] * 25
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
        tables = sharing(len(allies))
        reach = [tables[i][self.pos[cid]] for i, cid in enumerate(allies)]
        mine = allies.index(me)
        before, mine_far, after = reach[:mine], reach[mine], reach[mine + 1 :]
        share = {}
        p25 = self.p25
        for c, t in enumerate(self.tiles):
            if t not in p25:
                continue
            # His room if he is the first of the nearest: nobody before him as near, nobody
            # after him nearer (most rooms are another's, seen at the first ally who beats him).
            d = mine_far[c]
            share[t] = 0.5
            for far in before:
                if far[c] <= d:
                    break
            else:
                for far in after:
                    if far[c] < d:
                        break
                else:
                    share[t] = 1.0
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
            self.key_dist = dijkstra({tiles.index(self.key_tile): 0.0}, tiles, self.path_cost)
            allies = [c for c in self.chars if c in self.pos and w.get(c, 0.0) > 0]
            if self.key_tile not in self.revealed:  # only this seat knows where it is
                allies = [c for c in allies if self.chars[c].seat == self.seat]
            nearest = min(allies, key=lambda c: self.key_dist[self.pos[c]])
            self.key_runner = nearest == me
        self.base_front = None
        self.base_world = self.world_value(self.tiles, self.pos, {})
        self.cell_value: list[float | None] = [None] * 25  # filled when first needed
        self.look_top: list[float | None] = [None] * 25  # `search.top_look`, the same way
        # What each first action is worth with the token programmed after it, found while
        # programming and read again when the action is played on the same knowledge.
        self.first_values: dict[tuple, float] = {}

    def world_value(
        self, tiles: tuple[int, ...], pos: dict[str, int], death: dict[str, float]
    ) -> float:
        """The others' distances to Room 25 and Room 25's distance to an exit."""
        r_tile = self.room25_tile
        if r_tile is None:
            return 0.0
        dist = self.base_dist if tiles is self.tiles else self.dist_to_room25(tiles)
        assert dist is not None  # Room 25 is known
        e = EXIT_DIST[tiles.index(r_tile)]
        value = -self.exit_sign * self.exit_w * (e if e < 3 else 3)
        me, w = self.me, self.weight
        late = self.late_w
        left = self.actions_left + 1.0
        for cid, c in pos.items():
            if cid == me or death.get(cid, 0.0) >= 0.5:
                continue
            d = dist[c]
            d = d if d < 30.0 else 30.0
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
        kind = self.kinds.get(tile)
        if self.key_runner and tiles is self.tiles:
            d = self.key_dist[here]
            value = -DIST_W * (d if d < 30.0 else 30.0)
        elif r_tile is not None:
            dist = self.base_dist if tiles is self.tiles else self.dist_to_room25(tiles)
            assert dist is not None  # Room 25 is known
            d = dist[here]
            d = d if d < 30.0 else 30.0
            value = -self.my_w * DIST_W * d
            if self.pkey:  # the Key room is still to be found: half the team keeps looking
                f = self.frontier(tiles)[here]
                value = 0.5 * value - self.front_w * (f if f < 20.0 else 20.0)
            if d > self.actions_left and not self.guard:
                value -= self.late_w * (d - self.actions_left)
            if tile == r_tile and self.alarm_early:
                # Entering Room 25 in the first five turns leaves five turns to play.
                value += (ALARM_GUARD if self.guard else -ALARM_PRISONER) * (self.turns_left - 5)
        else:
            d = self.frontier(tiles)[here]
            if kind == "dark":
                d += 1.5  # no Look from here: a step out first
            value = -self.front_w * (d if d < 20.0 else 20.0)
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


def fingerprint_of(memory: Memory, m: Mirror) -> tuple:
    """Everything of the mirror a `Knowledge` is built from: two decisions with the same
    fingerprint plan on the same knowledge."""
    chars = tuple(
        (c.alive, c.tile, c.role, c.flooded, c.flooded_turn, c.hidden, c.reserve, c.adrenaline)
        for c in m.chars.values()
    )
    return (
        m.serial,
        m.board,
        m.marks,
        m.turn,
        m.turns_left,
        m.alarm,
        m.key_activated,
        tuple(m.controls.items()),
        chars,
        tuple(m.trapped.items()),
        len(memory.table.levels) if memory.table is not None else 0,
    )


# Where `fingerprint_of` puts the characters, and where each character's entry has his tile.
CHARACTERS_AT: Final = 8
TILE_AT: Final = 1


def moved_only(old: tuple, new: tuple, mine: int) -> bool:
    """Whether two fingerprints differ only in where the characters but the `mine`-th
    stand."""
    if (
        old[:CHARACTERS_AT] != new[:CHARACTERS_AT]
        or old[CHARACTERS_AT + 1 :] != new[CHARACTERS_AT + 1 :]
    ):
        return False
    before, after = old[CHARACTERS_AT], new[CHARACTERS_AT]
    if before[mine] != after[mine]:
        return False
    for was, now in zip(before, after, strict=True):
        if was[:TILE_AT] != now[:TILE_AT] or was[TILE_AT + 1 :] != now[TILE_AT + 1 :]:
            return False
    return True


def _board(m: Mirror) -> tuple:
    """What a seat's knowledge takes from the complex and the notebook alone, kept while neither
    changes (`Mirror.board`): the tiles in place, the cell of each tile, the rooms known, the
    tiles marked by another seat's reminder token, and where Room 25 and the Key room are if
    known."""
    tiles = tuple(m.cells)
    revealed = m.revealed
    kinds = dict(revealed)
    for t, k in m.notebook.items():
        if t not in revealed:
            kinds[t] = k
    mine = frozenset((m.seat,))  # a tile holds a token of another seat unless only its own
    marked = {t for t, seats in m.reminders.items() if seats != mine}
    room25_tile = key_tile = None
    for t, k in kinds.items():
        if k == "room25":
            room25_tile = t
        elif k == "key":
            key_tile = t
    where = [0] * len(tiles)  # by tile number
    for c, t in enumerate(tiles):
        where[t] = c
    return tiles, where, kinds, marked, room25_tile, key_tile


# Suspicion, role tiles "doubt": guards dealt on average (001: 4 prisoner tiles and 1 guard tile
# at 4 players, 2 guard tiles from 5, one tile left over at 4 and 5 players).
GUARDS_EXPECTED: Final = {4: 0.8, 5: 5 / 3, 6: 2.0}


class Kept:
    """What a decision worked out from the rooms known and their places, taken back by the next
    while those hold (`Knowledge.__init__`): field by field, so that a compiled build copies
    them natively rather than by name."""

    def __init__(self, know: Knowledge) -> None:
        self.p = know.p
        self.p_mortal = know.p_mortal
        self.safe_hidden = know.safe_hidden
        self.p_death_unknown = know.p_death_unknown
        self.p_trap_unknown = know.p_trap_unknown
        self.cost_unknown = know.cost_unknown
        self.p_bad = know.p_bad
        self.cost_good = know.cost_good
        self.p25 = know.p25
        self.pkey = know.pkey
        self.share_cache = know._share_cache
        self.base_dist = know.base_dist
        self.path_cost = know.path_cost
        self.dist_cache = know._dist_cache
        self.front_cache = know._front_cache

    def restore(self, know: Knowledge) -> None:
        know.p = self.p
        know.p_mortal = self.p_mortal
        know.safe_hidden = self.safe_hidden
        know.p_death_unknown = self.p_death_unknown
        know.p_trap_unknown = self.p_trap_unknown
        know.cost_unknown = self.cost_unknown
        know.p_bad = self.p_bad
        know.cost_good = self.cost_good
        know.p25 = self.p25
        know.pkey = self.pkey
        know._share_cache = self.share_cache
        know.base_dist = self.base_dist
        self.restore_costs(know)

    def restore_costs(self, know: Knowledge) -> None:
        """What depends on the rooms known but not on their places (the caches are by
        layout)."""
        know.path_cost = self.path_cost
        know._dist_cache = self.dist_cache
        know._front_cache = self.front_cache
