"""`legal_commands` hands out shared values: each character's programmes and each seat's
reminder tokens are built once and offered again by later calls. Nothing in the engine may
change an offered command, or a later offer would be wrong."""

from __future__ import annotations

import copy
import random

import pytest

from companion.engine import HOST, apply, legal_commands, start, waiting_for
from companion.engine.face.reading import parse

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


def test_an_offer_sent_back_is_read_once() -> None:
    """The fast path for the engine's own commands (`reading.shared`): an offered command
    handed back is read once, later sends reuse its typed form; an equal command made
    elsewhere (a phone's JSON) is read on its own, to the same typed command."""
    state = start({"edition": "base", "mode": "suspicion", "players": 5, "seed": 1}).state
    for seat in state.seats:
        state = apply(state, legal_commands(state, seat)[0]).state
    offer = next(c for c in legal_commands(state, "2") if c["type"] == "program")
    assert parse(offer) is parse(offer)
    sent = copy.deepcopy(offer)
    assert parse(sent) == parse(offer) and parse(sent) is not parse(offer)


def test_a_changed_copy_of_an_offer_is_read_as_sent() -> None:
    """A copy of an offer with a field changed is read as written: a flag sent as 1 is
    refused, though it compares equal to True, and a version is checked against the game."""
    state = start({"edition": "base", "mode": "suspicion", "players": 5, "seed": 1}).state
    for seat in state.seats:
        state = apply(state, legal_commands(state, seat)[0]).state
    offer = next(c for c in legal_commands(state, "2") if c["type"] == "program")
    apply(state, offer)  # read once, and kept
    flagged = apply(state, {**offer, "lock_in": 1})
    assert flagged.refusal is not None and flagged.refusal.code == "field_not_a_flag"
    stale = apply(state, {**offer, "version": state.version - 1})
    assert stale.refusal is not None and stale.refusal.code == "stale_version"
    assert apply(state, offer).ok


def test_an_action_offered_again_is_the_same_value() -> None:
    """A basic action's commands are shared too: asked twice, the seat to act gets the very
    same commands."""
    state = start({"edition": "base", "mode": "suspicion", "players": 5, "seed": 2}).state
    while state.phase != "action":
        seat = next(s for s in waiting_for(state).seats if legal_commands(state, s))
        state = apply(state, legal_commands(state, seat)[0]).state
    assert state.current is not None
    seat = state.characters[state.current].seat
    first, again = legal_commands(state, seat), legal_commands(state, seat)
    acts = [c for c in first if c["type"] == "act"]
    assert acts and all(a is b for a, b in zip(first, again, strict=True))
