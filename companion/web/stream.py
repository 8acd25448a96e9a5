"""Live updates by Server-Sent Events: each client gets its own audience's view only.

A stream starts with a comment (so proxies and phones see bytes at once), then a fresh snapshot,
then every update of its audience, and a keep-alive comment every 15 seconds. A reconnect is a
new stream, so it starts from a fresh snapshot.

Each open stream holds one of waitress' threads, so who may hold one is decided here, and a
crowded or hostile Wi-Fi cannot take the table's own (see docs/web.md, "Threads and streams"):

- every seat has one stream of its own, the host's login one, and the table page one when it is
  opened on the Pi itself or by a host login; a newer stream of the same credential ends the
  older (a phone that slept often reconnects before its old connection is noticed dead);
- anybody else shares a few anonymous streams, at most two per address;
- a client gone is noticed within a second (waitress tells, see `Connection`), and a client that
  does not read what it is sent is dropped once a little is waiting for it: it reconnects to a
  fresh snapshot, and the server never holds more than `BACKLOG` bytes of any stream.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from companion.session import Session
from companion.session.publish import Update, sse

from .access import Access

KEEP_ALIVE = 15.0  # seconds between keep-alive comments
TICK = 1.0  # seconds: how often a quiet stream checks that its client is still there
# Live streams of each kind: 8 seats, the host (two logins: a phone and a laptop), the table
# page (on the Pi and on a tablet), and the anonymous ones (a spectator, a table page not
# logged in), at most PER_ADDRESS of these from one address.
LIMITS = {"seat": 8, "host": 2, "table": 2, "anonymous": 4}
PER_ADDRESS = 2
MAX_STREAMS = sum(LIMITS.values())
BACKLOG = 64 * 1024  # bytes sent to a client but not yet read: more drops the stream
THIS_MACHINE = ("127.0.0.1", "::1")  # a table page from here is the Pi's own screen


def event(update: dict, name: str = "update") -> str:
    """One SSE message: the JSON update on a single data line (a published update's made once
    for every stream that sends it)."""
    if name == "update" and isinstance(update, Update):
        return update.message()
    return sse(update, name)


@dataclass(frozen=True)
class Credential:
    """Who holds a stream: its kind (a key of LIMITS), the key that a newer stream of the same
    holder replaces (None: anonymous), the address it comes from, and whether it may still
    listen (a seat freed by the host, a host logged out: asked before every message)."""

    kind: str
    key: str | None
    address: str
    allowed: Callable[[], bool]


def credential(
    access: Access,
    audience: str,
    seat_secret: str | None,
    host_secret: str | None,
    address: str | None,
) -> Credential:
    """The credential of a stream for `audience` ("public", "host" or a seat id), the caller
    already allowed that audience."""
    address = address or "?"
    if audience == "host":
        return Credential(
            "host", "host:" + (host_secret or ""), address, lambda: access.is_host(host_secret)
        )
    if audience != "public":
        return Credential(
            "seat", "seat:" + audience, address, lambda: access.seat_of(seat_secret) == audience
        )
    if access.is_host(host_secret):
        return Credential("table", "table:" + (host_secret or ""), address, lambda: True)
    if address in THIS_MACHINE:
        return Credential("table", "table:" + address, address, lambda: True)
    return Credential("anonymous", None, address, lambda: True)


class Streams:
    """The open streams, each with its credential and audience."""

    def __init__(self, limits: dict[str, int] | None = None, per_address: int = PER_ADDRESS):
        self.limits = dict(LIMITS if limits is None else limits)
        self.per_address = per_address
        self._lock = threading.Lock()
        self._open: dict[int, tuple[Credential, str]] = {}
        self._superseded: set[int] = set()
        self._next = 0

    def open(self, holder: Credential, audience: str = "public") -> int | None:
        """A ticket for a new stream, or None when its kind has no room. The same holder's older
        stream is told to end and no longer counts."""
        with self._lock:
            if holder.key is not None:
                self._superseded.update(
                    t for t, (c, _) in self._open.items() if c.key == holder.key
                )
            live = [c for t, (c, _) in self._open.items() if t not in self._superseded]
            if sum(c.kind == holder.kind for c in live) >= self.limits.get(holder.kind, 0):
                return None
            if holder.kind == "anonymous" and (
                sum(c.kind == "anonymous" and c.address == holder.address for c in live)
                >= self.per_address
            ):
                return None
            self._next += 1
            self._open[self._next] = (holder, audience)
            return self._next

    def superseded(self, ticket: int) -> bool:
        """Read without the lock (one set lookup is atomic): every stream asks before each
        message, all at once after a change."""
        return ticket in self._superseded

    def close(self, ticket: int) -> str | None:
        """Forget a stream; its audience when this was the audience's last stream open."""
        with self._lock:
            found = self._open.pop(ticket, None)
            if found is None:
                return None
            self._superseded.discard(ticket)
            audience = found[1]
            return None if any(a == audience for _, a in self._open.values()) else audience

    def count(self) -> int:
        with self._lock:
            return len(self._open)


class Connection:
    """What the server tells a stream of its client. Waitress gives each request
    `waitress.client_disconnected` (reliable with `channel_request_lookahead` set, see
    `server.py`); the channel it belongs to counts the bytes not yet sent. Without waitress
    (the tests' client) the client is always there and reads everything."""

    def __init__(self, environ: dict) -> None:
        self._gone: Callable[[], bool] = environ.get("waitress.client_disconnected") or (
            lambda: False
        )
        self._channel = getattr(self._gone, "__self__", None)

    def gone(self) -> bool:
        return bool(self._gone())

    def backlog(self) -> int:
        return int(getattr(self._channel, "total_outbufs_len", 0))


def updates(
    session: Session,
    audience: str,
    streams: Streams,
    ticket: int,
    allowed: Callable[[], bool],
    clock: Callable[[], float] = time.monotonic,
    on_close: Callable[[str | None], None] = lambda last: None,
    connection: Connection | None = None,
) -> Iterator[str]:
    """The body of one stream. `allowed` is asked before every message: a seat freed by the host
    or a host who logged out stops receiving at once. A client gone, or one that leaves more
    than BACKLOG bytes unread, ends the stream without a word (none could reach it); a
    reconnect starts from a fresh snapshot, which is the resync of a slow reader."""
    client = connection or Connection({})
    listener = session.listen(audience)
    try:
        yield ": room25\n\n"
        yield "retry: 2000\n\n"
        yield event(session.snapshot(audience))
        quiet_since = clock()
        while True:
            update = listener.get(timeout=TICK)
            if listener.closed:
                return  # the companion is stopping
            if client.gone() or client.backlog() > BACKLOG:
                return
            if streams.superseded(ticket) or not allowed():
                yield event({}, "bye")
                return
            if update is not None:
                yield event(update)
                quiet_since = clock()
            elif clock() - quiet_since >= KEEP_ALIVE:
                yield ": keep-alive\n\n"
                quiet_since = clock()
    finally:
        listener.close()
        on_close(streams.close(ticket))
