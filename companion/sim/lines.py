"""A line of play in the heuristic planner's model, and how each action changes it.

The model is the seat's own picture (`Knowledge`): the rooms it knows act as the rules say, a
room it does not know costs what it costs on average, with the chance of death it carries. The
other characters stand still. Nothing here reads the real game state.
"""

from __future__ import annotations

from companion.engine import grid
from companion.sim.complex import CENTRE, slid
from companion.sim.knowledge import GUARDS_EXPECTED, Knowledge
from companion.sim.rooms import ENTRY_COST, ENTRY_EFFECTS, LEVEL
from companion.sim.weights import ALARM_PRISONER, ESCAPE, KEY_GAIN, R25_FOUND, VISION_GAIN


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
        "next",
        "pos",
        "sealed",
        "step",
        "tiles",
        "trap",
        "value",
        "worth",
    )
    tiles: tuple[int, ...]  # the tile at each cell
    pos: dict[str, int]  # the cell of each living character
    death: dict[str, float]  # the chance each character is eliminated on this line
    value: float  # what the line has earned and cost so far
    trap: float  # the chance the planning character ends in a room that kills if not left
    escaped: bool  # Room 25 taken out
    controls: dict[str, str]  # the lines slid this turn, and their direction
    hyp: tuple[int, bool] | None  # a room looked at, supposed good (True) or bad
    sealed: frozenset[int] | set[int]  # tiles nobody may enter
    moved: bool  # someone else moved or a line slid: the others' worth must be counted again
    step: int  # actions played on the line
    key: bool  # the Key room entered
    idle: Sim | None  # the line after an action with no effect (`search.idle`)
    worth: float | None  # `leaf`, once asked: a line is not changed once built
    # Each way to play an action with the line after it (`search.successors`): kept with the
    # line once asked, since several programmes ask them of the same line.
    next: dict[str, list[tuple[dict, Sim, tuple]]] | None

    def copy(self) -> Sim:
        s = Sim()
        s.tiles, s.pos, s.death, s.value = self.tiles, self.pos, self.death, self.value
        s.trap, s.escaped, s.controls = self.trap, self.escaped, self.controls
        s.hyp, s.sealed, s.moved, s.step = self.hyp, self.sealed, self.moved, self.step
        s.key, s.idle, s.worth, s.next = self.key, None, None, None
        return s


def start(know: Knowledge, me: str) -> Sim:
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
    s.worth = None
    s.next = None
    return s


def leaf(know: Knowledge, s: Sim) -> float:
    """What a line of play is worth to this seat (kept with the line: the line after an idle
    action is asked again by every action that only adds a worth to it)."""
    worth = s.worth
    if worth is None:
        worth = s.worth = _worth(know, s)
    return worth


def _worth(know: Knowledge, s: Sim) -> float:
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
    # Lines that move others or slide a line seldom meet again (one in seven): their worth is
    # worked out, not looked up by a key that costs more to build than it saves.
    return value + know.world_value(s.tiles, s.pos, death) + know.my_value(s.tiles, s.pos, here)


def enter(know: Knowledge, s: Sim, who: str, cell: int) -> None:
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
        _enter_unknown(know, s, who, tile, w_who)
        return
    if kind not in ENTRY_EFFECTS:  # a room that only costs something to enter
        s.value -= ENTRY_COST.get(kind, 0.0 if kind in LEVEL else 40.0) * w_who
        return
    if kind == "mortal":
        die(s, who, 1.0, know.me)
    elif kind == "acid":
        for cid, c in s.pos.items():
            if c == cell and cid != who:
                die(s, cid, 1.0, know.me)
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
            die(s, who, know.p_death_unknown, know.me)
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


def _enter_unknown(know: Knowledge, s: Sim, who: str, tile: int, w_who: float) -> None:
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
        if tile in know.marked:
            p_death, cost = min(1.0, p_death * 1.5), cost * 1.5
        s.value -= cost * w_who
        die(s, who, p_death, know.me)
        if who == know.me:
            s.trap = max(s.trap, know.p_trap_unknown)
    if know.key_needed and know.key_tile is None and not s.key:
        s.value += know.p.get("key", 0.0) * KEY_GAIN * 0.5
    p25 = know.p25.get(tile)
    if p25:
        s.value += p25 * R25_FOUND * (0.2 if know.guard else 1.0)
        if know.alarm_early and not know.guard:
            s.value -= p25 * ALARM_PRISONER * (know.turns_left - 5)


def die(s: Sim, who: str, p: float, me: str) -> None:
    if p <= 0:
        return
    death = dict(s.death)
    death[who] = 1.0 - (1.0 - death.get(who, 0.0)) * (1.0 - p)
    s.death = death
    if who != me:
        s.moved = True  # the others' worth must be counted again


def slide(know: Knowledge, s: Sim, axis: str, index: int, direction: str, can_exit: bool) -> None:
    r_tile = know.room25_tile
    if can_exit and r_tile is not None and r_tile in know.revealed:
        lead = grid.leading_cell(axis, index, direction)
        if s.tiles[lead] == r_tile and _takes_out(know, s, lead):
            return
    s.tiles = slid(s.tiles, axis, index, direction)
    s.moved = True
    # Whoever stands in the line moves with his room (`grid.SLID_TO`).
    goes = grid.SLID_TO[axis, index, direction]
    pos = None
    for cid, c in s.pos.items():
        to = goes[c]
        if to == c:
            continue
        if pos is None:
            pos = dict(s.pos)
        pos[cid] = to
    if pos is not None:
        s.pos = pos
    controls = dict(s.controls)
    controls[grid.line_key(axis, index)] = direction
    s.controls = controls


def _takes_out(know: Knowledge, s: Sim, lead: int) -> bool:
    """Room 25 at the end of the line that slides, out of the complex with those inside if the
    seat expects it to leave (the line then worth what that risks)."""
    inside = [cid for cid, c in s.pos.items() if c == lead and s.death.get(cid, 0.0) < 0.5]
    if _may_leave(know, s, inside):
        s.escaped = True
        return True
    if know.mode == "suspicion" and not know.guard:
        # Who is still outside may be a guard: the attempt costs little if it fails
        # (Room 25 comes back at the other end of its line with those inside).
        p = _leave_chance(know, s, inside)
        if p >= 0.2:
            s.escaped = True
            s.value -= (1.0 - p) * ESCAPE
            return True
    if s.step > 1:
        # A later action: allies one step from Room 25 may well be inside by then.
        dist = know.base_dist
        assert dist is not None  # Room 25 is known
        coming = [
            cid
            for cid in know.required
            if cid in know.pos and cid not in inside and dist[know.pos[cid]] <= 1.3
        ]
        if coming and _may_leave(know, s, inside + coming):
            s.escaped = True
            s.value -= 0.5 * ESCAPE
            return True
    return False


def _may_leave(know: Knowledge, s: Sim, inside: list[str]) -> bool:
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


def _leave_chance(know: Knowledge, s: Sim, inside: list[str]) -> float:
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
