"""The serial seat panel over real pyserial ports: `loop://` and a pty pair whose panel side
vanishes and returns; and the protocol as both sides write and read it (the MicroPython
firmware's own module is loaded from wiring/panel/ and run on CPython)."""

from __future__ import annotations

import importlib.util
import os
import threading
import time
from pathlib import Path

import pytest
import serial

from companion.hardware import serial_panel
from companion.hardware.panel_protocol import (
    Hello,
    Pressed,
    ProtocolError,
    leds_line,
    parse_panel_line,
    text_line,
)
from companion.hardware.serial_panel import SerialPanel
from companion.session.notices import Notice

from .conftest import eventually

FIRMWARE = Path(__file__).parents[2] / "wiring" / "panel" / "protocol.py"
PANEL_MISSING = Notice("panel_missing")


@pytest.fixture(scope="module")
def firmware():
    spec = importlib.util.spec_from_file_location("panel_firmware_protocol", FIRMWARE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def quick_retry(monkeypatch):
    monkeypatch.setattr(serial_panel, "RETRY", 0.05)
    monkeypatch.setattr(serial_panel, "SEARCH", 0.05)


def test_what_the_firmware_writes_the_companion_reads(firmware) -> None:
    assert parse_panel_line(firmware.hello_line().encode().strip()) == Hello(1, 8, "pico-0.1")
    assert parse_panel_line(firmware.press_line("3").encode()) == Pressed("3", False)
    assert parse_panel_line(firmware.press_line("BACK", long=True).encode()) == Pressed(
        "back", True
    )


def test_what_the_companion_writes_the_firmware_reads(firmware) -> None:
    line = leds_line({"1": "on", "3": "blink", "8": "on", "host": "blink"}).decode()
    kind, masks = firmware.parse_host_line(line)
    assert kind == "leds"
    states = firmware.led_states(*masks)
    assert states == ["on", "off", "blink", "off", "off", "off", "off", "on"]
    sent = text_line("Tour 3 Émile ✓").decode()  # accents dropped, other signs replaced
    assert firmware.parse_host_line(sent) == ("text", "Tour 3 Emile ?")
    assert firmware.parse_host_line("LEDS zz 00") is None
    assert firmware.parse_host_line("x" * 100) is None


@pytest.mark.parametrize(
    "line", [b"", b"P 9", b"P", b"HELLO ROOM25-PANEL x 8 f", b"Q 1", b"P \xff", b"P 1" * 30]
)
def test_bad_panel_lines_are_refused_in_words(line: bytes) -> None:
    with pytest.raises(ProtocolError):
        parse_panel_line(line)


def test_presses_over_loop_and_garbage_ignored() -> None:
    port = serial.serial_for_url("loop://", timeout=0.1)
    pressed: list[tuple[str, bool]] = []
    panel = SerialPanel(lambda: port, lambda b, long: pressed.append((b, long)))
    eventually(panel.connected.is_set)
    # loop:// sends back what the companion writes (HELLO?, LEDS, TEXT): not panel messages,
    # so they are logged and ignored; then the panel's own lines.
    panel.show({"2": "on"}, "Turn 1")
    port.write(b"HELLO ROOM25-PANEL 1 8 pico-0.1\nP 2\nnonsense\nL NEXT\n")
    eventually(lambda: len(pressed) == 2)
    assert pressed == [("2", False), ("next", True)]
    assert panel.hello == Hello(1, 8, "pico-0.1")
    panel.close()


class PtyPanel:
    """The panel's end of a pty pair: the companion opens the other end by its path."""

    def __init__(self) -> None:
        self.open()

    def open(self) -> None:
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        os.close(slave)

    def read_until(self, text: bytes) -> bytes:
        got = b""
        while text not in got:
            got += os.read(self.master, 1024)
        return got

    def vanish(self) -> None:
        os.close(self.master)
        self.path = "/dev/room25-no-such-panel"


def test_reconnects_after_the_port_vanishes_and_returns() -> None:
    side = PtyPanel()
    pressed: list[tuple[str, bool]] = []
    problems: list[Notice | None] = []

    def open_port():
        return serial.serial_for_url(side.path, baudrate=115200, timeout=0.05)

    panel = SerialPanel(open_port, lambda b, long: pressed.append((b, long)), problems.append)
    eventually(panel.connected.is_set)
    assert b"HELLO?" in side.read_until(b"HELLO?")
    os.write(side.master, b"P 4\n")
    eventually(lambda: pressed == [("4", False)])
    panel.show({"4": "on"}, "Turn 2")
    assert b"LEDS 08 00" in side.read_until(b"LEDS")

    side.vanish()  # unplugged: the port's other end is gone, then the device node too
    eventually(lambda: problems == [PANEL_MISSING])
    assert not panel.connected.is_set()
    side.open()  # plugged back in (a new node, as after a real replug)
    eventually(panel.connected.is_set)
    got = side.read_until(b"TEXT Turn 2")
    assert b"HELLO?" in got and b"LEDS 08 00" in got  # the LEDs come back as they were
    os.write(side.master, b"P 5\n")
    eventually(lambda: pressed[-1] == ("5", False))
    assert problems == [PANEL_MISSING, None]
    panel.close()
    os.close(side.master)


def test_a_panel_looked_for_is_no_problem_until_found_then_is_when_lost() -> None:
    side = PtyPanel()
    plugged = threading.Event()
    problems: list[Notice | None] = []

    def open_port():
        if not plugged.is_set():
            raise serial.SerialException("no seat panel with USB id 2e8a:0005")
        return serial.serial_for_url(side.path, timeout=0.05)

    panel = SerialPanel(open_port, lambda b, long: None, problems.append, quiet_until_found=True)
    time.sleep(0.3)  # several looks, none found
    assert problems == [] and not panel.connected.is_set()
    plugged.set()  # plugged in mid-game
    eventually(panel.connected.is_set)
    side.vanish()
    eventually(lambda: problems == [PANEL_MISSING])
    panel.close()


def test_port_opener_by_usb_id_says_what_is_missing() -> None:
    opener = serial_panel.port_opener("", "2e8a:0005", 115200)
    with pytest.raises(serial.SerialException, match="2e8a:0005"):
        opener()
