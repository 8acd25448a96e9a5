"""Every public event kind of the three editions is either said, with a line in English and
French, or listed as silent with the reason; played out on random games of every edition and
mode, every public event is known and every line reads in both languages."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from companion import engine
from companion.engine.face.shapes import EVENT_FIELDS
from companion.voice.catalogue import entries, spoken
from companion.voice.samples import sample_events
from companion.voice.script import event_lines, spoken_kinds
from companion.words import languages

from .conftest import random_command

LANGUAGES = languages()

SESSION = Path(__file__).resolve().parents[2] / "companion" / "session"
PLAYERS = {"suspicion": 5, "cooperation": 4, "competition": 3, "team": 4, "solo": 1}


def _session_event_kinds() -> set[str]:
    """The events the session publishes itself (the time limit's), read from its source: the
    dicts handed to `_publish`."""
    found = set()
    for module in SESSION.glob("*.py"):
        for call in ast.walk(ast.parse(module.read_text("utf-8"))):
            if not (isinstance(call, ast.Call) and getattr(call.func, "attr", "") == "_publish"):
                continue
            for node in ast.walk(call):
                if isinstance(node, ast.Dict):
                    for key, value in zip(node.keys, node.values, strict=True):
                        if isinstance(key, ast.Constant) and key.value == "type":
                            assert isinstance(value, ast.Constant), "an event type is a literal"
                            found.add(value.value)
    return found


def test_every_event_kind_is_said_or_silent_with_a_reason() -> None:
    decided = spoken()["_events"]
    kinds = set(EVENT_FIELDS) | _session_event_kinds()
    assert {"time_warning", "time_up"} <= kinds
    assert set(decided) == kinds
    silent = {kind for kind, line in decided.items() if line is None}
    assert set(spoken()["_silent"]) == silent
    assert all(spoken()["_silent"][kind].strip() for kind in silent)
    for kind in spoken_kinds():
        for lang in LANGUAGES:
            assert decided[kind] in entries(lang), (kind, lang)


def test_a_lock_in_is_never_said() -> None:
    assert "locked_in" not in spoken_kinds() and "unlocked" not in spoken_kinds()
    assert event_lines([{"type": "locked_in", "character": "max"}], {}) == []


def test_every_spoken_kind_has_a_sample_that_says_it() -> None:
    sampled = {event["type"] for events in sample_events().values() for event in events}
    assert spoken_kinds() <= sampled
    for name, events in sample_events().items():
        lines = event_lines(events, {"turn": 1, "turns_left": 10})
        assert lines, name
        for lang in LANGUAGES:
            assert all(line.text(lang) for line in lines)


def _public_updates(edition: str, mode: str, tracking: str, seed: int):
    setup = {
        "edition": edition,
        "mode": mode,
        "players": PLAYERS[mode],
        "tracking": tracking,
        "seed": seed,
    }
    result = engine.start(setup)
    assert result.ok, result.refusal
    state, rng = result.state, random.Random(seed)
    for _ in range(4000):
        command = random_command(state, rng)
        if command is None:
            return
        result = engine.apply(state, command)
        state = result.state
        yield {"events": engine.events_for(result.events, None), "view": engine.public_view(state)}


@pytest.mark.parametrize("edition", engine.EDITIONS)
def test_random_games_of_every_mode_say_every_public_event_in_both_languages(
    edition: str,
) -> None:
    decided = spoken()["_events"]
    said: set[str] = set()
    for mode in engine.MODES:
        for tracking in ("dealt", "countdown"):
            for update in _public_updates(edition, mode, tracking, seed=1):
                for event in update["events"]:
                    assert "private" not in event
                    assert event["type"] in decided, event
                for line in event_lines(update["events"], update["view"]):
                    said.add(line.key)
                    for lang in LANGUAGES:
                        text = line.text(lang)
                        assert text and "{" not in text and "_" not in text, (line, lang)
    assert {"turn", "programming", "actor_1", "room_revealed", "game_over"} <= said
