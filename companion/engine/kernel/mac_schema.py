"""The deck file's structure as a JSON Schema (draft 2020-12), built from the card model's own
catalogues so that it cannot drift from them.

Owners get it from ``room25 deck --schema`` for their editor (completion, a mark under a typo
before the companion ever reads the file). The companion itself reads a deck with mac_deck.py,
which says every problem at once in plain words; tests/engine/test_mac_deck_schema.py checks with
the reference validator that the reader accepts exactly the files this schema accepts. What a
schema cannot say stays the reader's alone: ids unique across cards, the deck's total size, the
words a card of the owner's own invention must carry, and a count written as ``1.0`` (JSON
Schema calls it an integer; the reader asks for a whole number written as one).
"""

from __future__ import annotations

from typing import Any

from companion import words

from .grid import line_key
from .mac_cards import (
    AXIS_DIRECTIONS,
    CHARACTER_IDS,
    DISABLED_COLOURS,
    KIND_LEVELS,
    MOVABLE_INDICES,
)
from .ruleset import MAC_LEVEL_SPELLINGS

__all__ = ["DERIVED_FIELDS", "MAX_COPIES", "deck_schema", "display_fields"]

MAX_COPIES = 60  # of one card
# Written by deck_as_json for the displays; derived from the other fields, so ignored on load.
DERIVED_FIELDS = ("minimap",)
_TEXT = {"type": "string", "pattern": r"\S"}
_FLAG = {"type": "boolean"}


def display_fields() -> tuple[str, ...]:
    """A card's words a deck file may give, in each language of the catalogue."""
    return tuple(f"{part}_{lang}" for lang in words.languages() for part in ("name", "text"))


def _spellings(level: str) -> list[str]:
    return [level] + [word for word, meant in MAC_LEVEL_SPELLINGS.items() if meant == level]


def _card(kind: str, own: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """One kind's entry: the fields every card has, its own, and nothing else."""
    properties: dict[str, Any] = {
        "id": {"type": "string", "pattern": r"^\S+$"},
        "count": {"type": "integer", "minimum": 1, "maximum": MAX_COPIES},
        "kind": {"const": kind},
        "level": {"enum": _spellings(KIND_LEVELS[kind])},
        **{name: _TEXT for name in display_fields()},
        **{name: True for name in DERIVED_FIELDS},
        **own,
    }
    return {
        "type": "object",
        "required": ["id", "count", "kind", "level", *required],
        "properties": properties,
        "additionalProperties": False,
    }


def _movement(axis: str) -> dict[str, Any]:
    """A Complex Movement card moving a row, or a column: its line named either way, and only
    the two directions that line moves."""
    line = {
        "oneOf": [
            {"enum": [line_key(axis, index) for index in MOVABLE_INDICES]},
            {
                "type": "object",
                "required": ["axis", "index"],
                "properties": {
                    "axis": {"const": axis},
                    "index": {"type": "integer", "enum": list(MOVABLE_INDICES)},
                },
                "additionalProperties": False,
            },
        ]
    }
    own = {
        "line": line,
        "direction": {"enum": list(AXIS_DIRECTIONS[axis])},
        "twice": _FLAG,
        "draw_again": _FLAG,
    }
    return _card("complex_movement", own, ("line", "direction"))


def _kinds() -> list[dict[str, Any]]:
    characters = {
        "type": "array",
        "items": {"enum": list(CHARACTER_IDS)},
        "minItems": 2,
        "maxItems": 2,
        "uniqueItems": True,
    }
    special = {"complex_movement", "punishment", "disabled_rooms"}
    return [
        _movement("row"),
        _movement("col"),
        _card("punishment", {"characters": characters}, ("characters",)),
        _card("disabled_rooms", {"colour": {"enum": list(DISABLED_COLOURS)}}, ("colour",)),
        *(_card(kind, {}) for kind in KIND_LEVELS if kind not in special),
    ]


def deck_schema() -> dict[str, Any]:
    """The schema of a deck file, for the languages the catalogue holds now."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Room 25 Companion M.A.C. deck",
        "description": "An owner's count of the M.A.C. cards in their box (docs/mac-deck.md).",
        "type": "object",
        "required": ["cards"],
        "properties": {
            "cards": {"type": "array", "minItems": 1, "items": {"oneOf": _kinds()}},
            "_about": {"type": "string"},
            "$schema": {"type": "string"},
        },
        "patternProperties": {"^_": True},
        "additionalProperties": False,
    }
