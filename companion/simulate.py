"""Complete random legal games, for win rates and speed figures (`room25 simulate`)."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.engine import GameState, apply, legal_commands, start

MAX_COMMANDS = 5000  # far beyond any real game: a guard against an endless loop


@dataclass
class Summary:
    games: int = 0
    results: Counter = field(default_factory=Counter)
    turns: int = 0
    commands: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {
            "games": self.games,
            "results": {k: v / self.games for k, v in sorted(self.results.items())},
            "mean_turns": self.turns / self.games if self.games else 0.0,
            "mean_commands": self.commands / self.games if self.games else 0.0,
            "games_per_second": self.games / self.seconds if self.seconds else 0.0,
        }


def random_game(setup: dict, rng: random.Random) -> tuple[GameState, int]:
    """Play one game with every seat choosing uniformly among its legal commands."""
    result = start(setup)
    if not result.ok:
        raise ValueError(result.refusal)
    state, played = result.state, 0
    seats = list(state.seats)
    while state.outcome is None:
        options = [command for seat in seats for command in legal_commands(state, seat)]
        if not options or played >= MAX_COMMANDS:
            raise RuntimeError(f"no way forward in phase {state.phase} (seed {setup.get('seed')})")
        outcome = apply(state, rng.choice(options))
        if not outcome.ok:
            raise RuntimeError(f"a legal command was refused: {outcome.refusal}")
        state, played = outcome.state, played + 1
    return state, played


def simulate(
    setup: dict, games: int, seed: int, progress: Callable[[int], None] | None = None
) -> Summary:
    summary = Summary()
    began = time.perf_counter()
    for number in range(games):
        rng = random.Random(seed * 1_000_003 + number)
        state, played = random_game({**setup, "seed": rng.getrandbits(32)}, rng)
        summary.games += 1
        summary.results[state.outcome["result"]] += 1
        summary.turns += state.turn
        summary.commands += played
        if progress is not None:
            progress(number + 1)
    summary.seconds = time.perf_counter() - began
    return summary
