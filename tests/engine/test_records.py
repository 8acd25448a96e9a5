"""Events kept with `Context.record` skip their fold's handler (issue 29, point 4): that is
right only while the handler changes nothing, and only for the event types it is filed for."""

from __future__ import annotations

import ast
from pathlib import Path

from companion.engine import start
from companion.engine.kernel.context import Context
from companion.engine.kernel.evolve import FOLD, RECORDS, evolve
from companion.engine.kernel.state import GameState

ENGINE = Path(__file__).resolve().parents[2] / "companion" / "engine"


def _state() -> GameState:
    state = start({"mode": "suspicion", "players": 5, "seed": 3}).state
    assert state is not None
    return state


def test_a_recorded_type_folds_to_the_version_alone() -> None:
    """Folding each recorded type through `evolve`, as replay does, changes only the version:
    so skipping its handler leaves the same state."""
    for kind in RECORDS:
        state = _state()
        before = repr(state)
        evolve(state, {"type": kind, "character": "hal", "action": "look", "cell": "B2"})
        assert state.version == _state().version + 1, kind
        state.version -= 1
        assert repr(state) == before, kind


def test_record_counts_the_version_and_keeps_the_event_as_emit_does() -> None:
    event = {"type": "action_lost", "character": "hal", "action": "move"}
    recorded, emitted = Context(_state()), Context(_state())
    recorded.record(dict(event))
    emitted.emit(dict(event))
    assert repr(recorded.state) == repr(emitted.state)
    assert recorded.events == emitted.events == [event]


def test_the_rules_record_only_the_recorded_types() -> None:
    """Every `ctx.record` of the rules names its type as a literal, one of `RECORDS`; and no
    rule emits one of them through the fold instead."""
    recorded: set[str] = set()
    for path in sorted((ENGINE / "rules").glob("*.py")):
        for call in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
                continue
            if call.func.attr not in ("record", "emit") or not call.args:
                continue
            event = call.args[0]
            if not isinstance(event, ast.Dict) or not event.keys:
                continue
            first, value = event.keys[0], event.values[0]
            typed = isinstance(first, ast.Constant) and first.value == "type"
            literal = typed and isinstance(value, ast.Constant)
            if call.func.attr == "record":
                assert literal, f"{path.name}:{call.lineno}: name the type as a literal"
                assert isinstance(value, ast.Constant)
                assert value.value in RECORDS, f"{path.name}:{call.lineno}: {value.value}"
                recorded.add(value.value)
            elif literal:
                assert isinstance(value, ast.Constant)
                assert value.value not in RECORDS, f"{path.name}:{call.lineno}: record it"
    assert recorded == RECORDS
    assert all(kind in FOLD for kind in RECORDS)
