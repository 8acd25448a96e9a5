"""English and French: one small table per language for the pages, and the engine's own names
of rooms and characters, and the table's notices from their one catalogue. Each phone picks its
language (a cookie), the browser's by default."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

from flask import Request

from companion.engine import ABILITY_NAMES, load_deck
from companion.messages import own_texts
from companion.session.notices import button_names, page_texts

LANGUAGES = ("en", "fr")
LANG_COOKIE = "room25_lang"


@cache
def table(lang: str) -> dict[str, str]:
    """The page texts of one language (English fills any key French lacks), with the notices'
    templates (`notice_<code>`) from the session's catalogue."""
    found = own_texts(lang)
    if lang != "en":
        found = {**table("en"), **found}
    # A talent's abilities are named once, by the engine (its refusals name them too).
    abilities = {f"ability_{k}": v[:1].upper() + v[1:] for k, v in ABILITY_NAMES[lang].items()}
    return {**found, **abilities, **page_texts(lang)}


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


def _card_name(card: Any, lang: str) -> str:
    """A card's name, and for a Complex Movement the line it slides, in words."""
    name = card.display.name(lang)
    if card.line is None:
        return name
    return f"{name} · {line_words(card.line.axis, card.line.index, lang)} {_ARROWS[card.direction]}"


def _punishments() -> list[Any]:
    return [card for card in load_deck().cards if card.kind == "punishment"]


def _lone_punishments(lang: str) -> dict[str, list[str]]:
    """A Punishment card as a game without one or both of its characters shows it (the engine's
    `shown_in`): its name and text by the one character it still names, "" for none."""
    lang = "fr" if lang == "fr" else "en"
    out = {}
    for card in _punishments():
        for cid in (*card.characters, ""):
            shown = card.shown_in([cid])
            out[cid] = [shown[f"name_{lang}"], shown[f"text_{lang}"]]
    return out


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
        "card_characters": {c.id: list(c.characters) for c in _punishments() if c.characters},
        "punishments": _lone_punishments(lang),
        "card_texts": {
            card.id: _lines_in_words(card.display.text(lang), lang) for card in load_deck().cards
        },
    }


# The compositions' names in French (the engine's catalogue names them in English).
_COMPOSITIONS_FR = {
    "beginner": "Débutant",
    "expert-competition": "Expert : mode Compétition",
    "expert-suspicion": "Expert : mode Suspicion",
    "s2-suspicion-1-guard": "Saison 2 : Suspicion avec 1 gardien (4 ou 5 joueurs)",
    "s2-suspicion-1-guard-example": "Saison 2 : Suspicion avec 1 gardien, l'exemple de la règle",
    "s2-suspicion-2-guards": "Saison 2 : Suspicion avec 2 gardiens (5 à 8 joueurs)",
    "s2-suspicion-2-guards-example": "Saison 2 : Suspicion avec 2 gardiens, l'exemple de la règle",
    "s2-competition-team": "Saison 2 : Compétition ou Équipe",
    "s2-cooperation-standard": "Saison 2 : Coopération, niveau standard",
    "s2-cooperation-standard-example": (
        "Saison 2 : Coopération, niveau standard, l'exemple de la règle"
    ),
    "s2-cooperation-madness": "Saison 2 : Coopération, niveau Folie",
    "s2-solo-standard": "Saison 2 : Solo, niveau standard",
    "s2-solo-madness": "Saison 2 : Solo, niveau Folie",
    "ultimate-suspicion-1-guard": "Ultimate : Suspicion avec 1 gardien (4 ou 5 joueurs)",
    "ultimate-suspicion-2-guards": "Ultimate : Suspicion avec 2 gardiens (5 à 8 joueurs)",
    "ultimate-cooperation": "Ultimate : Coopération et Solo (standard et Folie)",
    "ultimate-competition-team": "Ultimate : Compétition ou Équipe (suggestion de la Saison 2)",
}


def composition_name(composition: Any, lang: str) -> str:
    """A composition as the wizard lists it, in the page's language (English otherwise)."""
    if lang == "fr":
        return _COMPOSITIONS_FR.get(composition.id, composition.name)
    return str(composition.name)
