"""Which gpiozero pin factory drives the header.

On a Pi the factory is the config's `[buttons] pin_factory`, else $GPIOZERO_PIN_FACTORY, else
lgpio (every Pi, the only choice on a Pi 5, and the only one the service's sandbox opens). It
never falls back to another factory or to a mock: RPi.GPIO loads on a Pi 5 and then fails at its
first pin (there the module to install is rpi-lgpio), and under the service it opens /dev/gpiomem
only when install.sh wrote the unit's drop-in for it, so a fallback would only hide lgpio's own
error behind another. A factory that does not load is an error in plain words.
"""

from __future__ import annotations

import os
import time
from collections import deque

from gpiozero.pins.mock import MockFactory, MockPWMPin, PinState

FACTORIES = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
}
DEFAULT = "lgpio"
# The states a mock pin remembers, the last ones: what a test looks at.
HISTORY = 256


class PinFactoryError(RuntimeError):
    """No pin factory could drive the header."""


class LgpioMockPin(MockPWMPin):
    """gpiozero's mock PWM pin, stopping PWM the way the lgpio factory does.

    gpiozero stops PWM on lgpio with `tx_pwm(h, pin, 0, 0)`, and lgpio then drops the PWM
    without writing the line: it stays at the level the last cycle left it, high for the duty's
    share of the stops. gpiozero's own mock writes 0 instead, which hides a buzzer left on. This
    pin takes the case that does harm: stopped with a duty above 0, the line stays high until
    something writes it.
    """

    def _set_frequency(self, value: float | None) -> None:
        if value:
            super()._set_frequency(value)
        elif self.frequency is not None:
            self._frequency = None
            self._change_state(1.0 if self._state else 0.0)

    def clear_states(self) -> None:
        """gpiozero's mock remembers every state a pin took, and a pin on a Pi none: an evening
        of LEDs and buzzer on the mock (the memory benchmark's) held 0.6 MB of them."""
        self._last_change = time.monotonic()
        self.states = deque([PinState(0.0, self._state)], maxlen=HISTORY)


def mock_factory() -> MockFactory:
    """gpiozero's mock pins, PWM-capable (the passive buzzer's pin) and stopping PWM like lgpio."""
    return MockFactory(pin_class=LgpioMockPin)


def pi_factory(name: str = ""):
    """The named factory, else lgpio, for the real header."""
    name = (name or os.environ.get("GPIOZERO_PIN_FACTORY", "")).lower()
    if name == "mock":
        return mock_factory()
    name = name or DEFAULT
    if name not in FACTORIES:
        raise PinFactoryError(f"unknown pin factory {name!r}: choose one of {', '.join(FACTORIES)}")
    module_name, class_name = FACTORIES[name]
    try:
        module = __import__(module_name, fromlist=[class_name])
        return getattr(module, class_name)()
    except Exception as error:  # each factory fails its own way (ImportError, RuntimeError...)
        hint = (
            " (systemd/install.sh installs it on a Pi; see docs/pi-setup.md)"
            if name == DEFAULT
            else ""
        )
        raise PinFactoryError(
            f"the GPIO pin factory {name} does not work here{hint}: {error}"
        ) from error
