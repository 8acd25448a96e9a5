"""The spoken phrases (`phrases.json`) put into words: plural and gender forms, the catalogues'
own names for characters, rooms and cards, and French elision.

A line is a key of the catalogue and its parameters as the events carry them (character and room
ids, numbers, lists); the names are looked up here, so the same line reads right in each language.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources

LANGUAGES = ("en", "fr")
FIELD = re.compile(r"\{([a-z_]+)(?::([a-z_]+))?\}")
# French drops the vowel of these words before a vowel: "de Emmett" -> "d'Emmett".
ELIDED = re.compile(r"\b([dDlLnNsS]e|[lL]a|[qQ]ue) (?=[aeiouyàâéèêëîïôûAEIOUYÀÂÉÈÊËÎÏÔÛ])")


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
def phrases() -> dict:
    """The catalogue file, parsed once."""
    return json.loads(resources.files(__package__).joinpath("phrases.json").read_text("utf-8"))


def language(lang: str) -> str:
    """A language the catalogue offers: English for any other."""
    return lang if lang in LANGUAGES else "en"


def plural(lang: str, count: int) -> str:
    """CLDR's plural category: French counts 0 and 1 as one, English only 1."""
    if lang == "fr":
        return "one" if count in (0, 1) else "other"
    return "one" if count == 1 else "other"


def gender(character: str) -> str:
    """A character's grammatical gender (French agreement: "éliminé", "éliminée")."""
    return phrases()["_gender"].get(character, "m")


def character_name(character: str) -> str:
    """A character as the box names it ("Emmett")."""
    return characters().get(character, {}).get("name", character.replace("_", " ").title())


def room_name(room: str, lang: str) -> str:
    """A room kind as the rulebook of the language names it."""
    entry = rooms().get(room)
    if entry is None:
        return room.replace("_", " ")
    return str(entry[f"name_{language(lang)}"])


def joined(names: Sequence[str], lang: str) -> str:
    """ "Max", "Max and Alice", "Max, Alice and Sarah" (et in French)."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {line_text(lang, 'and')} {names[-1]}"


def line_text(lang: str, key: str) -> str:
    """A line of the catalogue as written, without parameters."""
    return str(phrases()[language(lang)]["lines"][key])


def _named(name: str, value: object, lang: str) -> str:
    """A parameter in words: characters and rooms by their names, lists joined."""
    if isinstance(value, list | tuple):
        return joined([_named(name, v, lang) for v in value], lang)
    if name in ("character", "characters"):
        return character_name(str(value))
    if name == "room":
        return room_name(str(value), lang)
    if name == "cause":
        return cause_name(str(value), lang)
    if name == "result":
        lines = phrases()[language(lang)]["lines"]
        return str(lines.get(f"result_{value}", value))
    return str(value)


def card_name(card: str, lang: str) -> str:
    """A M.A.C. card of the packaged deck by its name in the language."""
    from companion.engine import load_deck

    return load_deck().by_id(card).display.name(language(lang))


def cause_name(cause: str, lang: str) -> str:
    """Why a character was eliminated: the room, the card, or a line of the catalogue."""
    where, _, what = str(phrases()["_causes"].get(cause, f"line:{cause}")).partition(":")
    if where == "room":
        return room_name(what, lang)
    if where == "card":
        return card_name(what, lang)
    lines = phrases()[language(lang)]["lines"]
    return str(lines.get(what, cause.replace("_", " ")))


def _form(lang: str, form: str, name: str, value: object) -> str:
    forms = phrases()[language(lang)]["forms"]
    if form not in forms:
        return _named(name, value, lang)  # a language without this agreement (English)
    choices = forms[form]
    if isinstance(value, list | tuple):
        pick = plural(lang, len(value))
    elif isinstance(value, int):
        pick = plural(lang, value)
    else:
        pick = gender(str(value))
    return str(choices[pick]).replace("{n}", _named(name, value, lang))


def elide(text: str) -> str:
    """French elision after the parameters are filled in: "que une" -> "qu'une"."""
    return ELIDED.sub(lambda m: m[1][:-1] + "'", text)


def say(lang: str, key: str, params: Mapping[str, object] | None = None) -> str:
    """The line `key` in `lang` with its parameters in words."""
    lang = language(lang)
    params = params or {}
    template = line_text(lang, key)
    text = FIELD.sub(
        lambda m: (
            _form(lang, m[2], m[1], params[m[1]]) if m[2] else _named(m[1], params[m[1]], lang)
        ),
        template,
    )
    if lang == "fr":
        text = elide(text)
    return text[:1].upper() + text[1:]
