"""Issue 32 in Chromium: the host turns "Teach us" on from the host page, the first programming's
lesson card reaches a phone (390x844) and the table (1920x1080) without covering the phone's
programming or pushing the board off the TV, "Got it" closes it, the seat to act sees the preview
beside each move, and the host has the lesson taught again from the host page. A real
`room25 serve`, one browser context a screen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from serving import Phone, Serve, host_of
from waiting import eventually

from .test_browser import PHONE

SETUP = {"edition": "base", "mode": "suspicion", "players": 4, "tracking": "dealt"}
TV = {"viewport": {"width": 1920, "height": 1080}}
SHOTS = "/tmp/teachpages-"


@pytest.fixture
def served(tmp_path) -> Iterator[Serve]:
    running = Serve(tmp_path / "data").wait_ready()
    yield running
    running.stop()


def _apart(a: dict, b: dict) -> bool:
    """Two boxes on the page that do not overlap."""
    return (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def _legal(phone: Phone) -> list[dict]:
    return phone.get("/api/view")[1]["legal"]


def test_a_taught_first_game_from_the_host_page_to_a_lesson_taught_again(served, browser):
    phones = {seat: Phone(served.url) for seat in "1234"}
    for seat, phone in phones.items():
        assert phone.post("/api/join", {"seat": seat})[0] == 200
    host = host_of(served)
    host_page = host.in_browser(browser, **PHONE)
    host_page.goto(served.url + "/host")
    host_page.locator("#w-teach").check()
    eventually(lambda: host.get("/api/view?as=host")[1]["session"]["teaching"]["on"])
    assert host.post("/api/host/games", {"setup": SETUP})[0] == 200
    for phone in phones.values():
        clue = next(c for c in _legal(phone) if c["type"] == "clue")
        assert phone.post("/api/commands", {"command": clue})[0] == 200

    page = phones["1"].in_browser(browser, locale="en-GB", **PHONE)
    card = page.locator(".banner.lesson[data-lesson=programming]")
    card.wait_for()
    assert "Programming" in card.inner_text()
    lock = page.locator("#task").get_by_role("button", name="Lock in")
    lock.wait_for()
    assert _apart(card.bounding_box(), lock.bounding_box())
    page.screenshot(path=SHOTS + "phone-lesson.png", full_page=True)

    table = browser.new_context(**TV).new_page()
    table.goto(served.url + "/table")
    shown = table.locator(".banner.lesson[data-lesson=programming]")
    shown.wait_for()
    board = table.locator("#board").bounding_box()
    assert board["y"] + board["height"] <= TV["viewport"]["height"]
    table.screenshot(path=SHOTS + "table-lesson.png")

    card.get_by_role("button", name="Got it").click()
    card.wait_for(state="detached")
    host_page.locator("#c-teach").wait_for()
    assert host_page.locator("#c-teach").is_checked()

    for phone in phones.values():
        move = next(
            c for c in _legal(phone) if c["type"] == "program" and c["actions"][:1] == ["move"]
        )
        assert phone.post("/api/commands", {"command": move})[0] == 200
    acting = phones["1"].get("/api/view")[1]["waiting"]["seats"][0]
    mover = page if acting == "1" else phones[acting].in_browser(browser, locale="en-GB", **PHONE)
    moves = mover.locator("#task").get_by_role("group", name="Move")
    moves.locator("small.preview").first.wait_for()
    mover.screenshot(path=SHOTS + "phone-preview.png", full_page=True)

    host_page.locator("#teach-pick").select_option("programming")
    host_page.locator("#teach-again-button").click()
    page.locator(".banner.lesson[data-lesson=programming]").wait_for()
