"""A sentence decided before its reader's language is known (a deck file's mistake, a refused
composition, a bad setting): a key of the catalogue and its values, put into words when shown.
A value may itself be one (a problem inside "card 3, field 'line': ..."), or anything `Sayable`
(an engine's refusal), said in the same language; a value named `choices` is a list of things
to type, each quoted; a value named `lines` a list said after the text, one a line, each
bulleted (a deck's many mistakes); a key the catalogue writes by count (`key_one`, `key_other`)
is chosen by `n`, by the language's plural rules. A `Said` crosses JSON (a refusal's values,
sent to a page) as `as_data`, and is read back by `said_from`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from .catalogue import fallback, texts
from .fill import fill, plural, quoted


@runtime_checkable
class Sayable(Protocol):
    """A value that says itself in a language (a `Said`, an engine's refusal)."""

    def text(self, lang: str) -> str: ...


@dataclass(frozen=True)
class Said:
    """A text of the catalogue (`key`) with its values, said in any language."""

    key: str
    params: dict[str, object] = field(default_factory=dict, hash=False)

    def text(self, lang: str = "") -> str:
        def named(name: str, value: object, lang: str) -> str | None:
            if isinstance(value, Sayable):
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
        said = fill(lang, template or self.key, self.params, namer=named)
        lines = self.params.get("lines")
        if isinstance(lines, list | tuple):
            said += "".join(BULLET + _in(lang, line) for line in lines)
        return said

    def __str__(self) -> str:
        return self.text(fallback())

    def as_data(self) -> dict[str, Any]:
        """The key and its values as JSON can hold them (a value that is itself one too)."""
        return {SAID: self.key, "params": {k: _data(v) for k, v in self.params.items()}}


def say(key: str, /, **params: object) -> Said:
    """A `Said` written as a call: `say("deck_count_too_low", count=0)`."""
    return Said(key, params)


def said_from(data: object) -> Said | None:
    """The `Said` that `as_data` wrote, or None for data that is not one."""
    if not (isinstance(data, dict) and isinstance(data.get(SAID), str)):
        return None
    params = data.get("params")
    values = params.items() if isinstance(params, dict) else ()
    return Said(data[SAID], {k: _read(v) for k, v in values})


SAID = "said"
BULLET = "\n  - "


def _in(lang: str, line: object) -> str:
    return line.text(lang) if isinstance(line, Said) else str(line)


def _data(value: object) -> object:
    if isinstance(value, Said):
        return value.as_data()
    if isinstance(value, list | tuple):
        return [_data(item) for item in value]
    return value


def _read(value: object) -> object:
    if isinstance(value, list):
        return [_read(item) for item in value]
    return said_from(value) or value


def kind_of(value: object) -> str:
    """What YAML and JSON call a value: "null", "flag", "number", "text", "list", "mapping",
    else "other" (a file's reader names what it found by it, `<topic>_value_<kind>`)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "flag"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "list"
    return "mapping" if isinstance(value, dict) else "other"
