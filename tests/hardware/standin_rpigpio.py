"""A stand-in for the RPi.GPIO module (absent off a Pi): the calls gpiozero's RPiGPIOFactory
makes, on lines whose levels a test sets. A line's level follows its pull at rest; `drive` moves
it and calls the edge callback RPi.GPIO would, from the test's thread."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable

BCM, BOARD = 11, 10
IN, OUT = 1, 0
PUD_OFF, PUD_DOWN, PUD_UP = 20, 21, 22
RISING, FALLING, BOTH = 31, 32, 33
HARD_PWM, SERIAL, I2C, SPI, UNKNOWN = 43, 40, 42, 41, -1
# The functions of RPi.GPIO that gpiozero's factory calls for inputs and outputs.
API = (
    "setmode",
    "setwarnings",
    "setup",
    "gpio_function",
    "input",
    "output",
    "add_event_detect",
    "remove_event_detect",
    "cleanup",
)


class Lines:
    """The header's lines as RPi.GPIO sees them."""

    def __init__(self) -> None:
        self.mode: int | None = None
        self.levels: dict[int, int] = {}
        self.functions: dict[int, int] = {}
        self.edges: dict[int, tuple[int, Callable[[int], None]]] = {}

    def setmode(self, mode: int) -> None:
        self.mode = mode

    def setwarnings(self, _flag: bool) -> None:
        return None

    def setup(self, pin: int, function: int, pull_up_down: int = PUD_OFF, initial: int = 0) -> None:
        if self.mode != BCM:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode")
        self.functions[pin] = function
        if function == IN:
            self.levels[pin] = 1 if pull_up_down == PUD_UP else 0
        else:
            self.levels[pin] = int(initial)

    def gpio_function(self, pin: int) -> int:
        return self.functions.get(pin, IN)

    def input(self, pin: int) -> int:
        return self.levels.get(pin, 0)

    def output(self, pin: int, value: int) -> None:
        if self.functions.get(pin) != OUT:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        self.levels[pin] = int(value)

    def add_event_detect(
        self, pin: int, edge: int, callback: Callable[[int], None], bouncetime: int = -666
    ) -> None:
        self.edges[pin] = (edge, callback)

    def remove_event_detect(self, pin: int) -> None:
        self.edges.pop(pin, None)

    def cleanup(self, pin: int | None = None) -> None:
        for line in [pin] if pin is not None else list(self.functions):
            self.functions.pop(line, None)
            self.edges.pop(line, None)

    def drive(self, pin: int, level: int) -> None:
        """What the outside world does to an input line: its level moves, its edge is seen."""
        before, self.levels[pin] = self.levels.get(pin, 0), level
        edge, callback = self.edges.get(pin, (None, None))
        wanted = {BOTH, RISING if level else FALLING}
        if callback is not None and before != level and edge in wanted:
            callback(pin)


def modules(lines: Lines) -> dict[str, types.ModuleType]:
    """`RPi` and `RPi.GPIO` for sys.modules, the module's functions being `lines`' methods."""
    gpio = types.ModuleType("RPi.GPIO")
    for name, value in vars(sys.modules[__name__]).items():
        if name.isupper() and name != "API":
            setattr(gpio, name, value)
    for name in API:
        setattr(gpio, name, getattr(lines, name))

    class PWM:  # the factory's software PWM; the seat buttons never ask for it
        def __init__(self, pin: int, frequency: float) -> None:
            raise RuntimeError("no PWM on the stand-in")

    gpio.PWM = PWM  # type: ignore[attr-defined]
    package = types.ModuleType("RPi")
    package.GPIO = gpio  # type: ignore[attr-defined]
    return {"RPi": package, "RPi.GPIO": gpio}
