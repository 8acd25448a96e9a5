"""A seat button held 3 s while a phone asks for its seat gives the seat to that phone; a short
press then is an ordinary press, and without a request the button locks in on the way down as
before. Driven through gpiozero's MockFactory pins and pyserial's loop:// port, around a real
session."""

from __future__ import annotations

import pytest
import serial
from gpiozero.pins.mock import MockFactory
from waiting import eventually

from companion.hardware import start_hardware
from companion.hardware.buttons import HOLD, GpioButton, PressLogic
from companion.session import FakeClock, Session
from companion.session.seats import STEADY

from .conftest import TOKENS_GAME

PIN = 6
DIGEST = "ab" * 32  # the digest of the asking phone's secret


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def session(tmp_path, clock):
    """The session on a clock of its own, moved past the 3 s a request is shown before a hold."""
    with Session(tmp_path / "journal.sqlite", clock) as table:
        yield table


@pytest.fixture
def factory():
    made = MockFactory()
    yield made
    made.reset()


def _seat(factory, ticks, asked: list[bool]):
    pressed: list[str] = []
    logic = PressLogic(0.03, None, defer=lambda: asked[0])
    button = GpioButton(
        "2",
        PIN,
        logic,
        lambda name, what: pressed.append(what),
        pin_factory=factory,
        clock=ticks,
        timers=ticks,
    )
    return button, factory.pin(PIN), pressed


def _hold_for(button, pin, ticks, seconds: float) -> None:
    pin.drive_low()
    for _ in range(round(seconds / 0.1)):
        ticks.advance(0.1)
        button.tick()
    pin.drive_high()
    ticks.advance(0.05)
    button.tick()


def test_a_seat_asked_for_waits_for_the_release_or_the_hold(factory, ticks) -> None:
    asked = [True]
    button, pin, pressed = _seat(factory, ticks, asked)
    _hold_for(button, pin, ticks, 1.0)
    assert pressed == ["press"]  # released before 3 s: an ordinary press, on the way up
    _hold_for(button, pin, ticks, HOLD + 0.5)
    assert pressed == ["press", "hold"]  # nothing more on release
    asked[0] = False
    pin.drive_low()
    ticks.advance(0.05)
    button.tick()
    assert pressed == ["press", "hold", "press"]  # no request: on the way down, as before
    for _ in range(40):
        ticks.advance(0.1)
        button.tick()
    assert "hold" not in pressed[2:]


def _under_way(session) -> None:
    assert session.host("new_game", setup=TOKENS_GAME).ok
    assert any(
        session.submit({"type": "clue", "seat": "1", "cell": cell}).ok
        for cell in ("C2", "C4", "B3", "D3")
    )
    assert session.under_way()


def _codes(session) -> list[str]:
    return [n["code"] for n in session.snapshot("public")["session"]["notices"]]


def test_holding_a_gpio_seat_button_gives_the_asked_seat(session, clock, config, ticks) -> None:
    rig = start_hardware(
        session, config, "mock", clock=ticks, timers=ticks, address="http://t:8025/"
    )
    try:
        _under_way(session)
        code = session.ask_seat("3", DIGEST)
        clock.advance(STEADY)  # what the 3 s hold below takes on the table's clock
        assert session.pending_seats() == {"3": code}
        assert "seat_asked" in _codes(session)
        pin = rig.factory.pin(rig.config.buttons.seats[2])
        pin.drive_low()
        for _ in range(35):
            ticks.advance(0.1)
        eventually(lambda: session.seat_claims().get("3") == DIGEST)
        pin.drive_high()
        assert session.pending_seats() == {}
        assert "seat_taken_back" in _codes(session) and "seat_asked" not in _codes(session)
        assert session.snapshot("public")["waiting"].get("locked_in", []) == []
    finally:
        rig.close()


def test_a_serial_panel_long_press_of_a_seat_gives_the_asked_seat(session, clock, config) -> None:
    port = serial.serial_for_url("loop://", timeout=0.05)
    rig = start_hardware(
        session, config, "virtual", address="http://t:8025/", panel_opener=lambda: port
    )
    try:
        _under_way(session)
        port.write(b"HELLO ROOM25-PANEL 1 8 pico-0.1\n")  # the panel says who it is
        eventually(lambda: rig.panel is not None and rig.panel.connected.is_set())
        session.ask_seat("4", DIGEST)
        clock.advance(STEADY)
        port.write(b"L 4\n")  # a panel reporting seat 4 held
        eventually(lambda: session.seat_claims().get("4") == DIGEST)
    finally:
        rig.close()
