"""What every request passes before it reaches a route: the `Host` allow-list (DNS rebinding),
the CSRF guard, the size, depth and text checks on writes, safe headers on every answer (waitress'
own error answers too), and plain-words errors in the phone's language."""

from __future__ import annotations

import ipaddress
import re
import threading
import time
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request
from flask.globals import request_ctx
from werkzeug.exceptions import HTTPException

from companion import lan
from companion.config import Config
from companion.session.text import unwritable
from companion.words import fallback

from . import parts
from .access import HOST_COOKIE
from .channel import wsgi_servers
from .i18n import language
from .replies import refusal

MAX_BODY = 16 * 1024  # bytes: the largest command or game setup is a few hundred
# A game setup may carry the owner's own M.A.C. deck: the packaged file is about 15 KB, 22 KB
# indented, so the host's new game takes more than any other write.
SETUP_BODY = 64 * 1024
SETUP_ENDPOINT = "api.new_game"
MAX_DEPTH = 32  # nested arrays and objects in a body: a setup needs five
RECHECK = 10.0  # seconds between two new looks at this machine's addresses
ACCEPTED_HOSTS = 64  # `Host` headers remembered as accepted
STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
BRACKETS = re.compile(rb"[\[\]{}]")
# Pages load only what the Pi serves: no inline script, nothing from elsewhere.
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
ERROR_CODES = {400: "bad_request", 404: "not_found", 405: "not_allowed", 413: "too_large"}


def lang() -> str:
    return language(request_ctx.request, current_app.config.get("ROOM25_LANGUAGE", fallback()))


@lru_cache(maxsize=64)
def same_origin(origin: str, host: str) -> bool:
    """An `Origin` header names the server of `host` (the browser sends it on cross-site
    writes, and on a phone's every write: worked out once a pair)."""
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == host


class OwnNames:
    """The names and addresses a request may give as its `Host`: this machine's own (loopback,
    its interfaces' addresses, its hostname and hostname.local) and the configured ones. A page
    that a stranger's DNS name points at this machine (DNS rebinding) sends that name: refused.

    A `Host` header once accepted is remembered as it came (every tap of a phone sends the same
    one), until the addresses are looked at again: one no longer ours is then refused."""

    def __init__(self, extra: Iterable[str] = (), clock: Callable[[], float] = time.monotonic):
        self._names = lan.own_names() | {n for n in map(_bare_host, extra) if n}
        self._addresses = lan.own_addresses()
        self._clock = clock
        self._looked = clock()
        self._lock = threading.Lock()
        self._accepted: set[str] = set()

    def __contains__(self, host: object) -> bool:
        header, accepted = str(host), self._accepted
        if header in accepted:
            return True
        if not self._ours(_bare_host(header)):
            return False
        if len(accepted) >= ACCEPTED_HOSTS:  # loopback has millions of spellings
            accepted.clear()
        accepted.add(header)  # into the set of before a new look, if one came meanwhile
        return True

    def _ours(self, name: str) -> bool:
        if name in self._names:
            return True
        try:
            address = _unmapped(ipaddress.ip_address(name))
        except ValueError:
            return False
        if address.is_loopback or str(address) in self._addresses:
            return True
        with self._lock:  # a new address (DHCP, a second network): look again, not too often
            if self._clock() - self._looked < RECHECK:
                return False
            self._addresses, self._looked = lan.own_addresses(), self._clock()
            self._accepted = set()  # what was accepted by an address we may have lost
            return str(address) in self._addresses


def _bare_host(host: str) -> str:
    """A `Host` header or a configured address as a bare lowercase name or address: no scheme,
    no port, no brackets, no trailing dot."""
    host = host.strip().lower()
    if "://" in host:
        host = urlsplit(host).netloc
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def _unmapped(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> Any:
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped if mapped is not None else address


def check_host() -> tuple[Response, int] | None:
    """Every route: the `Host` header names this companion."""
    if request.host in current_app.extensions["room25.names"]:
        return None
    return refusal(lang(), "unknown_host", 400)


def from_the_companion() -> bool:
    """The request comes from this machine (loopback) or from an address of `[panel] allow` (a
    tablet used as the panel): someone sitting at the companion."""
    return at_the_companion_address(request.remote_addr, current_app.config["ROOM25_PANEL_ALLOW"])


def at_the_companion_address(remote: str | None, allowed: Iterable[Any]) -> bool:
    """Whether `remote` is this machine or in one of the `allowed` networks (`panel_allow`)."""
    try:
        address = _unmapped(ipaddress.ip_address(remote or ""))
    except ValueError:
        return False
    return bool(address.is_loopback or any(address in network for network in allowed))


def at_the_companion() -> bool:
    """Whoever may press the virtual panel: someone at the companion, or a logged-in host."""
    if from_the_companion():
        return True
    access = parts.access()
    return bool(access.is_host(request.cookies.get(HOST_COOKIE)))


def too_deep(raw: bytes, limit: int = MAX_DEPTH) -> bool:
    """More than `limit` arrays and objects inside one another (strings left out): the JSON
    parser would recurse past Python's limit long before 16 KB."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False  # every body a page sends: fewer openings than the limit, strings or not
    depth = 0
    for bracket in BRACKETS.finditer(STRINGS.sub(b"", raw)):
        if bracket[0] in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def check_write() -> tuple[Response, int] | None:
    """Writes come from our own pages only: a custom header (no form can send one), a JSON
    body (no simple cross-site request has one), and our own origin when the browser names it.
    The body is refused before any route reads it when it is not a JSON object, is nested too
    deep or holds text that is not Unicode."""
    asked = request_ctx.request  # the request looked up once, not at every field
    if asked.method != "POST" or asked.routing_exception is not None:
        return None  # a wrong method or path is answered 405 or 404, as the document says
    if asked.endpoint == SETUP_ENDPOINT:
        asked.max_content_length = SETUP_BODY
    if asked.headers.get("X-Room25") != "1":
        return refusal(lang(), "csrf_header", 403)
    if not asked.is_json:
        return refusal(lang(), "not_json", 415)
    origin = asked.headers.get("Origin")
    if origin is not None and not same_origin(origin, asked.host):
        return refusal(lang(), "csrf_origin", 403)
    if too_deep(asked.get_data(cache=True)):
        return refusal(lang(), "too_deep", 400, depth=MAX_DEPTH)
    body = asked.get_json(silent=True)
    if not isinstance(body, dict):
        return refusal(lang(), "not_an_object", 400)
    if unwritable(body):
        return refusal(lang(), "bad_text", 400)
    return None


SECURITY_HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


API_HEADERS = (*SECURITY_HEADERS.items(), ("Cache-Control", "no-store"))
OWN_HEADERS = frozenset(name.lower() for name, _ in API_HEADERS)


def secure_headers(response: Response) -> Response:
    """The safe headers on every answer. Most answers have none of them yet: they are added in
    one pass, not each looked for (werkzeug's `set` searches the headers at every call)."""
    headers = response.headers
    api = request.path.startswith("/api/")
    if OWN_HEADERS.isdisjoint(name.lower() for name, _ in headers.items()):
        for name, value in API_HEADERS if api else SECURITY_HEADERS.items():
            headers.add(name, value)
        return response
    headers.setdefault("Content-Security-Policy", POLICY)
    for name, value in SECURITY_HEADERS.items():
        if name != "Content-Security-Policy":
            headers[name] = value
    if api:
        headers["Cache-Control"] = "no-store"
    return response


def secure_server_errors(server: Any) -> None:
    """Waitress answers a request it cannot parse (400, 431, 413) itself, without the app: its
    channels get an error task that adds the same safe headers as every other answer."""
    from waitress.task import ErrorTask

    class SecureErrorTask(ErrorTask):
        def build_response_header(self) -> bytes:
            self.response_headers = [*self.response_headers, *API_HEADERS]
            return super().build_response_header()

    for found in wsgi_servers(server):

        class SecureChannel(found.channel_class):  # type: ignore[name-defined]
            error_task_class = SecureErrorTask

        found.channel_class = SecureChannel


def http_error(error: HTTPException) -> tuple[Response, int] | HTTPException:
    status = error.code or 500
    code = ERROR_CODES.get(status, "bad_request" if status < 500 else "server_error")
    return refusal(lang(), code, status)


def server_error(error: Exception) -> tuple[Response, int]:
    """An unexpected failure: logged with its traceback (the request's method and path, never
    its body or cookies), answered in plain words without any detail."""
    current_app.logger.error("%s %s failed", request.method, request.path, exc_info=error)
    return refusal(lang(), "server_error", 500)


def panel_allow(config: Config | None) -> tuple[Any, ...]:
    """`[panel] allow` as networks (a bare address is a network of one)."""
    allowed = getattr(getattr(config, "panel", None), "allow", ()) or ()
    return tuple(ipaddress.ip_network(a, strict=False) for a in allowed)


def install(app: Flask, config: Config | None = None) -> None:
    web = getattr(config, "web", None)
    extra = [getattr(web, "public_address", "") or "", getattr(web, "host", "") or ""]
    app.extensions["room25.names"] = OwnNames(a for a in extra if a not in ("", "0.0.0.0", "::"))
    app.config["ROOM25_PANEL_ALLOW"] = panel_allow(config)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.before_request(check_host)
    app.before_request(check_write)
    app.after_request(secure_headers)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, server_error)
