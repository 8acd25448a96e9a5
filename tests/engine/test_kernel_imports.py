"""The kernel sits under the rules (issue 31, point 6): no kernel module imports a rules module,
at the top or inside a function, so `kernel/refusals -> rules/talents -> kernel/context` cannot
close again. The names a refusal says (a talent's among them) come from the catalogue."""

from __future__ import annotations

import ast
from pathlib import Path

KERNEL = Path(__file__).resolve().parents[2] / "companion" / "engine" / "kernel"


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def test_no_kernel_module_imports_the_rules() -> None:
    modules = sorted(KERNEL.glob("*.py"))
    assert len(modules) > 8
    upward = {
        path.name: sorted(m for m in _imports(path) if m.startswith("..rules") or ".rules." in m)
        for path in modules
    }
    assert {name: found for name, found in upward.items() if found} == {}
