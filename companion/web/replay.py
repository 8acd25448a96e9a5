"""The episode replay of a finished game, public once it is over: `/api/games/<id>/replay`
(JSON), `/replay/<id>` (the page, for the table's TV and any phone) and the host's recap
`/recap/<id>` (one self-contained HTML file). `last` names the latest game of the journal.

Before the game is over nothing is served, to any audience (host, seats, table or nobody): a
refusal in plain words. The names the host typed for the seats reach only the recap, which only
the host may download; the public replay never carries them.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template, request

from companion.session.archive import seen_over

# The module, not its function: the recap reads this package's texts (`companion.web.i18n`).
from companion.story import recap as story_recap
from companion.story.replay import NotOver, episode
from companion.words.pages import table, text

from . import parts
from .access import HOST_COOKIE, SEAT_COOKIE
from .api import GAME_ID
from .guard import lang
from .i18n import languages
from .openapi import GAME_PATH, described, get
from .pages import script_texts
from .replies import refusal

blueprint = Blueprint("replay", __name__)
LAST = "last"


def _found(game: str) -> tuple[dict | None, str | None, int]:
    """A finished game's export, else the refusal's text key and status."""
    session = parts.session()
    if game == LAST:
        listed = session.games()
        game = listed[-1]["game"] if listed else ""
    exported = session.export(game) if GAME_ID.fullmatch(game) else None
    if exported is None:
        return None, "replay_unknown", 404
    if not seen_over(exported):
        return None, NotOver.code, 409
    return exported, None, 200


@blueprint.get("/api/games/<game>/replay")
@described(
    "/api/games/{game}/replay",
    get(
        "A finished game's episode, step by step, for everyone (`last`: the latest game; "
        "409 while it can still be played)",
        parameters=(GAME_PATH,),
    ),
)
def replay_json(game: str):
    exported, refused, status = _found(game)
    if exported is None:
        return refusal(lang(), refused or "", status)
    return jsonify(episode(exported))


@blueprint.get("/replay/<game>")
def replay_page(game: str):
    """The page: the episode itself is fetched by replay.js; a game not over gets the refusal
    in the page's words, with its status."""
    _, refused, status = _found(game)
    chosen = lang()
    page = render_template(
        "replay.html",
        lang=chosen,
        t=table(chosen),
        page="replay",
        texts=script_texts(chosen),
        game=game,
        refused=text(chosen, refused) if refused else None,
    )
    return page, status


@blueprint.get("/recap/<game>")
def recap(game: str):
    """The recap file for the host (the seats' names in it): a download."""
    access = parts.access()
    caller = access.caller(request.cookies.get(SEAT_COOKIE), request.cookies.get(HOST_COOKIE))
    if not caller.host:
        return refusal(lang(), "host_only", 401)
    exported, refused, status = _found(game)
    if exported is None:
        return refusal(lang(), refused or "", status)
    chosen = request.args.get("lang", "")
    chosen = chosen if chosen in languages() else lang()
    response = Response(story_recap.recap_html(exported, chosen), mimetype="text/html")
    name = f"room25-{exported['game']}.html"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
