"""The M.A.C. deck (Move Alone Complex) as data: card definitions, loading and validation.

The rule sources name every kind of M.A.C. card but never say how many of each the 58-card deck
holds, so the deck is a data file: a documented reconstruction ships as the default
(``data/mac_deck.json``, see docs/mac-deck.md) and an owner can load a count of their own box
instead. This module only reads and checks such a file and describes the cards for the displays;
shuffling, drawing and applying cards belong to the engine's state and its chance inputs.

Grid conventions are the engine's: a 5x5 complex, cells ``(row, col)`` with row 0 at the top (the
side of the table where the Pi sits); rows 0, 1, 3, 4 and columns 0, 1, 3, 4 can move; a row
moves east or west, a column north or south. The Pi reads every Complex Movement card from that
one orientation, as the rulebooks ask of the player who handles them.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .grid import line_key, parse_line
from .ruleset import MAC_LEVELS, mac_level

__all__ = [
    "AXIS_DIRECTIONS",
    "CHARACTER_IDS",
    "DISABLED_COLOURS",
    "KIND_LEVELS",
    "LEVELS",
    "MOVABLE_INDICES",
    "Deck",
    "DeckError",
    "Display",
    "Line",
    "MacCard",
    "MiniMap",
    "deck_as_json",
    "deck_from_data",
    "format_deck",
    "load_deck",
]

Cell = tuple[int, int]

GRID_SIZE = 5
CENTRAL_INDEX = 2
MOVABLE_INDICES = (0, 1, 3, 4)
# How a deck file names a line, like the cells it holds (the object form counts from 0).
_LINE_NAMES = "write row1, row2, row4, row5, colA, colB, colD or colE"
AXIS_DIRECTIONS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {"row": ("east", "west"), "col": ("north", "south")}
)
_STEP: Mapping[str, Cell] = MappingProxyType(
    {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
)
CHARACTER_IDS = ("emmett", "kevin", "franck", "jennifer", "max", "alice", "sarah", "bruce")
DISABLED_COLOURS = ("green", "yellow", "red")
LEVELS = MAC_LEVELS  # a card's level: the lowest level of game that plays it

KIND_LEVELS: Mapping[str, str] = MappingProxyType(
    {
        "complex_movement": "standard",
        "punishment": "standard",
        "blackout": "madness",
        "jamming": "madness",
        "rewind": "madness",
        "robot": "madness",
        "time_bomb": "madness",
        "lock_on": "madness",
        "disabled_rooms": "madness",
        "chaos": "madness",
        "acceleration": "madness",
        "panic": "madness",
    }
)

_KIND_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "complex_movement": "Complex Movement",
        "punishment": "Punishment",
        "blackout": "Blackout",
        "jamming": "Jamming",
        "rewind": "Rewind",
        "robot": "Robot",
        "time_bomb": "Time bomb",
        "lock_on": "Lock on",
        "disabled_rooms": "Disabled rooms",
        "chaos": "Chaos",
        "acceleration": "Acceleration",
        "panic": "Panic",
    }
)

_COMMON_FIELDS = ("id", "count", "kind", "level")
_DISPLAY_FIELDS = ("name_en", "name_fr", "text_en", "text_fr")
_KIND_FIELDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "complex_movement": ("line", "direction", "twice", "draw_again"),
        "punishment": ("characters",),
        "disabled_rooms": ("colour",),
    }
)
# Written by deck_as_json for the displays; derived from the other fields, so ignored on load.
_DERIVED_FIELDS = ("minimap",)
_ALL_FIELDS = tuple(
    dict.fromkeys(
        _COMMON_FIELDS
        + _DISPLAY_FIELDS
        + _DERIVED_FIELDS
        + tuple(name for names in _KIND_FIELDS.values() for name in names)
    )
)

_PACKAGE = "companion.engine"
_DEFAULT_RESOURCE = "data/mac_deck.json"
_DEFAULT_SOURCE = "default deck (companion/engine/data/mac_deck.json)"

# Bounds on an owner's deck file: the printed deck is 60-odd cards in a few kB of JSON.
MAX_FILE_BYTES = 512 * 1024
MAX_COPIES = 60  # of one card
MAX_CARDS = 600  # in the whole deck, copies counted
QUOTE = 80  # what a message repeats of the input, at most
SHOWN_PROBLEMS = 10  # a message lists the first ten problems and counts the rest
# A standard game draws two cards before each programming phase: a smaller deck reshuffles its
# discard pile every turn, which is allowed but rarely what an owner meant.
FEW_CARDS = 10


class DeckError(ValueError):
    """A deck that cannot be used, with every problem found in it in plain words.

    The message names the file, the card (position and id) and the field, so an owner who typed
    their own deck can fix it without reading code. ``problems`` keeps them one by one.
    """

    def __init__(self, source: str, problems: Sequence[str]) -> None:
        self.source = source
        self.problems = tuple(problems)
        if len(self.problems) == 1:
            message = f"{source}: {self.problems[0]}"
        else:
            shown = list(self.problems[:SHOWN_PROBLEMS])
            if len(self.problems) > SHOWN_PROBLEMS:
                shown.append(f"and {len(self.problems) - SHOWN_PROBLEMS} more")
            listed = "\n  - ".join(shown)
            message = f"{source}: {len(self.problems)} problems:\n  - {listed}"
        super().__init__(message)


@dataclass(frozen=True)
class Line:
    """A movable row or column of the complex, as printed (boxed) on a Complex Movement card."""

    axis: str
    index: int

    def cells(self) -> tuple[Cell, ...]:
        """The five cells of the line, in grid order (left to right, or top to bottom)."""
        if self.axis == "row":
            return tuple((self.index, col) for col in range(GRID_SIZE))
        return tuple((row, self.index) for row in range(GRID_SIZE))

    @property
    def name(self) -> str:
        """The line named like the cells it holds, as players see it: row1..row5, colA..colE."""
        return line_key(self.axis, self.index)

    def as_json(self) -> dict[str, Any]:
        return {"axis": self.axis, "index": self.index}


_ARROW_GLYPHS: Mapping[str, str] = MappingProxyType(
    {"north": "^", "south": "v", "east": ">", "west": "<"}
)


@dataclass(frozen=True)
class MiniMap:
    """What to draw for a Complex Movement card on a 5x5 mini-map: the line and its arrow.

    The OLED and the phones draw the card's map themselves; this gives them the cells to
    highlight, the arrow's tail and head, and a plain-text rendering for logs and tests.
    """

    line: Line
    direction: str
    steps: int

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The line's cells ordered along the movement: from the arrow's tail to its head."""
        cells = self.line.cells()
        return tuple(reversed(cells)) if self.direction in ("north", "west") else cells

    @property
    def arrow(self) -> tuple[Cell, Cell]:
        """Tail and head of the arrow: the line's two end cells, pointing the way it moves."""
        cells = self.cells
        return cells[0], cells[-1]

    def rows(self) -> tuple[str, ...]:
        """Five strings of five characters: arrows on the line, 'o' the Central room, '.' else."""
        grid = [["." for _ in range(GRID_SIZE)] for _ in range(GRID_SIZE)]
        grid[CENTRAL_INDEX][CENTRAL_INDEX] = "o"
        for row, col in self.line.cells():
            grid[row][col] = _ARROW_GLYPHS[self.direction]
        return tuple("".join(row) for row in grid)

    def as_json(self) -> dict[str, Any]:
        tail, head = self.arrow
        return {
            "line": self.line.as_json(),
            "direction": self.direction,
            "steps": self.steps,
            "cells": [list(c) for c in self.cells],
            "arrow": {"from": list(tail), "to": list(head)},
            "rows": list(self.rows()),
        }


@dataclass(frozen=True)
class Display:
    """A card's name and effect text in English and French, for the OLED and the phones."""

    name_en: str
    name_fr: str
    text_en: str
    text_fr: str

    def name(self, lang: str = "en") -> str:
        """The card's name in ``lang`` ("en" or "fr"); English for any other language."""
        return self.name_fr if lang == "fr" else self.name_en

    def text(self, lang: str = "en") -> str:
        """The card's effect in ``lang`` ("en" or "fr"); English for any other language."""
        return self.text_fr if lang == "fr" else self.text_en


@dataclass(frozen=True)
class MacCard:
    """One card definition of the deck; ``count`` identical physical cards share it.

    Only the fields of its kind are set: ``line``, ``direction``, ``twice`` and ``draw_again``
    for Complex Movement, ``characters`` for Punishment, ``colour`` for Disabled rooms.
    """

    id: str
    count: int
    kind: str
    level: str
    display: Display
    line: Line | None = None
    direction: str | None = None
    twice: bool = False
    draw_again: bool = False
    characters: tuple[str, str] | None = None
    colour: str | None = None

    @property
    def steps(self) -> int:
        """How many spaces a Complex Movement card slides its line (the "x2" symbol doubles it)."""
        return 2 if self.twice else 1

    def minimap(self) -> MiniMap | None:
        """The mini-map of a Complex Movement card; None for any other kind."""
        if self.line is None or self.direction is None:
            return None
        return MiniMap(self.line, self.direction, self.steps)

    @property
    def details(self) -> str:
        """A short, language-neutral summary of what makes this card differ from its kind."""
        if self.kind == "complex_movement" and self.line is not None:
            parts = [f"{self.line.name} {self.direction}"]
            if self.twice:
                parts.append("x2")
            if self.draw_again:
                parts.append("draw again")
            return ", ".join(parts)
        if self.kind == "punishment" and self.characters is not None:
            return " + ".join(self.characters)
        if self.kind == "disabled_rooms" and self.colour is not None:
            return self.colour
        return ""

    def as_json(self) -> dict[str, Any]:
        """The card as a deck-file entry, with its display and (Complex Movement) mini-map."""
        entry: dict[str, Any] = {
            "id": self.id,
            "count": self.count,
            "kind": self.kind,
            "level": self.level,
        }
        if self.kind == "complex_movement" and self.line is not None:
            entry["line"] = self.line.as_json()
            entry["direction"] = self.direction
            entry["twice"] = self.twice
            entry["draw_again"] = self.draw_again
        if self.characters is not None:
            entry["characters"] = list(self.characters)
        if self.colour is not None:
            entry["colour"] = self.colour
        entry.update(
            name_en=self.display.name_en,
            name_fr=self.display.name_fr,
            text_en=self.display.text_en,
            text_fr=self.display.text_fr,
        )
        minimap = self.minimap()
        if minimap is not None:
            entry["minimap"] = minimap.as_json()
        return entry

    def shown_in(self, cast: Collection[str]) -> dict[str, Any]:
        """The card as a game shows it when drawn: a Punishment card names only the pictured
        characters in the game's cast (the others are skipped, docs/rules.md, Punishment)."""
        shown = self.as_json()
        shown.pop("count")
        if self.characters is None or all(c in cast for c in self.characters):
            return shown
        named = [c for c in self.characters if c in cast]
        display = _punishment_display(named)
        shown.update(
            characters=named,
            name_en=display.name_en,
            name_fr=display.name_fr,
            text_en=display.text_en,
            text_fr=display.text_fr,
        )
        return shown


@dataclass(frozen=True)
class Deck:
    """A whole M.A.C. deck: card definitions in file order, each with its number of copies."""

    cards: tuple[MacCard, ...]
    about: str = ""
    source: str = ""
    _index: Mapping[str, MacCard] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[str, MacCard] = {}
        for card in self.cards:
            if card.id in index:
                raise DeckError(self.source or "deck", [f"card id '{card.id}' is used twice"])
            index[card.id] = card
        object.__setattr__(self, "_index", MappingProxyType(index))

    @property
    def size(self) -> int:
        """The number of physical cards (the sum of the counts)."""
        return sum(card.count for card in self.cards)

    def expand(self) -> list[str]:
        """One id per physical card, in file order: the unshuffled deck the engine shuffles.

        The order is stable so that a seeded shuffle of it gives the same deck on every run.
        """
        return [card.id for card in self.cards for _ in range(card.count)]

    def by_id(self, card_id: str) -> MacCard:
        """The card definition with this id; KeyError names the id if the deck has none."""
        try:
            return self._index[card_id]
        except KeyError:
            raise KeyError(f"no M.A.C. card with id {card_id!r} in this deck") from None

    def count_by_kind(self) -> dict[str, int]:
        """Physical cards per kind, in the order of KIND_LEVELS; kinds absent count 0."""
        counts = dict.fromkeys(KIND_LEVELS, 0)
        for card in self.cards:
            counts[card.kind] += card.count
        return counts

    def count_by_level(self) -> dict[str, int]:
        """Physical cards per level ("standard", "madness")."""
        counts = dict.fromkeys(LEVELS, 0)
        for card in self.cards:
            counts[card.level] += card.count
        return counts

    def without_madness(self) -> Deck:
        """The deck of the standard level: the rulebooks say to remove the Madness cards."""
        standard = tuple(card for card in self.cards if card.level == "standard")
        return Deck(standard, about=self.about, source=self.source)


# --- composed display texts -------------------------------------------------------------------

_LINE_NAMES_EN: Mapping[tuple[str, int], str] = MappingProxyType(
    {
        ("row", 0): "the top row",
        ("row", 1): "the second row from the top",
        ("row", 3): "the second row from the bottom",
        ("row", 4): "the bottom row",
        ("col", 0): "the left column",
        ("col", 1): "the second column from the left",
        ("col", 3): "the second column from the right",
        ("col", 4): "the right column",
    }
)
_LINE_NAMES_FR: Mapping[tuple[str, int], str] = MappingProxyType(
    {
        ("row", 0): "la rangée du haut",
        ("row", 1): "la 2e rangée depuis le haut",
        ("row", 3): "la 2e rangée depuis le bas",
        ("row", 4): "la rangée du bas",
        ("col", 0): "la colonne de gauche",
        ("col", 1): "la 2e colonne depuis la gauche",
        ("col", 3): "la 2e colonne depuis la droite",
        ("col", 4): "la colonne de droite",
    }
)
_DIRECTIONS_EN: Mapping[str, str] = MappingProxyType(
    {
        "north": "north (up the map)",
        "south": "south (down the map)",
        "east": "east (right on the map)",
        "west": "west (left on the map)",
    }
)
_DIRECTIONS_FR: Mapping[str, str] = MappingProxyType(
    {
        "north": "vers le nord (le haut de la carte)",
        "south": "vers le sud (le bas de la carte)",
        "east": "vers l'est (la droite de la carte)",
        "west": "vers l'ouest (la gauche de la carte)",
    }
)


def _movement_display(line: Line, direction: str, twice: bool, draw_again: bool) -> Display:
    key = (line.axis, line.index)
    name_en, name_fr = "Complex Movement", "Déplacement du complexe"
    steps_en = "two steps" if twice else "one step"
    steps_fr = "de deux cases" if twice else "d'une case"
    text_en = (
        f"Slide {_LINE_NAMES_EN[key]} ({line.name}) {steps_en} "
        f"{_DIRECTIONS_EN[direction]}, as with a Control action."
    )
    text_fr = (
        f"Déplacez {_LINE_NAMES_FR[key]} ({line.name}) {steps_fr} {_DIRECTIONS_FR[direction]},"
        " comme l'action Contrôler."
    )
    if twice:
        name_en += " x2"
        name_fr += " x2"
    if draw_again:
        name_en += " + draw again"
        name_fr += " + repioche"
        text_en += " Then draw another card at once and apply it."
        text_fr += " Puis piochez aussitôt une autre carte et appliquez-la."
    return Display(name_en, name_fr, text_en, text_fr)


def _punishment_display(characters: Sequence[str]) -> Display:
    """A Punishment card's name and text for the characters it names: the two it pictures, or,
    shown in a game, only those of them in the game (one, or none and nothing happens)."""
    names = [c.capitalize() for c in characters]
    if not names:
        return Display(
            name_en="Punishment: no one in this game",
            name_fr="Sanction : personne dans cette partie",
            text_en="No character pictured on this card is in the game: nothing happens.",
            text_fr=(
                "Aucun personnage représenté sur cette carte n'est dans la partie : rien ne "
                "se passe."
            ),
        )
    if len(names) == 1:
        (only,) = names
        return Display(
            name_en=f"Punishment: {only}",
            name_fr=f"Sanction : {only}",
            text_en=(
                f"{only} loses one action token for the rest of the game, of their choice: Look, "
                "Control or Special ability. A lost token already programmed is not played."
            ),
            text_fr=(
                f"{only} perd pour toute la partie un jeton Action au choix : Regarder, "
                "Contrôler ou Talent spécial. Un jeton perdu déjà programmé n'est pas joué."
            ),
        )
    first, second = names
    return Display(
        name_en=f"Punishment: {first} & {second}",
        name_fr=f"Sanction : {first} & {second}",
        text_en=(
            f"{first} and {second} each lose one action token for the rest of the game, of "
            "their choice: Look, Control or Special ability. A lost token already programmed "
            "is not played."
        ),
        text_fr=(
            f"{first} et {second} perdent chacun pour toute la partie un jeton Action au "
            "choix : Regarder, Contrôler ou Talent spécial. Un jeton perdu déjà programmé "
            "n'est pas joué."
        ),
    )


# --- reading and validation -------------------------------------------------------------------


def _q(value: object) -> str:
    """A piece of the owner's input as a message repeats it: quoted, cut to QUOTE characters
    (a 100 kB field is named, not echoed back whole)."""
    text = str(value)
    if len(text) > QUOTE:
        text = text[: QUOTE - 3] + "..."
    return f"'{text}'"


def _describe(value: object) -> str:
    """How a wrong value is named in a message: JSON words, since owners write JSON."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the text {_q(value)}"
    if isinstance(value, (int, float)):
        return f"the number {_q(value)[1:-1]}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _hint(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _choices(values: Sequence[str]) -> str:
    quoted = [f"'{v}'" for v in values]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1] if len(quoted) > 1 else quoted[0]


_MISSING = object()


class _CardReader:
    """Reads one deck-file entry, collecting every problem instead of stopping at the first."""

    def __init__(self, entry: Mapping[str, Any], position: int) -> None:
        self.entry = entry
        self.problems: list[str] = []
        card_id = entry.get("id")
        self.where = f"card {position}"
        if isinstance(card_id, str) and card_id.strip():
            self.where += f" (id {_q(card_id)})"

    def problem(self, name: str | None, message: str) -> None:
        prefix = f"{self.where}, field '{name}'" if name else self.where
        self.problems.append(f"{prefix}: {message}")

    def require(self, name: str, why: str) -> Any:
        """The field's value, or _MISSING (with a problem recorded) if the entry lacks it."""
        if name not in self.entry:
            self.problem(None, f"field '{name}' is missing: {why}")
            return _MISSING
        return self.entry[name]

    def read(self) -> MacCard | None:
        card_id = self.read_id()
        count = self.read_count()
        kind = self.read_kind()
        level = self.read_level(kind)
        self.check_fields(kind)
        line = direction = characters = colour = None
        twice = draw_again = False
        if kind == "complex_movement":
            line = self.read_line()
            direction = self.read_direction(line)
            twice = self.read_flag("twice", "the card shows the 'x2' symbol")
            draw_again = self.read_flag("draw_again", "the card shows the 'draw again' symbol")
        elif kind == "punishment":
            characters = self.read_characters()
        elif kind == "disabled_rooms":
            colour = self.read_colour()
        display = self.read_display(kind, line, direction, twice, draw_again, characters)
        if self.problems:
            return None
        assert card_id is not None and count is not None and kind is not None
        assert level is not None and display is not None
        return MacCard(
            id=card_id,
            count=count,
            kind=kind,
            level=level,
            display=display,
            line=line,
            direction=direction,
            twice=twice,
            draw_again=draw_again,
            characters=characters,
            colour=colour,
        )

    def read_id(self) -> str | None:
        value = self.require("id", "every card needs a unique id, such as 'move-row0-east'")
        if value is _MISSING:
            return None
        if not isinstance(value, str) or not value.strip():
            self.problem("id", f"must be a non-empty text, not {_describe(value)}")
            return None
        if value != value.strip() or any(ch.isspace() for ch in value):
            self.problem("id", f"{_q(value)} contains spaces; use letters, digits, '-' or '_'")
            return None
        return value

    def read_count(self) -> int | None:
        value = self.require("count", "say how many copies of this card the deck holds")
        if value is _MISSING:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem("count", f"must be a whole number of copies, not {_describe(value)}")
            return None
        if value < 1:
            self.problem(
                "count",
                f"must be at least 1, not {value}; to leave a card out, remove its entry",
            )
            return None
        if value > MAX_COPIES:
            self.problem("count", f"must be at most {MAX_COPIES} copies, not {_q(value)[1:-1]}")
            return None
        return value

    def read_kind(self) -> str | None:
        value = self.require("kind", f"use one of {_choices(tuple(KIND_LEVELS))}")
        if value is _MISSING:
            return None
        if not isinstance(value, str) or value not in KIND_LEVELS:
            word = value if isinstance(value, str) else ""
            shown = _q(value) if isinstance(value, str) else _describe(value)
            self.problem(
                "kind",
                f"unknown kind {shown}{_hint(word, tuple(KIND_LEVELS))}; "
                f"known kinds: {', '.join(KIND_LEVELS)}",
            )
            return None
        return value

    def read_level(self, kind: str | None) -> str | None:
        value = self.require("level", "'standard' (Complex Movement, Punishment) or 'madness'")
        if value is _MISSING:
            return None
        value = mac_level(value)  # 000's "BASIC CARDS" are the standard ones
        if value not in LEVELS:
            self.problem("level", f"must be 'standard' or 'madness', not {_describe(value)}")
            return None
        if kind is not None and KIND_LEVELS[kind] != value:
            self.problem(
                "level",
                f"{_q(value)} does not match kind '{kind}', which is a {KIND_LEVELS[kind]} card",
            )
            return None
        return value

    def check_fields(self, kind: str | None) -> None:
        own = _KIND_FIELDS.get(kind, ()) if kind else ()
        for name in self.entry:
            if name in _COMMON_FIELDS or name in _DISPLAY_FIELDS or name in _DERIVED_FIELDS:
                continue
            if name in own:
                continue
            if name in _ALL_FIELDS:
                if kind is not None:
                    self.problem(name, f"does not apply to a '{kind}' card; remove it")
                continue
            hint = _hint(name, _ALL_FIELDS) if isinstance(name, str) else ""
            self.problem(str(name), f"unknown field{hint}; remove or rename it")

    def read_line(self) -> Line | None:
        value = self.require("line", f"give the moving line: {_LINE_NAMES}")
        if value is _MISSING:
            return None
        if isinstance(value, str):
            return self._line_named(value)
        if not isinstance(value, dict):
            self.problem(
                "line",
                f"must name the line ({_LINE_NAMES}), not {_describe(value)}",
            )
            return None
        ok = True
        for key in value:
            if key not in ("axis", "index"):
                self.problem("line", f"unknown key {_q(key)}; a line has only 'axis' and 'index'")
                ok = False
        axis: Any = value.get("axis")  # checked here; `ok` says whether it passed
        if not isinstance(axis, str) or axis not in AXIS_DIRECTIONS:
            self.problem("line", f"axis must be 'row' or 'col', not {_describe(axis)}")
            ok = False
        index: Any = value.get("index")
        what = (
            {"row": "row", "col": "column"}.get(axis, "line") if isinstance(axis, str) else "line"
        )
        if isinstance(index, bool) or not isinstance(index, int):
            self.problem(
                "line", f"index must be a whole number 0, 1, 3 or 4, not {_describe(index)}"
            )
            ok = False
        elif index == CENTRAL_INDEX:
            self.problem(
                "line",
                f"index 2 is the central {what}: it holds the Central room and never moves; "
                "use 0, 1, 3 or 4",
            )
            ok = False
        elif not 0 <= index < GRID_SIZE:
            self.problem("line", f"index {index} is off the 5x5 grid (0 to 4); use 0, 1, 3 or 4")
            ok = False
        return Line(axis, index) if ok else None

    def _line_named(self, value: str) -> Line | None:
        """A line named as players see it, like the cells it holds ("row1", "colA")."""
        try:
            axis, index = parse_line(value)
        except ValueError:
            self.problem("line", f"{_q(value)} is not a movable line: {_LINE_NAMES}")
            return None
        if index == CENTRAL_INDEX:
            what = "row" if axis == "row" else "column"
            self.problem("line", f"{value} is the central {what}: it never moves; {_LINE_NAMES}")
            return None
        return Line(axis, index)

    def read_direction(self, line: Line | None) -> str | None:
        value = self.require(
            "direction", "'east' or 'west' for a row, 'north' or 'south' for a column"
        )
        if value is _MISSING:
            return None
        if not isinstance(value, str) or value not in _STEP:
            word = value if isinstance(value, str) else ""
            shown = _q(value) if isinstance(value, str) else _describe(value)
            self.problem(
                "direction",
                f"unknown direction {shown}{_hint(word, tuple(_STEP))}; "
                "use 'north', 'south', 'east' or 'west'",
            )
            return None
        if line is not None and value not in AXIS_DIRECTIONS[line.axis]:
            allowed = AXIS_DIRECTIONS[line.axis]
            noun = "a row" if line.axis == "row" else "a column"
            self.problem(
                "direction",
                f"{_q(value)} does not move {noun}: {noun} moves '{allowed[0]}' or '{allowed[1]}'",
            )
            return None
        return value

    def read_flag(self, name: str, meaning: str) -> bool:
        value = self.entry.get(name, False)
        if not isinstance(value, bool):
            self.problem(name, f"must be true or false ({meaning}), not {_describe(value)}")
            return False
        return value

    def read_characters(self) -> tuple[str, str] | None:
        value = self.require("characters", "name the two characters pictured on the card")
        if value is _MISSING:
            return None
        if not isinstance(value, list):
            self.problem(
                "characters", f"must be a list of two character ids, not {_describe(value)}"
            )
            return None
        if len(value) != 2:
            self.problem(
                "characters",
                f"a Punishment card pictures exactly two characters, this one names {len(value)}",
            )
            return None
        ok = True
        for name in value:
            if not isinstance(name, str) or name not in CHARACTER_IDS:
                word = name if isinstance(name, str) else ""
                shown = _q(name) if isinstance(name, str) else _describe(name)
                self.problem(
                    "characters",
                    f"unknown character {shown}{_hint(word, CHARACTER_IDS)}; "
                    f"known characters: {', '.join(CHARACTER_IDS)}",
                )
                ok = False
        if ok and value[0] == value[1]:
            self.problem(
                "characters",
                f"names {_q(value[0])} twice; a Punishment card pictures two different characters",
            )
            ok = False
        return (value[0], value[1]) if ok else None

    def read_colour(self) -> str | None:
        value = self.require("colour", f"the colour on the card: {_choices(DISABLED_COLOURS)}")
        if value is _MISSING:
            return None
        if value not in DISABLED_COLOURS:
            self.problem(
                "colour",
                f"{_describe(value)} is not a colour of a Disabled rooms card; "
                f"use {_choices(DISABLED_COLOURS)}",
            )
            return None
        return value

    def read_display(
        self,
        kind: str | None,
        line: Line | None,
        direction: str | None,
        twice: bool,
        draw_again: bool,
        characters: tuple[str, str] | None,
    ) -> Display | None:
        given: dict[str, str] = {}
        for name in _DISPLAY_FIELDS:
            if name not in self.entry:
                continue
            value = self.entry[name]
            if not isinstance(value, str) or not value.strip():
                self.problem(name, f"must be a non-empty text, not {_describe(value)}")
            else:
                given[name] = value
        composed: Display | None = None
        if kind == "complex_movement" and line is not None and direction is not None:
            composed = _movement_display(line, direction, twice, draw_again)
        elif kind == "punishment" and characters is not None:
            composed = _punishment_display(characters)
        elif kind is not None and kind not in ("complex_movement", "punishment"):
            missing = [name for name in _DISPLAY_FIELDS if name not in self.entry]
            if missing:
                self.problem(
                    None,
                    f"field{'s' if len(missing) > 1 else ''} {', '.join(missing)} missing: a "
                    f"'{kind}' card must carry its name and text in English and French "
                    "(copy them from the default deck)",
                )
                return None
        if composed is None:
            return Display(**given) if len(given) == len(_DISPLAY_FIELDS) else None
        return Display(
            name_en=given.get("name_en", composed.name_en),
            name_fr=given.get("name_fr", composed.name_fr),
            text_en=given.get("text_en", composed.text_en),
            text_fr=given.get("text_fr", composed.text_fr),
        )


def deck_from_data(data: object, source: str = "deck") -> Deck:
    """Build and validate a deck from parsed JSON/YAML data (for files and uploaded decks).

    Every problem in the data is reported at once in one DeckError, so an owner fixing a
    hand-typed deck does not have to reload it once per typo.
    """
    if not isinstance(data, dict):
        raise DeckError(
            source,
            [f"the top level must be an object with a 'cards' list, not {_describe(data)}"],
        )
    problems: list[str] = []
    for key in data:
        if key != "cards" and not (isinstance(key, str) and key.startswith("_")):
            problems.append(
                f"top level: unknown field {_q(key)}; a deck has 'cards' and optional "
                "comments whose names start with '_'"
            )
    about = data.get("_about", "")
    if not isinstance(about, str):
        problems.append(f"top level, field '_about': must be a text, not {_describe(about)}")
        about = ""
    entries = data.get("cards")
    if entries is None:
        problems.append("top level: the 'cards' list is missing")
        raise DeckError(source, problems)
    if not isinstance(entries, list):
        problems.append(f"top level, field 'cards': must be a list, not {_describe(entries)}")
        raise DeckError(source, problems)
    if not entries:
        problems.append("top level, field 'cards': the list is empty; a deck needs cards")
        raise DeckError(source, problems)

    cards: list[MacCard] = []
    first_position: dict[str, int] = {}
    for position, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            problems.append(
                f"card {position}: must be an object with 'id', 'count', 'kind' and 'level', "
                f"not {_describe(entry)}"
            )
            continue
        reader = _CardReader(entry, position)
        card = reader.read()
        card_id = entry.get("id")
        if isinstance(card_id, str) and card_id.strip():
            if card_id in first_position:
                reader.problem(
                    "id",
                    f"{_q(card_id)} is already the id of card {first_position[card_id]}; ids must "
                    "be unique (give identical cards one entry with a higher 'count')",
                )
                card = None
            else:
                first_position[card_id] = position
        problems.extend(reader.problems)
        if card is not None:
            cards.append(card)
    total = sum(card.count for card in cards)
    if total > MAX_CARDS:
        problems.append(f"top level: {total} cards in all; a deck holds at most {MAX_CARDS}")
    if problems:
        raise DeckError(source, problems)
    return Deck(tuple(cards), about=about, source=source)


def deck_warnings(deck: Deck) -> list[str]:
    """What is legal in a deck but likely a mistake, said once when the deck is listed."""
    warnings = []
    if deck.size < FEW_CARDS:
        warnings.append(
            f"the deck holds only {deck.size} card(s); a standard game draws 2 before each "
            "programming phase and reshuffles the discard pile whenever the draw pile runs out"
        )
    if not deck.count_by_level()["standard"]:
        warnings.append("the deck has no standard card: the standard level has nothing to draw")
    return warnings


def _parse(text: str, source: str, yaml_file: bool) -> object:
    if yaml_file:
        try:
            import yaml
        except ImportError:
            raise DeckError(
                source,
                ["this is a YAML file but PyYAML is not installed; install it or use JSON"],
            ) from None
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, when built with it
        try:
            return yaml.load(text, Loader=loader)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
            reason = str(getattr(exc, "problem", None) or "unreadable")[:QUOTE]
            raise DeckError(source, [f"not valid YAML{where}: {reason}"]) from None
        except ValueError as exc:  # a number of more than 4300 digits
            raise DeckError(source, [f"not valid YAML: {str(exc)[:QUOTE]}"]) from None
        except RecursionError:
            raise DeckError(source, ["not valid YAML: nested too deeply"]) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DeckError(
            source, [f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"]
        ) from None
    except ValueError as exc:  # a number of more than 4300 digits
        raise DeckError(source, [f"not valid JSON: {str(exc)[:QUOTE]}"]) from None
    except RecursionError:
        raise DeckError(source, ["not valid JSON: nested too deeply"]) from None


def load_deck(path: str | Path | None = None) -> Deck:
    """Load and validate a deck file; None loads the packaged default reconstruction.

    A ``.yaml``/``.yml`` file is read as YAML (PyYAML), anything else as JSON; ``~`` is expanded.
    Owners whose physical deck differs from the default point this at their own file.
    """
    if path is None:
        resource = resources.files(_PACKAGE).joinpath(_DEFAULT_RESOURCE)
        text = resource.read_text(encoding="utf-8")
        return deck_from_data(_parse(text, _DEFAULT_SOURCE, False), _DEFAULT_SOURCE)
    if not str(path).strip():
        raise DeckError("deck file", ["no path given: name the deck file to read"])
    file = Path(path).expanduser()
    source = _q(file)[1:-1]
    try:
        with file.open("rb") as opened:
            data = opened.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise DeckError(source, ["there is no deck file at this path"]) from None
    except IsADirectoryError:
        raise DeckError(source, ["this is a directory, not a deck file"]) from None
    except OSError as exc:
        raise DeckError(source, [f"the file cannot be read ({exc.strerror})"]) from None
    if len(data) > MAX_FILE_BYTES:
        raise DeckError(source, [f"larger than {MAX_FILE_BYTES // 1024} kB; a deck is a few kB"])
    if not data.strip():
        raise DeckError(source, ["the file is empty; a deck is an object with a 'cards' list"])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DeckError(source, ["the file is not UTF-8 text"]) from None
    yaml_file = file.suffix.lower() in (".yaml", ".yml")
    return deck_from_data(_parse(text, source, yaml_file), source)


def deck_as_json(deck: Deck) -> dict[str, Any]:
    """The deck as a JSON-ready object for the phones and the API; also a valid deck file.

    Each entry of "cards" carries its "count", its display in both languages and, for Complex
    Movement, the "minimap" to draw (ignored when the object is loaded back as a deck).
    """
    return {"_about": deck.about, "cards": [card.as_json() for card in deck.cards]}


def format_deck(deck: Deck) -> str:
    """A plain-text table of the deck (count, level, kind, details) for the CLI and the docs."""
    headers = ("count", "level", "kind", "details")
    rows = [
        (str(card.count), card.level, _KIND_NAMES[card.kind], card.details) for card in deck.cards
    ]
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].rjust(widths[0])
        rest = [c.ljust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]
        return "  ".join([first, *rest]).rstrip()

    by_level = deck.count_by_level()
    out = [line(headers), line(["-" * w for w in widths])]
    out.extend(line(r) for r in rows)
    out.append(f"{deck.size} cards: {by_level['standard']} standard, {by_level['madness']} madness")
    return "\n".join(out)
