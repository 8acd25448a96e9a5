"""One way to register a rule (issue 8): every table of rules is a `registry.Table` filled by
`rules.load()`, and every name of the catalogues (room kinds, card kinds, pending kinds, event
types, characters) has an entry or is listed as doing nothing on purpose, with its reason."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.engine.face.shapes import EVENT_FIELDS
from companion.engine.kernel.catalogue import characters, rooms
from companion.engine.kernel.evolve import HANDLERS
from companion.engine.kernel.mac_cards import KIND_LEVELS
from companion.engine.kernel.registry import Table
from companion.engine.rules import choices, load, mac, robots, talents
from companion.engine.rules import rooms as room_rules

ENGINE = Path(__file__).resolve().parents[2] / "companion" / "engine"


def _complete(table: Table, names: set[str]) -> None:
    """Each name is filed or idle (not both), and the table files no name outside the list."""
    load()
    assert set(table) | set(table.idle) == names
    assert not set(table) & set(table.idle)
    for name, why in table.idle.items():
        assert why.strip() and "\n" not in why, f"{table.names} {name}: say why in one line"


def test_every_room_kind_has_an_effect_or_a_reason_to_have_none() -> None:
    _complete(room_rules.EFFECTS, set(rooms()))


def test_leave_and_robot_effects_are_filed_under_room_kinds() -> None:
    load()
    assert set(room_rules.LEAVE_EFFECTS) == {"shredder"}
    assert set(robots.ROBOT_EFFECTS) <= set(rooms())
    assert set(robots.ROBOT_EFFECTS) == {"shredder", "acid", "flooded"}


def test_every_card_kind_of_the_deck_has_an_effect() -> None:
    _complete(mac.EFFECTS, set(KIND_LEVELS))


def test_every_event_type_has_a_handler_in_the_fold() -> None:
    _complete(HANDLERS, set(EVENT_FIELDS))


def test_every_character_has_a_talent_and_a_panic_or_a_reason_to_have_none() -> None:
    _complete(talents.TALENTS, set(characters()))
    _complete(mac.PANICS, set(characters()))


def test_every_pending_kind_has_an_answer() -> None:
    _complete(choices.ANSWERS, set(choices.KINDS))


def _kinds(tree: ast.AST, node: ast.expr) -> set[str]:
    """The pending kinds an expression can name: a literal, either branch of `a if c else b`,
    or a local name assigned such values."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _kinds(tree, node.body) | _kinds(tree, node.orelse)
    if isinstance(node, ast.Name):
        values = [
            n.value
            for n in ast.walk(tree)
            if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == node.id for t in n.targets)
        ]
        return {kind for value in values for kind in _kinds(tree, value)}
    return set()


def test_every_choice_asked_in_the_rules_is_a_known_kind_and_every_kind_is_asked() -> None:
    asked: set[str] = set()
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            call = node if isinstance(node, ast.Call) else None
            if call is None or not isinstance(call.func, ast.Attribute):
                continue
            if call.func.attr != "ask" or getattr(call.func.value, "id", None) != "choices":
                continue
            kinds = _kinds(tree, call.args[1])
            assert kinds, f"{path.name}:{call.lineno}: the pending kind is not written out"
            assert kinds <= set(choices.KINDS), f"{path.name}:{call.lineno}: {kinds}"
            asked |= kinds
    assert asked == set(choices.KINDS)


def test_only_choices_sets_a_pending_choice() -> None:
    """Asking lives in one module: no other emits the `pending` event."""
    for path in sorted((ENGINE / "rules").glob("*.py")):
        if path.name != "choices.py":
            assert '"type": "pending"' not in path.read_text("utf-8"), path.name


def test_a_name_filed_twice_is_refused() -> None:
    table: Table[int] = Table("room kind", idle={"empty": "no effect"})
    table.register("acid")(1)
    with pytest.raises(ValueError, match="acid"):
        table.register("acid")(2)
    with pytest.raises(ValueError, match="empty"):
        table.register("empty")(3)
    assert table == {"acid": 1}
