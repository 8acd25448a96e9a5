"""The three pages: a player's phone, the host's setup and controls, the table's public board.
Each is a small template that loads one script; everything after the first paint comes from the
API and the event stream, so a page holds no game data of its own."""

from __future__ import annotations

import json
from functools import cache
from urllib.parse import urlsplit

from flask import Blueprint, Response, current_app, render_template, request

from companion import words
from companion.lan import join_address, join_host
from companion.words.pages import names, table

from .guard import lang
from .join import qr_svg

blueprint = Blueprint("pages", __name__)


def _address() -> str:
    """The join address: the one this page was opened with, unless that is the Pi itself (then
    `[web] public_address`, or the Pi's address on the local network, so the QR code works from
    a phone)."""
    where = urlsplit("//" + request.host)
    if where.hostname not in ("localhost", "127.0.0.1", "::1"):
        return request.host_url
    try:
        port = where.port
    except ValueError:  # a Host header with a port that is not a number
        port = None
    host = join_host(current_app.config.get("ROOM25_PUBLIC_ADDRESS") or "")
    return join_address(int(port or current_app.config.get("ROOM25_PORT") or 80), host)


# The catalogue's texts said by Python, not by a page's script: the voice's, the OLED's, and the
# refusals, reasons, names and compositions the server puts into words itself.
NOT_FOR_PAGES: tuple[str, ...] = (
    *("spoken_", "oled_", "refusal_", "name_", "reason_", "composition_", "button_"),
    *("rule_", "room_name_", "room_text_", "character_base_", "mac_card_", "panel_", "compose_"),
    "room_short_",
    *("deck_", "cli_", "config_", "serve_"),  # the command line's and the settings file's
    *("journal_", "scenario_", "simulate_", "stats_"),  # what other modules hand the command line
)


# The topics only the host page's scripts read (the history, the wiring check, the voice's
# panel, the setup wizard): the phones and the table page do without them.
HOST_ONLY = ("history_", "check_", "voice_page_", "wizard_")


@cache
def script_texts(lang: str, page: str = "") -> str:
    """What a page's script reads (`R25.texts`), as JSON safe inside a `<script>` element: the
    texts of the page's language only, and of its own topics (the host's for the host page);
    the same for every page of one kind and language, so made once."""
    left_out = NOT_FOR_PAGES if page == "host" else (*NOT_FOR_PAGES, *HOST_ONLY)
    page_texts = {k: v for k, v in table(lang).items() if not k.startswith(left_out)}
    texts = {
        "lang": lang,
        "languages": words.names(),
        "language": words.page_settings(lang),
        "t": page_texts,
        "names": names(lang),
    }
    found = json.dumps(texts, ensure_ascii=False, separators=(",", ":"))
    return found.replace("</", "<\\/")


def _page(template: str, page: str) -> str:
    chosen = lang()
    return render_template(
        template,
        lang=chosen,
        t=table(chosen),
        page=page,
        texts=script_texts(chosen, page),
        address=_address(),
    )


@blueprint.get("/")
def player() -> str:
    return _page("player.html", "player")


@blueprint.get("/host")
def host() -> str:
    return _page("host.html", "host")


@blueprint.get("/table")
def table_page() -> str:
    return _page("table.html", "table")


@blueprint.get("/join.svg")
def join_code() -> Response:
    return Response(qr_svg(_address()), mimetype="image/svg+xml")
