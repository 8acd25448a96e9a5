"""How fast the heuristic players of `room25 simulate` play base Suspicion with five players on
one core, and where the time goes: the players (planning in `choose`, following their view in
`observe`) against the rest (the engine's `apply`, `legal_commands`, `changes_for`, and the
driver). Figures per game are CPU time of this process, so that other work on the machine
weighs on them less than on the wall-clock games per second printed beside them. A third run
counts the engine's calls the driver makes (`ENGINE_CALLS`), each with its CPU time: how many
of each a game asks for, and what one costs.

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
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from load import build_line, load_line

from companion.sim import simulate as driver
from companion.sim.heuristic import HeuristicPlayer
from companion.sim.simulate import simulate

SETUP = {"mode": "suspicion", "players": 5}
# The engine's entry points the driver calls, as it names them (issue 29: which calls a game
# makes, and which of them a leaner driver could do without).
ENGINE_CALLS = ("waiting_for", "legal_commands", "apply", "changes_for", "seat_view")


def heuristic_games_per_second(games: int, jobs: int = 1) -> float:
    """Wall-clock games per second of five heuristic players, as `room25 simulate` plays them
    (`jobs` processes sharing the games)."""
    summary = simulate(SETUP, games, seed=1, jobs=jobs)
    return summary.games / summary.seconds


@contextmanager
def timed(
    owner: object, names: tuple[str, ...], spent: dict[str, float], calls: Counter | None = None
) -> Iterator[None]:
    """Count the CPU time spent in these methods of `owner` (a class, or a module's functions)
    while the block runs, and with `calls` how many times each is called."""
    originals = {name: getattr(owner, name) for name in names}
    counts = Counter() if calls is None else calls

    def wrap(name: str, method: Callable) -> Callable:
        def counted(*args, **kwargs):
            began = time.process_time()
            counts[name] += 1
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
    engine_calls(args.games)
    if args.jobs > 1:
        shared = heuristic_games_per_second(args.games, jobs=args.jobs)
        print(f"heuristic games per second, {args.jobs} processes: {shared:.1f} (wall clock)")
    print(load_line())


def engine_calls(games: int) -> None:
    """The engine's calls a game makes through the driver, and the CPU time of one."""
    spent = dict.fromkeys(ENGINE_CALLS, 0.0)
    calls: Counter = Counter()
    with timed(driver, ENGINE_CALLS, spent, calls):
        simulate(SETUP, games, seed=1)
    print("engine calls a game (driver):", end="")
    for name in ENGINE_CALLS:
        each = spent[name] / calls[name] * 1e6 if calls[name] else 0.0
        print(f" {name} {calls[name] / games:.1f} x {each:.1f} us;", end="")
    print(f" {sum(spent.values()) / games * 1e3:.2f} ms in all")


if __name__ == "__main__":
    main()
