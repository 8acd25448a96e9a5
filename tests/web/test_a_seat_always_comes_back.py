"""Issue 28, point 1: a phone lost mid-game never stalls the table. Seat 1's phone is closed at
the programming; a new phone asks for the seat and gets it each of the three ways a table has:
the seat button held 3 s on the virtual panel (a hold, as on the hardware, not a short press),
the host page's *Give* (one tap, confirmed), or the host page's *Free this seat* followed by the
new phone's tap. The new phone then programs and locks in on its page, and the game is played
to its end, seat 1 by the new phone (its browser context's own requests, its own cookie)."""

from __future__ import annotations

import random

import pytest
from serving import Phone, host_of

from .test_browser import PHONE, public, wait_public
from .test_table_life import LOOK, host_page, others_locked_in, phone_page, served, start

__all__ = ["served"]


class BrowserPhone:
    """A page's browser context sending API requests with the page's own cookies."""

    def __init__(self, url: str, page) -> None:
        self.url, self.request = url, page.context.request

    def get(self, path: str) -> tuple[int, dict]:
        answer = self.request.get(self.url + path)
        return answer.status, answer.json()

    def post(self, path: str, body: object) -> tuple[int, dict]:
        answer = self.request.post(self.url + path, data=body, headers={"X-Room25": "1"})
        return answer.status, answer.json()


def play_to_the_end(server, seats: dict, host: Phone, seed: int = 1, until=None) -> dict:
    """Random legal commands of whoever the game waits for, each through that seat's own phone
    (the host's for the table's own), until the game is over (or `until(public view)` holds)."""
    rng = random.Random(seed)
    for _ in range(2000):
        shown = public(server)
        waiting = shown["waiting"]
        if waiting["phase"] == "over" or (until is not None and until(shown)):
            return shown
        for seat in waiting["seats"]:
            client = host if seat == "host" else seats[seat]
            _, mine = client.get("/api/view?as=host" if seat == "host" else "/api/view")
            legal = [c for c in mine.get("legal") or () if c["type"] != "unlock"]
            if legal:
                status, body = client.post("/api/commands", {"command": rng.choice(legal)})
                assert status == 200, body
                break
        else:
            raise AssertionError(f"nobody can move: {waiting}")
    raise AssertionError("the game did not end in 2000 commands")


def _new_phone_asks(server, browser):
    """A new phone opens the join page and taps the taken seat 1: the code it shows."""
    page = browser.new_context(**PHONE).new_page()
    page.goto(server.url + "/")
    page.get_by_role("button", name="Seat 1, taken").click()
    code = page.locator("#join-ask .ask-code").inner_text().split()[-1]
    assert code.isdigit() and len(code) == 2
    return page, code


def _hold_on_the_panel(server, browser, phone, code: str) -> None:
    panel = browser.new_context().new_page()
    panel.goto(server.url + "/panel")
    button = panel.locator(".seat[data-seat='1']")
    button.wait_for()  # shown: seat 1 is a seat of the game
    assert panel.locator(".seat:visible").count() == 4  # and only the game's four seats
    box = button.bounding_box()
    panel.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    panel.mouse.down()
    phone.locator("#title", has_text="Seat 1").wait_for()  # given while the button is down
    panel.mouse.up()
    panel.context.close()


def _host_gives(server, browser, phone, code: str) -> None:
    host = host_page(server, browser)
    asked: list[str] = []
    host.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    host.get_by_role("button", name=f"Give seat 1 to the phone showing {code}").click()
    phone.locator("#title", has_text="Seat 1").wait_for()
    assert asked == [
        f"Give seat 1 to the phone showing the code {code}? The phone on it now loses the seat."
    ]
    host.context.close()


def _host_frees(server, browser, phone, code: str) -> None:
    host = host_page(server, browser)
    host.on("dialog", lambda dialog: dialog.accept())
    row = host.locator("#host-seats > div", has_text="Seat 1")
    row.get_by_role("button", name="Free this seat").click()
    host.get_by_text("Seat 1 is free for another phone.").wait_for()
    host.context.close()
    phone.get_by_role("button", name="Seat 1", exact=True).click()  # free: the tap takes it
    phone.locator("#title", has_text="Seat 1").wait_for()


@pytest.mark.parametrize("way", [_hold_on_the_panel, _host_gives, _host_frees])
def test_a_lost_phone_is_replaced_and_the_game_plays_to_its_end(served, browser, way):
    start(served)
    lost = phone_page(served, browser, "1")
    others = others_locked_in(served)
    lost.locator("#task").get_by_role("button", name="C2").click()
    wait_public(served, lost, lambda v: v["waiting"]["phase"] == "programming", "programming")
    lost.context.close()  # the phone is gone: battery, a dropped phone

    phone, code = _new_phone_asks(served, browser)
    way(served, browser, phone, code)

    task = phone.locator("#task")
    task.get_by_role("group", name="Action 1").get_by_role("button", name=LOOK).click()
    task.get_by_role("group", name="Action 2").get_by_role(
        "button", name="None (single action)"
    ).click()
    task.get_by_role("button", name="Lock in").click()
    wait_public(served, phone, lambda v: "1" in v["waiting"]["locked_in"], "seat 1 locked in")
    seats = {**others, "1": BrowserPhone(served.url, phone)}
    over = play_to_the_end(served, seats, host_of(served))
    assert over["view"]["outcome"] is not None
    phone.locator("#reveal .roles li").nth(3).wait_for()  # the new phone sees the game's end
