"""systemd's notify protocol: one datagram per state on the socket named by $NOTIFY_SOCKET.

`room25 serve` says READY=1 once it listens, WATCHDOG=1 while the session is healthy (every
`watchdog_interval()`, a quarter of WatchdogSec=, see `keep_petting`), and STOPPING=1 on its
way out. Outside systemd (no $NOTIFY_SOCKET)
every call does nothing, so the same code runs on a laptop.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


def notify(state: str) -> bool:
    """Send `state` ("READY=1", ...) to systemd; True if a socket was there to take it."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # an abstract socket name
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(state.encode("utf-8"))
    except OSError as error:
        log.warning("systemd notify %s failed: %s", state, error)
        return False
    return True


def notify_ready() -> bool:
    """The companion serves: systemd may consider the unit started."""
    return notify("READY=1")


def notify_watchdog() -> bool:
    """The session is healthy: pet the watchdog (call at least every watchdog_interval())."""
    return notify("WATCHDOG=1")


def notify_stopping() -> bool:
    """The companion is shutting down on purpose."""
    return notify("STOPPING=1")


def watchdog_interval() -> float | None:
    """Seconds between pets (a quarter of WatchdogSec=), or None when no watchdog watches us."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 4_000_000
    except ValueError:
        return None


def keep_petting(
    interval: float,
    healthy: Callable[[float], bool],
    stop: threading.Event,
    *,
    clock: Callable[[], float] = time.monotonic,
    pet: Callable[[], object] = notify_watchdog,
) -> None:
    """Pet the watchdog while `healthy(timeout)` answers, until `stop` is set.

    A check starts `interval` after the previous one started and is given `interval` to answer,
    so two pets are at most two intervals (half of WatchdogSec=) apart however slow the checks
    are: a companion that answers late is not killed, one that stops answering is."""
    due = clock()
    while not stop.wait(max(0.0, due - clock())):
        started = clock()
        if healthy(interval):
            pet()
        else:
            log.error("the session's writer does not answer: the watchdog is not petted")
        due = started + interval
