"""The voice on a real session: the fake sink records each announcement as it would be played
(WAV, text, language, volume); the table's language unless the voice has its own; a quiet table
hears only the alarm and the end; mute plays nothing; a notice is said once; the time limit is
said; the latest announcement is kept for the browser."""

from __future__ import annotations

import io
import json
import wave
from array import array
from dataclasses import replace
from pathlib import Path

from companion.config import Config
from companion.session import FakeClock, Session
from companion.session.notices import Notice
from companion.voice import Voice, start_voice
from companion.voice.engines import Speaker
from companion.voice.sinks import FakeSink
from companion.voice.wav import duration

from .conftest import HUM, Murmur, play, settled, voice_config

GAME = {"edition": "base", "mode": "suspicion", "players": 5, "tracking": "dealt", "seed": 3}


def _started(session: Session, config: Config, tmp_path: Path, **options) -> tuple[Voice, FakeSink]:
    sink = options.pop("sink", FakeSink())
    voice = start_voice(
        session, config, sink=sink, engines=Speaker(Murmur()), cache_dir=tmp_path / "c", **options
    )
    return voice, sink


def _new_game(session: Session, voice: Voice, **setup: object) -> None:
    """A new game taken to its first programming phase (the clues taken): "Turn 1" is said."""
    assert session.host("new_game", setup={**GAME, **setup}).ok
    while session._game.state.phase != "programming":
        play(session, 1, voice=voice)
    settled(session, voice)


def _samples(clip: bytes) -> array:
    with wave.open(io.BytesIO(clip)) as reader:
        return array("h", reader.readframes(reader.getnframes()))


def test_the_sink_records_each_announcement_as_played(session, voice, sink) -> None:
    assert session.host("new_game", setup=GAME).ok
    play(session, 12, seed=1, voice=voice)
    assert sink.played, "a new game and a dozen commands say something"
    first = sink.played[0].clip
    assert first.lang == "en" and first.text.startswith("Turn 1: 10 turns left. Programming.")
    assert duration(first.wav) > 0.05 * len("Turn 1: 10 turns left.")
    assert max(_samples(first.wav)) == int(HUM * 0.8)  # the default volume, 0.8
    assert voice.latest()["id"] == sink.played[-1].clip.id


def test_the_voice_speaks_the_table_language_or_its_own(session, tmp_path) -> None:
    french = replace(Config(), table=replace(Config().table, language="fr"))
    voice, sink = _started(session, french, tmp_path)
    _new_game(session, voice)
    assert sink.played[-1].clip.text.startswith("Tour 1\u00a0: plus que 10 tours.")
    voice.close()
    english = replace(french, voice=replace(french.voice, language="en"))
    voice, sink = _started(session, english, tmp_path)
    play(session, 12, seed=1, voice=voice)
    assert all(p.clip.lang == "en" for p in sink.played)
    voice.set_language("fr")
    play(session, 12, seed=2, voice=voice)
    assert sink.played[-1].clip.lang == "fr"
    voice.close()


def test_a_quiet_table_hears_only_the_alarm_and_the_end(session, tmp_path) -> None:
    voice, sink = _started(session, voice_config(quiet_table=True), tmp_path)
    assert session.host("new_game", setup=GAME).ok
    played = play(session, 600, seed=2, voice=voice)
    assert session._game.state.outcome is not None, f"the game ended ({played} commands)"
    assert sink.played and all(
        text.startswith(("Game over", "Room 25 has been found")) for text in sink.texts()
    )
    voice.close()


def test_mute_and_volume(session, tmp_path) -> None:
    voice, sink = _started(session, voice_config(mute=True, volume=0.5), tmp_path)
    _new_game(session, voice)
    assert sink.played == [] and voice.latest()["muted"] is True
    voice.set_mute(False)
    play(session, 12, seed=1, voice=voice)
    assert sink.played and max(_samples(sink.played[-1].clip.wav)) == HUM // 2
    voice.set_volume(0)
    heard = len(sink.played)
    play(session, 12, seed=3, voice=voice)
    assert len(sink.played) == heard
    voice.close()


def test_the_latest_announcement_for_the_browser(session, voice, sink) -> None:
    assert voice.latest() is None
    _new_game(session, voice)
    latest = voice.latest()
    assert json.loads(json.dumps(latest)) == latest
    assert set(latest) == {"id", "text", "lang", "wav", "muted"}
    assert latest["wav"] == f"{latest['id']}.wav"
    assert voice.audio(latest["id"]) is not None
    assert duration(voice.audio(latest["id"])) == duration(sink.played[-1].clip.wav)
    assert voice.audio(latest["id"] + 1) is None
    assert voice.wait(latest["id"], timeout=0.05) is None
    play(session, 30, seed=1, voice=voice)
    assert voice.wait(latest["id"], timeout=1)["id"] > latest["id"]


def test_a_voice_switched_off_still_gives_the_browser_its_text(session, tmp_path, mocker) -> None:
    voice, sink = _started(session, voice_config(enabled=False), tmp_path)
    render = mocker.spy(voice.engines.espeak, "render")
    _new_game(session, voice)
    render.assert_not_called()
    assert sink.played == []
    assert voice.latest()["text"].startswith("Turn 1") and voice.latest()["wav"] is None
    voice.close()


def test_a_notice_is_said_once_a_game_however_often_it_comes_back(session, voice, sink) -> None:
    offline = Notice("phone_offline", {"seat": "3"})
    session.set_notice("phone 3", offline)
    settled(session, voice)
    session.set_notice("phone 3", offline)
    session.set_notice("other", Notice("oled_missing"))
    settled(session, voice)
    assert sink.texts() == ["Problem: Phone of seat 3 offline.", "Problem: OLED missing."]
    for _ in range(3):  # a phone whose Wi-Fi flickers
        session.set_notice("phone 3", None)
        settled(session, voice)
        session.set_notice("phone 3", offline)
        settled(session, voice)
    assert len(sink.played) == 2
    setup = {"edition": "base", "mode": "suspicion", "players": 5, "seed": 2}
    assert session.host("new_game", setup=setup).ok  # a new game: what stands is said again
    settled(session, voice)
    assert sink.texts()[-1] == "Problem: OLED missing. Problem: Phone of seat 3 offline."
    session.set_notice("phone 3", None)
    settled(session, voice)
    session.set_notice("phone 3", offline)
    settled(session, voice)
    assert len(sink.played) == 3


def test_the_time_limit_is_said(tmp_path) -> None:
    clock = FakeClock()
    session = Session(tmp_path / "journal.sqlite", clock)
    session.open()
    voice, sink = _started(session, Config(), tmp_path)
    try:
        _new_game(session, voice, time_limit=60, warning=30)
        clock.advance(30)
        settled(session, voice)
        clock.advance(30)
        settled(session, voice)
        assert sink.texts()[-2:] == ["Programming: 30 seconds left.", "Time is up."]
    finally:
        voice.close()
        session.close()


def test_without_a_speaker_the_browser_still_gets_the_audio(session, tmp_path) -> None:
    """The virtual table (`speaker=False`) or `device = "none"`: nothing is played here, the
    WAV is rendered for the panel in the browser."""
    for options, config in (({"speaker": False}, Config()), ({}, voice_config(device="none"))):
        voice = start_voice(
            session, config, engines=Speaker(Murmur()), cache_dir=tmp_path / "c", **options
        )
        assert voice.sink is None
        if session._game is None:
            _new_game(session, voice)
        play(session, 30, seed=4, voice=voice)
        latest = voice.latest()
        assert latest is not None and duration(voice.audio(latest["id"])) > 0.5
        voice.close()
