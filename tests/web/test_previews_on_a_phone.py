"""Issue 32, point 3 on the page: while the table is taught, a phone shows beside each of its
seat's look, move, push and control choices what it would do, in the phone's language, from the
previews the server put in that seat's own update. Headless Chromium at a phone's size against
a real `room25 serve` whose evening has teaching on (its `taught.json`, as the host's switch
leaves it)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from serving import Phone, Serve

from companion.teaching.preview import Preview, preview_text

from .test_browser import PHONE
from .test_programming_offers import seated

SETUP = {"edition": "base", "mode": "suspicion", "players": 4, "tracking": "dealt"}


@pytest.fixture
def taught(tmp_path) -> Iterator[Serve]:
    data = tmp_path / "data"
    data.mkdir()
    (data / "taught.json").write_text(json.dumps({"on": True, "taught": []}), "utf-8")
    running = Serve(data).wait_ready()
    yield running
    running.stop()


def _program_a_move(phone: Phone) -> None:
    legal = phone.get("/api/view")[1]["legal"]
    move = next(c for c in legal if c["type"] == "program" and c["actions"][:1] == ["move"])
    assert phone.post("/api/commands", {"command": move})[0] == 200


def test_a_taught_phone_shows_each_move_with_its_preview(taught, browser, tmp_path):
    phones = seated(taught, SETUP)
    for phone in phones.values():
        _program_a_move(phone)
    waiting = phones["1"].get("/api/view")[1]["waiting"]
    assert waiting["phase"] == "action"
    mine = phones[waiting["seats"][0]]
    previews = mine.get("/api/view")[1]["previews"]
    assert previews
    others = [p for s, p in phones.items() if s not in waiting["seats"]]
    assert all(not p.get("/api/view")[1].get("previews") for p in others)
    page = mine.in_browser(browser, locale="en-GB", **PHONE)
    moves = page.locator("#task").get_by_role("group", name="Move")
    moves.locator("small.preview").first.wait_for()
    shown = moves.locator("small.preview").all_inner_texts()
    said = [preview_text(Preview(p["key"], p["params"]), "en") for p in previews]
    assert shown and set(shown) <= set(said)
    page.screenshot(path=str(tmp_path / "previews.png"), full_page=True)
    page.screenshot(path="/tmp/teachpages-previews.png", full_page=True)
