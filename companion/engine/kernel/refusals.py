"""Refusals as codes with parameters, rendered in English or French from one catalogue.

A refusal is decided once, as a stable code and JSON-ready parameters (character ids, room
kinds, actions, cells such as "C3"); the table's language is chosen only when it is shown.
The sentences live in `data/refusals.json`, the one place the codes are listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from .catalogue import characters, load, rooms
from .ruleset import EDITION_NAMES, MODE_NAMES

LANGUAGES = ("en", "fr")

# A placeholder is {name}, or {name|or} / {name|and}: a list joined with a word, not a comma.
PLACEHOLDER = re.compile(r"\{([a-z_]+)(?:\|(or|and))?\}")

# The rulebooks' names of the actions (004 "Se déplacer, Regarder, Pousser, Contrôler"; 002
# "Talent spécial"). English keeps the command words the players type.
ACTION_NAMES = {
    "en": {"look": "look", "move": "move", "push": "push", "control": "control"},
    "fr": {
        "look": "Regarder",
        "move": "Se déplacer",
        "push": "Pousser",
        "control": "Contrôler",
        "talent": "Talent",
    },
}
DIRECTION_NAMES = {"fr": {"north": "nord", "south": "sud", "east": "est", "west": "ouest"}}
# Each character's special talent (002, LES TALENTS SPÉCIAUX); English from the registry.
TALENT_NAMES_FR = {
    "franck": "Récupérer",
    "jennifer": "Appeler",
    "max": "Porter",
    "kevin": "Pirater",
    "emmett": "Réactiver ou Verrouiller",
    "alice": "Se cacher",
    "sarah": "Saboter",
    "bruce": "Imiter",
}
# The abilities a talent token may carry (000, KEVIN, EMMETT, SARAH; 002, LES TALENTS SPÉCIAUX).
ABILITY_NAMES = {
    "en": {
        "hack_complex": "hack the complex",
        "hack_robot": "hack a robot",
        "lock": "lock",
        "reactivate": "reactivate",
        "sabotage_robot": "sabotage a robot",
        "sabotage_room": "sabotage a room",
    },
    "fr": {
        "hack_complex": "pirater le complexe",
        "hack_robot": "pirater un robot",
        "lock": "verrouiller",
        "reactivate": "réactiver",
        "sabotage_robot": "saboter un robot",
        "sabotage_room": "saboter une salle",
    },
}
JOINS = {"": {"en": ", ", "fr": ", "}, "or": {"en": " or ", "fr": " ou "}}
JOINS["and"] = {"en": " and ", "fr": " et "}
# French elides "de" and "que" before a name starting with a vowel: "l'action d'Emmett".
ELISION = re.compile(r"\b([Dd]e|[Qq]ue) (?=[AEIOUÉ][a-zé])")
QUOTES = {"en": ("'", "'"), "fr": ("« ", " »")}


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """Every refusal code with its sentence in each language."""
    return {code: texts for code, texts in load("refusals.json").items() if code != "_about"}


def _quoted(value: object, lang: str) -> str:
    left, right = QUOTES[lang]
    return f"{left}{value}{right}"


def _character(value: object, lang: str) -> str:
    entry = characters().get(value) if isinstance(value, str) else None
    return entry["name"] if entry else _quoted(value, lang)


def _room(value: object, lang: str) -> str:
    entry = rooms().get(value) if isinstance(value, str) else None
    return entry[f"name_{lang}"] if entry else _quoted(value, lang)


def _named(names: dict[str, dict[str, str]]):
    def render(value: object, lang: str) -> str:
        return names.get(lang, {}).get(value, str(value)) if isinstance(value, str) else str(value)

    return render


def _talent(value: object, lang: str) -> str:
    if lang == "fr" and value in TALENT_NAMES_FR:
        return TALENT_NAMES_FR[value]
    from ..rules.talents import TALENTS  # registered by the rules modules; imported late: no cycle

    talent = TALENTS.get(value) if isinstance(value, str) else None
    return talent.name if talent else str(value)


RENDER = {
    "character": _character,
    "room": _room,
    "action": _named(ACTION_NAMES),
    "ability": _named(ABILITY_NAMES),
    "direction": _named(DIRECTION_NAMES),
    "talent": _talent,
    "mode": _named(MODE_NAMES),
    # English sentences name an edition by its id, as a setup writes it ("the season2 box").
    "edition": _named({"fr": EDITION_NAMES["fr"]}),
}


def _render(name: str, value: object, lang: str, join: str) -> str:
    """A parameter in words: ids by their names in the language, lists joined."""
    single = "ability" if name == "abilities" else name.removesuffix("s")
    one = RENDER.get(single, lambda v, _lang: str(v))
    if isinstance(value, list | tuple):
        return JOINS[join][lang].join(one(v, lang) for v in value)
    return one(value, lang)


def refusal_text(code: str, params: dict, lang: str = "en") -> str:
    """The sentence of a refusal in a language (English for a language not offered)."""
    lang = lang if lang in LANGUAGES else "en"
    texts = catalogue().get(code)
    if texts is None:
        return code
    text = PLACEHOLDER.sub(
        lambda m: _render(m[1], params.get(m[1], ""), lang, m[2] or ""), texts[lang]
    )
    return ELISION.sub(lambda m: f"{m[1][:-1]}'", text) if lang == "fr" else text


def placeholders(template: str) -> set[str]:
    """The parameter names a sentence uses."""
    return {m[1] for m in PLACEHOLDER.finditer(template)}


def _json_ready(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True)
class Refusal:
    """Why a command or a setup was refused: a stable code and its parameters."""

    code: str
    params: dict[str, object] = field(default_factory=dict, hash=False)

    def text(self, lang: str = "en") -> str:
        return refusal_text(self.code, self.params, lang)

    def __str__(self) -> str:
        return self.text("en")

    def __reduce__(self) -> tuple:
        """Pickled by its fields (a refusal crosses from the processes of `room25 simulate
        --jobs`), which the compiled build's frozen classes need."""
        return (Refusal, (self.code, self.params))

    def as_dict(self, lang: str = "en") -> dict:
        return {"code": self.code, "params": dict(self.params), "text": self.text(lang)}


class Refused(Exception):
    """A command the rules do not allow now, or an impossible setup: `refusal` says why."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.refusal = Refusal(code, {k: _json_ready(v) for k, v in params.items()})

    def __str__(self) -> str:
        # Put into words only when shown: the rules and the players' searches refuse often.
        return str(self.refusal)
