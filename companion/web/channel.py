"""The companion's waitress connections: every byte sent by the event loop, none by the thread
that wrote it.

Waitress' own `write_soon` sends from the writing thread at once, holding the connection's lock
while it does. Meanwhile the event loop, finding bytes waiting that it may not take, polls again
at once, and again, until the lock is free: a seat's press cost about eighty turns of the loop
with ten streams written so, and fifteen for the press's own answer (issue 29, point 2). Here a
write only appends the bytes, under the lock, as `write_soon` appends them; the loop sends them
when it is next woken: at the end of the request's task (waitress wakes it then), as soon as more
than the output buffer's watermark waits (waitress' own wait for it), or by `wake`, which a task
that goes on writing (an event stream) calls itself. The streams' writer queues every stream's
update and wakes the loop once for all of them. Every wake carries the sending with it
(`sending_on_wake`): the loop sends in the turn it wakes for rather than looking at every
connection once more first.

The servers of one waitress process share one event loop: waking it through any of them wakes it
for every connection.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any, cast

from waitress.buffers import OverflowableBuffer, ReadOnlyFileBasedBuffer
from waitress.channel import ClientDisconnected, HTTPChannel
from waitress.server import BaseWSGIServer

log = logging.getLogger(__name__)


class QueuedChannel(HTTPChannel):
    """A connection whose bytes the event loop sends (`write_soon` keeps waitress' contract:
    a file is sent as waitress sends it, and a writer waits while too much is unsent)."""

    def queue(self, data: bytes) -> int:
        """Append `data` for the loop to send, without waking it (`wake`)."""
        with self.outbuf_lock:
            if not self.connected:
                raise ClientDisconnected
            if self.current_outbuf_count >= self.adj.outbuf_high_watermark:
                # a new buffer, as waitress starts one, so a long stream's sent bytes are freed
                cast(list, self.outbufs).append(OverflowableBuffer(self.adj.outbuf_overflow))
                self.current_outbuf_count = 0
            self.outbufs[-1].append(data)
            self.current_outbuf_count += len(data)
            self.total_outbufs_len += len(data)
        return len(data)

    def wake(self) -> None:
        """Have the event loop send what every connection queued, now."""
        self.server.pull_trigger()

    def write_soon(self, data: Any) -> int:
        # Waitress' own internals, which its type stubs leave out, are reached through `waitress`.
        waitress = cast(Any, super())
        if isinstance(data, ReadOnlyFileBasedBuffer) or not data:
            return int(waitress.write_soon(data))
        if not self.connected:
            raise ClientDisconnected
        with self.outbuf_lock:
            waitress._flush_outbufs_below_high_watermark()  # waits while too much is unsent
            return self.queue(data)


def send_queued(connections: dict[int, Any]) -> None:
    """On the event loop: each connection's queued bytes sent, as its `handle_write` sends them
    when the loop finds it writable."""
    for channel in list(connections.values()):
        if isinstance(channel, QueuedChannel) and channel.total_outbufs_len:
            channel.handle_write()


def sending_on_wake(loop: Any) -> None:
    """The loop's trigger, once read, sends what is queued (`send_queued`) in that same turn:
    woken bare, the loop would look at every connection once more and send in the turn after.

    Not as one of the trigger's thunks: waitress runs those under a bare `except`, which would
    swallow the `Stop` that SIGTERM raises in this thread (serve then never stopped), and under
    the trigger's lock. Here the sending runs after the read, as the loop's own writes do: a
    stop goes through, and a failure is logged without closing the trigger."""
    read = loop.trigger.handle_read

    def handle_read() -> None:
        read()
        try:
            send_queued(loop._map)
        except Exception:  # the trigger's own handle_error would close it: no more wake-ups
            log.exception("queued bytes could not be sent; the loop sends them when writable")

    loop.trigger.handle_read = handle_read


def wsgi_servers(server: Any) -> Iterator[BaseWSGIServer]:
    """The waitress servers `create_server` made: one, or one per listening socket."""
    for found in [server, *getattr(server, "map", {}).values()]:
        if isinstance(found, BaseWSGIServer):
            yield found


def queue_on_the_loop(server: Any) -> None:
    """Every connection of `server` a `QueuedChannel`, and every wake of its loop sending."""
    for found in wsgi_servers(server):
        found.channel_class = QueuedChannel
        sending_on_wake(found)
