"""Bad input gets a plain answer and changes nothing: malformed commands and setups are refused
with a reason, never with an exception, and the state given is returned untouched."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import apply, full_view, legal_commands, start
from companion.engine.kernel.refusals import Refusal


def _game():
    result = start({"edition": "ultimate", "mode": "cooperation", "players": 4, "seed": 3})
    assert result.ok, result.refusal
    return result.state


@pytest.mark.parametrize(
    "command",
    [
        "move north",
        None,
        [],
        {},
        {"type": 7},
        {"type": "dance", "seat": "1"},
        {"type": "clue", "seat": "9", "cell": "C2"},
        {"type": "clue", "seat": "1"},
        {"type": "clue", "seat": "1", "cell": "Z9"},
        {"type": "clue", "seat": "1", "cell": [9, 9]},
        {"type": "clue", "seat": "1", "cell": "A1"},
        {"type": "program", "seat": "1", "character": "emmett", "actions": ["move"]},
        {"type": "act", "seat": "1", "character": "emmett", "direction": "up"},
        {"type": "choose", "seat": "1", "cell": "C2"},
        {"type": "reminder", "seat": "1", "cell": True},
        {"type": "clue", "seat": "1", "cell": "C2", "version": -1},
        {"type": "clue", "seat": "host", "cell": "C2"},
        {"type": "reminder", "seat": ["1"], "cell": "C2"},
        {"type": "program", "seat": "1", "character": {"id": "emmett"}, "actions": ["move"]},
        {"type": "program", "seat": "1", "character": "emmett", "actions": "move"},
    ],
)
def test_a_malformed_command_is_refused_plainly_and_changes_nothing(command: object) -> None:
    state = _game()
    before = full_view(state)
    result = apply(state, command)
    assert not result.ok
    assert result.refusal.code and str(result.refusal).endswith(".")
    assert result.state is state and result.events == []
    assert full_view(state) == before


@pytest.mark.parametrize(
    "setup",
    [
        "suspicion",
        {"mode": "chess"},
        {"edition": "season3"},
        {"mode": "suspicion", "players": "five"},
        {"mode": "suspicion", "players": 9},
        {"mode": "suspicion", "seed": "lucky"},
        {"mode": "suspicion", "tracking": "psychic"},
        {"mode": "suspicion", "settings": {"turbo": True}},
        {"mode": "suspicion", "settings": "fast"},
        {"mode": "suspicion", "settings": {"masks": "vote"}},
        {"mode": "suspicion", "settings": {"alarm": "yes"}},
        {"mode": "suspicion", "composition": "nonsense"},
        {"mode": "suspicion", "composition": {"rooms": {"mortal": 23}}},
        {"mode": "cooperation", "players": 4, "complex": [["central"]]},
        {"edition": "season2", "mode": "cooperation", "settings": {"mac": "extreme"}},
        {"edition": "season2", "mode": "cooperation", "deck": {"cards": "all"}},
    ],
)
def test_an_impossible_setup_is_refused_plainly(setup: object) -> None:
    result = start({"seed": 0, **setup} if isinstance(setup, dict) else setup)
    assert not result.ok
    assert result.refusal.code and len(str(result.refusal)) > 10


VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 30),
    st.text(max_size=6),
    st.lists(st.integers(-1, 6), max_size=3),
    st.sampled_from(["C2", "B3", "A1", "north", "emmett", "move", "look", "1", "2", "host"]),
)
FIELDS = st.sampled_from(
    [
        "seat",
        "character",
        "cell",
        "direction",
        "action",
        "actions",
        "target",
        "room",
        "token",
        "card",
        "line",
        "robot",
        "order",
        "adrenaline",
        "version",
        "event",
        "characters",
    ]
)
TYPES = st.sampled_from(
    ["clue", "program", "act", "wait", "pass", "choose", "reminder", "expose", "next", "report"]
)


@settings(max_examples=300, deadline=None)
@given(kind=TYPES, fields=st.dictionaries(FIELDS, VALUES, max_size=5), steps=st.integers(0, 40))
def test_random_garbage_never_raises_and_never_changes_the_state(
    kind: str, fields: dict, steps: int
) -> None:
    state = _game()
    for _ in range(steps):  # reach a varied moment of the game first
        options = [c for seat in state.seats for c in legal_commands(state, seat)]
        if not options:
            break
        state = apply(state, options[len(options) // 2]).state
    before = full_view(state)
    result = apply(state, {"type": kind, **fields})
    if not result.ok:
        assert result.state is state and full_view(state) == before


def test_a_refusal_crosses_processes_whole() -> None:
    """`room25 simulate --jobs` hands a refused setup back from another process."""
    refusal = start({"mode": "suspicion", "players": 9, "seed": 1}).refusal
    assert refusal is not None
    again = pickle.loads(pickle.dumps(refusal))
    assert again == refusal and str(again) == str(refusal)


def test_a_bad_deck_in_a_new_game_is_refused_in_the_readers_language() -> None:
    """The deck's mistake travels as catalogue codes, not as an English sentence: the refusal
    is said in French, also once its values have crossed JSON (as a page gets them)."""
    setup = {"seed": 0, "edition": "season2", "mode": "cooperation", "deck": {"cards": "all"}}
    refusal = start(setup).refusal
    crossed = Refusal(refusal.code, json.loads(json.dumps(refusal.params)))
    french = (
        "Paquet M.A.C.\u00a0: deck\u00a0: niveau supérieur, champ « cards »\u00a0: "
        "doit être une liste, pas le texte « all »"
    )
    assert refusal.code == "mac_deck_problem"
    assert refusal.text("fr") == crossed.text("fr") == french
    assert "must be" in refusal.text("en") and "must be" not in french


def test_a_deck_with_many_mistakes_is_refused_one_a_line_in_french() -> None:
    cards = [{"id": "x"}, {"kind": 3}]
    setup = {"seed": 0, "edition": "season2", "mode": "cooperation", "deck": {"cards": cards}}
    lines = start(setup).refusal.text("fr").split("\n  - ")
    assert lines[0] == "Paquet M.A.C.\u00a0: deck\u00a0: 7 problèmes\u00a0:"
    assert lines[1] == "carte 1 (id « x »)\u00a0: le champ « count » manque\u00a0: " + (
        "indiquez combien d'exemplaires de cette carte le paquet contient"
    )
    assert len(lines) == 8


def test_a_refused_composition_is_said_in_french() -> None:
    refusal = start({"seed": 0, "mode": "suspicion", "composition": "nonsense"}).refusal
    assert refusal.code == "composition_problem"
    assert refusal.text("fr") == (
        "Composition\u00a0: composition inconnue « nonsense » (room25 compose les liste)."
    )
