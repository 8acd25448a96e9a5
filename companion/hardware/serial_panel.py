"""The USB-serial seat panel: a reader thread that reconnects by itself after an unplug.

The port comes from an injected `open_port` (a configured port or URL through pyserial's
`serial_for_url`, or the first port with the panel's USB id, named by its stable
/dev/serial/by-id/ link), opened for this process alone. The panel counts as connected once it
has said HELLO (a board with the same USB id running something else never does); its lights and
text are sent again after every HELLO, since a panel that restarted has lost them. Lines are
put together from whatever bytes arrive, so a line split by a pause is read whole. Whatever
fails — the port missing, vanishing mid-game, an unreadable line — is logged once, the game goes
on, and the port is tried again every `RETRY` seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

import serial
from serial.tools import list_ports

from companion.session.notices import Notice

from .panel_protocol import (
    HELLO_QUERY,
    MAX_LINE,
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
ASK_AGAIN = 2.0  # seconds between HELLO? to a port that has not answered yet
BY_ID = Path("/dev/serial/by-id")


def port_opener(port: str, usb_id: str, baud: int) -> Callable[[], serial.SerialBase]:
    """Open the configured port or URL, else the first port whose USB id ("vid:pid") matches;
    exclusively, so a second program (a serial terminal, a second companion) cannot open it
    and steal half the lines."""

    def open_port() -> serial.SerialBase:
        name = port or find_port(usb_id)
        if name is None:
            raise serial.SerialException(f"no seat panel with USB id {usb_id}")
        return serial.serial_for_url(
            name, baudrate=baud, timeout=0.1, write_timeout=0.5, exclusive=True
        )

    return open_port


def find_port(usb_id: str) -> str | None:
    """The first serial port with USB id "vid:pid" (hex), if any, by its stable name."""
    vid, _, pid = usb_id.lower().partition(":")
    for info in list_ports.comports():
        if info.vid is not None and f"{info.vid:04x}" == vid and f"{info.pid:04x}" == pid:
            return stable_name(info.device)
    return None


def stable_name(device: str, folder: Path = BY_ID) -> str:
    """The /dev/serial/by-id/ link to `device` (it names the board and keeps its name when
    ttyACM0 comes back as ttyACM1 after a replug), else `device` itself."""
    try:
        links = sorted(folder.iterdir())
    except OSError:
        return device
    target = Path(device).resolve()
    for link in links:
        if link.resolve() == target:
            return str(link)
    return device


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
        self._pending = bytearray()  # the start of a line whose end has not arrived
        self._overlong = False  # the rest of a line too long to read is being skipped
        self._asked = 0.0  # when HELLO? was last sent
        self.hello: Hello | None = None
        self.problem: Notice | None = None
        self.connected = threading.Event()
        self._thread = threading.Thread(target=self._run, name="room25-panel", daemon=True)
        self._thread.start()

    def show(self, lights: dict[str, str], text: str) -> None:
        """Send the LEDs and the text when they change (and again after every HELLO)."""
        with self._lock:  # held while writing: a HELLO's resend never overtakes a newer show
            changed = (lights, text) != (self._lights, self._text)
            self._lights, self._text = dict(lights), text
            if changed and self.connected.is_set():
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
            port = self._port
            if port is None:
                self._connect()
                continue
            try:
                # Every pyserial port class has in_waiting; the stubs' SerialBase does not.
                chunk = port.read(port.in_waiting or 1)  # type: ignore[attr-defined]
            except (serial.SerialException, OSError, TypeError) as error:
                # pyserial raises TypeError from a pty whose other side was closed mid-read.
                self._lost(error)
                self._stop.wait(RETRY)
                continue
            for line in self._lines(chunk):
                self._read(line)
            if not self.connected.is_set():
                self._ask_again(port)

    def _lines(self, chunk: bytes) -> list[bytes]:
        """The whole lines that `chunk` completes; a partial one waits for the rest."""
        self._pending += chunk
        *lines, rest = self._pending.split(b"\n")
        self._pending = bytearray(rest)
        if self._overlong and lines:
            lines.pop(0)  # the end of the line that was too long
            self._overlong = False
        if len(self._pending) > MAX_LINE:
            log.info("seat panel: a line longer than %s bytes, skipped", MAX_LINE)
            self._pending.clear()
            self._overlong = True
        return [bytes(line.strip()) for line in lines if line.strip()]

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
        log.info("seat panel port %s open, asking HELLO?", getattr(port, "port", port))
        self._pending.clear()
        self._overlong = False
        self._port = port
        self._asked = time.monotonic()
        self._write(HELLO_QUERY)

    def _ask_again(self, port: serial.SerialBase) -> None:
        """No HELLO yet: ask again now and then (a Pico still starting, or not a panel)."""
        if time.monotonic() - self._asked < ASK_AGAIN:
            return
        if not self._quiet:
            self._report(f"seat panel on {getattr(port, 'port', port)} does not say HELLO")
        self._asked = time.monotonic()
        self._write(HELLO_QUERY)

    def _read(self, line: bytes) -> None:
        try:
            message = parse_panel_line(line)
        except ProtocolError as error:
            log.info("seat panel: %s in %r", error, line)
            return
        if isinstance(message, Hello):
            self._hello(message)
        elif isinstance(message, Pressed):
            if self.connected.is_set():
                self._on_press(message.button, message.long)
            else:
                log.info("seat panel: a press before HELLO, ignored")

    def _hello(self, hello: Hello) -> None:
        """The panel said who it is (at its start, or answering HELLO?): it is connected; send
        it the lights and the text it may have lost."""
        self.hello = hello
        if hello.version != VERSION:
            log.error("seat panel speaks protocol %s, this companion %s", hello.version, VERSION)
        port = self._port
        if port is None:
            return
        first = not self.connected.is_set()
        with self._lock:
            self.connected.set()  # a show() from now on sends its own, after this state
            self._write(leds_line(self._lights) + text_line(self._text))
        if not first:
            return
        log.info("seat panel %s on %s", hello.firmware, getattr(port, "port", port))
        self._quiet = False
        if self.problem is not None:
            log.warning("seat panel back")
            self.problem = None
            self._on_problem(None)

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
