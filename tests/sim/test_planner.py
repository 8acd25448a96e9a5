"""The planner's shortcuts: each must give what the plain computation gives, only sooner. Path
costs against an exhaustive relaxation, and a whole programming decision's values against
every programme stepped through one by one, on positions met in real games."""

from __future__ import annotations

import random

import pytest

from companion.sim.actions import BLIND, step, ways
from companion.sim.complex import CENTRE, EDGE, INF, NEIGHBOURS, dijkstra, sharing
from companion.sim.heuristic import ACTING, HeuristicPlayer, _looks_now
from companion.sim.knowledge import Knowledge, Memory, fingerprint_of, moved_only
from companion.sim.lines import leaf, start
from companion.sim.rooms import LEVEL_PATH, PATH_COST, UNKNOWN_PATH
from companion.sim.search import best_single, blind_first, highest, look_values, looks, then
from companion.sim.simulate import PlayedGame


def _relaxed(sources: dict[int, float], tiles: tuple[int, ...], cost: list[float]) -> list:
    """Bellman-Ford: every cell relaxed from every neighbour until nothing changes."""
    dist = [INF] * 25
    for c, d in sources.items():
        dist[c] = d
    changed = True
    while changed:
        changed = False
        for u in range(25):
            paid = 1.0 if u == CENTRE else cost[tiles[u]]
            if paid >= INF or dist[u] >= INF:
                continue
            for v in NEIGHBOURS[u]:
                if dist[u] + paid < dist[v]:
                    dist[v] = dist[u] + paid
                    changed = True
    return dist


@pytest.mark.parametrize("seed", range(50))
def test_path_costs_are_the_cheapest_sums_of_room_costs(seed):
    rng = random.Random(seed)
    tiles = tuple(rng.sample(range(25), 25))
    cost = [rng.choice((1.0, 1.2, 1.5, 1.6, 2.2, 3.0, 8.0, INF)) for _ in tiles]
    sources = {c: rng.choice((0.0, 1.0)) for c in rng.sample(range(25), rng.randint(1, 8))}
    assert dijkstra(sources, tiles, cost) == _relaxed(sources, tiles, cost)


def _stepped(know, s0, tokens: tuple[str, ...]) -> float:
    """A programme's value with no line shared: every first way stepped, then `then`."""
    options = ways(know, s0, tokens[0])
    if not options:
        return then(know, step(know, s0, "lost", {})[0], (), list(tokens[1:]))
    return max(then(know, *step(know, s0, tokens[0], p), list(tokens[1:])) for p in options)


def _programming_decisions(count: int):
    """(player, knowledge, legal) at programming decisions of base Suspicion games."""
    found = []
    for number in range(3):
        rng = random.Random(number)
        game = PlayedGame({"mode": "suspicion", "players": 5, "seed": number}, "heuristic", rng)
        for decision in game:
            player = game.players[decision.seat]
            programming = decision.legal[0]["type"] == "program"
            if programming and isinstance(player, HeuristicPlayer) and player.known is not None:
                found.append((player, player.known, decision.legal))
            if len(found) >= count:
                return found
    return found


def _programming_positions(count: int):
    """(knowledge, character) at programming decisions of base Suspicion games."""
    return [(know, legal[0]["character"]) for _, know, legal in _programming_decisions(count)]


def test_shared_lines_value_every_programme_as_stepping_it_alone():
    tokens_all = [(a, b) for a in ("look", "move", "push", "control") for b in ("look", "move")]
    for know, me in _programming_positions(40):
        s0 = start(know, me)
        shared = looks(know, s0)
        for tokens in tokens_all:
            if tokens[0] == tokens[1]:
                continue
            plain = _stepped(know, start(know, me), tokens)
            if tokens[0] == "look" and shared[1]:
                fast = highest(look_values(know, s0, list(tokens[1:]), shared))
            elif ways(know, s0, tokens[0]) == [BLIND]:
                fast = blind_first(know, s0, tokens[0], list(tokens[1:]))
            else:
                continue
            assert fast == pytest.approx(plain, abs=1e-9), tokens
        for action in ("look", "move", "push", "control"):
            fresh = start(know, me)
            options = ways(know, fresh, action)
            if options and options[0] is not BLIND and action != "look":
                plain = max(leaf(know, step(know, fresh, action, p)[0]) for p in options)
                assert best_single(know, s0, action) == pytest.approx(plain, abs=1e-9)


def test_distances_kept_from_a_decision_to_the_next_are_those_worked_out_afresh():
    checked = 0
    for number in range(3):
        rng = random.Random(number)
        setup = {"mode": "suspicion", "players": 5, "seed": number + 10}
        game = PlayedGame(setup, "heuristic", rng)
        for decision in game:
            player = game.players[decision.seat]
            know = getattr(player, "known", None)
            if know is None or not know.me:
                continue
            tiles, cost = know.tiles, know.path_cost
            if know.room25_tile is not None:
                source = {tiles.index(know.room25_tile): 0.0}
                assert know.dist_to_room25(tiles) == dijkstra(source, tiles, cost)
            kept = know.frontier(tiles)
            know._front_cache, know.base_front = {}, None
            assert know.frontier(tiles) == kept
            checked += 1
    assert checked > 100


def test_every_line_keeps_the_knowledges_characters_in_its_order():
    """A line's characters are in the table's order, which tells which ally inside Room 25
    drives it (`actions.driver`): no action may add, drop or reorder a character."""
    lines = 0
    for know, me in _programming_positions(40):
        s0 = start(know, me)
        for first in ("move", "push", "control", "talent"):
            for p in ways(know, s0, first):
                s1 = step(know, s0, first, p)[0]
                for second in ("move", "push", "control"):
                    for q in ways(know, s1, second):
                        s2 = step(know, s1, second, q)[0]
                        assert list(s2.pos) == list(know.pos), (first, p, second, q)
                        lines += 1
    assert lines > 500


def test_the_looks_kept_while_programming_are_those_the_action_would_work_out():
    kept = 0
    for player, know, legal in _programming_decisions(40):
        know.focus("")  # a fresh focus: nothing kept from the game's own decision
        player._program(know, legal)
        me = legal[0]["character"]
        for key, value in know.first_values.items():
            if key[0] != "look":
                continue
            rest = [t for t in key[1:] if isinstance(t, str)]
            direction = dict(t for t in key[1:] if isinstance(t, tuple))["direction"]
            fresh = _looks_now(know, start(know, me), rest)
            assert fresh[direction] == pytest.approx(value, abs=1e-9), key
            kept += 1
    assert kept > 20


def test_each_room_where_room25_may_be_goes_to_the_first_of_its_nearest_allies():
    shared = 0
    for know, me in _programming_positions(40):
        start(know, me)
        allies = [c for c in know.chars if c in know.pos and know.weight.get(c, 0.0) > 0]
        if len(allies) < 2 or me not in allies or not know.p25:
            continue
        tables = sharing(len(allies))
        for c, t in enumerate(know.tiles):
            if t not in know.p25:
                continue
            far = [tables[i][know.pos[cid]][c] for i, cid in enumerate(allies)]
            owner = far.index(min(far))
            assert know.share[t] == (1.0 if allies[owner] == me else 0.5)
            shared += 1
    assert shared > 100


def test_a_first_action_keeps_its_programmings_knowledge_only_when_others_alone_moved():
    """Issue 29: the first action of a round is valued on the knowledge of its programming
    when only the other characters moved since; anything else learned (a room, a slide, a
    death, the action's own character moved) gives a fresh knowledge."""
    kept = 0
    for number in range(3):
        game = PlayedGame(
            {"mode": "suspicion", "players": 5, "seed": number}, "heuristic", random.Random(number)
        )
        for decision in game:
            player = game.players[decision.seat]
            know, m = player.known, player.mirror
            if know is None or m is None or decision.legal[0]["type"] != "act":
                continue
            acting = [c for c in decision.legal if c["type"] in ACTING]
            if len(acting) == 1 and not player._worth_marking(m, decision.legal):
                continue  # nothing to decide: no knowledge asked
            now = fingerprint_of(player.memory, m)
            if know.fingerprint == now:
                continue
            me = m.current
            assert me == know.me and m.round == 1 and m.chars[me].program
            assert moved_only(know.fingerprint, now, list(m.chars).index(me))
            rebuilt = Knowledge(player.memory, m, now)
            assert (rebuilt.tiles, rebuilt.kinds, rebuilt.revealed) == (
                know.tiles,
                know.kinds,
                know.revealed,
            )
            assert rebuilt.pos[me] == know.pos[me] and rebuilt.pos != know.pos
            kept += 1
    assert kept > 8


def test_fingerprints_differ_by_moves_only_when_nothing_but_others_places_changed():
    me, other = (True, 3, None, None, 0, False, 0, True), (True, 7, None, None, 0, False, 0, True)
    before = (1, 4, 0, 1, 7, False, False, (), (me, other), (), 0)
    moved = (*before[:8], (me, (True, 8, *other[2:])), *before[9:])
    assert moved_only(before, moved, 0)
    assert not moved_only(before, moved, 1)  # the action's own character moved
    died = (*before[:8], (me, (False, 7, *other[2:])), *before[9:])
    assert not moved_only(before, died, 0)
    learned = (before[0], 5, *before[2:8], moved[8], *before[9:])  # a room seen, or slid
    assert not moved_only(before, learned, 0)


def _tile_cost(know: Knowledge, tile: int) -> float:
    """A tile's path cost by the rule, one tile at a time: a sealed room is closed, a room known
    costs what its kind does, any other what allies said of it, and more with a reminder."""
    if tile in know.sealed:
        return INF
    kind = know.kinds.get(tile)
    if kind is not None:
        return INF if kind in ("mortal", "vortex", "shredder") else PATH_COST.get(kind, 1.0)
    level = know.levels.get(tile)
    cost = UNKNOWN_PATH if level is None else LEVEL_PATH[level]
    return cost + 2.0 if tile in know.marked else cost


def _room25_chances(know: Knowledge) -> dict[int, float]:
    """Where Room 25 may be by the rule, cell by cell: a room nobody knows, on the edge five
    times likelier than inside, twice as likely said safe, never said dangerous or an obstacle."""
    weights = {}
    for c, t in enumerate(know.tiles):
        level = know.levels.get(t)
        if t in know.kinds or level in ("danger", "obstacle"):
            continue
        weights[t] = (1.0 if EDGE[c] else 0.2) * (2.0 if level == "safe" else 1.0)
    total = sum(weights.values()) or 1.0
    return {t: w / total for t, w in weights.items()}


@pytest.mark.parametrize(
    "setup",
    [
        {"mode": "suspicion", "players": 5},
        {"edition": "season2", "mode": "cooperation", "players": 4},
        {"edition": "ultimate", "mode": "team", "players": 4},
    ],
)
def test_the_costs_and_chances_a_knowledge_sets_are_the_rules_tile_by_tile(setup):
    """`_costs` sets the rooms known, told, marked and sealed over the cost of a room nobody
    knows, `_prior` skips the levels when none was said: the same figures as the rule. Checked
    on each knowledge as it is built (allies go on telling the table levels after)."""
    checked = told = marked = 0
    for number in range(3):
        rng = random.Random(number)
        game = PlayedGame({**setup, "seed": number + 20}, "heuristic", rng)
        built: dict[str, object] = {}
        for decision in game:
            know = getattr(game.players[decision.seat], "known", None)
            if know is None or built.get(decision.seat) is know:
                continue
            built[decision.seat] = know
            assert know.path_cost == [_tile_cost(know, t) for t in range(len(know.tiles))]
            if know.room25_tile is None:
                assert know.p25 == pytest.approx(_room25_chances(know), abs=1e-12)
            checked += 1
            told += bool(know.levels)
            marked += bool(know.marked)
    assert checked > 100 and (told or marked)


# What a knowledge takes back from the last decision (`Kept`) rather than working it out.
KEPT_FIELDS = (
    "p",
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
    "base_dist",
)


@pytest.mark.parametrize("edition", ["base", "season2", "ultimate"])
@pytest.mark.parametrize("mode", ["suspicion", "cooperation", "competition", "team", "solo"])
def test_a_knowledge_updated_from_the_last_decision_is_the_one_rebuilt(edition, mode):
    """Each knowledge as a game builds it, from what the seat kept (`Kept`: the chances and
    the places of Room 25 while the board holds, the costs and distances while no path cost
    changed), against one built from the same mirror by a seat that kept nothing: the same
    figures, so the same decisions."""
    players = {"suspicion": 5, "cooperation": 4, "competition": 2, "team": 4, "solo": 1}[mode]
    setup = {"edition": edition, "mode": mode, "players": players}
    checked = kept = 0
    for number in range(2):
        rng = random.Random(number)
        game = PlayedGame({**setup, "seed": number + 30}, "heuristic", rng)
        built: dict[str, object] = {}
        for decision in game:
            player = game.players[decision.seat]
            know = getattr(player, "known", None)
            last = built.get(decision.seat)
            if know is None or last is know:
                continue
            built[decision.seat] = know
            memory = player.memory
            alone = Memory(memory.seat, memory.composition, memory.table, memory.team_of)
            fresh = Knowledge(alone, player.mirror, know.fingerprint)
            for field in KEPT_FIELDS:
                assert getattr(know, field) == getattr(fresh, field), field
            checked += 1
            kept += isinstance(last, Knowledge) and know.p is last.p
    assert checked > 30 and kept > 10
