"""Seat and control buttons: debounce, short and long presses and a stuck button, in plain Python
fed by edge timestamps, and the gpiozero `Button`s that feed it.

gpiozero's mock pins do not simulate `bounce_time` and its callbacks run on background threads,
so gpiozero only reports raw edges here (bounce_time=None) with the time from an injected clock;
`PressLogic` decides, and whatever it decides is handed on through `on_press` (the hardware puts
it on a queue for the session, never calling the session from gpiozero's thread).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from gpiozero import Button

STUCK_AFTER = 10.0  # seconds held down before a button counts as stuck
HOLD = 3.0  # seconds a seat button is held to give its seat to the phone asking for it


class PressLogic:
    """Turns raw edges into "press" (seat buttons, on the way down), "short" / "long" (control
    buttons: short on release, long once held past `long_press`), "stuck" and "released".

    An edge counts only when the level it starts lasts `bounce` seconds: chatter shorter than
    that is ignored. A button held for `stuck_after` is reported stuck, gives nothing more, and
    is reported "released" when it comes back up.

    A seat button whose `defer()` is true when it goes down (a phone asks for its seat) waits
    instead: "press" on a release before `hold` seconds, "hold" once held that long."""

    def __init__(
        self,
        bounce: float = 0.03,
        long_press: float | None = None,
        stuck_after: float = STUCK_AFTER,
        defer: Callable[[], bool] | None = None,
        hold: float = HOLD,
    ) -> None:
        self.bounce = bounce
        self.long_press = long_press
        self.stuck_after = stuck_after
        self.defer = defer
        self.hold = hold
        self._deferred = False
        self._raw = False
        self._raw_at = float("-inf")
        self._down = False
        self._down_at = 0.0
        self._long_sent = False
        self.stuck = False

    def edge(self, pressed: bool, at: float) -> list[str]:
        """A raw level change at time `at` (seconds)."""
        out = self.tick(at)
        if pressed != self._raw:
            self._raw, self._raw_at = pressed, at
        return out

    def tick(self, now: float) -> list[str]:
        """Time has passed: a level that has held long enough counts; a long or stuck hold."""
        out: list[str] = []
        if self._raw != self._down and now - self._raw_at >= self.bounce:
            out += self._settled(self._raw, self._raw_at)
        if self._down and not self.stuck:
            held = now - self._down_at
            if self.long_press is not None and not self._long_sent and held >= self.long_press:
                self._long_sent = True
                out.append("long")
            if self._deferred and not self._long_sent and held >= self.hold:
                self._long_sent = True
                out.append("hold")
            if held >= self.stuck_after:
                self.stuck = True
                out.append("stuck")
        return out

    def _settled(self, down: bool, at: float) -> list[str]:
        self._down = down
        if down:
            self._down_at, self._long_sent = at, False
            self._deferred = self.long_press is None and self.defer is not None and self.defer()
            return ["press"] if self.long_press is None and not self._deferred else []
        if self.stuck:
            self.stuck = False
            return ["released"]
        if self.long_press is not None and not self._long_sent:
            return ["short"]
        if self._deferred and not self._long_sent:
            return ["press"]
        return []


class GpioButton:
    """One gpiozero `Button` (pulled up, to ground when pressed) feeding a `PressLogic`."""

    def __init__(
        self,
        name: str,
        pin: int,
        logic: PressLogic,
        on_press: Callable[[str, str], None],
        *,
        pin_factory: object | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self.logic = logic
        self._on_press = on_press
        self._clock = clock
        self._lock = threading.Lock()
        self.device = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
        self.device.when_pressed = lambda: self._edge(True)
        self.device.when_released = lambda: self._edge(False)

    def _edge(self, pressed: bool) -> None:
        with self._lock:
            found = self.logic.edge(pressed, self._clock())
        for what in found:
            self._on_press(self.name, what)
        # Look again once the level may have settled, so a press is not left for the next tick.
        settle = threading.Timer(self.logic.bounce, self.tick)
        settle.daemon = True
        settle.start()

    def tick(self) -> None:
        with self._lock:
            found = self.logic.tick(self._clock())
        for what in found:
            self._on_press(self.name, what)

    def close(self) -> None:
        self.device.close()
