"""A sentence decided before its reader's language is known (a deck file's mistake, a refused
composition, a bad setting): a key of the catalogue and its values, put into words when shown.
A value may itself be one (a problem inside "card 3, field 'line': ..."), said in the same
language; a value named `choices` is a list of things to type, each quoted; a key the catalogue
writes by count (`key_one`, `key_other`) is chosen by `n`, by the language's plural rules."""

from __future__ import annotations

from dataclasses import dataclass, field

from .catalogue import fallback, texts
from .fill import fill, plural, quoted


@dataclass(frozen=True)
class Said:
    """A text of the catalogue (`key`) with its values, said in any language."""

    key: str
    params: dict[str, object] = field(default_factory=dict, hash=False)

    def text(self, lang: str = "") -> str:
        def named(name: str, value: object, lang: str) -> str | None:
            if isinstance(value, Said):
                return value.text(lang)
            if name == "choices":
                return quoted(lang, value)
            return None

        found = texts(lang)
        template = found.get(self.key)
        count = self.params.get("n")
        if template is None and isinstance(count, int):  # a text that counts: key_one, ...
            template = found.get(
                f"{self.key}_{plural(lang, count)}", found.get(self.key + "_other")
            )
        return fill(lang, template or self.key, self.params, namer=named)

    def __str__(self) -> str:
        return self.text(fallback())


def say(key: str, /, **params: object) -> Said:
    """A `Said` written as a call: `say("deck_count_too_low", count=0)`."""
    return Said(key, params)
