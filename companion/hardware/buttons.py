"""Seat and control buttons: debounce, short and long presses and a stuck button, in plain Python
fed by edge timestamps, and the gpiozero input devices that feed it.

gpiozero's mock pins do not simulate `bounce_time` and its callbacks run on background threads,
so gpiozero only reports raw edges here (bounce_time=None) with the time from an injected clock;
`PressLogic` decides, and whatever it decides is handed on through `on_press` (the hardware puts
it on a queue for the session, never calling the session from gpiozero's thread).

Nothing polls: a gpiozero `Button` runs a hold thread waking ten times a second for its
`hold_time` even when nobody holds it (eleven buttons made 200 wake-ups a second at idle), so the
pins are plain `DigitalInputDevice`s, and a timer is set only while a level is settling or a
button is down, for the moment `PressLogic.due` names (the end of the bounce, a long press, a
3 s seat hold, a stuck button). The timers are injected: tests move them with their clock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from gpiozero import DigitalInputDevice

STUCK_AFTER = 10.0  # seconds held down before a button counts as stuck
HOLD = 3.0  # seconds a seat button is held to give its seat to the phone asking for it
SLACK = 1e-6  # past a due moment by this, a timer's tick sees it passed whatever the rounding


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

    def due(self) -> float | None:
        """The clock time at which `tick` may next find something (None: only an edge can)."""
        if self._raw != self._down:
            return self._raw_at + self.bounce + SLACK
        if not self._down or self.stuck:
            return None
        times = [self.stuck_after]
        if not self._long_sent and self.long_press is not None:
            times.append(self.long_press)
        if not self._long_sent and self._deferred:
            times.append(self.hold)
        return self._down_at + min(times) + SLACK

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


class Cancel(Protocol):
    def cancel(self) -> None: ...


class Timers(Protocol):
    """Calls `action` once, `delay` seconds from now on the timers' clock."""

    def after(self, delay: float, action: Callable[[], None]) -> Cancel: ...


class ThreadTimers:
    """Real time: one `threading.Timer` (a thread living only until it fires or is cancelled)."""

    def after(self, delay: float, action: Callable[[], None]) -> Cancel:
        timer = threading.Timer(delay, action)
        timer.daemon = True
        timer.start()
        return timer


class GpioButton:
    """One gpiozero input (pulled up, to ground when pressed) feeding a `PressLogic`; a timer
    from `timers` is set for the logic's next `due` moment, and for nothing else."""

    def __init__(
        self,
        name: str,
        pin: int,
        logic: PressLogic,
        on_press: Callable[[str, str], None],
        *,
        pin_factory: object | None = None,
        clock: Callable[[], float] = time.monotonic,
        timers: Timers | None = None,
    ) -> None:
        self.name = name
        self.logic = logic
        self._on_press = on_press
        self._clock = clock
        self._timers = timers or ThreadTimers()
        self._timer: Cancel | None = None
        self._lock = threading.Lock()
        self.device = DigitalInputDevice(
            pin, pull_up=True, bounce_time=None, pin_factory=pin_factory
        )
        self.device.when_activated = lambda: self._edge(True)
        self.device.when_deactivated = lambda: self._edge(False)

    @property
    def pressed(self) -> bool:
        """The pin's level now (down = pressed), whatever the logic made of it."""
        return bool(self.device.value)

    def _edge(self, pressed: bool) -> None:
        with self._lock:
            found = self.logic.edge(pressed, self._clock())
            self._schedule()
        self._hand_on(found)

    def tick(self) -> None:
        """Look at the time now (the timer's call; harmless at any other moment)."""
        with self._lock:
            found = self.logic.tick(self._clock())
            self._schedule()
        self._hand_on(found)

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        due = self.logic.due()
        if due is not None:
            self._timer = self._timers.after(max(0.0, due - self._clock()), self.tick)

    def _hand_on(self, found: list[str]) -> None:
        for what in found:
            self._on_press(self.name, what)

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        self.device.close()
