"""The M.A.C. deck's card model: a deck, its cards, their lines and mini-maps.

The deck is data (companion/engine/data/mac_deck.json, or an owner's file read by mac_deck.py);
a card's words are in the catalogue (mac_words.py). Grid conventions are the engine's: a 5x5
complex, cells ``(row, col)`` with row 0 at the top (the side of the table where the Pi sits);
rows 0, 1, 3, 4 and columns 0, 1, 3, 4 can move; a row moves east or west, a column north or
south. The Pi reads every Complex Movement card from that one orientation, as the rulebooks ask
of the player who handles them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from companion import words
from companion.words.said import Said, say

from .grid import AXIS_DIRECTIONS, MOVABLE, SIZE, line_key
from .mac_words import Display, punishment_display
from .ruleset import MAC_LEVELS

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
]

Cell = tuple[int, int]

GRID_SIZE = SIZE
CENTRAL_INDEX = SIZE // 2
MOVABLE_INDICES = MOVABLE
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

SHOWN_PROBLEMS = 10  # a message lists the first ten problems and counts the rest


class DeckError(ValueError):
    """A deck that cannot be used, with every problem found in it as a code of the catalogue
    (`deck_*` in companion/words/<lang>/deck.json), said in the reader's language.

    The message names the file, the card (position and id) and the field, so an owner who typed
    their own deck can fix it without reading code. ``problems`` keeps them one by one.
    """

    def __init__(self, source: str | Said, problems: Sequence[Said]) -> None:
        self.source = source
        self.problems = tuple(problems)
        super().__init__(self.text())

    @property
    def said(self) -> Said:
        """The whole message, to be said in a reader's language: the file, then its problem or
        a list of them."""
        if len(self.problems) == 1:
            return say("deck_error", source=self.source, problem=self.problems[0])
        shown: list[Said] = list(self.problems[:SHOWN_PROBLEMS])
        if len(self.problems) > SHOWN_PROBLEMS:
            shown.append(say("deck_error_more", n=len(self.problems) - SHOWN_PROBLEMS))
        return say("deck_error_many", source=self.source, n=len(self.problems), lines=shown)

    def text(self, lang: str = "") -> str:
        return self.said.text(lang)


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

    def details(self, lang: str = "") -> str:
        """What makes this card differ from its kind, in words (`room25 deck`'s table)."""
        found = words.texts(lang)
        if self.kind == "complex_movement" and self.line is not None:
            named = line_key(self.line.axis, self.line.index)[3:]  # "1" of row1, "A" of colA
            line = words.fill(lang, found[f"deck_table_line_{self.line.axis}"], {"n": named})
            direction = found[f"deck_table_direction_{self.direction}"]
            moved = {"line": line, "direction": direction}
            parts = [words.fill(lang, found["deck_table_movement"], moved)]
            marks = (("deck_table_twice", self.twice), ("deck_table_draw_again", self.draw_again))
            return words.joined(lang, parts + [found[key] for key, shown in marks if shown])
        if self.kind == "punishment" and self.characters is not None:
            return words.joined(lang, [c.capitalize() for c in self.characters], "and")
        if self.kind == "disabled_rooms" and self.colour is not None:
            return found[f"compose_colour_{self.colour}"]
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
        entry.update(self.display.fields())
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
        shown.update(characters=named, **punishment_display(named).fields())
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
                raise DeckError(self.source or "deck", [say("deck_card_id_twice", id=card.id)])
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
