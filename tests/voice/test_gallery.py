"""The gallery of docs/voice/: `room25 voice --sample OUTDIR --gallery` writes every
announcement in both languages as compact clips and the page listing them; the page in the docs
says what the voice says today; a compact clip keeps the words at a sixth of the bytes."""

from __future__ import annotations

import io
import wave
from array import array
from pathlib import Path

from companion.voice.samples import gallery_index, sample_lines
from companion.voice.wav import compact, duration
from companion.words import fallback, languages

from .conftest import needs_espeak
from .test_cli import _room25

LANGUAGES = languages()

DOCS = Path(__file__).resolve().parents[2] / "docs" / "voice"


def _clip(seconds: float, rate: int = 22050) -> bytes:
    """Silence, a second of a loud square wave, silence: a clip with quiet ends."""
    quiet, loud = array("h", [0] * int(rate * seconds)), array("h", [9000, -9000] * (rate // 2))
    out = io.BytesIO()
    with wave.open(out, "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(2)
        writer.setframerate(rate)
        writer.writeframes((quiet + loud + quiet).tobytes())
    return out.getvalue()


def test_a_compact_clip_keeps_the_sound_and_drops_the_quiet_ends() -> None:
    clip = _clip(1.0)
    small = compact(clip)
    with wave.open(io.BytesIO(small)) as reader:
        assert (reader.getsampwidth(), reader.getframerate()) == (1, 7350)
    assert 1.0 <= duration(small) <= 1.2  # the loud second and 50 ms either side
    assert len(small) < len(clip) / 12


def _listed() -> list[tuple[Path, str]]:
    return [
        (Path(f"{name}.{lang}.wav"), " ".join(line.text(lang) for line in lines))
        for name, lines in sample_lines(every_lesson=False).items()
        for lang in LANGUAGES
    ]


def test_the_docs_gallery_says_what_the_voice_says_today() -> None:
    """Rerun `room25 voice --sample docs/voice --gallery` when a phrase changes."""
    assert (DOCS / "README.md").read_text("utf-8") == gallery_index(_listed(), fallback())
    assert {p.name for p in DOCS.glob("*.wav")} == {path.name for path, _ in _listed()}
    assert sum(p.stat().st_size for p in DOCS.glob("*.wav")) < 4_000_000  # small docs


@needs_espeak
def test_gallery_writes_small_clips_and_their_page(tmp_path: Path) -> None:
    out = tmp_path / "gallery"
    done = _room25("voice", "--sample", str(out), "--gallery")
    assert done.returncode == 0, done.stderr
    page = (out / "README.md").read_text("utf-8")
    for path, _ in _listed():
        assert f"]({path.name})" in page and (out / path.name).exists()
        assert duration((out / path.name).read_bytes()) > 0.5
    assert "[Au tour d'Emmett\u00a0: première action.](actor_first.fr.wav)" in page
