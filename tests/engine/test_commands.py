"""The engine's edge: typed commands parsed once, one wire form, a JSON Schema for each type."""

from __future__ import annotations

import random

import jsonschema
import pytest

from companion.engine import (
    COMMAND_SCHEMA,
    COMMAND_TYPES,
    HOST,
    apply,
    legal_commands,
    parse,
    start,
    wire,
)
from companion.engine.face.commands import Act, Program

VALIDATOR = jsonschema.Draft202012Validator(COMMAND_SCHEMA)


def _game(**setup: object):
    result = start({"mode": "suspicion", "players": 5, "seed": 3, **setup})
    assert result.ok, result.refusal
    return result.state


def test_the_schema_is_a_valid_json_schema_with_one_definition_per_command_type() -> None:
    jsonschema.Draft202012Validator.check_schema(COMMAND_SCHEMA)
    assert set(COMMAND_SCHEMA["$defs"]) == set(COMMAND_TYPES)
    for kind, schema in COMMAND_SCHEMA["$defs"].items():
        assert schema["properties"]["type"] == {"const": kind}
        assert schema["additionalProperties"] is False


def _random_play(setup: dict, steps: int, seed: int):
    """Yield every state of a random legal game with the commands offered in it."""
    rng = random.Random(seed)
    state = _game(**setup)
    for _ in range(steps):
        if state.outcome is not None:
            return
        offered = [c for s in [*state.seats, HOST] for c in legal_commands(state, s)]
        yield state, offered
        state = apply(state, rng.choice(offered)).state


@pytest.mark.parametrize(
    "setup",
    [
        {"edition": "base"},
        {"edition": "ultimate", "tracking": "physical"},
        {"edition": "season2", "mode": "cooperation", "players": 4, "settings": {"mac": "madness"}},
        {"edition": "ultimate", "tracking": "countdown", "settings": {"programming": "tokens"}},
        {"edition": "ultimate", "settings": {"programming": "tokens"}},
    ],
)
def test_every_command_legal_commands_offers_validates_against_the_schema(setup: dict) -> None:
    seen = set()
    for _state, offered in _random_play(setup, 150, seed=len(str(setup))):
        for command in offered:
            VALIDATOR.validate(command)
            seen.add(command["type"])
    assert {"program", "act"} & seen or {"lock", "next"} & seen


def test_a_typed_command_and_its_wire_form_read_back_to_each_other() -> None:
    command = Act(seat="2", character="kevin", action="talent", cells=("A1", "B2"), from_="C2")
    sent = wire(command)
    assert sent == {
        "type": "act",
        "seat": "2",
        "character": "kevin",
        "action": "talent",
        "cells": ["A1", "B2"],
        "from": "C2",
    }
    assert parse(sent) == command
    VALIDATOR.validate(sent)


def test_program_defaults_lock_in_and_no_adrenaline() -> None:
    command = parse({"type": "program", "seat": "1", "character": "max", "actions": ["look"]})
    assert command == Program(seat="1", character="max", actions=("look",))
    assert command.lock_in is True and command.adrenaline is False


MALFORMED = [
    ("not a dict", "not_a_command"),
    ({"seat": "1"}, "not_a_command"),
    ({"type": "dance", "seat": "1"}, "unknown_command"),
    ({"type": "clue", "seat": "1", "cell": "C2", "colour": "red"}, "unknown_field"),
    ({"type": "clue", "seat": "1", "cell": "c2"}, "field_not_a_cell"),
    ({"type": "clue", "seat": "1", "cell": [1, 2]}, "field_not_a_cell"),
    ({"type": "act", "seat": "1", "action": "fly"}, "field_not_one_of"),
    ({"type": "act", "seat": "1", "direction": "up"}, "field_not_one_of"),
    ({"type": "program", "seat": "1", "character": "max", "adrenaline": "yes"}, "field_not_a_flag"),
    ({"type": "program", "seat": "1", "character": "max", "actions": "look"}, "field_not_a_list"),
    ({"type": "program", "seat": "1", "character": 7}, "field_not_a_word"),
    ({"type": "next", "seat": "1", "version": True}, "field_not_a_version"),
    ({"type": "next", "seat": "1", "version": -1}, "field_not_a_version"),
    ({"type": "next", "seat": "engine"}, "unknown_seat"),
    ({"type": "next"}, "unknown_seat"),
]


@pytest.mark.parametrize(("command", "code"), MALFORMED)
def test_a_malformed_command_is_refused_at_the_door_with_its_code(command, code) -> None:
    state = _game()
    result = apply(state, command)
    assert not result.ok
    assert result.refusal.code == code
    assert result.state is state and state.version == _game().version
    assert str(result.refusal) and result.refusal.text("fr") != str(result.refusal)


def test_a_command_from_the_future_is_refused_in_its_own_words() -> None:
    state = _game()
    result = apply(state, {"type": "clue", "seat": "1", "cell": "C2", "version": state.version + 3})
    assert result.refusal.code == "future_version"
    stale = apply(state, {"type": "clue", "seat": "1", "cell": "C2", "version": state.version - 1})
    assert stale.refusal.code == "stale_version"
