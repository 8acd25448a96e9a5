"""The table's history on the host page: past games, how this table fares per composition beside
the simulator (with its chart), and the players' names the host may type per seat. Host only:
the names never reach the table page, a phone, the replay or the logs."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from companion.story.chart import rates_chart
from companion.story.history import HistoryGroup, Rates, composition_shown, table_history
from companion.story.names import NamesRefused, checked_names, seats_of
from companion.story.simulated import Simulated
from companion.words.pages import text

from . import parts
from .api import GAME_ID, _field, _host_only
from .guard import lang
from .openapi import GAME_PATH, SEAT, described, get, post
from .replies import from_reply, refusal

blueprint = Blueprint("history", __name__, url_prefix="/api/host")


def _simulated() -> Simulated:
    """One per app: the cache sits beside the journal, in the data directory."""
    found = current_app.extensions.get("room25.simulated")
    if found is None:
        found = Simulated(parts.session().journal_path.parent)
        current_app.extensions["room25.simulated"] = found
    return found


def _rates_or_later(simulated: Simulated) -> Rates:
    """The simulated rates when kept; otherwise None, and they are worked out meanwhile."""

    def rates(setup: dict) -> dict | None:
        found = simulated.cached(setup)
        if found is None:
            simulated.in_background(setup)
        return found

    return rates


def _result(result: str) -> str:
    key = "history_result_" + result
    return text(lang(), key)


def _chart(group: HistoryGroup) -> str:
    simulated = group["simulated"]
    mode = "mode_" + group["mode"]
    title = text(lang(), "history_chart_title", mode=text(lang(), mode), players=group["players"])
    return rates_chart(
        group["rates"],
        simulated["results"] if simulated else None,
        _result,
        (
            text(lang(), "history_this_table"),
            text(lang(), "history_simulator", games=simulated["games"] if simulated else "…"),
        ),
        title,
    )


def _names_refused(refused: NamesRefused) -> tuple[Response, int]:
    """Why the names were refused, in the host's language; nothing was kept."""
    params = refused.params
    if refused.code == "too_long":
        return refusal(lang(), "history_name_too_long", 400, **params)
    if refused.code == "bad_seat":
        return refusal(lang(), "history_name_bad_seat", 400, **params)
    if refused.code == "not_text":
        return refusal(lang(), "history_name_not_text", 400, **params)
    return refusal(lang(), "history_names_not_object", 400)


@blueprint.get("/history")
@described(
    "/api/host/history",
    get("The table's history: past games, rates beside the simulator's, charts (host)"),
)
def history():
    refused = _host_only()
    if refused is not None:
        return refused
    rates = _rates_or_later(_simulated())  # made here, not inside the journal's read
    found = parts.session().reading(lambda journal: table_history(journal, rates))
    if found is None:
        return refusal(lang(), "server_error", 503)
    for row in [*found["games"], *found["groups"]]:
        row["composition_name"] = composition_shown(lang(), row["composition"])
    for group in found["groups"]:
        group["chart"] = _chart(group)
    return jsonify(found)


@blueprint.post("/games/<game>/names")
@described(
    "/api/host/games/{game}/names",
    post(
        "The players' names of a game, as a whole (host; shown on the host page and "
        "the recap only)",
        {
            "type": "object",
            "properties": {
                "names": {
                    "type": "object",
                    "propertyNames": SEAT,
                    "additionalProperties": {"type": "string", "maxLength": 24},
                }
            },
            "required": ["names"],
        },
        401,
        404,
        path=(GAME_PATH,),
    ),
)
def set_names(game: str):
    """The players' names of one game, as a whole: {"names": {seat: name}}; a blank name, or a
    seat left out, has none."""
    refused = _host_only()
    if refused is not None:
        return refused
    found = parts.session().export(game) if GAME_ID.fullmatch(game) else None
    if found is None:
        return refusal(lang(), "not_found", 404)
    names = checked_names(_field("names"), seats_of(found["setup"]))
    if isinstance(names, NamesRefused):
        return _names_refused(names)
    reply = parts.session().set_names(game, names)
    if reply is None:
        return refusal(lang(), "not_found", 404)
    return from_reply(reply, lang)
