"""Scenario files written by hand: every malformed one is named in one plain line (the file, the
key, what was expected) before anything is played, and the format's newer fields do what
docs/scenarios.md says."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
import yaml
from test_scenarios import COMPLEX  # the runner's tests share one rigged complex

from companion.scenario import run_paths, run_scenario
from companion.scenario.load import MAX_BYTES, QUOTE, ScenarioFileError, read, scenario_files

SCENARIOS = Path(__file__).parent / "scenarios"
REAL = SCENARIOS / "base" / "actions" / "control_same_line_only_same_direction_in_a_turn.yaml"


def _write(tmp_path: Path, doc: object, suffix: str = ".yaml") -> Path:
    path = tmp_path / f"scenario{suffix}"
    text = json.dumps(doc) if suffix == ".json" else yaml.safe_dump(doc)
    path.write_text(text, "utf-8")
    return path


def _base(**extra: object) -> dict:
    return {"setup": {"mode": "cooperation", "players": 4, "complex": COMPLEX}, **extra}


# Each: the document, then words the one-line message must hold (the key path, the expectation).
MALFORMED = {
    "not a mapping": ([1, 2], ["a mapping"]),
    "no setup": ({"steps": []}, ["'setup'"]),
    "setup a list": ({"setup": [1]}, ["scenario.setup", "a mapping"]),
    "complex a number": (
        {"setup": {"mode": "cooperation", "complex": 5}},
        ["scenario.setup.complex", "five lines"],
    ),
    "steps a number": (_base(steps=5), ["scenario.steps", "a list of steps", "the number 5"]),
    "step a text": (_base(steps=["act"]), ["scenario.steps[1]", "a step mapping"]),
    "step without type": (_base(steps=[{"direction": "north"}]), ["steps[1]", "'type'"]),
    "character a list": (
        _base(steps=[{"type": "act", "character": ["emmett"]}]),
        ["steps[1].character", "a text"],
    ),
    "program not a mapping": (_base(steps=[{"program": ["move"]}]), ["steps[1].program"]),
    "program tokens a text": (
        _base(steps=[{"program": {"emmett": "move"}}]),
        ["steps[1].program.emmett", "a list of action tokens"],
    ),
    "reason a number": (
        _base(steps=[{"refused": {"type": "pass"}, "reason": 3}]),
        ["steps[1].reason", "a text"],
    ),
    "position a list": (_base(position=[1]), ["scenario.position", "a mapping"]),
    "unknown position key": (_base(position={"phaze": "action"}), ["'phaze'", "'phase'"]),
    "turn a text": (_base(position={"turn": "three"}), ["position.turn", "a whole number"]),
    "turn a flag": (_base(position={"turn": True}), ["position.turn", "the flag true"]),
    "positions a list": (_base(position={"positions": ["A1"]}), ["position.positions"]),
    "position cell off the board": (
        _base(position={"positions": {"emmett": "F9"}}),
        ["position.positions.emmett", "a cell such as C3"],
    ),
    "revealed a cell": (_base(position={"revealed": "A1"}), ["position.revealed", "cells"]),
    "programs a number": (_base(position={"programs": {"emmett": 1}}), ["programs.emmett"]),
    "alarm a text": (_base(position={"alarm": "yes"}), ["position.alarm", "true or false"]),
    "mac piles unknown": (_base(position={"mac": {"top": []}}), ["position.mac", "'top'"]),
    "expect a list": (_base(expect=[1]), ["scenario.expect", "mapping of expectations"]),
    "unknown expectation": (_base(expect={"postions": {}}), ["'postions'", "'positions'"]),
    "unknown cell in revealed": (
        _base(expect={"revealed": {"Z9": "acid"}}),
        ["expect.revealed key", "a cell such as C3", "Z9"],
    ),
    "unknown cell in hidden": (_base(expect={"hidden": ["K1"]}), ["expect.hidden[1]", "a cell"]),
    "sealed a number": (_base(expect={"sealed": 3}), ["expect.sealed", "a list of cells"]),
    "views not a list": (_base(expect={"views": {"seat": "1"}}), ["expect.views"]),
    "view unknown key": (_base(expect={"views": [{"seet": "1"}]}), ["views[1]", "'seat'"]),
    "excludes_text a text": (
        _base(expect={"views": [{"excludes_text": "guard"}]}),
        ["views[1].excludes_text", "a list of texts"],
    ),
    "step expect wrong": (_base(steps=[{"expect": {"hidden": "A1"}}]), ["steps[1].expect.hidden"]),
    "control_tokens a text": (_base(expect={"control_tokens": {"row2": "two"}}), ["row2"]),
    "refused_setup with steps": (
        {"refused_setup": {"setup": {}}, "steps": []},
        ["refused_setup", "nothing to play"],
    ),
    "refused_setup without setup": ({"refused_setup": {"reason": "x"}}, ["'setup'"]),
    "setup and refused_setup": ({"setup": {}, "refused_setup": {"setup": {}}}, ["one of the two"]),
    "unknown top key": (_base(expectations={}), ["'expectations'"]),
    "name a list": (_base(name=["a"]), ["scenario.name", "a text"]),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_scenario_is_named_in_one_line(tmp_path: Path, case: str) -> None:
    doc, words = MALFORMED[case]
    path = _write(tmp_path, doc)
    with pytest.raises(ScenarioFileError) as raised:
        read(path)
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(str(path)), message
    for word in words:
        assert word in message, (word, message)


def test_deep_nesting_is_refused_in_yaml_and_json(tmp_path: Path) -> None:
    deep: object = "x"
    for _ in range(200):
        deep = [deep]
    for suffix in (".yaml", ".json"):
        path = _write(tmp_path, {"setup": {}, "expect": {"pending": deep}}, suffix)
        with pytest.raises(ScenarioFileError, match="nested too deeply"):
            read(path)
    path = tmp_path / "brackets.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ScenarioFileError, match="nested too deeply"):
        read(path)


def test_a_file_over_the_size_bound_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("setup: {}\nname: " + "x" * MAX_BYTES + "\n")
    with pytest.raises(ScenarioFileError, match="larger than 256 kB"):
        read(path)


def test_an_empty_file_and_a_missing_one_are_told_apart(tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("\n")
    with pytest.raises(ScenarioFileError, match="the file is empty"):
        read(empty)
    with pytest.raises(ScenarioFileError, match="no such file"):
        scenario_files([tmp_path / "absent.yaml"])


def test_a_long_piece_of_input_is_cut_in_the_message(tmp_path: Path) -> None:
    key = "k" * 100_000
    path = _write(tmp_path, _base(position={key: 1}))
    with pytest.raises(ScenarioFileError) as raised:
        read(path)
    assert len(str(raised.value)) < len(str(path)) + 4 * QUOTE + 200


def test_a_number_too_long_to_read(tmp_path: Path) -> None:
    path = tmp_path / "n.json"
    path.write_text('{"setup": {"seed": ' + "9" * 5000 + "}}")
    with pytest.raises(ScenarioFileError, match="a number too long"):
        read(path)


def _mutations(doc: object, rng: random.Random) -> object:
    """One random change somewhere in a document: a value replaced by one of another shape."""
    odd = [None, True, 7, -1, 2.5, "", "Z9", "x" * 200, [], [1, [2]], {}, {"a": {"b": 1}}]
    doc = copy.deepcopy(doc)
    node = doc
    while True:
        if isinstance(node, dict) and node:
            key = rng.choice(list(node))
        elif isinstance(node, list) and node:
            key = rng.randrange(len(node))
        else:
            return doc
        child = node[key]
        if not isinstance(child, (dict, list)) or rng.random() < 0.3:
            node[key] = rng.choice(odd)
            return doc
        node = child


def test_random_misshapen_versions_of_real_scenarios_never_raise() -> None:
    """A fuzz: real scenario files with one value swapped for one of another shape either fail
    in plain words (a file, setup, position, step or expect failure) or still play; the runner
    never raises and never reports an internal error."""
    rng = random.Random(25)
    files = scenario_files([SCENARIOS])
    for _ in range(600):
        path = rng.choice(files)
        doc = _mutations(yaml.safe_load(path.read_text("utf-8")), rng)
        where = path.parent / f"fuzz-{path.name}"
        try:
            from companion.scenario.load import check_shape, normalise_setup

            check_shape(doc)
            normalised = normalise_setup(doc)  # type: ignore[arg-type]
        except ValueError as error:
            assert "\n" not in str(error)
            assert "scenario_" not in str(error)  # every code it reached is the catalogue's
            continue
        result = run_scenario(normalised, str(where))
        for failure in result.failures:
            assert "internal error" not in failure.reason, (path, failure)


def test_run_paths_reports_an_unreadable_file_as_a_failure(tmp_path: Path) -> None:
    path = _write(tmp_path, _base(steps=3))
    (result,) = run_paths([path])
    assert not result.ok
    assert result.failures[0].where == "file"


# The format's newer fields ---------------------------------------------------------------------


def test_refused_setup_passes_when_refused_and_fails_when_accepted() -> None:
    refused = {"refused_setup": {"setup": {"mode": "cooperation", "players": 9}, "reason": "2 to"}}
    assert run_scenario(refused).ok
    wrong_reason = {
        "refused_setup": {"setup": {"mode": "cooperation", "players": 9}, "reason": "x"}
    }
    assert "refused with" in run_scenario(wrong_reason).failures[0].reason
    accepted = {"refused_setup": {"setup": {"mode": "cooperation", "players": 4}}}
    assert run_scenario(accepted).failures[0].reason == "expected a refusal, was accepted"


def test_expectations_take_cells_however_written() -> None:
    doc = _base(
        position={"phase": "programming", "positions": {"emmett": "B3"}},
        expect={"positions": {"emmett": [2, 1]}, "revealed": {"b3": "empty"}, "hidden": ["a1"]},
    )
    assert run_scenario(doc).ok, run_scenario(doc).failures


def test_unsealed_fails_on_a_sealed_cell() -> None:
    doc = _base(position={"phase": "programming", "sealed": ["B4"]}, expect={"unsealed": ["B4"]})
    assert [f.reason for f in run_scenario(doc).failures] == ["B4 is still sealed"]


def test_action_limits_in_a_position_outside_programming_and_action_is_refused() -> None:
    doc = _base(position={"phase": "clue", "action_limits": {"emmett": 1}})
    failure = run_scenario(doc).failures[0]
    assert failure.where == "position" and "1 or 2 actions" in failure.reason
    doc = _base(position={"phase": "programming", "action_limits": {"emmett": 3}})
    assert "1 or 2 actions" in run_scenario(doc).failures[0].reason


def test_a_roles_expectation_about_an_unknown_character_is_a_failure_not_a_crash() -> None:
    doc = _base(expect={"roles_public": {"nobody": None}})
    assert run_scenario(doc).failures[0].reason == "'nobody' is not a character of this game"


def test_cell_expectations_in_a_game_without_a_board_say_so() -> None:
    doc = {"setup": {"mode": "cooperation", "players": 4, "tracking": "countdown"}}
    doc["expect"] = {"hidden": ["A1"]}
    assert "no board" in run_scenario(doc).failures[0].reason


def test_a_version_written_as_a_flag_is_refused_not_counted_as_1() -> None:
    """`"version": true` is not the game's first moment: the command parser refuses it."""
    doc = _base(
        steps=[
            {
                "refused": {"type": "clue", "seat": "1", "cell": "B3", "version": True},
                "reason": "whole number",
            }
        ]
    )
    assert run_scenario(doc).ok, run_scenario(doc).failures


def test_control_tokens_in_a_position_need_a_line_with_a_control() -> None:
    doc = _base(position={"phase": "action", "control_tokens": {"row2": 2}})
    failure = run_scenario(doc).failures[0]
    assert failure.where == "position" and "controls" in failure.reason
    doc = _base(position={"controls": {"row2": "east"}, "control_tokens": {"row2": 0}})
    assert "1 or more" in run_scenario(doc).failures[0].reason
