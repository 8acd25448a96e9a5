"""The answer when the app itself cannot answer. A failure that escapes Flask (its error handler
failing in turn, say the page texts unreadable on a failing SD card, or an event stream's
generator failing before its first byte) would reach waitress, whose page is plain text
("Internal Server Error"). The app is wrapped so that such a failure is logged in words and
answered with the project's JSON refusal, made ahead (nothing is read from disk then)."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from companion.words import fallback
from companion.words.pages import text

from .guard import API_HEADERS

log = logging.getLogger(__name__)

WSGIApp = Callable[[dict, Callable[..., Any]], Iterable[bytes]]
STATUS = "500 INTERNAL SERVER ERROR"


def last_resort(app: WSGIApp) -> WSGIApp:
    """`app`, answering `server_error` in the refusal's JSON shape whatever escapes it."""
    body = json.dumps(
        {
            "ok": False,
            "refusal": {
                "code": "server_error",
                "text": text(fallback(), "server_error"),
                "params": {},
            },
        }
    ).encode()
    headers = [
        ("Content-Type", "application/json"),
        ("Content-Length", str(len(body))),
        *API_HEADERS,
    ]

    def refuse(environ: dict, start_response: Callable[..., Any]) -> list[bytes]:
        log.error(
            "%s %s failed past the app's own error handling (%s)",
            environ.get("REQUEST_METHOD"),
            environ.get("PATH_INFO"),
            sys.exc_info()[1],
        )
        start_response(STATUS, headers, sys.exc_info())
        return [body]

    def guarded(environ: dict, start_response: Callable[..., Any]) -> Iterable[bytes]:
        try:
            answer = app(environ, start_response)
        except Exception:
            return refuse(environ, start_response)
        if isinstance(answer, list) or type(answer) is environ.get("wsgi.file_wrapper"):
            return answer  # nothing left to fail here (a file is sent by waitress itself)
        return _until_sent(answer, environ, start_response, refuse)

    return guarded


def _until_sent(
    answer: Iterable[bytes],
    environ: dict,
    start_response: Callable[..., Any],
    refuse: Callable[[dict, Callable[..., Any]], list[bytes]],
) -> Iterator[bytes]:
    """An answer made as it is sent (an event stream): one failing before its first byte is
    refused in JSON; after it, the headers are gone and the connection just ends."""
    sent = False
    try:
        for chunk in answer:
            sent = sent or bool(chunk)
            yield chunk
    except Exception:
        if sent:
            raise
        yield from refuse(environ, start_response)
    finally:
        close = getattr(answer, "close", None)
        if close is not None:
            close()
