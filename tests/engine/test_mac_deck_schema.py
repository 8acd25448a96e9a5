"""The deck file's JSON Schema (`room25 deck --schema`) against the reader that the companion
runs: checked with the reference validator (jsonschema), on the packaged deck and on deck files
made by changing its cards at random, the reader accepts exactly what the schema accepts, apart
from the checks a schema cannot say (docstring of companion/engine/kernel/mac_schema.py)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from importlib import resources
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from companion.engine import deck_schema
from companion.engine.kernel.mac_cards import DeckError
from companion.engine.kernel.mac_deck import deck_from_data

PACKAGED = json.loads(
    resources.files("companion.engine").joinpath("data/mac_deck.json").read_text("utf-8")
)
VALIDATOR = Draft202012Validator(deck_schema())

# What only the reader can refuse, in its own words (a file the schema accepts may still fail
# on these, and on nothing else).
READER_ONLY = (
    "is already the id of card",  # ids unique across cards
    "cards in all; a deck holds at most",  # the deck's size
    "must carry its name and text",  # a card of the owner's own invention
)

FIELDS = [
    *sorted({name for card in PACKAGED["cards"] for name in card}),
    "characters",
    "colour",
    "name_en",
    "text_fr",
    "minimap",
    "colur",
    "Level",
]
TOP_FIELDS = ["_about", "_note", "$schema", "about", "deck"]
WORDS = [
    "standard",
    "madness",
    "basic",
    "complex_movement",
    "punishment",
    "disabled_rooms",
    "blackout",
    "rewind",
    "kraken",
    "east",
    "west",
    "north",
    "south",
    "up",
    "row",
    "col",
    "row1",
    "row3",
    "colA",
    "colC",
    "row6",
    "green",
    "blue",
    "emmett",
    "kevin",
    "nobody",
    "move-row0-east",
    "",
    " ",
    "a b",
    "x",
]
VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-2, max_value=70),
        st.sampled_from(WORDS),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["axis", "index", "side"]), inner, max_size=3),
    ),
    max_leaves=4,
)
# The values a field's mistakes are most often made of: near misses of its own values.
NEAR: dict[str, list[Any]] = {
    "kind": ["complex_movement", "punishment", "disabled_rooms", "blackout", "kraken", 3],
    "level": ["standard", "madness", "basic", "Standard", None],
    "count": [0, 1, 2, 60, 61, -1, True, "2"],
    "id": ["move-row0-east", "a b", "", " x", 7],
    "direction": ["east", "west", "north", "south", "up", None],
    "line": [
        "row1",
        "row3",
        "colA",
        "colC",
        "row6",
        {"axis": "col", "index": 0},
        {"axis": "row", "index": 2},
        {"axis": "row", "index": 5},
        {"axis": "row", "index": True},
        {"axis": "row", "index": 1, "side": "up"},
        {"axis": "row"},
    ],
    "twice": [True, False, 1, "yes"],
    "draw_again": [True, False, 0, None],
    "characters": [["emmett", "kevin"], ["emmett", "emmett"], ["emmett"], ["kevin", "nobody"]],
    "colour": ["green", "yellow", "red", "blue", ["red"]],
    "name_en": ["Rewind", "", " ", 5],
    "text_fr": ["Retour", "", None],
}


def _value(field: str) -> st.SearchStrategy[Any]:
    return st.one_of(st.sampled_from(NEAR[field]), VALUES) if field in NEAR else VALUES


def one_of_each_kind() -> list[dict]:
    """A card of each kind in the packaged deck, a row's and a column's movement apart."""
    seen: dict[tuple, dict] = {}
    for card in PACKAGED["cards"]:
        line = card.get("line")
        seen.setdefault((card["kind"], line["axis"] if isinstance(line, dict) else None), card)
    return list(seen.values())


def agree(deck: dict) -> None:
    """The reader refuses what the schema refuses, and refuses a file the schema takes only for
    what a schema cannot say."""
    problems = reader_problems(deck)
    if VALIDATOR.is_valid(deck):
        assert all(any(words in problem for words in READER_ONLY) for problem in problems), deck
    else:
        assert problems, (deck, [error.message for error in VALIDATOR.iter_errors(deck)])


def reader_problems(data: Any) -> list[str]:
    try:
        deck_from_data(data, "test deck")
    except DeckError as error:
        return [str(problem) for problem in error.problems]
    return []


def change(data: st.DataObject, card: dict) -> None:
    """One mistake in a card: mostly in a field the card has, sometimes in any field."""
    field = data.draw(st.one_of(st.sampled_from(sorted(card)), st.sampled_from(FIELDS)))
    if data.draw(st.booleans()):
        card.pop(field, None)
    else:
        card[field] = data.draw(_value(field))


def test_the_schema_is_a_schema_and_takes_the_packaged_deck() -> None:
    Draft202012Validator.check_schema(deck_schema())
    assert VALIDATOR.is_valid(PACKAGED)
    assert reader_problems(PACKAGED) == []


def test_room25_deck_schema_prints_it() -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "companion.cli", "deck", "--schema"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(printed) == deck_schema()


@settings(max_examples=400, deadline=None)
@given(
    picks=st.lists(st.integers(min_value=0, max_value=len(PACKAGED["cards"]) - 1), min_size=1),
    top=st.dictionaries(st.sampled_from(TOP_FIELDS), VALUES, max_size=2),
    data=st.data(),
)
def test_the_reader_accepts_exactly_what_the_schema_accepts(
    picks: list[int], top: dict, data: st.DataObject
) -> None:
    cards = [copy.deepcopy(PACKAGED["cards"][pick]) for pick in dict.fromkeys(picks)]
    for _ in range(data.draw(st.integers(min_value=0, max_value=3))):
        change(data, data.draw(st.sampled_from(cards)))
    agree({"cards": cards, **top})


def test_every_single_mistake_is_judged_alike_by_the_reader_and_the_schema() -> None:
    """Each card kind, each field dropped or given each of its near misses."""
    for card in one_of_each_kind():
        for field in FIELDS:
            dropped = {name: value for name, value in card.items() if name != field}
            agree({"cards": [dropped]})
            for value in NEAR.get(field, WORDS[:3]):
                agree({"cards": [{**card, field: value}]})
