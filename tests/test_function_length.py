"""No function in the companion longer than 80 lines (its `def` to its last line, docstring and
all): a longer one does several jobs, and each deserves a name of its own."""

from __future__ import annotations

import ast

from imports import modules

LONGEST = 80


def long_functions(source: str, longest: int = LONGEST) -> list[tuple[str, int]]:
    """(name, lines) of every function or method of `source` longer than `longest` lines."""
    return [
        (node.name, (node.end_lineno or node.lineno) - node.lineno + 1)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (node.end_lineno or node.lineno) - node.lineno + 1 > longest
    ]


def found() -> dict[str, int]:
    """Every function of the package over the limit: "module:function" -> its lines."""
    return {
        f"{name}:{function}": lines
        for name, path in modules().items()
        for function, lines in long_functions(path.read_text(encoding="utf-8"))
    }


def test_no_function_over_80_lines() -> None:
    assert found() == {}


def test_a_long_function_is_found() -> None:
    """A function of 80 lines passes, a method of 81 is named."""
    short = "\n".join(f"    x{n} = {n}" for n in range(LONGEST - 1))
    long = "\n".join(f"        x{n} = {n}" for n in range(LONGEST))
    assert long_functions(f"def short():\n{short}\n") == []
    assert long_functions(f"class A:\n    def long(self):\n{long}\n") == [("long", LONGEST + 1)]
