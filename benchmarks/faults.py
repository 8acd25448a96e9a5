"""A failing SD card under `room25 serve`: table inputs played while serve's writes, fsyncs and
fdatasyncs fail at random (Debian's libfiu, `fiu-run -x`), serve stopped by SIGTERM or SIGKILL
right after a refusal and started again, then the journal checked against every answer. Prints
the inputs, the acknowledged and refused ones, those lost (acknowledged, missing) and kept
though refused (both must be 0), the restarts, SQLite's integrity check and the time taken.

Run: .venv/bin/python benchmarks/faults.py [--inputs N] [--restarts N] [--probability P]

Needs fiu-utils (installed by scripts/test). The load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # serving
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "session"))

from faults import FIU_RUN, MISSING, fault_run
from load import load_line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=1000)
    parser.add_argument("--restarts", type=int, default=10)
    parser.add_argument("--probability", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if FIU_RUN is None:
        print(MISSING, file=sys.stderr)
        return 1
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        run = fault_run(Path(folder), args.inputs, args.restarts, args.probability, args.seed)
    took = time.monotonic() - started
    print(
        f"{run.inputs} inputs with writes and syncs failing at {args.probability:.0%}: "
        f"{run.acked} acknowledged, {run.refused} refused (nothing changed), "
        f"{run.unsure} unsure; {run.restarts} restarts (SIGTERM or SIGKILL after a refusal)"
    )
    print(
        f"after the restarts: {run.lost} lost, {run.kept_refused} refused but kept, "
        f"integrity {run.integrity}, {len(run.errors)} server errors or Python text in a body"
    )
    print(f"{took:.1f} s ({took / max(run.inputs, 1) * 1000:.0f} ms an input)")
    print(load_line())
    for status, body in run.errors[:5]:
        print(f"  {status}: {body}")
    return 0 if (run.lost, run.kept_refused, run.errors, run.integrity) == (0, 0, [], "ok") else 1


if __name__ == "__main__":
    sys.exit(main())
