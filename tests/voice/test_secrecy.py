"""Never a tell: two games that differ only in a secret say exactly the same words at the same
moments — games dealt different roles, and a seat programming its tokens in another order,
played through a real session to the voice's fake speaker."""

from __future__ import annotations

import json
import random

from companion import engine
from companion.session import Session
from companion.voice import Voice
from companion.voice.script import Script
from companion.voice.sinks import FakeSink
from companion.words import languages

from .conftest import settled

LANGUAGES = languages()

# Base Suspicion, the complex dealt by the companion from the same seed in both games.
SUSPICION = {"edition": "base", "mode": "suspicion", "players": 5, "tracking": "dealt", "seed": 4}
# What the rules make public about roles: from here on the twins may rightly differ.
TELLING = {"role_revealed", "guard_exposed", "game_over"}
# The session's part of an update with nothing to say: no notice, no clock.
QUIET = {
    "paused": False,
    "notices": [],
    "lock_ins": [],
    "undone": False,
    "rigged": False,
    "timer": None,
}


def _said_by_deal(roles: dict, seed: int) -> list[list[str]]:
    """The words each public update of a random game calls for, in both languages, with roles
    dealt as `roles`; the commands are picked from those legal in both deals."""
    state = engine.start({**SUSPICION, "roles": roles}).state
    twin = engine.start({**SUSPICION, "roles": _other(roles)}).state
    rng = random.Random(seed)
    script, said = Script(), []
    for _ in range(300):
        waiting = engine.waiting_for(state).as_dict()
        if waiting != engine.waiting_for(twin).as_dict() or waiting["phase"] == "over":
            break
        mine = {
            json.dumps(c, sort_keys=True)
            for s in waiting["seats"]
            for c in engine.legal_commands(state, s)
        }
        theirs = {
            json.dumps(c, sort_keys=True)
            for s in waiting["seats"]
            for c in engine.legal_commands(twin, s)
        }
        common = sorted(mine & theirs)
        if not common:
            break
        command = json.loads(rng.choice(common))
        result = engine.apply(state, command)
        state = result.state
        twin = engine.apply(twin, command).state
        events = engine.events_for(result.events, None)
        if TELLING & {e["type"] for e in events}:
            break
        update = {
            "game": None,
            "events": events,
            "view": engine.public_view(state),
            "session": QUIET,
        }
        said.append([line.text(lang) for line in script.lines(update) for lang in LANGUAGES])
    return said


DEALS = ({"kevin": "guard"}, {"max": "guard"})


def _other(roles: dict) -> dict:
    return DEALS[1] if roles == DEALS[0] else DEALS[0]


def test_games_dealt_other_roles_say_the_same_words_at_the_same_moments() -> None:
    for seed in range(3):
        first, second = _said_by_deal(DEALS[0], seed), _said_by_deal(DEALS[1], seed)
        assert first == second
        assert sum(map(len, first)) > 10, "the game said something before any role showed"


def _heard(session: Session, voice: Voice, sink: FakeSink, swap: bool) -> list[list[str]]:
    """What the speaker plays after each command of a programming phase and the actions that
    follow, seat 1 programming its two tokens in one order or the other."""
    assert session.host("new_game", setup=SUSPICION).ok
    heard: list[list[str]] = []

    def step(command: dict) -> None:
        before = len(sink.played)
        assert session.submit(command, source="test").ok, command
        settled(session, voice)
        heard.append([p.clip.text for p in sink.played[before:]])

    state = session._game.state
    while engine.waiting_for(state).phase != "programming":
        step(engine.legal_commands(state, engine.waiting_for(state).seats[0])[0])
        state = session._game.state
    for seat in ("1", "2", "3", "4", "5"):
        options = [c for c in engine.legal_commands(state, seat) if c["type"] == "program"]
        choice = options[0]
        if seat == "1" and swap:
            flipped = list(reversed(choice["actions"]))
            choice = next(c for c in options if c["actions"] == flipped)
        step(choice)
        state = session._game.state
    return heard


def test_a_programme_in_another_order_is_heard_the_same(tmp_path) -> None:
    from companion.config import Config
    from companion.voice import start_voice
    from companion.voice.engines import Speaker

    from .conftest import Murmur

    runs = []
    for swap in (False, True):
        session = Session(tmp_path / f"{swap}.sqlite")
        session.open()
        sink = FakeSink()
        voice = start_voice(
            session, Config(), sink=sink, engines=Speaker(Murmur()), cache_dir=tmp_path / "c"
        )
        try:
            runs.append(_heard(session, voice, sink, swap))
        finally:
            voice.close()
            session.close()
    assert runs[0] == runs[1]
    assert any("Programming" in text for texts in runs[0] for text in texts)
    assert runs[0][-1], "the last lock-in starts the actions: the first actor is named"
