"""Issue 30, point 4: the pages in the pseudo-locale. A real `room25 serve` reads the
pseudo-locale's folder from `$ROOM25_WORDS`; the page gallery's sample game (`room25 screens
--pages`) is played on it in Chromium, every page in the pseudo-locale, and each page at each
moment is read at a phone's size and at a TV's; so are the host page (its set-up wizard before
the game, its controls, voice, wiring check and history after it), the rules page (every rule
opened), the game's replay and the virtual panel (the table's language): every text
shown is the catalogue's (bracketed, or one of the few names, numbers and signs allowed), and
none runs past its box."""

from __future__ import annotations

import re
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
# Each rule's reading is folded under its name: all of them opened, every rule text is read.
OPEN_EVERY_RULE = "() => document.querySelectorAll('details').forEach((d) => { d.open = true; })"
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
                if outside_catalogue(_without_the_books_words(text, at), ALLOWED)
            ]
            self.past[where] = page.evaluate(PAST_THEIR_BOX, viewport["width"])
        page.set_viewport_size(drawn)


@pytest.fixture(scope="module")
def read(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Read]:
    """The sample game played once, in the pseudo-locale, every page read at every moment."""
    extra = write_pseudo_locale(tmp_path_factory.mktemp("words"))
    env = {words.catalogue.EXTRA: str(extra)}
    # The table speaks the pseudo-locale too: the virtual panel's page is in its language.
    config = tmp_path_factory.mktemp("config") / "room25.toml"
    config.write_text(f'[table]\nlanguage = "{CODE}"\n', "utf-8")
    data = tmp_path_factory.mktemp("serve")
    server = Serve(data, env=env, args=("--config", str(config))).wait_ready()
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
        for folded in ("#voice-controls", "#check-table", "#history"):
            host.locator(f"{folded} summary").click()
        host.locator("#history-games tr[data-game]").first.wait_for()
        looked("90-after-the-game-host", host)
        games = host.request.get(server.url + "/api/host/games").json()["games"]
        (game,) = [g["game"] for g in games if g["outcome"] is not None]  # the taught one plays on
        page = browser.new_context(locale=CODE, viewport=SIZES["phone"]).new_page()
        page.goto(server.url + "/rules")
        page.locator(".rules-group h2").first.wait_for()
        page.evaluate(OPEN_EVERY_RULE)
        looked("91-rules", page)
        page.goto(server.url + f"/replay/{game}")
        page.locator("#replay-play").wait_for()
        looked("92-replay", page)
        page.goto(server.url + "/panel")
        page.locator("#panel .seat").first.wait_for(state="attached")
        looked("93-panel", page)
        yield looked
    finally:
        server.stop()


# A rule's sources (`.source`), companion/engine/data/rule_texts.json's: the books' names and
# the project's words ("tile text (French)", "(implied)") from the catalogue, and the books'
# own headings and quotes as printed, in no reader's language.
SOURCE = ".source"
# A book's own words in a citation: after a text of the catalogue (the book's name, or one of
# the project's words), from the ", " or ": " that follows it to the next "; " or text of the
# catalogue ("[Ultimate rulebook], NEW ROOMS: Timer room", "[tile]: « ou porter »").
BOOKS_OWN = re.compile(r"(?<=\])[,:]\s[^;\[]*")


def _without_the_books_words(text: str, where: str) -> str:
    """A shown text, less its books' own words if it is a rule's source: what is left must be
    the catalogue's, as any text."""
    return BOOKS_OWN.sub(" ", text) if where.endswith(SOURCE) else text


def _offenders(found: dict[str, list[list[str]]], source: bool | None = None) -> list[str]:
    """Each offending text once, with why and the pages where it is; only a rule's sources,
    or all but them, if `source` says so."""
    where: dict[tuple[str, str], list[str]] = {}
    for page, texts in found.items():
        for text, why in texts:
            if source is not None and why.endswith(SOURCE) != source:
                continue
            where.setdefault((text, why), []).append(page)
    return [f"{text!r} ({why}) on {', '.join(pages)}" for (text, why), pages in where.items()]


def test_the_sample_game_reads_every_page_at_both_sizes(read: Read) -> None:
    # The fifteen pictures of `room25 screens --pages` (nine of a phone, six of the table),
    # the host page twice, the rules, the replay and the virtual panel, each at 2 sizes.
    assert len(read.outside) == len(read.past) == (15 + 5) * 2
    assert {where.rsplit(" ", 1)[1] for where in read.outside} == set(SIZES)


def test_every_page_text_comes_from_the_catalogue(read: Read) -> None:
    found = _offenders(read.outside, source=False)
    assert found == [], f"{len(found)} texts not from the catalogue:\n" + "\n".join(found[:80])


def test_the_rules_cite_their_sources_in_the_catalogues_words(read: Read) -> None:
    """A rule's source is a citation: the book's name and the project's words around it
    (`001, {tile_text}`, `{notes}, Vision chamber`) are the catalogue's; the book's own words,
    from the ", " or ": " after one of them to the next ";" or catalogue text, stay as printed
    (docs/languages.md). A project's word left in English (`001 tile text`) is not after such a
    ", " or ": ", and shows."""
    found = _offenders(read.outside, source=True)
    assert found == [], f"{len(found)} sources not from the catalogue:\n" + "\n".join(found[:80])


def test_no_page_text_runs_past_its_box(read: Read) -> None:
    found = _offenders(read.past)
    assert found == [], f"{len(found)} texts past their box:\n" + "\n".join(found[:80])
