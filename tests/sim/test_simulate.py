"""`room25 simulate` and the simulated players (companion/sim/).

Behaviour only, no timing: the number of games, determinism, never a refused command, the
heuristic player's picture of the game matching its seat's view, and an honest check that it
plays better than random."""

from __future__ import annotations

import gc
import json
import random
import types
from collections import Counter
from collections.abc import Iterator

import pytest

from companion.cli import main
from companion.engine import (
    EDITIONS,
    MODES,
    GameState,
    apply,
    compose,
    legal_commands,
    public_view,
    seat_view,
    start,
)
from companion.sim.heuristic import HeuristicPlayer
from companion.sim.mirror import Mirror
from companion.sim.simulate import PlayedGame, play_game, simulate

WINS = {"complete_victory", "partial_victory"}

TABLES = [
    (edition, mode, players)
    for edition in EDITIONS
    for mode in MODES
    for players in compose.legal_players(edition, mode)
]


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_simulate_plays_the_number_of_games_asked(policy):
    summary = simulate({"mode": "suspicion", "players": 5}, 3, seed=4, policy=policy)
    figures = summary.as_dict()
    assert summary.games == figures["games"] == 3
    assert sum(figures["counts"].values()) == 3
    assert sum(figures["results"].values()) == pytest.approx(1.0)
    assert figures["mean_turns"] >= 1
    assert figures["games_per_second"] > 0


@pytest.mark.parametrize("policy", ["heuristic", "random"])
@pytest.mark.parametrize(
    "setup",
    [
        {"mode": "cooperation", "players": 3},
        {"edition": "ultimate", "mode": "cooperation", "players": 4},  # talents, M.A.C. cards
    ],
)
def test_simulate_is_deterministic_for_a_seed(policy, setup):
    first = simulate(setup, 4, seed=11, policy=policy).as_dict()
    again = simulate(setup, 4, seed=11, policy=policy).as_dict()
    for key in ("counts", "mean_turns", "mean_commands"):
        assert first[key] == again[key]


def test_games_shared_between_processes_sum_up_as_in_one():
    """`room25 simulate --jobs`: each game is dealt from its own number, so the processes
    that share the games change nothing in the summary, only how long it takes."""
    setup = {"edition": "season2", "mode": "suspicion", "players": 5}
    alone = simulate(setup, 9, seed=5)
    shared = simulate(setup, 9, seed=5, jobs=3)
    assert shared.games == 9
    assert (shared.results, shared.turns, shared.commands) == (
        alone.results,
        alone.turns,
        alone.commands,
    )


def test_a_bad_setup_is_refused_from_the_processes_too():
    with pytest.raises(ValueError, match="players"):
        simulate({"mode": "suspicion", "players": 9}, 4, seed=0, jobs=2)


def test_cli_simulate_refuses_a_negative_number_of_jobs(capsys):
    assert main(["simulate", "--games", "2", "--jobs", "-1"]) == 2
    assert "--jobs" in capsys.readouterr().err


def test_an_unknown_policy_is_refused():
    with pytest.raises(ValueError, match="policy"):
        simulate({"mode": "solo", "players": 1}, 1, seed=0, policy="clever")


@pytest.mark.parametrize(("edition", "mode", "players"), TABLES)
def test_heuristic_players_never_send_a_refused_command(edition, mode, players):
    """Every edition, mode and number of players: whole games end without a refusal
    (`play_game` raises on one); in the first, with `check`, each heuristic player compares the
    view it kept current from its changes (`changes_for`), and its mirror, with a fresh
    seat_view at every decision."""
    for number in range(2):
        rng = random.Random(1000 * number + players)
        setup = {"edition": edition, "mode": mode, "players": players, "seed": number}
        state, played = play_game(setup, "heuristic", rng, check=number == 0)
        assert state.outcome is not None
        assert played > 0


def test_heuristic_players_never_send_a_refused_command_across_many_games():
    """Base Suspicion, and Season 2 and Ultimate Suspicion up to eight players, where every
    talent comes to be played (or lost, with no way to play it)."""
    for number in range(12):
        edition = EDITIONS[number % 3]
        players = 5 + number % 2 if edition == "base" else 5 + number % 4
        setup = {"edition": edition, "mode": "suspicion", "players": players, "seed": 500 + number}
        state, _ = play_game(setup, "heuristic", random.Random(number))
        assert state.outcome is not None


@pytest.mark.parametrize("mode", ["suspicion", "cooperation"])
def test_heuristic_players_report_rooms_with_physical_tracking(mode):
    """Physical tiles: a command that shows a tile names the room; the player still decides
    what to do and the report is one the engine accepts."""
    setup = {"mode": mode, "players": 4, "tracking": "physical", "seed": 9}
    state, _ = play_game(setup, "heuristic", random.Random(9), check=True)
    assert state.outcome is not None


def _wins(setup: dict, policy: str, games: int) -> int:
    counts = simulate(setup, games, seed=2024, policy=policy).as_dict()["counts"]
    return sum(n for result, n in counts.items() if result in WINS)


@pytest.mark.parametrize(
    "setup", [{"mode": "cooperation", "players": 4}, {"mode": "solo", "players": 1}]
)
def test_heuristic_wins_more_often_than_random(setup):
    """Same seeds, 80 games each: random play essentially never escapes (0 in 80 here), the
    heuristic players escape in roughly two games out of five (Cooperation) or three (Solo)."""
    heuristic = _wins(setup, "heuristic", 80)
    random_ = _wins(setup, "random", 80)
    assert heuristic > random_
    assert heuristic >= 12  # not a fluke


def test_the_heuristic_player_plans_from_its_own_seat_only():
    """The player is handed its seat's view; a room another seat looked at stays unknown to it."""
    result = start({"mode": "cooperation", "players": 2, "seed": 3})
    state = result.state
    state = apply(state, {"type": "clue", "seat": "1", "cell": "C2"}).state
    state = apply(state, {"type": "clue", "seat": "2", "cell": "C4"}).state
    mine = Mirror(seat_view(state, "1"))
    theirs = Mirror(seat_view(state, "2"))
    assert set(mine.notebook) != set(theirs.notebook)
    assert len(mine.notebook) == len(theirs.notebook) == 1

    seen = []
    player = HeuristicPlayer("1", random.Random(0))

    def look() -> dict:
        seen.append(True)
        return seat_view(state, "1")

    command = player.choose(look, legal_commands(state, "1"))
    assert command in legal_commands(state, "1")
    assert seen  # it asked for its own view, and only through the callback


def test_cli_simulate_reports_the_policy_and_games_per_second(capsys):
    assert main(["simulate", "--games", "2", "--players-policy", "random", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["policy"] == "random"
    assert report["games"] == 2
    assert report["games_per_second"] > 0
    assert main(["simulate", "--games", "2", "--mode", "solo", "--players", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 heuristic games of solo" in out
    assert "games per second" in out
    assert main(["simulate", "--games", "4", "--jobs", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["jobs"] == 2


class _Asking:
    """A player whose asks for its whole view are counted."""

    def __init__(self, player: HeuristicPlayer, asked: Counter) -> None:
        self.player, self.asked = player, asked

    @property
    def following(self) -> bool:
        return self.player.following

    def observe(self, changes: list[dict]) -> None:
        self.player.observe(changes)

    def choose(self, look, legal: list[dict]) -> dict:
        def counted() -> dict:
            self.asked[self.player.seat] += 1
            return look()

        return self.player.choose(counted, legal)


def test_heuristic_players_follow_the_game_by_its_changes():
    """Each seat asks for its whole view once, at its first decision; afterwards it follows
    the game from the changes of its view alone."""
    asked = Counter()
    game = PlayedGame({"mode": "suspicion", "players": 5, "seed": 4}, "heuristic", random.Random(4))
    game.players = {seat: _Asking(player, asked) for seat, player in game.players.items()}
    played = sum(1 for _ in game)
    assert game.state.outcome is not None and played > 50
    assert asked == dict.fromkeys(game.state.seats, 1)


def _reachable(root: object) -> Iterator[object]:
    """Every object a player holds, however deep: its own fields, containers and values
    (modules, classes and functions are code, not what it holds)."""
    seen = {id(root)}
    queue = [root]
    while queue:
        item = queue.pop()
        yield item
        for ref in gc.get_referents(item):
            if isinstance(ref, (type, types.ModuleType, types.FunctionType)) or id(ref) in seen:
                continue
            seen.add(id(ref))
            queue.append(ref)


def test_a_heuristic_player_holds_nothing_of_the_game_but_its_seats_view():
    """Halfway through Suspicion games, no player holds the game state (it could read every
    secret there), and each knows the role of a character only when it is its seat's own or
    the public view shows it."""
    for seed in (4, 5):
        game = PlayedGame({"mode": "suspicion", "players": 5, "seed": seed}, "heuristic",
                          random.Random(seed))  # fmt: skip
        for _ in game:
            if game.state.turn >= 4:
                break
        state, players = game.state, game.players
        public = public_view(state)["characters"]
        for seat, player in players.items():
            assert not any(isinstance(o, GameState) for o in _reachable(player))
            for cid, character in player.mirror.chars.items():
                if character.role is not None:
                    assert character.seat == seat or public[cid]["role"] is not None


@pytest.mark.parametrize(("tracking", "named"), [("physical", True), ("dealt", False)])
def test_a_player_looks_for_rooms_to_name_only_with_physical_tracking(tracking, named):
    """A command names the room on the tile it shows with physical tracking alone: the player
    searches its legal commands for one only then (or before it has a view)."""
    setup = {"mode": "suspicion", "players": 4, "tracking": tracking, "seed": 9}
    game = PlayedGame(setup, "heuristic", random.Random(9))
    for decision, _ in zip(game, range(40), strict=False):
        mirror = game.players[decision.seat].mirror
        if mirror is not None:
            assert mirror.names_rooms is named
