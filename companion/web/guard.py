"""What every request passes before it reaches a route: the CSRF guard on writes, the size
limit, safe headers on every answer, and plain-words errors in the phone's language."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException

from companion.session.text import unwritable

from .i18n import language
from .replies import refusal

MAX_BODY = 16 * 1024  # bytes: the largest command or game setup is a few hundred
# Pages load only what the Pi serves: no inline script, nothing from elsewhere.
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
ERROR_CODES = {400: "bad_request", 404: "not_found", 405: "not_allowed", 413: "too_large"}


def lang() -> str:
    return language(request, current_app.config.get("ROOM25_LANGUAGE", "en"))


def _same_origin(origin: str) -> bool:
    """An `Origin` header names this server (the browser sends it on cross-site writes)."""
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == request.host


def check_write() -> tuple[Response, int] | None:
    """Writes come from our own pages only: a custom header (no form can send one), a JSON
    body (no simple cross-site request has one), and our own origin when the browser names it."""
    if request.method != "POST":
        return None
    if request.headers.get("X-Room25") != "1":
        return refusal(lang(), "csrf_header", 403)
    if not request.is_json:
        return refusal(lang(), "not_json", 415)
    origin = request.headers.get("Origin")
    if origin is not None and not _same_origin(origin):
        return refusal(lang(), "csrf_origin", 403)
    if unwritable(request.get_json(silent=True)):  # every string of the body, once
        return refusal(lang(), "bad_text", 400)
    return None


def secure_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", POLICY)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    if request.path.startswith("/api/"):
        response.headers["Cache-Control"] = "no-store"
    return response


def http_error(error: HTTPException) -> tuple[Response, int] | HTTPException:
    status = error.code or 500
    code = ERROR_CODES.get(status, "bad_request" if status < 500 else "server_error")
    return refusal(lang(), code, status)


def server_error(error: Exception) -> tuple[Response, int]:
    """An unexpected failure: logged with its traceback (the request's method and path, never
    its body or cookies), answered in plain words without any detail."""
    current_app.logger.error("%s %s failed", request.method, request.path, exc_info=error)
    return refusal(lang(), "server_error", 500)


def install(app: Flask) -> None:
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.before_request(check_write)
    app.after_request(secure_headers)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, server_error)
