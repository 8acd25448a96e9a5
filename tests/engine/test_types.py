"""A cell and a tile id are distinct types (issue 8): both are numbers, and a rule that takes the
one for the other reads the wrong room. mypy (run by scripts/test) refuses the mix-up."""

from __future__ import annotations

from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api")
ROOT = Path(__file__).parent.parent.parent  # mypy finds the package and its settings here

PROBE = """
from companion.engine.kernel import grid
from companion.engine.kernel.state import GameState


def probe(state: GameState) -> None:
    here = state.here("max")
    tile = state.cells[here]
    state.tile_at(here)
    state.occupants(tile)
    grid.name(state.cell_of(tile))
    state.tile_at(tile)  # wrong: a tile id where a cell is meant
    state.occupants(here)  # wrong: a cell where a tile id is meant
    grid.neighbours(tile)  # wrong
"""


def test_mypy_refuses_a_tile_id_for_a_cell_and_a_cell_for_a_tile_id(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    report, _, status = mypy_api.run(["--no-error-summary", "-c", PROBE])
    wrong = [n for n, line in enumerate(PROBE.splitlines(), 1) if "# wrong" in line]
    refused = sorted(int(line.split(":")[1]) for line in report.splitlines() if ": error:" in line)
    assert status == 1
    assert refused == wrong, report
