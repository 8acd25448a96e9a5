"""Each address's share of the server's time for reads, as seat requests and PIN guesses have
their limits for writes (issue 28, point 7).

A read costs what it costs: a seat's view a few milliseconds, a finished game's episode replay a
hundred or more, most of it on the session's one writer (the journal is read there), where a
seat's press waits behind it. So the limit is on time, not on a count: each read's server time
is charged to its address (the CPU time of the thread that answered it, not the time from start to
answer: on a loaded machine or a Pi Zero a page's files waited seconds for a core, and a TV
opening the table page a second time was refused its own scripts), and an address that has
taken more than `BURST` seconds beyond its `SHARE` of each second is refused its next reads (429
`too_many_reads`, with `Retry-After`) until its debt has drained; an address has at most
`AT_ONCE` reads in progress.
One phone flooding the replay on eight connections then takes a small part of the server, and
the seats, the host and the table keep their latency. Under waitress the charge is all the
server's time for the address, its writes too (`hold_owing_connections`), and an address in
debt is not even read until its debt has drained. The companion itself (loopback,
`[panel] allow`) is not held, as for seat requests; streams and long polls have their own limits
(companion/web/stream.py, the panel's and the voice's waiters).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Request, Response, current_app, g, request
from flask.globals import request_ctx
from werkzeug.exceptions import HTTPException

from companion import heap
from companion.words import fallback

from .channel import wsgi_servers
from .guard import API_HEADERS, at_the_companion_address, from_the_companion, lang
from .i18n import language
from .replies import refusal

SHARE = 0.1  # seconds of server time per second an address's reads may take, in the long run
BURST = 2.0  # seconds of server time an address may take at once (a few replays, a page load)
# Reads of one address in progress at once: a browser loads a page's files over six connections
# to one server, none of them may be refused.
AT_ONCE = 6
ADDRESSES = 256  # addresses remembered at most (the oldest debt is forgotten first)
READS = ("GET", "HEAD")
# What decides how a read is refused early (`RefusedEarly`): who asks, for what, in what words.
KIND_OF_REQUEST = (
    "REMOTE_ADDR",
    "HTTP_HOST",
    "PATH_INFO",
    "HTTP_COOKIE",
    "HTTP_ACCEPT_LANGUAGE",
)
LARGE = 64 * 1024  # bytes of an answer (a replay, the history) after which the heap is trimmed
# Long-lived reads with their own limits: they wait for news, they take no server time.
OWN_LIMITS = ("api.stream", "panel.state", "voice.table_latest", "panel_voice.panel_latest")
# In a request's environ when the WSGI server charges its whole time (`hold_owing_connections`):
# a list whose one flag a long-lived read turns off.
SERVER_CHARGES = "room25.server_charges"


class ReadShare:
    """The debt of each address in seconds of server time, draining at `share` per second, and
    its reads in progress."""

    def __init__(
        self,
        share: float = SHARE,
        burst: float = BURST,
        at_once: int = AT_ONCE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.share, self.burst, self.at_once, self._clock = share, burst, at_once, clock
        self._lock = threading.Lock()
        self._debts: dict[str, tuple[float, float]] = {}  # address -> (debt, when counted)
        self._going: dict[str, int] = {}  # address -> reads in progress

    def _debt(self, address: str, now: float) -> float:
        debt, counted = self._debts.get(address, (0.0, now))
        return max(0.0, debt - (now - counted) * self.share)

    def debt(self, address: str) -> float:
        """The seconds of server time `address` owes now."""
        with self._lock:
            return self._debt(address, self._clock())

    def owed(self, address: str) -> float:
        """The seconds `address` must wait for its debt to drain below the burst (0: none)."""
        with self._lock:
            return max(0.0, self._debt(address, self._clock()) - self.burst) / self.share

    def begin(self, address: str) -> float:
        """A read of `address` starts: 0, or the seconds to wait before reading again (refused:
        nothing to `end`)."""
        with self._lock:
            over = self._debt(address, self._clock()) - self.burst
            if over > 0:
                return over / self.share
            if self._going.get(address, 0) >= self.at_once:
                return 1.0
            self._going[address] = self._going.get(address, 0) + 1
            return 0.0

    def end(self, address: str, seconds: float) -> None:
        """A read of `address` that took `seconds` is over."""
        with self._lock:
            left = self._going.pop(address, 1) - 1
            if left > 0:
                self._going[address] = left
            self._add(address, seconds)

    def charge(self, address: str, seconds: float) -> None:
        """Time the server spent on `address` outside its reads (reading its requests, sending
        its answers)."""
        with self._lock:
            self._add(address, seconds)

    def _add(self, address: str, seconds: float) -> None:
        now = self._clock()
        debt = self._debt(address, now) + seconds
        self._debts.pop(address, None)
        self._debts[address] = (debt, now)  # the most recent last: the oldest go first
        while len(self._debts) > ADDRESSES:
            del self._debts[next(iter(self._debts))]


def check_read() -> tuple[Response, int] | None:
    """A read from an address that took more than its share is refused, in words."""
    asked = request_ctx.request  # the request looked up once, not at every field
    if asked.endpoint in OWN_LIMITS:
        asked.environ.get(SERVER_CHARGES, [False])[0] = False
        return None
    if asked.method not in READS or from_the_companion():
        return None
    shares: ReadShare = current_app.extensions["room25.reads"]
    wait = shares.begin(request.remote_addr or "?")
    if wait <= 0:
        g.room25_read = (shares, time.thread_time())
        return None
    response, status = refusal(lang(), "too_many_reads", 429, seconds=int(wait) + 1)
    response.headers["Retry-After"] = str(int(wait) + 1)
    return response, status


class RefusedEarly:
    """The WSGI app in front of Flask: a read from an address still in debt is refused here,
    before Flask builds a request (a third of a millisecond each): a phone that floods without
    waiting for its answers is refused a thousand times a second, and those refusals were most
    of what the flood cost the seats. The same words, status, `Retry-After` and safe headers as
    `check_read`'s; anything else (another host name, a path no route has, a stream, the
    companion's own reads, an address that owes nothing) goes on to Flask."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.flask = app.wsgi_app
        self._bodies: dict[tuple[str, int], bytes] = {}
        # What each kind of request is, once worked out (the flood repeats one request): the
        # language to refuse it in, or None when Flask must answer it.
        self._kinds: dict[tuple, str | None] = {}

    def __call__(self, environ: dict, start_response: Callable) -> Any:
        if environ.get("REQUEST_METHOD") not in READS:
            return self.flask(environ, start_response)
        wait = self.app.extensions["room25.reads"].owed(environ.get("REMOTE_ADDR") or "?")
        chosen = self._refused_in(environ) if wait > 0 else None
        if chosen is None:
            return self.flask(environ, start_response)
        seconds = int(wait) + 1
        body = self._body(chosen, seconds)
        start_response(
            "429 TOO MANY REQUESTS",
            [
                ("Content-Type", "application/json"),
                ("Content-Length", str(len(body))),
                ("Retry-After", str(seconds)),
                *API_HEADERS,
            ],
        )
        return [body]

    def _refused_in(self, environ: dict) -> str | None:
        """The language a read is refused in here; None: Flask answers it."""
        key = tuple(environ.get(name) for name in KIND_OF_REQUEST)
        if key not in self._kinds:
            if len(self._kinds) >= ADDRESSES:
                self._kinds.clear()
            self._kinds[key] = self._kind(environ)
        return self._kinds[key]

    def _kind(self, environ: dict) -> str | None:
        app = self.app
        if at_the_companion_address(environ.get("REMOTE_ADDR"), app.config["ROOM25_PANEL_ALLOW"]):
            return None
        request = Request(environ)
        if request.host not in app.extensions["room25.names"]:
            return None
        try:
            endpoint, _ = app.url_map.bind_to_environ(environ).match()
        except HTTPException:
            return None
        if endpoint in OWN_LIMITS:
            return None
        return language(request, app.config.get("ROOM25_LANGUAGE", fallback()))

    def _body(self, chosen: str, seconds: int) -> bytes:
        key = (chosen, seconds)
        if key not in self._bodies:
            if len(self._bodies) >= ADDRESSES:
                self._bodies.clear()
            with self.app.app_context():
                response, _ = refusal(chosen, "too_many_reads", 429, seconds=seconds)
            self._bodies[key] = response.get_data()
        return self._bodies[key]


def end_read(_error: BaseException | None = None) -> None:
    """The read's server time, charged to its address (by the server, when it charges it)."""
    found = g.pop("room25_read", None)
    if found is not None:
        shares, began = found
        took = 0.0 if SERVER_CHARGES in request.environ else time.thread_time() - began
        shares.end(request.remote_addr or "?", took)


def hold_owing_connections(server: Any, app: Flask) -> None:
    """Waitress stops reading a connection while its address owes time, and charges the address
    all the time it spends on that connection: reading its requests and sending its answers on
    the event loop, and each request's whole task on its thread (the environ built, the app, the
    answer's bytes handed over), reads and writes alike; the long-lived reads excepted.

    A phone that floods without waiting for its answers then waits in its own network buffers:
    it is neither parsed nor refused a thousand times a second, and what it costs outside the
    app counts in its share too (a finished game's episode is built once: asking again costs
    waitress more than Flask). A request read before the debt was due is still refused in words
    (`RefusedEarly`); the companion itself is never held."""
    shares: ReadShare = app.extensions["room25.reads"]
    allowed = app.config["ROOM25_PANEL_ALLOW"]

    for found in wsgi_servers(server):
        channel = found.channel_class

        class Charged(channel.task_class):  # type: ignore[name-defined]
            def get_environment(self) -> dict:
                environ: dict = super().get_environment()
                environ[SERVER_CHARGES] = self.channel.charges = [True]
                return environ

        class Held(channel):  # type: ignore[valid-type,misc]
            task_class = Charged

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                host = self.addr[0] if isinstance(self.addr, tuple) else None
                self.held = None if at_the_companion_address(host, allowed) else host
                self.charges = [True]

            def readable(self) -> bool:
                owing = self.held is not None and shares.owed(self.held) > 0
                return bool(super().readable()) and not owing

            def handle_read(self) -> None:
                self._charged(super().handle_read)

            def handle_write(self) -> None:
                self._charged(super().handle_write)

            def _charged(self, handle: Callable[[], None]) -> None:
                began = time.thread_time()
                handle()
                if self.held is not None:
                    shares.charge(self.held, time.thread_time() - began)

            def service(self) -> None:
                """One request, on a worker thread (a stream's lasts as long as the stream)."""
                began = time.thread_time()
                self.charges = [True]  # the task's environ holds this flag (`Charged`)
                super().service()
                if self.held is not None and self.charges[0]:
                    shares.charge(self.held, time.thread_time() - began)

        found.channel_class = Held


def trim_after_large(response: Response) -> Response:
    """A large answer's makings (a game's export, its episode) are freed by now: their pages go
    back to the system instead of staying with the thread that built them (companion/heap.py)."""
    if (response.content_length or 0) > LARGE:
        heap.give_back()
    return response


def install(app: Flask) -> None:
    """Every read checked and charged (after the `Host` check: a stranger's name gets nothing);
    the heap trimmed after a large answer."""
    app.extensions["room25.reads"] = ReadShare()
    app.wsgi_app = RefusedEarly(app)  # type: ignore[method-assign]
    app.before_request(check_read)
    app.after_request(trim_after_large)
    app.teardown_request(end_read)
