"""The players' side of the companion, served from the Pi: phones, host page, table page, the
JSON API and the live event streams. Every read is a view from the session, every write a
command to it; see docs/web.md."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from flask import Flask, Request
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.http import parse_cookie
from werkzeug.utils import cached_property

from companion import words
from companion.config import Config
from companion.session import Session

from . import api, guard, history, pages, parts, reads, replay, rules
from .access import Access, new_pin
from .server import THREADS, serve_app
from .voice import install as install_voice

if TYPE_CHECKING:  # both optional: the pages work without them
    from companion.hardware.table import Hardware
    from companion.voice.voice import Voice

log = logging.getLogger(__name__)
SYNCED = 256  # functions remembered as checked: the app's hooks, routes and error handlers


class Tap(Request):
    """A request whose cookies are parsed once per `Cookie` header: a phone sends the same one
    at every tap, and the seat, the host and the language each read it."""

    @cached_property
    def cookies(self) -> Cookies:
        return _cookies(self.environ.get("HTTP_COOKIE", ""))  # one header, as WSGI gives it


class Cookies(ImmutableMultiDict[str, str]):
    """A request's cookies, a missing one answered without the exception werkzeug raises and
    catches for it (most phones have no host cookie, and no language cookie)."""

    def get(self, key: str, default: Any = None, type: Any = None) -> Any:  # type: ignore[override]
        if type is not None:
            return super().get(key, default, type)
        values = dict.get(self, key)
        return values[0] if values else default


@lru_cache(maxsize=64)
def _cookies(header: str) -> Cookies:
    """Immutable, so one parse is shared by every request that sends the same header."""
    return cast(Cookies, parse_cookie(header, cls=Cookies))


class Companion(Flask):
    """Flask, with its requests as `Tap`s and each hook's check for a coroutine made once (no
    route or hook here is a coroutine; Flask asked again for every hook of every request)."""

    request_class = Tap

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._synced: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        found = self._synced.get(func)
        if found is None:
            found = super().ensure_sync(func)
            if len(self._synced) < SYNCED:  # a function made per request is not kept
                self._synced[func] = found
        return found


def create_app(
    session: Session,
    config: Config | None = None,
    hardware: Hardware | None = None,
    pin: str | None = None,
    voice: Voice | None = None,
) -> Flask:
    """The Flask app around one session. `pin` fixes the host PIN (else `ROOM25_HOST_PIN`, else
    six random digits, readable as `parts.access(app).pin`); `voice` is the
    running voice (companion/voice), or None."""
    app = Companion(__name__)
    table = getattr(config, "table", None)
    web = getattr(config, "web", None)
    app.config["ROOM25_LANGUAGE"] = getattr(table, "language", words.fallback())
    app.config["ROOM25_PORT"] = getattr(web, "port", None)
    app.config["ROOM25_PUBLIC_ADDRESS"] = getattr(web, "public_address", "")
    app.config["JSON_SORT_KEYS"] = False
    # The language menus list the catalogue's folders, each by its own name.
    app.jinja_env.globals["language_names"] = words.names()
    parts.keep(app, session, Access(pin or new_pin(), store=session), hardware)
    guard.install(app, config)
    reads.install(app)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(pages.blueprint)
    install_voice(app, config, voice)
    app.register_blueprint(replay.blueprint)
    app.register_blueprint(history.blueprint)
    app.register_blueprint(rules.blueprint)
    try:
        from .panel import blueprint as panel
    except ImportError as error:
        log.info("virtual panel not available: %s", error)
    else:
        app.register_blueprint(panel)
    return app


__all__ = ["THREADS", "create_app", "serve_app"]
