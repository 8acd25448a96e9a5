"""Issue 32, point 1 in headless Chromium: with teaching on, the host page walks the table
through a new game's physical set-up, Next clicked through every step, and the table page
shows each step as the host page moves to it; after the last step both show it no more. Each
page (the host's in English, the table's in French) says every step in the words the OLED and
the voice say it (teaching/setup.py `step_text`): the rooms set aside as one list joined by
the language's "and"."""

from __future__ import annotations

import json

from serving import Serve, host_of
from waiting import page_until

from companion import words
from companion.teaching.setup import step_text

# Season 2 Cooperation: the M.A.C. deck's step is among them (002, LES CARTES M.A.C.).
SETUP = {"edition": "season2", "mode": "cooperation", "players": 4}


def test_the_host_clicks_next_through_every_step_and_the_table_shows_each(
    tmp_path, browser
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "taught.json").write_text(json.dumps({"on": True, "taught": []}), "utf-8")
    server = Serve(data).wait_ready()
    try:
        host = host_of(server)
        status, body = host.post("/api/host/games", {"setup": SETUP})
        assert status == 200, body
        _, table_view = host.get("/api/view?as=table")
        steps = table_view["session"]["setup"]["steps"]
        assert "mac_virtual" in [step["id"] for step in steps]
        page = host.in_browser(browser)
        page.goto(server.url + "/host")
        table = browser.new_context(locale="fr-FR").new_page()
        table.goto(server.url + "/table")
        for at, step in enumerate(steps):
            wanted = json.dumps(step["id"])
            for shown, lang in ((page, "en"), (table, "fr")):
                page_until(
                    shown, f"document.getElementById('setup-step')?.dataset.step === {wanted}"
                )
                count = shown.locator(".setup-count").inner_text()
                assert count == words.text(lang, "setup_step", n=at + 1, count=len(steps))
                # As the OLED and the voice say it, set as the page sets a language's signs.
                said = shown.evaluate("(s) => R25.typography(s)", step_text(step, lang))
                assert shown.locator("#setup-step").inner_text() == said
            assert table.locator("#setup-next").count() == 0  # Next is the host's
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
        for shown in (page, table):
            page_until(shown, "document.getElementById('setup-walk')?.hidden === true")
        _, after = host.get("/api/view?as=table")
        assert "setup" not in after["session"] and after["waiting"]["phase"] == "clue"
    finally:
        server.stop()
