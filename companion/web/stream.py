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

A stream's thread sends only its start (and its `bye`) and then sleeps: the session's writer
writes every stream's updates right after a change (`StreamWriter`), so a tap wakes no thread
of the streams, let alone one per phone.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from waitress.channel import ClientDisconnected

from companion.session import Listener, Session
from companion.session.listeners import sse

from .access import Access, digest

log = logging.getLogger(__name__)

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


BYE = sse({}, "bye")  # the last message of a stream ended by the companion, not by its client


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
        held = digest(seat_secret) if seat_secret else None
        return Credential(
            "seat",
            "seat:" + audience,
            address,
            lambda: held is not None and access.seat_of_digest(held) == audience,
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
        self.writer = StreamWriter()

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
    """What the server tells a stream of its client, and how to write to it. Waitress gives each
    request `waitress.client_disconnected` (reliable with `channel_request_lookahead` set, see
    `server.py`); the channel it belongs to (`channel.py`) counts the bytes not yet sent and takes
    bytes from any thread, so the one `StreamWriter` queues every stream's updates and then wakes
    waitress' event loop once to send them all (`send`). Without waitress (another WSGI server,
    the tests' client) the client is always there, reads everything, and the stream's own thread
    yields its updates."""

    def __init__(self, environ: dict) -> None:
        self._gone: Callable[[], bool] = environ.get("waitress.client_disconnected") or (
            lambda: False
        )
        self._channel = getattr(self._gone, "__self__", None)
        # Waitress sends a body of unknown length to an HTTP/1.1 client in chunks.
        self._chunked = environ.get("SERVER_PROTOCOL") == "HTTP/1.1"

    @property
    def writable(self) -> bool:
        """Whether another thread may write this stream (`write`)."""
        return callable(getattr(self._channel, "queue", None))

    def gone(self) -> bool:
        return bool(self._gone())

    def backlog(self) -> int:
        return int(getattr(self._channel, "total_outbufs_len", 0))

    def write(self, text: str) -> bool:
        """Queue `text` on this stream's connection (framed as the chunk waitress would make of
        it), sent once `send` wakes the event loop; False when the client has gone."""
        data = text.encode()
        if self._chunked:
            data = b"%X\r\n%b\r\n" % (len(data), data)
        try:
            self._channel.queue(data)  # type: ignore[union-attr]
        except ClientDisconnected:
            return False
        return True

    def send(self) -> None:
        """Wake the event loop, which sends what every stream has queued."""
        self._channel.wake()  # type: ignore[union-attr]


class Feed:
    """One open stream: its listener and what it decides at each look (the same whichever thread
    looks): go on, say `bye` (superseded, no longer allowed), or end without a word (the client
    gone or not reading, the companion stopping)."""

    def __init__(
        self,
        listener: Listener,
        streams: Streams,
        ticket: int,
        allowed: Callable[[], bool],
        client: Connection,
        clock: Callable[[], float],
    ) -> None:
        self.listener, self.streams, self.ticket = listener, streams, ticket
        self.allowed, self.client, self.clock = allowed, client, clock
        self.quiet_since = clock()
        self.ended = threading.Event()
        self.farewell = False  # ended with a `bye`, which the stream's own thread sends

    def verdict(self) -> str | None:
        """None: the stream goes on; "bye": it ends with a farewell; "end": it ends silently."""
        if self.listener.closed:
            return "end"  # the companion is stopping
        if self.client.gone() or self.client.backlog() > BACKLOG:
            return "end"
        if self.streams.superseded(self.ticket) or not self.allowed():
            return "bye"
        return None

    def sent(self) -> None:
        self.quiet_since = self.clock()

    def keep_alive_due(self) -> bool:
        return self.clock() - self.quiet_since >= KEEP_ALIVE


class StreamWriter:
    """Every open stream that waitress holds, written from outside its own thread: each stream's
    waitress thread only sends the start and the `bye`, and sleeps meanwhile.

    A change's updates are written by the session's writer itself, on its own turn right after
    it told the listeners (`told`, given to `Session.after_telling`), and the event loop woken
    once to send them all: a tap wakes no thread of the streams (issue 29, point 2: ten stream
    threads took about a hundred context switches a tap; one thread of the streams woken for
    it, a further five). The streams' own thread looks every TICK for clients gone and
    keep-alives due, and serves a stream added or a listener closed or nudged meanwhile. One
    thread at a time serves (`_serving`), so a stream's updates go out in their order."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._news = threading.Condition()
        self._ready: set[Feed] = set()  # the streams to look at before the next TICK
        self._feeds: list[Feed] = []
        self._serving = threading.Lock()
        self._thread: threading.Thread | None = None
        self._clock = clock

    def add(self, feed: Feed) -> None:
        feed.listener.on_news = lambda: self.wake(feed)
        with self._news:
            self._feeds.append(feed)
            self._ready.add(feed)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="room25-streams", daemon=True
                )
                self._thread.start()
            self._news.notify()

    def wake(self, feed: Feed) -> None:
        """A listener closed or nudged: its stream looked at now, by the streams' thread."""
        with self._news:
            if not self._ready:
                self._news.notify()
            self._ready.add(feed)

    def told(self, listeners: list[Listener]) -> None:
        """On the session's writer: the streams of the listeners a change reached, written."""
        heard = set(listeners)
        with self._news:
            feeds = [f for f in self._feeds if f.listener in heard]
        self._write(feeds)

    def _run(self) -> None:
        looked = self._clock()
        while True:
            with self._news:
                self._news.wait_for(lambda: self._ready, max(0.0, looked + TICK - self._clock()))
                if self._clock() - looked >= TICK:  # every stream: clients gone, keep-alives
                    feeds, looked = list(self._feeds), self._clock()
                else:
                    feeds = [f for f in self._feeds if f in self._ready]
                self._ready.clear()
            self._write(feeds)

    def _write(self, feeds: list[Feed]) -> None:
        with self._serving:
            written = None
            for feed in feeds:
                try:
                    why = self._serve(feed)
                    written = feed.client if feed.client.backlog() else written
                except Exception:  # one stream's failure must not leave the others unwritten
                    log.exception("a stream could not be written; it ends")
                    why = "end"
                if why is not None:
                    self._end(feed, why)
            if written is not None:  # every stream's bytes sent by one turn of the event loop
                written.send()

    def _serve(self, feed: Feed) -> str | None:
        """Write what `feed` has to send now; why it ends, if it does. The verdict is asked
        before each message, and once when there is none (a client gone, a seat freed)."""
        why = feed.verdict()
        if why is not None:
            return why
        asked = True
        while (update := feed.listener.next(timeout=0)) is not None:
            if not asked and (why := feed.verdict()) is not None:
                return why
            if not feed.client.write(update.message()):
                return "end"
            feed.sent()
            asked = False
        if feed.keep_alive_due():
            if not feed.client.write(": keep-alive\n\n"):
                return "end"
            feed.sent()
        return None

    def _end(self, feed: Feed, why: str) -> None:
        with self._news:
            self._feeds.remove(feed)
        feed.listener.on_news = None
        feed.farewell = why == "bye"
        feed.ended.set()


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
    reconnect starts from a fresh snapshot, which is the resync of a slow reader. Under waitress
    the updates are written by `streams.writer`; elsewhere by this generator itself."""
    client = connection or Connection({})
    feed = Feed(session.listen(audience), streams, ticket, allowed, client, clock)
    try:
        yield ": room25\n\n"
        yield "retry: 2000\n\n"
        yield sse(session.snapshot(audience))
        feed.sent()
        if client.writable:
            client.send()  # its start: the loop sends a task's bytes when woken, or at its end
            streams.writer.add(feed)
            feed.ended.wait()
            if feed.farewell:
                yield BYE
            return
        while True:
            update = feed.listener.next(timeout=TICK)
            why = feed.verdict()
            if why is not None:
                if why == "bye":
                    yield BYE
                return
            if update is not None:
                yield update.message()
                feed.sent()
            elif feed.keep_alive_due():
                yield ": keep-alive\n\n"
                feed.sent()
    finally:
        feed.listener.close()
        on_close(streams.close(ticket))
