"""The table's notices as codes with parameters, put into words in the reader's language.

A notice (a phone offline, the journal unwritable, a device missing...) is raised once, as a
stable code and JSON-ready parameters; each phone and the OLED say it in their own language
when they show it. The lines live in the catalogue (`companion/words/<lang>/notices.json`), the
one place the codes are listed; the pages get the same templates with their other texts.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from companion import words

from .shapes import NoticeView

PREFIX = "notice_"


@cache
def _problems() -> frozenset[str]:
    path = resources.files(__package__).joinpath("notices.json")
    return frozenset(json.loads(path.read_text("utf-8"))["problems"])


@cache
def catalogue() -> dict[str, Mapping[str, str]]:
    """Every notice code with its line in each language, the one list of them."""
    return words.by_code(PREFIX)


def is_problem(code: object) -> bool:
    """Whether a notice is a problem to fix (a phone offline, a device missing), not news (a
    seat asked for, a game resumed): the OLED's problem screen is for problems only."""
    return code in _problems()


def _said(name: str, value: object, lang: str) -> str | None:
    if name == "button":
        return words.texts(lang).get(f"button_{value}", str(value))
    if name == "lessons":  # a lesson by its name (companion/words/<lang>/lessons.json)
        return words.texts(lang).get(f"lessons_{value}_name", str(value))
    return None


def notice_text(code: str, params: Mapping[str, object], lang: str = "") -> str:
    """The line of a notice in a language (the fallback for a language not offered)."""
    template = words.texts(lang)[PREFIX + code]
    shown = {name: params.get(name, "") for name in words.placeholders(template)}
    return words.fill(lang, template, shown, namer=_said)


def shown(notice: Mapping, lang: str) -> str:
    """A published notice (`as_dict`) in a language; one the catalogue does not know (from a
    newer or older companion) by its English text."""
    code = notice.get("code")
    if code not in catalogue():
        return str(notice.get("text", ""))
    return notice_text(str(code), notice.get("params") or {}, lang)


@dataclass(frozen=True)
class Notice:
    """A problem the whole table must know: a code of the catalogue and its parameters."""

    code: str
    params: dict[str, object] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if self.code not in catalogue():
            raise ValueError(f"no notice {self.code!r} in the catalogue")

    def text(self, lang: str = "") -> str:
        return notice_text(self.code, self.params, lang)

    def __str__(self) -> str:
        return self.text("")

    def as_dict(self) -> NoticeView:
        """What an update carries: the code, its parameters and the English line."""
        return {"code": self.code, "params": dict(self.params), "text": self.text("")}


def about_the_game(notices: Iterable[Notice], seats: Collection[str] | None) -> list[Notice]:
    """The notices worth telling while `seats` play: one about a seat the game does not have
    ("phone of seat 5 offline" in a 4-player game, a claim kept from an earlier game) is left
    out; with no game (`None`) every notice stays."""
    if seats is None:
        return list(notices)
    return [n for n in notices if "seat" not in n.params or str(n.params["seat"]) in seats]
