"""English and French: every text a page or a refusal uses exists in both tables."""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.engine import COMMAND_TYPES
from companion.web.guard import ERROR_CODES
from companion.words import languages, own_texts
from companion.words.pages import names, table, text

WEB = Path(__file__).resolve().parents[2] / "companion" / "web"
WORDS = WEB.parent / "words"


def _keys_used() -> set[str]:
    found: set[str] = set()
    for template in (WEB / "templates").glob("*.html"):
        found |= set(re.findall(r"\bt\.([a-z0-9_]+)", template.read_text()))
    for script in (WEB / "static").glob("*.js"):
        code = script.read_text()
        found |= set(re.findall(r"""\bt\(\s*"([a-z0-9_]+)"\s*[,)]""", code))
        # A counted text is asked for by its stem (`tn("turns_left", n)`): its plural forms.
        for stem in re.findall(r"""\btn\(\s*"([a-z0-9_]+)"\s*,""", code):
            found |= {stem + "_one", stem + "_other"}
        # A sentence about someone (`withName("whose_action", id)`).
        found |= set(re.findall(r"""\bwithName\(\s*"([a-z0-9_]+)"\s*,""", code))
    # The web's modules, and the table's history, whose words the host's page shows too.
    for module in [*WEB.glob("*.py"), WEB.parent / "story" / "history.py"]:
        asked = r"""(?:refusal|text)\(\s*lang(?:\(\))?,\s*"([a-z_]+)\""""
        found |= set(re.findall(asked, module.read_text()))
    return found


def test_every_language_has_every_key():
    fallback = own_texts(languages()[0])
    for lang in languages():
        found = own_texts(lang)
        assert sorted(set(fallback) - set(found)) == [], lang
        assert all(found[k].strip() for k in found), lang


def test_a_key_is_written_in_one_file_of_its_language():
    """Topic files (`words/<lang>/*.json`) add texts; one that silently overrode another's would
    change a page far from the feature it was written for."""
    for lang in languages():
        files = sorted((WORDS / lang).glob("*.json"))
        seen: dict[str, str] = {}
        for path in files:
            for key in json.loads(path.read_text("utf-8")):
                if key.startswith("_"):
                    continue
                assert key not in seen, f"{key} is in both {seen[key]} and {path.name}"
                seen[key] = path.name


def test_every_key_the_pages_and_the_api_use_is_in_the_tables():
    used = _keys_used()
    assert len(used) > 100  # the scan found the pages' texts, not nothing
    assert sorted(used - set(table("en"))) == []


def test_every_key_in_the_tables_is_used():
    """A text no page, script or refusal asks for is dead. Scripts also ask for a key built from
    a prefix (`"phase_" + waiting.phase`) or a command's type (`t(command.type)`)."""
    scripts = "".join(p.read_text() for p in (WEB / "static").glob("*.js"))
    prefixes = tuple(set(re.findall(r'"([a-z][a-z_]*_)"\s*\+', scripts)))
    assert "phase_" in prefixes
    used = _keys_used() | set(ERROR_CODES.values()) | set(COMMAND_TYPES)
    # The voice's phrases (`spoken_*`, i18n/<lang>/voice.json) are said, not shown: the voice's
    # own test checks each is asked for (tests/voice/test_catalogue.py); the OLED's words
    # (`oled_*`, i18n/<lang>/oled.json) are drawn, and tests/hardware/test_fit.py fits them;
    # the wiring check's words (`check_*`, i18n/<lang>/check.json) are mostly the hardware's:
    # tests/hardware/test_check.py checks each is asked for, here or there.
    # The refusals, notices, reasons and names are said by Python code (their own tests).
    mine = ("spoken_", "oled_", "check_", "refusal_", "name_", "notice_", "button_", "reason_")
    mine += ("composition_", "rule_", "room_name_", "room_short_", "room_text_", "character_base_")
    mine += ("mac_card_", "panel_", "compose_", "deck_", "cli_", "config_", "serve_")
    # What other modules hand the command line: tests/test_pseudo_cli.py checks each is asked for.
    mine += ("journal_", "scenario_", "simulate_", "stats_")
    # A seat's previews (`previews_*`): tests/teaching/test_preview.py checks each is given.
    mine += ("previews_",)
    # The project's words in a rule's sources (`rules_cite_*`, asked for by rule_texts.json's
    # placeholders): tests/engine/test_rules_texts.py checks each is asked for.
    mine += ("rules_cite_",)
    en = {k: v for k, v in own_texts("en").items() if not k.startswith(mine)}
    unused = (k for k in en if k not in used and not k.startswith(prefixes))
    assert sorted(unused) == []


def test_fields_are_filled_in_each_language():
    assert text("en", "seat_taken", seat="3") == (
        "Seat 3 is taken by another phone; the host can free it."
    )
    assert text("fr", "seat_taken", seat="3").startswith("La place 3 est prise")
    assert text("xx", "wrong_pin") == "Wrong PIN."


def test_rooms_and_characters_are_named_in_both_languages():
    assert names("en")["rooms"]["flooded"] == "Flooded chamber"
    assert names("fr")["rooms"]["central"] == "Salle centrale"
    assert names("fr")["characters"]["franck"] == "Franck (le Beau Gosse)"
    assert names("en")["colours"]["acid"] == "red"


def test_a_mac_card_is_named_for_players_with_its_line_named_like_the_cells():
    """A card's id keeps the deck file's numbering from 0 (`move-row0-east` slides the top row);
    what a page shows names that line in words ("row 1", "colonne D"), in the page's language,
    and says what the card does with its lines in words too."""
    english, french = names("en")["cards"], names("fr")["cards"]
    assert english["move-row0-east-x2"] == "Complex Movement x2 · row 1 →"
    assert french["move-col3-north"] == "Déplacement du complexe · colonne D ↑"
    assert english["time-bomb"] == "Time bomb" and french["time-bomb"] == "Bombe à retardement"
    assert not any("row0" in name or "col3" in name for name in english.values())
    effects = [*names("en")["card_texts"].values(), *names("fr")["card_texts"].values()]
    assert len(effects) == 2 * len(english)
    assert not [e for e in effects if re.search(r"\b(row[0-9]|col[A-E0-9])\b", e)]
