"""The Pi at the table put together: it listens to the session's public updates and feeds the
display, the buzzer, the seat LEDs and the serial panel; the buttons' presses go back to the
session. Backends are chosen once, here, and injected: "pi" (the header, luma.oled, the USB
panel), "virtual" (the browser's virtual panel only) or "mock" (gpiozero's MockFactory and
luma's dummy device, for tests and benchmarks).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, TypedDict, Unpack

import serial
from luma.core.device import dummy

from companion.config import Config
from companion.lan import join_address, join_host, wifi_join_text
from companion.session import NoticeView, Session, TableUpdate
from companion.session.notices import Notice
from companion.session.replies import Reply

from .buttons import GpioButton, PressLogic, Timers
from .buzzer import Active, Buzzer, Output, Tonal
from .check import Check, CheckOptions
from .display import Address, Device, Display
from .leds import SeatLeds, seat_lights
from .oled import Oled
from .patterns import patterns_for
from .pins import PinFactoryError, mock_factory, pi_factory
from .screens import game_seats
from .serial_panel import SerialPanel, port_opener
from .words import name_of, word

if TYPE_CHECKING:  # the voice is started beside the table, never by it
    from companion.voice.voice import Voice

log = logging.getLogger(__name__)

KINDS = ("pi", "virtual", "mock")
CONTROL_BUTTONS = ("next", "back", "menu")
LAST_SECONDS = 5
BUSY_TICK = 0.1  # seconds between ticks while something moves (a countdown, an announcement)
IDLE_TICK = 1.0  # ...and while the table waits (dimming and the join address need no more)


# What each output says when it cannot show an update: its problem in words.
FAILED: dict[str, Callable[[str], Notice]] = {
    "oled": lambda problem: Notice("oled_failed", {"problem": problem}),
    "buzzer": lambda problem: Notice("buzzer_failed", {"problem": problem}),
    "leds": lambda problem: Notice("leds_failed", {"problem": problem}),
    "panel": lambda problem: Notice("panel_failed", {"problem": problem}),
}


def panel_text(update: TableUpdate | None, lang: str) -> str:
    """The serial panel's one line: the turn and whose action it is, or the phase."""
    view = update["view"] if update else None
    if not view:
        return word(lang, "no_game")
    waiting = update["waiting"] if update else {}
    head = word(lang, "turn", n=view.get("turn", 1))
    if view.get("outcome"):
        return word(lang, "game_over")
    if waiting.get("phase") in ("action", "choice"):
        return f"{head} {name_of(waiting.get('character') or view.get('current'))}"
    if waiting.get("phase") == "programming":
        return f"{head} {word(lang, 'ready', n=len(waiting.get('locked_in') or []))}"
    return head


class Hardware:
    """The running devices. Start it with `start_hardware`; `close()` stops every thread."""

    def __init__(
        self,
        session: Session,
        config: Config,
        kind: str,
        *,
        address: Address | None = None,
        port: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        open_display: Callable[[], Device] | None = None,
        pin_factory: object = None,
        panel_opener: Callable[[], serial.SerialBase] | None = None,
        timers: Timers | None = None,
    ) -> None:
        """`open_display`, `pin_factory` and `panel_opener` replace the kind's own backends
        (tests and benchmarks); `clock` times presses, announcements and the time limit, and
        `timers` (on the same clock) wake the buttons for a hold.
        `address` fixes the join address (else it is worked out again while the join screen
        is up, for `port`, the port served)."""
        if kind not in KINDS:
            raise ValueError(f"hardware kind must be one of {', '.join(KINDS)}, not {kind!r}")
        self.session = session
        self.config = config
        self.kind = kind
        self.lang = config.table.language
        self._clock = clock
        self._timers = timers
        self._why: list[str] = []
        self._problems: dict[str, Notice] = {}
        self._inputs: queue.SimpleQueue = queue.SimpleQueue()
        self._stop = threading.Event()
        self._previous: TableUpdate | None = None
        self._deadline: float | None = None
        self._warned: set[int] = set()
        self.lights: dict[str, str] = {}
        self.seats: list[str] = []  # the seats of the game on the table (none: no game)
        self.voice: Voice | None = None  # set_voice: the voice a short Back mutes
        self.check: Check | None = None  # the wiring check walking the table, if one is
        self._owner = threading.RLock()  # held while deciding whether the game or a check lights
        self.factory = pin_factory if pin_factory is not None else self._pin_factory()
        self.display = Display(
            open_display if open_display is not None else self._display_opener(),
            lang=self.lang,
            contrast=config.display.contrast,
            dim_after=config.display.dim_after,
            address=address or self._join_address(port or config.web.port),
            wifi=self._wifi(),
            clock=clock,
            on_problem=partial(self._problem, "display"),
        )
        self.display.set_notices(self._problem_notices())
        self.buzzer = Buzzer(self._buzzer_output(), mute=config.buzzer.mute, clock=clock)
        self.buttons = self._buttons()
        self.leds = self._leds()
        self.panel = self._panel(panel_opener)
        self._listener = session.listen("public")
        self._threads = [
            threading.Thread(target=self._updates, name="room25-hardware", daemon=True),
            threading.Thread(target=self._presses, name="room25-presses", daemon=True),
        ]
        self._on_update(session.snapshot("public"))
        for thread in self._threads:
            thread.start()

    # --- choosing backends ----------------------------------------------------------------

    def _pin_factory(self) -> object:
        if self.kind == "mock":
            self._why.append("GPIO: gpiozero MockFactory")
            return mock_factory()
        if self.kind == "virtual":
            self._why.append("GPIO: none (virtual panel)")
            return None
        try:
            factory = pi_factory(self.config.buttons.pin_factory)
        except PinFactoryError as error:
            log.error("GPIO unavailable: %s; the buttons, LEDs and buzzer are off", error)
            self._why.append(f"GPIO: none ({error})")
            self._problem("gpio", Notice("gpio_unavailable"))
            return None
        self._why.append(f"GPIO: {type(factory).__name__}")
        return factory

    def _display_opener(self) -> Callable[[], Device] | None:
        settings = self.config.display
        if self.kind == "virtual" or settings.driver == "none":
            self._why.append("OLED: none (virtual panel)")
            return None
        if self.kind == "mock":
            self._why.append("OLED: luma dummy")
            return lambda: dummy(width=128, height=64, mode="1")
        self._why.append(
            f"OLED: {settings.driver} at 0x{settings.address:02X} on I2C bus {settings.i2c_port}"
        )
        return Oled(settings.driver, settings.i2c_port, settings.address, settings.rotation)

    def _join_address(self, port: int) -> Callable[[], str]:
        """The address phones open, worked out again each time (the Wi-Fi may come up after
        the companion; `[web] public_address` overrides it)."""
        public = getattr(self.config.web, "public_address", "")
        return lambda: join_address(port, join_host(public))

    def _wifi(self) -> dict | None:
        """The hotspot's join QR text and name, when the companion runs its own Wi-Fi."""
        hotspot = getattr(self.config, "hotspot", None)
        ssid = getattr(hotspot, "ssid", "")
        if not ssid:
            return None
        return {"text": wifi_join_text(ssid, getattr(hotspot, "password", "")), "ssid": ssid}

    def _buzzer_output(self) -> Output | None:
        settings = self.config.buzzer
        if self.factory is None or settings.kind == "none":
            self._why.append("buzzer: in the browser")
            return None
        try:
            if settings.kind == "passive":
                output: Output = Tonal(settings.pin, settings.volume, pin_factory=self.factory)
            else:
                output = Active(settings.pin, pin_factory=self.factory)
        except Exception as error:  # gpiozero raises many kinds (pin in use, no PWM, ...)
            self._why.append(f"buzzer: none ({error})")
            self._problem("buzzer", Notice("buzzer_missing"))
            return None
        self._why.append(f"buzzer: {settings.kind} on GPIO{settings.pin}")
        return output

    def _buttons(self) -> list[GpioButton]:
        if self.factory is None:
            return []
        settings = self.config.buttons
        found = []
        pins: list[tuple[str, int, float | None]]
        pins = [(str(i + 1), pin, None) for i, pin in enumerate(settings.seats)]
        pins += [(name, getattr(settings, name), settings.long_press) for name in CONTROL_BUTTONS]
        for name, pin, long_press in pins:
            logic = PressLogic(settings.bounce, long_press)
            if long_press is None:  # a seat: held 3 s while a phone asks for it, gives it
                logic.defer = partial(self._asked, name)
            try:
                button = GpioButton(
                    name,
                    pin,
                    logic,
                    self._pressed,
                    pin_factory=self.factory,
                    clock=self._clock,
                    timers=self._timers,
                )
            except Exception as error:  # gpiozero: a pin in use or not on this board
                log.error("button %s on GPIO%s unavailable: %s", name, pin, error)
                self._problem(f"button {name}", Notice("button_unavailable", {"button": name}))
            else:
                found.append(button)
        self._why.append(f"buttons: {len(settings.seats)} seats and next/back/menu")
        return found

    def _leds(self) -> SeatLeds | None:
        if self.factory is None:
            return None
        pins = {str(i + 1): pin for i, pin in enumerate(self.config.buttons.leds)}
        try:
            return SeatLeds(pins, pin_factory=self.factory)
        except Exception as error:  # gpiozero: a pin in use or not on this board
            log.error("seat LEDs unavailable: %s", error)
            self._problem("leds", Notice("leds_unavailable"))
            return None

    def _panel(self, opener: Callable[[], serial.SerialBase] | None) -> SerialPanel | None:
        settings = self.config.panel
        searching = False
        if opener is None:
            if not settings.port and self.kind != "pi":
                self._why.append("serial panel: none")
                return None
            searching = not settings.port
            opener = port_opener(settings.port, settings.usb_id, settings.baud)
        where = settings.port or f"USB id {settings.usb_id}"
        self._why.append(f"serial panel: {'looking for ' if searching else ''}{where}")
        return SerialPanel(
            opener,
            self._panel_pressed,
            partial(self._problem, "panel"),
            quiet_until_found=searching,
        )

    def start_check(self, **options: Unpack[CheckOptions]) -> Check | str:
        """Walk the table's parts (`check.Check`, `options` its timers, seconds and listeners),
        or the catalogue key of the refusal: while a game runs, or another check does. No
        press reaches the game meanwhile."""
        view = self.session.snapshot("public")["view"]
        if view and not view.get("outcome"):
            return "check_game_on"
        with self._owner:
            if self.check is not None:
                return "check_already"
            check = self.check = Check(self, **options)
        check.start()
        return check

    def show_check_lights(self, lights: dict[str, str]) -> None:
        """The lights the check lit (the seats found so far)."""
        with self._owner:
            self._show_lights(lights, None)

    def end_check(self) -> None:
        """The check is over: the display, the lights and the inputs are the game's again."""
        with self._owner:
            self.check = None
            self.display.show_check(None)
            previous = self._previous
            self._show_lights(seat_lights(previous) if previous else {}, previous)

    def set_pin(self, pin: str) -> None:
        """The host PIN, shown on the OLED only when asked for (a long press of Menu)."""
        self.display.set_pin(pin)

    def describe(self) -> str:
        """One log line: which backends run, and why."""
        return f"hardware {self.kind}: " + "; ".join(self._why)

    # --- presses --------------------------------------------------------------------------

    def _asked(self, seat: str) -> bool:
        return seat in self.session.pending_seats()

    def _pressed(self, button: str, what: str) -> None:
        """From gpiozero's threads: queue it, the session is called from our own thread."""
        self._inputs.put((button, what, "gpio"))

    def _panel_pressed(self, button: str, long: bool) -> None:
        """From the serial panel's thread (it debounced already): queue it like the others."""
        self._inputs.put((button, "long" if long else "press", "panel"))

    def _checked(self, source: str, button: str, what: str) -> bool:
        """Whether a running wiring check took the press (then the game never sees it)."""
        check = self.check
        return check is not None and check.take(source, button, what)

    def press(self, seat: str) -> Reply:
        """A seat button pressed (the virtual panel's, from a web thread): the session's reply."""
        self.display.touched()
        if self._checked("virtual", seat, "press"):
            return Reply(ok=True)
        return self.session.press_seat(seat)

    def hold(self, seat: str) -> Reply:
        """A seat button held 3 s: gives the seat to the phone asking for it (the session's
        reply; refused when no phone asks)."""
        self.display.touched()
        if self._checked("virtual", seat, "press"):
            return Reply(ok=True)
        return self.session.hold_seat(seat)

    def set_voice(self, voice: Voice) -> None:
        """The voice this table speaks with: a short press of Back mutes it or speaks again."""
        self.voice = voice

    def control(self, button: str, long: bool = False) -> Reply:
        """A control button pressed: next, back or menu, short or long. Menu held shows the host
        PIN on the OLED for a while and goes no further (a short Menu pauses or resumes); a short
        Back mutes the voice or speaks again (held, it undoes), a notice telling the table."""
        self.display.touched()
        if self._checked("virtual", button, "long" if long else "short"):
            return Reply(ok=True)
        if button == "menu" and long:
            self.display.show_pin()
            return Reply(ok=True)
        if button == "back" and not long and self.voice is not None:
            self.voice.toggle_mute()
            return Reply(ok=True)
        return self.session.control(button, long)

    def _presses(self) -> None:
        while True:
            item = self._inputs.get()
            if item is None:
                return
            button, what, source = item
            if self._checked(source, button, what):
                continue
            if what == "stuck":
                self._problem(f"button {button}", Notice("button_stuck", {"button": button}))
                continue
            if what == "released":
                self._problem(f"button {button}", None)
                continue
            try:
                if button in CONTROL_BUTTONS:
                    reply = self.control(button, what == "long")
                elif what in ("hold", "long"):
                    reply = self.hold(button)
                else:
                    reply = self.press(button)
            except Exception:  # a press must never kill the thread that hands presses on
                log.exception("press of %s %s failed", button, what)
                continue
            if button in CONTROL_BUTTONS and not getattr(reply, "ok", True):
                # A seat's refusal may tell a private fact ("Program Emmett before locking in"):
                # it goes to that seat's phone only, never to the log.
                log.info("button %s: %s", button, getattr(reply, "text", reply))

    # --- updates --------------------------------------------------------------------------

    def _updates(self) -> None:
        while not self._stop.is_set():
            busy = self._deadline is not None or self.display.busy
            wait, due = BUSY_TICK if busy else IDLE_TICK, self.display.due()
            update = self._listener.get(timeout=wait if due is None else min(wait, due))
            try:
                if update is not None:
                    self._on_update(update)
                self._tick()
            except Exception:  # keep the table's devices alive whatever one update holds
                log.exception("hardware update failed")

    def _on_update(self, update: TableUpdate) -> None:
        """Each output follows the update on its own: one that fails (the OLED's font cannot be
        read, a serial write) is logged and tries again at the next update, the others go on.
        While the wiring check runs, the buzzer and the lights are the check's."""
        self._output("oled", partial(self.display.show, update))
        with self._owner:
            check = self.check
            if check is None:
                for name in patterns_for(update, self._previous):
                    self._output("buzzer", partial(self.buzzer.play, name))
                self._show_lights(seat_lights(update), update)
            self._previous = update
        view = update["view"]
        self.seats = game_seats(view) if view and update["game"] else []
        if check is not None and update.get("view"):
            check.cancel()  # a game began: the buttons, lights and display are the game's again

    def _show_lights(self, lights: dict[str, str], update: TableUpdate | None) -> None:
        """The seat LEDs, the virtual panel's and the serial panel's lights and line."""
        self.lights = lights
        if self.leds is not None:
            self._output("leds", partial(self.leds.show, lights))
        if self.panel is not None:
            self._output("panel", partial(self.panel.show, lights, panel_text(update, self.lang)))
        timer = update["session"]["timer"] if update else None
        left = timer["left"] if timer else None
        paused = update["session"]["paused"] if update else False
        waiting = update["waiting"] if update else {}
        if left is not None and not paused and waiting.get("phase") == "programming":
            deadline = self._clock() + float(left)
            if self._deadline is None or abs(deadline - self._deadline) > 1.5:
                self._warned = {s for s in self._marks() if float(left) <= s}
            self._deadline = deadline
        else:
            self._deadline = None

    def _output(self, output: str, show: Callable[[], object]) -> None:
        """One output's part of an update (or of a tick); a failure is said once (logged, and
        its FAILED notice with the problem) and tried again at the next, until it works."""
        key = f"{output} failed"
        try:
            show()
        except Exception as error:  # keep the other outputs going whatever this one holds
            if key in self._problems:
                return
            if isinstance(error, OSError):  # a file or device the system refused
                log.warning("%s: cannot show the game (%s); it tries again", output, error)
                problem = error.strerror or str(error)
            else:
                log.exception("%s: cannot show the game; it tries again", output)
                problem = type(error).__name__
            self._problem(key, FAILED[output](problem))
        else:
            if key in self._problems:
                log.info("%s: shows the game again", output)
                self._problem(key, None)

    def time_left(self) -> float | None:
        """Seconds left to program when a time limit runs (as the hardware counts them)."""
        deadline = self._deadline
        return None if deadline is None else deadline - self._clock()

    def _marks(self) -> list[int]:
        return [int(self.config.table.warning), *range(LAST_SECONDS, 0, -1)]

    def _tick(self) -> None:
        self._output("oled", self.display.tick)
        if self._deadline is None:
            return
        left = self._deadline - self._clock()
        marks = self._marks()
        for mark in marks:
            if left <= mark and mark not in self._warned:
                self._warned.add(mark)
                self.buzzer.play("warning" if mark == marks[0] else "last_seconds")

    def _problem(self, key: str, notice: Notice | None) -> None:
        """A device missing or back: logged by its owner, shown on the OLED and the phones."""
        if notice is None:
            self._problems.pop(key, None)
        else:
            self._problems[key] = notice
        if hasattr(self, "display"):
            try:
                self.display.set_notices(self._problem_notices())
            except OSError as error:  # an OLED that cannot draw: the phones still get it
                log.warning("oled: the notices could not be shown (%s)", error)
        set_notice = getattr(self.session, "set_notice", None)
        if set_notice is not None:
            # On its own thread: the session may be waiting on this very thread's listener.
            teller = threading.Thread(
                target=self._tell_session, args=(set_notice, key, notice), daemon=True
            )
            teller.start()

    def _problem_notices(self) -> list[NoticeView]:
        return [notice.as_dict() for notice in self._problems.values()]

    @staticmethod
    def _tell_session(
        set_notice: Callable[[str, Notice | None], None], key: str, notice: Notice | None
    ) -> None:
        try:
            set_notice(f"hardware:{key}", notice)
        except Exception:  # a closing session: the log already has the problem
            log.debug("could not pass %s to the session", key, exc_info=True)

    def close(self) -> None:
        """Stop the threads, silence the buzzer, release the pins and ports."""
        self._stop.set()
        self._inputs.put(None)
        for thread in self._threads:
            thread.join(timeout=2)
        self._listener.close()
        self.display.close()
        self.buzzer.close()
        for button in self.buttons:
            button.close()
        if self.leds is not None:
            self.leds.close()
        if self.panel is not None:
            self.panel.close()


class HardwareOptions(TypedDict, total=False):
    """What `start_hardware` may be given besides the kind: the keywords of `Hardware`, so a
    caller passing one it does not take, or of another type, fails the type check."""

    address: Address | None
    port: int | None
    clock: Callable[[], float]
    open_display: Callable[[], Device] | None
    pin_factory: object
    panel_opener: Callable[[], serial.SerialBase] | None
    timers: Timers | None


def start_hardware(
    session: Session, config: Config, kind: str, **options: Unpack[HardwareOptions]
) -> Hardware:
    """Start the table's devices for `kind` ("pi", "virtual" or "mock")."""
    return Hardware(session, config, kind, **options)
