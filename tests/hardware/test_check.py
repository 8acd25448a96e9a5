"""The wiring check (`room25 check`, "Check the table"): it walks the OLED, each seat button and
its LED, Next, Back and Menu, the buzzer, the speaker and the serial panel, one line a part in
plain words; a button pressed at rest or a press on another's pin is named, a step with no press
ends in "no press seen", an absent part is said. Driven through gpiozero's MockFactory pins,
luma's dummy device and pyserial's loop:// port around a real session, on a hand-moved clock
whose timers end each step (nothing sleeps)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import serial
from waiting import eventually

from companion.config import Config
from companion.hardware import start_hardware
from companion.hardware.check import Check
from companion.hardware.screens import frame
from companion.voice import start_voice
from companion.voice.engines import Speaker
from companion.voice.sinks import FakeSink
from tests.voice.conftest import Murmur

from .conftest import TOKENS_GAME
from .test_display import Wire, _oled

STEPS = {"timers": None, "step_seconds": 10.0, "show_seconds": 2.5, "summary_seconds": 15.0}


def _walk(rig, ticks) -> Check:
    check = rig.start_check(**{**STEPS, "timers": ticks})
    assert isinstance(check, Check), check
    return check


def _press(rig, ticks, pin: int, check: Check) -> None:
    """Press and release a GPIO pin as a finger does; wait for the check's next step (its
    timers set: the clock may move on)."""
    step = check.state("en")["step"]
    rig.factory.pin(pin).drive_low()
    ticks.advance(0.05)
    rig.factory.pin(pin).drive_high()
    ticks.advance(0.05)
    eventually(lambda: check.state("en")["step"] > step)


def _codes(session) -> list[str]:
    return [notice["code"] for notice in session.snapshot("public")["session"]["notices"]]


def _lines(check: Check, lang: str = "en") -> list[str]:
    return [part.text(lang) for part in check.parts]


@pytest.fixture
def voice(session, tmp_path: Path):
    """The voice on a sink that records what it plays, at 80 % volume."""
    sink = FakeSink()
    settings = replace(Config(), voice=replace(Config().voice, volume=0.8))
    voice = start_voice(
        session, settings, sink=sink, engines=Speaker(Murmur()), cache_dir=tmp_path / "voice"
    )
    yield voice, sink
    voice.close()


def test_the_gpio_walk_names_every_part_and_every_wiring_fault(
    session, config, ticks, voice
) -> None:
    rig = start_hardware(session, config, "mock", clock=ticks, timers=ticks, address="http://t/")
    rig.set_voice(voice[0])
    pins, leds = config.buttons.seats, config.buttons.leds
    try:
        rig.factory.pin(pins[3]).drive_low()  # seat 4 soldered to ground: pressed at rest
        ticks.advance(10.1)
        eventually(lambda: "button_stuck" in _codes(session))  # its press went to the game
        check = _walk(rig, ticks)
        pattern = {"verb": "pattern", "address": "0x3C"}
        assert rig.display.frame.tobytes() == frame("check", pattern).tobytes()
        ticks.advance(2.5)
        assert check.state("en")["prompt"] == "Press seat 1."
        _press(rig, ticks, pins[0], check)
        eventually(lambda: rig.factory.pin(leds[0]).state)  # its LED lit...
        assert not rig.factory.pin(leds[1]).state
        _press(rig, ticks, pins[4], check)  # seat 2 asked, seat 5's pin pressed
        ticks.advance(10.0)  # seat 3: nobody presses
        assert check.state("en")["prompt"] == "Press seat 5."  # seat 4 was named at once
        for seat in range(4, 8):
            _press(rig, ticks, pins[seat], check)
        for button in ("next", "back", "menu"):
            _press(rig, ticks, getattr(config.buttons, button), check)
        ticks.advance(2.5)  # the buzzer's notes
        ticks.advance(2.5)  # the speaker's phrase
        eventually(lambda: check.done.is_set())
        assert _lines(check) == [
            "OLED (SSD1306, I2C address 0x3C, bus 1): test pattern shown.",
            f"Seat 1 (GPIO{pins[0]}): press seen, its LED (GPIO{leds[0]}) lit.",
            f"Seat 2 (GPIO{pins[1]}): the press came on GPIO{pins[4]}, the pin of seat 5: "
            "their wires are swapped.",
            f"Seat 3 (GPIO{pins[2]}): no press seen in 10 s.",
            f"Seat 4 (GPIO{pins[3]}): reads pressed at rest: a wire to ground, or a stuck button.",
            *(
                f"Seat {n + 1} (GPIO{pins[n]}): press seen, its LED (GPIO{leds[n]}) lit."
                for n in range(4, 8)
            ),
            f"Next (GPIO{config.buttons.next}): press seen.",
            f"Back (GPIO{config.buttons.back}): press seen.",
            f"Menu (GPIO{config.buttons.menu}): press seen.",
            f"Buzzer (passive, GPIO{config.buzzer.pin}): 12 notes played, A3 to C6.",
            "Speaker (ALSA device default): a phrase said at volume 80 %.",
            "Serial panel: none configured.",
        ]
        assert _lines(check, "fr")[3] == f"Siège 3 (GPIO{pins[2]})\u00a0: aucun appui vu en 10 s."
        assert check.summary("en") == [
            "To look at: seat 2, seat 3, seat 4.",
            "Not wired: the serial panel.",
        ]
        assert "check" in [name for _, name in rig.buzzer.played]
        eventually(lambda: voice[1].texts()[-1:] != [])
        summary = {"moment": "check_summary", "fine": 11, "to_fix": 3, "faults": ["2", "3", "4"]}
        assert rig.display.frame.tobytes() == frame("check_summary", summary).tobytes()
        ticks.advance(15.0)  # the summary's while: the table is the game's again
        assert rig.check is None
        assert rig.display.frame.tobytes() == frame("join", {"address": "http://t/"}).tobytes()
        assert not rig.factory.pin(leds[0]).state
    finally:
        rig.close()


def test_the_virtual_panel_and_the_serial_panel_walk(session, config, ticks) -> None:
    """No GPIO: the virtual panel's buttons are walked, its lights lit; the serial panel
    answers its handshake, then each of its buttons, a wrong one named; no OLED is said."""
    port = serial.serial_for_url("loop://", timeout=0.05)
    rig = start_hardware(
        session, config, "virtual", clock=ticks, timers=ticks, panel_opener=lambda: port
    )
    try:
        check = _walk(rig, ticks)
        ticks.advance(2.5)
        for seat in "12345678":
            assert rig.press(seat).ok
            assert rig.lights.get(seat) == "on"
        assert rig.control("next").ok and rig.control("menu").ok  # Back asked, Menu pressed
        assert rig.control("menu", long=True).ok
        ticks.advance(2.5)  # the buzzer (the panel's browser plays it)
        assert check.state("en")["prompt"] == "Waiting for the serial panel to answer."
        port.write(b"HELLO ROOM25-PANEL 1 2 pico-0.1\n")
        eventually(lambda: rig.panel.connected.is_set())
        ticks.advance(0.5)
        eventually(lambda: check.state("en")["prompt"] == "Press seat 1 on the serial panel.")
        for line in (b"P 1\n", b"P 3\n", b"P NEXT\n", b"L BACK\n", b"P MENU\n"):
            step = check.state("en")["step"]
            port.write(line)
            eventually(lambda step=step: check.state("en")["step"] > step or check.done.is_set())
        eventually(lambda: check.done.is_set())
    finally:
        rig.close()
    assert _lines(check) == [
        "OLED: none wired; the virtual panel shows its picture.",
        *(f"Seat {n}: press seen, its light lit." for n in range(1, 9)),
        "Next: press seen.",
        "Back: Menu was pressed instead.",
        "Menu: press seen.",
        "Buzzer: none wired; the virtual panel plays its 12 notes (tick Sound).",
        "Speaker: the voice is off ([voice] enabled = false).",
        "Serial panel: answered (firmware pico-0.1, 2 seats, protocol 1).",
        "Seat 1 on the serial panel: press seen, its light lit.",
        "Seat 2 on the serial panel: seat 3 on the serial panel was pressed instead.",
        "Next on the serial panel: press seen.",
        "Back on the serial panel: press seen.",
        "Menu on the serial panel: press seen.",
    ]
    assert _lines(check, "fr")[10] == "Retour\u00a0: c’est Menu qui a été appuyé."


def test_parts_that_are_missing_are_said_never_a_traceback(session, config, ticks) -> None:
    """A Pi with no GPIO factory, an unplugged OLED and a panel that never answers."""
    wire = Wire()
    wire.plugged = False
    broken = replace(config, buttons=replace(config.buttons, pin_factory="nonesuch"))
    broken = replace(broken, panel=replace(broken.panel, port="loop://"))
    rig = start_hardware(session, broken, "pi", clock=ticks, timers=ticks, open_display=_oled(wire))
    try:
        check = _walk(rig, ticks)
        ticks.advance(2.5)  # the OLED
        ticks.advance(10.0)  # the panel's handshake awaited
        eventually(lambda: check.done.is_set())
    finally:
        rig.close()
    assert _lines(check) == [
        "OLED (SSD1306, I2C address 0x3C, bus 1): not answering; check its four wires, then the "
        "address with i2cdetect -y 1.",
        "Buttons, LEDs and buzzer: no GPIO (unknown pin factory 'nonesuch': choose one of "
        "lgpio, rpigpio, pigpio, native).",
        "Speaker: the voice is off ([voice] enabled = false).",
        "Serial panel (loop://): no answer in 10 s.",
    ]


def test_no_check_while_a_game_runs_and_a_game_ends_the_check(session, config, ticks) -> None:
    rig = start_hardware(session, config, "mock", clock=ticks, timers=ticks, address="http://t/")
    try:
        check = _walk(rig, ticks)
        assert rig.start_check(**STEPS) == "check_already"
        assert session.host("new_game", setup=TOKENS_GAME).ok
        eventually(lambda: rig.check is None)  # a game began: the check gave the table back
        assert check.ended.is_set()
        assert rig.start_check(**STEPS) == "check_game_on"
    finally:
        rig.close()


def test_every_word_of_the_check_is_asked_for() -> None:
    """A `check_*` text that neither the hardware (the walk, its refusals), the command nor the
    pages (the host page's and the virtual panel's check) ask for is dead; a part's name is
    asked for as "check_part_" + its name, a control's as "check_" + its name."""
    from companion.hardware import check as module
    from companion.words import own_texts

    hardware = Path(module.__file__).parent
    web = hardware.parent / "web"
    command = hardware.parent / "check_command.py"  # `room25 check`, a composition root
    files = [*hardware.glob("check*.py"), command, hardware / "table.py", web / "panel.py"]
    files += [*(web / "templates").glob("*.html"), web / "static" / "check.js"]
    source = "".join(path.read_text() for path in files)
    parts = {"oled", "gpio", "buzzer", "speaker", "panel"}  # the parts not named by a button
    assert all(f'Part("{name}"' in source for name in parts)
    built = {f"check_part_{name}" for name in parts} | {f"check_{c}" for c in module.CONTROLS}
    keys = [k for k in own_texts("en") if k.startswith("check_") and k not in built]
    asked = ('"{}"', "'{}'", "t.{}")
    assert [k for k in keys if not any(way.format(k) in source for way in asked)] == []
