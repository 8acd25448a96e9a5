"""Which gpiozero pin factory drives the header.

On a Pi the factory is the config's `[buttons] pin_factory`, else $GPIOZERO_PIN_FACTORY, else
lgpio (every Pi, the only choice on a Pi 5), then RPi.GPIO (older Pis only). It never falls back
to a mock on a real Pi: a missing factory is an error in plain words.
"""

from __future__ import annotations

import os

from gpiozero.pins.mock import MockFactory, MockPWMPin

FACTORIES = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
}
PREFERRED = ("lgpio", "rpigpio")


class PinFactoryError(RuntimeError):
    """No pin factory could drive the header."""


def mock_factory() -> MockFactory:
    """gpiozero's mock pins, PWM-capable so the passive buzzer's pin works too."""
    return MockFactory(pin_class=MockPWMPin)


def pi_factory(name: str = ""):
    """The named factory (or the preferred one that loads) for the real header."""
    name = (name or os.environ.get("GPIOZERO_PIN_FACTORY", "")).lower()
    if name == "mock":
        return mock_factory()
    names = (name,) if name else PREFERRED
    errors = []
    for candidate in names:
        if candidate not in FACTORIES:
            raise PinFactoryError(
                f"unknown pin factory {candidate!r}: choose one of {', '.join(FACTORIES)}"
            )
        module_name, class_name = FACTORIES[candidate]
        try:
            module = __import__(module_name, fromlist=[class_name])
            return getattr(module, class_name)()
        except Exception as error:  # each factory fails its own way (ImportError, RuntimeError...)
            errors.append(f"{candidate}: {error}")
    raise PinFactoryError("no GPIO pin factory works here (" + "; ".join(errors) + ")")
