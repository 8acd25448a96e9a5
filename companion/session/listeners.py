"""Listeners: the display, the buzzer, the LEDs and every web stream each read their own bounded
queue of updates. The writer only appends and never waits: when a queue is full its updates are
dropped and the listener gets one fresh snapshot instead, marked `"resync": true`."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Mapping

import orjson

from .shapes import TableUpdate

QUEUE_SIZE = 64


def sse(update: Mapping[str, object], name: str = "update") -> str:
    """One SSE message: the JSON of `update` on a single data line."""
    return f"event: {name}\ndata: {orjson.dumps(update).decode()}\n\n"


class Update:
    """A published `TableUpdate` as the listeners receive it, with its Server-Sent Events
    message made once for every stream that sends it. Nobody changes an update once it is
    published."""

    __slots__ = ("_message", "fields")

    def __init__(self, fields: TableUpdate) -> None:
        self.fields = fields
        self._message: str | None = None

    def message(self) -> str:
        """The SSE message of this update: its JSON on a single data line."""
        if self._message is None:
            self._message = sse(self.fields)
        return self._message


class Listener:
    """One audience's stream of updates ("public", "host" or a seat id)."""

    def __init__(
        self,
        audience: str,
        snapshot: Callable[[str], TableUpdate],
        forget: Callable[[Listener], None],
        size: int = QUEUE_SIZE,
    ) -> None:
        self.audience = audience
        self._snapshot = snapshot
        self._forget = forget
        self._size = size
        self._queue: deque[Update] = deque()
        self._ready = threading.Condition()
        self._resync = False
        self._nudged = False
        self.closed = False
        self.dropped = 0
        # Told (without the queue's lock) that the listener closed or was nudged, for a reader
        # of many listeners at once (the web's one stream writer), which hears of updates from
        # the session's writer itself (`Session.after_telling`) rather than from each one.
        self.on_news: Callable[[], None] | None = None

    def put(self, update: Update) -> None:
        """Called by the writer: never blocks on a slow reader."""
        with self._ready:
            if self.closed:
                return
            if self._resync:
                self.dropped += 1
                return
            if len(self._queue) >= self._size:
                self.dropped += len(self._queue) + 1
                self._queue.clear()
                self._resync = True
            else:
                self._queue.append(update)
            self._ready.notify()

    def _tell(self) -> None:
        told = self.on_news
        if told is not None:
            told()

    def get(self, timeout: float | None = None) -> TableUpdate | None:
        """The next update, a resync snapshot after an overflow, or None after `timeout` seconds
        (or once closed, or nudged)."""
        found = self.next(timeout)
        return None if found is None else found.fields

    def next(self, timeout: float | None = None) -> Update | None:
        """Like `get`, with the update's SSE message (a stream sends that)."""
        with self._ready:
            ready = self._news()
            if not ready and (timeout == 0 or not self._ready.wait_for(self._news, timeout)):
                return None  # a look with no wait makes no waiter (the streams' writer looks)
            if self._queue:
                return self._queue.popleft()
            if self.closed or self._nudged:
                self._nudged = False
                return None
            self._resync = False
        snapshot = self._snapshot(self.audience)
        return Update({**snapshot, "resync": True})

    def _news(self) -> bool:
        return bool(self._queue or self._resync or self.closed or self._nudged)

    def nudge(self) -> None:
        """Make the reader's `get` return now, with None if nothing came (a reader that waits
        without a timeout is asked to look at something else, or to stop)."""
        with self._ready:
            self._nudged = True
            self._ready.notify_all()
        self._tell()

    def pending(self) -> int:
        with self._ready:
            return len(self._queue)

    def close(self) -> None:
        with self._ready:
            self.closed = True
            self._queue.clear()
            self._ready.notify_all()
        self._forget(self)
        self._tell()
