"""Engine speed on one core: the median time to apply one command, and full random games per
second (legal-command listing included, as `room25 simulate` plays them).

Run: .venv/bin/python benchmarks/engine.py [--games N]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from companion.engine import apply, legal_commands, start
from companion.simulate import random_game

SETUPS = [
    {"mode": "suspicion", "players": 5},
    {"mode": "cooperation", "players": 3},
    {"mode": "competition", "players": 2},
    {"mode": "team", "players": 4},
    {"mode": "solo", "players": 1},
]


def command_times(games: int) -> list[float]:
    """Seconds per accepted `apply`, over random legal play of every mode."""
    samples = []
    for number in range(games):
        setup = {**SETUPS[number % len(SETUPS)], "seed": number}
        rng = random.Random(number)
        state = start(setup).state
        while state.outcome is None:
            options = [c for seat in state.seats for c in legal_commands(state, seat)]
            command = rng.choice(options)
            began = time.perf_counter()
            result = apply(state, command)
            samples.append(time.perf_counter() - began)
            state = result.state
    return samples


def games_per_second(games: int) -> dict[str, float]:
    figures = {}
    for setup in SETUPS:
        began = time.perf_counter()
        for number in range(games):
            random_game({**setup, "seed": number}, random.Random(number))
        figures[setup["mode"]] = games / (time.perf_counter() - began)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, one core")
    samples = command_times(args.games)
    print(
        f"apply one command: median {statistics.median(samples) * 1e6:.1f} us, "
        f"95th percentile {statistics.quantiles(samples, n=20)[-1] * 1e6:.1f} us "
        f"({len(samples)} commands)"
    )
    for mode, rate in games_per_second(args.games).items():
        print(f"random games per second, {mode:<12} {rate:8.1f}")


if __name__ == "__main__":
    main()
