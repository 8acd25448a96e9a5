"""Issue 21, point 21: in a 4-player Ultimate Cooperation game without Max, a Punishment card
picturing "Emmett & Max" is shown by every page as naming Emmett alone (docs/rules.md,
Punishment). Headless Chromium, the table at 1920x1080 and a phone at 390x844 in contexts of
their own, against a real `room25 serve`; the table draws the card from a physical deck and
the host page names it as printed, to be found in the hand."""

from __future__ import annotations

from serving import Phone

from .test_browser import public, wait_public
from .test_table_life import TV, host_page, phone_page, served, start

__all__ = ["served"]

CAST = {"1": "emmett", "2": "kevin", "3": "franck", "4": "jennifer"}
SETUP = {
    "edition": "ultimate",
    "mode": "cooperation",
    "players": 4,
    "seats": [{"id": seat, "characters": [cid]} for seat, cid in CAST.items()],
    "settings": {"mac": "standard", "mac_deck": "physical"},
}


def test_a_punishment_card_names_only_the_characters_in_the_game(served, browser):
    start(served, SETUP)
    table = browser.new_context(**TV).new_page()
    table.goto(served.url + "/table")
    phone = phone_page(served, browser, "1")
    others = {seat: Phone(served.url) for seat in "234"}
    for seat, other in others.items():
        assert other.post("/api/join", {"seat": seat})[0] == 200
    for other in [*others.values()]:
        _, mine = other.get("/api/view")
        assert other.post("/api/commands", {"command": mine["legal"][0]})[0] == 200
    phone.locator("#task").get_by_role("button", name="C2").click()
    wait_public(served, table, lambda v: (v["waiting"].get("seats") or []) == ["host"], "card")
    # The host finds the card drawn from the physical pile by its print, Max and all.
    host = host_page(served, browser)
    printed = host.locator("#host-task").get_by_role("button", name="Punishment: Emmett & Max")
    printed.click()
    wait_public(served, table, lambda v: v["view"]["mac"]["current"] is not None, "the card")
    assert public(served)["view"]["mac"]["current"] == "punish-emmett-max"
    flash = table.locator("#flash")
    flash.get_by_text("Punishment: Emmett", exact=True).wait_for()
    assert "Max" not in flash.inner_text()
    table.locator("#log li", has_text="Punishment: Emmett").first.wait_for()
    # Emmett's phone: asked which token he loses; nowhere a word of Max.
    phone.locator("#task").get_by_role("button", name="Control").wait_for()
    for page in (table, phone):
        assert "Max" not in page.locator("body").inner_text()
