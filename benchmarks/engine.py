"""Engine speed on one core: the median time to apply one command, full random games per
second (legal-command listing included, as `room25 simulate` plays them), the replay of a
complete game, and the views a table sends after a command.

Run: taskset -c 0 .venv/bin/python benchmarks/engine.py [--games N]
On the optional compiled engine (`scripts/compile` first):
     PYTHONPATH=.compiled taskset -c 0 .venv/bin/python benchmarks/engine.py

The figures mean something only on a quiet machine: the load average is printed beside them,
with a warning when the 1-minute load is above 0.5.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from load import build_line, load_line
from players import heuristic_games_per_second

from companion.engine import apply, legal_commands, replay, start
from companion.sim.simulate import random_game

REPLAY_COMMANDS = 500  # the replay figure is given for a game of this many commands
# Issue 7's targets, the apply's from issue 29 (point 4): (the most, None) or (None, the least)
# each figure may be.
TARGETS = {
    "apply_us": (10.0, None),  # median microseconds per command, pure Python
    "apply_compiled_us": (5.0, None),  # the same, compiled
    "suspicion_games": (None, 400.0),  # random five-player Suspicion games per second
    "heuristic_games": (None, 120.0),  # heuristic games per second
    "replay_ms": (10.0, None),  # folding the events of a 500-command game
    "views_ms": (0.3, None),  # the public view and 8 seat views, built and encoded
}

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


def games_per_second(games: int, setups: list[dict] = SETUPS) -> dict[str, float]:
    """Random legal games per second of each mode, as `room25 simulate` plays them."""
    figures: dict[str, float] = {}
    for setup in setups:
        began = time.perf_counter()
        for number in range(games):
            random_game({**setup, "seed": number}, random.Random(number))
        figures[str(setup["mode"])] = games / (time.perf_counter() - began)
    return figures


def recorded_game(seeds: int = 30) -> tuple[dict, list[dict], list[dict]]:
    """The longest of a few random eight-player Season 2 Suspicion games: its setup, its
    commands and its events, as a journal would keep them."""
    longest: tuple[dict, list[dict], list[dict]] = ({}, [], [])
    for number in range(seeds):
        setup = {"edition": "season2", "mode": "suspicion", "players": 8, "seed": number}
        rng = random.Random(number)
        result = start(setup)
        state, events, commands = result.state, list(result.events), []
        while state.outcome is None:
            options = [c for seat in state.seats for c in legal_commands(state, seat)]
            command = rng.choice(options)
            result = apply(state, command)
            state = result.state
            commands.append(command)
            events.extend(result.events)
        if len(commands) > len(longest[1]):
            longest = (setup, commands, events)
    return longest


def replay_figures(repeats: int = 30) -> tuple[int, float, float]:
    """Median seconds to rebuild a complete game's final state, scaled to a game of
    `REPLAY_COMMANDS` commands: by folding its events (`replay`, what undo and a restart from the
    journal do) and by applying its commands again from `start`. Returns the recorded game's
    length and the two figures."""
    setup, commands, events = recorded_game()
    folds, applies = [], []
    for _ in range(repeats):
        began = time.perf_counter()
        replay(events)
        folds.append(time.perf_counter() - began)
        began = time.perf_counter()
        state = start(setup).state
        for command in commands:
            state = apply(state, command).state
        applies.append(time.perf_counter() - began)
    scale = REPLAY_COMMANDS / len(commands)
    return len(commands), statistics.median(folds) * scale, statistics.median(applies) * scale


def views_figure(games: int = 20) -> float:
    """Median seconds to build the public view and all eight seat views of a position of an
    eight-player game (`views_for`, the public part shared) and encode them to JSON with orjson,
    over every position of random games."""
    import orjson

    from companion.engine import views_for

    samples = []
    for number in range(games):
        rng = random.Random(number)
        setup = {"edition": "season2", "mode": "suspicion", "players": 8, "seed": number}
        state = start(setup).state
        seats = list(state.seats)
        while state.outcome is None:
            options = [c for seat in seats for c in legal_commands(state, seat)]
            state = apply(state, rng.choice(options)).state
            began = time.perf_counter()
            for view in views_for(state, seats).values():
                orjson.dumps(view)
            samples.append(time.perf_counter() - began)
    return statistics.median(samples)


def against(name: str, value: float, unit: str) -> str:
    """A figure beside its target, and whether it meets it."""
    most, least = TARGETS[name]
    if most is not None:
        met, target = value <= most, f"<= {most:g}"
    else:
        assert least is not None
        met, target = value >= least, f">= {least:g}"
    shown = f"{value:.3g}" if value < 100 else f"{value:.1f}"
    return f"{shown} {unit} (target {target} {unit}: {'met' if met else 'NOT met'})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, one core")
    print(build_line())
    print(load_line())
    samples = command_times(args.games)
    median = statistics.median(samples) * 1e6
    apply_target = "apply_compiled_us" if "compiled" in build_line() else "apply_us"
    print(
        f"apply one command, median: {against(apply_target, median, 'us')}; 95th percentile "
        f"{statistics.quantiles(samples, n=20)[-1] * 1e6:.1f} us ({len(samples)} commands)"
    )
    for mode, rate in games_per_second(args.games).items():
        if mode == "suspicion":
            print(f"random games per second, {mode:<12} {against('suspicion_games', rate, '/s')}")
        else:
            print(f"random games per second, {mode:<12} {rate:.1f} /s")
    heuristic = heuristic_games_per_second(max(args.games // 4, 10))
    print(f"heuristic games per second, suspicion 5p {against('heuristic_games', heuristic, '/s')}")
    length, fold, reapply = replay_figures()
    print(
        f"replay of a {REPLAY_COMMANDS}-command game, folding its events: "
        f"{against('replay_ms', fold * 1e3, 'ms')}; applying its commands again "
        f"{reapply * 1e3:.2f} ms (scaled from a {length}-command game)"
    )
    views = views_figure() * 1e3
    print(f"public + 8 seat views, built and encoded (orjson): {against('views_ms', views, 'ms')}")
    print(load_line())


if __name__ == "__main__":
    main()
