"""What the pages and the recap read of the catalogue: a language's texts with a talent's
abilities, and the engine's names of rooms, characters, cards and compositions in words. Read
without Flask (a recap builds without the server)."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

from companion.engine import ability_names, load_deck
from companion.engine.kernel.catalogue import character_base, room_name, room_text
from companion.engine.kernel.mac_cards import MacCard
from companion.engine.kernel.mac_words import kind_name

from .catalogue import offered, texts
from .fill import fill


@cache
def table(lang: str) -> dict[str, str]:
    """The page texts of one language (the fallback language fills any key it lacks), with a
    talent's abilities as the engine's refusals name them."""
    abilities = {f"ability_{k}": v[:1].upper() + v[1:] for k, v in ability_names(lang).items()}
    return {**texts(lang), **abilities}


def text(lang: str, key: str, **params: Any) -> str:
    """One page text with its `{name}` fields filled in."""
    return fill(lang, table(offered(lang)).get(key, key), params)


_ARROWS = {"north": "↑", "south": "↓", "east": "→", "west": "←"}


def line_words(axis: str, index: int, lang: str) -> str:
    """A line as a person reads it: "row 2", "column D" (the engine's keys are row2, colD)."""
    if axis == "row":
        return text(lang, "line_row", n=index + 1)
    return text(lang, "line_col", n="ABCDE"[index])


_LINE_KEY = re.compile(r"\b(row)([1-5])\b|\b(col)([A-E])\b")


def _lines_in_words(found: str, lang: str) -> str:
    """A card's text with the engine's line keys (row1, colD) said as words."""

    def said(match: re.Match) -> str:
        if match[1]:
            return line_words("row", int(match[2]) - 1, lang)
        return line_words("col", "ABCDE".index(match[4]), lang)

    return _LINE_KEY.sub(said, found)


def _card_name(card: MacCard, lang: str) -> str:
    """A card's name, and for a Complex Movement the line it slides, in words."""
    name = card.display.name(lang)
    if card.line is None or card.direction is None:
        return name
    return f"{name} · {line_words(card.line.axis, card.line.index, lang)} {_ARROWS[card.direction]}"


def _punishments() -> list[MacCard]:
    return [card for card in load_deck().cards if card.kind == "punishment"]


def _lone_punishments(lang: str) -> dict[str, list[str]]:
    """A Punishment card as a game without one or both of its characters shows it (the engine's
    `shown_in`): its name and text by the one character it still names, "" for none."""
    lang = offered(lang)
    out = {}
    for card in _punishments():
        for cid in (*(card.characters or ()), ""):
            shown = card.shown_in([cid])
            out[cid] = [shown[f"name_{lang}"], shown[f"text_{lang}"]]
    return out


def _buttons(lang: str) -> dict[str, str]:
    found = texts(lang)
    return {k.removeprefix("button_"): v for k, v in found.items() if k.startswith("button_")}


@cache
def names(lang: str) -> dict[str, dict[str, str]]:
    """Room and character names in one language, from the engine's catalogues, and the control
    buttons' names the notices use."""
    lang = offered(lang)
    data = resources.files("companion.engine").joinpath("data")
    rooms = json.loads(data.joinpath("rooms.json").read_text("utf-8"))["rooms"]
    cast = json.loads(data.joinpath("characters.json").read_text("utf-8"))["characters"]
    return {
        "rooms": {r["id"]: room_name(r["id"], lang) for r in rooms},
        # A phone's board names a room by the word that sets it apart ("Flooded").
        "rooms_short": {
            r["id"]: texts(lang).get(f"room_short_{r['id']}", room_name(r["id"], lang))
            for r in rooms
        },
        "room_texts": {r["id"]: room_text(r["id"], lang) for r in rooms},
        "colours": {r["id"]: r["colour"] for r in rooms},
        "boxes": {r["id"]: r["box"] for r in rooms},
        "characters": {
            c["id"]: c["name"] + (f" ({base})" if (base := character_base(c["id"], lang)) else "")
            for c in cast
        },
        "buttons": _buttons(lang),
        "cards": {card.id: _card_name(card, lang) for card in load_deck().cards},
        # A card of an owner's deck the pages do not know is named by its kind, which the
        # start of its id says as in the packaged deck ("punish-…": a Punishment card).
        "card_kinds": {
            card.id.split("-")[0]: kind_name(card.kind, lang) for card in load_deck().cards
        },
        "card_characters": {c.id: list(c.characters) for c in _punishments() if c.characters},
        "punishments": _lone_punishments(lang),
        "card_texts": {
            card.id: _lines_in_words(card.display.text(lang), lang) for card in load_deck().cards
        },
    }
