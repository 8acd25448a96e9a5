"""Notice codes: one catalogue, English and French for every code with the same placeholders,
every code the companion raises listed there (found by reading its source) with the parameters
its line uses, and every listed code raised somewhere."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from companion.session.notices import Notice, catalogue, shown
from companion.words import languages
from companion.words.fill import PLACEHOLDER
from companion.words.pages import table

LANGUAGES = languages()

COMPANION = Path(__file__).resolve().parents[2] / "companion"


def _placeholders(line: str) -> set[str]:
    return {m[1] for m in PLACEHOLDER.finditer(line)}


def test_every_code_has_both_languages_with_the_same_placeholders() -> None:
    raw = json.loads((COMPANION / "session" / "notices.json").read_text("utf-8"))
    assert set(raw["problems"]) <= set(catalogue())
    for code, texts in catalogue().items():
        assert set(texts) == set(LANGUAGES), code
        assert all(texts[lang].strip() for lang in LANGUAGES), code
        assert texts["en"] != texts["fr"], f"{code}: the French is a copy of the English"
        assert _placeholders(texts["en"]) == _placeholders(texts["fr"]), code


def _raised() -> dict[str, set[str]]:
    """Each code a `Notice("code", {...})` in the companion's source raises, with the parameter
    names it is given."""
    found: dict[str, set[str]] = {}
    for module in COMPANION.rglob("*.py"):
        for node in ast.walk(ast.parse(module.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Notice"):
                continue
            code = node.args[0]
            assert isinstance(code, ast.Constant), f"{module}: a notice code must be a literal"
            params = node.args[1] if len(node.args) > 1 else ast.Dict(keys=[], values=[])
            assert isinstance(params, ast.Dict), f"{module}: {code.value}'s parameters"
            found[code.value] = {k.value for k in params.keys if isinstance(k, ast.Constant)}
    return found


# Parameters a notice carries for its card, not its line: a lesson's rules at a tap and which
# showing it is (docs/teaching.md, "On the pages").
FOR_THE_CARD = {"lesson": {"rules", "shown"}}


def test_every_code_raised_is_in_the_catalogue_with_the_parameters_its_line_uses() -> None:
    raised = _raised()
    assert set(raised) == set(catalogue())
    for code, params in raised.items():
        said = params - FOR_THE_CARD.get(code, set())
        assert said == _placeholders(catalogue()[code]["en"]), code


def test_a_notice_reads_in_each_language_and_keeps_its_english() -> None:
    late = Notice("time_up", {"seats": ["2", "4"]})
    assert late.as_dict() == {
        "code": "time_up",
        "params": {"seats": ["2", "4"]},
        "text": "Time is up: the host decides (still programming: 2, 4)",
    }
    assert late.text("fr") == (
        "Le temps est écoulé\u00a0: l'hôte décide (encore en programmation\u00a0: 2, 4)"
    )
    assert Notice("button_stuck", {"button": "back"}).text("fr") == "Bouton Retour bloqué"
    assert Notice("button_stuck", {"button": "3"}).text("fr") == "Bouton 3 bloqué"
    assert Notice("oled_missing").text("xx") == "OLED missing"
    assert shown(Notice("phone_offline", {"seat": "2"}).as_dict(), "fr") == (
        "Téléphone de la place 2 hors ligne"
    )
    assert shown({"code": "from_a_newer_companion", "text": "something new"}, "fr") == (
        "something new"
    )
    assert table("fr")["notice_seconds_left"] == "Plus que {left} secondes pour programmer"


def test_an_unknown_code_is_refused_when_raised() -> None:
    with pytest.raises(ValueError, match="no notice"):
        Notice("no_such_notice")
