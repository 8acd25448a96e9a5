"""Issue 30, point 4: the recap in the pseudo-locale. `room25 export --html --lang qps`, its
catalogue reading the pseudo-locale's folder from `$ROOM25_WORDS`, writes a finished game's
recap; opened in Chromium, every text it shows (the result, the roles, the final complex, the
replay's first step) is the catalogue's, bracketed, or one of the few names, numbers and signs
allowed; and none runs past its box, at a phone's size or a TV's."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from pseudo_locale import (
    CODE,
    PAST_THEIR_BOX,
    SHOWN_TEXTS,
    allowed,
    outside_catalogue,
    pseudo,
    write_pseudo_locale,
)

from companion import words

from .games import finished_games

ROOM25 = Path(sys.executable).with_name("room25")
PHONE = {"viewport": {"width": 390, "height": 844}}
TV = {"width": 1920, "height": 1080}
# Beside the names and numbers: a cell (C2) or a column (A), the game's id and the end's
# clock time (2026-12-03 21:04 UTC).
ALLOWED = allowed("[A-E][1-5]?", r"\d{8}-\d{6}(?:-\d+)?", "UTC")


@dataclass
class Read:
    """What the recap showed: its texts, and those past their box by size."""

    shown: list[list[str]]
    past: dict[str, list[list[str]]]


@pytest.fixture(scope="module")
def read(tmp_path_factory: pytest.TempPathFactory, browser) -> Read:
    """A Season 2 game's recap in the pseudo-locale, read at a phone's size and at a TV's."""
    folder = tmp_path_factory.mktemp("recap")
    game = finished_games(folder / "data", ("season2",))["season2"]
    extra = write_pseudo_locale(folder / "words")
    recap = folder / "recap.html"
    command = [str(ROOM25), "export", game, "--data-dir", str(folder / "data"),
               "--html", str(recap), "--lang", CODE]  # fmt: skip
    env = {**os.environ, words.catalogue.EXTRA: str(extra)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f'lang="{CODE}"' in recap.read_text("utf-8")
    page = browser.new_context(**PHONE, offline=True).new_page()
    page.goto(recap.as_uri())
    page.wait_for_selector("#replay[data-ready='1']")
    shown = page.evaluate(SHOWN_TEXTS)
    past = {"phone": page.evaluate(PAST_THEIR_BOX, PHONE["viewport"]["width"])}
    page.set_viewport_size(TV)
    past["tv"] = page.evaluate(PAST_THEIR_BOX, TV["width"])
    return Read(shown, past)


def _a_short_room_name(text: str) -> bool:
    """A board cell's room name on a phone (`room_short_<kind>`), with its cell or alone."""
    written = words.own_texts(words.fallback())
    names = {pseudo(text) for key, text in written.items() if key.startswith("room_short_")}
    return text.split("\n")[-1] in names


def _past(read: Read, short_names: bool) -> list[str]:
    return [
        f"{text!r} ({why}) at {size}"
        for size, texts in read.past.items()
        for text, why in texts
        if _a_short_room_name(text) == short_names
    ]


def test_every_recap_text_comes_from_the_catalogue(read: Read) -> None:
    assert len(read.shown) > 20  # the result, the roles, the complex, the replay
    outside = [(text, at) for text, at in read.shown if outside_catalogue(text, ALLOWED)]
    assert outside == []


def test_no_recap_text_runs_past_its_box(read: Read) -> None:
    """On a phone or a big screen. Found and fixed: the recap did not break a word longer than
    its box as the pages do (the replay's controls ran past a phone's screen), and its margins
    on a phone made the board's cells narrower than the replay page's."""
    found = _past(read, short_names=False)
    assert found == [], f"{len(found)} texts past their box:\n" + "\n".join(found)


def test_a_room_short_name_35_percent_longer_fits_a_phones_cell(read: Read) -> None:
    """Found and fixed: the replay's board set a room's short name on a phone on one line, never
    broken (Season 2's Shredder and Jamming, 35 % longer, ran past their cell); it breaks now
    between syllables as the pages' board does (`R25Words.hyphenable`), or anywhere at worst."""
    found = _past(read, short_names=True)
    assert found == [], f"{len(found)} room names past their cell:\n" + "\n".join(found)
