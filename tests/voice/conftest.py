"""Shared pieces of the voice tests: a real session on a temporary journal, a voice listening to
it through a fake sink, a quick stand-in engine, and games played with random legal commands."""

from __future__ import annotations

import random
import shutil
import wave
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from companion import engine
from companion.config import Config
from companion.session import Session
from companion.voice import Voice, start_voice
from companion.voice.engines import Espeak, Speaker
from companion.voice.sinks import FakeSink

needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None,
    reason="espeak-ng is not installed (apt-get install espeak-ng; scripts/test installs it)",
)


HUM = 8000  # the stand-in's sample value


class Murmur(Espeak):
    """A stand-in for espeak-ng where a test is about what is said, not how: it writes a real
    WAV file (a steady hum, 50 ms a character, espeak-ng's format) where espeak-ng would. A test
    that counts its renders spies on `render` (pytest-mock)."""

    name = "murmur"

    def __init__(self) -> None:
        super().__init__(program="murmur")

    def render(self, text: str, lang: str, out: Path) -> None:
        with wave.open(str(out), "wb") as writer:
            writer.setnchannels(1)
            writer.setsampwidth(2)
            writer.setframerate(22050)
            writer.writeframes(HUM.to_bytes(2, "little", signed=True) * (1102 * len(text)))


def voice_config(**settings: object) -> Config:
    config = Config()
    return replace(config, voice=replace(config.voice, **settings))


@pytest.fixture
def sink() -> FakeSink:
    return FakeSink()


@pytest.fixture
def voice(session: Session, sink: FakeSink, tmp_path: Path) -> Iterator[Voice]:
    started = start_voice(
        session, Config(), sink=sink, engines=Speaker(Murmur()), cache_dir=tmp_path / "voice"
    )
    yield started
    started.close()


def random_command(state, rng: random.Random) -> dict | None:
    """A random legal command of a seat the game waits for (None: the game is over)."""
    waiting = engine.waiting_for(state).as_dict()
    if waiting["phase"] == "over":
        return None
    options = [c for seat in waiting["seats"] for c in engine.legal_commands(state, seat)]
    return rng.choice(options) if options else None


def settled(session: Session, voice: Voice) -> None:
    """Wait until the session has told its listeners everything and the voice has said it."""
    assert session.healthy()  # the writer published before it answers this
    assert voice.idle(10)


def play(session: Session, count: int, seed: int = 0, voice: Voice | None = None) -> int:
    """Play up to `count` random legal commands through the session (each waits for the voice
    to be idle when one is given); how many were played."""
    rng = random.Random(seed)
    for played in range(count):
        command = random_command(session._game.state, rng)
        if command is None:
            return played
        reply = session.submit(command, source="test")
        assert reply.ok, (command, reply.code, reply.text)
        if voice is not None:
            settled(session, voice)
    return count
