"""Plain-words answers: every refusal, from the engine or from the web layer, has the same JSON
shape and a text in the phone's language."""

from __future__ import annotations

import json
from collections.abc import Callable

from flask import Response, current_app
from flask.json.provider import DefaultJSONProvider

from companion.session import Reply, ReplyView
from companion.words.pages import text

# `jsonify`'s bytes (compact, keys sorted, its fallback for dates and dataclasses), from one
# encoder made once: `jsonify` set up a new encoder and its arguments at every answer.
ENCODER = json.JSONEncoder(
    separators=(",", ":"), sort_keys=True, default=DefaultJSONProvider.default
)


def answer(body: object, status: int = 200) -> tuple[Response, int]:
    """A JSON answer as `jsonify` makes it, for the answers of every tap."""
    found = current_app.response_class(ENCODER.encode(body) + "\n", mimetype="application/json")
    return found, status


def refusal(lang: str, code: str, status: int, **params: object) -> tuple[Response, int]:
    """A refusal of the web layer itself (no seat, bad request, wrong PIN...)."""
    body: ReplyView = {
        "ok": False,
        "refusal": {"code": code, "text": text(lang, code, **params), "params": params},
    }
    return answer(body, status)


def from_reply(reply: Reply, lang: Callable[[], str]) -> tuple[Response, int]:
    """The session's answer to a command or a host action; a refusal's text in the phone's
    language, which `lang` works out only then (an accepted tap has no text)."""
    if reply.ok:
        return answer({"ok": True, "version": reply.version})
    text_ = reply.text_in(lang())
    body: ReplyView = {
        "ok": False,
        "refusal": {"code": reply.code, "text": text_, "params": dict(reply.params)},
    }
    return answer(body, 409)
