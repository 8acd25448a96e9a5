"""Mute with a control button: on the table's rig (gpiozero's mock pins), a short press of Back
mutes the voice and a notice tells the table; pressed again it speaks; held, Back still undoes.
Without a voice, a short Back is refused as before (the host holds it to undo)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from waiting import eventually

from companion.config import Config
from companion.hardware import start_hardware
from companion.voice import start_voice
from companion.voice.engines import Speaker
from companion.voice.sinks import FakeSink
from tests.hardware.conftest import TOKENS_GAME, Ticks

from .conftest import Murmur, settled, voice_config

SETUP = {"edition": "base", "mode": "suspicion", "players": 5, "seed": 11}
MUTED = "Voice muted: a short press of back or the host page turns it back on"
ALARM = {"type": "alarm", "turns_left": 5}


def _notices(session) -> list[str]:
    return [notice["text"] for notice in session.snapshot("public")["session"]["notices"]]


def _short_press(rig, ticks: Ticks) -> None:
    pin = rig.factory.pin(rig.config.buttons.back)
    pin.drive_low()
    ticks.advance(0.05)
    pin.drive_high()
    ticks.advance(0.05)


@pytest.fixture
def ticks() -> Ticks:
    return Ticks()


@pytest.fixture
def table(session, ticks, tmp_path: Path) -> Iterator[tuple]:
    sink = FakeSink()
    voice = start_voice(
        session, Config(), sink=sink, engines=Speaker(Murmur()), cache_dir=tmp_path / "voice"
    )
    rig = start_hardware(
        session, Config(), "mock", clock=ticks, timers=ticks, address="http://t:8025/"
    )
    rig.set_voice(voice)
    yield rig, voice, sink
    rig.close()
    voice.close()


def test_a_short_back_press_mutes_then_speaks_again(table, session, ticks) -> None:
    rig, voice, sink = table
    _short_press(rig, ticks)
    eventually(lambda: voice.muted)
    eventually(lambda: MUTED in _notices(session))
    assert session.host("new_game", setup=SETUP).ok
    settled(session, voice)
    voice.say(voice.script.lines({**session.snapshot("public"), "events": [ALARM]}))
    said = eventually(voice.latest)
    assert sink.played == [] and said["muted"]  # made, but nothing reaches the speaker

    _short_press(rig, ticks)
    eventually(lambda: not voice.muted)
    eventually(lambda: MUTED not in _notices(session))
    voice.say(voice.script.lines({**session.snapshot("public"), "events": [ALARM]}))
    eventually(lambda: sink.texts()[-1:] == ["Room 25 has been found: 5 turns left."])


def test_a_held_back_still_undoes_and_leaves_the_voice_alone(table, session, ticks) -> None:
    rig, voice, _ = table
    assert session.host("new_game", setup={**TOKENS_GAME, "seed": 11}).ok
    for seat in "12345":
        assert any(
            session.submit({"type": "clue", "seat": seat, "cell": cell}).ok
            for cell in ("C2", "C4", "B3", "D3")
        )
    assert session.press_seat("2").ok
    assert session.snapshot("public")["waiting"]["locked_in"] == ["2"]
    back = rig.factory.pin(rig.config.buttons.back)
    back.drive_low()
    ticks.advance(1.2)  # held past the long press
    eventually(lambda: session.snapshot("public")["waiting"]["locked_in"] == [])
    back.drive_high()
    ticks.advance(0.05)
    assert not voice.muted and MUTED not in _notices(session)


def test_a_voice_muted_by_its_settings_is_a_notice_too(session, tmp_path: Path) -> None:
    voice = start_voice(
        session,
        voice_config(mute=True),
        sink=FakeSink(),
        engines=Speaker(Murmur()),
        cache_dir=tmp_path / "voice",
    )
    try:
        eventually(lambda: MUTED in _notices(session))
        settled(session, voice)
        # Shown on the pages and the OLED, never announced: a muted voice saying so is heard by
        # nobody, and its announcement came between the host's tests of the voice.
        assert voice.latest() is None
    finally:
        voice.close()


def test_without_a_voice_a_short_back_is_refused_as_before(session, ticks) -> None:
    rig = start_hardware(
        session, Config(), "mock", clock=ticks, timers=ticks, address="http://t:8025/"
    )
    try:
        reply = rig.control("back")
        assert not reply.ok and reply.code == "hold_back_to_undo"
    finally:
        rig.close()
