"""Issue 21, point 20: no notice about a seat the game does not have. A claim on seat 5 kept from
a 5-player game into a 4-player one: its phone going quiet is not "phone of seat 5 offline" on
any screen (the public update the pages, the OLED and the voice read), while seat 4's is.
Headless Chromium phones (390x844), one context each, against a real `room25 serve`."""

from __future__ import annotations

from serving import Phone, host_of

from .test_browser import public, wait_public
from .test_table_life import SETUP, TV, phone_page, served, start

__all__ = ["served"]


def _offline(seat: str):
    return lambda view: any(
        n["code"] == "phone_offline" and n["params"] == {"seat": seat}
        for n in view["session"]["notices"]
    )


def test_a_phone_of_a_seat_not_in_the_game_is_never_said_offline(served, browser):
    start(served, {**SETUP, "players": 5})
    phones = {seat: phone_page(served, browser, seat) for seat in "45"}
    four = {**SETUP, "seat_claims": "keep"}
    assert host_of(served).post("/api/host/games", {"setup": four})[0] == 200
    table = browser.new_context(**TV).new_page()
    table.goto(served.url + "/table")
    for seat, page in phones.items():
        page.reload()
        page.locator("#title", has_text=f"Seat {seat}").wait_for()
        page.wait_for_function("() => !document.getElementById('play').hidden")
    for page in phones.values():
        page.context.close()
    first = Phone(served.url)
    assert first.post("/api/join", {"seat": "1"})[0] == 200
    _, mine = first.get("/api/view")
    assert first.post("/api/commands", {"command": mine["legal"][0]})[0] == 200
    # Both streams ended at the same writes: seat 4's notice comes, seat 5's never.
    wait_public(served, table, _offline("4"), "seat 4 offline", timeout=40)
    assert not _offline("5")(public(served))
    table.locator("#banners", has_text="seat 4").wait_for()
    assert "seat 5" not in table.locator("#banners").inner_text().lower()
