"""The OLED: which picture is up, announcements in turn, the alarm flashing, dimming when idle,
and a display that fails or goes missing reported once and retried until it comes back.

The picture is always drawn (the virtual panel shows it even when no OLED is wired); the device,
when there is one, is opened by an injected `open_device` (luma's ssd1306/sh1106 on a Pi, luma's
dummy device in tests) and only receives frames that differ from the last one it got.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from luma.core.error import Error as LumaError
from PIL import Image

from companion.session.notices import Notice

from .moments import announcements, steady_moment
from .screens import frame

log = logging.getLogger(__name__)

# How long each announcement stays up, in seconds.
HOLD = {"alarm": 6.0, "timer": 5.0, "elimination": 6.0, "card": 8.0, "end_of_turn": 4.0}
PROBLEM_HOLD = 5.0
FLASH = 0.5  # the alarm alternates with its negative this often
RETRY = 5.0  # seconds between attempts to reopen a missing display
DIM_CONTRAST = 16
SLEEP_FACTOR = 5  # off after this many times `dim_after` without input (burn-in)

Device = Any  # a luma device: .display(image), .contrast(level), .hide(), .show()


class Display:
    """The OLED's picture and its device; `show` takes updates, `tick` moves time on."""

    def __init__(
        self,
        open_device: Callable[[], Device] | None,
        *,
        lang: str = "en",
        contrast: int = 200,
        dim_after: float = 120.0,
        address: str = "",
        clock: Callable[[], float] = time.monotonic,
        on_problem: Callable[[Notice | None], None] | None = None,
    ) -> None:
        self._open = open_device
        self._lang = lang
        self._contrast = contrast
        self._dim_after = dim_after
        self._address = address
        self._pin = ""
        self._clock = clock
        self._on_problem = on_problem or (lambda _problem: None)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._update: dict = {"game": None, "view": None, "events": [], "session": {}}
        self._notices: list[dict] = []
        self._seen_notices: list[dict] = []
        self._queue: deque[tuple[str, dict]] = deque()
        self._current: tuple[str, dict, float, float] | None = None
        self._deadline: float | None = None
        self._last_input = clock()
        self._level = "on"
        self._device: Device | None = None
        self._retry_at = 0.0
        self.problem: Notice | None = None
        self.frame: Image.Image = Image.new("1", (128, 64))
        self.frames = 0  # pictures that differed from the one before
        self.pushed = 0  # pictures sent to the device
        self._last_bytes = b""
        self._pushed_bytes = b""
        self._drawn_key: tuple = ()
        self._drawn_picture = self.frame
        if open_device is not None:
            self._reopen(clock())

    # --- inputs -------------------------------------------------------------------------------

    def show(self, update: dict) -> None:
        """Take a public update: queue its announcements, keep it as the steady picture."""
        with self._lock:
            now = self._clock()
            self._update = update
            self._last_input = now
            timer = (update.get("session") or {}).get("timer") or {}
            left = timer.get("left")
            self._deadline = None if left is None else now + float(left)
            self._queue.extend(announcements(update))
            self._note_problems(update)
            self._redraw(now)

    def set_notices(self, notices: list[dict]) -> None:
        """The hardware's own problems (a device missing, as `Notice.as_dict`), shown with the
        session's."""
        with self._lock:
            self._notices = list(notices)
            self._note_problems(self._update)
            self._redraw(self._clock())

    def set_pin(self, pin: str) -> None:
        """The host PIN the join screen shows: whoever has the table in front of him may host."""
        with self._lock:
            self._pin = pin
            self._redraw(self._clock())

    def touched(self) -> None:
        """A button was pressed: wake the display."""
        with self._lock:
            self._last_input = self._clock()
            self._redraw(self._last_input)

    def tick(self) -> None:
        """Move time on: end announcements, flash the alarm, count down, dim, retry the device."""
        with self._lock:
            now = self._clock()
            if self._device is None and self._open is not None and now >= self._retry_at:
                self._reopen(now)
            self._redraw(now)

    def close(self) -> None:
        """Clear and switch off the OLED (the companion is stopping)."""
        with self._lock:
            if self._device is not None:
                self._send(lambda device: device.cleanup(), self._clock())
                self._device = None
            self._open = None

    def wait_frame(self, after: int, timeout: float) -> int:
        """Block until a picture newer than number `after` is drawn (the virtual panel's feed)."""
        with self._changed:
            self._changed.wait_for(lambda: self.frames > after, timeout)
            return self.frames

    @property
    def dimmed(self) -> str:
        """ "on", "dim" or "off": how the OLED is lit now."""
        return self._level

    @property
    def connected(self) -> bool:
        return self._device is not None

    # --- drawing ------------------------------------------------------------------------------

    def _note_problems(self, update: dict) -> None:
        notices = self._all_notices(update)
        fresh = [n for n in notices if n not in self._seen_notices]
        self._seen_notices = notices
        if fresh:
            self._queue.append(("problem", self._with_notices(update)))

    def _all_notices(self, update: dict) -> list[dict]:
        session = update.get("session") or {}
        return [*(session.get("notices") or []), *self._notices]

    def _with_notices(self, update: dict) -> dict:
        session = {**(update.get("session") or {}), "notices": self._all_notices(update)}
        return {**update, "session": session, "address": self._address, "pin": self._pin}

    def _picture(self, now: float) -> Image.Image:
        if self._current is not None and now >= self._current[3]:
            self._current = None
        if self._current is None and self._queue:
            moment, shown = self._queue.popleft()
            hold = PROBLEM_HOLD if moment == "problem" else HOLD[moment]
            self._current = (moment, shown, now, now + hold)
        if self._current is not None:
            moment, shown, since, _until = self._current
            flashed = moment == "alarm" and int((now - since) / FLASH) % 2 == 1
            return self._drawn((moment, id(shown), flashed), moment, shown, flashed)
        update = self._with_notices(self._update)
        left = None
        if self._deadline is not None:
            session = update["session"]
            left = max(0, int(self._deadline - now + 0.999))
            update["session"] = {**session, "timer": {**(session.get("timer") or {}), "left": left}}
        notices = tuple(update["session"]["notices"])
        key = ("steady", id(self._update), notices, left, self._address, self._pin)
        return self._drawn(key, steady_moment(update), update, False)

    def _drawn(self, key: tuple, moment: str, update: dict, flashed: bool) -> Image.Image:
        """The picture for `key`, drawn only when the key changed (nothing is redrawn while
        the table waits)."""
        if key != self._drawn_key:
            picture = frame(moment, update, self._lang)
            self._drawn_picture = picture.point(lambda p: 255 - p) if flashed else picture
            self._drawn_key = key
        return self._drawn_picture

    def _redraw(self, now: float) -> None:
        picture = self._picture(now)
        data = picture.tobytes()
        if data != self._last_bytes:
            self._last_bytes = data
            self.frame = picture
            self.frames += 1
            self._changed.notify_all()
        self._light(now)
        if self._device is not None and data != self._pushed_bytes:
            self._send(lambda device: device.display(picture), now)
            if self._device is not None:
                self._pushed_bytes = data
                self.pushed += 1

    def _light(self, now: float) -> None:
        idle = now - self._last_input
        level = "on"
        if self._dim_after > 0 and idle >= self._dim_after:
            level = "off" if idle >= self._dim_after * SLEEP_FACTOR else "dim"
        if self._current is not None and self._current[0] == "alarm":
            level = "on"
        if level == self._level:
            return
        self._level = level
        if self._device is None:
            return
        if level == "off":
            self._send(lambda device: device.hide(), now)
        else:
            contrast = self._contrast if level == "on" else min(DIM_CONTRAST, self._contrast)
            self._send(lambda device: (device.show(), device.contrast(contrast)), now)

    # --- the device and its faults ------------------------------------------------------------

    def _send(self, action: Callable[[Device], object], now: float) -> None:
        try:
            action(self._device)
        except (LumaError, OSError) as error:
            self._lost(error, now)

    def _reopen(self, now: float) -> None:
        assert self._open is not None
        try:
            device = self._open()
            device.contrast(self._contrast if self._level == "on" else DIM_CONTRAST)
        except (LumaError, OSError) as error:
            self._lost(error, now)
            return
        self._device = device
        self._pushed_bytes = b""
        if self.problem is not None:
            log.warning("OLED back")
            self.problem = None
            self._on_problem(None)

    def _lost(self, error: BaseException, now: float) -> None:
        self._device = None
        self._retry_at = now + RETRY
        if self.problem is None:
            self.problem = Notice("oled_missing")
            log.error("OLED missing or failing (%s); the game goes on, retrying", error)
            self._on_problem(self.problem)
