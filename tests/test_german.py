"""German, the third language, came as a folder (issue 30, point 5): a reader whose browser asks
for German gets the pages in German with Deutsch in the language menu, and /rules and the recap
in German; the OLED draws German words with their umlauts as letters (the 1-bit fonts hold
them: ISO-8859-1 Terminus), and the voice speaks German through espeak-ng's `de`."""

from __future__ import annotations

import html
import http.client
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import ImageFont
from pseudo_locale import PAST_THEIR_BOX
from serving import Serve
from story.games import finished_games

from companion import engine, words
from companion.hardware import screens
from companion.hardware.gallery import sample_updates
from companion.hardware.screens import frame
from companion.voice.samples import sample_lines
from companion.voice.wav import duration

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="no espeak-ng here")
UMLAUTS = {"ä": "a", "ö": "o", "ü": "u", "Ä": "A", "Ö": "O", "Ü": "U"}


def _page(served: Serve, language: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", served.port)
    conn.request("GET", "/", headers={"Accept-Language": language})
    page = conn.getresponse().read().decode()
    conn.close()
    return page


def test_accept_language_de_gives_the_page_in_german_and_the_menu_lists_deutsch(
    tmp_path: Path,
) -> None:
    served = Serve(tmp_path / "data").wait_ready()
    try:
        german = _page(served, "de-DE,de;q=0.9,en;q=0.5")
        english = _page(served, "en")
    finally:
        served.stop()
    assert '<html lang="de"' in german
    assert '<option value="de" selected>Deutsch</option>' in german
    assert '<option value="de">Deutsch</option>' in english
    assert '<option value="fr">Français</option>' in german
    texts = json.loads(re.search(r'id="texts">(.*?)</script>', german, re.S)[1])
    assert texts["lang"] == "de"
    assert texts["t"]["pick_seat"] == "Wähle deinen Platz"
    assert texts["names"]["rooms"]["acid"] == "Säurebad"


def _get(served: Serve, path: str, language: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", served.port)
    conn.request("GET", path, headers={"Accept-Language": language})
    page = conn.getresponse().read().decode()
    conn.close()
    return html.unescape(page)


def test_the_rules_page_tells_every_rule_in_german(tmp_path: Path) -> None:
    """/rules for a German reader, for each edition: every room's text and every point's
    readings in German (docs/rules.md's decisions as the English say them), none in English."""
    served = Serve(tmp_path / "data").wait_ready()
    try:
        pages = [_get(served, f"/rules?edition={e}", "de") for e in engine.EDITIONS]
    finally:
        served.stop()
    assert all('<html lang="de"' in page for page in pages)
    shown = "".join(pages)
    german, english = words.own_texts("de"), words.own_texts(words.fallback())
    told = [k for k in german if k.startswith(("rule_", "room_text_"))]
    assert len(told) > 60
    assert [k for k in told if german[k] not in shown] == []
    # A rule's sources cite the books' sections as printed, English ones among them ("001,
    # THE ACTIONS: Look"): the English texts are looked for outside them, as whole words, and
    # those of one word left out ("Move" is the M of M.A.C., "Move Alone Complex", in German).
    told_alone = re.sub(r'<(p|small) class="source">.*?</\1>', "", shown, flags=re.S)

    def in_english(key: str) -> bool:
        said = english[key]
        whole = re.search(rf"(?<!\w){re.escape(said)}(?!\w)", told_alone)
        return said != german[key] and len(said.split()) > 1 and whole is not None

    assert [k for k in told if in_english(k)] == []


def test_the_recap_is_written_in_german(tmp_path: Path, browser) -> None:
    """`room25 export --html --lang de`: the recap's headings and mode are German, and on a
    phone every text fits its box (German's short room names were its long ones, cut in a
    board's cell: "Wirbelkammer" is "Wirbel" there, as English says "Vortex")."""
    game = finished_games(tmp_path / "data", ("season2",))["season2"]
    recap = tmp_path / "recap.html"
    room25 = str(Path(sys.executable).with_name("room25"))
    command = [room25, "export", game, "--data-dir", str(tmp_path / "data"),
               "--html", str(recap), "--lang", "de"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    page = html.unescape(recap.read_text("utf-8"))
    german, english = words.own_texts("de"), words.own_texts(words.fallback())
    assert '<html lang="de"' in page
    for key in ("replay_result", "replay_roles", "replay_final_complex", "mode_suspicion"):
        assert german[key] in page and english[key] not in page, key
    phone = browser.new_context(viewport={"width": 390, "height": 844}, offline=True).new_page()
    phone.goto(recap.as_uri())
    phone.wait_for_selector("#replay[data-ready='1']")
    assert phone.evaluate(PAST_THEIR_BOX, 390) == []


@pytest.fixture
def drawn(monkeypatch) -> list[tuple[str, ImageFont.ImageFont]]:
    """Every text a screen draws, whole, with the font it is drawn in (the screens stamp each
    run of a text from a cache, so Pillow itself sees only the runs not drawn before)."""
    caught: list[tuple[str, ImageFont.ImageFont]] = []
    draw_text = screens._text

    def text(draw, xy, text, face, *args, **kwargs):
        caught.append((text, face))
        return draw_text(draw, xy, text, face, *args, **kwargs)

    monkeypatch.setattr(screens, "_text", text)
    return caught


def _lit(face: ImageFont.ImageFont, letter: str) -> set[tuple[int, int]]:
    mask = face.getmask(letter)
    width, height = mask.size
    return {(x, y) for y in range(height) for x in range(width) if mask.getpixel((x, y))}


def test_a_german_oled_screen_draws_its_umlauts_as_letters(drawn) -> None:
    """The wiring check's "press" step (Prüfung, Drücken) and an elimination (Säurebad,
    Wächter): each umlaut is drawn as its letter with the dots over it, in the font the
    screen uses, not as a box or a gap."""
    samples = sample_updates()
    frame("check", {**samples["check_press"]}, "de")
    frame("elimination", samples["elimination"], "de")
    said = " ".join(text for text, _ in drawn)
    for word in ("Prüfung", "Drücken", "Säurebad", "Wächter"):
        assert word in said, said
    umlauts = {(letter, face) for text, face in drawn for letter in text if letter in UMLAUTS}
    assert {letter for letter, _ in umlauts} >= {"ä", "ü"}
    for letter, face in umlauts:
        base, marked = _lit(face, UMLAUTS[letter]), _lit(face, letter)
        assert base < marked, letter  # the plain letter, and dots besides
    faces = {face for _, face in drawn}
    assert all(_lit(face, "ß") - _lit(face, "B") for face in faces)


def test_the_voice_says_german_in_german_words() -> None:
    lines = [line.text("de") for found in sample_lines().values() for line in found]
    assert "Raum aufgedeckt: Säurebad." in lines
    assert "Jennifer war eine Wächterin." in lines
    assert words.settings("de")["voice"] == "de"


@needs_espeak
def test_espeak_ng_speaks_a_german_phrase(tmp_path: Path) -> None:
    listed = subprocess.run(["espeak-ng", "--voices=de"], capture_output=True, text=True)
    assert re.search(r"^\s*\d+\s+de\s", listed.stdout, re.M), listed.stdout
    out = tmp_path / "gesagt.wav"
    room25 = Path(sys.executable).with_name("room25")
    said = "Die Wächter gewinnen: Säurebad, Schlüsselraum."
    done = subprocess.run(
        [str(room25), "voice", "--say", said, "--lang", "de", "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert duration(out.read_bytes()) > 1.0
