"""The wiring check in headless Chromium against a real `room25 serve` off a Pi (the virtual
panel): "Check the table" on the host page (a phone, 390x844) starts the walk, the virtual panel
(a laptop) shows its OLED screens and takes the presses, the host page follows step by step and
ends on one line a part and the summary; while a game runs the check is refused in words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import PIN, Phone, Serve
from waiting import page_until

from .test_voice_browser import PHONE

LAPTOP = {"viewport": {"width": 1280, "height": 800}}
GAME = {"edition": "base", "mode": "suspicion", "players": 5}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Serve]:
    running = Serve(tmp_path / "data", hardware="virtual").wait_ready()
    yield running
    running.stop()


@pytest.fixture
def host(server: Serve) -> Phone:
    phone = Phone(server.url)
    assert phone.post("/api/host/login", {"pin": PIN})[0] == 200
    return phone


def _prompt(page) -> str:
    return page.evaluate("document.getElementById('check-prompt').textContent")


def test_check_the_table_from_the_host_page_on_the_virtual_panel(
    server: Serve, host: Phone, browser, tmp_path: Path
) -> None:
    """Screenshots of both pages at the start and the end land in the test's folder."""
    phone = browser.new_context(**PHONE)
    laptop = browser.new_context(**LAPTOP)
    try:
        phone.add_cookies([{"name": c.name, "value": c.value or "", "url": server.url}
                           for c in host.cookies])  # fmt: skip
        page = phone.new_page()
        page.goto(server.url + "/host")
        panel = laptop.new_page()
        panel.goto(server.url + "/panel")
        page.click("#check-table summary")
        page.click("#check-start")
        page_until(page, "document.getElementById('check-prompt').textContent.startsWith('Look')")
        page.screenshot(path=str(tmp_path / "host-check-start.png"), full_page=False)
        page_until(page, "document.getElementById('check-prompt').textContent === 'Press seat 1.'")
        for seat in "12345678":
            assert _prompt(page) == f"Press seat {seat}."
            panel.click(f'.seat[data-seat="{seat}"]')
            page_until(panel, f"document.getElementById('led-{seat}').classList.contains('on')")
            page_until(page, f"document.getElementById('check-prompt').textContent !== "
                         f"'Press seat {seat}.'")  # fmt: skip
        panel.screenshot(path=str(tmp_path / "panel-check-next.png"), full_page=True)
        for button, name in (("next", "Next"), ("back", "Back"), ("menu", "Menu")):
            assert _prompt(page) == f"Press {name}."
            panel.click(f'.control[data-control="{button}"]')
            page_until(page, f"document.getElementById('check-prompt').textContent !== "
                         f"'Press {name}.'")  # fmt: skip
        page_until(page, "document.getElementById('check-summary').textContent !== ''")
        texts = "items => items.map(i => i.textContent)"
        lines = page.eval_on_selector_all("#check-lines li", texts)
        assert lines == [
            "OLED: none wired; the virtual panel shows its picture.",
            *(f"Seat {n}: press seen, its light lit." for n in range(1, 9)),
            "Next: press seen.",
            "Back: press seen.",
            "Menu: press seen.",
            "Buzzer: none wired; the virtual panel plays its 12 notes (tick Sound).",
            "Speaker: none here; the virtual panel plays the phrase.",
            "Serial panel: none configured.",
        ]
        summary = page.evaluate("document.getElementById('check-summary').textContent")
        assert summary == (
            "Every part answered: the table is ready. Not wired: the OLED, the serial panel."
        )
        assert page.is_visible("#check-start") and not page.is_visible("#check-stop")
        page.screenshot(path=str(tmp_path / "host-check-done.png"), full_page=True)
        panel.screenshot(path=str(tmp_path / "panel-check-done.png"), full_page=True)
    finally:
        phone.close()
        laptop.close()


def test_no_check_while_a_game_runs_and_bad_bodies_are_refused(server: Serve, host: Phone):
    assert host.post("/api/host/games", {"setup": GAME})[0] == 200
    status, reply = host.post("/panel/check", {})
    assert status == 409
    assert reply["refusal"]["text"] == (
        "Finish or end the game first: the check takes over the buttons and the display."
    )
    status, reply = host.post("/panel/check", {"seconds": 3})
    assert status == 400 and reply["refusal"]["text"] == "The check takes no setting “seconds”."
    status, reply = host.post("/panel/check", {"stop": True})
    assert status == 409 and reply["refusal"]["text"] == "No check is running."
    assert host.get("/panel/check")[1]["running"] is False
    assert host.post("/panel/check", {}, csrf=False)[0] == 403  # a foreign page's write
