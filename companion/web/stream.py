"""Live updates by Server-Sent Events: each client gets its own audience's view only.

A stream starts with a comment (so proxies and phones see bytes at once), then a fresh snapshot,
then every update of its audience, and a keep-alive comment every 15 seconds so a sleeping phone's
connection is noticed. A reconnect is a new stream, so it starts from a fresh snapshot. Each open
stream holds one waitress thread, so their number is capped and a phone's new stream ends its
old one (a phone that slept often reconnects before the old connection is noticed dead).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

KEEP_ALIVE = 15.0  # seconds between keep-alive comments
TICK = 1.0  # seconds: how often a quiet stream checks that its client may still listen
MAX_STREAMS = 16  # 8 phones, host, table, panel, and room for reconnects (see docs/web.md)


def event(update: dict, name: str = "update") -> str:
    """One SSE message: the JSON update on a single data line."""
    return f"event: {name}\ndata: {json.dumps(update, separators=(',', ':'))}\n\n"


class Streams:
    """The open streams, counted, each under the key of its client (its secret, or none)."""

    def __init__(self, limit: int = MAX_STREAMS) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._open: dict[int, str | None] = {}
        self._audience: dict[int, str] = {}
        self._superseded: set[int] = set()
        self._next = 0

    def open(self, key: str | None, audience: str = "public") -> int | None:
        """A ticket for a new stream, or None when too many are open. A client's older stream
        under the same key is told to end."""
        with self._lock:
            if key is not None:
                self._superseded.update(t for t, k in self._open.items() if k == key)
            live = len(self._open) - len(self._superseded & self._open.keys())
            if live >= self.limit:
                return None
            self._next += 1
            self._open[self._next] = key
            self._audience[self._next] = audience
            return self._next

    def superseded(self, ticket: int) -> bool:
        with self._lock:
            return ticket in self._superseded

    def close(self, ticket: int) -> str | None:
        """Forget a stream; its audience when this was the audience's last stream open."""
        with self._lock:
            if self._open.pop(ticket, None) is None:
                return None
            self._superseded.discard(ticket)
            audience = self._audience.pop(ticket)
            return None if audience in self._audience.values() else audience

    def count(self) -> int:
        with self._lock:
            return len(self._open)


def updates(
    session: Any,
    audience: str,
    streams: Streams,
    ticket: int,
    allowed: Callable[[], bool],
    clock: Callable[[], float] = time.monotonic,
    on_close: Callable[[str | None], None] = lambda last: None,
) -> Iterator[str]:
    """The body of one stream. `allowed` is asked before every message: a seat freed by the host
    or a host who logged out stops receiving at once."""
    listener = session.listen(audience)
    try:
        yield ": room25\n\n"
        yield "retry: 2000\n\n"
        yield event(session.snapshot(audience))
        quiet_since = clock()
        while True:
            update = listener.get(timeout=TICK)
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
