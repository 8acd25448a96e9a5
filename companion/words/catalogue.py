"""The language folders and their texts, read without Flask so that the pages, the OLED, the
voice, the engine's refusals and the recap all take their words from the same place.

A language is a folder of this package holding `language.json`; its texts are every other JSON
file in it (one a topic: `pages.json`, `oled.json`, `refusals.json`...), keys prefixed by their
topic where they are not the pages' own. Adding a language is adding a folder: nothing here or
anywhere else names one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

SETTINGS = "language.json"
# A topic file's section naming the grammatical gender ("m", "f"...) of what its texts say by
# id (a character): what a language's words agree with.
GENDERS = "_genders"
# A folder of more language folders beside the package's (a language tried out before it is
# added, the tests' pseudo-locale): the same layout, read the same way.
EXTRA = "ROOM25_WORDS"


def _folder() -> Traversable:
    return resources.files(__package__)


@cache
def _language_folders() -> dict[str, Traversable]:
    """Every language folder found: the package's, then those of `$ROOM25_WORDS`."""
    places: list[Traversable] = [_folder()]
    if os.environ.get(EXTRA):
        places.append(Path(os.environ[EXTRA]))
    found: dict[str, Traversable] = {}
    for place in places:
        for entry in place.iterdir():
            if entry.is_dir() and entry.joinpath(SETTINGS).is_file():
                found.setdefault(entry.name, entry)
    return found


def _json(path: Traversable) -> dict[str, Any]:
    return dict(json.loads(path.read_text("utf-8")))


@cache
def fallback() -> str:
    """The language every text is written in, used where another lacks one."""
    return str(_json(_folder().joinpath("about.json"))["fallback"])


@cache
def languages() -> tuple[str, ...]:
    """Every language of the catalogue, the fallback first, then by code."""
    found = sorted(_language_folders())
    return (fallback(), *(code for code in found if code != fallback()))


def offered(lang: object) -> str:
    """`lang` if the catalogue has it, else the fallback."""
    return lang if isinstance(lang, str) and lang in languages() else fallback()


@cache
def settings(lang: str) -> dict[str, Any]:
    """A language's `language.json`: its name, voice, plural rules, elision, typography."""
    return _json(_language_folders()[offered(lang)].joinpath(SETTINGS))


@cache
def own_texts(lang: str) -> dict[str, str]:
    """The texts written in one language, its topic files read in name order."""
    found: dict[str, str] = {}
    for path in _topics(lang):
        found.update(_texts_of(path))
    return found


def _texts_of(path: Traversable) -> dict[str, str]:
    """A topic file's texts, without its sections (`_genders`)."""
    return {k: v for k, v in _json(path).items() if not k.startswith("_")}


def _topics(lang: str) -> list[Traversable]:
    """A language's topic files, in name order."""
    folder = _language_folders()[offered(lang)]
    found = [path for path in folder.iterdir() if path.name.endswith(".json")]
    return sorted((path for path in found if path.name != SETTINGS), key=lambda path: path.name)


@cache
def genders(lang: str) -> dict[str, str]:
    """The genders a language's words agree with (French "Alice est éliminée"), by id: its own
    folder's alone, as one language's genders are no other's; none for a language whose words
    need none (a form is then its `other`)."""
    found: dict[str, str] = {}
    for topic in _topics(lang):
        found.update(_json(topic).get(GENDERS, {}))
    return found


@cache
def texts(lang: str) -> dict[str, str]:
    """A language's texts, the fallback's filling any key it lacks (a language not offered is
    the fallback)."""
    lang = offered(lang)
    if lang == fallback():
        return own_texts(lang)
    return {**own_texts(fallback()), **own_texts(lang)}


@cache
def topic(lang: str, name: str) -> dict[str, str]:
    """One topic's texts in a language (`cards` is `cards.json`), the fallback's filling any
    key it lacks: for words said in every language at once (a M.A.C. card's, which a game's
    events carry in each), without reading the languages' other topics."""
    lang = offered(lang)
    own = _topic_texts(lang, name)
    return own if lang == fallback() else {**_topic_texts(fallback(), name), **own}


def _topic_texts(lang: str, name: str) -> dict[str, str]:
    path = _language_folders()[lang].joinpath(f"{name}.json")
    return _texts_of(path) if path.is_file() else {}


class Written(Mapping[str, str]):
    """One key's text in each language that writes it, a language's texts read only when
    its text is asked for: a table that speaks English never reads the others'."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __getitem__(self, lang: str) -> str:
        if lang not in languages():
            raise KeyError(lang)
        return own_texts(lang)[self.key]

    def __iter__(self) -> Iterator[str]:
        return (lang for lang in languages() if self.key in own_texts(lang))

    def __len__(self) -> int:
        return sum(1 for _ in self)


def by_code(prefix: str) -> dict[str, Mapping[str, str]]:
    """Every code of a kind (`refusal_`, `notice_`...) with its text in each language that
    writes it: the fallback language lists the codes, so knowing a code reads no other."""
    return {
        key.removeprefix(prefix): Written(key)
        for key in own_texts(fallback())
        if key.startswith(prefix)
    }


def names() -> dict[str, str]:
    """Each language by its own name, for the language menus."""
    return {lang: str(settings(lang)["name"]) for lang in languages()}
