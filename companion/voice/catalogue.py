"""The spoken phrases put into words: plural and gender forms, the catalogues' own names for
characters, rooms and cards, and French elision.

The phrases live in the catalogue with the pages' texts (`spoken_<line>` in
`companion/words/<lang>/voice.json`, a form as `spoken_form_<form>_<one|other|m|f>`) and are
filled in by its one routine (`companion.words.fill`: plural rules, lists, elision);
`events.json` here says which line each public event kind is said with and the causes of an
elimination; the characters' genders are their language's (its `_genders`, `words.genders`).

A line is a key of the catalogue and its parameters as the events carry them (character and room
ids, numbers, lists); the names are looked up here, so the same line reads right in each language.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources

from companion import words
from companion.engine.kernel.catalogue import room_name as kernel_room_name
from companion.words import texts

PREFIX = "spoken_"  # the voice's keys in the message catalogue


@cache
def _engine_data(name: str, key: str) -> dict[str, dict]:
    """A catalogue of the engine's data files by id (the pages read them the same way)."""
    path = resources.files("companion.engine").joinpath("data").joinpath(name)
    return {entry["id"]: entry for entry in json.loads(path.read_text("utf-8"))[key]}


def characters() -> dict[str, dict]:
    return _engine_data("characters.json", "characters")


def rooms() -> dict[str, dict]:
    return _engine_data("rooms.json", "rooms")


@cache
def spoken() -> dict:
    """`events.json`, parsed once: the line of each event kind, the causes."""
    return json.loads(resources.files(__package__).joinpath("events.json").read_text("utf-8"))


def _text(lang: str, key: str) -> str | None:
    return texts(lang).get(PREFIX + key)


def entries(lang: str) -> dict[str, str]:
    """The voice's texts in a language by their key without the prefix: its lines, and its
    forms as `form_<form>_<one|other|m|f>`."""
    found = texts(lang)
    return {key.removeprefix(PREFIX): text for key, text in found.items() if key.startswith(PREFIX)}


def gender(character: str, lang: str) -> str:
    """A character's grammatical gender in a language (French agreement: "éliminé",
    "éliminée"), or `other` where the language gives it none (English gives none)."""
    return words.genders(lang).get(character, "other")


def character_name(character: str) -> str:
    """A character as the box names it ("Emmett")."""
    return characters().get(character, {}).get("name", character.replace("_", " ").title())


def room_name(room: str, lang: str) -> str:
    """A room kind as the rulebook of the language names it."""
    return kernel_room_name(room, lang)


def joined(names: Sequence[str], lang: str) -> str:
    """ "Max", "Max and Alice", "Max, Alice and Sarah" (et in French)."""
    return words.joined(lang, list(names), "and")


def has_line(lang: str, key: str) -> bool:
    """Whether the catalogue has the line (a card of an owner's deck may have none)."""
    return _text(lang, key) is not None


def line_text(lang: str, key: str) -> str:
    """A line of the catalogue as written, without parameters."""
    found = _text(lang, key)
    if found is None:
        raise KeyError(f"no {PREFIX}{key} in the message catalogue")
    return found


def _named(name: str, value: object, lang: str) -> str | None:
    """A parameter in words: characters and rooms by their names."""
    if name in ("character", "characters"):
        return character_name(str(value))
    if name == "room":
        return room_name(str(value), lang)
    if name == "cause":
        return cause_name(str(value), lang)
    if name == "result":
        return _text(lang, f"result_{value}") or str(value)
    return None


def card_name(card: str, lang: str) -> str:
    """A M.A.C. card of the packaged deck by its name in the language."""
    from companion.engine import load_deck

    return load_deck().by_id(card).display.name(words.offered(lang))


def cause_name(cause: str, lang: str) -> str:
    """Why a character was eliminated: the room, the card, or a line of the catalogue."""
    where, _, what = str(spoken()["_causes"].get(cause, f"line:{cause}")).partition(":")
    if where == "room":
        return room_name(what, lang)
    if where == "card":
        return card_name(what, lang)
    return _text(lang, what) or cause.replace("_", " ")


def _form(form: str, pick: str, lang: str) -> str | None:
    return _text(lang, f"form_{form}_{pick}")


def say(lang: str, key: str, params: Mapping[str, object] | None = None) -> str:
    """The line `key` in `lang` with its parameters in words."""
    text = words.fill(
        lang,
        line_text(lang, key),
        params or {},
        namer=_named,
        former=_form,
        gender=lambda value: gender(str(value), lang),
        join="and",
    )
    return text[:1].upper() + text[1:]
