"""The virtual panel at `/panel`: the live OLED picture, the buzzer's patterns played with Web
Audio, and the seat and control buttons with their LEDs — the whole table on a laptop.

Its presses are the table's buttons, so it answers only whoever sits at the companion: this
machine itself (loopback), an address of `[panel] allow` (a tablet used as the panel), or a
logged-in host; never an anonymous phone on the table's Wi-Fi (its picture may show the PIN on
demand). The live hardware comes from `parts.hardware()`.
"""

from __future__ import annotations

import io
import threading

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request

from companion import words
from companion.hardware.buttons import HOLD
from companion.hardware.patterns import PATTERNS
from companion.hardware.table import Hardware
from companion.session.replies import Reply
from companion.words import text, texts

from . import parts
from .guard import at_the_companion, lang
from .openapi import (
    REFUSED,
    SEAT_PATH,
    SECRET_HEADERS,
    described,
    get,
    json_body,
    path_parameter,
    query,
    schema,
)
from .replies import refusal

blueprint = Blueprint(
    "panel",
    __name__,
    url_prefix="/panel",
    static_folder="static/panel",
    static_url_path="/static",
)

SCALE = 4  # the 128x64 picture is sent 512x256, pixels kept square and sharp
WAIT = 10.0  # seconds a poll waits for something new
# Polls that may wait at once (each holds a request thread); any more are refused at once and
# the page polls again 2 s later.
WAITERS = 2
SEATS = tuple(str(n) for n in range(1, 9))
CONTROLS = ("next", "back", "menu")
PRESSED = schema(
    "Pressed",
    {
        "type": "object",
        "description": "A panel button's answer: the session's reply",
        "properties": {
            "ok": {"type": "boolean"},
            "code": {"type": ["string", "null"]},
            "text": {"type": "string"},
        },
        "required": ["ok", "code", "text"],
    },
)


def _pressed(summary: str, path: dict) -> dict:
    """A panel button's operation: the body may hold it long; the answer is the session's."""
    answer = {"application/json": {"schema": {"$ref": "#/components/schemas/Pressed"}}}
    return {
        "post": {
            "summary": summary,
            "parameters": [*SECRET_HEADERS, path],
            "requestBody": json_body(
                {"type": "object", "properties": {"long": {"type": "boolean"}}}
            ),
            "responses": {
                "200": {"description": "Done", "content": answer},
                "409": {"description": "Refused by the session", "content": answer},
                "default": {"description": "Refused in plain words", "content": REFUSED},
            },
        }
    }


@blueprint.before_request
def only_at_the_companion() -> tuple[Response, int] | None:
    return None if at_the_companion() else refusal(lang(), "panel_only", 403)


def _hardware() -> Hardware:
    hardware = parts.hardware()
    if hardware is None:
        abort(503)
    return hardware


@blueprint.get("")
@described("/panel", get("The virtual panel's page (at the companion)", "text/html"))
def page() -> str:
    hardware = parts.hardware()
    lang = getattr(hardware, "lang", words.fallback())
    return render_template(
        "panel.html",
        lang=lang,
        seats=SEATS,
        hold=HOLD,
        hold_text=text(lang, "panel_hold", seconds=f"{HOLD:g}"),
        ready=hardware is not None,
        t=texts(lang),
    )


@blueprint.get("/oled.png")
@described("/panel/oled.png", get("The OLED's picture, enlarged (at the companion)", "image/png"))
def oled() -> Response:
    """The OLED's current picture, enlarged."""
    picture = _hardware().display.frame
    out = io.BytesIO()
    picture.resize((picture.width * SCALE, picture.height * SCALE)).save(out, "PNG")
    response = Response(out.getvalue(), mimetype="image/png")
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.get("/patterns.json")
@described("/panel/patterns.json", get("The buzzer's patterns (at the companion)"))
def patterns() -> Response:
    """The buzzer's patterns, the same data the buzzer plays: [[note or null, seconds], ...]."""
    return jsonify({name: [list(note) for note in notes] for name, notes in PATTERNS.items()})


@blueprint.get("/state")
@described(
    "/panel/state",
    get(
        "Long poll (10 s) for a new picture or sound (at the companion)",
        parameters=(
            query("frame", "the last picture number seen"),
            query("sound", "the last sound number heard"),
        ),
    ),
)
def state() -> Response | tuple[Response, int]:
    """Long poll: waits up to 10 s for a new picture or pattern after `frame` and `sound`."""
    hardware = _hardware()
    frame = request.args.get("frame", default=-1, type=int)
    sound = request.args.get("sound", default=-1, type=int)
    if sound < 0:
        sound = hardware.buzzer.count  # a page that just opened does not replay old tunes
    if frame >= 0 and hardware.buzzer.count <= sound:
        waiters = current_app.extensions.setdefault(
            "room25.panel_waiters", threading.BoundedSemaphore(WAITERS)
        )
        if not waiters.acquire(blocking=False):
            return refusal(lang(), "too_many_streams", 503)
        try:
            hardware.display.wait_frame(frame, WAIT)
        finally:
            waiters.release()
    response = jsonify(
        {
            "frame": hardware.display.frames,
            "sound": hardware.buzzer.count,
            "sounds": [name for _, name in hardware.buzzer.since(sound)],
            "lights": hardware.lights,
            # The seat buttons shown: the game's, or every one while the wiring check walks them.
            "seats": list(SEATS) if hardware.check is not None else hardware.seats,
            "lit": hardware.display.dimmed,
            "volume": getattr(hardware.config.buzzer, "volume", 0.5),
        }
    )
    response.headers["Cache-Control"] = "no-store"
    return response


def _reply(reply: Reply) -> tuple[Response, int]:
    ok = bool(reply.ok)
    body = {"ok": ok, "code": reply.code, "text": reply.text}
    return jsonify(body), 200 if ok else 409


def _long() -> bool | None:
    """`{"long": true}` asks for a long press, `{}` or `{"long": false}` a short one; None for a
    body that is not a JSON object or a "long" that is not true or false."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or body.get("long", False) not in (True, False):
        return None
    return body.get("long", False) is True


@blueprint.post("/seats/<seat>/press")
@described(
    "/panel/seats/{seat}/press",
    _pressed(
        "A seat button: lock in or unlock; {long: true} holds it 3 s (gives the seat)", SEAT_PATH
    ),
)
def press(seat: str) -> tuple[Response, int]:
    """A seat button: lock in, or unlock; `{"long": true}` holds it 3 s (gives the seat to
    the phone that asks for it). The page sends that once its button has been held 3 s."""
    if seat not in SEATS:
        abort(404)
    long = _long()
    if long is None:
        return refusal(lang(), "not_a_press", 400)
    hardware = _hardware()
    return _reply(hardware.hold(seat) if long else hardware.press(seat))


@blueprint.post("/controls/<button>")
@described(
    "/panel/controls/{button}",
    _pressed(
        "Next, Back or Menu; {long: true} for a long press",
        path_parameter("button", {"enum": ["next", "back", "menu"]}),
    ),
)
def control(button: str) -> tuple[Response, int]:
    """Next, Back or Menu; `{"long": true}` for a long press."""
    if button not in CONTROLS:
        abort(404)
    long = _long()
    if long is None:
        return refusal(lang(), "not_a_press", 400)
    return _reply(_hardware().control(button, long))


IDLE_CHECK = {"running": False, "done": False, "prompt": "", "lines": [], "summary": []}


@blueprint.get("/check")
def check_state() -> Response:
    """The wiring check: the step asked for, each part's line so far, the summary once done
    (the last check's after it ended; the host page and the virtual panel poll it)."""
    hardware = _hardware()
    found = hardware.check or current_app.extensions.get("room25.last_check")
    response = jsonify({"ok": True, **(IDLE_CHECK if found is None else found.state(lang()))})
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.post("/check")
def check_start() -> tuple[Response, int]:
    """Start the wiring check (`{}`), or stop it (`{"stop": true}`); refused in words while a
    game runs or a check already does."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return refusal(lang(), "not_a_press", 400)
    unknown = sorted(set(body) - {"stop"})
    if unknown or body.get("stop", False) not in (True, False):
        return refusal(lang(), "check_unknown_field", 400, field=(unknown or ["stop"])[0][:40])
    hardware = _hardware()
    if body.get("stop"):
        if hardware.check is None:
            return refusal(lang(), "check_not_running", 409)
        stopped = hardware.check
        stopped.cancel()
        return jsonify({"ok": True, **stopped.state(lang())}), 200
    found = hardware.start_check()
    if isinstance(found, str):
        return refusal(lang(), found, 409)
    current_app.extensions["room25.last_check"] = found
    return jsonify({"ok": True, **found.state(lang())}), 200
