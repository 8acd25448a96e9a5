"""English and French: one small table per language for the pages, and the engine's own names
of rooms and characters, and the table's notices from their one catalogue. Each phone picks its
language (a cookie), the browser's by default."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from flask import Request

from companion.engine import load_deck
from companion.session.notices import button_names, page_texts

LANGUAGES = ("en", "fr")
LANG_COOKIE = "room25_lang"


@cache
def table(lang: str) -> dict[str, str]:
    """The page texts of one language (English fills any key French lacks), with the notices'
    templates (`notice_<code>`) from the session's catalogue."""
    found = json.loads(resources.files(__package__).joinpath(f"i18n/{lang}.json").read_text())
    if lang != "en":
        found = {**table("en"), **found}
    return {**found, **page_texts(lang)}


def text(lang: str, key: str, **params: Any) -> str:
    """One page text with its `{name}` fields filled in."""
    template = table(lang if lang in LANGUAGES else "en").get(key, key)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


def language(request: Request, default: str = "en") -> str:
    """The phone's chosen language, else the browser's, else the table's."""
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    best = request.accept_languages.best_match(LANGUAGES)
    if best:
        return best
    return default if default in LANGUAGES else "en"


_ARROWS = {"north": "↑", "south": "↓", "east": "→", "west": "←"}


def _card_name(card: Any, lang: str) -> str:
    """A card's name, and for a Complex Movement the line it slides, named like the cells."""
    name = card.display.name(lang)
    if card.line is None:
        return name
    return f"{name} · {card.line.name} {_ARROWS[card.direction]}"


@cache
def names(lang: str) -> dict[str, dict[str, str]]:
    """Room and character names in one language, from the engine's catalogues, and the control
    buttons' names the notices use."""
    data = resources.files("companion.engine").joinpath("data")
    rooms = json.loads(data.joinpath("rooms.json").read_text("utf-8"))["rooms"]
    cast = json.loads(data.joinpath("characters.json").read_text("utf-8"))["characters"]
    return {
        "rooms": {r["id"]: r[f"name_{lang}"] for r in rooms},
        "room_texts": {r["id"]: r[f"text_{lang}"] for r in rooms},
        "colours": {r["id"]: r["colour"] for r in rooms},
        "boxes": {r["id"]: r["box"] for r in rooms},
        "characters": {
            c["id"]: c["name"] + (f" ({c[f'base_{lang}']})" if c.get(f"base_{lang}") else "")
            for c in cast
        },
        "buttons": button_names(lang),
        "cards": {card.id: _card_name(card, lang) for card in load_deck().cards},
    }
