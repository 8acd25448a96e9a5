"""The companion's import graph, read from its source with `ast` (nothing is imported): every
`import` and `from ... import`, at module level or inside a function, as module -> modules."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "companion"


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """`companion/web/api.py` -> `companion.web.api`; a package is its `__init__`'s name."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by name."""
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def _imported(
    node: ast.Import | ast.ImportFrom, name: str, package: bool, known: Iterable[str]
) -> list[str]:
    """The modules one import statement names, relative ones made absolute: `from a import b`
    names the module `a.b` when there is one (a is then already imported: no edge of its
    own), else `a`, whose name b is."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = name.split(".") if package else name.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, node.module] if node.module else base)
    else:
        source = node.module or ""
    return [
        f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source
        for alias in node.names
    ]


def graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, itself left out."""
    found = modules(root)
    edges: dict[str, set[str]] = {}
    for name, path in found.items():
        package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                targets.update(m for m in _imported(node, name, package, found) if m in found)
        edges[name] = targets - {name}
    return edges


def loaded_by(code: str, *prefixes: str) -> list[str]:
    """The modules named `prefixes...` that running `code` in a fresh interpreter loads (what a
    program really pulls in, late imports included)."""
    listing = f"; import sys; print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))"
    found = subprocess.run(
        [sys.executable, "-c", code + listing], capture_output=True, text=True, check=True
    )
    return ast.literal_eval(found.stdout.strip().splitlines()[-1])
