"""Issue 28: the Timer room is named as the French rulebook names it, "Salle chrono"
(002_e232164e7c8dd598.txt, SALLE CHRONO), on every screen: each French text of the pages, the
OLED, the voice and the engine's refusals whose English names the Timer room says "chrono"."""

from __future__ import annotations

from companion.engine.kernel.catalogue import room_name
from companion.words import texts

RULEBOOK = "Salle chrono"


def test_the_room_catalogue_names_it_as_the_french_rulebook() -> None:
    assert room_name("timer", "fr") == RULEBOOK


def test_every_french_text_naming_the_timer_room_says_salle_chrono() -> None:
    english, french = texts("en"), texts("fr")
    pairs = [(key, english[key], french[key]) for key in english]
    naming = [(key, fr) for key, en, fr in pairs if "timer room" in en.lower()]
    # The refusals are in the same catalogue (refusal_<code>), so they are among the pairs.
    assert {"oled_timer", "oled_cause_timer", "log_turns_reduced"} <= {key for key, _ in naming}
    wrong = [(key, fr) for key, fr in naming if RULEBOOK.lower() not in fr.lower()]
    assert wrong == []
