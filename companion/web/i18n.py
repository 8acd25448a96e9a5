"""The language of a page: the phone's choice (a cookie), else the browser's, else the
table's, among the catalogue's folders (`companion.words`)."""

from __future__ import annotations

from functools import lru_cache

from flask import Request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

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
    best = _browsers(request.headers.get("Accept-Language", ""), languages())
    return best or words.offered(default)


@lru_cache(maxsize=64)
def _browsers(accept: str, offered: tuple[str, ...]) -> str | None:
    """The browser's best language among those offered (parsed once a header: a table's phones
    send a few, at every tap)."""
    return parse_accept_header(accept, LanguageAccept).best_match(offered)
