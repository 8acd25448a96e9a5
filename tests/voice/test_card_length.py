"""Issue 28, point 2: a M.A.C. card is announced in at most 6 s, in each language, by the real
espeak-ng the table speaks with (its whole text stays on the phones and the table page)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine import load_deck
from companion.voice.cache import Cache
from companion.voice.engines import Espeak
from companion.voice.script import Line
from companion.voice.wav import duration
from companion.words import languages

LANGUAGES = languages()

LONGEST_CARD = 6.0  # seconds


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_is_said_in_six_seconds_at_most(lang: str, tmp_path: Path) -> None:
    cache, espeak = Cache(tmp_path), Espeak()
    deck = load_deck()
    cast = {"emmett", "kevin"}  # a Punishment card naming one character of the game says its own
    shown = [card.as_json() for card in deck.cards] + [
        card.shown_in(cast) for card in deck.cards if card.kind == "punishment"
    ]
    lengths = {
        card["id"]: duration(cache.clip(espeak, Line.of("card", card=card).text(lang), lang))
        for card in shown
    }
    longest = max(lengths, key=lengths.__getitem__)
    assert lengths[longest] <= LONGEST_CARD, (longest, lengths[longest])
