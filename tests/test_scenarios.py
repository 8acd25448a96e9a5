"""Every rule scenario under tests/scenarios runs as its own test, named after its file."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.scenario import run_paths, run_scenario
from companion.scenario.load import scenario_files

HERE = Path(__file__).parent / "scenarios"
FILES = scenario_files([HERE])


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(HERE)) for p in FILES])
def test_scenario(path: Path) -> None:
    (result,) = run_paths([path])
    assert result.ok, "\n".join(str(f) for f in result.failures)


def test_there_are_rule_scenarios() -> None:
    assert len(FILES) >= 1


COMPLEX = [
    ["empty", "dark", "empty", "cold", "room25"],
    ["empty", "prison", "acid", "vortex", "empty"],
    ["dark", "empty", "central", "vision", "empty"],
    ["cold", "trapped", "flooded", "mortal", "empty"],
    ["vortex", "prison", "twin", "twin", "acid"],
]


def _doc(**extra: object) -> dict:
    return {
        "setup": {"mode": "cooperation", "players": 4, "complex": COMPLEX},
        "position": {"phase": "programming"},
        **extra,
    }


def test_runner_reports_an_unmet_expectation_with_its_step() -> None:
    doc = _doc(steps=[{"expect": {"turn": 7}}])
    result = run_scenario(doc)
    assert not result.ok
    assert str(result.failures[0]).startswith("step 1: turn is 1")


def test_runner_reports_an_unexpected_refusal_and_stops() -> None:
    doc = _doc(steps=[{"type": "act", "character": "emmett", "direction": "north"}])
    result = run_scenario(doc)
    assert [f.where for f in result.failures] == ["step 1"]
    assert "refused" in result.failures[0].reason


def test_runner_reports_a_refusal_that_did_not_happen() -> None:
    doc = _doc(steps=[{"refused": {"type": "program", "character": "emmett", "actions": ["move"]}}])
    assert "expected a refusal" in run_scenario(doc).failures[0].reason


@pytest.mark.parametrize(
    ("tokens", "words"),
    [
        ({"colB": 1}, "control_tokens lie only beside lines that 'controls' gives a direction"),
        ({"row2": 0}, "control_tokens counts are 1 or more"),
    ],
)
def test_position_control_tokens_need_a_controlled_line_and_a_count(
    tokens: dict, words: str
) -> None:
    position = {"phase": "action", "controls": {"row2": "east"}, "control_tokens": tokens}
    result = run_scenario({**_doc(), "position": position})
    assert [(f.where, f.reason) for f in result.failures] == [("position", words)]


def test_a_composition_keyed_by_null_or_a_number_is_refused_in_words(tmp_path: Path) -> None:
    """YAML reads `~:` as None and `12:` as a number: the engine refuses them as rooms, in its
    own words, rather than failing on them."""
    path = tmp_path / "keys.yaml"
    path.write_text(
        "name: keys\nsetup:\n  mode: cooperation\n  players: 4\n"
        "  composition: {rooms: {~: 22, 12: 1}}\n"
    )
    (result,) = run_paths([path])
    assert [(f.where, f.reason) for f in result.failures] == [
        ("setup", "The composition names 'None', which is not a room.")
    ]
