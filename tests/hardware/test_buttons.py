"""Debounce, short and long presses and a stuck button, driven through gpiozero's MockFactory
pins with a hand-moved clock; and the seat LEDs read from the public "waiting" part."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from companion.hardware.buttons import GpioButton, PressLogic
from companion.hardware.leds import SeatLeds, seat_lights

PIN = 5


@pytest.fixture
def factory():
    made = MockFactory()
    yield made
    made.reset()


def _button(factory, ticks, long_press=None, bounce=0.03):
    pressed: list[tuple[str, str]] = []
    button = GpioButton(
        "3",
        PIN,
        PressLogic(bounce, long_press),
        lambda name, what: pressed.append((name, what)),
        pin_factory=factory,
        clock=ticks,
        timers=ticks,
    )
    return button, factory.pin(PIN), pressed


def test_a_clean_press_counts_once_after_the_bounce_time(factory, ticks) -> None:
    button, pin, pressed = _button(factory, ticks)
    pin.drive_low()
    assert pressed == []  # not yet: the level has not lasted 30 ms
    ticks.advance(0.031)
    button.tick()
    assert pressed == [("3", "press")]
    ticks.advance(0.2)
    pin.drive_high()
    ticks.advance(0.05)
    button.tick()
    assert pressed == [("3", "press")]


def test_chatter_shorter_than_the_bounce_time_is_one_press(factory, ticks) -> None:
    button, pin, pressed = _button(factory, ticks)
    for _ in range(6):  # a worn contact: 5 ms bounces on the way down
        pin.drive_low()
        ticks.advance(0.005)
        pin.drive_high()
        ticks.advance(0.005)
    pin.drive_low()
    ticks.advance(0.04)
    button.tick()
    for _ in range(4):  # and on the way up
        pin.drive_high()
        ticks.advance(0.004)
        pin.drive_low()
        ticks.advance(0.004)
    pin.drive_high()
    ticks.advance(0.04)
    button.tick()
    assert pressed == [("3", "press")]


def test_a_glitch_alone_is_not_a_press(factory, ticks) -> None:
    button, pin, pressed = _button(factory, ticks)
    pin.drive_low()
    ticks.advance(0.01)
    pin.drive_high()
    ticks.advance(1.0)
    button.tick()
    assert pressed == []


def test_control_short_on_release_and_long_once_when_held(factory, ticks) -> None:
    button, pin, pressed = _button(factory, ticks, long_press=1.0)
    pin.drive_low()
    ticks.advance(0.3)
    pin.drive_high()
    ticks.advance(0.05)
    button.tick()
    assert pressed == [("3", "short")]
    pin.drive_low()
    for _ in range(15):
        ticks.advance(0.1)
        button.tick()
    assert pressed == [("3", "short"), ("3", "long")]
    pin.drive_high()
    ticks.advance(0.05)
    button.tick()
    assert pressed == [("3", "short"), ("3", "long")]  # no short after a long


def test_a_stuck_button_is_reported_once_and_released(factory, ticks) -> None:
    button, pin, pressed = _button(factory, ticks)
    pin.drive_low()
    for _ in range(30):
        ticks.advance(0.5)
        button.tick()
    assert pressed == [("3", "press"), ("3", "stuck")]
    pin.drive_high()
    ticks.advance(0.05)
    button.tick()
    assert pressed[-1] == ("3", "released")
    pin.drive_low()
    ticks.advance(0.05)
    button.tick()
    assert pressed[-1] == ("3", "press")  # works again once freed


def test_seat_lights_follow_waiting_only() -> None:
    programming = {"waiting": {"phase": "programming", "seats": ["2"], "locked_in": ["1", "3"]}}
    assert seat_lights(programming) == {"1": "on", "3": "on"}
    action = {"waiting": {"phase": "action", "seats": ["4", "host"], "locked_in": []}}
    assert seat_lights(action) == {"4": "blink"}


def test_seat_leds_drive_their_pins(factory) -> None:
    leds = SeatLeds({"1": 4, "2": 14}, pin_factory=factory)
    leds.show({"1": "on"})
    assert factory.pin(4).state and not factory.pin(14).state
    leds.show({"2": "on"})
    assert not factory.pin(4).state and factory.pin(14).state
    leds.close()
