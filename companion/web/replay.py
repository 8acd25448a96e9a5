"""The episode replay of a finished game, public once it is over: `/api/games/<id>/replay`
(JSON), `/replay/<id>` (the page, for the table's TV and any phone) and the host's recap
`/recap/<id>` (one self-contained HTML file). `last` names the latest game of the journal.

Before the game is over nothing is served, to any audience (host, seats, table or nobody): a
refusal in plain words. The names the host typed for the seats reach only the recap, which only
the host may download; the public replay never carries them.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, request

from companion.session.archive import SEEN_OVER, seen_over
from companion.session.journal import GameMark
from companion.session.shapes import FinishedExport

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


def _named(game: str) -> str:
    """The game `game` names (`last`: the journal's latest)."""
    if game != LAST:
        return game
    listed = parts.session().games()
    return listed[-1]["game"] if listed else ""


def _finished(game: str) -> tuple[GameMark | None, str | None, int]:
    """A finished game's journal mark (one small read, not its commands), else the refusal's
    text key and status."""
    found = parts.session().reading(lambda j: j.mark(game)) if GAME_ID.fullmatch(game) else None
    if found is None:
        return None, "replay_unknown", 404
    if found[0] not in SEEN_OVER:
        return None, NotOver.code, 409
    return found, None, 200


def _not_served(mark: GameMark | None, refused: str | None, status: int) -> tuple[Response, int]:
    """The refusal of a game `_finished` refused, or of one it found over that an undo has
    opened again since (409 too)."""
    return refusal(lang(), refused or NotOver.code, status if mark is None else 409)


def _export(game: str) -> FinishedExport | None:
    """A finished game's export (None: it is no longer finished, an undo came in between)."""
    exported = parts.session().export(game)
    return exported if exported is not None and seen_over(exported) else None


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
    game = _named(game)
    mark, refused, status = _finished(game)

    def build() -> bytes | None:
        exported = _export(game)
        return None if exported is None else current_app.json.dumps(episode(exported)).encode()

    body = parts.episodes().served(game, mark, build) if mark else None
    if body is None:
        return _not_served(mark, refused, status)
    return Response(body, mimetype="application/json")


@blueprint.get("/replay/<game>")
def replay_page(game: str):
    """The page: the episode itself is fetched by replay.js; a game not over gets the refusal
    in the page's words, with its status."""
    _, refused, status = _finished(_named(game))
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
    game = _named(game)
    mark, refused, status = _finished(game)
    exported = _export(game) if mark else None
    if exported is None:
        return _not_served(mark, refused, status)
    chosen = request.args.get("lang", "")
    chosen = chosen if chosen in languages() else lang()
    response = Response(story_recap.recap_html(exported, chosen), mimetype="text/html")
    name = f"room25-{exported['game']}.html"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
