"""Complete simulated games, for win rates and speed figures (`room25 simulate`): the driver.

Two policies seat the players: `random` (every command drawn uniformly among the legal commands
of all seats: the engine's fuzzing baseline) and `heuristic` (the default,
`companion.sim.heuristic`), where each seat knows only what its `seat_view` shows, kept current
by `changes_for`, and answers with one of its `legal_commands`. `docs/simulate.md` describes the
policies and gives the figures; `benchmarks/players.py` measures the speed.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import partial

from companion.engine import (
    GameState,
    apply,
    changes_for,
    events_for,
    legal_commands,
    seat_view,
    start,
    waiting_for,
)
from companion.sim.heuristic import HeuristicPlayer
from companion.sim.random_player import RandomPlayer
from companion.sim.table import Table
from companion.words.said import Sayable, say

MAX_COMMANDS = 5000  # far beyond any real game: a guard against an endless loop
POLICIES = ("heuristic", "random")


class SimulationError(ValueError):
    """A setup or a policy the simulator cannot play: why, as the engine's refusal or a code of
    the catalogue (`simulate_error_<code>`), said in the reader's language (`text`)."""

    def __init__(self, said: Sayable) -> None:
        super().__init__(said)  # the one argument: it crosses from the processes of `--jobs`
        self.said = said

    def __str__(self) -> str:
        return str(self.said)

    def text(self, lang: str = "") -> str:
        return self.said.text(lang)


def _unknown_policy(policy: str) -> SimulationError:
    return SimulationError(say("simulate_error_policy", policy=policy, choices=POLICIES))


@dataclass
class Summary:
    games: int = 0
    results: Counter = field(default_factory=Counter)
    turns: int = 0
    commands: int = 0
    seconds: float = 0.0

    def add(self, other: Summary) -> None:
        """Count another run of games in (the games of other processes)."""
        self.games += other.games
        self.results.update(other.results)
        self.turns += other.turns
        self.commands += other.commands

    def as_dict(self) -> dict:
        return {
            "games": self.games,
            "results": {k: v / self.games for k, v in sorted(self.results.items())},
            "counts": dict(sorted(self.results.items())),
            "mean_turns": self.turns / self.games if self.games else 0.0,
            "mean_commands": self.commands / self.games if self.games else 0.0,
            "games_per_second": self.games / self.seconds if self.seconds else 0.0,
        }


def _begin(setup: dict) -> tuple[GameState, list[dict]]:
    result = start(setup)
    if result.state is None:
        assert result.refusal is not None  # a refused start says why
        raise SimulationError(result.refusal)
    return result.state, result.events


def _offered(state: GameState, seat: str) -> list[dict]:
    """A seat's legal commands but `unlock`: simulated players never change their minds."""
    return [c for c in legal_commands(state, seat) if c["type"] != "unlock"]


def random_game(setup: dict, rng: random.Random) -> tuple[GameState, int]:
    """Play one game with every seat choosing uniformly among its legal commands."""
    state, _ = _begin(setup)
    played = 0
    seats = list(state.seats)
    while state.outcome is None:
        options = [c for seat in seats for c in _offered(state, seat)]
        if not options or played >= MAX_COMMANDS:
            raise RuntimeError(f"no way forward in phase {state.phase} (seed {setup.get('seed')})")
        outcome = apply(state, rng.choice(options))
        if not outcome.ok:
            raise RuntimeError(f"a legal command was refused: {outcome.refusal}")
        state, played = outcome.state, played + 1
    return state, played


def make_players(
    state: GameState, events: list[dict], policy: str, rng: random.Random, check: bool = False
) -> dict:
    """One player per seat. Heuristic allies (everyone in Cooperation and Solo, a team in Team
    mode) share a table to talk on; the composition comes from each seat's public record."""
    seats = list(state.seats)
    if policy == "random":
        return {seat: RandomPlayer(seat, rng) for seat in seats}
    if policy != "heuristic":
        raise _unknown_policy(policy)
    mode = state.ruleset.mode
    team_of = {seat: "AB"[i % 2] for i, seat in enumerate(seats)}
    tables: dict[str, Table] = {}
    players = {}
    for i, seat in enumerate(seats):
        created = next((e for e in events_for(events, seat) if e["type"] == "game_created"), {})
        composition = created.get("composition")  # EVENT_FIELDS: tile counts, or absent
        if mode in ("cooperation", "solo"):
            table = tables.setdefault("all", Table())
        elif mode == "team":
            table = tables.setdefault(team_of[seat], Table())
        else:
            table = None
        players[seat] = HeuristicPlayer(
            seat,
            rng,
            composition=composition if isinstance(composition, dict) else None,
            table=table,
            team_of=team_of,
            clue_index=i,
            check=check,
        )
    return players


def _next_seat(state: GameState, seats: list[str]) -> tuple[str, list[dict]]:
    """The seat the game waits for (`waiting_for`), with its legal commands. A seat whose only
    commands are optional (a reminder token right after its action) is not waited for."""
    for seat in waiting_for(state).seats:
        if seat in state.seats:
            legal = legal_commands(state, seat)
            if any(c["type"] != "reminder" for c in legal):
                return seat, legal
    optional = None
    for seat in seats:
        legal = legal_commands(state, seat)
        if not legal:
            continue
        if any(c["type"] != "reminder" for c in legal):
            return seat, legal
        optional = optional or (seat, legal)
    if optional is None:
        raise RuntimeError(f"no way forward in phase {state.phase}")
    return optional


@dataclass(slots=True)
class Decision:
    """One decision of a played game: the seat asked, what it could do, what it chose."""

    seat: str
    legal: list[dict]
    command: dict


class PlayedGame:
    """A game played to its end by one policy's players, one decision at a time. Iterating
    yields each decision before it is applied (`state` is then the position it was made on),
    so a test can watch the very loop `play_game` runs. Before each decision a player that keeps
    a view is handed the changes of its seat's view since its last one (`changes_for`) and,
    when it asks, its `seat_view`; with `check`, heuristic players compare what they kept with
    a fresh view at every decision."""

    def __init__(self, setup: dict, policy: str, rng: random.Random, check: bool = False) -> None:
        self.setup = setup
        self.state, events = _begin(setup)
        self.players = make_players(self.state, events, policy, rng, check)
        self.played = 0

    def __iter__(self) -> Iterator[Decision]:
        seats = list(self.state.seats)
        seen = dict.fromkeys(seats, self.state)  # the state each seat's view was last brought to
        while self.state.outcome is None:
            if self.played >= MAX_COMMANDS:
                seed = self.setup.get("seed")
                raise RuntimeError(f"no end after {self.played} commands (seed {seed})")
            state = self.state
            seat, legal = _next_seat(state, seats)
            player = self.players[seat]
            if seen[seat] is not state:
                if player.following:  # a player with no view yet asks for it whole
                    player.observe(changes_for(seen[seat], state, seat))
                seen[seat] = state
            command = player.choose(partial(seat_view, state, seat), legal)
            yield Decision(seat, legal, command)
            outcome = apply(state, command)
            if not outcome.ok:
                raise RuntimeError(f"a legal command was refused: {command} {outcome.refusal}")
            self.state, self.played = outcome.state, self.played + 1


def play_game(
    setup: dict, policy: str, rng: random.Random, check: bool = False
) -> tuple[GameState, int]:
    """Play one game to its end; returns the final state and the number of commands."""
    if policy == "random":
        return random_game(setup, rng)
    game = PlayedGame(setup, policy, rng, check)
    for _ in game:
        pass
    return game.state, game.played


def simulate(
    setup: dict,
    games: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    policy: str = "heuristic",
    jobs: int = 1,
) -> Summary:
    """Play `games` games and sum them up. Game `n` is dealt from its own generator (`seed`,
    `n`), so the summary is the same whatever the number of `jobs` (processes) sharing them."""
    if policy not in POLICIES:
        raise _unknown_policy(policy)
    began = time.perf_counter()
    if jobs <= 1 or games == 1:
        summary = _play(setup, seed, policy, range(games), progress)
    else:
        summary = _play_in_processes(setup, seed, policy, games, jobs, progress)
    summary.seconds = time.perf_counter() - began
    return summary


def _play(
    setup: dict,
    seed: int,
    policy: str,
    numbers: range,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    summary = Summary()
    for number in numbers:
        rng = random.Random(seed * 1_000_003 + number)
        state, played = play_game({**setup, "seed": rng.getrandbits(32)}, policy, rng)
        assert state.outcome is not None  # `play_game` plays to the end
        summary.games += 1
        summary.results[state.outcome["result"]] += 1
        summary.turns += state.turn
        summary.commands += played
        if progress is not None:
            progress(summary.games)
    return summary


def _play_in_processes(
    setup: dict,
    seed: int,
    policy: str,
    games: int,
    jobs: int,
    progress: Callable[[int], None] | None,
) -> Summary:
    """The games cut into runs of consecutive numbers, a few per process so that a slow run
    does not leave the other processes idle at the end."""
    runs = min(games, jobs * 4)
    cuts = [games * k // runs for k in range(runs + 1)]
    summary = Summary()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending = [
            pool.submit(_play, setup, seed, policy, range(start, end))
            for start, end in itertools.pairwise(cuts)
        ]
        for done in as_completed(pending):
            summary.add(done.result())
            if progress is not None:
                progress(summary.games)
    return summary
