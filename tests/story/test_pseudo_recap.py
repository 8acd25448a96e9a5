"""Issue 30, point 4: the recap in the pseudo-locale. `room25 export --html --lang qps`, its
catalogue reading the pseudo-locale's folder from `$ROOM25_WORDS`, writes a finished game's
recap; opened in Chromium, every text it shows (the result, the roles, the final complex, the
replay's first step) is the catalogue's, bracketed, or one of the few names, numbers and signs
allowed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pseudo_locale import CODE, SHOWN_TEXTS, allowed, outside_catalogue, write_pseudo_locale

from companion import words

from .games import finished_games

ROOM25 = Path(sys.executable).with_name("room25")
PHONE = {"viewport": {"width": 390, "height": 844}}
# Beside the names and numbers: a cell (C2) or a column (A), the game's id and the end's
# clock time (2026-12-03 21:04 UTC).
ALLOWED = allowed("[A-E][1-5]?", r"\d{8}-\d{6}(?:-\d+)?", "UTC")


def test_every_recap_text_comes_from_the_catalogue(tmp_path: Path, browser) -> None:
    game = finished_games(tmp_path / "data", ("season2",))["season2"]
    extra = write_pseudo_locale(tmp_path / "words")
    recap = tmp_path / "recap.html"
    command = [str(ROOM25), "export", game, "--data-dir", str(tmp_path / "data"),
               "--html", str(recap), "--lang", CODE]  # fmt: skip
    env = {**os.environ, words.catalogue.EXTRA: str(extra)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f'lang="{CODE}"' in recap.read_text("utf-8")
    page = browser.new_context(**PHONE, offline=True).new_page()
    page.goto(recap.as_uri())
    page.wait_for_selector("#replay[data-ready='1']")
    shown = page.evaluate(SHOWN_TEXTS)
    assert len(shown) > 20  # the result, the roles, the complex, the replay
    outside = [(text, at) for text, at in shown if outside_catalogue(text, ALLOWED)]
    assert outside == []
