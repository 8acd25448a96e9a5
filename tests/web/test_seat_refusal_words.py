"""Issue 21, point 18: every refusal a seat can meet (from its phone's taps and its seat button)
is worded for a player in English and French: no field names, no ids, no command words to type,
no JSON. The engine's codes are found where they are raised (the commands' handlers and the
rules); the session's and the web layer's are listed here."""

from __future__ import annotations

import re

import pytest
from engine.test_refusal_codes import _sites

from companion.engine import refusal_text
from companion.words.pages import text

# Where the engine refuses what no seat's page sends: a game's setup (the host), a position
# written down (scenario files), a command's shape (a client other than the pages).
NOT_SEAT_FILES = {"setup.py", "position.py", "reading.py"}
# The host's own commands (reports and corrections of physical tiles): a seat that sends one
# meets `host_command` first.
HOST_ONLY = {
    "players_command",
    "events_follow_tracked",
    "name_characters_in_room25",
    "report_what",
    "correct_physical_only",
    "correct_face_down_only",
}
# The session's refusals of a seat's command or its button (holding it to take the seat back).
SESSION = {
    "no_game", "journal_unwritable", "journal_unsure", "session_closed", "no_seat_request",
    "seat_request_changed",
}  # fmt: skip
# The web layer's answers to a phone's own calls (joining, its commands, its button, the reveal,
# its stream), and the page's own word when the companion cannot be reached.
WEB = {
    "no_seat", "not_your_seat", "bad_seat", "seat_taken", "seat_asks_wait", "seat_not_in_game",
    "too_many_streams", "game_not_over", "server_error", "bad_request", "offline",
}  # fmt: skip

SAMPLE = {
    "character": "kevin", "characters": ["kevin", "emmett"], "talent": "kevin",
    "abilities": ["hack_complex", "hack_robot"], "action": "look", "actions": ["look", "move"],
    "room": "cold", "rooms": ["cold", "dark"], "cell": "C2", "cells": ["B3", "C2"], "here": "C3",
    "direction": "north", "directions": ["north", "east"], "seat": "3", "seconds": 20,
    "ask": "4821", "problem": "disk full",
    "ways": [{"ability": "hack_complex", "line": "row2", "direction": "east"}],
    "options": [{"line": "row2", "direction": "east"}],
}  # fmt: skip
# What a player should never read: ids and field names (an underscore), JSON, a command word
# to type in quotes ("come", « next »).
DEVELOPER = re.compile(r"[_{}\"\[\]]|[«'] ?[a-z]+ ?[»']|\bJSON\b|\bfield\b")


def engine_codes() -> set[str]:
    raised = [codes for where, _, codes, _ in _sites() if where not in NOT_SEAT_FILES]
    return set().union(*raised) - HOST_ONLY


def seat_codes() -> list[tuple[str, str]]:
    return sorted([*((c, "engine") for c in engine_codes() | SESSION), *((c, "web") for c in WEB)])


def test_the_seat_reachable_codes_are_found():
    codes = {code for code, _ in seat_codes()}
    assert {"talent_choice_needed", "cold_one_action", "token_once", "stale_version"} <= codes
    assert "setup_not_an_object" not in codes and "field_not_a_word" not in codes
    assert len(codes) > 80


@pytest.mark.parametrize(("code", "layer"), seat_codes())
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_refusal_a_seat_meets_is_worded_for_a_player(code, layer, lang):
    said = refusal_text(code, SAMPLE, lang) if layer == "engine" else text(lang, code, **SAMPLE)
    assert said and said != code, f"{code} has no {lang} sentence"
    assert not DEVELOPER.search(said), f"{code} ({lang}) speaks to a developer: {said}"


def test_kevins_missing_ability_is_said_by_its_names():
    params = {"character": "kevin", "abilities": ["hack_complex", "hack_robot"]}
    assert refusal_text("talent_choice_needed", params, "en") == (
        "Choose what Kevin's talent does as you program it: hack the complex or hack a robot."
    )
    assert refusal_text("talent_choice_needed", {**params, "character": "emmett"}, "fr") == (
        "Choisissez ce que fait le Talent d'Emmett en le programmant\u00a0: "
        "pirater le complexe ou pirater un robot."
    )
