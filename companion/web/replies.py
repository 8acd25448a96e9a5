"""Plain-words answers: every refusal, from the engine or from the web layer, has the same JSON
shape and a text in the phone's language."""

from __future__ import annotations

from flask import Response, jsonify

from companion.session import Reply, ReplyView
from companion.words.pages import text


def refusal(lang: str, code: str, status: int, **params: object) -> tuple[Response, int]:
    """A refusal of the web layer itself (no seat, bad request, wrong PIN...)."""
    body: ReplyView = {
        "ok": False,
        "refusal": {"code": code, "text": text(lang, code, **params), "params": params},
    }
    return jsonify(body), status


def from_reply(reply: Reply, lang: str) -> tuple[Response, int]:
    """The session's answer to a command or a host action, in the phone's language."""
    if reply.ok:
        return jsonify({"ok": True, "version": reply.version}), 200
    body: ReplyView = {
        "ok": False,
        "refusal": {"code": reply.code, "text": reply.text_in(lang), "params": dict(reply.params)},
    }
    return jsonify(body), 409
