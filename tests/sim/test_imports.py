"""The simulator's modules import one another in one direction: no circle, neither at module
level nor through an import inside a function or under `TYPE_CHECKING` (issue 31, point 6).
The planner's modules (`knowledge`, `lines`, `search`, `actions`, `choices`, `talents`) stand
below the policy that uses them (`heuristic`), which none of them imports."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import companion.sim

SIM = Path(companion.sim.__file__).parent
PACKAGE = "companion.sim"


def sim_imports(source: str) -> set[str]:
    """The `companion.sim` modules a module's source imports, wherever the import stands."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == PACKAGE:
                found.update(f"{PACKAGE}.{alias.name}" for alias in node.names)
            elif node.module.startswith(PACKAGE + "."):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith(PACKAGE + "."))
    return found


def graph() -> dict[str, set[str]]:
    return {
        f"{PACKAGE}.{path.stem}": sim_imports(path.read_text())
        for path in SIM.glob("*.py")
        if path.stem != "__init__"
    }


def test_the_reader_sees_every_kind_of_import():
    """A late import and one for the type checker count as much as a module-level one."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from companion.sim import lines\n"
        "if TYPE_CHECKING:\n    from companion.sim.heuristic import HeuristicPlayer\n"
        "def late():\n    import companion.sim.search\n"
    )
    assert sim_imports(source) == {
        "companion.sim.lines",
        "companion.sim.heuristic",
        "companion.sim.search",
    }


def test_no_import_circle_among_the_simulators_modules():
    imports = graph()
    assert "companion.sim.knowledge" in imports and "companion.sim.heuristic" in imports
    try:
        order = list(TopologicalSorter(imports).static_order())
    except CycleError as circle:
        raise AssertionError(f"an import circle: {' -> '.join(circle.args[1])}") from None
    assert order.index("companion.sim.knowledge") < order.index("companion.sim.heuristic")
