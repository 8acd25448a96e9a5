"""The web server: waitress, set up so that a crowded or hostile Wi-Fi cannot stall the table.

Waitress reads and writes every connection on one event loop and runs each request on a thread
of a fixed pool; an event stream keeps its thread while it is open. That holds here because who
may keep one is bounded in `stream.py` (each seat, the host and the table page have their own;
anonymous ones are few), and the rest is set below:

- `channel_request_lookahead=1`: waitress keeps reading a connection while its request runs, so
  a client that leaves is seen at once and its stream ends within a second (without it a dead
  stream was noticed only when a write failed, about 45 s later);
- every byte is sent by the event loop, none by the thread that wrote it (`channel.py`): a
  writing thread holding a connection while it sent made the loop spin;
- `outbuf_high_watermark`: waitress keeps a connection's sent bytes in its output buffer until
  the buffer reaches this size (16 MB by default, 160 MB for ten streams over an evening);
  256 KB bounds what any connection holds, with `stream.BACKLOG` dropping readers that lag;
- `connection_limit=1000` on `poll` (not `select`, which stops at 1024 descriptors) with idle
  connections closed after 15 s (`channel_timeout`, checked every 5 s): a hundred idle
  connections no longer make a new phone wait for a free one;
- the open-files limit raised to its hard limit, so those connections fit;
- the first request waits for the thread pool: waitress counts each new thread busy until it
  first waits for a task, so a request taken before then logged "Task queue depth is 1" (the
  first tap after "ready" did, with 30 threads idle a moment later). The loop starts once every
  thread waits, a few milliseconds after they are started; a depth logged later is real.
"""

from __future__ import annotations

import resource
import socket
import time
from collections.abc import Callable
from typing import Any

from flask import Flask

from .channel import queue_on_the_loop
from .guard import secure_server_errors
from .last_resort import last_resort
from .reads import hold_owing_connections
from .stream import MAX_STREAMS

# Threads: one per stream that may be open, 4 for superseded streams still ending (each within a
# second), and 8 for requests, so a burst of taps never waits behind the streams.
THREADS = MAX_STREAMS + 4 + 8
SETTINGS: dict[str, Any] = {
    "threads": THREADS,
    "channel_request_lookahead": 1,
    "outbuf_high_watermark": 256 * 1024,
    "connection_limit": 1000,
    "asyncore_use_poll": True,
    "channel_timeout": 15,
    "cleanup_interval": 5,
    "ident": "room25",
}


def raise_open_files(wanted: int = 4096) -> None:
    """Room for `connection_limit` connections besides the journal, the hardware and logs."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def create_server(
    app: Flask,
    host: str,
    port: int,
    listening: list[socket.socket] | None = None,
    stopping: Callable[[], None] = lambda: None,
) -> Any:
    """A waitress server for the app with the settings above, not yet running (`.run()`), on
    `host` and `port` or on sockets already `listening`. Once interrupted, `stopping` runs before
    waitress waits for its threads: closing the session and the hardware ends the streams and
    long polls that hold them, which waitress would otherwise wait 5 s for."""
    from waitress.server import create_server as waitress_server
    from waitress.task import ThreadedTaskDispatcher

    class Threads(ThreadedTaskDispatcher):
        def shutdown(self, cancel_pending: bool = True, timeout: int = 5) -> bool:
            stopping()
            return bool(super().shutdown(cancel_pending, timeout))

    raise_open_files()
    threads = Threads()
    threads.set_thread_count(SETTINGS["threads"])
    where: dict[str, Any] = {"sockets": listening} if listening else {"host": host, "port": port}
    server = waitress_server(last_resort(app), **where, **SETTINGS, _dispatcher=threads)
    queue_on_the_loop(server)
    return server


def wait_for_the_pool(server: Any, timeout: float = 2.0) -> None:
    """Until every thread of the server's pool waits for a task (or `timeout` seconds)."""
    dispatcher = server.task_dispatcher
    deadline = time.monotonic() + timeout
    while dispatcher.active_count > 0 and time.monotonic() < deadline:
        time.sleep(0.001)  # once, at start: waitress tells nobody when a thread first waits


def serve_app(
    app: Flask,
    host: str = "0.0.0.0",
    port: int = 8025,
    listening: list[socket.socket] | None = None,
    stopping: Callable[[], None] = lambda: None,
) -> None:
    """Serve until interrupted (never Flask's development server), on `host` and `port`, or on
    sockets already `listening` (`room25 serve` binds them before saying ready); `stopping` as
    for `create_server`."""
    server = create_server(app, host, port, listening, stopping)
    secure_server_errors(server)
    hold_owing_connections(server, app)
    server.print_listen("Serving on http://{}:{}")
    wait_for_the_pool(server)
    try:
        server.run()
    finally:
        server.close()
