"""Issue 32, point 1 in headless Chromium: with teaching on, the host page walks the table
through a new game's physical set-up, Next clicked through every step, and the table page
shows each step as the host page moves to it; after the last step both show it no more."""

from __future__ import annotations

import json

from serving import Serve, host_of
from waiting import page_until

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
        table = browser.new_context().new_page()
        table.goto(server.url + "/table")
        for at, step in enumerate(steps):
            wanted = json.dumps(step["id"])
            for shown in (page, table):
                page_until(
                    shown, f"document.getElementById('setup-step')?.dataset.step === {wanted}"
                )
                count = shown.locator(".setup-count").inner_text()
                assert count == f"Step {at + 1} of {len(steps)}"
                assert "setup_" not in shown.locator("#setup-step").inner_text()
            assert table.locator("#setup-next").count() == 0  # Next is the host's
            if step["id"] == "compose":
                assert table.locator(".setup-tiles li").count() > 1
            page.locator("#setup-next").click()
        for shown in (page, table):
            page_until(shown, "document.getElementById('setup-walk')?.hidden === true")
        _, after = host.get("/api/view?as=table")
        assert "setup" not in after["session"] and after["waiting"]["phase"] == "clue"
    finally:
        server.stop()
