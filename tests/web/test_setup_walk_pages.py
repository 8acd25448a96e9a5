"""Issue 32, point 1 in headless Chromium: with teaching on, the host page walks the table
through a new game's physical set-up, Next clicked through every step, and the table page and
a seated phone show each step as the host page moves to it, read-only; after the last step
none shows it. Each page (the host's in English, the table's in French, the phone's in German)
says every step in the words the OLED and the voice say it (teaching/setup.py `step_text`):
the rooms set aside as one list joined by the language's "and"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pseudo_locale import CODE, PAST_THEIR_BOX, SHOWN_TEXTS, outside_catalogue, write_pseudo_locale
from serving import Phone, Serve, host_of
from waiting import page_until

from companion import words
from companion.teaching.setup import step_text

from .test_browser import PHONE
from .test_pseudo_pages import ALLOWED, DRAWN, SIZES

# Season 2 Cooperation: the M.A.C. deck's step is among them (002, LES CARTES M.A.C.).
SETUP = {"edition": "season2", "mode": "cooperation", "players": 4}
# Base Suspicion with role tiles on the table: its longest step (roles_tiles) among them.
TILES = {"edition": "base", "mode": "suspicion", "players": 6, "tracking": "physical"}
WALK = "#setup-walk"  # the set-up step's card, on the host page and the table page


def _taught(tmp_path: Path, env: dict[str, str] | None = None) -> Serve:
    """A real `room25 serve` whose table is taught (its `taught.json` says so)."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "taught.json").write_text(json.dumps({"on": True, "taught": []}), "utf-8")
    return Serve(data, env=env).wait_ready()


def test_the_host_clicks_next_through_every_step_and_the_table_shows_each(
    tmp_path, browser
) -> None:
    server = _taught(tmp_path)
    try:
        host = host_of(server)
        seat = Phone(server.url)
        assert seat.post("/api/join", {"seat": "1"})[0] == 200
        status, body = host.post("/api/host/games", {"setup": SETUP})
        assert status == 200, body
        _, table_view = host.get("/api/view?as=table")
        steps = table_view["session"]["setup"]["steps"]
        assert "mac_virtual" in [step["id"] for step in steps]
        page = host.in_browser(browser)
        page.goto(server.url + "/host")
        table = browser.new_context(locale="fr-FR").new_page()
        table.goto(server.url + "/table")
        phone = seat.in_browser(browser, locale="de-DE", **PHONE)
        for at, step in enumerate(steps):
            wanted = json.dumps(step["id"])
            for shown, lang in ((page, "en"), (table, "fr"), (phone, "de")):
                page_until(
                    shown, f"document.getElementById('setup-step')?.dataset.step === {wanted}"
                )
                count = shown.locator(".setup-count").inner_text()
                assert count == words.text(lang, "setup_step", n=at + 1, count=len(steps))
                # As the OLED and the voice say it, set as the page sets a language's signs.
                said = shown.evaluate("(s) => R25.typography(s)", step_text(step, lang))
                assert shown.locator("#setup-step").inner_text() == said
            for reader in (table, phone):  # Back and Next are the host's (and the table's button)
                assert reader.locator("#setup-walk button").count() == 0
            if step["id"] == "set_aside":
                assert page.locator("#setup-step").inner_text() == (
                    "Set aside Room 25 and Robot room."
                )
            if step["id"] == "compose":
                assert table.locator(".setup-tiles li").count() > 1
                # s2-cooperation-standard leaves 5 yellow and 8 red slots to the host's choice.
                free = "Free slots of your choice: 5 yellow and 8 red."
                assert page.locator(".setup-free").inner_text() == free
            page.locator("#setup-next").click()
        for shown in (page, table, phone):
            page_until(shown, "document.getElementById('setup-walk')?.hidden === true")
        _, after = host.get("/api/view?as=table")
        assert "setup" not in after["session"] and after["waiting"]["phase"] == "clue"
    finally:
        server.stop()


def _read(page: Any, viewport: dict[str, int]) -> tuple[list[list[str]], list[list[str]]]:
    """The set-up step's card at a size: its texts not from the catalogue, and its texts past
    their box (the rest of each page is the pseudo pages test's)."""
    page.set_viewport_size(viewport)
    page.evaluate(DRAWN)
    shown = page.evaluate(SHOWN_TEXTS, WALK)
    outside = [[text, at] for text, at in shown if outside_catalogue(text, ALLOWED)]
    return outside, page.evaluate(PAST_THEIR_BOX, [viewport["width"], WALK])


def test_every_step_in_the_pseudo_locale_is_the_catalogues_and_fits(tmp_path, browser) -> None:
    """Issue 30, point 4 for the set-up walk: in the pseudo-locale (every text accented, a
    third longer, bracketed), each step of two games, its card on the host page at a phone's
    size and on the table page at a TV's, shows only catalogue texts, none past its box."""
    extra = write_pseudo_locale(tmp_path / "words")
    server = _taught(tmp_path, {words.catalogue.EXTRA: str(extra)})
    found: dict[str, list[list[str]]] = {}
    try:
        host = host_of(server)
        page = host.in_browser(browser, locale=CODE)
        table = browser.new_context(locale=CODE).new_page()
        for setup in (SETUP, TILES):
            status, body = host.post("/api/host/games", {"setup": setup})
            assert status == 200, body
            _, table_view = host.get("/api/view?as=table")
            steps = table_view["session"]["setup"]["steps"]
            page.goto(server.url + "/host")
            table.goto(server.url + "/table")
            for step in steps:
                wanted = json.dumps(step["id"])
                for name, shown, size in (("host", page, "phone"), ("table", table, "tv")):
                    page_until(
                        shown, f"document.getElementById('setup-step')?.dataset.step === {wanted}"
                    )
                    outside, past = _read(shown, SIZES[size])
                    found[f"{setup['mode']} {step['key']} {name} outside"] = outside
                    found[f"{setup['mode']} {step['key']} {name} past"] = past
                page.locator("#setup-next").click()
    finally:
        server.stop()
    assert len(found) == 4 * (12 + 10)  # both games' steps, both pages, both readings
    offending = {where: texts for where, texts in found.items() if texts}
    assert offending == {}, json.dumps(offending, ensure_ascii=False, indent=1)
