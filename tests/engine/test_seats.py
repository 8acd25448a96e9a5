"""Seats and seeds are part of the contract (issue 7, point 8): seat ids follow one pattern
that can never be the table's or a private marker of the engine, every game names its seed,
and a malformed setup is refused plainly instead of raising."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from companion.engine import HOST, SEAT_IDS, Refused, legal_commands, seat_view, start
from companion.engine.rules.setup import SEED_MAX

ENGINE = Path(__file__).resolve().parents[2] / "companion" / "engine"


def _private_markers() -> set[str]:
    """Every constant the engine writes as an event's `"private"` marker (a key of the event's
    dictionary, or a rule's `private=` argument): a literal, or a module-level constant such as
    new_rooms.FACE_DOWN (seat ids come from variables)."""
    found = set()
    for path in ENGINE.rglob("*.py"):
        dotted = ".".join(path.relative_to(ENGINE).with_suffix("").parts)
        module = importlib.import_module(f"companion.engine.{dotted}".removesuffix(".__init__"))
        for value in _private_values(ast.parse(path.read_text("utf-8"))):
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(value.value)
            elif isinstance(value, ast.Name) and value.id.isupper():
                found.add(getattr(module, value.id))
    return found


def _private_values(tree: ast.AST) -> list[ast.expr]:
    values = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "private":
            values.append(node.value)
        elif isinstance(node, ast.Dict):
            values += [
                v
                for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant) and k.value == "private"
            ]
    return values


def test_no_seat_id_can_be_the_table_or_a_private_marker() -> None:
    markers = _private_markers()
    assert {"engine", "face-down"} <= markers
    for name in {*markers, HOST}:
        assert name not in SEAT_IDS, name


def _seats(*ids: object) -> list[dict]:
    cast = ("emmett", "franck", "max", "kevin")
    return [{"id": sid, "characters": [cid]} for sid, cid in zip(ids, cast, strict=False)]


def test_default_seats_are_numbered_from_one() -> None:
    state = start({"edition": "season2", "mode": "suspicion", "players": 8, "seed": 4}).state
    assert list(state.seats) == [str(n) for n in range(1, 9)]


@pytest.mark.parametrize("sid", ["host", "engine", "face-down", "9", "0", "", "12", "a", 1.0, True])
def test_a_seat_outside_the_pattern_is_refused(sid: object) -> None:
    result = start({"mode": "suspicion", "seats": _seats("1", "2", "3", sid), "seed": 1})
    assert not result.ok
    assert result.refusal.code == "seat_id_pattern"
    assert result.refusal.params == {"seat": str(sid)}
    assert "1 to 8" in str(result.refusal) and "1 à 8" in result.refusal.text("fr")


def test_seats_named_within_the_pattern_keep_their_names() -> None:
    result = start({"mode": "suspicion", "seats": _seats("8", "3", 5, "1"), "seed": 1})
    assert result.ok, result.refusal
    assert list(result.state.seats) == ["8", "3", "5", "1"]


def test_an_unknown_seat_asking_for_its_view_or_its_commands_is_refused() -> None:
    state = start({"mode": "suspicion", "players": 4, "seed": 2}).state
    for ask in (seat_view, legal_commands):
        with pytest.raises(Refused) as refused:
            ask(state, "engine")
        assert refused.value.refusal.code == "unknown_seat"


def test_a_game_without_a_seed_is_refused() -> None:
    result = start({"mode": "suspicion", "players": 5})
    assert not result.ok and result.state is None
    assert result.refusal.code == "seed_missing"
    assert "seed" in str(result.refusal) and "seed" in result.refusal.text("fr")


@pytest.mark.parametrize("seed", [True, False, -1, SEED_MAX + 1, 1.5, "7", None, [7]])
def test_a_seed_must_be_a_64_bit_whole_number(seed: object) -> None:
    result = start({"mode": "suspicion", "players": 5, "seed": seed})
    assert result.refusal.code == "seed_not_a_number"


def _deal(seed: int) -> tuple:
    state = start({"mode": "suspicion", "players": 5, "seed": seed}).state
    return (
        tuple(state.tiles[state.cells[c]].kind for c in range(25)),
        tuple(state.characters[cid].role for cid in state.order),
    )


def test_the_seed_decides_the_complex_and_the_roles() -> None:
    assert _deal(SEED_MAX) == _deal(SEED_MAX)
    assert len({_deal(seed) for seed in (0, 1, 2, 3, 2**63)}) > 1


COMPLEX = [
    ["empty", "empty", "empty", "empty", "empty"],
    ["empty", "vision", "empty", "empty", "empty"],
    ["empty", "empty", "central", "empty", "room25"],
    ["empty", "empty", "empty", "empty", "empty"],
    ["empty", "empty", "empty", "empty", "empty"],
]


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"composition": {"rooms": {"empty": "8"}}}, "composition_count"),
        ({"composition": {"rooms": {"empty": 8.0}}}, "composition_count"),
        ({"composition": {"rooms": {"empty": True}}}, "composition_count"),
        (
            {"complex": [*COMPLEX[:4], [["empty"], "empty", "empty", "empty", "empty"]]},
            "complex_shape",
        ),
        ({"complex": [*COMPLEX[:4], [7, "empty", "empty", "empty", "empty"]]}, "complex_shape"),
        ({"players": 4.0}, "players_count"),
        ({"players": True}, "players_count"),
        ({"edition": ["base"]}, "unknown_edition"),
        ({"mode": {"suspicion": 1}}, "unknown_mode"),
        ({"tracking": None}, "unknown_tracking"),
        ({"settings": {"alarm": "yes"}}, "setting_is_a_flag"),
        ({"settings": {"mac": ["off"]}}, "setting_is_one_of"),
        ({"settings": {"turbo": True}}, "unknown_setting"),
        ({"seats": [{"id": "1", "characters": [["emmett"]]}] * 4}, "not_in_edition"),
        ({"roles": {"emmett": ["guard"]}}, "role_value"),
    ],
)
def test_a_malformed_setup_is_refused_plainly(changes: dict, code: str) -> None:
    setup = {"mode": "suspicion", "players": 4, "seed": 3, **changes}
    result = start(setup)
    assert not result.ok
    assert result.refusal.code == code
    assert str(result.refusal) != result.refusal.text("fr")
