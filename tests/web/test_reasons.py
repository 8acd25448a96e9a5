"""Why a game ended, said in French too (issue 21, point 10): every reason the engine can give
has its French sentence, the ones naming players or teams included."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.web.reasons import reason_text

MODES = Path(__file__).resolve().parents[2] / "companion" / "engine" / "rules" / "modes.py"


def _fixed_reasons() -> list[str]:
    """The engine's plain reason sentences, read from its own source."""
    source = MODES.read_text()
    return re.findall(r'_outcome\(\s*"[a-z_]+",[^"]*?"([^"{}]+\.)"\s*\)', source, re.S)


def test_every_fixed_reason_is_said_in_french():
    reasons = _fixed_reasons()
    assert len(reasons) >= 9
    untranslated = [r for r in reasons if reason_text(r, "fr") == r]
    assert untranslated == []
    assert all(reason_text(r, "en") == r for r in reasons)


@pytest.mark.parametrize(
    ("english", "french"),
    [
        ("Player 1 and Player 3 escaped.", "Joueur 1 et Joueur 3 : évasion réussie."),
        ("Team A is the last alive.", "Équipe A : dernier en vie."),
        (
            "The countdown ran out; Team B has the most prisoners in Room 25.",
            "Le compte à rebours est écoulé ; l'équipe B a le plus de prisonniers dans la Room 25.",
        ),
    ],
)
def test_reasons_naming_players_or_teams(english, french):
    assert reason_text(english, "fr") == french


def test_the_hosts_end_of_a_game_has_its_reason():
    assert reason_text(None, "en") == "The host ended the game."
    assert reason_text(None, "fr") == "L'hôte a mis fin à la partie."
