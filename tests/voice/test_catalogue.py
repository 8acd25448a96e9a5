"""The spoken phrases of the message catalogue: English and French for every line with the same
parameters, plural and gender forms, French elision, and the catalogues' own names for every
character, room, cause and card the engine knows."""

from __future__ import annotations

import pytest
from imports import loaded_by

from companion.engine import load_deck
from companion.engine.kernel.catalogue import characters, room_name, rooms
from companion.session.notices import Notice
from companion.voice.catalogue import (
    cause_name,
    entries,
    gender,
    say,
    spoken,
)
from companion.voice.samples import sample_lines
from companion.voice.script import Line
from companion.words import elide, fallback, genders, languages, plural, texts, typography
from companion.words.fill import PLACEHOLDER

LANGUAGES = languages()


def _fields(template: str) -> list[tuple[str, str]]:
    return [(m[1], m[2] or "") for m in PLACEHOLDER.finditer(template)]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != fallback()])
def test_every_line_in_each_language_with_the_same_parameters(lang: str) -> None:
    english, other = entries(fallback()), entries(lang)
    # Beyond the English keys, only the forms of the genders the language gives (`_m`, `_f`).
    agreed = {f"_{each}" for each in genders(lang).values()}
    extra = {key for key in set(other) - set(english) if key[key.rfind("_") :] not in agreed}
    assert set(english) <= set(other) and extra == set()
    for key in english:
        assert english[key].strip() and other[key].strip(), key
        assert {name for name, _ in _fields(english[key])} == {
            name for name, _ in _fields(other[key])
        }, key
        if any(c.isalpha() for c in english[key]) and key not in ("programming", "card"):
            assert english[key] != other[key], f"{key}: the {lang} is a copy of the English"


def test_every_form_a_line_asks_for_is_there() -> None:
    """A form is a plural (`_one`, `_other`) or a gender: one form a gender the language gives
    (`_m`, `_f` in French), and `_other` for what it gives none (English agrees with nothing:
    its gender forms are `_other` alone)."""
    for lang in LANGUAGES:
        found = entries(lang)
        forms: dict[str, set[str]] = {}
        for key in found:
            if key.startswith("form_"):
                name, _, pick = key.removeprefix("form_").rpartition("_")
                forms.setdefault(name, set()).add(pick)
        for key, template in found.items():
            for _, form in _fields(template):
                if form:
                    assert form in forms, f"{lang} {key}: no form {form}"
        for name, picks in forms.items():
            assert picks in ({"one", "other"}, {"other", *genders(lang).values()}), name


def test_plural_rules() -> None:
    assert [plural("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural("fr", n) for n in (0, 1, 2)] == ["one", "one", "other"]
    assert say("en", "alarm", {"turns_left": 1}) == "Room 25 has been found: last turn."
    assert say("en", "alarm", {"turns_left": 5}) == "Room 25 has been found: 5 turns left."
    assert say("fr", "alarm", {"turns_left": 5}) == (
        "La salle 25 a été trouvée\u00a0: plus que 5 tours."
    )
    assert say("en", "winners", {"seats": ["2"]}) == "Winners: seat 2."
    assert say("fr", "winners", {"seats": ["1", "3", "5"]}) == "Gagnants\u00a0: places 1, 3 et 5."


def test_french_elision_and_agreement() -> None:
    said = [say("fr", "actor_1", {"character": who}) for who in ("emmett", "kevin")]
    assert said == [
        "Au tour d'Emmett\u00a0: première action.",
        "Au tour de Kevin\u00a0: première action.",
    ]
    assert say("fr", "time_warning", {"left": 1}) == "Programmation\u00a0: plus qu'une seconde."
    assert say("fr", "time_warning", {"left": 30}) == "Programmation\u00a0: plus que 30 secondes."
    assert say("fr", "eliminated", {"character": "alice", "cause": "acid"}) == (
        "Alice est éliminée\u00a0: Bain d'acide."
    )
    assert say("fr", "eliminated", {"character": "max", "cause": "time_bomb"}) == (
        "Max est éliminé\u00a0: Bombe à retardement."
    )
    assert elide("fr", "Action de ", "Alice") == "Action d'"
    assert elide("fr", "que ", "il") == "qu'"
    assert elide("fr", "de la place ", "3") == "de la place "  # before a consonant, nothing
    assert elide("en", "the role of ", "Alice") == "the role of "  # English elides nothing


def test_every_character_has_a_gender_in_each_language_that_agrees_and_a_name() -> None:
    """French and German agree with a character's gender; English gives none."""
    assert genders(fallback()) == {} and gender("alice", fallback()) == "other"
    agreeing = [lang for lang in LANGUAGES if genders(lang)]
    assert {"fr", "de"} <= set(agreeing)
    for lang in agreeing:
        assert set(genders(lang)) == set(characters()), lang
        assert {gender(character, lang) for character in characters()} == {"m", "f"}, lang
    for character in characters():
        assert character.capitalize() in say("en", "actor_2", {"character": character})


def test_german_agrees_with_the_character() -> None:
    assert say("de", "role_guard", {"character": "alice"}) == "Alice war eine Wächterin."
    assert say("de", "role_prisoner", {"character": "max"}) == "Max war ein Gefangener."
    assert say("en", "role_guard", {"character": "alice"}) == "Alice was a guard."


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rooms_and_causes_are_named_from_the_catalogues(lang: str) -> None:
    for room in rooms():
        assert room_name(room, lang) in say(lang, "room_revealed", {"room": room})
    for cause in spoken()["_causes"]:
        named = cause_name(cause, lang)
        assert named and "_" not in named, cause
    assert cause_name("time_bomb", lang) == load_deck().by_id("time-bomb").display.name(lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_of_the_deck_is_said_with_its_name_and_what_to_do_now(lang: str) -> None:
    """Issue 28: a card is said short, its name and what the table does now; its whole text
    stays on the phones and the table page."""
    for card in load_deck().cards:
        text = Line.of("card", card=card.as_json()).text(lang)
        assert "{" not in text and len(text) > 25, card.id
        if card.kind not in ("complex_movement", "punishment"):
            key = "_".join(["mac", card.kind, *filter(None, [card.colour])])
            now = typography(lang, entries(lang)[key])
            assert card.display.name(lang) in text and now in text
            assert card.display.text(lang) not in text
    alone = load_deck().by_id("punish-emmett-max").shown_in({"emmett", "kevin"})
    said_alone = {
        "en": "Emmett loses an action token.",
        "fr": "Emmett perd un jeton action.",
        "de": "Emmett verliert einen Aktionsmarker.",
    }
    assert said_alone[lang] in Line.of("card", card=alone).text(lang)
    assert "Max" not in Line.of("card", card=alone).text(lang)
    row = load_deck().by_id("move-row1-east").as_json()
    said = {
        "en": "Complex movement. Row 2 slides east.",
        "fr": "La rangée 2 glisse vers l'est.",
        "de": "Komplexbewegung. Reihe 2 nach Osten.",
    }
    assert said[lang] in Line.of("card", card=row).text(lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_lesson_is_said_with_its_rule_and_not_only_its_name(lang: str) -> None:
    """Issue 32: a table that never read the rulebook hears each lesson's one or two sentences
    (lessons_<id>_said), in the order the notice lists them, once each."""
    lesson = Notice("lesson", {"lessons": ["action_control", "slide"]}).as_dict()
    said = Line.of("notice", notice=lesson).text(lang)
    control, slide = (texts(lang)[f"lessons_{key}_said"] for key in ("action_control", "slide"))
    assert said.index(control) < said.index(slide)
    assert said.count(control) == 1 and ".." not in said and "{" not in said
    assert texts(lang)["lessons_slide_name"] in said


def test_every_spoken_text_of_the_catalogue_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    """The voice's keys in the message catalogue (`spoken_*`) are used by the voice, not by the
    pages (tests/web/test_i18n.py leaves them to this test): the samples, every kind of
    announcement, ask for each of them in every language."""
    import companion.voice.catalogue as catalogue

    asked: set[str] = set()

    class Recorded(dict):
        def get(self, key, default=None):  # type: ignore[override]
            asked.add(key)
            return super().get(key, default)

    monkeypatch.setattr(catalogue, "texts", lambda lang: Recorded(texts(lang)))
    for lang in LANGUAGES:
        asked.clear()
        for lines in sample_lines().values():
            for line in lines:
                line.text(lang)
        # A character the language gives no gender (one new to it) is said in the `_other` forms.
        for key in ("eliminated", "role_prisoner", "role_guard"):
            say(lang, key, {"character": "newcomer", "cause": "acid"})
        written = {key for key in texts(lang) if key.startswith("spoken_")}
        assert len(written) > 50  # the phrases are in the message catalogue, beside the pages'
        assert sorted(written - asked) == [], lang


def test_the_voice_reads_the_catalogue_without_flask() -> None:
    """The voice runs beside a rig with no web server (and a Pi's memory is small): it reads
    the catalogue through `companion.words`, never through the web package."""
    code = (
        "from companion.voice.samples import sample_lines; "
        "[line.text('fr') for lines in sample_lines().values() for line in lines]"
    )
    assert loaded_by(code, "flask", "companion.web") == []


def test_french_signs_get_their_no_break_space_before_a_bracket_but_not_in_a_time() -> None:
    """A sign ending a bracket is a sign ending a word ("(le mot « expect » ?)"); a colon
    inside a time or an address is not a sign to space."""
    assert typography("fr", "(le mot « expect » ?)") == "(le mot « expect »\u00a0?)"
    assert typography("fr", "[Prêt !]") == "[Prêt\u00a0!]"
    assert typography("fr", "À 12:05, http://room25.local") == "À 12:05, http://room25.local"
