"""Audio failures are notices for the table, never a stopped game: espeak-ng missing, no Piper
model where the config says, aplay missing or its device refusing (the real aplay), a speaker
that comes back clears its notice."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from waiting import eventually

from companion.config import Config
from companion.session import Session
from companion.voice import start_voice
from companion.voice.engines import Espeak, Speaker
from companion.voice.sinks import Aplay, FakeSink

from .conftest import Murmur, play, settled, voice_config

GAME = {"edition": "season2", "mode": "cooperation", "players": 4, "tracking": "dealt", "seed": 1}


def _codes(session: Session) -> list[str]:
    return [n["code"] for n in session.snapshot("public")["session"]["notices"]]


def test_espeak_missing_is_a_notice_and_the_game_goes_on(session, tmp_path: Path) -> None:
    sink = FakeSink()
    engines = Speaker(Espeak(program=str(tmp_path / "no-espeak-ng")))
    voice = start_voice(session, Config(), sink=sink, engines=engines, cache_dir=tmp_path / "c")
    try:
        assert session.host("new_game", setup=GAME).ok
        play(session, 10, seed=1, voice=voice)  # the clues taken, the first turn is said
        eventually(lambda: "voice_engine_missing" in _codes(session))
        [notice] = [
            n
            for n in session.snapshot("public")["session"]["notices"]
            if n["code"] == "voice_engine_missing"
        ]
        assert notice["text"] == "Voice off: espeak-ng is not installed"
        assert play(session, 20, seed=1, voice=voice) == 20  # every command still accepted
        assert sink.played == []
        assert voice.latest()["text"] and voice.latest()["wav"] is None
    finally:
        voice.close()


@pytest.mark.skipif(shutil.which("aplay") is None, reason="aplay is not installed (alsa-utils)")
def test_a_device_aplay_refuses_is_a_notice_said_once(session, tmp_path: Path) -> None:
    config = voice_config(device="room25_no_such_device")
    voice = start_voice(
        session, config, engines=Speaker(Murmur()), cache_dir=tmp_path / "c", speaker=True
    )
    try:
        assert isinstance(voice.sink, Aplay)
        assert session.host("new_game", setup=GAME).ok
        play(session, 10, seed=1, voice=voice)
        eventually(lambda: "speaker_unavailable" in _codes(session))
        before = session.snapshot("public")["version"]
        assert play(session, 10, seed=2, voice=voice) == 10
        assert _codes(session).count("speaker_unavailable") == 1
        assert session.snapshot("public")["version"] > before
    finally:
        voice.close()


def test_aplay_missing_then_a_speaker_back_clears_the_notice(session, tmp_path: Path) -> None:
    missing = Aplay(program=str(tmp_path / "no-aplay"))
    voice = start_voice(
        session, Config(), sink=missing, engines=Speaker(Murmur()), cache_dir=tmp_path / "c"
    )
    try:
        assert session.host("new_game", setup=GAME).ok
        play(session, 10, seed=1, voice=voice)
        eventually(lambda: "speaker_unavailable" in _codes(session))
        voice.sink = FakeSink()
        play(session, 30, seed=1, voice=voice)
        eventually(lambda: "speaker_unavailable" not in _codes(session))
        assert voice.sink.played
    finally:
        voice.close()


def test_a_piper_model_missing_is_a_notice_and_espeak_speaks(session, tmp_path: Path) -> None:
    config = voice_config(engine="piper", model=str(tmp_path / "fr_FR-voice.onnx"))
    voice = start_voice(session, config, sink=FakeSink(), cache_dir=tmp_path / "c")
    try:
        eventually(lambda: "voice_model_missing" in _codes(session))
        assert voice.engines.engine("fr").name == "espeak-ng"
        settled(session, voice)
    finally:
        voice.close()


def test_espeak_failing_is_a_notice_raised_once_and_the_game_goes_on(
    session, tmp_path: Path
) -> None:
    """espeak-ng installed but failing (a broken voice file, a full disk): one notice however
    many phrases fail, every command still taken, and cleared once it speaks again."""
    broken = tmp_path / "espeak-ng"
    broken.write_text("#!/bin/sh\necho 'espeak-ng: voice data not found' >&2\nexit 1\n")
    broken.chmod(0o755)
    sink = FakeSink()
    voice = start_voice(
        session,
        Config(),
        sink=sink,
        engines=Speaker(Espeak(program=str(broken))),
        cache_dir=tmp_path / "c",
    )
    try:
        assert session.host("new_game", setup=GAME).ok
        play(session, 10, seed=1, voice=voice)
        eventually(lambda: "voice_engine_failed" in _codes(session))
        raised = session.snapshot("public")["version"]
        assert play(session, 20, seed=1, voice=voice) == 20
        assert _codes(session).count("voice_engine_failed") == 1 and sink.played == []
        assert session.snapshot("public")["version"] > raised
        voice.engines = Speaker(Murmur())
        play(session, 20, seed=3, voice=voice)
        eventually(lambda: "voice_engine_failed" not in _codes(session))
        assert sink.played
    finally:
        voice.close()
