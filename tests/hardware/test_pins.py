"""Choosing the pin factory: named in the config or the environment, lgpio first, and never a
silent mock: on a machine whose GPIO libraries do not load, a plain error."""

from __future__ import annotations

import importlib.util

import pytest
from gpiozero.pins.mock import MockFactory

from companion.hardware.pins import PinFactoryError, pi_factory


def test_an_unknown_factory_is_refused_in_words(monkeypatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with pytest.raises(PinFactoryError, match=r"unknown pin factory 'gpio5'.*lgpio"):
        pi_factory("gpio5")


def test_without_a_gpio_library_there_is_no_silent_mock(monkeypatch) -> None:
    if importlib.util.find_spec("lgpio") is not None:
        pytest.skip("lgpio is installed here: this machine may drive a real header")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with pytest.raises(PinFactoryError, match="no GPIO pin factory works here") as refused:
        pi_factory("")
    assert "lgpio" in str(refused.value) and "rpigpio" in str(refused.value)


def test_the_environment_names_the_factory(monkeypatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert isinstance(pi_factory(""), MockFactory)
