"""Issue 7's and issue 29's speed figures as speed-ups over the engine each issue measured, both
engines timed on this machine in one run.

Issue 7 set its targets against the engine of commit `b297d7a` (the last one before it),
timed on a quiet CI-type machine: about 20 us a command, 280 random five-player Suspicion games
a second, 48 heuristic games a second. Another machine, or this shared one on another day, reads
every figure faster or slower; timing that engine here beside today's gives speed-ups that do
not depend on the machine, compared with the speed-ups the targets ask for (20 -> 12 us is 1.67
times, 280 -> 400 games 1.43 times, 48 -> 120 games 2.5 times).

Issue 29 (`--issue 29`) measured the engine of commit `db6ed11`, on this machine: 15.7 us a command
at a low load and 43.5 heuristic games a second (`players.py`); it asks 10 us (1.57 times) and
twice the games. This machine has since run a third slower or faster from one day to the next at
the same low load, so these speed-ups, not the microseconds of one day, say whether it holds.

Run: taskset -c 1 .venv/bin/python benchmarks/baseline.py [--issue 7|29] [--games N]
     (`PYTHONPATH=.compiled` in front: today's figures on the optional compiled engine)
It needs the project's git history (a `git worktree` of the issue's engine is made in a
temporary folder and removed at the end). Each engine runs in a process of its own, on the same
core.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from load import build_line, load_line

ROOT = Path(__file__).resolve().parent.parent
# Each issue: the engine it measured (its figures, and its targets, start there), and for each
# figure: (figure, unit, the issue's figure for that engine, the issue's target, lower is better).
ISSUES = {
    "7": (
        "b297d7a",
        (
            ("apply_us", "us a command (median)", 20.0, 12.0, True),
            ("suspicion_games", "random Suspicion 5p games/s", 280.0, 400.0, False),
            ("heuristic_games", "heuristic Suspicion 5p games/s", 48.0, 120.0, False),
        ),
    ),
    "29": (
        "db6ed11",
        (
            ("apply_us", "us a command (median)", 15.7, 10.0, True),
            ("heuristic_games", "heuristic Suspicion 5p games/s", 43.5, 87.0, False),
        ),
    ),
}


def measure(games: int) -> dict[str, float]:
    """The three figures of the engine found first on the path (run in a child process)."""
    import companion

    if not (Path(companion.__file__).parent / "sim").is_dir():
        # The layout before issue 8: companion/simulate.py and companion/players.py.
        import types

        import companion.players
        import companion.simulate

        sys.modules["companion.sim"] = types.ModuleType("companion.sim")
        sys.modules["companion.sim.simulate"] = companion.simulate
        sys.modules["companion.sim.heuristic"] = companion.players
    import engine
    from players import SETUP

    from companion.sim.simulate import simulate

    samples = engine.command_times(games)
    rates = engine.games_per_second(games, [SETUP])
    simulate(SETUP, 3, seed=0)  # warm up: imports and catalogues
    summary = simulate(SETUP, max(games // 4, 10), seed=1)
    return {
        "apply_us": statistics.median(samples) * 1e6,
        "suspicion_games": rates["suspicion"],
        "heuristic_games": summary.games / summary.seconds,
    }


def measured_in(tree: Path | None, games: int) -> dict[str, float]:
    """`measure` in a child process whose path starts with `tree` (None: as this one's)."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    command = [sys.executable, __file__, "--measure", "--games", str(games)]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--issue", choices=sorted(ISSUES), default="7")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.games)))
        return
    before_commit, figures = ISSUES[args.issue]
    print(
        f"python {sys.version.split()[0]}; today: {build_line()}; "
        f"issue {args.issue}'s engine: {before_commit}, pure Python"
    )
    print(load_line())
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "before"
        git = ["git", "-C", str(ROOT)]
        subprocess.run(
            [*git, "worktree", "add", "--detach", str(tree), before_commit],
            check=True,
            capture_output=True,
        )
        try:
            before = measured_in(tree, args.games)
            now = measured_in(None, args.games)
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(tree)], check=True)
    print(f"{'':34}{'before':>9}{'today':>9}{'speed-up':>10}{'asked':>8}  the issue's machine")
    for name, unit, issue_before, target, lower in figures:
        speedup = before[name] / now[name] if lower else now[name] / before[name]
        asked = issue_before / target if lower else target / issue_before
        there = issue_before / speedup if lower else issue_before * speedup
        verdict = "met" if speedup >= asked else "NOT met"
        print(
            f"{unit:34}{before[name]:9.1f}{now[name]:9.1f}{speedup:9.2f}x{asked:7.2f}x"
            f"  would read {there:.1f} (target {target:g}: {verdict})"
        )
    print(load_line())


if __name__ == "__main__":
    main()
