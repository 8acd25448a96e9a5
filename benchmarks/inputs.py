"""Bounded input files: how long and how much memory the scenario loader and the deck loader
take on the largest file they accept and on files far over their bounds (issue 8: a 5 MB
scenario took a minute and 900 MB; `deck --file /dev/zero` ran out of memory).

Run: .venv/bin/python benchmarks/inputs.py
"""

from __future__ import annotations

import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from load import load_line

from companion.engine import DeckError, load_deck
from companion.scenario.load import (
    MAX_BYTES,
    MAX_STEPS,
    ScenarioFileError,
    read,
    scenario_files,
)

SCENARIOS = Path(__file__).resolve().parent.parent / "tests" / "scenarios"


def measure(label: str, work: Callable[[], object]) -> None:
    tracemalloc.start()
    began = time.perf_counter()
    try:
        work()
        outcome = "read"
    except (ScenarioFileError, DeckError) as error:
        outcome = "refused: " + str(error).split(": ", 1)[-1][:50]
    seconds = time.perf_counter() - began
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"{label:<44} {seconds * 1000:9.1f} ms  peak {peak / 2**20:7.2f} MB  {outcome}")


def main() -> None:
    print(load_line())
    files = scenario_files([SCENARIOS])
    measure(f"all {len(files)} rule scenarios", lambda: [read(p) for p in files])
    with tempfile.TemporaryDirectory() as folder:
        largest = Path(folder) / "largest.yaml"
        step = "  - {type: act, character: emmett, direction: north}\n"
        steps = "steps:\n" + step * MAX_STEPS
        head = "setup: {mode: cooperation}\nrule: "
        padding = MAX_BYTES - len(head) - len(steps) - 2
        largest.write_text(head + "x" * padding + "\n" + steps)
        measure(f"a {MAX_BYTES // 1024} kB scenario, {MAX_STEPS} steps", lambda: read(largest))
        huge = Path(folder) / "five_mb.yaml"
        huge.write_text("setup: {mode: cooperation}\nsteps:\n" + step * (5 * 2**20 // len(step)))
        measure("a 5 MB scenario", lambda: read(huge))
    measure("scenario /dev/zero", lambda: read(Path("/dev/zero")))
    measure("deck --file /dev/zero", lambda: load_deck("/dev/zero"))
    measure("the packaged deck", load_deck)
    print(load_line())


if __name__ == "__main__":
    main()
