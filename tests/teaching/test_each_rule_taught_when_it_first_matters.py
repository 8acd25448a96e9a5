"""Issue 32, point 2: each rule taught when it first matters, from the public record only.
Games are played through the engine's public interface (start, legal_commands, apply,
events_for with no seat)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from companion import engine
from companion.teaching import LESSONS, Teacher, fired, lesson_card

WORDS = Path(__file__).parents[2] / "companion" / "words"
# Where a sentence ends and another begins ("M.A.C. card" is no such place).
SENTENCE_BREAK = re.compile(r"[.!?]\s+[A-ZÀ-Ý]")
SETUPS = [
    {"edition": "base", "mode": "suspicion", "players": 5},
    {"edition": "season2", "mode": "cooperation", "players": 4},
    {"edition": "ultimate", "mode": "suspicion", "players": 6},
]


def played(setup: dict, seed: int, moves: int = 400):
    """A random game: its start events, then each command and the events it made."""
    started = engine.start({**setup, "tracking": "dealt", "seed": seed})
    assert started.state is not None
    state, rng, changes = started.state, random.Random(seed), []
    for _ in range(moves):
        waiting = engine.waiting_for(state).as_dict()
        options = [c for s in waiting["seats"] for c in engine.legal_commands(state, s)]
        if waiting["phase"] == "over" or not options:
            break
        command = rng.choice(options)
        result = engine.apply(state, command)
        assert result.refusal is None, command
        state = result.state
        changes.append((command, result.events))
    return started.events, changes


def taught(start: list[dict], changes) -> list[list[str]]:
    """What a teacher fed each change's public events says, change by change."""
    teacher = Teacher()
    said = [teacher.hear(engine.events_for(start, None))]
    said += [teacher.hear(engine.events_for(events, None)) for _, events in changes]
    return said


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s['edition']}-{s['mode']}")
def test_each_lesson_fires_once_when_its_trigger_first_happens(setup: dict, seed: int) -> None:
    start, changes = played(setup, seed)
    said = taught(start, changes)
    flat = [lesson for change in said for lesson in change]
    assert len(flat) == len(set(flat)), "a lesson fired twice"
    records = [engine.events_for(start, None)] + [engine.events_for(e, None) for _, e in changes]
    for found in LESSONS:
        first = next(
            (n for n, events in enumerate(records) if any(found.triggered_by(e) for e in events)),
            None,
        )
        fired_at = next((n for n, change in enumerate(said) if found.id in change), None)
        assert fired_at == first, found.id


def test_first_programming_is_taught_when_the_first_programming_opens() -> None:
    start, changes = played(SETUPS[0], 0)
    said = taught(start, changes)
    opened = next(
        n
        for n, events in enumerate([start] + [e for _, e in changes])
        if any(e["type"] == "phase" and e["phase"] == "programming" for e in events)
    )
    assert "programming" in said[opened]
    assert all("programming" not in change for change in said[opened + 1 :])


def test_the_first_push_is_taught_on_the_revealed_push_and_not_again() -> None:
    push = {"type": "action_revealed", "character": "max", "action": "push"}
    assert fired([push]) == ["action_push"]
    assert fired([push], taught=["action_push"]) == []


def test_a_room_is_taught_by_its_colour_once_per_colour() -> None:
    teacher = Teacher()
    acid = {"type": "room_revealed", "tile": 3, "room": "acid", "cell": "B2"}
    mortal = {"type": "room_revealed", "tile": 4, "room": "mortal", "cell": "B3"}
    vision = {"type": "room_revealed", "tile": 5, "room": "vision", "cell": "B4"}
    assert teacher.hear([acid]) == ["room_red"]
    assert teacher.hear([mortal, vision]) == ["room_green"]


def test_the_alarm_and_the_last_turn_are_taught() -> None:
    assert fired([{"type": "alarm", "turns_left": 5}]) == ["alarm"]
    assert fired([{"type": "countdown", "order": [], "turn": 9, "turns_left": 2}]) == []
    assert fired([{"type": "countdown", "order": [], "turn": 10, "turns_left": 1}]) == ["last_turn"]


def test_the_suspicion_reveal_is_taught_by_either_kind_of_reveal() -> None:
    exposed = {"type": "guard_exposed", "character": "max", "role": "guard"}
    assert fired([exposed]) == ["suspicion_reveal"]


def _swapped_roles(start: list[dict]) -> list[dict]:
    """The same deal with two seats' roles exchanged: a twin differing only in a secret."""
    dealt = [e for e in start if e["type"] == "role_dealt"]
    one, other = next((a, b) for a in dealt for b in dealt if a["role"] != b["role"])
    roles = {one["seat"]: other["role"], other["seat"]: one["role"]}
    return [
        {**e, "role": roles[e["seat"]]} if e["type"] == "role_dealt" and e["seat"] in roles else e
        for e in start
    ]


@pytest.mark.parametrize("seed", range(4))
def test_twin_games_differing_in_roles_are_taught_identically(seed: int) -> None:
    """Two Suspicion games alike but for who is a guard teach the same lessons at the same
    moments, until a role becomes public."""
    start, changes = played(SETUPS[0], seed)
    twin_start = _swapped_roles(start)
    assert twin_start != start
    twin = engine.replay(twin_start)
    twin_changes = []
    for command, events in changes:
        if any(e["type"] in ("role_revealed", "guard_exposed") for e in events):
            break
        result = engine.apply(twin, command)
        if result.refusal is not None:
            break
        twin = result.state
        twin_changes.append((command, result.events))
    kept = changes[: len(twin_changes)]
    assert len(kept) > 5
    assert taught(start, kept) == taught(twin_start, twin_changes)


def _until(state, phase: str):
    """The game played on (always the first legal command) until it waits for `phase`."""
    while (waiting := engine.waiting_for(state).as_dict())["phase"] != phase:
        seat = waiting["seats"][0]
        state = engine.apply(state, engine.legal_commands(state, seat)[0]).state
    return state, waiting["seats"][0]


def _twins_taught(state, seat: str, kind: str) -> list[list[str]]:
    """What two different choices of one seat's secret command teach."""
    choices = [c for c in engine.legal_commands(state, seat) if c["type"] == kind]
    assert len(choices) > 1 and choices[0] != choices[-1]
    results = [engine.apply(state, c) for c in (choices[0], choices[-1])]
    assert results[0].events != results[1].events
    return [Teacher(["programming"]).hear(engine.events_for(r.events, None)) for r in results]


def test_twin_programmings_are_taught_identically() -> None:
    """Two games where one seat programs differently teach the same (the programme is secret
    until revealed)."""
    started = engine.start({**SETUPS[1], "tracking": "dealt", "seed": 1})
    state, seat = _until(started.state, "programming")
    first, second = _twins_taught(state, seat, "program")
    assert first == second


def test_twin_looks_are_taught_identically() -> None:
    """Two games where a seat looks at different rooms for its clue teach the same."""
    started = engine.start({**SETUPS[1], "tracking": "dealt", "seed": 1})
    first, second = _twins_taught(started.state, "1", "clue")
    assert first == second


def test_every_lesson_has_its_words_in_every_language() -> None:
    langs = [p.name for p in WORDS.iterdir() if (p / "language.json").exists()]
    assert {"en", "fr", "de"} <= set(langs)
    for lang in langs:
        words = json.loads((WORDS / lang / "lessons.json").read_text("utf-8"))
        for found in LESSONS:
            assert f"lessons_{found.id}_said" in words, (lang, found.id)
            assert (found.rule is None) == (f"lessons_{found.id}_text" in words), (lang, found.id)
            card = lesson_card(found.id, lang, "ultimate")
            assert card["rule"] and not card["rule"].startswith("lessons_")


def test_a_lesson_says_at_most_two_sentences() -> None:
    for lang in ("en", "fr", "de"):
        for found in LESSONS:
            said = lesson_card(found.id, lang)["said"]
            assert len(SENTENCE_BREAK.findall(said)) <= 1, (lang, found.id)
