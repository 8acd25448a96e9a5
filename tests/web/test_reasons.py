"""Why a game ended, as a code with parameters said by the catalogue in each language (issue 30,
point 2): no sentence matching; an old journal's English sentence is shown as it is."""

from __future__ import annotations

import pytest

from companion import words
from companion.engine.rules.modes import countdown_outcome
from companion.words.reasons import reason_text


@pytest.mark.parametrize(
    ("outcome", "english", "french"),
    [
        (
            {"reason": "players_escaped", "reason_params": {"players": ["1", "3"]}},
            "Player 1 and Player 3 escaped.",
            "Joueur 1 et Joueur 3\u00a0: évasion réussie.",
        ),
        (
            {"reason": "team_last_alive", "reason_params": {"team": "A"}},
            "Team A is the last alive.",
            "Équipe A\u00a0: dernier en vie.",
        ),
        (
            {"reason": "countdown_team_ahead", "reason_params": {"team": "B"}},
            "The countdown ran out; Team B has the most prisoners in Room 25.",
            "Le compte à rebours est écoulé\u00a0; Équipe B a le plus de prisonniers "
            "dans la Room 25.",
        ),
    ],
)
def test_reasons_naming_players_or_teams(outcome, english, french):
    assert reason_text(outcome, "en") == english
    assert reason_text(outcome, "fr") == french


def test_every_reason_code_is_said_in_every_language():
    codes = [k for k in words.own_texts(words.fallback()) if k.startswith("reason_")]
    assert len(codes) >= 14
    for lang in words.languages():
        missing = [code for code in codes if code not in words.own_texts(lang)]
        assert missing == [], lang


def test_the_engine_gives_a_code_the_catalogue_knows(tmp_path):
    """A real outcome of the engine (a Suspicion game run out of time) is a code with
    parameters, said without falling back to the code itself."""
    from companion.engine import start

    state = start({"edition": "base", "mode": "suspicion", "players": 4, "seed": 5}).state
    outcome = countdown_outcome(state, set())
    assert outcome["reason"] in ("countdown", "countdown_no_guard")
    for lang in words.languages():
        assert reason_text(outcome, lang) != outcome["reason"]


def test_an_old_journals_sentence_and_the_hosts_end():
    assert reason_text({"reason": "Everyone escaped."}, "fr") == "Everyone escaped."
    assert reason_text(None, "en") == "The host ended the game."
    assert reason_text(None, "fr") == "L'hôte a mis fin à la partie."
