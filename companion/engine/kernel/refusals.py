"""Refusals as codes with parameters, put into words in the reader's language by the catalogue.

A refusal is decided once, as a stable code and JSON-ready parameters (character ids, room
kinds, actions, cells such as "C3", a deck's or a composition's mistake as its catalogue key and
values, `Said.as_data`); the language is chosen only when it is shown. The
sentences (`refusal_<code>`) and the names of actions, abilities, talents and directions
(`name_<kind>_<id>`) live in `companion/words/<lang>/refusals.json`; modes and editions are
named once, as the pages name them (`mode_<id>`, `edition_<id>` in `pages.json`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from companion import words
from companion.words.said import Said, said_from

from .catalogue import characters, room_name, rooms

PREFIX = "refusal_"
# The kinds of values said by a name of the catalogue, with the prefix of their keys.
NAMED = {
    **{kind: f"name_{kind}_" for kind in ("action", "ability", "direction", "talent", "shown")},
    **{kind: f"{kind}_" for kind in ("mode", "edition")},
}


def catalogue() -> dict[str, Mapping[str, str]]:
    """Every refusal code with its sentence in each language, the one list of them."""
    return words.by_code(PREFIX)


def ability_names(lang: str) -> dict[str, str]:
    """The abilities a talent token may carry, by their names in a language."""
    found = words.texts(lang)
    return {
        key.removeprefix("name_ability_"): text
        for key, text in found.items()
        if key.startswith("name_ability_")
    }


def _said(name: str, value: object, lang: str) -> str | None:
    """A parameter in words: ids by their names in the language."""
    said = said_from(value)
    if said is not None:
        return said.text(lang)
    single = {"abilities": "ability", "what": "shown"}.get(name, name.removesuffix("s"))
    if not isinstance(value, str):
        return None
    if single == "character":
        entry = characters().get(value)
        return entry["name"] if entry else words.quoted(lang, value)
    if single == "room":
        return room_name(value, lang) if value in rooms() else words.quoted(lang, value)
    if single in NAMED:
        return words.texts(lang).get(NAMED[single] + value, value)
    return None


def refusal_text(code: str, params: dict, lang: str = "") -> str:
    """The sentence of a refusal in a language (the fallback for a language not offered)."""
    template = words.texts(lang).get(PREFIX + code)
    if template is None:
        return code
    return words.fill(lang, template, params, namer=_said)


def _json_ready(value: object) -> object:
    """A value as a page gets it: a sentence of the catalogue as its key and values."""
    if isinstance(value, Said):
        return value.as_data()
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True)
class Refusal:
    """Why a command or a setup was refused: a stable code and its parameters."""

    code: str
    params: dict[str, object] = field(default_factory=dict, hash=False)

    def text(self, lang: str = "") -> str:
        return refusal_text(self.code, self.params, lang)

    def __str__(self) -> str:
        return self.text(words.fallback())

    def __reduce__(self) -> tuple:
        """Pickled by its fields (a refusal crosses from the processes of `room25 simulate
        --jobs`), which the compiled build's frozen classes need."""
        return (Refusal, (self.code, self.params))

    def as_dict(self, lang: str = "") -> dict:
        return {"code": self.code, "params": dict(self.params), "text": self.text(lang)}


class Refused(Exception):
    """A command the rules do not allow now, or an impossible setup: `refusal` says why."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.refusal = Refusal(code, {k: _json_ready(v) for k, v in params.items()})

    def __str__(self) -> str:
        # Put into words only when shown: the rules and the players' searches refuse often.
        return str(self.refusal)
