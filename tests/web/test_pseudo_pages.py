"""Issue 30, point 4: the pages in the pseudo-locale. A real `room25 serve` reads the
pseudo-locale's folder from `$ROOM25_WORDS`; the page gallery's sample game (`room25 screens
--pages`) is played on it in Chromium, every page in the pseudo-locale, and each page at each
moment is read at a phone's size and at a TV's; so are the host page (its set-up wizard before
the game, its controls and history after it), the rules page and the game's replay: every text
shown is the catalogue's (bracketed, or one of the few names, numbers and signs allowed), and
none runs past its box."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pseudo_locale import (
    CODE,
    PAST_THEIR_BOX,
    SHOWN_TEXTS,
    allowed,
    outside_catalogue,
    write_pseudo_locale,
)
from serving import Serve

from companion import words
from companion.web.gallery import PIN, SampleGame

SIZES = {"phone": {"width": 390, "height": 844}, "tv": {"width": 1920, "height": 1080}}
# Beside the names and numbers: the PIN, a cell (C2) or a column (A), the join address, a
# game's id (the host's past games: "20261203-124706-5cb4", its end hexadecimal), and the
# game's name in the bar.
ALLOWED = allowed(PIN, "[A-E][1-5]?", r"http://[\w.:/]+", r"\d{8}-\d{6}-[0-9a-f]{4}", "Room 25")
DRAWN = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


class Read:
    """What each page showed at each moment and size: texts not from the catalogue and texts
    past their box, by the page's name ("03-programming-phone1 at tv")."""

    def __init__(self) -> None:
        self.outside: dict[str, list[list[str]]] = {}
        self.past: dict[str, list[list[str]]] = {}

    def __call__(self, name: str, page: Any) -> None:
        drawn = page.viewport_size
        # Every page on a phone and on a big screen: the table page is a TV's, but a phone
        # may open it too.
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.evaluate(DRAWN)
            where = f"{name} at {size}"
            self.outside[where] = [
                [text, at]
                for text, at in page.evaluate(SHOWN_TEXTS)
                if outside_catalogue(text, ALLOWED)
            ]
            self.past[where] = page.evaluate(PAST_THEIR_BOX, viewport["width"])
        page.set_viewport_size(drawn)


@pytest.fixture(scope="module")
def read(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Read]:
    """The sample game played once, in the pseudo-locale, every page read at every moment."""
    extra = write_pseudo_locale(tmp_path_factory.mktemp("words"))
    env = {words.catalogue.EXTRA: str(extra)}
    server = Serve(tmp_path_factory.mktemp("serve"), env=env).wait_ready()
    looked = Read()
    host = browser.new_context(locale=CODE, viewport=SIZES["phone"]).new_page()
    try:
        host.goto(server.url + "/host")
        host.fill("#pin", PIN)
        host.click("#login-form button")
        host.locator("#wizard #w-tiles li").first.wait_for()
        looked("00-wizard-host", host)
        SampleGame(browser, server.url, looked, locale=CODE).play()
        host.reload()
        host.locator("#history summary").click()
        host.locator("#history-games tr[data-game]").first.wait_for()
        looked("90-after-the-game-host", host)
        games = host.request.get(server.url + "/api/host/games").json()["games"]
        (game,) = [g["game"] for g in games if g["outcome"] is not None]  # the taught one plays on
        page = browser.new_context(locale=CODE, viewport=SIZES["phone"]).new_page()
        page.goto(server.url + "/rules")
        page.locator(".rules-group h2").first.wait_for()
        looked("91-rules", page)
        page.goto(server.url + f"/replay/{game}")
        page.locator("#replay-play").wait_for()
        looked("92-replay", page)
        yield looked
    finally:
        server.stop()


def _offenders(found: dict[str, list[list[str]]]) -> list[str]:
    """Each offending text once, with why and the pages where it is."""
    where: dict[tuple[str, str], list[str]] = {}
    for page, texts in found.items():
        for text, why in texts:
            where.setdefault((text, why), []).append(page)
    return [f"{text!r} ({why}) on {', '.join(pages)}" for (text, why), pages in where.items()]


def test_the_sample_game_reads_every_page_at_both_sizes(read: Read) -> None:
    # The fifteen pictures of `room25 screens --pages` (nine of a phone, six of the table),
    # the host page twice, the rules and the replay, each at 2 sizes.
    assert len(read.outside) == len(read.past) == (15 + 4) * 2
    assert {where.rsplit(" ", 1)[1] for where in read.outside} == set(SIZES)


def test_every_page_text_comes_from_the_catalogue(read: Read) -> None:
    found = _offenders(read.outside)
    assert found == [], f"{len(found)} texts not from the catalogue:\n" + "\n".join(found[:80])


def test_no_page_text_runs_past_its_box(read: Read) -> None:
    found = _offenders(read.past)
    assert found == [], f"{len(found)} texts past their box:\n" + "\n".join(found[:80])
