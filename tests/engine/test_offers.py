"""`legal_commands` hands out shared values: each character's programmes and each seat's
reminder tokens are built once and offered again by later calls. Nothing in the engine may
change an offered command, or a later offer would be wrong."""

from __future__ import annotations

import copy
import random

import pytest

from companion.engine import HOST, apply, legal_commands, start

SETUPS = [
    {"edition": "base", "mode": "suspicion", "players": 5},
    {"edition": "ultimate", "mode": "cooperation", "players": 4, "settings": {"mac": "standard"}},
    {"edition": "ultimate", "mode": "suspicion", "players": 8},
    {"edition": "season2", "mode": "solo", "players": 1, "tracking": "physical"},
]


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s['edition']}-{s['mode']}")
def test_playing_the_offers_changes_none_of_them(setup: dict) -> None:
    for number in range(3):
        rng = random.Random(number)
        state = start({**setup, "seed": number}).state
        handed: list[tuple[dict, dict]] = []
        while state.outcome is None:
            offered = [c for seat in [*state.seats, HOST] for c in legal_commands(state, seat)]
            handed.extend((c, copy.deepcopy(c)) for c in offered)
            result = apply(state, rng.choice(offered))
            assert result.ok, result.refusal
            state = result.state
        assert all(command == as_offered for command, as_offered in handed)


def test_a_programme_offered_again_is_the_same_value() -> None:
    """The sharing itself: a seat asked twice gets the very same programme commands."""
    state = start({"edition": "base", "mode": "suspicion", "players": 5, "seed": 1}).state
    for seat in state.seats:
        state = apply(state, legal_commands(state, seat)[0]).state
    first, again = legal_commands(state, "2"), legal_commands(state, "2")
    programmes = [c for c in first if c["type"] == "program"]
    assert programmes and all(a is b for a, b in zip(first, again, strict=True))
