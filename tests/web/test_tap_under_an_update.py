"""A tap is not lost when an update arrives under the finger. The phone drew its task anew on
every update, so an update landing between a finger's down and up replaced the button, and the
browser, which clicks only where both happened on one element, dropped the tap: the steadiness
proof saw a seat tap Lock in at turn 9 and the game wait for it for good. Headless Chromium at a
phone's size against a real `room25 serve`; the finger is held down by Playwright's mouse while
another seat's lock-in reaches the page. The board was drawn anew the same way: a room tapped
for its rule on the TV (or a destination picked on a phone) was lost under an update."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from serving import Phone, Serve

from .test_programming_offers import programming_page, seated

SETUP = {"edition": "base", "mode": "suspicion", "players": 4, "tracking": "dealt"}


@pytest.fixture
def served(tmp_path) -> Iterator[Serve]:
    running = Serve(tmp_path / "data").wait_ready()
    yield running
    running.stop()


def lock_in_by_api(phone: Phone) -> None:
    programme = next(
        c for c in phone.get("/api/view")[1]["legal"] if c["type"] == "program" and c.get("actions")
    )
    assert phone.post("/api/commands", {"command": programme})[0] == 200


def press_while_an_update_arrives(page, button, update, shown: str) -> None:
    """Finger down on `button`, `update` made elsewhere and drawn on the page, finger up."""
    box = button.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    update()
    page.locator("#summary", has_text=shown).wait_for()
    page.mouse.up()


def test_a_lock_in_tap_survives_another_seats_lock_in_under_the_finger(served, browser):
    phones = seated(served, SETUP)
    page, task = programming_page(phones["1"], browser)
    task.get_by_role("group", name="Action 1").get_by_role("button", name="Look").click()
    second = task.get_by_role("group", name="Action 2")
    second.get_by_role("button", name="None (single action)").click()
    task.locator("button[aria-pressed=true]", has_text="None").wait_for()
    lock = task.get_by_role("button", name="Lock in")
    press_while_an_update_arrives(
        page, lock, lambda: lock_in_by_api(phones["2"]), "Waiting for seats: 1, 3, 4"
    )
    task.get_by_role("button", name="Unlock").wait_for()
    assert "1" in phones["3"].get("/api/view")[1]["waiting"]["locked_in"]


def test_a_programming_tap_survives_an_update_under_the_finger(served, browser):
    phones = seated(served, SETUP)
    page, task = programming_page(phones["1"], browser)
    look = task.get_by_role("group", name="Action 1").get_by_role("button", name="Look")
    press_while_an_update_arrives(
        page, look, lambda: lock_in_by_api(phones["2"]), "Waiting for seats: 1, 3, 4"
    )
    task.locator("button[aria-pressed=true]", has_text="Look").wait_for()


def test_a_room_tapped_for_its_rule_on_the_table_survives_an_update_under_the_finger(
    served, browser
):
    """Rules at a tap on the TV's board: the Central room held while a seat locks in."""
    phones = seated(served, SETUP)
    table = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    table.goto(served.url + "/table")
    central = table.locator("#board .cell[data-cell=C3] [data-rule]")
    central.wait_for()
    press_while_an_update_arrives(
        table, central, lambda: lock_in_by_api(phones["2"]), "Waiting for seats: 1, 3, 4"
    )
    table.locator("#rule-dialog").wait_for(state="visible")
    assert table.locator("#rule-dialog").inner_text().startswith("Central room")
