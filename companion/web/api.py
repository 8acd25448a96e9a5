"""The JSON API under `/api/`: every read is a view from the session, every write a command to
it. The seat comes from the phone's cookie, never from the request body, so a phone can neither
read nor act for another seat. Who may do what: docs/web.md."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Unpack

from flask import Blueprint, Response, jsonify, request

from companion import engine
from companion.session import HostArgs, Notice, Session
from companion.session.archive import seen_over
from companion.session.host import HOST_ACTIONS
from companion.session.shapes import Event, Export, FinishedExport
from companion.words.pages import text
from companion.words.reasons import reason_text

from . import openapi, parts, wizard
from .access import HOST_COOKIE, SEAT_COOKIE, Access, Caller, digest
from .guard import from_the_companion, lang
from .i18n import LANG_COOKIE, languages
from .openapi import AS, GAME_PATH, SEAT, SEAT_PATH, described, get, post, query, schema
from .replies import from_reply, refusal
from .stream import Connection, credential, updates

blueprint = Blueprint("api", __name__, url_prefix="/api")
COOKIE_AGE = 24 * 3600  # seconds: a long evening, and the morning after
GAME_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
# Setup fields that decide what chance would: for rule scenarios and teaching, never unseen.
RIGGING = ("seed", "roles", "complex")
SEAT_CLAIMS = ("keep", "clear")  # a new game: every phone keeps its seat, or all pick again


def _caller() -> Caller:
    cookies = request.cookies
    return parts.access().caller(cookies.get(SEAT_COOKIE), cookies.get(HOST_COOKIE))


def _body() -> dict | None:
    found = request.get_json(silent=True)
    return found if isinstance(found, dict) else None


def _field(name: str, default: object = None) -> object:
    """One field of the request's JSON object (`default` when it lacks it); None when the body
    is not a JSON object at all, so every caller refuses that the same way."""
    body = _body()
    return None if body is None else body.get(name, default)


def _cookie(response: Response, name: str, value: str, age: int = COOKIE_AGE) -> Response:
    response.set_cookie(name, value, max_age=age, path="/", httponly=True, samesite="Strict")
    return response


def _forget(name: str, drop: Callable[[str | None], None]) -> Response:
    """Drop the secret of cookie `name` on the server, and answer an "ok" that deletes the
    cookie set by `_cookie` (same path and flags, or it stays)."""
    drop(request.cookies.get(name))
    response = jsonify({"ok": True})
    response.delete_cookie(name, path="/", httponly=True, samesite="Strict")
    return response


def _seats_of_game() -> list[str]:
    """The seats the current game has (all eight before a game exists)."""
    view = parts.session().snapshot("public")["view"]
    characters = (view.get("characters") if view else None) or {}
    seats = sorted({c["seat"] for c in characters.values() if c.get("seat")})
    return seats or [str(n) for n in range(1, 9)]


def _audience(caller: Caller) -> tuple[str | None, tuple[Response, int] | None]:
    """Which view `?as=` asks for, if the caller may have it: "seat" (the default when the
    phone holds one), "host", or "table" (the public view, for everyone). No audience comes
    with the refusal that says why."""
    wanted = request.args.get("as", "seat" if caller.seat else "table")
    if wanted == "table":
        return "public", None
    if wanted == "host":
        return ("host", None) if caller.host else (None, refusal(lang(), "host_only", 401))
    if wanted == "seat":
        return (caller.seat, None) if caller.seat else (None, refusal(lang(), "no_seat", 401))
    return None, refusal(lang(), "bad_request", 400)


# --- joining and language ---

ASKED = schema(
    "Asked",
    {
        "type": "object",
        "description": "The seat is asked for: hold its seat button 3 s (or the host gives it)",
        "properties": {
            "ok": {"const": False},
            "pending": {"const": True},
            "seat": SEAT,
            "code": {"const": "hold_seat_button"},
            "ask": {"type": "string", "pattern": "^[0-9]{2}$"},
            "text": {"type": "string"},
        },
        "required": ["ok", "pending", "seat", "code", "ask", "text"],
    },
)
JOIN = post(
    "Take a free seat (sets the seat cookie), or ask for a taken one (202)",
    {"type": "object", "properties": {"seat": SEAT}, "required": ["seat"]},
    409,
)
JOIN["post"]["responses"]["202"] = {
    "description": "Asked: the seat's button held 3 s gives it",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Asked"}}},
}


@blueprint.post("/join")
@described("/api/join", JOIN)
def join():
    """A free seat before the game is under way, or one the host freed, is taken by the tap
    itself; a taken seat, or any other seat once the game is under way, is asked for: the
    seat's button held 3 s (or the host) gives it."""
    seat = _field("seat")
    if seat not in engine.SEAT_IDS:
        return refusal(lang(), "bad_seat", 400)
    if seat not in _seats_of_game():
        return refusal(lang(), "seat_not_in_game", 409, seat=seat)
    access, session = parts.access(), parts.session()
    current = request.cookies.get(SEAT_COOKIE)
    if access.seat_of(current) == seat:
        return jsonify({"ok": True, "seat": seat})
    if seat not in access.taken() and (access.freed_by_host(seat) or not session.under_way()):
        secret = access.join(seat, current)
        if secret is not None:
            return _cookie(jsonify({"ok": True, "seat": seat}), SEAT_COOKIE, secret)
    # A phone holding a seat keeps it (and its cookie) until the new one is given; a phone that
    # asked already asks again with the same secret (its older request is dropped).
    known = current and (access.seat_of(current) or session.asking(digest(current)))
    secret = current if current and known else secrets.token_urlsafe(32)
    wait = 0.0 if from_the_companion() else access.seat_asks.wait(request.remote_addr or "?")
    if wait > 0:
        return refusal(lang(), "seat_asks_wait", 429, seconds=int(wait) + 1)
    ask = session.ask_seat(seat, digest(secret))
    if not ask:
        return refusal(lang(), "seat_taken", 409, seat=seat)
    body = {
        "ok": False,
        "pending": True,
        "seat": seat,
        "code": "hold_seat_button",
        "ask": ask,
        "text": text(lang(), "hold_seat_button", seat=seat, ask=ask),
    }
    return _cookie(jsonify(body), SEAT_COOKIE, secret), 202


@blueprint.post("/leave")
@described("/api/leave", post("Give the seat back", None))
def leave():
    return _forget(SEAT_COOKIE, parts.access().leave)


@blueprint.post("/language")
@described(
    "/api/language",
    post(
        "Choose this phone's language",
        {
            "type": "object",
            "properties": {"lang": {"enum": list(languages())}},
            "required": ["lang"],
        },
    ),
)
def language():
    chosen = _field("lang")
    if chosen not in languages():
        return refusal(lang(), "bad_language", 400)
    return _cookie(jsonify({"ok": True, "lang": chosen}), LANG_COOKIE, chosen, 365 * 24 * 3600)


@blueprint.get("/seats")
@described("/api/seats", get("Which seats the game has, which are taken or asked for"))
def seats():
    """Public: which seats the game has and which a phone already holds (not which phone)."""
    session = parts.session()
    secret = request.cookies.get(SEAT_COOKIE)
    # The request before the seat: a seat is given before its request is dropped, so a phone
    # whose request is gone already holds the seat here (never neither, which sent it back to
    # the seat list for good).
    asking = session.asking(digest(secret)) if secret else None
    taken = set(parts.access().taken())
    caller = _caller()
    asked = session.pending_seats()
    return jsonify(
        {
            "seats": [
                {"seat": s, "taken": s in taken, "asked": s in asked} for s in _seats_of_game()
            ],
            "mine": caller.seat,
            "host": caller.host,
            "asking": asking,
            "under_way": session.under_way(),
        }
    )


# --- playing ---


def _command_for(
    caller: Caller, command: object
) -> tuple[dict[str, object] | None, tuple[Response, int] | None]:
    """The command as the caller may send it: its seat filled in from the cookie; the table's
    own commands ("host") only from the host."""
    if not isinstance(command, dict):
        return None, refusal(lang(), "not_a_command", 400)
    seat = command.get("seat", caller.seat)
    if seat == engine.HOST:
        kind = engine.COMMAND_TYPES.get(str(command.get("type")))
        if not caller.host:
            return None, refusal(lang(), "host_only", 401)
        if kind is None or not kind.host_may_send:
            return None, refusal(lang(), "not_for_host", 403)
        return {**command, "seat": seat}, None
    if caller.seat is None:
        return None, refusal(lang(), "no_seat", 401)
    if seat != caller.seat:
        return None, refusal(lang(), "not_your_seat", 403)
    return {**command, "seat": seat}, None


@blueprint.post("/commands")
@described(
    "/api/commands",
    post(
        "A command to the game; the seat comes from the cookie",
        {
            "type": "object",
            "properties": {"command": {"$ref": "#/components/schemas/Command"}},
            "required": ["command"],
        },
        401,
        409,
    ),
)
def commands():
    body = _body()
    if body is None or "command" not in body:
        return refusal(lang(), "not_a_command", 400)
    command, refused = _command_for(_caller(), body["command"])
    if command is None:
        return refused
    return from_reply(parts.session().submit(command, source="web"), lang)


@blueprint.post("/seats/<seat>/press")
@described(
    "/api/seats/{seat}/press",
    post(
        "A seat button: lock in, or unlock (that seat's phone or the host)",
        None,
        401,
        409,
        path=(SEAT_PATH,),
    ),
)
def press(seat: str):
    caller = _caller()
    if seat not in engine.SEAT_IDS:
        return refusal(lang(), "bad_seat", 400)
    if not caller.host and caller.seat != seat:
        return (
            refusal(lang(), "not_your_seat", 403)
            if caller.seat
            else refusal(lang(), "no_seat", 401)
        )
    return from_reply(parts.session().press_seat(seat), lang)


@blueprint.get("/view")
@described("/api/view", get("The caller's snapshot", parameters=(AS,)))
def view():
    audience, refused = _audience(_caller())
    if audience is None:
        return refused
    return jsonify(parts.session().snapshot(audience))


@blueprint.get("/stream")
@described(
    "/api/stream", get("Server-Sent Events of the caller's updates", "text/event-stream", (AS,))
)
def stream():
    caller = _caller()
    audience, refused = _audience(caller)
    if audience is None:
        return refused
    access, streams = parts.access(), parts.streams()
    holder = credential(
        access,
        audience,
        request.cookies.get(SEAT_COOKIE),
        request.cookies.get(HOST_COOKIE),
        request.remote_addr,
    )
    ticket = streams.open(holder, audience)
    if ticket is None:
        return refusal(lang(), "too_many_streams", 503)
    session = parts.session()
    offline = _offline_notice(session, access, audience)
    body = updates(
        session,
        audience,
        streams,
        ticket,
        holder.allowed,
        on_close=offline,
        connection=Connection(request.environ),
    )
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    response.call_on_close(lambda: offline(streams.close(ticket)))
    return response


def _played(found: FinishedExport) -> list[Event]:
    """The events of a finished game's export as the game went: its undone commands left out."""
    kept = (e for c in found["commands"] if not c["undone"] for e in c["events"])
    return [*found["start"], *kept]


def _offline_notice(
    session: Session, access: Access, audience: str
) -> Callable[[str | None], None]:
    """A seat's phone online again clears the public notice; its last stream closing (noticed
    at a keep-alive, so a phone asleep 15 s or more) while the seat is still held sets it."""
    if audience not in engine.SEAT_IDS:
        return lambda last: None
    key = f"seat:{audience}"
    session.set_notice(key, None)

    def closed(last: str | None) -> None:
        if last == audience and audience in access.taken():
            session.set_notice(key, Notice("phone_offline", {"seat": audience}))

    return closed


@blueprint.get("/log")
@described("/api/log", get("The current game's public record so far"))
def public_log():
    """The current game's public record so far, for a table page that (re)connects mid-game:
    the journal's events as the public view may see them."""
    session = parts.session()
    game = session.snapshot("public")["game"]
    found = session.export(game) if game else None
    if found is None:
        return jsonify({"game": None, "events": []})
    if found["complete"]:
        events = engine.events_for(_played(found), None)
    else:
        events = found["public_events"]
    return jsonify({"game": game, "events": events})


@blueprint.get("/openapi.json")
@described("/api/openapi.json", get("This document"))
def openapi_document():
    return jsonify(openapi.document())


# --- the host ---


def _host_only() -> tuple[Response, int] | None:
    return None if _caller().host else refusal(lang(), "host_only", 401)


@blueprint.post("/host/login")
@described(
    "/api/host/login",
    post(
        "Host login with the PIN: sets the host cookie",
        {
            "type": "object",
            "properties": {"pin": {"type": "string", "maxLength": 20}},
            "required": ["pin"],
        },
        429,
    ),
)
def host_login():
    access, client = parts.access(), request.remote_addr or "?"
    wait = access.guesses.wait(client)
    if wait > 0:
        return refusal(lang(), "pin_wait", 429, seconds=int(wait) + 1)
    busy = 0.0 if from_the_companion() else access.guesses.network_wait()
    if busy > 0:
        return refusal(lang(), "pin_busy", 429, seconds=int(busy) + 1)
    pin = _field("pin")
    secret = access.login(pin) if isinstance(pin, str) and len(pin) <= 20 else None
    if secret is None:
        access.guesses.failed(client)
        return refusal(lang(), "wrong_pin", 403)
    access.guesses.succeeded(client)
    return _cookie(jsonify({"ok": True}), HOST_COOKIE, secret)


@blueprint.get("/host/pin")
@described("/api/host/pin", get("The host PIN, for the host page once logged in (host)"))
def host_pin():
    """The PIN, for the host page once logged in (to read out to a co-host)."""
    refused = _host_only()
    if refused is not None:
        return refused
    return jsonify({"pin": parts.access().pin})


@blueprint.post("/host/logout")
@described("/api/host/logout", post("Host logout", None))
def host_logout():
    return _forget(HOST_COOKIE, parts.access().logout)


@blueprint.post("/host/games")
@described(
    "/api/host/games",
    post(
        "Start a new game from a setup (host); seed, roles and complex only with "
        '"rigged": true, which every screen announces; "seat_claims": "keep" or "clear"',
        {"type": "object", "properties": {"setup": {"type": "object"}}, "required": ["setup"]},
        401,
        409,
    ),
)
def new_game():
    refused = _host_only()
    if refused is not None:
        return refused
    setup = _field("setup")
    if not isinstance(setup, dict):
        return refusal(lang(), "not_a_setup", 400)
    rigged = setup.get("rigged", False)
    if rigged not in (True, False):
        return refusal(lang(), "bad_rigged", 400)
    chosen = [name for name in RIGGING if name in setup]
    if chosen and rigged is not True:
        return refusal(lang(), "rigging_not_allowed", 400, fields=", ".join(chosen))
    claims = setup.get("seat_claims", "keep")
    if claims not in SEAT_CLAIMS:
        return refusal(lang(), "bad_seat_claims", 400)
    setup = {k: v for k, v in setup.items() if k != "seat_claims"}
    session = parts.session()
    reply = session.host("new_game", setup=setup)
    if not reply.ok:
        return from_reply(reply, lang)
    if claims == "clear":
        parts.access().free_all()
        session.clear_seat_asks()
    return jsonify({"ok": True, "game": getattr(reply, "game", None), "version": reply.version})


@blueprint.get("/host/games")
@described("/api/host/games", get("Past games from the journal (host)"))
def past_games():
    refused = _host_only()
    if refused is not None:
        return refused
    return jsonify({"games": parts.session().games()})


def _export(game: str) -> tuple[Export | None, tuple[Response, int] | None]:
    """A past game's export from the journal, for the host only; none comes with the refusal
    that says why."""
    refused = _host_only()
    if refused is not None:
        return None, refused
    found = parts.session().export(game) if GAME_ID.fullmatch(game) else None
    return (found, None) if found is not None else (None, refusal(lang(), "not_found", 404))


@blueprint.get("/host/games/<game>/export")
@described(
    "/api/host/games/{game}/export",
    get("A game of the journal as JSON (host)", parameters=(GAME_PATH,)),
)
def export_game(game: str):
    found, refused = _export(game)
    if found is None:
        return refused
    response = jsonify(found)
    response.headers["Content-Disposition"] = f'attachment; filename="room25-{game}.json"'
    return response


@blueprint.get("/host/games/<game>/reveal")
@described(
    "/api/host/games/{game}/reveal",
    get("A finished game's roles, complex and notebooks (host)", parameters=(GAME_PATH,)),
)
def reveal_game(game: str):
    """Everything of a finished game (roles, the whole complex, every notebook) for the host's
    end-of-game reveal, rebuilt from the journal's export with the engine's own replay; never
    of a game set aside by a new one, which may still be resumed."""
    found, refused = _export(game)
    if found is None:
        return refused
    if found["status"] == "abandoned":  # it may be resumed: its secrets stay secret
        return refusal(lang(), "game_set_aside", 409, game=game)
    if not found["complete"]:
        return refusal(lang(), "game_not_over", 409)
    return jsonify(_reveal(found))


def _reveal(found: FinishedExport) -> dict:
    """A finished game laid open: roles, the whole complex, every notebook, the outcome and
    why the game ended in the caller's language (the host's end of it said as such)."""
    state = engine.replay(_played(found))
    outcome = found["outcome"]
    return {
        "game": found["game"],
        "status": found["status"],
        "outcome": outcome,
        "reason": reason_text(outcome, lang()),
        "view": engine.full_view(state),
    }


@blueprint.get("/reveal")
@described(
    "/api/reveal",
    get(
        "The finished game's roles, complex, winners and reason, for everyone (409 while "
        "a game can still be played)"
    ),
)
def public_reveal():
    """The reveal for every page once a game is over (roles, complex, reason, winners): the
    current game when it has ended, else the last game when the host ended it and none
    replaced it. A game in play, or one a new game replaced (it may be resumed), is refused."""
    session = parts.session()
    snapshot = session.snapshot("public")
    game = snapshot["game"]
    if game is None:
        listed = session.games()
        game = listed[-1]["game"] if listed else None
    elif snapshot["waiting"].get("phase") != "over":
        return refusal(lang(), "game_not_over", 409)
    found = session.export(game) if game else None
    if found is None or not seen_over(found):
        return refusal(lang(), "game_not_over", 409)
    return jsonify(_reveal(found))


@blueprint.post("/host/games/<game>/resume")
@described(
    "/api/host/games/{game}/resume",
    post("Play again a game a new game replaced (host)", None, 401, 409, path=(GAME_PATH,)),
)
def resume_game(game: str):
    """Play again a game that a new one replaced; the page asks first, naming what it replaces."""
    refused = _host_only()
    if refused is not None:
        return refused
    if not GAME_ID.fullmatch(game):
        return refusal(lang(), "not_found", 404)
    return from_reply(parts.session().resume_game(game), lang)


def _host_action(action: str, **args: Unpack[HostArgs]) -> tuple[Response, int]:
    refused = _host_only()
    if refused is not None:
        return refused
    return from_reply(parts.session().host(action, **args), lang)


@blueprint.post("/host/undo")
@described(
    "/api/host/undo",
    post(
        "Undo the last commands (host)",
        {
            "type": "object",
            "properties": {"count": {"type": "integer", "minimum": 1, "maximum": 50}},
        },
        401,
        409,
    ),
)
def undo():
    count = _field("count", 1)
    if isinstance(count, float) and count.is_integer():  # 2.0 is a JSON integer too
        count = int(count)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 50:
        return refusal(lang(), "bad_count", 400)
    return _host_action("undo", count=count)


@blueprint.post("/host/teaching")
@described(
    "/api/host/teaching",
    post(
        "Teach the table the rules as they first matter, or stop (host; kept for the evening)",
        {"type": "object", "required": ["on"], "properties": {"on": {"type": "boolean"}}},
        401,
    ),
)
def teaching():
    refused = _host_only()  # nobody else learns what the body should have been
    if refused is not None:
        return refused
    on = _field("on")
    if not isinstance(on, bool):
        return refusal(lang(), "bad_teaching", 400)
    return _host_action("teaching", on=on)


@blueprint.post("/host/lessons/replay")
@described(
    "/api/host/lessons/replay",
    post(
        "Teach a lesson again: its card on every page, said aloud (host)",
        {"type": "object", "required": ["lesson"], "properties": {"lesson": {"type": "string"}}},
        401,
        409,
    ),
)
def replay_lesson():
    refused = _host_only()  # nobody else learns what the body should have been
    if refused is not None:
        return refused
    lesson = _field("lesson")
    if not isinstance(lesson, str):
        return refusal(lang(), "bad_lesson", 400)
    return _host_action("replay_lesson", lesson=lesson)


def _host_route(name: str) -> Callable[[], tuple[Response, int]]:
    """The route of a host action that needs nothing but the host (session/host.py)."""
    return lambda: _host_action(name)


def _host_actions() -> None:
    """pause, resume, end, more_time, lock_in_late: their routes and their operations in the
    document follow from the session's table of host actions."""
    for name, action in HOST_ACTIONS.items():
        if action.route is not None:
            path = f"/host/{action.route}"
            blueprint.add_url_rule(path, action.route, _host_route(name), methods=["POST"])
            openapi.declare(f"/api{path}", post(action.summary, None, 401, 409))


_host_actions()


@blueprint.post("/host/seats/<seat>/reset")
@described(
    "/api/host/seats/{seat}/reset",
    post(
        "Free a seat for another phone (host; said on every screen mid-game)",
        None,
        401,
        path=(SEAT_PATH,),
    ),
)
def reset_seat(seat: str):
    refused = _host_only()
    if refused is not None:
        return refused
    if seat not in engine.SEAT_IDS:
        return refusal(lang(), "bad_seat", 400)
    freed = parts.access().free(seat)
    reply = parts.session().host("reset_seat", seat=seat, freed=freed)
    return jsonify({"ok": True, "freed": freed, "session": bool(reply.ok)})


@blueprint.post("/host/seats/<seat>/give")
@described(
    "/api/host/seats/{seat}/give",
    post(
        "Give a seat to the phone asking for it (host; said on every screen mid-game)",
        None,
        401,
        409,
        path=(SEAT_PATH,),
    ),
)
def give_seat(seat: str):
    """The host gives a seat to the phone asking for it (said on every screen mid-game)."""
    refused = _host_only()
    if refused is not None:
        return refused
    if seat not in engine.SEAT_IDS:
        return refusal(lang(), "bad_seat", 400)
    return from_reply(parts.session().give_seat(seat), lang)


@blueprint.get("/host/wizard")
@described(
    "/api/host/wizard",
    get(
        "The setup wizard's choices (host)",
        parameters=(
            query("edition", "base or season2"),
            query("mode", "a mode of the edition"),
            query("players", "a number of players"),
            query("composition", "a composition id"),
        ),
    ),
)
def setup_wizard():
    refused = _host_only()
    if refused is not None:
        return refused
    args = request.args
    players = args.get("players", "")
    return jsonify(
        wizard.options(
            args.get("edition", "base"),
            args.get("mode", "suspicion"),
            int(players) if players.isdigit() and len(players) < 3 else 0,
            args.get("composition") or None,
            lang(),
        )
    )
