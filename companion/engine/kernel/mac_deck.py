"""The M.A.C. deck file reader: an owner's deck (JSON or YAML) or the packaged default, checked
field by field with every problem said in plain words (the structure it enforces is published
as a JSON Schema, mac_schema.py), and the deck written back as JSON or a table.

The rule sources name every kind of M.A.C. card but never say how many of each the 58-card deck
holds, so the deck is a data file: a documented reconstruction ships as the default
(``data/mac_deck.json``, see docs/mac-deck.md) and an owner can load a count of their own box
instead. The card model is in mac_cards.py, a card's words in the catalogue (mac_words.py).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion import words

from .grid import parse_line
from .mac_cards import (
    AXIS_DIRECTIONS,
    CENTRAL_INDEX,
    CHARACTER_IDS,
    DISABLED_COLOURS,
    GRID_SIZE,
    KIND_LEVELS,
    LEVELS,
    Cell,
    Deck,
    DeckError,
    Line,
    MacCard,
)
from .mac_schema import DERIVED_FIELDS, MAX_COPIES, display_fields
from .mac_words import (
    Display,
    display,
    kind_name,
    movement_display,
    own_display,
    punishment_display,
)
from .ruleset import mac_level

__all__ = ["deck_as_json", "deck_from_data", "deck_warnings", "format_deck", "load_deck"]

# How a deck file names a line, like the cells it holds (the object form counts from 0).
_LINE_NAMES = "write row1, row2, row4, row5, colA, colB, colD or colE"
_STEP: Mapping[str, Cell] = MappingProxyType(
    {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
)

_COMMON_FIELDS = ("id", "count", "kind", "level")
_DISPLAY_FIELDS = display_fields()
_NEEDED_FIELDS = (f"name_{words.fallback()}", f"text_{words.fallback()}")
_KIND_FIELDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "complex_movement": ("line", "direction", "twice", "draw_again"),
        "punishment": ("characters",),
        "disabled_rooms": ("colour",),
    }
)
_ALL_FIELDS = tuple(
    dict.fromkeys(
        _COMMON_FIELDS
        + _DISPLAY_FIELDS
        + DERIVED_FIELDS
        + tuple(name for names in _KIND_FIELDS.values() for name in names)
    )
)

_PACKAGE = "companion.engine"
_DEFAULT_RESOURCE = "data/mac_deck.json"
_DEFAULT_SOURCE = "default deck (companion/engine/data/mac_deck.json)"

# Bounds on an owner's deck file: the printed deck is 60-odd cards in a few kB of JSON.
MAX_FILE_BYTES = 512 * 1024
MAX_CARDS = 600  # in the whole deck, copies counted
QUOTE = 80  # what a message repeats of the input, at most
# A standard game draws two cards before each programming phase: a smaller deck reshuffles its
# discard pile every turn, which is allowed but rarely what an owner meant.
FEW_CARDS = 10


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
            if name in _COMMON_FIELDS or name in _DISPLAY_FIELDS or name in DERIVED_FIELDS:
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
        """The card's words: those the file gives (`name_<lang>`, `text_<lang>`) over those the
        catalogue composes (Complex Movement, Punishment) or has for a card of the default
        deck; a card of another kind with neither must carry its name and text."""
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
            composed = movement_display(line.axis, line.index, direction, twice, draw_again)
        elif kind == "punishment" and characters is not None:
            composed = punishment_display(characters)
        elif kind is not None and kind not in ("complex_movement", "punishment"):
            card_id = self.entry.get("id")
            composed = own_display(card_id) if isinstance(card_id, str) else None
            missing = [name for name in _NEEDED_FIELDS if name not in self.entry]
            if composed is None and missing:
                self.problem(
                    None,
                    f"field{'s' if len(missing) > 1 else ''} {', '.join(missing)} missing: a "
                    f"'{kind}' card must carry its name and text (copy them from the catalogue, "
                    "companion/words/<lang>/cards.json)",
                )
                return None
        if composed is None:
            if any(name not in given for name in _NEEDED_FIELDS):
                return None
            composed = display(
                {lang: given[f"name_{words.fallback()}"] for lang in words.languages()},
                {lang: given[f"text_{words.fallback()}"] for lang in words.languages()},
            )
        names, texts = dict(composed.names), dict(composed.texts)
        fallback = words.fallback()
        return display(
            {lang: given.get(f"name_{lang}", names.get(lang, names[fallback])) for lang in names},
            {lang: given.get(f"text_{lang}", texts.get(lang, texts[fallback])) for lang in texts},
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
        if key not in ("cards", "$schema") and not (isinstance(key, str) and key.startswith("_")):
            problems.append(
                f"top level: unknown field {_q(key)}; a deck has 'cards', optional "
                "comments whose names start with '_' and an editor's '$schema'"
            )
    if not isinstance(data.get("$schema", ""), str):
        problems.append(
            "top level, field '$schema': must be the text an editor reads (the schema's file "
            f"or address), not {_describe(data['$schema'])}"
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


@cache
def _default_deck() -> Deck:
    """The packaged deck, read once (a deck is frozen; its words are composed in every
    language of the catalogue, which the OLED's screens and the phones ask for often)."""
    resource = resources.files(_PACKAGE).joinpath(_DEFAULT_RESOURCE)
    text = resource.read_text(encoding="utf-8")
    return deck_from_data(_parse(text, _DEFAULT_SOURCE, False), _DEFAULT_SOURCE)


def load_deck(path: str | Path | None = None) -> Deck:
    """Load and validate a deck file; None loads the packaged default reconstruction.

    A ``.yaml``/``.yml`` file is read as YAML (PyYAML), anything else as JSON; ``~`` is expanded.
    Owners whose physical deck differs from the default point this at their own file.
    """
    if path is None:
        return _default_deck()
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
        (str(card.count), card.level, kind_name(card.kind), card.details) for card in deck.cards
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
