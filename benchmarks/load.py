"""What every benchmark prints beside its figures: the load average (they mean something only on
a quiet machine) and which build of the engine ran."""

from __future__ import annotations

import os
from pathlib import Path

QUIET_LOAD = 0.5  # 1-minute load average above which the figures are not to be trusted


def load_line() -> str:
    """The load average, and a warning when the machine is too busy to trust the figures."""
    one, five, fifteen = os.getloadavg()
    line = f"load average {one:.2f} {five:.2f} {fifteen:.2f}"
    if one > QUIET_LOAD:
        line += f"\nfigures not to be trusted: load {one:.2f} (above {QUIET_LOAD})"
    return line


def cpu_seconds(stat: str) -> float:
    """User and system CPU seconds of a process or thread, from its `/proc/.../stat` file."""
    fields = Path(stat).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def build_line() -> str:
    """Which engine ran: the pure-Python default, or the optional compiled copy
    (`scripts/compile`, run with `PYTHONPATH=.compiled`)."""
    from companion.engine.kernel import evolve

    return build_of(str(evolve.__file__))


def build_of(module_file: str) -> str:
    """`build_line` for an engine module's file, as another process found it."""
    if module_file.endswith(".so"):
        return "engine: compiled (mypyc, .compiled/)"
    return "engine: pure Python"
