"""The USB-serial seat panel: a reader thread that reconnects by itself after an unplug.

The port comes from an injected `open_port` (a configured port or URL through pyserial's
`serial_for_url`, or the first port with the panel's USB id); whatever fails — the port missing,
vanishing mid-game, an unreadable line — is logged once, the game goes on, and the port is
tried again every `RETRY` seconds.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import serial
from serial.tools import list_ports

from companion.session.notices import Notice

from .panel_protocol import (
    HELLO_QUERY,
    VERSION,
    Hello,
    Pressed,
    ProtocolError,
    leds_line,
    parse_panel_line,
    text_line,
)

log = logging.getLogger(__name__)

RETRY = 1.0
SEARCH = 5.0  # seconds between looks for a panel that was never plugged in


def port_opener(port: str, usb_id: str, baud: int) -> Callable[[], serial.SerialBase]:
    """Open the configured port or URL, else the first port whose USB id ("vid:pid") matches."""

    def open_port() -> serial.SerialBase:
        name = port or find_port(usb_id)
        if name is None:
            raise serial.SerialException(f"no seat panel with USB id {usb_id}")
        return serial.serial_for_url(name, baudrate=baud, timeout=0.1, write_timeout=0.5)

    return open_port


def find_port(usb_id: str) -> str | None:
    """The device of the first serial port with USB id "vid:pid" (hex), if any."""
    vid, _, pid = usb_id.lower().partition(":")
    for info in list_ports.comports():
        if info.vid is not None and f"{info.vid:04x}" == vid and f"{info.pid:04x}" == pid:
            return info.device
    return None


class SerialPanel:
    """Reads presses from the panel, writes its LEDs and text; `on_press(button, long)`."""

    def __init__(
        self,
        open_port: Callable[[], serial.SerialBase],
        on_press: Callable[[str, bool], None],
        on_problem: Callable[[Notice | None], None] | None = None,
        *,
        quiet_until_found: bool = False,
    ) -> None:
        """`quiet_until_found`: a panel looked for by its USB id that has never been plugged in
        is not a problem (most tables have none); once found, losing it is."""
        self._open = open_port
        self._quiet = quiet_until_found
        self._on_press = on_press
        self._on_problem = on_problem or (lambda _problem: None)
        self._port: serial.SerialBase | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._lights: dict[str, str] = {}
        self._text = ""
        self.hello: Hello | None = None
        self.problem: Notice | None = None
        self.connected = threading.Event()
        self._thread = threading.Thread(target=self._run, name="room25-panel", daemon=True)
        self._thread.start()

    def show(self, lights: dict[str, str], text: str) -> None:
        """Send the LEDs and the text when they change (and again after every reconnection)."""
        with self._lock:
            changed = (lights, text) != (self._lights, self._text)
            self._lights, self._text = dict(lights), text
        if changed:
            self._write(leds_line(lights) + text_line(text))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._drop()

    def _write(self, data: bytes) -> None:
        port = self._port
        if port is None:
            return
        try:
            port.write(data)
        except (serial.SerialException, OSError) as error:
            self._lost(error)

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._port is None:
                self._connect()
                continue
            try:
                line = self._port.readline()
            except (serial.SerialException, OSError, TypeError) as error:
                # pyserial raises TypeError from a pty whose other side was closed mid-read.
                self._lost(error)
                self._stop.wait(RETRY)
                continue
            if line.strip():
                self._read(line.strip())

    def _connect(self) -> None:
        try:
            port = self._open()
        except (serial.SerialException, OSError, ValueError) as error:
            if self._quiet:
                self._stop.wait(SEARCH)
                return
            self._report(f"seat panel missing ({error})")
            self._stop.wait(RETRY)
            return
        self._quiet = False
        log.info("seat panel on %s", getattr(port, "port", port))
        self._port = port
        with self._lock:
            resend = leds_line(self._lights) + text_line(self._text)
        self._write(HELLO_QUERY + resend)
        if self._port is not None:
            self.connected.set()
            if self.problem is not None:
                log.warning("seat panel back")
                self.problem = None
                self._on_problem(None)

    def _read(self, line: bytes) -> None:
        try:
            message = parse_panel_line(line)
        except ProtocolError as error:
            log.info("seat panel: %s in %r", error, line)
            return
        if isinstance(message, Hello):
            self.hello = message
            if message.version != VERSION:
                log.error(
                    "seat panel speaks protocol %s, this companion %s", message.version, VERSION
                )
        elif isinstance(message, Pressed):
            self._on_press(message.button, message.long)

    def _lost(self, error: BaseException) -> None:
        """The port failed (read by the reader thread, or written by the hardware's thread,
        which must not wait here): drop it; the reader thread reopens it."""
        self._drop()
        self._report(f"seat panel missing ({error})")

    def _drop(self) -> None:
        self.connected.clear()
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                log.debug("seat panel: closing a lost port failed", exc_info=True)

    def _report(self, problem: str) -> None:
        if self.problem is None:
            self.problem = Notice("panel_missing")
            log.error("%s; the game goes on, retrying", problem)
            self._on_problem(self.problem)
