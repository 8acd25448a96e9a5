"""The language of a page: the phone's choice (a cookie), else the browser's, else the
table's, among the catalogue's folders (`companion.words`)."""

from __future__ import annotations

from flask import Request

from companion import words

LANG_COOKIE = "room25_lang"


def languages() -> tuple[str, ...]:
    """The languages a page may be shown in: the catalogue's folders."""
    return words.languages()


def language(request: Request, default: str = "") -> str:
    """The phone's chosen language, else the browser's, else the table's."""
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in languages():
        return str(chosen)
    best = request.accept_languages.best_match(languages())
    if best:
        return best
    return words.offered(default)
