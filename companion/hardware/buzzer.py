"""The buzzer: patterns played on a worker thread so nothing ever waits for a tune.

A passive buzzer is a gpiozero `TonalBuzzer` (each note its frequency, the volume its PWM duty
cycle); an active one a gpiozero `Buzzer` (on for a note, off for a rest). Every pattern played
is also numbered in `played`, which the virtual panel plays in the browser with Web Audio.

After every note and on close the pin is written low. Stopping a tone is not enough: on the
lgpio factory (the default, the only one on a Pi 5) `TonalBuzzer.stop()` becomes
`tx_pwm(h, pin, 0, 0)`, which drops the PWM without writing the line, so the pin may stay high,
the transistor on and a magnetic buzzer's coil carrying DC until the next note.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

from gpiozero import Buzzer as ActiveBuzzer
from gpiozero import TonalBuzzer
from gpiozero.tones import Tone

from .patterns import PATTERNS

log = logging.getLogger(__name__)

MAX_WAITING = 4  # patterns queued behind the one playing; more are dropped (never block)
# Semitones up from the patterns' pitches (the virtual panel's) to the hardware's: the tunes'
# middle, about 500 Hz, lands near 2 kHz, where small magnetic transducers resonate (2-2.3 kHz)
# and are loudest; below 1 kHz they are faint.
TRANSPOSE = 24


class Output(Protocol):
    def note(self, name: str | None) -> None: ...
    def close(self) -> None: ...


class Tonal:
    """A passive buzzer on a PWM pin; `volume` (0-1) sets the duty cycle, 1 being 50 %. Notes
    sound `TRANSPOSE` semitones above the patterns' names."""

    def __init__(self, pin: int, volume: float, pin_factory: object | None = None) -> None:
        self.device = TonalBuzzer(
            pin, mid_tone=Tone("A4").up(TRANSPOSE), octaves=2, pin_factory=pin_factory
        )
        self.volume = max(0.0, min(1.0, volume))

    def note(self, name: str | None) -> None:
        if name is None:
            self.device.stop()
            self.device.pwm_device.off()  # the stop left the line where the PWM had it
            return
        self.device.play(Tone(name).up(TRANSPOSE))
        self.device.pwm_device.value = 0.5 * self.volume

    def close(self) -> None:
        self.note(None)
        self.device.close()


class Active:
    """An active buzzer (it makes its own tone): on for a note, off for a rest."""

    def __init__(self, pin: int, pin_factory: object | None = None) -> None:
        self.device = ActiveBuzzer(pin, pin_factory=pin_factory)

    def note(self, name: str | None) -> None:
        if name is None:
            self.device.off()
        else:
            self.device.on()

    def close(self) -> None:
        self.device.off()
        self.device.close()


class Buzzer:
    """Plays named patterns without blocking; `played` numbers them for the virtual panel."""

    def __init__(
        self,
        output: Output | None,
        *,
        mute: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.output = output
        self.mute = mute
        self._clock = clock
        self._waiting: queue.Queue[str | None] = queue.Queue(MAX_WAITING)
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._pin = threading.Lock()  # the worker's notes and close() take turns on the pin
        self._closed = False
        self.played: deque[tuple[int, str]] = deque(maxlen=32)
        self.count = 0
        self.started = (0, 0.0)  # how many patterns started on the pin, and when the last did
        self._thread: threading.Thread | None = None
        if output is not None:
            self._thread = threading.Thread(target=self._run, name="room25-buzzer", daemon=True)
            self._thread.start()

    def play(self, name: str) -> None:
        """Queue a pattern (unknown names are a programming error: KeyError)."""
        PATTERNS[name]
        if self.mute:
            return
        with self._lock:
            self.count += 1
            self.played.append((self.count, name))
        if self.output is not None:
            try:
                self._waiting.put_nowait(name)
            except queue.Full:
                log.info("buzzer busy: %s dropped", name)

    def since(self, after: int) -> list[tuple[int, str]]:
        """The patterns numbered above `after` (the virtual panel's poll)."""
        with self._lock:
            return [(n, name) for n, name in self.played if n > after]

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            # Wakes a worker waiting for a pattern; a busy one sees the stop after its note, and
            # a full queue must not block the shutdown.
            with contextlib.suppress(queue.Full):
                self._waiting.put_nowait(None)
            self._thread.join(timeout=2)
        if self.output is not None:
            with self._pin:
                self._closed = True
                self.output.close()  # written low, then released

    def _run(self) -> None:
        assert self.output is not None
        while not self._stop.is_set():
            name = self._waiting.get()
            if name is None:
                return
            self.started = (self.started[0] + 1, self._clock())
            for note, seconds in PATTERNS[name]:
                if not self._sound(note):
                    break
                self._stop.wait(seconds)
            self._sound(None)

    def _sound(self, note: str | None) -> bool:
        """Play a note (None: silence, the pin low) unless the buzzer is stopping or closed."""
        assert self.output is not None
        with self._pin:
            if self._closed or (note is not None and self._stop.is_set()):
                return False
            self.output.note(note)
            return True
