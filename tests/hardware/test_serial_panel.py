"""The serial seat panel over real pyserial ports: `loop://` and a pty pair whose panel side
vanishes and returns; and the protocol as both sides write and read it (the MicroPython
firmware's own module is loaded from wiring/panel/ and run on CPython)."""

from __future__ import annotations

import ast
import errno
import importlib.util
import os
import threading
import time
from pathlib import Path

import pytest
import serial
from waiting import eventually

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

FIRMWARE = Path(__file__).parents[2] / "wiring" / "panel" / "protocol.py"
FIRMWARE_MAIN = FIRMWARE.with_name("main.py")
PANEL_MISSING = Notice("panel_missing")
HELLO = b"HELLO ROOM25-PANEL 1 8 pico-0.1\n"


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
    monkeypatch.setattr(serial_panel, "ASK_AGAIN", 0.2)


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


def test_no_control_character_reaches_the_panel_in_a_text(firmware) -> None:
    """Ctrl-C (0x03) stops a MicroPython program, Ctrl-D (0x04) restarts it, Ctrl-A (0x01) asks
    for its raw prompt: a player's or a room's name must never send one."""
    sent = text_line("A\x03B\x04C\x01D\rE\tF\x1b[2JG\x7fH")
    assert sent == b"TEXT A B C D E F [2JG H\n"
    assert all(32 <= byte < 127 for byte in sent[:-1])
    assert firmware.parse_host_line("TEXT a\x03b\x04c") == ("text", "a b c")


def _main_calls() -> list[str]:
    """The calls main() of the firmware makes, in order, as dotted names."""
    tree = ast.parse(FIRMWARE_MAIN.read_text())
    [main] = [
        node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "main"
    ]
    calls = [node for node in ast.walk(main) if isinstance(node, ast.Call)]
    calls.sort(key=lambda node: (node.lineno, node.col_offset))
    return [ast.unparse(node) for node in calls]


def test_the_firmware_turns_ctrl_c_off_before_reading_the_companion() -> None:
    calls = _main_calls()
    assert "micropython.kbd_intr(-1)" in calls
    assert calls.index("micropython.kbd_intr(-1)") < calls.index("select.poll()")
    source = FIRMWARE_MAIN.read_text()
    assert "hold MENU while\nplugging the Pico in" in source  # the way back to the prompt


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
    # loop:// sends back what the companion writes (HELLO?, LEDS, TEXT): not panel messages,
    # so they are logged and ignored; then the panel's own lines.
    panel.show({"2": "on"}, "Turn 1")
    port.write(HELLO + b"P 2\nnonsense\nL NEXT\n")
    eventually(lambda: len(pressed) == 2)
    assert pressed == [("2", False), ("next", True)]
    assert panel.hello == Hello(1, 8, "pico-0.1") and panel.connected.is_set()
    panel.close()


class PtyPanel:
    """The panel's end of a pty pair: the companion opens the other end by its path."""

    def __init__(self) -> None:
        self.open()

    def open(self) -> None:
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        os.close(slave)
        os.set_blocking(self.master, False)  # a test waits with a deadline, never forever

    def read_until(self, text: bytes, timeout: float = 5.0) -> bytes:
        got = b""
        deadline = time.monotonic() + timeout
        while text not in got:
            got += self._read()
            assert time.monotonic() < deadline, got
        return got

    def _read(self) -> bytes:
        """What the companion wrote; nothing (after a short wait) while it has not opened its
        end yet, which a pty's master reports as EIO."""
        try:
            return os.read(self.master, 1024)
        except BlockingIOError:
            pass
        except OSError as error:
            if error.errno != errno.EIO:
                raise
        time.sleep(0.01)
        return b""

    def read_for(self, seconds: float) -> bytes:
        """Everything the companion wrote in the next `seconds`."""
        got = b""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            got += self._read()
        return got

    def say(self, line: bytes) -> None:
        os.write(self.master, line)

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
    assert b"HELLO?" in side.read_until(b"HELLO?")
    side.say(HELLO)
    eventually(panel.connected.is_set)
    os.write(side.master, b"P 4\n")
    eventually(lambda: pressed == [("4", False)])
    panel.show({"4": "on"}, "Turn 2")
    # The panel is first sent what it showed before the press (no lights), then the new lights.
    side.read_until(b"LEDS 08 00\nTEXT Turn 2\n")

    side.vanish()  # unplugged: the port's other end is gone, then the device node too
    eventually(lambda: problems == [PANEL_MISSING])
    assert not panel.connected.is_set()
    side.open()  # plugged back in (a new node, as after a real replug)
    side.read_until(b"HELLO?")
    side.say(HELLO)
    eventually(panel.connected.is_set)
    got = side.read_until(b"TEXT Turn 2")
    assert b"LEDS 08 00" in got  # the LEDs come back as they were
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
    side.read_until(b"HELLO?")
    side.say(HELLO)
    eventually(panel.connected.is_set)
    side.vanish()
    eventually(lambda: problems == [PANEL_MISSING])
    panel.close()


def test_port_opener_by_usb_id_says_what_is_missing() -> None:
    opener = serial_panel.port_opener("", "2e8a:0005", 115200)
    with pytest.raises(serial.SerialException, match="2e8a:0005"):
        opener()


def test_a_line_split_by_a_pause_is_read_whole() -> None:
    """USB hands a line over in pieces when it likes: a pause longer than the port's read
    timeout in the middle of a line must not cut it in two."""
    side = PtyPanel()
    pressed: list[tuple[str, bool]] = []
    panel = SerialPanel(
        lambda: serial.serial_for_url(side.path, timeout=0.05),
        lambda b, long: pressed.append((b, long)),
    )
    side.read_until(b"HELLO?")
    for piece in (b"HELLO ROOM25-", b"PANEL 1 8 pico-0.1\nP ", b"4", b"\nL BA", b"CK\r\n"):
        side.say(piece)
        time.sleep(0.2)  # four read timeouts
    eventually(lambda: len(pressed) == 2)
    assert pressed == [("4", False), ("back", True)] and panel.connected.is_set()
    side.say(b"P 1" * 40 + b"\nP 5\n")  # a line too long is skipped, whole, and only it
    eventually(lambda: pressed[-1] == ("5", False))
    assert pressed == [("4", False), ("back", True), ("5", False)]
    panel.close()
    os.close(side.master)


def test_connected_only_after_hello_and_the_state_sent_after_it() -> None:
    side = PtyPanel()
    pressed: list[tuple[str, bool]] = []
    problems: list[Notice | None] = []
    panel = SerialPanel(
        lambda: serial.serial_for_url(side.path, timeout=0.05),
        lambda b, long: pressed.append((b, long)),
        problems.append,
    )
    side.read_until(b"HELLO?")
    panel.show({"3": "blink"}, "Turn 1")
    side.say(b"P 2\n")  # not a panel that said who it is: ignored
    silent = side.read_for(0.5)  # the port answers no HELLO: asked again, nothing else sent
    assert b"HELLO?" in silent and b"LEDS" not in silent and b"TEXT" not in silent
    assert not panel.connected.is_set() and pressed == []
    assert problems == [PANEL_MISSING]  # a configured port that does not answer is a problem
    side.say(HELLO)
    assert b"LEDS 00 04" in side.read_until(b"TEXT Turn 1")
    eventually(panel.connected.is_set)
    assert problems == [PANEL_MISSING, None]
    side.say(HELLO)  # the Pico restarted (its lights lost): everything sent again
    assert b"LEDS 00 04" in side.read_until(b"TEXT Turn 1")
    panel.close()
    os.close(side.master)


def test_the_port_is_opened_for_the_companion_alone() -> None:
    side = PtyPanel()
    opener = serial_panel.port_opener(side.path, "2e8a:0005", 115200)
    first = opener()
    try:
        with pytest.raises(serial.SerialException, match="exclusively"):
            opener()  # a serial terminal, or a second companion, is refused
    finally:
        first.close()
    opener().close()  # free again once closed
    os.close(side.master)


def test_a_port_is_named_by_its_stable_link(tmp_path: Path) -> None:
    side = PtyPanel()
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    (by_id / "usb-Other_Board-if00").symlink_to("/dev/null")
    link = by_id / "usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00"
    link.symlink_to(side.path)
    assert serial_panel.stable_name(side.path, by_id) == str(link)
    assert serial_panel.stable_name("/dev/ttyACM9", by_id) == "/dev/ttyACM9"
    assert serial_panel.stable_name(side.path, tmp_path / "none") == side.path
    os.close(side.master)
