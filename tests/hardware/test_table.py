"""The hardware put together around a real session (a real journal in a temporary folder):
a seat button driven on gpiozero's mock pins locks a seat in, its LED lights, the buzzer plays,
the OLED follows; a stuck button and a pulled OLED cable reach the table as notices and go away
when fixed; the virtual kind has no GPIO and takes the virtual panel's presses."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest
import serial
from gpiozero.threads import GPIOThread
from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306
from waiting import eventually

from companion.hardware import start_hardware
from companion.hardware.display import FRAME_GAP, RETRY_MAX
from companion.hardware.gallery import sample_updates
from companion.hardware.panel_protocol import text_line
from companion.hardware.screens import frame
from companion.hardware.table import panel_text

from .conftest import TOKENS_GAME
from .test_display import Wire

SETUP = {**TOKENS_GAME, "seed": 11}


def _to_programming(session, **limits: int) -> None:
    """A new game (with a programming time limit if `limits` asks), every seat's clue taken."""
    assert session.host("new_game", setup={**SETUP, **limits}).ok
    for seat in "12345":
        assert any(
            session.submit({"type": "clue", "seat": seat, "cell": cell}).ok
            for cell in ("C2", "C4", "B3", "D3")
        )
    assert session.snapshot("public")["waiting"]["phase"] == "programming"


def _notices(session) -> list[str]:
    """The table's notices in English, as the logs read them."""
    return [notice["text"] for notice in session.snapshot("public")["session"]["notices"]]


@pytest.fixture
def rig(session, config, ticks):
    hardware = start_hardware(
        session, config, "mock", clock=ticks, timers=ticks, address="http://t:8025/"
    )
    yield hardware
    hardware.close()


def test_a_seat_button_locks_in_lights_its_led_and_beeps(rig, session, ticks) -> None:
    _to_programming(session)
    seat_3, led_3 = rig.config.buttons.seats[2], rig.config.buttons.leds[2]
    before = rig.display.frames
    rig.factory.pin(seat_3).drive_low()
    ticks.advance(0.05)
    eventually(lambda: session.snapshot("public")["waiting"]["locked_in"] == ["3"])
    eventually(lambda: rig.factory.pin(led_3).state)
    eventually(lambda: [name for _, name in rig.buzzer.played][-1:] == ["lock_in"])
    assert rig.display.frames > before
    rig.factory.pin(seat_3).drive_high()
    ticks.advance(0.05)
    rig.factory.pin(seat_3).drive_low()  # pressed again: unlocks (changed his mind)
    ticks.advance(0.05)
    eventually(lambda: session.snapshot("public")["waiting"]["locked_in"] == [])
    eventually(lambda: not rig.factory.pin(led_3).state)


def test_the_last_lock_in_chimes_and_blinks_the_first_actor(rig, session, ticks) -> None:
    _to_programming(session)
    for seat in "12345":
        assert session.press_seat(seat).ok
    eventually(lambda: "all_locked" in [name for _, name in rig.buzzer.played])
    waiting = session.snapshot("public")["waiting"]
    assert waiting["phase"] == "action"
    eventually(lambda: rig.lights == {waiting["seats"][0]: "blink"})


def test_a_long_back_press_undoes(rig, session, ticks) -> None:
    _to_programming(session)
    assert session.press_seat("2").ok
    eventually(lambda: rig.lights == {"2": "on"})
    back = rig.factory.pin(rig.config.buttons.back)
    back.drive_low()
    ticks.advance(1.2)  # held past the long press: the hardware's tick sends it while held
    eventually(lambda: session.snapshot("public")["waiting"]["locked_in"] == [])
    back.drive_high()


def test_a_stuck_button_is_a_notice_until_freed(rig, session, ticks) -> None:
    _to_programming(session)
    pin = rig.factory.pin(rig.config.buttons.seats[0])
    pin.drive_low()
    ticks.advance(11)
    eventually(lambda: "Button 1 stuck" in _notices(session))
    pin.drive_high()
    ticks.advance(0.05)
    eventually(lambda: "Button 1 stuck" not in _notices(session))


def test_pulling_the_oled_cable_mid_game_and_plugging_it_back(session, config, ticks) -> None:
    wire = Wire()
    rig = start_hardware(
        session,
        config,
        "mock",
        clock=ticks,
        timers=ticks,
        open_display=lambda: ssd1306(i2c(bus=wire, address=0x3C)),
    )
    try:
        _to_programming(session)
        assert rig.display.connected
        wire.plugged = False
        ticks.advance(FRAME_GAP)
        session.press_seat("1")  # the game goes on: the next picture cannot be sent
        eventually(lambda: "OLED missing" in _notices(session))
        assert session.snapshot("public")["waiting"]["locked_in"] == ["1"]
        wire.plugged = True
        ticks.advance(RETRY_MAX + 0.5)
        eventually(lambda: rig.display.connected)
        eventually(lambda: "OLED missing" not in _notices(session))
    finally:
        rig.close()


def test_the_virtual_kind_has_no_gpio_and_takes_panel_presses(session, config) -> None:
    rig = start_hardware(session, config, "virtual", address="http://t:8025/")
    try:
        assert rig.factory is None and rig.buttons == [] and rig.leds is None
        assert "virtual panel" in rig.describe()
        assert rig.press("1").ok is False  # no game yet: refused in words, nothing breaks
        _to_programming(session)
        assert rig.press("4").ok
        eventually(lambda: rig.lights == {"4": "on"})
    finally:
        rig.close()


def test_a_buzzer_that_cannot_start_is_reported_and_the_rest_runs(session, config) -> None:
    broken = replace(config, buzzer=replace(config.buzzer, pin=99))  # no such GPIO
    rig = start_hardware(session, broken, "mock", address="http://t:8025/")
    try:
        assert rig.buzzer.output is None
        assert "buzzer: none" in rig.describe()
        eventually(lambda: "Buzzer missing" in _notices(session))
        assert len(rig.buttons) == 11 and rig.leds is not None
    finally:
        rig.close()


def test_a_button_on_a_pin_already_used_is_reported(session, config) -> None:
    clash = replace(config, buttons=replace(config.buttons, next=config.buzzer.pin))
    rig = start_hardware(session, clash, "mock", address="http://t:8025/")
    try:
        assert rig.buzzer.output is not None
        assert [b.name for b in rig.buttons] == [*"12345678", "back", "menu"]
        eventually(lambda: "Button next unavailable" in _notices(session))
    finally:
        rig.close()


def test_a_programming_time_limit_warns_then_counts_the_last_seconds(rig, session, ticks) -> None:
    _to_programming(session, time_limit=30, warning=15)
    eventually(lambda: rig.time_left() == 30)

    def heard() -> list[str]:
        return [name for _, name in rig.buzzer.played if name in ("warning", "last_seconds")]

    ticks.advance(10)  # 20 s left: nothing yet
    eventually(lambda: rig.time_left() == 20)
    assert heard() == []
    ticks.advance(6)  # 14 s left
    eventually(lambda: heard() == ["warning"])
    ticks.advance(8.5)  # 5.5 s left
    for count in range(1, 6):
        ticks.advance(1)  # 4.5, 3.5, ... 0.5 s left: one beep a second
        eventually(lambda n=count: heard().count("last_seconds") == n)
    assert heard() == ["warning"] + ["last_seconds"] * 5


def test_a_serial_panel_press_locks_in(session, config, ticks) -> None:
    port = serial.serial_for_url("loop://", timeout=0.05)
    rig = start_hardware(
        session, config, "virtual", address="http://t:8025/", panel_opener=lambda: port
    )
    try:
        assert "serial panel" in rig.describe()
        _to_programming(session)
        port.write(b"HELLO ROOM25-PANEL 1 8 pico-0.1\n")  # the panel says who it is
        eventually(lambda: rig.panel is not None and rig.panel.connected.is_set())
        port.write(b"P 2\n")  # what the Pico sends when seat 2's button goes down
        eventually(lambda: session.snapshot("public")["waiting"]["locked_in"] == ["2"])
        eventually(lambda: rig.lights == {"2": "on"})
    finally:
        rig.close()


def test_the_serial_panel_line_follows_the_phase() -> None:
    samples = sample_updates()
    assert panel_text(samples["join"], "fr") == "Pas de partie"
    assert panel_text(samples["programming"], "en") == "Turn 1 2 ready"  # seats 1 and 3 locked in
    french = panel_text(samples["programming"], "fr")
    assert french == "Tour 1 2 prêts" and text_line(french) == b"TEXT Tour 1 2 prets\n"
    assert panel_text(samples["action"], "en") == "Turn 1 Emmett"
    assert panel_text(samples["over"], "en") == "Game over"


def test_holding_menu_shows_the_pin_and_does_not_pause(rig, session, ticks) -> None:
    """The PIN is on the OLED only when asked for at the table, and the long press stops there:
    the session never sees it (a short Menu keeps pausing and resuming)."""
    rig.set_pin("481093")
    _to_programming(session, time_limit=60)
    eventually(lambda: rig.time_left() is not None)
    without = rig.display.frame.tobytes()
    assert rig.control("menu", long=True).ok
    assert rig.display.frame.tobytes() == frame("pin", {"pin": "481093"}).tobytes()
    assert rig.display.frame.tobytes() != without
    assert session.snapshot("public")["session"]["paused"] is False
    assert rig.control("menu").ok  # a short press pauses
    eventually(lambda: session.snapshot("public")["session"]["paused"] is True)


def test_the_join_screen_shows_no_pin(rig, session) -> None:
    rig.set_pin("481093")
    picture = rig.display.frame
    assert picture.tobytes() == frame("join", {"address": "http://t:8025/"}).tobytes()


def test_a_seat_buttons_refusal_never_reaches_the_log(rig, session, ticks, caplog) -> None:
    """Whether a seat may lock in depends on its private programme ("Program Emmett before
    locking in"): the refusal goes to that seat's phone only, never to the companion's log."""
    app_game = {**SETUP, "settings": {"programming": "app"}}
    assert session.host("new_game", setup=app_game).ok
    for seat in "12345":
        assert any(
            session.submit({"type": "clue", "seat": seat, "cell": cell}).ok
            for cell in ("C2", "C4", "B3", "D3")
        )
    caplog.set_level("DEBUG", logger="companion")
    phone_3 = session.listen("3")
    seat_3 = rig.factory.pin(rig.config.buttons.seats[2])
    seat_3.drive_low()  # nothing programmed: refused
    ticks.advance(0.05)
    told: list[dict] = []

    def refused_on_the_phone() -> bool:
        update = phone_3.get(timeout=0.1)
        told.extend((update or {}).get("events") or [])
        return any(event.get("type") == "button_refused" for event in told)

    eventually(refused_on_the_phone)
    time.sleep(0.2)  # the presses' thread logs, if it does, just after the phone is told
    assert session.snapshot("public")["waiting"]["locked_in"] == []
    assert not [r for r in caplog.records if "locking in" in r.getMessage()]


def test_holding_the_menu_pin_shows_the_host_pin_and_nothing_waits_at_rest(rig, ticks) -> None:
    """The Menu pin held past the long press shows the PIN, timed by the buttons' own timers on
    the injected clock; at rest no timer is set and no gpiozero hold thread runs (a `Button`'s
    woke ten times a second each)."""
    rig.set_pin("481093")
    assert ticks.pending == 0
    assert not [t for t in threading.enumerate() if isinstance(t, GPIOThread)]
    menu = rig.factory.pin(rig.config.buttons.menu)
    menu.drive_low()
    assert ticks.pending == 1  # the end of the bounce
    ticks.advance(rig.config.buttons.long_press + 0.1)
    eventually(lambda: rig.display.frame.tobytes() == frame("pin", {"pin": "481093"}).tobytes())
    menu.drive_high()
    ticks.advance(0.05)
    assert ticks.pending == 0
