"""Issue 28, point 5: the table page at its real size, in headless Chromium at 1920x1080 against
a real `room25 serve`: the board as tall as the screen, its room names and pawns at 28 px or
more, the log beside it; the log's numbers past 99 inside the card; a game that is over says so
in the summary (no turns left, no alarm)."""

from __future__ import annotations

from .test_browser import PHONE, shot
from .test_table_life import TV, served, start

__all__ = ["served"]

EIGHT = {"edition": "ultimate", "mode": "suspicion", "players": 8}


def _table(served, browser):
    table = browser.new_context(**TV).new_page()
    table.goto(served.url + "/table")
    table.locator("#board .cell .who", has_text="Emm").wait_for()
    return table


def test_the_board_fills_the_tv_with_the_log_beside_it(served, browser) -> None:
    start(served, EIGHT)
    table = _table(served, browser)
    shot(table, "table-tv-1080p")
    board = table.locator("#board").bounding_box()
    log = table.locator("#log").bounding_box()
    top = table.locator("main").bounding_box()["y"]
    assert board["y"] + board["height"] <= 1080 + 0.5, board
    assert board["height"] >= 0.95 * (1080 - top) - 30, (board, top)  # as tall as the screen
    assert log["x"] >= board["x"] + board["width"], "the log is beside the board"
    assert log["height"] >= 300, log
    sizes = table.evaluate(
        """() => [...document.querySelectorAll("#board .cell .room, #board .cell .who")]
            .map((n) => parseFloat(getComputedStyle(n).fontSize))"""
    )
    assert min(sizes) >= 28, sizes
    # Eight pawns in the Central room, every one inside its cell.
    pawns = table.locator("#board .cell .who", has_text="Emm")
    cell = table.locator("#board .cell", has=table.locator(".who", has_text="Emm"))
    cell = cell.bounding_box()
    box = pawns.bounding_box()
    assert box["y"] + box["height"] <= cell["y"] + cell["height"] + 0.5, (box, cell)
    assert table.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")


def test_the_log_numbers_past_99_fit_the_card(served, browser) -> None:
    start(served, EIGHT)
    table = _table(served, browser)
    fits = table.evaluate(
        """() => {
            const log = document.getElementById("log");
            for (let i = 0; i < 150; i++) log.append(Object.assign(document.createElement("li"),
                { textContent: "A new turn begins." }));
            const style = getComputedStyle(log.firstElementChild);
            const ink = document.createElement("canvas").getContext("2d");
            ink.font = style.fontWeight + " " + style.fontSize + " " + style.fontFamily;
            return [parseFloat(getComputedStyle(log).paddingLeft), ink.measureText("154. ").width];
        }"""
    )
    padding, marker = fits
    assert padding >= marker, fits


def test_a_game_over_summary_says_the_game_is_over(served, browser) -> None:
    start(served)
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(served.url + "/table")
    phone.locator("#summary .phase-line").wait_for()
    said = phone.evaluate(
        """() => { const box = document.body.appendChild(document.createElement("div"));
            R25.summary({ game: "g", version: 9, view: { turns_left: 1, turn: 10, alarm: true,
                last_turn: true, order: [], characters: {} }, waiting: { phase: "over" },
                session: {} }, box);
            return [box.innerText, box.querySelectorAll(".alarm").length]; }"""
    )
    text, alarms = said
    assert "Game over" in text and alarms == 0, said
    assert "turn left" not in text and "last turn" not in text, text


def test_the_log_names_the_line_that_slid_and_its_direction(served, browser) -> None:
    """The rigged game of tests/web/test_table_life.py: every seat programs Move then Control;
    moving east, Emmett then slides column D north."""
    from serving import Phone

    start(served)
    seats = {seat: Phone(served.url) for seat in "1234"}
    for seat, phone in seats.items():
        assert phone.post("/api/join", {"seat": seat})[0] == 200
    for phone in seats.values():
        _, mine = phone.get("/api/view")
        assert phone.post("/api/commands", {"command": mine["legal"][0]})[0] == 200
    for seat, phone in seats.items():
        _, mine = phone.get("/api/view")
        cid = next(c for c, v in mine["view"]["characters"].items() if v["seat"] == seat)
        actions = ["move", "control"]
        program = {"type": "program", "character": cid, "actions": actions, "lock_in": True}
        assert phone.post("/api/commands", {"command": program})[0] == 200, seat
    for _ in range(8):
        _, view = seats["1"].get("/api/view")
        _, mine = seats[view["waiting"]["seats"][0]].get("/api/view")
        acts = [c for c in mine["legal"] if c["type"] == "act"]
        east = [c for c in acts if c.get("direction") == "east"] or acts
        phone = seats[view["waiting"]["seats"][0]]
        assert phone.post("/api/commands", {"command": east[0]})[0] == 200
        if east[0]["action"] == "control":
            break
    table = browser.new_context(**TV).new_page()
    table.goto(served.url + "/table")
    said = table.locator("#log li", has_text="A line slides")
    said.wait_for()
    assert said.inner_text() == "A line slides: column D, north."
