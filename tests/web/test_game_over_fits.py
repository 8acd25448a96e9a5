"""Issue 21, point 22: at game over the table page fits a 1080p screen: the whole reveal, its
board's bottom row included, inside the viewport (bounding boxes). Headless Chromium at
1920x1080 against a real `room25 serve`; a rigged Ultimate Cooperation game of six seats ends
at its first move, into a Mortal room."""

from __future__ import annotations

import pytest
from serving import Phone, host_of

from .test_browser import shot, wait_public
from .test_table_life import TV, served, start

__all__ = ["served"]

# The complex of tests/engine/test_trust.py's Shredder game, a Mortal room north of the centre.
MORTAL_NORTH = [
    ["empty", "dark", "empty", "cold", "room25"],
    ["empty", "prison", "mortal", "vortex", "empty"],
    ["dark", "empty", "central", "vision", "empty"],
    ["cold", "trapped", "flooded", "shredder", "empty"],
    ["vortex", "prison", "tunnel", "tunnel", "acid"],
]
SETUP = {"edition": "ultimate", "mode": "cooperation", "players": 6, "seed": 4, "rigged": True,
         "complex": MORTAL_NORTH, "settings": {"mac": "off"}, "first": "1"}  # fmt: skip


def _play(phone: Phone, pick) -> None:
    _, mine = phone.get("/api/view")
    (command, *_) = [c for c in mine["legal"] if pick(c)]
    status, body = phone.post("/api/commands", {"command": command})
    assert status == 200, (command, body)


def _to_game_over(served) -> None:
    """Every seat takes its clue; seat 1 moves north into the Mortal room, the others look: in
    Cooperation one death loses the game."""
    seats = {seat: Phone(served.url) for seat in "123456"}
    for seat, phone in seats.items():
        assert phone.post("/api/join", {"seat": seat})[0] == 200
    for phone in seats.values():
        _play(phone, lambda c: True)
    for seat, phone in seats.items():
        _, mine = phone.get("/api/view")
        cid = next(c for c, v in mine["view"]["characters"].items() if v["seat"] == seat)
        action = "move" if seat == "1" else "look"
        program = {"type": "program", "character": cid, "actions": [action], "lock_in": True}
        assert phone.post("/api/commands", {"command": program})[0] == 200, seat
    _play(seats["1"], lambda c: c.get("cell") == "C2" or c.get("direction") == "north")


SUSPICION = {"edition": "ultimate", "mode": "suspicion", "players": 8, "seed": 4, "rigged": True}


@pytest.mark.parametrize("ending", ["death", "host"])
def test_the_reveal_fits_a_1080p_screen_at_game_over(served, browser, ending):
    """Six seats whose game ends at a death; eight seats (the longest list of roles) whose
    game the host ends."""
    start(served, SETUP if ending == "death" else SUSPICION)
    table = browser.new_context(**TV).new_page()
    table.goto(served.url + "/table")
    table.locator("#board .cell").first.wait_for()
    if ending == "death":
        _to_game_over(served)
        wait_public(served, table, lambda v: v["waiting"]["phase"] == "over", "the game over")
    else:  # every seat takes its clue (a line of the log each), then the host ends the game
        seats = [Phone(served.url) for _ in range(8)]
        for seat, phone in enumerate(seats, 1):
            assert phone.post("/api/join", {"seat": str(seat)})[0] == 200
        for phone in seats:
            _play(phone, lambda c: True)
        assert host_of(served).post("/api/host/end")[0] == 200
    reveal = table.locator("#reveal")
    reveal.locator(".roles li").nth(5 if ending == "death" else 7).wait_for()
    reveal.locator(".board .cell").nth(24).wait_for()
    shot(table, f"table-game-over-1080p-{ending}")
    outside = table.evaluate(
        """() => [...document.querySelectorAll("#reveal, #reveal > *, #reveal .board .cell")]
            .map((n) => [n.className || n.tagName, n.getBoundingClientRect()])
            .filter(([, r]) => r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5
                                || r.bottom > innerHeight + 0.5)
            .map(([name, r]) => name + " " + Math.round(r.top) + ".." + Math.round(r.bottom))"""
    )
    assert outside == [], outside
    assert table.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
