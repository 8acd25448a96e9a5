"""`room25 serve`: the session, the web server, the hardware and the voice, started together
and stopped cleanly (journal closed, display cleared) on SIGTERM or Ctrl-C. This is the
composition root: the one module that knows every layer, so that none of them knows another
above it (docs/session.md, "The layers")."""

from __future__ import annotations

import errno
import fcntl
import ipaddress
import logging
import os
import signal
import socket
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import IO, TYPE_CHECKING

from companion import heap, words
from companion.config import Config, load_config
from companion.lan import join_address, join_host
from companion.session import systemd_notify
from companion.session.journal import JournalError
from companion.session.session import Session
from companion.words.said import Said

if TYPE_CHECKING:  # started only when asked for, each after its own import
    from companion.hardware.table import Hardware
    from companion.voice.voice import Voice

log = logging.getLogger("room25")

JOURNAL_NAME = "journal.sqlite"
WRITE_TRIES = 5  # a line to print or log, before giving up
OPEN_TRIES = 20  # the journal to open (a new one writes three migrations), 0.1 s apart
LOCK_NAME = "room25.lock"
MODEL_FILE = Path("/proc/device-tree/model")


class ServeError(Exception):
    """Why the companion cannot start, in plain words: a code of the catalogue
    (`serve_error_<code>`, words/<lang>/serve.json) said in the table's language (`text`)."""

    def __init__(self, code: str, /, **params: object) -> None:
        self.said = Said(f"serve_error_{code}", params)
        super().__init__(str(self.said))

    def text(self, lang: str = "") -> str:
        return self.said.text(lang)


class Stop(SystemExit):
    """SIGTERM: leave the web server's loop the way Ctrl-C does (waitress returns on it)."""


def write_line(line: str, stream: IO[str]) -> OSError | None:
    """One whole line on `stream`, written straight to its file descriptor and retried when the
    system refuses it (a failing SD card, a full pipe): a refused write(2) wrote nothing, and
    a short one is followed by the rest, so the line goes out once and whole. (Through Python's
    buffers a refused write loses what was buffered.) The last refusal if it never went out."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError):  # not a file (a test's StringIO): nothing to retry
        stream.write(line + "\n")
        return None
    data = (line + "\n").encode(getattr(stream, "encoding", None) or "utf-8", "replace")
    refused: OSError | None = None
    for attempt in range(WRITE_TRIES):
        try:
            stream.flush()  # anything Python holds goes first, in order
            while data:
                data = data[os.write(fd, data) :]
            return None
        except OSError as error:
            refused = error
            time.sleep(0.01 * attempt)
    return refused


def say(line: str, stream: IO[str] | None = None) -> None:
    """A line for whoever started serve (standard output unless `stream`: `ready on`, the
    PIN); one that cannot be written is logged, never a traceback."""
    refused = write_line(line, stream or sys.stdout)
    if refused is not None:
        log.warning("could not print %r (%s)", line, refused)


class LineHandler(logging.StreamHandler):
    """Log lines written whole and retried (`write_line`); one that never goes out is dropped,
    there being nowhere left to say it, instead of a traceback on the same refusing stream."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self.format(record)
        except Exception:
            self.handleError(record)
            return
        write_line(text, self.stream)


def setup_logging(stream: IO[str] = sys.stderr) -> None:
    """Plain lines on stderr (journald adds the time); a terminal gets the time too."""
    handler = LineHandler(stream)
    tty = stream.isatty()
    form = (
        "%(asctime)s %(levelname)s %(name)s: %(message)s"
        if tty
        else ("%(levelname)s %(name)s: %(message)s")
    )
    handler.setFormatter(logging.Formatter(form, "%H:%M:%S"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)


def choose_hardware(asked: str | None, model_file: Path = MODEL_FILE) -> tuple[str, str]:
    """The hardware to drive and why: as asked, else a Raspberry Pi's own, else virtual."""
    if asked:
        return asked, f"--hardware {asked} was asked for"
    try:
        model = model_file.read_text(errors="replace").strip("\x00\n ")
    except OSError:
        return "virtual", f"{model_file} cannot be read, so this is not a Raspberry Pi"
    if "Raspberry Pi" in model:
        return "pi", f"{model_file} says {model!r}"
    return "virtual", f"{model_file} says {model!r}, not a Raspberry Pi"


def default_data_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("room25"))


def take_lock(data_dir: Path) -> IO[str]:
    """One `serve` per data directory: a second one would write the same journal."""
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        handle = (data_dir / LOCK_NAME).open("a+")
    except OSError as error:
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            raise ServeError("read_only", path=str(data_dir)) from None
        raise ServeError("data_dir", path=str(data_dir), why=error.strerror) from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise ServeError("running", path=str(data_dir)) from None
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
    except OSError as error:  # the lock holds all the same: the pid in it is for people
        log.warning("the lock file %s could not take this pid (%s)", handle.name, error)
    return handle


def _writable(data_dir: Path) -> None:
    if not os.access(data_dir, os.W_OK):
        raise ServeError("read_only", path=str(data_dir))


def listen(host: str, port: int) -> list[socket.socket]:
    """The web server's listening sockets, bound before anything says "ready": a port another
    program holds stops the companion here, with the reason, instead of after announcing it.
    Port 0 lets the system choose a free port, the same one for every address of `host` (the
    tests' servers: a port chosen beforehand may be taken by another program meanwhile)."""
    try:
        found = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP, flags=socket.AI_PASSIVE
        )
    except socket.gaierror:
        raise ServeError("unknown_host", host=host) from None
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _name, address in dict.fromkeys(found):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind((address[0], port, *address[2:]))
            sock.listen(1024)
            port = sock.getsockname()[1]
    except OSError as error:
        for sock in sockets:
            sock.close()
        raise _cannot_listen(host, port, error) from None
    return sockets


def _cannot_listen(host: str, port: int, error: OSError) -> ServeError:
    if error.errno == errno.EADDRINUSE:
        return ServeError("port_in_use", port=port)
    if error.errno == errno.EACCES:
        return ServeError("port_privileged", port=port)
    if error.errno == errno.EADDRNOTAVAIL:
        return ServeError("not_this_host", host=host)
    return ServeError("cannot_listen", host=host, port=port, why=error.strerror)


def _say_ready(port: int, stop: threading.Event, session: Session, lang: str) -> None:
    """The `ready` line and systemd's READY=1, once the sockets listen (a connection made now
    waits in their queue until the web server takes it); then the watchdog, while the session's
    writer answers."""
    say(words.text(lang, "serve_ready", url=f"http://127.0.0.1:{port}"))
    systemd_notify.notify_ready()
    interval = systemd_notify.watchdog_interval()
    if interval is not None:
        threading.Thread(
            target=systemd_notify.keep_petting,
            args=(interval, lambda timeout: session.healthy(timeout=timeout), stop),
            name="room25-watchdog",
            daemon=True,
        ).start()


def serve(
    data_dir: Path | None, port: int | None, config_file: Path | None, hardware: str | None
) -> int:
    heap.limit_arenas()  # before any thread starts
    setup_logging()
    config: Config = load_config(config_file)
    data_dir = Path(data_dir) if data_dir else default_data_dir()
    port = config.web.port if port is None else port
    if not 0 <= port <= 65535:
        said = words.text(config.table.language, "serve_bad_port", port=port)
        say(f"room25 serve: {said}", sys.stderr)
        return 1
    try:
        lock = take_lock(data_dir)
    except ServeError as error:
        say(f"room25 serve: {error.text(config.table.language)}", sys.stderr)
        return 1
    try:
        return _serve_locked(data_dir, port, config, hardware)
    except ServeError as error:
        say(f"room25 serve: {error.text(config.table.language)}", sys.stderr)
        return 1
    finally:
        lock.close()


def _serve_locked(data_dir: Path, port: int, config: Config, asked: str | None) -> int:
    _writable(data_dir)
    sockets = listen(config.web.host, port)
    try:
        return _serve_listening(data_dir, sockets[0].getsockname()[1], config, asked, sockets)
    finally:
        for sock in sockets:
            sock.close()


def _serve_listening(
    data_dir: Path, port: int, config: Config, asked: str | None, sockets: list[socket.socket]
) -> int:
    session = Session(
        data_dir / JOURNAL_NAME,
        time_limit=config.table.time_limit,
        warning=config.table.warning,
    )
    _open(session)
    if session.moved_aside is not None:
        aside = str(session.moved_aside)
        said = words.text(config.table.language, "serve_journal_aside", path=aside)
        say(f"room25 serve: {said}", sys.stderr)
    kind, why = choose_hardware(asked)
    log.info("hardware: %s (%s)", kind, why)
    from companion.web import create_app, parts, serve_app

    rig = voice = None
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, _raise_stop)
    try:
        served = replace(config, web=replace(config.web, port=port))  # --port wins
        here = join_address(port, "127.0.0.1")
        addresses = {here}
        if not _loopback(config.web.host):  # on 127.0.0.1 only, no phone can reach a LAN address
            addresses.add(join_address(port, join_host(config.web.public_address)))
        rig = _start_hardware(session, served, kind, port)
        voice = _start_voice(session, served, kind)
        if rig is not None and voice is not None:
            rig.set_voice(voice)
        app = create_app(session, served, rig, voice=voice)
        access = parts.access(app)
        lang = config.table.language
        unseen = words.text(lang, "serve_pin_on_display")
        pin = getattr(access, "pin", None) or os.environ.get("ROOM25_HOST_PIN", unseen)
        if rig is not None:
            rig.set_pin(pin)
        for address in sorted(addresses):  # this machine, and the address phones open
            say(words.text(lang, "serve_on", url=address))
        if kind == "virtual":
            say(words.text(lang, "serve_virtual_table", url=f"{here}panel"))
        say(words.text(lang, "serve_pin", pin=pin))
        heap.keep_trimmed(stop)  # the evening's scattered free pages handed back (heap.py)
        _say_ready(port, stop, session, lang)
        serve_app(app, listening=sockets, stopping=lambda: _stop(stop, rig, voice, session))
    except (KeyboardInterrupt, Stop):
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        _stop(stop, rig, voice, session)
    return 0


def _open(session: Session) -> None:
    """The journal opened, tried again a few times when a write of its opening fails (a card
    failing now and then); one that cannot be opened stops serve in words."""
    for attempt in range(OPEN_TRIES):
        try:
            session.open()
            return
        except JournalError as error:
            if attempt == OPEN_TRIES - 1:
                raise ServeError("journal", problem=error.said) from None
            log.warning("%s; trying again", error)
            time.sleep(0.1)


def _stop(
    stop: threading.Event, rig: Hardware | None, voice: Voice | None, session: Session
) -> None:
    """Once, however the serve ends: the display cleared and no more button presses, the voice
    silent, the journal closed (which ends every stream still open)."""
    if stop.is_set():
        return
    log.info("stopping")
    stop.set()
    systemd_notify.notify_stopping()
    if rig is not None:
        rig.close()
    if voice is not None:
        voice.close()
    session.close()
    log.info("journal closed")


def _start_voice(session: Session, config: Config, kind: str) -> Voice | None:
    """The show's voice: through the Pi's speaker on a Pi; elsewhere (the virtual panel, the
    mock) nothing is played here, and the browser plays it (the panel's WAV, the table page's
    speech). A voice that cannot start is logged: the game never waits on it."""
    if not config.voice.enabled:
        return None
    try:
        from companion.voice import start_voice

        return start_voice(session, config, speaker=kind == "pi")
    except Exception:  # a missing or broken engine must never stop the table
        log.exception("voice: not started (the game goes on without it)")
        return None


def _start_hardware(session: Session, config: Config, kind: str, port: int) -> Hardware | None:
    """The display, buzzer, buttons and panel; without them the phones still play. The OLED's
    QR code is for `port`, the port actually served, at the address worked out as it shows."""
    try:
        from companion.hardware import start_hardware
    except ImportError as error:
        log.warning("no hardware: %s (the phones and the table page still work)", error)
        return None
    rig = start_hardware(session, config, kind, port=port)
    log.info("%s", rig.describe())
    return rig


def _loopback(host: str) -> bool:
    """Whether `[web] host` is this machine only (127.0.0.1, ::1, localhost)."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _raise_stop(signum: int, frame: object) -> None:
    raise Stop()
