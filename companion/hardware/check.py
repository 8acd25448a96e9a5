"""The wiring check from the box (`room25 check`, the host page's "Check the table", the virtual
panel): one part at a time, as a flight unit's self-test walks its builder through every sensor.

The OLED shows its test pattern and I2C address; each seat button is asked for in turn (its LED
lights and the OLED ticks it), then Next, Back and Menu; the buzzer plays its notes; the speaker
says a phrase at the set volume; the serial panel is asked for its handshake, then each of its
buttons (its lights follow). A button that reads pressed at rest, or a press that comes on
another button's pin, is named. Each part ends in one line of plain words (English or French,
from the message catalogue); a part that is absent is said so.

The walk is a state machine fed by presses (`take`) and by timers: nothing here waits or polls.
A step asking for a press ends after `step_seconds` with "no press seen", so a headless table
never hangs; the timers are injected (`buttons.Timers`), and tests move them with their clock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypedDict

from companion.config import Config
from companion.words import joined, text, texts

from .buttons import Cancel, GpioButton, ThreadTimers, Timers
from .buzzer import Buzzer
from .display import Display
from .leds import SeatLeds
from .patterns import PATTERNS
from .serial_panel import SerialPanel

if TYPE_CHECKING:  # the voice is started beside the table, never by it
    from companion.voice.voice import Voice

STEP_SECONDS = 10.0  # a button not pressed within this: "no press seen"
SHOW_SECONDS = 2.5  # the test pattern, the buzzer's notes and the phrase are given this long
SUMMARY_SECONDS = 15.0  # the summary stays on the OLED this long (or until a press)
HELLO_LOOK = 0.5  # seconds between looks for the serial panel's handshake
CONTROLS = ("next", "back", "menu")
SOURCES = ("gpio", "panel", "virtual")  # where a press comes from


@dataclass(frozen=True)
class Part:
    """One line of the check: which part, how it went, and its words (a catalogue key with its
    values; a value naming a button is a button id, put into words in the reader's language)."""

    name: str
    status: str  # "ok", "fault" (to look at) or "absent" (not wired, said so)
    key: str
    values: dict = field(default_factory=dict)

    def text(self, lang: str) -> str:
        values = {
            k: label(lang, v) if k in ("button", "other") else v for k, v in self.values.items()
        }
        line = text(lang, self.key, **values)
        return line[:1].upper() + line[1:]


def label(lang: str, button: str) -> str:
    """A button id in words: "3" seat 3, "next", "panel:3" seat 3 on the serial panel."""
    table = texts(lang)
    source, _, name = button.rpartition(":")
    words = table[f"check_{name}"] if name in CONTROLS else text(lang, "check_seat", n=name)
    return text(lang, "check_on_panel", button=words) if source == "panel" else words


@dataclass
class Step:
    """One step of the walk: what it shows and asks, and how it begins."""

    name: str
    screen: dict  # the OLED's check screen: {"verb", "what", "n"}
    prompt: tuple[str, dict]  # the words asking for it (catalogue key, values)
    begin: Callable[[], None]
    wants: str | None = None  # the button id a press step waits for
    source: str = ""

    def text(self, lang: str) -> str:
        """What the step asks, in words ("Press seat 3."), for the host page and the terminal."""
        key, values = self.prompt
        return text(
            lang, key, **{k: label(lang, v) if k == "button" else v for k, v in values.items()}
        )


class CheckOptions(TypedDict, total=False):
    """What a check may be started with (`Hardware.start_check`): the keywords of `Check`."""

    timers: Timers | None
    step_seconds: float
    show_seconds: float
    summary_seconds: float
    on_part: Callable[[Part], None] | None
    on_step: Callable[[Step], None] | None
    on_end: Callable[[], None] | None


class Rig(Protocol):
    """What the check reads and drives of the running table (`table.Hardware`): named here, so
    that the check needs no import of the table that starts it and a part renamed there fails
    the type check here."""

    @property
    def config(self) -> Config: ...
    @property
    def kind(self) -> str: ...
    @property
    def display(self) -> Display: ...
    @property
    def buttons(self) -> list[GpioButton]: ...
    @property
    def factory(self) -> object: ...  # gpiozero's pin factory; None without GPIO
    @property
    def leds(self) -> SeatLeds | None: ...
    @property
    def buzzer(self) -> Buzzer: ...
    @property
    def voice(self) -> Voice | None: ...
    @property
    def panel(self) -> SerialPanel | None: ...
    def describe(self) -> str: ...
    def show_check_lights(self, lights: dict[str, str]) -> None: ...
    def end_check(self) -> None: ...


class Check:
    """One walk over a running `Hardware`; `start()` begins it, `take()` feeds it presses,
    `done` is set once every part has its line (`parts`), `cancel()` stops it."""

    def __init__(
        self,
        rig: Rig,
        *,
        timers: Timers | None = None,
        step_seconds: float = STEP_SECONDS,
        show_seconds: float = SHOW_SECONDS,
        summary_seconds: float = SUMMARY_SECONDS,
        on_part: Callable[[Part], None] | None = None,
        on_step: Callable[[Step], None] | None = None,
        on_end: Callable[[], None] | None = None,
    ) -> None:
        """`on_part` hears each line as it is decided, `on_step` each step as it begins (the
        CLI prints them); `on_end` is told once the summary has been shown."""
        self.rig = rig
        self.timers = timers or ThreadTimers()
        self.step_seconds = step_seconds
        self.show_seconds = show_seconds
        self.summary_seconds = summary_seconds
        self._on_part = on_part or (lambda _part: None)
        self._on_step = on_step or (lambda _step: None)
        self._on_end = on_end or (lambda: None)
        self._lock = threading.RLock()
        self._steps = self._walk()
        self._at = -1
        self._timer: Cancel | None = None
        self._lit: list[str] = []  # seat buttons whose light the check lit
        self._found: dict[str, str] = {}  # button id -> status, for the OLED's ticks
        self.parts: list[Part] = []
        self.running = False
        self.done = threading.Event()  # every part has its line
        self.ended = threading.Event()  # the summary is off the OLED again

    # --- the walk ---------------------------------------------------------------------------

    def _walk(self) -> list[Step]:
        rig = self.rig
        steps = [
            Step("oled", {"verb": "pattern"}, ("check_look", {}), self._pattern),
        ]
        seats = [str(n + 1) for n in range(len(rig.config.buttons.seats))]
        if rig.buttons or rig.kind == "virtual":
            source = "gpio" if rig.buttons else "virtual"
            for button in [*seats, *CONTROLS]:
                steps.append(self._press_step(button, source))
        else:  # no GPIO: its one line says so for the buttons, the LEDs and the buzzer
            steps.append(Step("gpio", {"verb": "wait"}, ("check_look", {}), self._no_gpio))
        if rig.factory is not None or rig.kind == "virtual":
            steps.append(
                Step(
                    "buzzer",
                    {"verb": "listen", "what": "buzzer"},
                    ("check_listen_buzzer", {}),
                    self._buzzer,
                )
            )
        steps.append(
            Step(
                "speaker",
                {"verb": "listen", "what": "speaker"},
                ("check_listen_speaker", {}),
                self._speaker,
            )
        )
        steps.append(
            Step(
                "panel",
                {"verb": "wait", "what": "panel"},
                ("check_wait_panel", {}),
                self._handshake,
            )
        )
        return steps

    def _press_step(self, button: str, source: str) -> Step:
        wanted = f"panel:{button}" if source == "panel" else button
        what = "seat" if button not in CONTROLS else button
        screen = {"verb": "press", "what": what, "n": button, "panel": source == "panel"}
        step = Step(wanted, screen, ("check_press", {"button": wanted}), lambda: None)
        step.wants, step.source = wanted, source
        step.begin = lambda: self._ask(step)
        return step

    def start(self) -> None:
        with self._lock:
            self.running = True
            self._next()

    def cancel(self) -> None:
        """Stop where it is (a game began, the host stopped it): the display and lights return."""
        with self._lock:
            if not self.running and self.ended.is_set():
                return
            self.running = False
            self._cancel_timer()
            self.done.set()
        self._finish()

    def take(self, source: str, button: str, what: str) -> bool:
        """A press from `source` ("gpio", "panel" or "virtual"): True when the check took it
        (while it runs, no press reaches the game)."""
        with self._lock:
            if not self.running:
                if self.done.is_set() and not self.ended.is_set():
                    self._cancel_timer()  # a press takes the summary off the OLED
                    self._end_later(0.0)
                    return True
                return False
            if what in ("released", "stuck", "hold"):
                return True
            step = self._steps[self._at]
            if step.wants is None or source != step.source:
                return True
            pressed = f"panel:{button}" if source == "panel" else button
            if pressed == step.wants:
                self._seen(step)
            else:
                self._other(step, pressed)
            self._next()
            return True

    def _next(self) -> None:
        self._cancel_timer()
        self._at += 1
        if self._at >= len(self._steps):
            self._summary()
            return
        step = self._steps[self._at]
        self._show(step.screen)
        self._on_step(step)
        step.begin()

    def _after(self, seconds: float, action: Callable[[], None]) -> None:
        at = self._at

        def fire() -> None:
            with self._lock:
                if self.running and self._at == at:
                    action()

        self._timer = self.timers.after(seconds, fire)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _part(self, part: Part, button: str = "") -> None:
        self.parts.append(part)
        if button:
            self._found[button] = part.status
        self._on_part(part)

    # --- each part --------------------------------------------------------------------------

    def _pattern(self) -> None:
        settings = self.rig.config.display
        where = {
            "driver": settings.driver.upper(),
            "address": f"0x{settings.address:02X}",
            "bus": settings.i2c_port,
        }
        screen = {"verb": "pattern", "address": where["address"]}
        if self.rig.kind == "virtual" or settings.driver == "none":
            screen["address"] = ""
            part = Part("oled", "absent", "check_line_oled_virtual")
        elif self.rig.display.connected:
            part = Part("oled", "ok", "check_line_oled", where)
        else:
            part = Part("oled", "fault", "check_line_oled_missing", where)
        self._show(screen)
        self._after(self.show_seconds, lambda: self._then(part))

    def _then(self, part: Part) -> None:
        self._part(part)
        self._next()

    def _pin(self, button: str) -> int:
        settings = self.rig.config.buttons
        return settings.seats[int(button) - 1] if button.isdigit() else getattr(settings, button)

    def _gpio(self, button: str) -> GpioButton | None:
        return next((b for b in self.rig.buttons if b.name == button), None)

    def _ask(self, step: Step) -> None:
        assert step.wants is not None
        if step.source == "gpio":
            device = self._gpio(step.wants)
            values = {"button": step.wants, "pin": self._pin(step.wants)}
            if device is None:
                self._then_button(Part(step.name, "fault", "check_line_missing", values))
                return
            if device.pressed:
                self._then_button(Part(step.name, "fault", "check_line_at_rest", values))
                return
        self._after(self.step_seconds, lambda: self._unseen(step))

    def _then_button(self, part: Part) -> None:
        self._part(part, part.name)
        self._next()

    def _seen(self, step: Step) -> None:
        assert step.wants is not None
        button = step.wants.rpartition(":")[2]
        seat = button not in CONTROLS
        if seat:
            self._lit.append(button)
            self._light()
        if step.source == "gpio":
            values = {"button": button, "pin": self._pin(button)}
            leds = self.rig.config.buttons.leds
            if seat and self.rig.leds is not None and int(button) <= len(leds):
                part = Part(
                    step.name,
                    "ok",
                    "check_line_pressed_led",
                    {**values, "led": leds[int(button) - 1]},
                )
            else:
                part = Part(step.name, "ok", "check_line_pressed", values)
        else:
            key = "check_line_seen" if seat else "check_line_seen_control"
            part = Part(step.name, "ok", key, {"button": step.wants})
        self._part(part, step.name)

    def _other(self, step: Step, pressed: str) -> None:
        assert step.wants is not None
        if step.source == "gpio":
            values = {"button": step.wants, "pin": self._pin(step.wants)}
            values |= {"other": pressed, "other_pin": self._pin(pressed)}
            self._part(Part(step.name, "fault", "check_line_wrong_pin", values), step.name)
        else:
            values = {"button": step.wants, "other": pressed}
            self._part(Part(step.name, "fault", "check_line_other", values), step.name)

    def _unseen(self, step: Step) -> None:
        assert step.wants is not None
        seconds = f"{self.step_seconds:g}"
        if step.source == "gpio":
            values = {"button": step.wants, "pin": self._pin(step.wants), "seconds": seconds}
            part = Part(step.name, "fault", "check_line_unseen", values)
        else:
            values = {"button": step.wants, "seconds": seconds}
            part = Part(step.name, "fault", "check_line_not_seen", values)
        self._then_button(part)

    def _no_gpio(self) -> None:
        backends = self.rig.describe().partition(": ")[2].split("; ")
        why = next((b for b in backends if b.startswith("GPIO: ")), "GPIO: none ()")
        why = why.removeprefix("GPIO: none (").removesuffix(")")
        self._then(Part("gpio", "fault", "check_line_no_gpio", {"why": why}))

    def _buzzer(self) -> None:
        settings = self.rig.config.buzzer
        notes = [note for note, _ in PATTERNS["check"] if note is not None]
        values = {"count": len(notes), "first": notes[0], "last": notes[-1]}
        buzzer = self.rig.buzzer
        if settings.mute:
            part = Part("buzzer", "absent", "check_line_buzzer_muted")
        elif buzzer.output is not None:
            values |= {"kind": settings.kind, "pin": settings.pin}
            part = Part("buzzer", "ok", "check_line_buzzer", values)
        elif self.rig.kind == "virtual":
            part = Part("buzzer", "ok", "check_line_buzzer_browser", values)
        else:
            part = Part("buzzer", "absent", "check_line_buzzer_none")
        buzzer.play("check")
        self._after(self.show_seconds, lambda: self._then(part))

    def _speaker(self) -> None:
        voice = self.rig.voice
        if voice is None:
            self._then(Part("speaker", "absent", "check_line_speaker_off"))
            return
        device = voice.device or "default"
        if voice.sink is None:
            key = "check_line_speaker_browser" if self.rig.kind == "virtual" else ""
            part = Part("speaker", "ok" if key else "absent", key or "check_line_speaker_none")
        elif voice.muted or voice.volume <= 0:
            part = Part("speaker", "fault", "check_line_speaker_silent", {"device": device})
        else:
            volume = round(voice.volume * 100)
            part = Part("speaker", "ok", "check_line_speaker", {"device": device, "volume": volume})
        from companion.voice.script import Line  # the voice's own phrase for a turn

        voice.say([Line.of("turn", turn=1, turns_left=10)])
        self._after(self.show_seconds, lambda: self._then(part))

    def _handshake(self, waited: float = 0.0) -> None:
        panel = self.rig.panel
        if panel is None:
            self._then(Part("panel", "absent", "check_line_panel_none"))
            return
        hello = panel.hello if panel.connected.is_set() else None
        if hello is not None:
            values = {"firmware": hello.firmware, "seats": hello.seats, "version": hello.version}
            self._part(Part("panel", "ok", "check_line_panel", values))
            later = [self._press_step(str(n + 1), "panel") for n in range(hello.seats)]
            later += [self._press_step(button, "panel") for button in CONTROLS]
            self._steps[self._at + 1 : self._at + 1] = later
            self._next()
        elif waited >= self.step_seconds:
            settings = self.rig.config.panel
            where = settings.port or f"USB id {settings.usb_id}"
            values = {"where": where, "seconds": f"{self.step_seconds:g}"}
            self._then(Part("panel", "fault", "check_line_panel_silent", values))
        else:
            look = min(HELLO_LOOK, self.step_seconds - waited)
            self._after(look, lambda: self._handshake(waited + look))

    # --- what the table shows ---------------------------------------------------------------

    def _light(self) -> None:
        self.rig.show_check_lights({seat: "on" for seat in self._lit})

    def _show(self, screen: dict) -> None:
        seats = [str(n + 1) for n in range(len(self.rig.config.buttons.seats))]
        prefix = "panel:" if screen.get("panel") else ""
        done = [s for s in seats if self._found.get(prefix + s) == "ok"]
        steps = len(self._steps)
        self.rig.display.show_check(
            {
                **screen,
                "moment": "check",
                "step": self._at + 1,
                "steps": steps,
                "seats": seats,
                "done": done,
            }
        )

    def _summary(self) -> None:
        self.running = False
        fine = sum(1 for p in self.parts if p.status == "ok")
        faults = [p.name for p in self.parts if p.status == "fault"]
        self.rig.display.show_check(
            {"moment": "check_summary", "fine": fine, "to_fix": len(faults), "faults": faults}
        )
        self.done.set()
        self._end_later(self.summary_seconds)

    def _end_later(self, seconds: float) -> None:
        self._timer = self.timers.after(seconds, self._finish)

    def _finish(self) -> None:
        with self._lock:
            if self.ended.is_set():
                return
            self.ended.set()
        self.rig.end_check()
        self._on_end()

    def summary(self, lang: str) -> list[str]:
        """The summary in words: every part fine, or which to look at and which are absent."""
        faults = [p for p in self.parts if p.status == "fault"]
        absent = [p for p in self.parts if p.status == "absent"]
        if not faults:
            lines = [text(lang, "check_summary_fine")]
        else:
            named = joined(lang, [_part_name(lang, p.name) for p in faults])
            lines = [text(lang, "check_summary_to_fix", parts=named)]
        if absent:
            named = joined(lang, [_part_name(lang, p.name) for p in absent])
            lines.append(text(lang, "check_summary_absent", parts=named))
        return lines

    def state(self, lang: str) -> dict:
        """What the host page and the virtual panel show: the step asked for, the lines so far
        and, once done, the summary."""
        with self._lock:
            step = (
                self._steps[self._at] if self.running and 0 <= self._at < len(self._steps) else None
            )
            prompt = step.text(lang) if step is not None else ""
            return {
                "running": self.running,
                "done": self.done.is_set(),
                "step": self._at + 1,
                "steps": len(self._steps),
                "prompt": prompt,
                "lines": [{"status": p.status, "text": p.text(lang)} for p in self.parts],
                "summary": self.summary(lang) if self.done.is_set() else [],
            }


def _part_name(lang: str, name: str) -> str:
    """A part as the summary names it: a button in words, else the part's own name."""
    table = texts(lang)
    return table.get(f"check_part_{name}") or label(lang, name)
