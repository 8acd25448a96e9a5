"""The one way a text of the catalogue gets its values: `{name}`, `{name|or}` / `{name|and}` (a
list joined with the language's word), `{name!r}` (a value shown as typed, quoted),
`{name:form}` (a form picked by the value's plural category or gender, its `{n}` the value),
with the language's elision where a value meets the word before it and its typography (the
no-break space French sets before : ; ? !).

The pages' script fills the same way (`common.js`, `t`), from the same `language.json`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from .catalogue import offered, settings
from .plurals import category

PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?::([a-z_]+))?(?:\|(or|and))?(!r)?\}")

# How a parameter is said: (its name, one value, the language) -> words, or None for as is.
Namer = Callable[[str, object, str], "str | None"]
# A form of a word: (form, plural category or gender, the language) -> its text with {n}.
Former = Callable[[str, str, str], "str | None"]


def placeholders(template: str) -> set[str]:
    """The parameter names a text uses."""
    return {m[1] for m in PLACEHOLDER.finditer(template)}


def plural(lang: str, count: int) -> str:
    """CLDR's plural category of a count in a language ("one", "other"...)."""
    return category(settings(lang)["plural"], count)


def joined(lang: str, items: list[str], join: str = "") -> str:
    """Items as a list in the language: "Max, Alice and Sarah" for `and`."""
    words = settings(lang)["lists"]
    if join and len(items) > 1:
        return words[""].join(items[:-1]) + words[join] + items[-1]
    return str(words[""]).join(items)


def typography(lang: str, text: str) -> str:
    """`text` with the no-break space (U+00A0, which the OLED's Latin-1 font draws) the language
    sets before `space_before`'s signs, in place of a space or none (a sign ending a word, as
    in "Prêt ?" or "Prêt?") that ends a word, a bracket or the text, not one inside a word or
    a time ("12:05"); as the pages' script does it."""
    signs = settings(lang).get("space_before", "")
    if not signs:
        return text
    return re.sub(rf"[ \u00a0\u202f]?([{re.escape(signs)}])(?=[\s)\]»]|$)", "\u00a0\\1", text)


def colon(lang: str) -> str:
    """What follows a label before its value: ": ", with the no-break space some languages set
    before it."""
    return typography(lang, ": ")


def quoted(lang: str, value: object) -> str:
    left, right = settings(lang)["quotes"]
    return f"{left}{value}{right}"


def _elision(lang: str) -> re.Pattern[str] | None:
    rule = settings(lang).get("elision")
    if not rule:
        return None
    words = "|".join(re.escape(word) for word in rule["words"])
    return re.compile(rf"(?i:\b({words}) )$")


def elide(lang: str, before: str, value: str) -> str:
    """`before` ready to be followed by `value`: "de " before "Emmett" is "d'" in French."""
    pattern = _elision(lang)
    rule = settings(lang).get("elision") or {}
    if pattern is None or not value[:1] or value[:1].lower() not in rule["before"]:
        return before
    if value[1:2].isdigit():  # a cell ("de A3") is read letter by letter: no elision
        return before
    return pattern.sub(lambda m: m[1][:-1] + "'", before)


def _said(lang: str, name: str, value: object, join: str, namer: Namer | None) -> str:
    if isinstance(value, list | tuple):
        return joined(lang, [_said(lang, name, v, "", namer) for v in value], join)
    found = namer(name, value, lang) if namer else None
    return str(value) if found is None else found


def _pick(lang: str, value: object, gender: Callable[[object], str] | None) -> str:
    if isinstance(value, list | tuple):
        return plural(lang, len(value))
    if isinstance(value, int):
        return plural(lang, value)
    return gender(value) if gender else "other"


def fill(
    lang: str,
    template: str,
    params: Mapping[str, object],
    namer: Namer | None = None,
    former: Former | None = None,
    gender: Callable[[object], str] | None = None,
    join: str = "",
) -> str:
    """`template` with its placeholders filled in `lang`; a placeholder whose value is not
    given stays as written (a test then sees it). A list is joined with `join` unless the
    placeholder names its own word."""
    lang = offered(lang)
    out: list[str] = []
    last = 0
    for match in PLACEHOLDER.finditer(template):
        name, form, joiner, raw = match.groups()
        out.append(template[last : match.start()])
        last = match.end()
        if name not in params:
            out.append(match[0])
            continue
        value = params[name]
        if raw:
            said = quoted(lang, value)
        else:
            said = _said(lang, name, value, joiner or join, namer)
            if form and former:
                shape = former(form, _pick(lang, value, gender), lang)
                said = shape.replace("{n}", said) if shape is not None else said
        if out:
            out[-1] = elide(lang, out[-1], said)
        out.append(said)
    out.append(template[last:])
    return typography(lang, "".join(out))
