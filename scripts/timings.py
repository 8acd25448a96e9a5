"""Where scripts/test's minutes went: the slowest tests of its pytest runs (read from their JUnit
reports) and the script's own time, printed last so the next engineer sees them without scrolling.

Usage: timings.py STARTED REPORT.xml [REPORT.xml ...]   (STARTED: the script's start, epoch s)"""

from __future__ import annotations

import os
import sys
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

SHOWN = 15


def slowest(reports: list[Path]) -> list[tuple[float, str]]:
    """Every test case of the reports as (seconds, run: name), slowest first; setup and teardown
    count, as JUnit reports them."""
    cases = []
    for report in reports:
        run = report.stem
        for case in ElementTree.parse(report).iter("testcase"):
            name = f"{case.get('classname', '')}::{case.get('name', '')}"
            cases.append((float(case.get("time", 0)), f"{run}: {name}"))
    return sorted(cases, reverse=True)


def main(argv: list[str]) -> int:
    started, reports = float(argv[0]), [Path(a) for a in argv[1:] if Path(a).exists()]
    print(f"\nThe {SHOWN} slowest tests:")
    for seconds, name in slowest(reports)[:SHOWN]:
        print(f"  {seconds:7.1f} s  {name}")
    for report in reports:
        suite = next(ElementTree.parse(report).iter("testsuite"))
        print(f"{report.stem}: {suite.get('tests')} tests in {float(suite.get('time', 0)):.0f} s")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"scripts/test took {time.time() - started:.0f} s (load average now {load})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
