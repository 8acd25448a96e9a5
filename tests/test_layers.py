"""The companion's layers, from the import graph of its source (docs/session.md, "The layers
and the seams"): an import only runs down, so the engine knows nothing of the table, the session
nothing of the pages, the hardware or the voice, and only the composition roots at the top
(`room25 serve`, `room25 check`, the command line) know every layer."""

from __future__ import annotations

from imports import graph

# Each layer by its rank; an import goes to a lower rank or stays inside its own layer.
LAYERS = {
    "companion": 0,  # the package's own `__init__`
    "companion.words": 0,  # the catalogue of every word: reads its folders, imports nothing
    "companion.lan": 0,
    "companion.config": 1,
    "companion.engine": 2,
    "companion.words.pages": 3,  # the pages' words for the engine's cards and rooms
    "companion.sim": 3,
    "companion.scenario": 3,
    "companion.teaching": 3,  # the lessons of a first game, from the public record
    "companion.session": 4,
    "companion.voice": 5,
    "companion.hardware": 6,
    "companion.story": 7,
    "companion.web": 8,
    "companion.serve": 9,
    "companion.check_command": 10,
    "companion.cli": 11,
}


def layer(module: str) -> str:
    """The layer a module belongs to: the longest name of LAYERS it is, or is inside."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        name = ".".join(parts[:end])
        if name in LAYERS:
            return name
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Each import of `edges` that does not run down, in words."""
    return [
        f"{module} ({layer(module)}) imports {target} ({layer(target)})"
        for module, targets in sorted(edges.items())
        for target in sorted(targets)
        if layer(target) != layer(module) and LAYERS[layer(target)] >= LAYERS[layer(module)]
    ]


def test_every_import_runs_down_the_layers() -> None:
    assert upward(graph()) == []


def test_the_layer_check_sees_an_upward_import() -> None:
    """The check itself: the session importing the web (as `serve` did from inside the session)
    is named, and the web importing the session is not."""
    edges = {
        "companion.session.session": {"companion.web.api", "companion.engine"},
        "companion.web.api": {"companion.session.session"},
    }
    assert upward(edges) == [
        "companion.session.session (companion.session) imports companion.web.api (companion.web)"
    ]


def test_the_engine_imports_nothing_of_the_table() -> None:
    """Nothing but itself and the catalogue its words are in."""
    outside = {
        target
        for module, targets in graph().items()
        if layer(module) == "companion.engine"
        for target in targets
        if layer(target) not in ("companion.engine", "companion.words")
    }
    assert outside == set()
