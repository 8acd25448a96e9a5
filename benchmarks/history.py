"""What the table's history costs: the simulated rates of one composition (`room25 stats` and the
host page work them out once, then read them from `simulated.json`), per edition and mode as the
host's tables most often play them, and the history itself read from a journal of N games.

Run: taskset -c 1 .venv/bin/python benchmarks/history.py [--games N]
The load average is printed before and after (figures mean something only on a quiet machine).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from load import build_line, load_line

from companion.serve import JOURNAL_NAME
from companion.session.journal import Journal
from companion.story.history import composition_of, table_history
from companion.story.simulated import GAMES, Simulated

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from story.played import play_evenings

TABLES = [
    {"edition": "base", "mode": "suspicion", "players": 5},
    {"edition": "base", "mode": "cooperation", "players": 4},
    {"edition": "season2", "mode": "cooperation", "players": 4},
    {"edition": "ultimate", "mode": "team", "players": 4},
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="games in the journal")
    args = parser.parse_args()
    print(load_line())
    print(build_line())
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        simulated = Simulated(data)
        for setup in TABLES:
            began = time.perf_counter()
            found = simulated.rates({**setup, "composition": composition_of(setup)})
            spent = time.perf_counter() - began
            print(f"simulated rates, {GAMES} games of {setup}: {spent:.2f} s ({found['games']})")
        play_evenings(data, [TABLES[n % 2] for n in range(args.games)])
        journal = Journal(data / JOURNAL_NAME)
        journal.open()
        try:
            began = time.perf_counter()
            history = table_history(journal, simulated.rates)
            spent = time.perf_counter() - began
        finally:
            journal.close()
        print(
            f"history of {len(history['games'])} games, rates kept: {spent * 1000:.1f} ms "
            f"({len(history['groups'])} groups)"
        )
    print(load_line())


if __name__ == "__main__":
    main()
