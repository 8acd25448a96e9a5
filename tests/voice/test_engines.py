"""The real espeak-ng renders English and French to WAV of a plausible length, each distinct
phrase once (the cache); the real aplay plays a clip on ALSA's null device; a Piper model is
used only for its own language; clips join and scale."""

from __future__ import annotations

import io
import json
import shutil
import sys
import wave
from array import array
from pathlib import Path

import pytest

from companion.config import Config
from companion.voice import start_voice
from companion.voice.cache import Cache
from companion.voice.engines import Espeak, Piper, Speaker
from companion.voice.sinks import Aplay, Clip, FakeSink
from companion.voice.wav import duration, join, scaled

from .conftest import Murmur, needs_espeak, play, settled

ALARM = {"en": "Room 25 has been found: 5 turns left.", "fr": "La salle 25 a été trouvée."}


def _peak(clip: bytes) -> int:
    with wave.open(io.BytesIO(clip)) as reader:
        return max(abs(s) for s in array("h", reader.readframes(reader.getnframes())))


@needs_espeak
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_espeak_renders_a_wav_of_a_plausible_length(tmp_path: Path, lang: str) -> None:
    out = tmp_path / "alarm.wav"
    Espeak().render(ALARM[lang], lang, out)
    with wave.open(str(out)) as reader:
        assert (reader.getnchannels(), reader.getsampwidth()) == (1, 2)
        assert reader.getframerate() >= 16000
    assert 1.0 < duration(out.read_bytes()) < 6.0  # about a dozen words, said at 165 a minute
    assert _peak(out.read_bytes()) > 2000, "not silence"


@needs_espeak
def test_the_text_is_never_taken_for_an_option(tmp_path: Path) -> None:
    out = tmp_path / "odd.wav"
    Espeak().render("--help -w /etc/passwd", "en", out)
    assert duration(out.read_bytes()) > 0.5


@needs_espeak
def test_each_distinct_phrase_is_rendered_once(tmp_path: Path) -> None:
    cache, espeak = Cache(tmp_path), Espeak()
    first = cache.clip(espeak, ALARM["en"], "en")
    assert cache.clip(espeak, ALARM["en"], "en") == first
    cache.clip(espeak, ALARM["en"], "fr")  # another voice: another clip
    assert cache.rendered == 2 and cache.size()[0] == 2
    assert Cache(tmp_path).clip(espeak, ALARM["en"], "en") == first  # kept on disk
    slower = Espeak(speed=120)
    assert cache.path(slower, ALARM["en"], "en") != cache.path(espeak, ALARM["en"], "en")


@needs_espeak
@pytest.mark.skipif(shutil.which("aplay") is None, reason="aplay is not installed (alsa-utils)")
def test_a_game_through_espeak_and_aplay_on_the_null_device(session, tmp_path: Path) -> None:
    started: list[Clip] = []
    sink = Aplay("null", on_start=started.append)
    voice = start_voice(session, Config(), sink=sink, cache_dir=tmp_path / "c")
    try:
        setup = {"edition": "base", "mode": "suspicion", "players": 5, "seed": 3}
        assert session.host("new_game", setup=setup).ok
        play(session, 25, seed=1, voice=voice)
        settled(session, voice)
        assert started and voice.problems() == []
        assert started[-1].id == voice.latest()["id"]
        assert voice.cache.size()[0] >= 3
    finally:
        voice.close()


def test_a_piper_model_speaks_its_own_language_only(tmp_path: Path) -> None:
    model = tmp_path / "fr_FR-siwis-medium.onnx"
    model.write_bytes(b"onnx")
    model.with_name(model.name + ".json").write_text(json.dumps({"language": {"code": "fr_FR"}}))
    speaker = Speaker(Espeak(), Piper(model))
    assert speaker.engine("fr").name == "piper" and speaker.engine("en").name == "espeak-ng"
    voice_before = speaker.engine("fr").voice("fr")
    model.write_bytes(b"another onnx")
    assert speaker.engine("fr").voice("fr") != voice_before  # a new model renders anew


def test_clips_join_with_a_gap_and_scale(tmp_path: Path) -> None:
    murmur = Murmur()
    clips = []
    for text in ("one", "three"):
        murmur.render(text, "en", tmp_path / f"{text}.wav")
        clips.append((tmp_path / f"{text}.wav").read_bytes())
    joined = join(clips)
    assert duration(joined) == pytest.approx(duration(clips[0]) + duration(clips[1]) + 0.25, 0.01)
    assert _peak(scaled(joined, 0.25)) == _peak(joined) // 4
    with wave.open(str(tmp_path / "stereo.wav"), "wb") as writer:
        writer.setnchannels(2)
        writer.setsampwidth(2)
        writer.setframerate(44100)
        writer.writeframes(b"\x00" * 400)
    with pytest.raises(ValueError, match="different formats"):
        join([clips[0], (tmp_path / "stereo.wav").read_bytes()])


def test_piper_is_run_with_its_model_and_the_text_on_its_input(session, tmp_path: Path) -> None:
    """Piper's command line (`piper --model M --output_file F`, the text on standard input),
    answered by a stand-in program that writes the WAV where piper would."""
    model = tmp_path / "en_GB-alan-medium.onnx"
    model.write_bytes(b"onnx")
    model.with_name(model.name + ".json").write_text(json.dumps({"language": {"code": "en_GB"}}))
    program = tmp_path / "piper"
    program.write_text(
        f"""#!{sys.executable}
import sys, wave
args = sys.argv[1:]
assert args[args.index("--model") + 1] == {str(model)!r}
text = sys.stdin.read()
with open({str(tmp_path / "said.txt")!r}, "a") as said:
    said.write(text + "\\n")
with wave.open(args[args.index("--output_file") + 1], "wb") as out:
    out.setnchannels(1); out.setsampwidth(2); out.setframerate(22050)
    out.writeframes(b"\\x10\\x00" * 22050)
"""
    )
    program.chmod(0o755)
    sink = FakeSink()
    engines = Speaker(Murmur(), Piper(model, program=str(program)))
    voice = start_voice(session, Config(), sink=sink, engines=engines, cache_dir=tmp_path / "c")
    try:
        assert session.host(
            "new_game", setup={"edition": "base", "mode": "solo", "players": 1, "seed": 2}
        ).ok
        play(session, 15, seed=1, voice=voice)
        said = (tmp_path / "said.txt").read_text().splitlines()
        assert said and sink.played and said[0] in sink.played[0].clip.text
        assert voice.problems() == []
    finally:
        voice.close()
