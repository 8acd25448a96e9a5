"""A M.A.C. card's words in every language of the catalogue (`mac_card_*` in
companion/words/<lang>/cards.json): the name and text a card of the default deck says its effect
with, and those composed for a Complex Movement card (its line, steps and direction) and a
Punishment card (the characters it pictures, or those of them in the game).

A game's events carry a drawn card's words in each language, so they are read from that one
topic of each language: a table that speaks English reads no other language's other texts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from companion import words

from .grid import line_key

PREFIX = "mac_card_"
TOPIC = "cards"


@dataclass(frozen=True)
class Display:
    """A card's name and effect text by language (pairs, so that a card stays hashable), for
    the OLED and the phones; a language it lacks reads the fallback language's."""

    names: tuple[tuple[str, str], ...]
    texts: tuple[tuple[str, str], ...]

    def name(self, lang: str = "") -> str:
        """The card's name in `lang` (the fallback language's for one the card lacks)."""
        return _in(self.names, lang)

    def text(self, lang: str = "") -> str:
        """The card's effect in `lang` (the fallback language's for one the card lacks)."""
        return _in(self.texts, lang)

    def fields(self) -> dict[str, str]:
        """The display as a deck file writes it: `name_<lang>` and `text_<lang>` for every
        language of the catalogue."""
        found: dict[str, str] = {}
        for lang in words.languages():
            found[f"name_{lang}"] = self.name(lang)
            found[f"text_{lang}"] = self.text(lang)
        return found


def _in(pairs: tuple[tuple[str, str], ...], lang: str) -> str:
    found = dict(pairs)
    return found.get(words.offered(lang)) or found[words.fallback()]


def display(names: Mapping[str, str], texts: Mapping[str, str]) -> Display:
    """A display from a name and a text by language (the fallback language's among them), in
    the language's typography whoever wrote it (the catalogue or an owner's deck file)."""
    return Display(_typeset(tuple(names.items())), _typeset(tuple(texts.items())))


@cache
def _typeset(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """Kept by the words, like the catalogue they come from: a game's deck is read again from
    its `game_created` event at every replay, and typesetting its words was most of the fold."""
    return tuple((lang, words.typography(lang, text)) for lang, text in pairs)


def _composed(key: str, **params: object) -> dict[str, str]:
    """A text of the catalogue filled in each language."""
    return {
        lang: words.fill(lang, words.topic(lang, TOPIC)[PREFIX + key], params)
        for lang in words.languages()
    }


@cache
def own_display(card_id: str) -> Display | None:
    """The words the catalogue has for a card of the default deck, or None."""
    name, text = f"{PREFIX}{card_id}_name", f"{PREFIX}{card_id}_text"
    if name not in words.topic(words.fallback(), TOPIC):
        return None
    return display(
        {lang: words.topic(lang, TOPIC)[name] for lang in words.languages()},
        {lang: words.topic(lang, TOPIC)[text] for lang in words.languages()},
    )


@cache
def movement_display(axis: str, index: int, direction: str, twice: bool, again: bool) -> Display:
    """A Complex Movement card in words: which line slides, how far and which way."""
    names, texts = {}, {}
    for lang in words.languages():
        found = words.topic(lang, TOPIC)
        name = found[PREFIX + "movement_name"]
        if twice:
            name = words.fill(lang, found[PREFIX + "movement_twice"], {"name": name})
        text = words.fill(
            lang,
            found[PREFIX + "movement_text"],
            {
                "line": found[f"{PREFIX}line_{axis}{index}"],
                "key": line_key(axis, index),
                "steps": found[PREFIX + ("steps_two" if twice else "steps_one")],
                "direction": found[f"{PREFIX}direction_{direction}"],
            },
        )
        if again:
            name = words.fill(lang, found[PREFIX + "movement_draw_again"], {"name": name})
            text = words.fill(lang, found[PREFIX + "draw_again_text"], {"text": text})
        names[lang], texts[lang] = name, text
    return display(names, texts)


def punishment_display(characters: Sequence[str]) -> Display:
    """A Punishment card's name and text for the characters it names: the two it pictures, or,
    shown in a game, only those of them in the game (one, or none and nothing happens)."""
    return _punishment(tuple(characters))


@cache
def _punishment(characters: tuple[str, ...]) -> Display:
    named = [c.capitalize() for c in characters]
    count = ("none", "one", "two")[len(named)]
    params = dict(zip(("first", "second"), named, strict=False))
    return display(
        _composed(f"punishment_{count}_name", **params),
        _composed(f"punishment_{count}_text", **params),
    )


def kind_name(kind: str, lang: str = "") -> str:
    """A kind of card as the deck's table names it ("Complex Movement")."""
    return words.topic(lang, TOPIC).get(f"{PREFIX}kind_{kind}", kind)
