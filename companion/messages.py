"""The companion's one message catalogue, read without Flask so that the pages, the OLED and the
voice all take their words from it.

Each language has a table (`companion/web/i18n/<lang>.json`) and topic files beside it
(`i18n/<lang>/<topic>.json`, one a feature, keys prefixed by their topic). A counted text is
written as `key_one` and `key_other`, picked by CLDR's plural rules (the pages' Intl.PluralRules,
`plural` here); French elides "de", "que", "le"... before a vowel (`elide`).
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

LANGUAGES = ("en", "fr")
# French drops the vowel of these words before a vowel: "de Emmett" -> "d'Emmett".
ELIDED = re.compile(r"\b([dDlLnNsS]e|[lL]a|[qQ]ue) (?=[aeiouyàâéèêëîïôûAEIOUYÀÂÉÈÊËÎÏÔÛ])")


def own_texts(lang: str) -> dict[str, str]:
    """The texts written in one language: `i18n/<lang>.json` and the topic files beside it in
    `i18n/<lang>/` (one a feature, so features grow without touching each other)."""
    # Through the `companion` package: `companion.web` would import Flask.
    folder = resources.files("companion").joinpath("web").joinpath("i18n")
    found = json.loads(folder.joinpath(f"{lang}.json").read_text("utf-8"))
    topics = folder.joinpath(lang)
    if topics.is_dir():
        for topic in sorted(topics.iterdir(), key=lambda path: path.name):
            if topic.name.endswith(".json"):
                found.update(json.loads(topic.read_text("utf-8")))
    return dict(found)


@cache
def texts(lang: str) -> dict[str, str]:
    """The catalogue of a language the companion offers (English for any other), read once."""
    return own_texts(lang if lang in LANGUAGES else "en")


def plural(lang: str, count: int) -> str:
    """CLDR's plural category, as the pages' Intl.PluralRules: French counts 0 and 1 as one,
    English only 1."""
    if lang == "fr":
        return "one" if count in (0, 1) else "other"
    return "one" if count == 1 else "other"


def elide(text: str) -> str:
    """French elision once the names are filled in: "que une" -> "qu'une", "de Emmett" ->
    "d'Emmett"."""
    return ELIDED.sub(lambda m: m[1][:-1] + "'", text)
