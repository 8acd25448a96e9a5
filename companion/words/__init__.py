"""Every word a person reads or hears from the companion, in one catalogue: a folder a language
(`companion/words/<lang>/`), read here without Flask, and one way to fill a text in
(`fill`, with CLDR plural rules and the language's elision). See docs/languages.md."""

from __future__ import annotations

from collections.abc import Mapping

from .catalogue import (
    by_code,
    fallback,
    genders,
    languages,
    names,
    offered,
    own_texts,
    settings,
    texts,
    topic,
)
from .fill import colon, elide, fill, joined, placeholders, plural, quoted, typography

__all__ = [
    "by_code",
    "colon",
    "counted",
    "elide",
    "fallback",
    "fill",
    "genders",
    "joined",
    "languages",
    "names",
    "offered",
    "own_texts",
    "page_settings",
    "placeholders",
    "plural",
    "quoted",
    "settings",
    "text",
    "texts",
    "topic",
    "typography",
]


def text(lang: str, key: str, **params: object) -> str:
    """One text of the catalogue in `lang` with its values filled in (the key itself when no
    language has it)."""
    return fill(lang, texts(lang).get(key, key), params)


def counted(lang: str, key: str, count: int, **params: object) -> str:
    """A text that counts: `key_one`, `key_other`... by the language's plural rules."""
    found = texts(lang)
    chosen = f"{key}_{plural(lang, count)}"
    return fill(lang, found.get(chosen, found.get(f"{key}_other", key)), {"n": count, **params})


def page_settings(lang: str) -> Mapping[str, object]:
    """What the pages' script needs of a language to fill texts as `fill` does."""
    found = settings(lang)
    return {key: found.get(key) for key in ("elision", "space_before", "quotes", "lists")}
