"""Versions of a state share what a command does not change: a refused command must still
change nothing, an accepted one must leave the version it started from as it was, and no rule
may read a character it has already changed through an old reference."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from dataclasses import MISSING, Field, fields
from pathlib import Path

import pytest

from companion.engine import HOST, GameState, Result, apply, legal_commands, replay, start
from companion.engine.kernel import evolve as evolve_module
from companion.engine.kernel.grid import DIRECTIONS
from companion.engine.kernel.ruleset import EDITIONS, MODES
from companion.engine.kernel.state import Character
from companion.engine.rules.compose import legal_players
from companion.scenario import run as scenario_run
from companion.scenario.load import read, scenario_files

Apply = Callable[[GameState, object], Result]
SCENARIOS = Path(__file__).parent.parent / "scenarios"
# Every edition and mode, with the settings that bring the most rules into play.
SETUPS = [
    {"edition": edition, "mode": mode, "players": max(legal_players(edition, mode)), **extra}
    for edition in EDITIONS
    for mode in MODES
    for extra in (
        {},
        {"tracking": "physical", "settings": {"mac": "madness", "mac_deck": "physical"}},
        {"settings": {"mac": "standard", "programming": "tokens"}},
    )
]


def _games(setups: list[dict], play: Apply = apply) -> Iterator[tuple[GameState, dict]]:
    """Every position of random legal games, with the command played there."""
    for number, setup in enumerate(setups):
        rng = random.Random(number)
        state = start({**setup, "seed": number}).state
        while state.outcome is None:
            options = [c for seat in [*state.seats, HOST] for c in legal_commands(state, seat)]
            command = rng.choice(options)
            yield state, command
            result = play(state, command)
            assert result.ok, (command, result.refusal)
            state = result.state


# The kind of value of the fields that have no default, or None: the compiled build keeps no
# optional types in its annotations, so they are named here (a new such field must be added).
OPTIONAL_KINDS = {
    "id": str,
    "seat": str,
    "tile": int,
    "exposed_turn": int,
    "trapped": int,
    "flooded": int,
    "talent_choice": str,
    "came_from": int,
    "paranoia": tuple,
}


def _unlike_default(f: Field, number: int) -> object:
    """A value of the field's kind that its default is not, so a field the copy forgot shows."""
    kind = OPTIONAL_KINDS[f.name] if f.default in (MISSING, None) else type(f.default)
    if kind is bool:
        return not f.default
    if kind is int:
        return 1000 + number
    if kind is tuple:
        return (f"token{number}",)
    return f"value{number}"


def test_character_copy_keeps_every_field() -> None:
    values = {f.name: _unlike_default(f, n) for n, f in enumerate(fields(Character))}
    assert all(values[f.name] != f.default for f in fields(Character))
    original = Character(**values)
    copy = original.copy()
    assert copy is not original
    assert all(getattr(copy, name) == value for name, value in values.items())


def test_clone_and_copies_keep_every_field() -> None:
    """They copy field by field: a field one forgot would be missing from the copy."""
    setup = {"edition": "ultimate", "mode": "suspicion", "players": 5, "seed": 4}
    state = start({**setup, "settings": {"mac": "standard"}}).state
    new = state.clone()
    for f in fields(GameState):
        if f.name not in ("characters", "fresh"):
            assert getattr(new, f.name) is getattr(state, f.name), f.name
    assert new.characters == state.characters and new.characters is not state.characters
    assert new.fresh == set() and state.fresh == set()
    assert state.mac is not None and state.mac.draw
    for original in [*state.seats.values(), state.mac]:
        copied = original.copy()
        assert copied == original and copied is not original
        for f in fields(original):
            value = getattr(copied, f.name)
            assert value == getattr(original, f.name)
            if isinstance(value, (list, dict)):  # a container the copy changes is its own
                assert value is not getattr(original, f.name), f.name


def test_a_command_copies_only_the_characters_it_changes() -> None:
    state = start({"mode": "suspicion", "players": 5, "seed": 3}).state
    for seat in state.seats:
        state = apply(state, legal_commands(state, seat)[0]).state
    command = next(c for c in legal_commands(state, "2") if c["type"] == "program")
    after = apply(state, command).state
    changed = {cid for cid, c in after.characters.items() if c is not state.characters[cid]}
    assert changed == {command["character"]}
    assert after.characters[command["character"]].program == tuple(command["actions"])
    assert state.characters[command["character"]].program == ()
    assert after.tiles is state.tiles and after.cells is state.cells


def test_a_command_leaves_the_state_it_started_from_unchanged() -> None:
    """Accepted or refused, even refused half-way (an act in a direction the rules forbid is
    refused after its token was revealed): every value of the old version is as it was."""
    refused = 0
    for state, command in _games(SETUPS[1::3]):
        # The rules, the M.A.C. card definitions and the tiles are immutable (frozen) values,
        # shared by every version: only what holds them can change.
        immutable = [state.ruleset, state.mac_deck, *state.tiles.values()]
        shared = {id(value): value for value in immutable}
        before = copy.deepcopy(state, shared)
        elsewhere = [d for d in DIRECTIONS if "direction" in command and d != command["direction"]]
        for attempt in [command, *({**command, "direction": d} for d in elsewhere)]:
            result = apply(state, attempt)
            refused += not result.ok
            assert state == before and state.version == before.version
    assert refused > 100


def test_replay_rebuilds_a_state_that_shared_its_values() -> None:
    """The fold rebuilds every version, the face-up Room 25 it keeps track of included, and the
    place of each tile (`places`, `cells` read the other way) follows the slides and swaps
    (equality of states leaves it out, so it is compared here)."""
    moved = 0
    for number, setup in enumerate(SETUPS[:15]):
        rng = random.Random(number)
        result = start({**setup, "seed": number})
        state, events = result.state, list(result.events)
        while state.outcome is None:
            options = [c for seat in [*state.seats, HOST] for c in legal_commands(state, seat)]
            result = apply(state, rng.choice(options))
            moved += result.state.cells != state.cells
            state = result.state
            events.extend(result.events)
            face_up = [t.id for t in state.tiles.values() if t.revealed and t.kind == "room25"]
            assert [state.room25] == (face_up or [None])
            assert state.places == {tile: cell for cell, tile in enumerate(state.cells)}
        rebuilt = replay(events)
        assert rebuilt == state and rebuilt.places == state.places
    assert moved > 50


def test_a_position_that_lays_the_tiles_again_moves_their_places_too() -> None:
    """A written-down position may name the tiles on each cell (`position_set` takes any of
    the state's fields): the fold lays them, and each tile's cell (`places`) follows."""
    result = start({"mode": "cooperation", "players": 2, "seed": 3})
    events = list(result.events)
    turned = list(reversed(result.state.cells))
    state = replay([*events, {"type": "position_set", "cells": turned}])
    assert state.places == {tile: cell for cell, tile in enumerate(turned)}
    assert state.cells == turned


class _Replaced(Character):
    """A character some event of the command in progress has already copied: reading him
    (but his name and seat, which never change) reads an old version."""

    __slots__ = ()

    def __getattribute__(self, name: str) -> object:
        if name in ("id", "seat", "__class__"):
            return object.__getattribute__(self, name)
        cid = object.__getattribute__(self, "id")
        raise AssertionError(f"a rule read {cid}.{name} from a version an event replaced")


@pytest.fixture
def watched_apply(monkeypatch: pytest.MonkeyPatch) -> Apply:
    """`apply` during which a character replaced by his copy refuses to be read; he is himself
    again once it returns, since the version before the command still holds him."""
    replaced: list[Character] = []
    copy_on_write = evolve_module._character

    def watched_character(state: GameState, cid: str) -> Character:
        old = state.characters[cid]
        new = copy_on_write(state, cid)
        if new is not old:
            old.__class__ = _Replaced
            replaced.append(old)
            watched.copies += 1  # type: ignore[attr-defined]
        return new

    def watched(state: GameState, command: object) -> Result:
        try:
            return apply(state, command)
        finally:
            for c in replaced:
                c.__class__ = Character
            replaced.clear()

    monkeypatch.setattr(evolve_module, "_character", watched_character)
    monkeypatch.setattr(scenario_run, "apply", watched)
    watched.copies = 0  # type: ignore[attr-defined]  # how many characters were replaced
    return watched


@pytest.mark.interpreted
def test_no_rule_reads_a_character_an_event_replaced(watched_apply: Apply) -> None:
    """Rules hold a character across an event only by his name: every scenario and random
    games of every edition and mode run with old versions refusing to be read."""
    for path in scenario_files([SCENARIOS]):
        result = scenario_run.run_scenario(read(path), str(path))
        assert not result.failures, (path, result.failures)
    assert sum(1 for _ in _games(SETUPS, watched_apply)) > 1000
    assert watched_apply.copies > 1000  # type: ignore[attr-defined]  # the watch saw the fold
