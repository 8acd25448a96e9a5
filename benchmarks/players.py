"""How fast the heuristic players of `room25 simulate` play base Suspicion with five players on
one core, and where the time goes: the players (planning in `choose`, following their view in
`observe`) against the rest (the engine's `apply`, `legal_commands`, `changes_for`, and the
driver). Figures per game are CPU time of this process, so that other work on the machine
weighs on them less than on the wall-clock games per second printed beside them.

Run: taskset -c 1 .venv/bin/python benchmarks/players.py [--games N]
and, for `room25 simulate --jobs N` on N cores: .venv/bin/python benchmarks/players.py --jobs N
(with `PYTHONPATH=.compiled` in front, on the optional compiled engine of `scripts/compile`)

The load average is printed before and after, with a warning when the 1-minute load is above
0.5: compare figures only with others taken under the same conditions.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from load import build_line, load_line

from companion.sim.heuristic import HeuristicPlayer
from companion.sim.simulate import simulate

SETUP = {"mode": "suspicion", "players": 5}


def heuristic_games_per_second(games: int, jobs: int = 1) -> float:
    """Wall-clock games per second of five heuristic players, as `room25 simulate` plays them
    (`jobs` processes sharing the games)."""
    summary = simulate(SETUP, games, seed=1, jobs=jobs)
    return summary.games / summary.seconds


@contextmanager
def timed(owner: type, names: tuple[str, ...], spent: dict[str, float]) -> Iterator[None]:
    """Count the CPU time spent in these methods of `owner` while the block runs."""
    originals = {name: getattr(owner, name) for name in names}

    def wrap(name: str, method: Callable) -> Callable:
        def counted(*args, **kwargs):
            began = time.process_time()
            try:
                return method(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - began

        return counted

    for name, method in originals.items():
        setattr(owner, name, wrap(name, method))
    try:
        yield
    finally:
        for name, method in originals.items():
            setattr(owner, name, method)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--jobs", type=int, default=0, help="also time N processes sharing the games (no taskset)"
    )
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, one core")
    print(build_line())
    print(load_line())
    simulate(SETUP, 3, seed=0)  # warm up: imports and the catalogues
    rate = heuristic_games_per_second(args.games)
    print(f"heuristic games per second, suspicion 5p: {rate:.1f} ({args.games} games, wall clock)")
    spent = {"choose": 0.0, "observe": 0.0}
    began = time.process_time()
    with timed(HeuristicPlayer, ("choose", "observe"), spent):
        timed_summary = simulate(SETUP, args.games, seed=1)
    total = time.process_time() - began
    games = timed_summary.games
    players = spent["choose"] + spent["observe"]
    print(
        f"per game (CPU): {total / games * 1e3:.2f} ms in all, players {players / games * 1e3:.2f}"
        f" ms (choose {spent['choose'] / games * 1e3:.2f}, observe "
        f"{spent['observe'] / games * 1e3:.2f}), engine and driver "
        f"{(total - players) / games * 1e3:.2f} ms"
    )
    decisions = timed_summary.commands / games
    print(f"per decision: {players / timed_summary.commands * 1e6:.0f} us of players ", end="")
    print(f"({decisions:.0f} decisions a game)")
    if args.jobs > 1:
        shared = heuristic_games_per_second(args.games, jobs=args.jobs)
        print(f"heuristic games per second, {args.jobs} processes: {shared:.1f} (wall clock)")
    print(load_line())


if __name__ == "__main__":
    main()
