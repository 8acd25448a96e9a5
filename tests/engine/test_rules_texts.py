"""Rules at a tap (issue 20): every room, M.A.C. card, talent, action and mode of the three
editions has its rule in English and in French, as the edition and the game's settings decide
it, with the rulebooks' other reading beside the decision."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from companion.engine import (
    ACTIONS,
    EDITIONS,
    MODES,
    make_ruleset,
    refusal_text,
    rule_subjects,
    rule_text,
    rule_texts,
    start,
)
from companion.engine.kernel.catalogue import characters, room_name, rooms
from companion.engine.kernel.mac_cards import KIND_LEVELS
from companion.engine.kernel.ruleset import SETTING_CHOICES, SETTING_NAMES, Settings
from companion.words import languages, own_texts

DATA = Path(__file__).resolve().parents[2] / "companion" / "engine" / "data" / "rule_texts.json"
# A source's part (between "; ") as docs/languages.md writes the rule: books' numbers and the
# project's words (`{tile_text}`), and after one of them, from its ", " or ": " to the next
# project's word, the book's own words as printed.
BOOKS_OWN = r"(?<=[\d}])[,:] ([^;{]*)"
CITED = re.compile(rf"(?:\d{{3}}(?: / \d{{3}})?|\{{[a-z_]+\}}|{BOOKS_OWN}| )+")


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_subject_of_every_edition_has_its_rule_in_both_languages(edition, lang) -> None:
    found = rule_texts(lang, edition)
    assert [r.id for r in found] == rule_subjects(edition)
    for rule in found:
        assert rule.name.strip() and rule.text.strip() and rule.source.strip(), rule.id
        for point in rule.points:
            assert point.about.strip() and point.others, rule.id
            for reading in (point.chosen, *point.others):
                assert reading.text.strip() and reading.source.strip(), (rule.id, reading)
    if lang == "fr":
        english = {r.id: r.text for r in rule_texts("en", edition)}
        assert sum(r.text != english[r.id] for r in found) == len(found)


def test_the_three_editions_cover_every_catalogue_and_the_file_names_nothing_else() -> None:
    everything = {rule_id for edition in EDITIONS for rule_id in rule_subjects(edition)}
    expected = {f"room:{kind}" for kind in rooms()}
    expected |= {f"card:{kind}" for kind in KIND_LEVELS}
    expected |= {f"talent:{cid}" for cid in characters()}
    expected |= {f"action:{a}" for a in (*ACTIONS, "talent", "adrenaline")}
    expected |= {f"mode:{mode}" for mode in MODES}
    assert everything == expected
    assert set(json.loads(DATA.read_text("utf-8"))["texts"]) == expected
    assert "room:twin" in rule_subjects("base") and "room:twin" not in rule_subjects("season2")
    assert not any(r.startswith(("card:", "talent:")) for r in rule_subjects("base"))


def test_every_point_reads_a_real_setting_and_has_a_reading_for_each_of_its_values() -> None:
    for rule_id, entry in json.loads(DATA.read_text("utf-8"))["texts"].items():
        key = "rule_" + rule_id.replace(":", "_")
        for n, point in enumerate(entry.get("points", ())):
            for lang in languages():
                written = own_texts(lang)  # the words are in the catalogue, rule_<id>_point<n>_*
                assert written[f"{key}_point{n}_about"].strip(), rule_id
                for reading in point["readings"]:
                    assert written[f"{key}_point{n}_{reading}"].strip(), (rule_id, lang)
            setting = point.get("setting")
            if setting is None:
                assert list(point["readings"]) == ["decision", "other"], rule_id
                continue
            assert setting in SETTING_NAMES, rule_id
            values = SETTING_CHOICES.get(setting, ("true", "false"))
            assert set(point["readings"]) == set(values), (rule_id, setting)


def test_a_room_whose_rule_differs_by_edition_shows_each_editions_decision() -> None:
    def deadline(edition: str, lang: str) -> str:
        rule = rule_text("room:flooded", lang, edition)
        return next(p for p in rule.points if p.setting == "flooded_deadline").chosen.text

    assert "second action" in deadline("base", "en")
    assert "next turn ends" in deadline("season2", "en")
    assert "deuxième action" in deadline("ultimate", "fr")
    assert "fin du tour suivant" in deadline("season2", "fr")
    base = rule_text("room:flooded", "en", "base").points[0]
    assert [r.value for r in base.others] == ["end_of_next_turn"]
    assert "002" in base.others[0].source
    # A point of the later editions only: no Adrenaline in the base game's Cold chamber.
    assert len(rule_text("room:cold", "en", "base").points) == 1
    assert len(rule_text("room:cold", "en", "season2").points) == 2


def test_a_mode_and_a_card_read_as_their_edition_says() -> None:
    assert "8 turns." in rule_text("mode:cooperation", "en", "base").text
    assert "Key room" in rule_text("mode:cooperation", "en", "season2").text
    assert "9 avec 7" in rule_text("mode:suspicion", "fr", "ultimate").text
    bomb = {e: rule_text("card:time_bomb", "en", e).points[0].chosen.value for e in EDITIONS}
    assert bomb == {"base": "false", "season2": "false", "ultimate": "true"}


def test_a_games_own_settings_decide_over_its_editions_defaults() -> None:
    settings = replace(Settings(), flooded_deadline="end_of_next_turn", masks="left_outside")
    flooded = rule_text("room:flooded", "en", "base", settings).points[0]
    assert flooded.chosen.value == "end_of_next_turn"
    masks = next(p for p in rule_text("mode:suspicion", "en", "base", settings).points
                 if p.setting == "masks")  # fmt: skip
    assert masks.chosen.value == "left_outside"
    game = start({"edition": "base", "mode": "suspicion", "players": 4, "seed": 3,
                  "settings": {"tunnel_choice": "may"}}).state  # fmt: skip
    assert game.ruleset.settings.tunnel_choice == "may"
    tunnel = rule_text("room:tunnel", "en", "season2", game.ruleset.settings).points[0]
    assert tunnel.chosen.value == "may"


def test_names_are_the_ones_the_engines_refusals_use() -> None:
    for lang in ("en", "fr"):
        for cid in characters():
            said = refusal_text("not_a_way_to_use_talent", {"talent": cid, "ways": []}, lang)
            name = rule_text(f"talent:{cid}", lang, "ultimate").name
            assert name.split(" : " if lang == "fr" else ": ", 1)[1] in said, (cid, lang)
        for kind in rooms():
            assert rule_text(f"room:{kind}", lang, "ultimate").name == room_name(kind, lang)


def test_an_unknown_rule_or_edition_is_refused() -> None:
    with pytest.raises(KeyError):
        rule_text("room:ballroom")
    with pytest.raises(ValueError, match="choose one of base, season2, ultimate"):
        rule_subjects("season3")
    assert make_ruleset("season2", "solo").settings.solo_programming is True


def _sources(found: object) -> list[str]:
    """Every `source` of a rule's data, nested in its points' readings."""
    if isinstance(found, dict):
        return [*([found["source"]] if "source" in found else []), *_sources(list(found.values()))]
    if isinstance(found, list):
        return [s for item in found for s in _sources(item)]
    return []


def test_a_source_is_books_the_catalogues_words_and_the_books_own() -> None:
    """Nothing of the project's words is written in a source but as a placeholder, the only
    thing besides the books' numbers outside a book's own words: its `rules_cite_` text is
    the reader's, in every language (web/rules.py `cited`), and no other is in the catalogue."""
    sources = _sources(json.loads(DATA.read_text("utf-8"))["texts"])
    assert len(sources) == 110
    assert [s for s in sources if not all(CITED.fullmatch(p) for p in s.split("; "))] == []
    named = {f"rules_cite_{n}" for s in sources for n in re.findall(r"\{([a-z_]+)\}", s)}
    assert len(named) > 10
    # Nor among a book's own words, where the rule above cannot tell it ("001, tile text").
    english = {w.strip() for k in named for w in re.split(r"[()]", own_texts("en")[k]) if w.strip()}
    owns = [own for s in sources for own in re.findall(BOOKS_OWN, s)]
    assert [
        (w, o) for o in owns for w in english if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", o)
    ] == []
    written = {
        lang: {k for k in own_texts(lang) if k.startswith("rules_cite_")} for lang in languages()
    }
    assert written == {lang: named for lang in languages()}
