"""Issue 21, point 18: a phone offers only the programmes the engine would accept for its seat
(from the seat's legal commands): never the same action twice, one action only in the Cold
chamber, and Kevin's talent asks its ability on the page before Lock in takes it. Headless
Chromium at a phone's size, one context per phone, against a real `room25 serve`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from serving import Phone, Serve, host_of

from .test_browser import PHONE

# Base game, four seats; the complex rigged so that the Cold chamber is C2, north of the
# Central room (the layout of tests/scenarios/base/turn/programming_cold_chamber_one_action.yaml
# with its Twin rooms and Cold chamber swapped).
COLD_COMPLEX = """
empty  dark    mortal  twin    vortex
empty  empty   cold    empty   room25
dark   flooded central trapped empty
cold   prison  acid    vision  empty
vortex prison  twin    acid    control
"""
COLD_COMPLEX_ROWS = [row.split() for row in COLD_COMPLEX.strip().splitlines()]
COLD_SETUP = {"edition": "base", "mode": "suspicion", "players": 4, "tracking": "dealt",
              "seed": 3, "rigged": True, "complex": COLD_COMPLEX_ROWS}  # fmt: skip
CAST = ["kevin", "emmett", "franck", "max"]
# Ultimate, Kevin at seat 1: he names his ability as he programs his talent (000, KEVIN).
KEVIN_SETUP = {
    "edition": "ultimate",
    "mode": "suspicion",
    "tracking": "dealt",
    "seats": [{"id": str(n), "characters": [cid]} for n, cid in enumerate(CAST, start=1)],
}


@pytest.fixture
def served(tmp_path) -> Iterator[Serve]:
    running = Serve(tmp_path / "data").wait_ready()
    yield running
    running.stop()


def seated(server: Serve, setup: dict) -> dict[str, Phone]:
    """Four seats taken by API, the game started and every starting clue taken."""
    phones = {seat: Phone(server.url) for seat in "1234"}
    for seat, phone in phones.items():
        assert phone.post("/api/join", {"seat": seat})[0] == 200
    status, body = host_of(server).post("/api/host/games", {"setup": setup})
    assert status == 200, body
    for phone in phones.values():
        clue = next(c for c in phone.get("/api/view")[1]["legal"] if c["type"] == "clue")
        assert phone.post("/api/commands", {"command": clue})[0] == 200
    return phones


def legal(phone: Phone) -> list[dict]:
    return phone.get("/api/view")[1]["legal"]


def play_turn_one_into_the_cold(phones: dict[str, Phone]) -> None:
    """Seat 1 programs a move and moves north into the Cold chamber (C2); the others look."""
    for seat, phone in phones.items():
        wanted = ["move"] if seat == "1" else ["look"]
        programmes = [c for c in legal(phone) if c["type"] == "program"]
        programme = next(c for c in programmes if c.get("actions") == wanted)
        assert phone.post("/api/commands", {"command": programme})[0] == 200
    for _ in range(20):
        moved = False
        for seat, phone in phones.items():
            acts = [c for c in legal(phone) if c["type"] in ("act", "choose", "wait", "pass")]
            if not acts:
                continue
            north = [c for c in acts if c.get("direction") == "north" or c.get("cell") == "C2"]
            command = north[0] if seat == "1" and north else acts[0]
            status, body = phone.post("/api/commands", {"command": command})
            assert status == 200, body
            moved = True
        if not moved:
            break
    view = phones["1"].get("/api/view")[1]
    assert view["waiting"]["phase"] == "programming" and view["view"]["turn"] == 2


def programming_page(phone: Phone, browser):
    page = phone.in_browser(browser, locale="en-GB", **PHONE)
    task = page.locator("#task")
    task.get_by_role("button", name="Lock in").wait_for()
    return page, task


def test_in_the_cold_chamber_the_phone_offers_one_action_only(served, browser):
    phones = seated(served, COLD_SETUP)
    play_turn_one_into_the_cold(phones)
    page, task = programming_page(phones["1"], browser)
    first = task.get_by_role("group", name="Action 1")
    first.get_by_role("button", name="Look").wait_for()
    # No second action is offered, before or after the first is chosen, and the page says why.
    assert task.get_by_role("group", name="Action 2").count() == 0
    first.get_by_role("button", name="Look").click()
    task.get_by_text("Only one action this turn (Cold chamber).").wait_for()
    assert task.get_by_role("group", name="Action 2").count() == 0
    task.get_by_role("button", name="Lock in").click()
    task.get_by_role("button", name="Unlock").wait_for(timeout=15000)
    mine = phones["1"].get("/api/view")[1]["view"]["characters"]
    assert [c["program"] for c in mine.values() if c["seat"] == "1"] == [["look"]]
    assert page.locator("#status.bad").count() == 0


def test_the_phone_asks_kevins_ability_and_lock_in_takes_it(served, browser):
    phones = seated(served, KEVIN_SETUP)
    page, task = programming_page(phones["1"], browser)
    first = task.get_by_role("group", name="Action 1")
    first.get_by_role("button", name="Talent").click()
    second = task.get_by_role("group", name="Action 2")
    second.get_by_role("button", name="Look").wait_for()
    # Never the same action twice: the second row offers neither the talent again.
    assert second.get_by_role("button", name="Talent").count() == 0
    ability = task.get_by_role("group", name="Kevin's talent")
    ability.get_by_role("button", name="Hack a robot").wait_for()
    # Lock in before the ability is chosen: refused on the page, in a player's words.
    task.get_by_role("button", name="Lock in").click()
    refusal = page.locator("#status.bad")
    refusal.wait_for()
    assert refusal.inner_text() == "Choose what Kevin's talent does before locking in."
    ability.get_by_role("button", name="Hack the complex").click()
    second.get_by_role("button", name="Move").click()
    task.get_by_role("button", name="Lock in").click()
    task.get_by_role("button", name="Unlock").wait_for(timeout=15000)
    kevin = phones["1"].get("/api/view")[1]["view"]["characters"]["kevin"]
    assert kevin["program"] == ["talent", "move"] and kevin["talent_choice"] == "hack_complex"
