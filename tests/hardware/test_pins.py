"""Choosing the pin factory: named in the config or the environment, else lgpio, and never a
fallback or a silent mock: on a machine whose GPIO library does not load, a plain error. The
mock's pins stop PWM the way lgpio does, leaving the line where it was."""

from __future__ import annotations

import importlib.util

import pytest
from gpiozero.pins.mock import MockFactory

from companion.hardware.pins import HISTORY, PinFactoryError, mock_factory, pi_factory


def test_an_unknown_factory_is_refused_in_words(monkeypatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with pytest.raises(PinFactoryError, match=r"unknown pin factory 'gpio5'.*lgpio"):
        pi_factory("gpio5")


def test_without_a_gpio_library_there_is_no_silent_mock(monkeypatch) -> None:
    if importlib.util.find_spec("lgpio") is not None:
        pytest.skip("lgpio is installed here: this machine may drive a real header")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with pytest.raises(PinFactoryError, match="pin factory lgpio does not work here") as refused:
        pi_factory("")
    assert "rpigpio" not in str(refused.value)  # no fallback hiding lgpio's own error


def test_the_environment_names_the_factory(monkeypatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert isinstance(pi_factory(""), MockFactory)


def test_the_mock_stops_pwm_like_lgpio_leaving_the_line_where_it_was() -> None:
    """lgpio's tx_pwm(h, pin, 0, 0) writes nothing: a line stopped mid-cycle stays high. Only an
    explicit write brings it low; stopping a pin that runs no PWM writes nothing either."""
    factory = mock_factory()
    try:
        pin = factory.pin(18)
        pin.function = "output"
        pin.frequency = 2000
        pin.state = 0.25
        pin.frequency = None
        assert pin.frequency is None and pin.state == 1  # left high, as lgpio may leave it
        pin.state = 0
        written = len(pin.states)
        pin.frequency = None  # no PWM running: nothing happens
        assert pin.state == 0 and len(pin.states) == written
        pin.frequency = 2000
        pin.state = 0
        pin.frequency = None  # a duty of 0 never raised the line
        assert pin.state == 0
    finally:
        factory.reset()


def test_a_mock_pin_remembers_its_last_states_only() -> None:
    """An evening of LEDs blinking on the mock kept every state they took (0.6 MB in the memory
    benchmark, and a pin on a Pi keeps none): the last HISTORY stay, the latest one last."""
    factory = mock_factory()
    try:
        pin = factory.pin(17)
        pin.function = "output"
        for n in range(3 * HISTORY):
            pin.state = n % 2
        assert len(pin.states) == HISTORY
        assert [s.state for s in pin.states][-3:] == [1, 0, 1]
        pin.clear_states()
        assert [s.state for s in pin.states] == [1]
    finally:
        factory.reset()
