"""Refusal codes (issue 7, point 4): one catalogue, English and French for every code, every
code the engine raises listed there and every listed code raised; real refusals carry their
code and parameters and read well in both languages. The same both-languages check for the
M.A.C. cards and the rooms."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from companion.engine import Refusal, Refused, apply, start
from companion.engine.face.position import set_position
from companion.engine.kernel.catalogue import room_name, rooms
from companion.engine.kernel.mac_deck import load_deck
from companion.engine.kernel.refusals import catalogue, refusal_text
from companion.words import languages, own_texts, placeholders

LANGUAGES = languages()

ENGINE = Path(__file__).resolve().parents[2] / "companion" / "engine"
WORDS = ENGINE.parent / "words"
SESSION = ENGINE.parent / "session"
CODE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")


def test_the_catalogue_file_is_the_one_list_and_every_code_has_both_languages() -> None:
    raw = json.loads((WORDS / "en" / "refusals.json").read_text("utf-8"))
    codes = {code.removeprefix("refusal_") for code in raw if code.startswith("refusal_")}
    assert codes == set(catalogue()) and len(codes) > 100
    for code, texts in catalogue().items():
        assert CODE.fullmatch(code), code
        assert set(texts) == set(LANGUAGES), code
        assert all(texts[lang].strip() for lang in LANGUAGES), code
        assert texts["en"] != texts["fr"], f"{code}: the French is a copy of the English"
        assert placeholders(texts["en"]) == placeholders(texts["fr"]), code


def _calls(tree: ast.AST):
    """Every `Refused(...)` call, and every `cell_named(value, "code")` (which raises it)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "Refused":
                yield node, node.args[0] if node.args else None
            elif node.func.id == "cell_named" and len(node.args) == 2:
                yield node, node.args[1]


def _assigned(tree: ast.AST, name: str) -> list[ast.expr]:
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    ]


def _defaults(tree: ast.AST, name: str) -> list[ast.expr]:
    """The default values of a function parameter of that name."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            positional = node.args.args[len(node.args.args) - len(node.args.defaults) :]
            found += [
                d for a, d in zip(positional, node.args.defaults, strict=True) if a.arg == name
            ]
    return found


def _codes(tree: ast.AST, arg: ast.expr | None) -> set[str]:
    """The codes a call's first argument can take: a literal, either branch of `a if c else
    b`, a local name assigned such values, or an f-string matched against the catalogue."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return {arg.value}
    if isinstance(arg, ast.IfExp):
        return _codes(tree, arg.body) | _codes(tree, arg.orelse)
    if isinstance(arg, ast.Name):
        values = [*_assigned(tree, arg.id), *_defaults(tree, arg.id)]
        return {code for value in values for code in _codes(tree, value)}
    if isinstance(arg, ast.JoinedStr):
        pattern = "".join(
            re.escape(part.value) if isinstance(part, ast.Constant) else "[a-z]+"
            for part in arg.values
        )
        return {code for code in catalogue() if re.fullmatch(pattern, code)}
    return set()


def _sites() -> list[tuple[str, int, set[str], set[str] | None]]:
    """(file, line, codes, keyword names or None when **params) of every call site."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for call, arg in _calls(tree):
            names = {k.arg for k in call.keywords}
            keywords = None if None in names else names
            if call.func.id == "cell_named":  # type: ignore[attr-defined]
                keywords = {"cell"}
            found.append((path.name, call.lineno, _codes(tree, arg), keywords))
    return found


def test_every_refusal_raised_in_the_engine_names_a_listed_code_with_its_parameters() -> None:
    sites = _sites()
    assert len(sites) > 150
    for where, line, codes, keywords in sites:
        assert codes, f"{where}:{line}: the code is not written out"
        for code in codes:
            assert code in catalogue(), f"{where}:{line}: {code} is not in refusals.json"
            if keywords is not None:
                wanted = placeholders(catalogue()[code]["en"])
                assert wanted <= keywords, f"{where}:{line}: {code} needs {wanted - keywords}"


def _returned_codes(source: str) -> set[str]:
    """The codes a host action's check returns (session/host.py: a code, or None)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Return) and node.value is not None:
            branches = (
                [node.value.body, node.value.orelse]
                if isinstance(node.value, ast.IfExp)
                else [node.value]
            )
            found |= {
                b.value
                for b in branches
                if isinstance(b, ast.Constant) and isinstance(b.value, str)
            }
    return found


def test_every_listed_code_is_raised_somewhere() -> None:
    used = {code for _, _, codes, _ in _sites() for code in codes}
    for path in SESSION.glob("*.py"):  # the session's own refusals share the list
        source = path.read_text("utf-8")
        used |= set(re.findall(r'refused\(\s*"([a-z_]+)"', source))
        used |= _returned_codes(source) & set(catalogue())
    assert set(catalogue()) - used == set()


def test_a_refusal_is_a_code_with_json_ready_parameters_in_both_languages() -> None:
    refused = Refused("tokens_held", character="kevin", actions=("look", "move"))
    refusal = refused.refusal
    assert refusal == Refusal("tokens_held", {"character": "kevin", "actions": ["look", "move"]})
    assert str(refused) == str(refusal) == "Kevin's action tokens are: look, move."
    assert refusal.text("fr") == "Les jetons Action de Kevin sont\u00a0: Regarder, Se déplacer."
    assert refusal.as_dict("fr") == {
        "code": "tokens_held",
        "params": {"character": "kevin", "actions": ["look", "move"]},
        "text": "Les jetons Action de Kevin sont\u00a0: Regarder, Se déplacer.",
    }
    assert json.loads(json.dumps(refusal.as_dict())) == refusal.as_dict()
    # A language the table does not offer reads in English.
    assert refusal.text("xx") == str(refusal)


@pytest.mark.parametrize(
    ("code", "params", "en", "fr"),
    [
        (
            "not_your_action",
            {"character": "emmett"},
            "It is Emmett's action, not yours.",
            "C'est l'action d'Emmett, pas la vôtre.",
        ),
        (
            "not_your_character",
            {"character": "zorg"},
            "'zorg' is not one of your characters.",
            "« zorg » n'est pas l'un de vos personnages.",
        ),
        (
            "composition_lacks",
            {"room": "timer"},
            "This game's composition has no Timer room.",
            "La composition de cette partie ne contient pas de Salle chrono.",
        ),
        (
            "choose_who_is_eliminated",
            {"characters": ["max", "alice"]},
            "Choose who is eliminated: Max or Alice.",
            "Choisissez qui est éliminé\u00a0: Max ou Alice.",
        ),
        (
            "no_room_that_way",
            {"direction": "west", "cell": "A3"},
            "There is no room west of A3.",
            "Il n'y a pas de salle côté ouest de A3.",
        ),
        (
            "talent_choice_needed",
            {"character": "emmett", "abilities": ["reactivate", "lock"]},
            "Choose what Emmett's talent does as you program it: reactivate or lock.",
            "Choisissez ce que fait le Talent d'Emmett en le programmant\u00a0: "
            "réactiver ou verrouiller.",
        ),
    ],
)
def test_parameters_are_named_in_each_language(code, params, en, fr) -> None:
    assert refusal_text(code, params, "en") == en
    assert refusal_text(code, params, "fr") == fr


def _action_phase():
    started = start({"mode": "cooperation", "players": 4, "seed": 0})
    assert started.ok, started.refusal
    placed = set_position(
        started.state,
        {
            "phase": "action",
            "positions": {"emmett": "C1"},
            "programs": {
                "emmett": ["move"],
                "kevin": ["look"],
                "franck": ["look"],
                "max": ["look"],
            },
        },
    )
    assert placed.ok, placed.refusal
    assert placed.state.current == "emmett" and placed.state.characters["emmett"].seat == "1"
    return placed.state


@pytest.mark.parametrize(
    ("command", "code", "params", "fr"),
    [
        (
            {"type": "act", "seat": "1", "character": "emmett", "direction": "north"},
            "no_room_that_way",
            {"direction": "north", "cell": "C1"},
            "Il n'y a pas de salle côté nord de C1.",
        ),
        (
            {"type": "act", "seat": "4", "character": "kevin", "direction": "south"},
            "not_your_action",
            {"character": "emmett"},
            "C'est l'action d'Emmett, pas la vôtre.",
        ),
        (
            {"type": "act", "seat": "1", "character": "emmett", "action": "look"},
            "programmed_action_must_be_played",
            {"action": "move"},
            "L'action programmée est Se déplacer\u00a0; elle doit être jouée.",
        ),
        (
            {"type": "program", "seat": "1", "character": "emmett", "actions": ["move"]},
            "not_programming_phase",
            {},
            "Ce n'est pas la phase de programmation.",
        ),
        (
            {"type": "clue", "seat": "9", "cell": "C2"},
            "unknown_seat",
            {"seat": "9"},
            "Il n'y a pas de place 9 dans cette partie.",
        ),
    ],
)
def test_real_refusals_carry_their_code_and_parameters(command, code, params, fr) -> None:
    state = _action_phase()
    result = apply(state, command)
    assert not result.ok and result.state is state
    assert (result.refusal.code, result.refusal.params) == (code, params)
    assert result.refusal.text("fr") == fr
    assert str(result.refusal) == refusal_text(code, params) != fr


def test_a_setup_refusal_carries_its_code_and_reads_in_both_languages() -> None:
    result = start({"mode": "team", "players": 5, "seed": 1})
    assert result.refusal.code == "players_count"
    assert result.refusal.params == {"mode": "team", "edition": "base", "low": 4, "high": 6}
    assert str(result.refusal) == "Team (Base game) is for 4 to 6 players."
    assert result.refusal.text("fr") == "Le mode Équipe (Jeu de base) se joue de 4 à 6 joueurs."


def test_a_clue_refusal_through_the_starting_clue() -> None:
    state = start({"mode": "suspicion", "players": 5, "seed": 5}).state
    result = apply(state, {"type": "clue", "seat": "1", "cell": "A1"})
    assert result.refusal.code == "clue_next_to_centre"
    assert "four rooms next to the Central room" in str(result.refusal)
    assert "Salle centrale" in result.refusal.text("fr")


def test_every_mac_card_announces_itself_in_both_languages() -> None:
    cards = load_deck().cards
    assert cards
    for card in cards:
        shown = card.display
        for lang in LANGUAGES:
            assert shown.name(lang).strip() and shown.text(lang).strip(), (card.id, lang)
        assert shown.text("fr") != shown.text("en"), card.id


def test_every_room_has_its_name_in_both_languages() -> None:
    assert len(rooms()) > 20
    for kind in rooms():
        assert all(own_texts(lang)[f"room_name_{kind}"].strip() for lang in LANGUAGES), kind
        assert refusal_text("composition_lacks", {"room": kind}, "fr").endswith(
            f"{room_name(kind, 'fr')}."
        )
