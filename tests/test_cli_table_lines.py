"""Issue 30: `room25 voice`, `room25 screens` and `room25 deck`'s table speak the command line's
language (`LANG` here, `--lang` first), through the real `room25` program, in each language of
the catalogue: what they wrote, their headings, their refusals and what stopped them."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import words
from companion.hardware.gallery import sample_updates
from companion.voice.samples import gallery_index

ROOM25 = Path(sys.executable).with_name("room25")
LANGS = ("en", "fr", "de")
# What each language says, as a reader of it expects to read it.
SAY_EMPTY = {
    "en": "room25 voice: --say needs a text to say",
    "fr": "room25 voice: --say attend un texte à dire",
    "de": "room25 voice: --say braucht einen Text zum Sprechen",
}
WRITTEN = {"en": "written", "fr": "écrit", "de": "geschrieben"}
NO_ESPEAK = {
    "en": "room25 voice: espeak-ng is not installed (espeak-ng not found)",
    "fr": "room25 voice: espeak-ng n'est pas installé (espeak-ng introuvable)",
    "de": "room25 voice: espeak-ng ist nicht installiert (espeak-ng nicht gefunden)",
}
CANNOT_WRITE = {"en": "cannot write", "fr": "impossible d'écrire", "de": "nicht schreiben"}
SCREENS = {"en": "English: {n} OLED screens", "fr": "Deutsch\u00a0: {n} écrans OLED",
           "de": "Français: {n} OLED-Bildschirme"}  # fmt: skip
NO_CHROMIUM = {
    "en": "room25 screens --pages: Chromium is missing: apt-get install chromium",
    "fr": "room25 screens --pages: Chromium manque\u00a0: apt-get install chromium",
    "de": "room25 screens --pages: Chromium fehlt: apt-get install chromium",
}
DECK = {"en": "row 1 east, twice", "fr": "rangée 1 vers l'est, deux fois",
        "de": "Reihe 1 nach Osten, zweimal"}  # fmt: skip


def _room25(lang: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`room25 ARGS` in a terminal speaking `lang` (an unknown code is read as the fallback)."""
    base = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    return subprocess.run(
        [str(ROOM25), *args],
        env={**base, "LANG": f"{lang}.UTF-8", **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("lang", LANGS)
def test_voice_refuses_an_empty_text_in_the_terminals_language(lang: str) -> None:
    done = _room25(lang, "voice", "--say", "  ")
    assert (done.returncode, done.stderr.strip()) == (2, SAY_EMPTY[lang])


def test_voice_speaks_its_lang_option_first() -> None:
    done = _room25("fr", "voice", "--say", "  ", "--lang", "de")
    assert done.stderr.strip() == SAY_EMPTY["de"]


@pytest.mark.parametrize("lang", LANGS)
def test_voice_says_what_it_wrote_and_what_it_could_not(lang: str, tmp_path: Path) -> None:
    out = tmp_path / "said.wav"
    done = _room25(lang, "voice", "--say", "Room 25", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{out} {WRITTEN[lang]} (") and out.exists()
    missing = tmp_path / "no" / "said.wav"
    done = _room25(lang, "voice", "--say", "Room 25", "--out", str(missing))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    why = os.strerror(errno.ENOENT)  # the system's own reason, kept
    said = words.text(lang, "cli_cannot_write", path=str(missing), why=why)
    assert done.stderr.strip() == f"room25 voice: {said}" and CANNOT_WRITE[lang] in said


@pytest.mark.parametrize("lang", LANGS)
def test_voice_without_espeak_says_so(lang: str, tmp_path: Path) -> None:
    for args in (
        ["--say", "Room 25", "--out", str(tmp_path / "a.wav")],
        ["--sample", str(tmp_path)],
    ):
        done = _room25(lang, "voice", *args, PATH=str(tmp_path))
        assert (done.returncode, done.stderr.strip()) == (1, NO_ESPEAK[lang])


@pytest.mark.parametrize("lang", LANGS)
def test_screens_heads_each_language_and_says_what_stopped_it(lang: str, tmp_path: Path) -> None:
    done = _room25(lang, "screens", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    headings = [line for line in done.stdout.splitlines() if not line.endswith(".png")]
    heading = SCREENS[lang].format(n=len(sample_updates()))
    assert len(headings) == len(words.languages()) and heading in headings
    blocked = tmp_path / "a file"
    blocked.write_text("")
    done = _room25(lang, "screens", str(blocked / "out"))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("room25 screens: ") and CANNOT_WRITE[lang] in done.stderr
    done = _room25(lang, "screens", "--pages", str(tmp_path / "p"), PATH=str(tmp_path))
    assert done.returncode == 1 and done.stderr.startswith(NO_CHROMIUM[lang]), done.stderr


def test_screens_to_a_reader_that_leaves_early_ends_no_traceback(tmp_path: Path) -> None:
    """`room25 screens OUTDIR | head -1`: the closed pipe is no file it could not write."""
    with subprocess.Popen([str(ROOM25), "screens", str(tmp_path)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as command:  # fmt: skip
        assert command.stdout is not None and command.stderr is not None
        command.stdout.readline()
        command.stdout.close()
        error = command.stderr.read().decode()
    assert (command.returncode, error) == (0, "")


@pytest.mark.parametrize("lang", LANGS)
def test_the_deck_table_is_in_the_terminals_language(lang: str) -> None:
    done = _room25(lang, "deck")
    assert done.returncode == 0, done.stderr
    assert any(line.endswith(DECK[lang]) for line in done.stdout.splitlines())


@pytest.mark.parametrize("lang", LANGS)
def test_the_voice_gallerys_page_is_in_the_language_asked(lang: str) -> None:
    page = gallery_index([(Path(f"turn.{code}.wav"), code) for code in words.languages()], lang)
    title, _, intro, *_, header, _, row = page.splitlines()
    assert title == f"# {words.text(lang, 'cli_voice_gallery_title')}"
    assert intro.split()[0] == words.text(lang, "cli_voice_gallery_intro").split()[0]
    names = [words.names()[code] for code in words.languages()]
    assert header.split(" | ")[1:] == [*names[:-1], f"{names[-1]} |"]
    assert row.startswith("| `turn` | [en](turn.en.wav) |")
    assert words.text("fr", "cli_voice_gallery_title") == "Ce que le compagnon dit à voix haute"
