"""The table's notices as codes with parameters, put into words in the reader's language.

A notice (a phone offline, the journal unwritable, a device missing...) is raised once, as a
stable code and JSON-ready parameters; each phone and the OLED say it in their own language
when they show it. The lines live in `notices.json`, the one place the codes are listed; the
pages get the same templates through `page_texts`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

LANGUAGES = ("en", "fr")
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


@cache
def _file() -> dict:
    return json.loads(resources.files(__package__).joinpath("notices.json").read_text("utf-8"))


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """Every notice code with its line in each language."""
    return {code: texts for code, texts in _file().items() if not code.startswith("_")}


def button_names(lang: str) -> dict[str, str]:
    """The control buttons' names in a language (a button not listed is named by its id)."""
    return dict(_file()["_buttons"].get(lang, {}))


def is_problem(code: object) -> bool:
    """Whether a notice is a problem to fix (a phone offline, a device missing), not news (a
    seat asked for, a game resumed): the OLED's problem screen is for problems only."""
    return code in _file()["_problems"]


def page_texts(lang: str) -> dict[str, str]:
    """The notice templates as page texts, `notice_<code>`, for the pages' `t()`."""
    lang = lang if lang in LANGUAGES else "en"
    return {f"notice_{code}": texts[lang] for code, texts in catalogue().items()}


def _word(name: str, value: object, lang: str) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if name == "button":
        return button_names(lang).get(str(value), str(value))
    return str(value)


def notice_text(code: str, params: Mapping[str, object], lang: str = "en") -> str:
    """The line of a notice in a language (English for a language not offered)."""
    template = catalogue()[code][lang if lang in LANGUAGES else "en"]
    return PLACEHOLDER.sub(lambda m: _word(m[1], params.get(m[1], ""), lang), template)


def shown(notice: Mapping, lang: str) -> str:
    """A published notice (`as_dict`) in a language; one the catalogue does not know (from a
    newer or older companion) by its English text."""
    code = notice.get("code")
    if code not in catalogue():
        return str(notice.get("text", ""))
    return notice_text(code, notice.get("params") or {}, lang)


@dataclass(frozen=True)
class Notice:
    """A problem the whole table must know: a code of the catalogue and its parameters."""

    code: str
    params: dict[str, object] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if self.code not in catalogue():
            raise ValueError(f"no notice {self.code!r} in notices.json")

    def text(self, lang: str = "en") -> str:
        return notice_text(self.code, self.params, lang)

    def __str__(self) -> str:
        return self.text("en")

    def as_dict(self) -> dict:
        """What an update carries: the code, its parameters and the English line."""
        return {"code": self.code, "params": dict(self.params), "text": self.text("en")}


def about_the_game(notices: Iterable[Notice], seats: Collection[str] | None) -> list[Notice]:
    """The notices worth telling while `seats` play: one about a seat the game does not have
    ("phone of seat 5 offline" in a 4-player game, a claim kept from an earlier game) is left
    out; with no game (`None`) every notice stays."""
    if seats is None:
        return list(notices)
    return [n for n in notices if "seat" not in n.params or str(n.params["seat"]) in seats]
