"""The few words the OLED shows, from the catalogue (`oled_*` in companion/words/<lang>/oled.json,
beside the pages' texts and the voice's); the screens fit, wrap or shorten them to the 128-pixel
lines (tests/hardware/test_fit.py checks every one)."""

from __future__ import annotations

from companion import words

PREFIX = "oled_"  # the OLED's keys in the catalogue (words/<lang>/oled.json)


def word(lang: str, key: str, **values: object) -> str:
    """The word for `key` in `lang` (the fallback language's when the language or the key is
    unknown), its values filled in."""
    found = words.texts(lang).get(PREFIX + key, key)
    return words.fill(lang, found, values)


def name_of(character: str | None) -> str:
    """A character id as the table reads it: "emmett" -> "Emmett"."""
    return (character or "?").replace("_", " ").title()
