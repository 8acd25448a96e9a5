"""Instructions per heuristic game (base Suspicion, five players), counted by valgrind's
callgrind: a figure that, unlike the games per second, does not move with the machine's load or
speed, so that two versions of the code can be compared on a shared machine, and each change's
gain stated to a fraction of a per cent.

Run: .venv/bin/python benchmarks/instructions.py [--games N]
(with `PYTHONPATH=.compiled` in front, on the optional compiled engine of `scripts/compile`).
Needs valgrind (`sudo apt install valgrind`). The games are those of `room25 simulate --seed 1`,
in a child process with a fixed string hash (`PYTHONHASHSEED=0`: the order of a set of strings,
and so the work, changes with it). The child plays N games, then 2N; the difference, over N,
leaves out the imports and the start-up. Fewer instructions is faster, but not in proportion:
memory and the processor's caches weigh too, which only a timed benchmark (`players.py`) shows.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from load import build_of

ROOT = Path(__file__).resolve().parent.parent
PLAY = (
    "import sys; from companion.engine.kernel import evolve; print(evolve.__file__); "
    "from companion.sim.simulate import simulate; "
    "simulate({'mode': 'suspicion', 'players': 5}, int(sys.argv[1]), seed=1)"
)


def child_path() -> str:
    """The child's module path: this process's `PYTHONPATH` (`.compiled` first, for the compiled
    build) made absolute, then this tree. The child runs with `-P`, so that the directory it
    starts in does not come first and quietly give it the pure-Python sources."""
    given = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return os.pathsep.join([*(str(Path(p).resolve()) for p in given), str(ROOT)])


def instructions(games: int) -> tuple[int, str]:
    """Instructions a child process runs to import the companion and play `games` games, and
    the file its engine came from."""
    with tempfile.TemporaryDirectory() as scratch:
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={Path(scratch) / 'callgrind.out'}",
                sys.executable,
                "-P",
                "-c",
                PLAY,
                str(games),
            ],
            env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": child_path()},
            capture_output=True,
            text=True,
            check=True,
        )
    counted = re.search(r"Collected : (\d+)", run.stderr)
    if counted is None:
        raise RuntimeError(f"callgrind counted nothing: {run.stderr[-500:]}")
    return int(counted.group(1)), run.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: sudo apt install valgrind")
    (once, engine), (twice, _) = instructions(args.games), instructions(2 * args.games)
    print(build_of(engine))
    per_game = (twice - once) / args.games
    print(f"instructions per heuristic game, suspicion 5p: {per_game / 1e6:.2f} million")
    print(f"(games {args.games + 1} to {2 * args.games} of seed 1, under callgrind)")


if __name__ == "__main__":
    main()
