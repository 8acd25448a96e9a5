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
from companion.words.said import Said, say

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
TABLE_COLUMNS = ("count", "level", "kind", "details")  # `room25 deck`'s table (deck_table_*)


# --- reading and validation -------------------------------------------------------------------


def _cut(value: object) -> str:
    """A piece of the owner's input as a message repeats it: cut to QUOTE characters (a 100 kB
    field is named, not echoed back whole)."""
    text = str(value)
    return text[: QUOTE - 3] + "..." if len(text) > QUOTE else text


def _describe(value: object) -> Said:
    """How a wrong value is named in a message: JSON words, since owners write JSON."""
    if value is None or isinstance(value, bool):
        return say("deck_value_json", value=json.dumps(value))
    if isinstance(value, str):
        return say("deck_value_text", value=_cut(value))
    if isinstance(value, (int, float)):
        return say("deck_value_number", value=_cut(value))
    if isinstance(value, list):
        return say("deck_value_list")
    if isinstance(value, dict):
        return say("deck_value_object")
    return say("deck_value_json", value=type(value).__name__)


def _shown(value: object) -> Said:
    """A value as typed when it is a text ('blakout'), else described (a list)."""
    return say("deck_typed", value=_cut(value)) if isinstance(value, str) else _describe(value)


def _hint(word: object, choices: Sequence[str]) -> Said | str:
    close = difflib.get_close_matches(word, choices, n=1) if isinstance(word, str) else []
    return say("deck_did_you_mean", word=close[0]) if close else ""


_LINE_NAMES = say("deck_lines")
_MISSING = object()


class _CardReader:
    """Reads one deck-file entry, collecting every problem instead of stopping at the first."""

    def __init__(self, entry: Mapping[str, Any], position: int) -> None:
        self.entry = entry
        self.problems: list[Said] = []
        card_id = entry.get("id")
        self.where = say("deck_card", position=position)
        if isinstance(card_id, str) and card_id.strip():
            self.where = say("deck_card_id", position=position, id=_cut(card_id))

    def problem(self, name: str | None, code: str, /, **params: object) -> None:
        found = say(code, **params)
        if name:
            self.problems.append(say("deck_at_field", where=self.where, field=name, problem=found))
        else:
            self.problems.append(say("deck_at", where=self.where, problem=found))

    def require(self, name: str, why: Said) -> Any:
        """The field's value, or _MISSING (with a problem recorded) if the entry lacks it."""
        if name not in self.entry:
            self.problem(None, "deck_missing_field", field=name, why=why)
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
            twice = self.read_flag("twice", say("deck_means_twice"))
            draw_again = self.read_flag("draw_again", say("deck_means_draw_again"))
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
        value = self.require("id", say("deck_why_id"))
        if value is _MISSING:
            return None
        if not isinstance(value, str) or not value.strip():
            self.problem("id", "deck_not_empty_text", got=_describe(value))
            return None
        if value != value.strip() or any(ch.isspace() for ch in value):
            self.problem("id", "deck_id_spaces", id=_cut(value))
            return None
        return value

    def read_count(self) -> int | None:
        value = self.require("count", say("deck_why_count"))
        if value is _MISSING:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem("count", "deck_count_not_number", got=_describe(value))
            return None
        if value < 1:
            self.problem("count", "deck_count_too_low", count=value)
            return None
        if value > MAX_COPIES:
            self.problem("count", "deck_count_too_high", most=MAX_COPIES, count=_cut(value))
            return None
        return value

    def read_kind(self) -> str | None:
        value = self.require("kind", say("deck_why_kind", choices=list(KIND_LEVELS)))
        if value is _MISSING:
            return None
        if not isinstance(value, str) or value not in KIND_LEVELS:
            hint = _hint(value, tuple(KIND_LEVELS))
            self.problem(
                "kind", "deck_kind_unknown", got=_shown(value), hint=hint, known=list(KIND_LEVELS)
            )
            return None
        return value

    def read_level(self, kind: str | None) -> str | None:
        value = self.require("level", say("deck_why_level"))
        if value is _MISSING:
            return None
        value = mac_level(value)  # 000's "BASIC CARDS" are the standard ones
        if value not in LEVELS:
            self.problem("level", "deck_level_unknown", got=_describe(value))
            return None
        if kind is not None and KIND_LEVELS[kind] != value:
            self.problem(
                "level", "deck_level_mismatch", level=value, kind=kind, kind_level=KIND_LEVELS[kind]
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
                    self.problem(name, "deck_field_not_for_kind", kind=kind)
                continue
            self.problem(str(name), "deck_field_unknown", hint=_hint(name, _ALL_FIELDS))

    def read_line(self) -> Line | None:
        value = self.require("line", say("deck_why_line", lines=_LINE_NAMES))
        if value is _MISSING:
            return None
        if isinstance(value, str):
            return self._line_named(value)
        if not isinstance(value, dict):
            self.problem("line", "deck_line_not_named", lines=_LINE_NAMES, got=_describe(value))
            return None
        ok = True
        for key in value:
            if key not in ("axis", "index"):
                self.problem("line", "deck_line_key_unknown", key=_cut(key))
                ok = False
        axis: Any = value.get("axis")  # checked here; `ok` says whether it passed
        if not isinstance(axis, str) or axis not in AXIS_DIRECTIONS:
            self.problem("line", "deck_line_axis", got=_describe(axis))
            ok = False
        index: Any = value.get("index")
        if isinstance(index, bool) or not isinstance(index, int):
            self.problem("line", "deck_line_index_not_number", got=_describe(index))
            ok = False
        elif index == CENTRAL_INDEX:
            what = axis if axis in AXIS_DIRECTIONS else "line"
            self.problem("line", f"deck_line_index_central_{what}")
            ok = False
        elif not 0 <= index < GRID_SIZE:
            self.problem("line", "deck_line_index_off", index=index)
            ok = False
        return Line(axis, index) if ok else None

    def _line_named(self, value: str) -> Line | None:
        """A line named as players see it, like the cells it holds ("row1", "colA")."""
        try:
            axis, index = parse_line(value)
        except ValueError:
            self.problem("line", "deck_line_not_movable", line=_cut(value), lines=_LINE_NAMES)
            return None
        if index == CENTRAL_INDEX:
            self.problem("line", f"deck_line_central_{axis}", line=value, lines=_LINE_NAMES)
            return None
        return Line(axis, index)

    def read_direction(self, line: Line | None) -> str | None:
        value = self.require("direction", say("deck_why_direction"))
        if value is _MISSING:
            return None
        if not isinstance(value, str) or value not in _STEP:
            hint = _hint(value, tuple(_STEP))
            self.problem("direction", "deck_direction_unknown", got=_shown(value), hint=hint)
            return None
        if line is not None and value not in AXIS_DIRECTIONS[line.axis]:
            first, second = AXIS_DIRECTIONS[line.axis]
            key = f"deck_direction_not_{line.axis}"
            self.problem("direction", key, direction=value, first=first, second=second)
            return None
        return value

    def read_flag(self, name: str, meaning: Said) -> bool:
        value = self.entry.get(name, False)
        if not isinstance(value, bool):
            self.problem(name, "deck_flag_not_boolean", meaning=meaning, got=_describe(value))
            return False
        return value

    def read_characters(self) -> tuple[str, str] | None:
        value = self.require("characters", say("deck_why_characters"))
        if value is _MISSING:
            return None
        if not isinstance(value, list):
            self.problem("characters", "deck_characters_not_list", got=_describe(value))
            return None
        if len(value) != 2:
            self.problem("characters", "deck_characters_count", count=len(value))
            return None
        ok = True
        for name in value:
            if not isinstance(name, str) or name not in CHARACTER_IDS:
                hint = _hint(name, CHARACTER_IDS)
                known = list(CHARACTER_IDS)
                self.problem(
                    "characters", "deck_character_unknown", got=_shown(name), hint=hint, known=known
                )
                ok = False
        if ok and value[0] == value[1]:
            self.problem("characters", "deck_character_twice", character=_cut(value[0]))
            ok = False
        return (value[0], value[1]) if ok else None

    def read_colour(self) -> str | None:
        value = self.require("colour", say("deck_why_colour", choices=list(DISABLED_COLOURS)))
        if value is _MISSING:
            return None
        if value not in DISABLED_COLOURS:
            colours = list(DISABLED_COLOURS)
            self.problem("colour", "deck_colour_unknown", got=_describe(value), choices=colours)
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
                self.problem(name, "deck_not_empty_text", got=_describe(value))
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
                    None, "deck_display_missing", n=len(missing), fields=missing, kind=kind
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


_TOP = say("deck_top")


def _top(code: str, at: str = "", /, **params: object) -> Said:
    """A problem of the deck as a whole, or of one of its top fields (`at`)."""
    found = say(code, **params)
    if at:
        return say("deck_at_field", where=_TOP, field=at, problem=found)
    return say("deck_at", where=_TOP, problem=found)


def _top_problems(data: dict) -> tuple[list[Said], str]:
    """What is wrong beside the cards (unknown fields, a `$schema` or `_about` that is not a
    text), and the deck's `_about`."""
    problems: list[Said] = []
    for key in data:
        if key not in ("cards", "$schema") and not (isinstance(key, str) and key.startswith("_")):
            problems.append(_top("deck_top_unknown_field", name=_cut(key)))
    if not isinstance(data.get("$schema", ""), str):
        problems.append(_top("deck_schema_not_text", "$schema", got=_describe(data["$schema"])))
    about = data.get("_about", "")
    if not isinstance(about, str):
        problems.append(_top("deck_about_not_text", "_about", got=_describe(about)))
        about = ""
    return problems, about


def deck_from_data(data: object, source: str = "deck") -> Deck:
    """Build and validate a deck from parsed JSON/YAML data (for files and uploaded decks).

    Every problem in the data is reported at once in one DeckError, so an owner fixing a
    hand-typed deck does not have to reload it once per typo.
    """
    if not isinstance(data, dict):
        raise DeckError(source, [say("deck_top_not_object", got=_describe(data))])
    problems, about = _top_problems(data)
    entries = data.get("cards")
    if entries is None:
        problems.append(_top("deck_cards_missing"))
        raise DeckError(source, problems)
    if not isinstance(entries, list):
        problems.append(_top("deck_cards_not_list", "cards", got=_describe(entries)))
        raise DeckError(source, problems)
    if not entries:
        problems.append(_top("deck_cards_empty", "cards"))
        raise DeckError(source, problems)

    cards: list[MacCard] = []
    first_position: dict[str, int] = {}
    for position, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            where = say("deck_card", position=position)
            found = say("deck_card_not_object", got=_describe(entry))
            problems.append(say("deck_at", where=where, problem=found))
            continue
        reader = _CardReader(entry, position)
        card = reader.read()
        card_id = entry.get("id")
        if isinstance(card_id, str) and card_id.strip():
            if card_id in first_position:
                first = first_position[card_id]
                reader.problem("id", "deck_id_twice", id=_cut(card_id), first=first)
                card = None
            else:
                first_position[card_id] = position
        problems.extend(reader.problems)
        if card is not None:
            cards.append(card)
    total = sum(card.count for card in cards)
    if total > MAX_CARDS:
        problems.append(_top("deck_too_many", total=total, most=MAX_CARDS))
    if problems:
        raise DeckError(source, problems)
    return Deck(tuple(cards), about=about, source=source)


def deck_warnings(deck: Deck) -> list[Said]:
    """What is legal in a deck but likely a mistake, said once when the deck is listed."""
    warnings = []
    if deck.size < FEW_CARDS:
        warnings.append(say("deck_few_cards", n=deck.size))
    if not deck.count_by_level()["standard"]:
        warnings.append(say("deck_no_standard"))
    return warnings


def _parse(text: str, source: str, yaml_file: bool) -> object:
    if yaml_file:
        try:
            import yaml
        except ImportError:
            raise DeckError(source, [say("deck_no_yaml")]) from None
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, when built with it
        try:
            return yaml.load(text, Loader=loader)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            reason = str(getattr(exc, "problem", None) or "unreadable")[:QUOTE]
            found = (
                say("deck_bad_format_at", format="YAML", line=mark.line + 1,
                    column=mark.column + 1, reason=reason)
                if mark
                else say("deck_bad_format", format="YAML", reason=reason)
            )  # fmt: skip
            raise DeckError(source, [found]) from None
        except ValueError as exc:  # a number of more than 4300 digits
            reason = str(exc)[:QUOTE]
            raise DeckError(
                source, [say("deck_bad_format", format="YAML", reason=reason)]
            ) from None
        except RecursionError:
            raise DeckError(source, [say("deck_too_deep", format="YAML")]) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = {"line": exc.lineno, "column": exc.colno, "reason": exc.msg}
        raise DeckError(source, [say("deck_bad_format_at", format="JSON", **where)]) from None
    except ValueError as exc:  # a number of more than 4300 digits
        reason = str(exc)[:QUOTE]
        raise DeckError(source, [say("deck_bad_format", format="JSON", reason=reason)]) from None
    except RecursionError:
        raise DeckError(source, [say("deck_too_deep", format="JSON")]) from None


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
        raise DeckError(say("deck_file"), [say("deck_no_path")])
    file = Path(path).expanduser()
    source = _cut(file)
    try:
        with file.open("rb") as opened:
            data = opened.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise DeckError(source, [say("deck_no_file")]) from None
    except IsADirectoryError:
        raise DeckError(source, [say("deck_directory")]) from None
    except OSError as exc:
        raise DeckError(source, [say("deck_unreadable", why=exc.strerror)]) from None
    if len(data) > MAX_FILE_BYTES:
        raise DeckError(source, [say("deck_too_large", kb=MAX_FILE_BYTES // 1024)])
    if not data.strip():
        raise DeckError(source, [say("deck_empty_file")])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DeckError(source, [say("deck_not_utf8")]) from None
    yaml_file = file.suffix.lower() in (".yaml", ".yml")
    return deck_from_data(_parse(text, source, yaml_file), source)


def deck_as_json(deck: Deck) -> dict[str, Any]:
    """The deck as a JSON-ready object for the phones and the API; also a valid deck file.

    Each entry of "cards" carries its "count", its display in both languages and, for Complex
    Movement, the "minimap" to draw (ignored when the object is loaded back as a deck).
    """
    return {"_about": deck.about, "cards": [card.as_json() for card in deck.cards]}


def format_deck(deck: Deck, lang: str = "") -> str:
    """A plain-text table of the deck (count, level, kind, details) for the CLI and the docs."""
    headers = [words.text(lang, f"deck_table_{name}") for name in TABLE_COLUMNS]
    rows = [
        (
            str(card.count),
            words.text(lang, f"mac_{card.level}"),
            kind_name(card.kind, lang),
            card.details(lang),
        )
        for card in deck.cards
    ]
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].rjust(widths[0])
        rest = [c.ljust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]
        return "  ".join([first, *rest]).rstrip()

    by_level = deck.count_by_level()
    out = [line(headers), line(["-" * w for w in widths])]
    out.extend(line(r) for r in rows)
    out.append(words.text(lang, "deck_table_total", n=deck.size, **by_level))
    return "\n".join(out)
