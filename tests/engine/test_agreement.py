"""`legal_commands` and `apply` agree both ways: what is offered is accepted, and what is
accepted was offered (up to the documented modifiers `version` and `lock_in`, and the ways of
saying the same thing: a cell for a direction, a character named or left out)."""

from __future__ import annotations

import random

import pytest

from companion.engine import COMMAND_TYPES, HOST, apply, legal_commands, start
from companion.engine.face.commands import CELL_NAMES, DIRECTIONS, TOKENS

CELLS = list(CELL_NAMES)

TOKENS_PROGRAMMING = {"programming": "tokens"}
TABLES = [
    {"edition": "base", "mode": "suspicion", "players": 5},
    {"edition": "base", "mode": "solo", "players": 1},
    {"edition": "season2", "mode": "cooperation", "players": 4, "settings": {"mac": "madness"}},
    {"edition": "ultimate", "mode": "suspicion", "players": 6, "tracking": "physical"},
    {"edition": "ultimate", "mode": "cooperation", "players": 3, "tracking": "countdown"},
    {"edition": "ultimate", "mode": "suspicion", "players": 5, "settings": TOKENS_PROGRAMMING},
    {"edition": "base", "mode": "team", "players": 4, "settings": TOKENS_PROGRAMMING},
    # Every tracking level, Suspicion (where guards expose) and a together mode each.
    {"edition": "base", "mode": "suspicion", "players": 4, "tracking": "countdown"},
    {"edition": "season2", "mode": "suspicion", "players": 5, "tracking": "countdown"},
    {"edition": "base", "mode": "suspicion", "players": 6, "tracking": "physical"},
    {"edition": "base", "mode": "cooperation", "players": 4, "tracking": "physical"},
    {"edition": "season2", "mode": "cooperation", "players": 5, "tracking": "countdown"},
]
TRACKING = ("dealt", "physical", "countdown")
# The table's word about the world outside the engine, accepted without being offered
# (docs/engine.md, "Legal commands and apply agree"): the countdown's reports, the host's
# correction of physical reports.
TABLE_WORD = ("report", "correct")


def test_every_tracking_level_is_played_in_suspicion_and_in_a_together_mode() -> None:
    played = {(t.get("tracking", "dealt"), t["mode"] == "suspicion") for t in TABLES}
    assert played == {(level, suspicion) for level in TRACKING for suspicion in (True, False)}


def _offered(state) -> list[dict]:
    return [c for seat in [*state.seats, HOST] for c in legal_commands(state, seat)]


def _variant(state, rng: random.Random, offered: list[dict]) -> dict:
    """A well-formed command near the legal ones: a legal command with one field changed,
    added or removed, or a command of a random type from a random seat."""
    seats = [*state.seats, HOST]
    words = {
        "character": list(state.characters),
        "target": list(state.characters),
        "seat": seats,
        "direction": list(DIRECTIONS),
        "action": list(TOKENS),
        "cell": CELLS,
        "robot": CELLS,
        "room": sorted(state.composition) or ["empty"],
        "answer": ["pushed", "stays", "come", "stay"],
        "adrenaline": [True, False],
        "actions": [[a] for a in TOKENS] + [["look", "move"], ["move", "move"]],
        "order": ["move", "push"],
    }
    if offered and rng.random() < 0.8:
        command = dict(rng.choice(offered))
        move = rng.random()
        if move < 0.6:
            key = rng.choice(sorted(words))
            command[key] = rng.choice(words[key])
        elif move < 0.8 and len(command) > 2:
            del command[rng.choice([k for k in command if k not in ("type", "seat")])]
        return command
    kind = rng.choice(sorted(COMMAND_TYPES))
    command = {"type": kind, "seat": rng.choice(seats)}
    for key in rng.sample(sorted(words), 2):
        command[key] = rng.choice(words[key])
    return command


def _bare(state) -> list[dict]:
    """Every command type from every seat with nothing else said: what a bare button sends."""
    return [{"type": kind, "seat": seat} for kind in COMMAND_TYPES for seat in [*state.seats, HOST]]


def _same_effect(state, command: dict, offered: list[dict]) -> bool:
    """Whether some offered command has exactly the accepted command's effect."""
    effect = apply(state, command).events
    return any(apply(state, o).events == effect for o in offered if o["seat"] == command["seat"])


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t['edition']}-{t['mode']}")
def test_legal_commands_and_apply_agree_both_ways(table: dict) -> None:
    rng = random.Random(25)
    accepted_variants = 0
    for game in range(3):
        state = start({**table, "seed": game}).state
        for _ in range(120):
            if state.outcome is not None:
                break
            offered = _offered(state)
            assert offered, f"nothing offered in phase {state.phase}"
            for command in offered:
                assert apply(state, command).ok, command
            for variant in _bare(state):
                result = apply(state, variant)
                if result.ok and variant["type"] not in TABLE_WORD:
                    assert _same_effect(state, variant, offered), variant
            for _ in range(12):
                variant = _variant(state, rng, offered)
                variant.pop("lock_in", None)
                result = apply(state, variant)
                if result.ok and variant["type"] not in TABLE_WORD:
                    accepted_variants += 1
                    assert _same_effect(state, variant, offered), variant
            state = apply(state, rng.choice(offered)).state
    assert accepted_variants > 0
