"""Why a game ended, in a reader's language: the engine gives its reason as a code with
parameters (`outcome["reason"]`, `outcome["reason_params"]`), said here by the catalogue
(`reason_<code>`); no outcome (the host ended the game) says so."""

from __future__ import annotations

from collections.abc import Mapping

from .catalogue import texts
from .fill import fill

PREFIX = "reason_"
ENDED_BY_HOST = "ended_by_host"


def reason_text(outcome: Mapping | None, lang: str) -> str:
    """The reason of an outcome in `lang`. A reason the catalogue does not know (a game
    journaled by an older companion, which wrote it as an English sentence) is shown as it is."""
    found = texts(lang)
    reason = outcome.get("reason") if isinstance(outcome, Mapping) else None
    if not reason:
        return found[PREFIX + ENDED_BY_HOST]
    template = found.get(PREFIX + str(reason))
    if template is None:
        return str(reason)
    params = dict(outcome.get("reason_params") or {}) if isinstance(outcome, Mapping) else {}

    def side(name: str, value: object, lang: str) -> str | None:
        kind = name.removesuffix("s")
        if kind in ("player", "team"):
            return fill(lang, found[PREFIX + kind], {"id": value})
        return None

    return fill(lang, template, params, namer=side)
