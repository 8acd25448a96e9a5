"""A turn with the physical tiles in headless Chromium: the phone offers each Look as one move and,
once tapped, asks which room the tile turned out to be among those the box can still hold (issue
11, point 2: "the room a hidden tile turned out to be, chosen among those still possible").
The other seats play through the API; the acting seat's phone is a real browser page."""

from __future__ import annotations

import time

from serving import Phone, Serve, host_of

from companion.words.pages import names

# A rigged game (its seed chosen): the web takes a seed only for one (docs/web.md).
SETUP = {
    "edition": "base",
    "mode": "cooperation",
    "players": 4,
    "tracking": "physical",
    "seed": 4,
    "rigged": True,
}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "has_touch": True}


def play_until_a_look_needs_a_room(phones: dict[str, Phone]) -> tuple[str, dict]:
    """Clues, then programmes that start with a Look, until a seat's turn offers a Look at a
    hidden tile (one command per room it may be). Returns that seat and its snapshot."""
    for _ in range(40):
        _, snapshot = phones["1"].get("/api/view")
        waiting = snapshot["waiting"]
        for seat in waiting["seats"]:
            _, mine = phones[seat].get("/api/view")
            offered = mine["legal"]
            if waiting["phase"] == "action" and any("room" in c for c in offered):
                return seat, mine
            if waiting["phase"] == "programming":
                offered = [c for c in offered if c.get("actions", [None])[0] == "look"] or offered
            if waiting["phase"] == "clue":
                # Not the tile the first Look goes to: a seat's own report binds its later ones,
                # and that Look would offer only the room it reported.
                offered = offered[::-1]
            if offered:
                status, body = phones[seat].post(
                    "/api/commands", {"command": {**offered[0], "version": mine["version"]}}
                )
                assert status == 200, body
                break
    raise AssertionError(f"no Look at a hidden tile came: {waiting}")


def test_a_look_at_a_physical_tile_asks_which_room_it_turned_out_to_be(tmp_path, browser) -> None:
    server = Serve(tmp_path / "data").wait_ready()
    try:
        host = host_of(server)
        status, body = host.post("/api/host/games", {"setup": SETUP})
        assert status == 200, body
        phones = {seat: Phone(server.url) for seat in "1234"}
        for seat, phone in phones.items():
            assert phone.post("/api/join", {"seat": seat})[0] == 200
        seat, snapshot = play_until_a_look_needs_a_room(phones)
        looks = [c for c in snapshot["legal"] if c["type"] == "act" and "room" in c]
        first = {k: v for k, v in looks[0].items() if k != "room"}
        rooms = {c["room"] for c in looks if {k: v for k, v in c.items() if k != "room"} == first}
        assert len(rooms) > 1  # the engine cannot know the tile: the phone must ask

        page = phones[seat].in_browser(browser, locale="en-GB", **PHONE)
        task = page.locator("#task")
        moves = task.get_by_role("group", name="Look").get_by_role("button")
        moves.first.wait_for()
        assert moves.count() < len(looks)  # one button a move, not one per possible room
        moves.first.click()
        picker = task.get_by_role("group", name="Turn the tile over: which room is it?")
        picker.wait_for()
        offered = picker.get_by_role("button").all_inner_texts()
        assert "Back" in offered and len(offered) >= 3
        chosen = offered[0]
        picker.get_by_role("button", name=chosen, exact=True).click()

        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            _, after = phones[seat].get("/api/view")
            if after["version"] > snapshot["version"]:
                break
            time.sleep(0.1)
        assert after["version"] > snapshot["version"], "the Look was not played"
        page.context.close()
        rooms_in_english = names("en")["rooms"]
        noted = {rooms_in_english[kind] for kind in after["view"]["notebook"].values()}
        assert chosen in noted  # the room tapped is what the seat's notebook says it saw
        _, public = Phone(server.url).get("/api/view?as=table")
        assert public["version"] == after["version"]
        assert "notebook" not in public["view"]
    finally:
        server.stop()
