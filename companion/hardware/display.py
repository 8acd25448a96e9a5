"""The OLED: which picture is up, announcements, the alarm flashing, dimming when idle, the host
PIN on demand, and a display that fails or goes missing reported once and retried until it comes
back lit.

The OLED follows the game as it is now: the announcements of an update (a card, an elimination,
the end of a turn...) are shown in turn, but a later update's announcements replace them, and an
update that moves the game on cuts what is left to at most CATCH_UP seconds. The steady screen
is always drawn from the latest update.

The picture is always drawn (the virtual panel shows it even when no OLED is wired); the device,
when there is one, is opened by an injected `open_device` (`oled.Oled` on a Pi, luma's dummy
device in tests) and receives the frames that differ from the last one it got, plus, every
REFRESH seconds, its set-up and the picture again: an SSD1306 plugged back in wakes dark.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Protocol

from luma.core.error import Error as LumaError
from PIL import Image

from companion.session import NoticeView, SessionPart, TableUpdate
from companion.session.notices import Notice, is_problem

from .moments import announcements, steady_moment
from .screens import frame

log = logging.getLogger(__name__)

# How long each announcement stays up, in seconds, when the game does not move on meanwhile.
HOLD = {"alarm": 6.0, "timer": 5.0, "elimination": 6.0, "card": 8.0, "end_of_turn": 4.0}
PROBLEM_HOLD = 5.0
CATCH_UP = 1.0  # an announcement the game has moved past ends within this
PIN_SECONDS = 15.0
FLASH = 0.5  # the alarm alternates with its negative this often
# The fewest seconds between two pictures of the game's updates. An SSD1306 on I2C at 400 kHz
# takes about 25 ms to receive one, so more than about 30 a second are never seen; a burst of
# taps (eight seats locking in at once) draws the newest picture once a gap instead of one a
# tap, each a Pi Zero's millisecond or more beside the table's requests. An update after a
# quiet while is drawn at once, and so is whatever the table's own buttons ask for.
FRAME_GAP = 0.05
RETRY = 5.0  # seconds before the first attempt to reopen a missing display...
RETRY_MAX = 60.0  # ...doubling up to this
REFRESH = 10.0  # the panel's set-up and picture sent again this often (a replug wakes dark)
ADDRESS_EVERY = 5.0  # the join address worked out again this often while it can be seen
JOIN_STEP = 8.0  # with a hotspot, the Wi-Fi and the address QR codes alternate this often
NUDGE_EVERY = 180.0  # the status bar moves by a pixel this often (burn-in)
DIM_CONTRAST = 16
SLEEP_FACTOR = 5  # off after this many times `dim_after` without input (burn-in)


class Device(Protocol):
    """What the display asks of its device: a luma device (`oled.Oled` on a Pi, luma's dummy
    for tests), or anything else that takes these calls."""

    def display(self, image: Image.Image) -> None: ...
    def contrast(self, level: int) -> None: ...
    def hide(self) -> None: ...
    def show(self) -> None: ...
    def cleanup(self) -> None: ...


Address = str | Callable[[], str]
# A session with nothing to say: no pause, notice, lock-in, undo, lesson or clock.
QUIET_SESSION = SessionPart(
    paused=False,
    notices=[],
    lock_ins=[],
    undone=False,
    rigged=False,
    teaching={"on": False, "taught": []},
    timer=None,
)


class Drawn(TableUpdate, total=False):
    """An update as the steady screen draws it: its session part with the hardware's notices
    and the clock counted down here, and the OLED's own additions."""

    nudge: int  # the status bar's move against burn-in
    address: str  # the join screen's: the address to open
    wifi: dict[str, str]  # and, with a hotspot, its QR text and name
    join_step: int  # which of the join screen's QR codes is up


# What the OLED shows before the first update: no game.
NO_GAME = TableUpdate(
    game=None,
    version=0,
    view=None,
    events=[],
    waiting={},
    session=QUIET_SESSION,
    resync=False,
)


class Display:
    """The OLED's picture and its device; `show` takes updates, `tick` moves time on."""

    def __init__(
        self,
        open_device: Callable[[], Device] | None,
        *,
        lang: str = "",
        contrast: int = 200,
        dim_after: float = 120.0,
        address: Address = "",
        wifi: dict | None = None,
        clock: Callable[[], float] = time.monotonic,
        on_problem: Callable[[Notice | None], None] | None = None,
    ) -> None:
        """`address` is the join address, or a function working it out (asked again every
        ADDRESS_EVERY seconds while the join screen is up); `wifi` the hotspot's QR text and
        name ({"text", "ssid"}) when the companion runs its own Wi-Fi."""
        self._open = open_device
        self._lang = lang
        self._contrast = contrast
        self._dim_after = dim_after
        self._where = address
        self._address = ""
        self._address_at = -1e18
        self._wifi = wifi or {}
        self._pin = ""
        self._pin_until = -1e18
        self._clock = clock
        self._on_problem = on_problem or (lambda _problem: None)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._closed = False
        self._update = NO_GAME
        self._notices: list[NoticeView] = []
        self._seen_notices: list[NoticeView] = []
        self._coming: list[tuple[str, dict]] = []  # the latest update's announcements to show
        self._current: tuple[str, dict, float, float] | None = None
        self._deadline: float | None = None
        self._last_input = clock()
        self._level = "on"
        self._device: Device | None = None
        self._retry_at = 0.0
        self._retry_delay = RETRY
        self._refresh_at = 0.0
        self.problem: Notice | None = None
        self.frame: Image.Image = Image.new("1", (128, 64))
        self.frames = 0  # pictures that differed from the one before
        self.pushed = 0  # pictures sent to the device
        self._last_bytes = b""
        self._pushed_bytes = b""
        self._check: dict | None = None  # the wiring check's screen, over everything else
        self._drawn_key: tuple = ()
        self._drawn_picture = self.frame
        self._drawn_at = -1e18
        self._late = False  # a newer picture waits for the frame gap
        self._paced = False  # the picture being drawn follows the game, not a table's button
        if open_device is not None:
            self._reopen(clock())

    # --- inputs -------------------------------------------------------------------------------

    def show(self, update: TableUpdate) -> None:
        """Take a public update: its announcements replace any still showing; one that moves the
        game on cuts the showing one short; it is the steady picture from now on."""
        with self._lock:
            now = self._clock()
            moved_on = _state(update) != _state(self._update)
            self._update = update
            self._last_input = now
            timer = update["session"]["timer"]
            left = timer["left"] if timer else None
            self._deadline = None if left is None else now + float(left)
            found = announcements(update)
            if found:
                self._coming = found
                self._current = None
            elif moved_on:
                self._catch_up(now)
            self._note_problems(update)
            self._redraw(now, paced=True)

    def set_notices(self, notices: list[NoticeView]) -> None:
        """The hardware's own problems (a device missing, as `Notice.as_dict`), shown with the
        session's."""
        with self._lock:
            self._notices = list(notices)
            self._note_problems(self._update)
            self._redraw(self._clock())

    def set_pin(self, pin: str) -> None:
        """The host PIN `show_pin` shows (never on the join screen: the OLED is public)."""
        with self._lock:
            self._pin = pin

    def show_pin(self, seconds: float = PIN_SECONDS) -> None:
        """Show the host PIN for `seconds` (asked for at the table: a long press of Menu)."""
        with self._lock:
            now = self._clock()
            self._pin_until = now + seconds
            self._last_input = now
            self._redraw(now)

    def show_check(self, screen: dict | None) -> None:
        """The wiring check's screen (its "moment" names it), over the game's; None: back to
        the game."""
        with self._lock:
            self._check = screen
            self._last_input = self._clock()
            self._redraw(self._last_input)

    def touched(self) -> None:
        """A button was pressed: wake the display."""
        with self._lock:
            self._last_input = self._clock()
            self._redraw(self._last_input)

    def tick(self) -> None:
        """Move time on: end announcements, flash the alarm, count down, dim, retry or refresh
        the device."""
        with self._lock:
            now = self._clock()
            if self._device is None and self._open is not None and now >= self._retry_at:
                self._reopen(now)
            self._redraw(now, paced=True)
            if self._device is not None and now >= self._refresh_at:
                self._refresh(now)

    def close(self) -> None:
        """Clear and switch off the OLED, and let its bus go (the companion is stopping); the
        virtual panel's long polls are answered at once rather than held to their end."""
        with self._lock:
            self._closed = True
            self._changed.notify_all()
            if self._device is not None:
                self._send(lambda device: device.cleanup(), self._clock())
                self._device = None
            release = getattr(self._open, "close", None)
            if release is not None:
                release()
            self._open = None

    def wait_frame(self, after: int, timeout: float) -> int:
        """Block until a picture newer than number `after` is drawn (the virtual panel's feed)."""
        with self._changed:
            self._changed.wait_for(lambda: self.frames > after or self._closed, timeout)
            return self.frames

    @property
    def dimmed(self) -> str:
        """ "on", "dim" or "off": how the OLED is lit now."""
        return self._level

    @property
    def busy(self) -> bool:
        """Something on screen moves with time: an announcement, a countdown, the PIN's while."""
        with self._lock:
            return bool(
                self._current
                or self._coming
                or self._deadline is not None
                or self._late
                or self._clock() < self._pin_until
            )

    def due(self) -> float | None:
        """Seconds until a picture held back by the frame gap may be drawn (`tick` draws it),
        None when none waits."""
        with self._lock:
            return max(0.0, self._drawn_at + FRAME_GAP - self._clock()) if self._late else None

    @property
    def connected(self) -> bool:
        return self._device is not None

    # --- what is shown ------------------------------------------------------------------------

    def _catch_up(self, now: float) -> None:
        """The game moved on: what is left of the announcements ends within CATCH_UP."""
        self._coming = []
        if self._current is not None:
            moment, shown, since, until = self._current
            self._current = (moment, shown, since, min(until, now + CATCH_UP))

    def _note_problems(self, update: TableUpdate) -> None:
        notices = self._all_notices(update)
        fresh = [n for n in notices if n not in self._seen_notices and is_problem(n["code"])]
        self._seen_notices = notices
        if fresh:
            self._coming.append(("problem", {}))

    def _all_notices(self, update: TableUpdate) -> list[NoticeView]:
        """The session's notices and the hardware's; the OLED's own state is its own (the
        session may still carry an "OLED missing" the display has since cleared)."""
        session = [
            n
            for n in update["session"]["notices"]
            if n["code"] != "oled_missing" or self.problem is not None
        ]
        return [*session, *(n for n in self._notices if n not in session)]

    def _problems(self, update: TableUpdate) -> list[NoticeView]:
        """The notices that are problems (news such as a seat asked for is no problem)."""
        return [n for n in self._all_notices(update) if is_problem(n["code"])]

    def _with_notices(self, update: TableUpdate, now: float) -> Drawn:
        session: SessionPart = {**update["session"], "notices": self._all_notices(update)}
        return {**update, "session": session, "nudge": int(now // NUDGE_EVERY)}

    def _announcement(self, now: float) -> tuple[str, dict, float] | None:
        """The announcement up now, if any: the current one until its time is up, then the
        next; a problem screen only while a problem (not news) remains."""
        while True:
            if self._current is not None and now < self._current[3]:
                moment, shown, since, _until = self._current
                if moment != "problem" or self._problems(self._update):
                    return moment, shown, since
            self._current = None
            if not self._coming:
                return None
            moment, shown = self._coming.pop(0)
            hold = PROBLEM_HOLD if moment == "problem" else HOLD[moment]
            self._current = (moment, shown, now, now + hold)

    def _picture(self, now: float) -> Image.Image:
        check = self._check
        if check is not None:
            return self._drawn(now, ("check", id(check)), check["moment"], check, False)
        up = self._announcement(now)
        if up is not None:
            moment, shown, since = up
            if moment == "problem":
                problems = self._problems(self._update)
                told: TableUpdate = {
                    **self._update,
                    "session": {**self._update["session"], "notices": problems},
                }
                key: tuple = ("problem", tuple(map(str, problems)))
                return self._drawn(now, key, moment, told, False)
            flashed = moment == "alarm" and int((now - since) / FLASH) % 2 == 1
            return self._drawn(now, (moment, id(shown), flashed), moment, shown, flashed)
        if now < self._pin_until:
            return self._drawn(now, ("pin", self._pin), "pin", {"pin": self._pin}, False)
        update = self._with_notices(self._update, now)
        moment = steady_moment(self._update)  # the notices added play no part in it
        if moment == "join":
            update = self._join(update, now)
        left = None
        session, timer = update["session"], update["session"]["timer"]
        if self._deadline is not None and timer is not None:  # the deadline is the timer's
            left = max(0, int(self._deadline - now + 0.999))
            update["session"] = {**session, "timer": {**timer, "left": left}}
        notices = tuple(map(str, update["session"]["notices"]))
        key = ("steady", id(self._update), notices, left, update["nudge"])
        key += (update.get("address"), update.get("join_step"))
        return self._drawn(now, key, moment, update, False)

    def _join(self, update: Drawn, now: float) -> Drawn:
        """The join screen's address (worked out again every ADDRESS_EVERY seconds) and, with a
        hotspot, which of the two QR codes is up."""
        if callable(self._where):
            if now >= self._address_at:
                self._address_at = now + ADDRESS_EVERY
                try:
                    self._address = self._where()
                except Exception:  # a failing look-up keeps the last address, never the screen
                    log.exception("the join address could not be worked out")
        else:
            self._address = self._where
        step = int(now // JOIN_STEP) if self._wifi.get("text") else 1
        return {**update, "address": self._address, "wifi": self._wifi, "join_step": step}

    def _drawn(
        self, now: float, key: tuple, moment: str, update: Mapping[str, object], flashed: bool
    ) -> Image.Image:
        """The picture for `key`, drawn only when the key changed (nothing is redrawn while
        the table waits), and for an update no sooner than FRAME_GAP after the last one."""
        self._late = False
        if key != self._drawn_key:
            if self._paced and now < self._drawn_at + FRAME_GAP:
                self._late = True
                return self._drawn_picture
            picture = frame(moment, dict(update), self._lang)
            self._drawn_picture = picture.point(lambda p: 255 - p) if flashed else picture
            self._drawn_key = key
            self._drawn_at = now
        return self._drawn_picture

    def _redraw(self, now: float, paced: bool = False) -> None:
        """The picture of `now` sent where it goes; `paced`: the game's (an update, the time),
        held back until FRAME_GAP after the last picture drawn."""
        self._paced = paced
        picture = self._picture(now)
        if picture is not self.frame:
            data = picture.tobytes()
            if data != self._last_bytes:
                self._last_bytes = data
                self.frames += 1
                self._changed.notify_all()
            self.frame = picture
        self._light(now)
        if self._device is not None and self._last_bytes != self._pushed_bytes:
            self._push(picture, now)

    def _push(self, picture: Image.Image, now: float) -> None:
        self._send(lambda device: device.display(picture), now)
        if self._device is not None:
            self._pushed_bytes = self._last_bytes
            self.pushed += 1

    def _wanted_level(self, now: float) -> str:
        idle = now - self._last_input
        if self._current is not None and self._current[0] == "alarm":
            return "on"
        if self._dim_after <= 0 or idle < self._dim_after:
            return "on"
        if idle < self._dim_after * SLEEP_FACTOR or steady_moment(self._update) == "join":
            return "dim"  # the join screen stays readable for whoever comes late
        return "off"

    def _light(self, now: float) -> None:
        level = self._wanted_level(now)
        if level == self._level:
            return
        self._level = level
        if self._device is not None:
            self._send(self._apply_level, now)

    def _apply_level(self, device: Device) -> None:
        if self._level == "off":
            device.hide()
        else:  # the contrast first: a panel that woke dark lights at its level, not the last
            device.contrast(self._contrast if self._level == "on" else DIM_CONTRAST)
            device.show()

    # --- the device and its faults ------------------------------------------------------------

    def _send(self, action: Callable[[Device], object], now: float) -> None:
        device = self._device
        if device is None:  # its callers ask first; one lost since is sent nothing
            return
        try:
            action(device)
        except (LumaError, OSError) as error:
            self._lost(error, now)

    def _refresh(self, now: float) -> None:
        """Send the set-up, the light level and the picture again: a panel unplugged and plugged
        back while nothing changed woke dark, with noise in its memory."""
        self._refresh_at = now + REFRESH
        set_up = getattr(self._open, "set_up", None)
        if set_up is not None:
            self._send(set_up, now)
        if self._device is not None:
            self._send(self._apply_level, now)
        if self._device is not None:
            self._push(self.frame, now)

    def _reopen(self, now: float) -> None:
        assert self._open is not None
        try:
            device = self._open()
            self._apply_level(device)
        except (LumaError, OSError) as error:
            self._lost(error, now)
            return
        self._device = device
        self._pushed_bytes = b""
        self._retry_delay = RETRY
        self._refresh_at = now + REFRESH
        if self.problem is not None:
            log.warning("OLED back")
            self.problem = None
            self._on_problem(None)

    def _lost(self, error: BaseException, now: float) -> None:
        self._device = None
        self._retry_at = now + self._retry_delay
        self._retry_delay = min(RETRY_MAX, self._retry_delay * 2)
        if self.problem is None:
            self.problem = Notice("oled_missing")
            log.error("OLED missing or failing (%s); the game goes on, retrying", error)
            self._on_problem(self.problem)


def _state(update: TableUpdate) -> tuple:
    """What makes the game's steady picture: a change of it means the game moved on."""
    session = update["session"]
    view = update["view"]
    return (
        update["game"],
        update["version"],
        repr(update["waiting"]),
        session["paused"],
        tuple(session["lock_ins"]),
        repr(view.get("outcome") if view else None),
    )
