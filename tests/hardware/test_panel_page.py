"""The virtual panel as a newcomer meets it: `room25 serve` started as a real process on a
machine without a Pi (free port on 127.0.0.1, stopped by its pid), then `/panel` over HTTP and in
headless Chromium (Debian's, through Playwright): the OLED picture, a seat button locking a seat
in and its LED lighting, the buzzer pattern reaching the page, and Back held to undo."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from serving import PIN, Phone, Serve
from waiting import eventually, page_until

from companion.hardware.screens import frame

from .conftest import TOKENS_GAME

SETUP = {**TOKENS_GAME, "seed": 5, "rigged": True}  # a seed only in a rigged game


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """`room25 serve` with no --hardware: on a machine that is not a Pi, the virtual panel."""
    running = Serve(tmp_path_factory.mktemp("panel"), hardware=None).wait_ready()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def visitor(table: Serve) -> Phone:
    """One browser with its own cookies: anybody at first, the host once `_new_game` logs in."""
    return Phone(table.url)


def test_the_virtual_panel_is_what_serve_starts_without_a_pi(table: Serve, visitor: Phone) -> None:
    assert "hardware virtual" in table.stderr
    status, page, kind = visitor.fetch("/panel")
    assert status == 200 and kind.startswith("text/html")
    assert b'data-seat="8"' in page and b'data-control="menu"' in page
    status, png, kind = visitor.fetch("/panel/oled.png")
    assert kind == "image/png"
    picture = Image.open(io.BytesIO(png))
    assert picture.size == (512, 256)
    status, patterns, _ = visitor.fetch("/panel/patterns.json")
    assert set(json.loads(patterns)) >= {"lock_in", "alarm", "victory", "defeat"}


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Serve]:
    """A virtual panel of its own, for a test that needs a companion nobody else touched (the
    module's is shared by tests that run in any order: one starts a game, one shows the PIN)."""
    running = Serve(tmp_path / "data", hardware=None).wait_ready()
    yield running
    running.stop()


def test_presses_are_refused_in_words_and_guarded(fresh: Serve) -> None:
    visitor = Phone(fresh.url)
    status, reply = visitor.post("/panel/seats/1/press", {}, csrf=False)
    assert status == 403
    status, reply = visitor.post("/panel/seats/9/press", {})
    assert status == 404
    assert visitor.get("/api/view")[1]["game"] is None
    status, reply = visitor.post("/panel/seats/1/press", {})
    assert status == 409 and reply["code"] == "no_game" and reply["text"]


def _new_game(table: Serve, visitor: Phone) -> None:
    assert visitor.post("/api/host/login", {"pin": PIN})[0] == 200
    status, reply = visitor.post("/api/host/games", {"setup": SETUP})
    assert status == 200, reply
    phones = {seat: Phone(table.url) for seat in "12345"}
    for seat, phone in phones.items():  # every seat taken before play (then a seat is asked for)
        assert phone.post("/api/join", {"seat": seat})[0] == 200
    for seat, phone in phones.items():
        clues = ({"command": {"type": "clue", "seat": seat, "cell": c}} for c in ("C2", "C4", "B3"))
        assert any(phone.post("/api/commands", clue)[0] == 200 for clue in clues)


def _notices(visitor: Phone) -> list[dict]:
    return visitor.get("/api/view")[1].get("session", {}).get("notices", [])


def test_in_chromium_a_seat_button_locks_in_and_its_led_lights(fresh: Serve, browser) -> None:
    table, visitor = fresh, Phone(fresh.url)
    _new_game(table, visitor)
    page = browser.new_page()
    page.add_init_script(
        "window.__played = [];"
        "const Real = window.AudioContext;"
        "window.AudioContext = class extends Real {"
        "  createOscillator() { window.__played.push(1); return super.createOscillator(); } };"
    )
    page.goto(table.url + "/panel")
    page_until(page, "document.getElementById('oled').naturalWidth === 512")
    page.check("#sound")
    first = page.get_attribute("#oled", "src")
    page.click("button[data-seat='3']")
    page.wait_for_selector("#led-3.on", timeout=10_000)
    page_until(page, "window.__played.length > 0")
    assert page.get_attribute("#oled", "src") != first  # a new picture was fetched
    view = visitor.get("/api/view")[1]
    assert view["waiting"]["locked_in"] == ["3"]
    page.click("button[data-seat='3']")  # again: unlocks
    page.wait_for_selector("#led-3:not(.on)", timeout=10_000)
    page.click("button[data-seat='5']")
    page.wait_for_selector("#led-5.on", timeout=10_000)
    back = page.locator("button[data-control='back']")
    back.click()  # a short Back mutes the voice (a notice says so); only held does it undo
    eventually(lambda: any(n.get("code") == "voice_muted" for n in _notices(visitor)), 10)
    assert page.locator("#led-5.on").count() == 1
    back.hover()
    page.mouse.down()
    time.sleep(1.2)
    page.mouse.up()  # held: undo the last command, the lock-in of seat 5
    page.wait_for_selector("#led-5:not(.on)", timeout=10_000)
    page.close()


def test_holding_the_virtual_menu_shows_the_pin_on_the_oled_only(
    table: Serve, visitor: Phone
) -> None:
    """The PIN is never on the public screen unless asked for at the companion: a long press of
    the virtual Menu shows it on the OLED's picture and does not reach the game."""
    status, png, _ = visitor.fetch("/panel/oled.png")
    before = Image.open(io.BytesIO(png)).resize((128, 64))
    assert before.tobytes() != frame("pin", {"pin": PIN}).tobytes()
    paused = visitor.get("/api/view")[1].get("session", {}).get("paused")
    status, reply = visitor.post("/panel/controls/menu", {"long": True})
    assert status == 200 and reply["ok"], reply
    status, png, _ = visitor.fetch("/panel/oled.png")
    assert (
        Image.open(io.BytesIO(png)).resize((128, 64)).tobytes()
        == frame("pin", {"pin": PIN}).tobytes()
    )
    assert visitor.get("/api/view")[1].get("session", {}).get("paused") == paused
