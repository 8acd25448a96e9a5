"""The few words the OLED shows, in English and French, from the companion's message catalogue
(`oled_*` in companion/web/i18n/<lang>/oled.json, beside the pages' texts and the voice's); the
screens fit, wrap or shorten them to the 128-pixel lines (tests/hardware/test_fit.py checks every
one)."""

from __future__ import annotations

from companion.messages import LANGUAGES, texts

PREFIX = "oled_"  # the OLED's keys in the message catalogue (i18n/<lang>/oled.json)
WORDS: dict[str, dict[str, str]] = {
    lang: {
        key.removeprefix(PREFIX): text
        for key, text in texts(lang).items()
        if key.startswith(PREFIX)
    }
    for lang in LANGUAGES
}


def word(lang: str, key: str, **values: object) -> str:
    """The word for `key` in `lang` (English when the language or the key is unknown)."""
    table = WORDS.get(lang, WORDS["en"])
    text = table.get(key) or WORDS["en"].get(key, key)
    return text.format(**values) if values else text


def name_of(character: str | None) -> str:
    """A character id as the table reads it: "emmett" -> "Emmett"."""
    return (character or "?").replace("_", " ").title()
