"""The session's answer to whoever sent a command: accepted with the new version, or refused
with a stable code, its parameters and a sentence in the table's language.

Refusals come from the engine or from the session itself (no game, the journal cannot be
written, the undo limit...); their sentences are all in the catalogue (`companion/words/`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from companion.engine import refusal_text


class RefusalView(TypedDict):
    """A refusal as it travels: its stable code, its English sentence and its parameters."""

    code: str | None
    text: str
    params: dict[str, object]


class ReplyView(TypedDict):
    """A reply as it travels, the one shape of every answer the web sends (web/replies.py):
    `ok` with the version (and the game), or `ok` false and the refusal."""

    ok: bool
    version: NotRequired[int]
    game: NotRequired[str | None]
    refusal: NotRequired[RefusalView]


@dataclass(frozen=True)
class Reply:
    """`ok` with the game's `version` after the command, or a refusal's `code`, `params` and
    English `text`; `text_in(lang)` gives the sentence in another language."""

    ok: bool
    version: int = 0
    code: str | None = None
    params: dict[str, object] = field(default_factory=dict)
    game: str | None = None

    @property
    def text(self) -> str:
        return "" if self.ok else self.text_in("")

    def text_in(self, lang: str) -> str:
        if self.ok or self.code is None:
            return ""
        return refusal_text(self.code, self.params, lang)


def accepted(version: int, game: str | None) -> Reply:
    return Reply(True, version, game=game)


def refused(code: str, version: int = 0, game: str | None = None, **params: object) -> Reply:
    return Reply(False, version, code, dict(params), game)


def from_refusal(refusal: object, version: int, game: str | None) -> Reply:
    """An engine refusal (a `Refusal`, or the older plain sentence)."""
    code = getattr(refusal, "code", None)
    if code is None:
        return refused("unspecified", version, game, text=str(refusal))
    return refused(code, version, game, **dict(getattr(refusal, "params", {}) or {}))
