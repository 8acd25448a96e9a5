"""`room25 voice --say TEXT [--lang fr] [--out FILE]` and `room25 voice --sample OUTDIR`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from companion.teaching import LESSONS
from companion.voice.samples import sample_lines
from companion.voice.wav import duration
from companion.words import languages

from .conftest import needs_espeak

ROOM25 = Path(sys.executable).with_name("room25")


def _room25(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROOM25), *args], capture_output=True, text=True, check=False)


@needs_espeak
def test_say_writes_a_wav(tmp_path: Path) -> None:
    out = tmp_path / "said.wav"
    done = _room25("voice", "--say", "La salle 25 a été trouvée", "--lang", "fr", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert str(out) in done.stdout and duration(out.read_bytes()) > 1.0


@needs_espeak
def test_sample_renders_every_announcement_in_every_language(tmp_path: Path) -> None:
    done = _room25("voice", "--sample", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    written = {p.name for p in (tmp_path / "out").glob("*.wav")}
    assert written == {f"{name}.{lang}.wav" for name in sample_lines() for lang in languages()}
    assert {f"lesson_{each.id}.fr.wav" for each in LESSONS} <= written  # each lesson, said
    assert "Au tour d'Emmett\u00a0: première action." in done.stdout
    assert all(duration(p.read_bytes()) > 0.5 for p in (tmp_path / "out").glob("*.wav"))


def test_bad_input_gets_a_plain_answer() -> None:
    done = _room25("voice", "--say", "  ")
    assert done.returncode == 2 and "--say needs a text to say" in done.stderr
    done = _room25("voice")
    assert done.returncode == 2 and "one of the arguments --say --sample is required" in done.stderr
    done = _room25("voice", "--say", "hello", "--lang", "xx")
    assert done.returncode == 2 and "invalid choice" in done.stderr
