"""The show's voice in the browser: the virtual panel plays each announcement's WAV (a laptop
table hears it), the table page may say its text with the browser's own speech (a TV with
speakers), and the host page sets the voice (volume, mute, quiet table, language, the table
page speaking, a test).

What is read here is the voice's latest announcement, made from public events only: the table
page's route is anyone's, the WAV the panel's (whoever sits at the companion, or the host, as
every `/panel` route), the settings the host's. Without a voice (turned off in the config, or
one that could not start) every route answers in plain words.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, request

from companion import words
from companion.config import Config
from companion.voice.script import Line

from . import parts
from .access import HOST_COOKIE
from .guard import at_the_companion, lang
from .i18n import languages
from .openapi import AFTER, described, get, path_parameter, post, schema
from .replies import refusal

if TYPE_CHECKING:  # the running voice, when there is one
    from companion.voice.voice import Voice

blueprint = Blueprint("voice", __name__)
panel = Blueprint("panel_voice", __name__, url_prefix="/panel/voice")

WAIT = 10.0  # seconds a long poll waits for a new announcement
# Long polls that may wait at once (each holds a request thread): the panel and a table page or
# two; any more are refused at once and the page asks again 2 s later.
WAITERS = 3
SWITCHES = ("mute", "quiet", "table_speaks")
SETTINGS = schema(
    "VoiceSettings",
    {
        "type": "object",
        "description": "The voice's settings; on: false when no voice runs (nothing else then)",
        "properties": {
            "ok": {"const": True},
            "on": {"type": "boolean"},
            "volume": {"type": "number", "minimum": 0, "maximum": 1},
            "mute": {"type": "boolean"},
            "quiet": {"type": "boolean"},
            "lang": {"enum": list(languages())},
            "table_speaks": {"type": "boolean"},
        },
        "required": ["ok", "on", "table_speaks"],
    },
)


@dataclass
class TablePage:
    """Whether the table pages say the announcements: one setting for every table page."""

    speaks: bool = False


def install(app: Flask, config: Config | None, voice: Voice | None) -> None:
    """The voice's routes, around the running voice (None: there is none)."""
    app.extensions["room25.voice"] = voice
    speaks = bool(getattr(getattr(config, "voice", None), "table_speaks", False))
    app.extensions["room25.table_page"] = TablePage(speaks)
    app.extensions["room25.voice_waiters"] = threading.BoundedSemaphore(WAITERS)
    app.register_blueprint(blueprint)
    app.register_blueprint(panel)


def _voice() -> Voice | None:
    return current_app.extensions.get("room25.voice")


def _table_page() -> TablePage:
    return current_app.extensions["room25.table_page"]


def _settings(voice: Voice | None) -> dict[str, Any]:
    """The voice's settings as the host page shows them."""
    speaks = _table_page().speaks
    if voice is None:
        return {"on": False, "table_speaks": speaks}
    return {
        "on": True,
        "volume": round(voice.volume, 2),
        "mute": voice.muted,
        "quiet": voice.quiet,
        "lang": voice.lang,
        "table_speaks": speaks,
    }


def _latest(wav: bool) -> Response | tuple[Response, int]:
    """Long poll: the latest announcement once it is newer than `after` (at once without
    `after`: a page that just opened learns where the voice is, and says nothing old)."""
    raw = request.args.get("after")
    try:
        after = -1 if raw is None else int(raw)
    except ValueError:
        return refusal(lang(), "bad_request", 400)
    voice = _voice()
    if voice is None:
        found = None
    elif after < 0:
        found = voice.latest()
    else:
        waiters = current_app.extensions["room25.voice_waiters"]
        if not waiters.acquire(blocking=False):
            return refusal(lang(), "too_many_streams", 503)
        try:
            found = voice.wait(after, WAIT) or voice.latest()
        finally:
            waiters.release()
    body: dict[str, Any] = {"on": voice is not None, "id": 0, "text": "", "lang": None}
    if found is not None and voice is not None:  # found only from a voice
        body.update(id=found["id"], text=found["text"], lang=found["lang"])
        # How a browser says it: the language's voice tag (language.json), as espeak-ng's is.
        body["speech"] = words.settings(found["lang"]).get("voice") or found["lang"]
        if wav:  # none where the companion's own speaker plays it (a Pi): never twice
            heard_here = voice.sink is not None
            body["wav"] = (
                f"/panel/voice/{found['wav']}" if found["wav"] and not heard_here else None
            )
    if voice is not None:
        body.update(muted=voice.muted, volume=round(voice.volume, 2))
    body["table_speaks"] = _table_page().speaks
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.get("/api/voice/latest")
@described(
    "/api/voice/latest",
    get(
        "Long poll (10 s) for the voice's next announcement: its words (public), "
        "whether the table page says them, mute and volume",
        parameters=(AFTER,),
    ),
)
def table_latest() -> Response | tuple[Response, int]:
    """For the table page: the latest announcement's words (public), and whether to say them."""
    return _latest(wav=False)


@panel.before_request
def only_at_the_companion() -> tuple[Response, int] | None:
    return None if at_the_companion() else refusal(lang(), "panel_only", 403)


@panel.get("/latest")
@described(
    "/panel/voice/latest",
    get(
        "Long poll (10 s) for the voice's next announcement and its WAV (at the companion)",
        parameters=(AFTER,),
    ),
)
def panel_latest() -> Response | tuple[Response, int]:
    """For the virtual panel: the latest announcement and where its WAV is."""
    return _latest(wav=True)


@panel.get("/<int:announcement>.wav")
@described(
    "/panel/voice/{announcement}.wav",
    get(
        "One of the last announcements as WAV (at the companion)",
        "audio/wav",
        (path_parameter("announcement", {"type": "integer", "minimum": 0}),),
    ),
)
def audio(announcement: int) -> Response:
    """One of the last announcements, rendered (the page sets its volume)."""
    voice = _voice()
    found = None if voice is None else voice.audio(announcement)
    if found is None:
        abort(404)
    response = Response(found, mimetype="audio/wav")
    response.headers["Cache-Control"] = "no-store"
    return response


def _host_only() -> tuple[Response, int] | None:
    access = parts.access()
    return (
        None
        if access.is_host(request.cookies.get(HOST_COOKIE))
        else refusal(lang(), "host_only", 401)
    )


@blueprint.get("/api/host/voice")
@described("/api/host/voice", get("The voice's settings (host)"))
def settings() -> Response | tuple[Response, int]:
    """The voice's settings, for the host page."""
    refused = _host_only()
    if refused is not None:
        return refused
    return jsonify({"ok": True, **_settings(_voice())})


def _refused_field(body: dict) -> tuple[Response, int] | None:
    """The first field of a settings change that cannot be taken, refused in words."""
    if not body:
        return refusal(lang(), "voice_page_nothing", 400)
    for name, value in body.items():
        if name == "volume":
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not number or not math.isfinite(value) or not 0 <= value <= 1:
                return refusal(lang(), "voice_page_bad_volume", 400)
        elif name in SWITCHES:
            if not isinstance(value, bool):
                return refusal(lang(), "voice_page_bad_switch", 400, field=name)
        elif name == "lang":
            if value not in languages():
                return refusal(lang(), "voice_page_bad_language", 400)
        elif name == "test":
            if value is not True:
                return refusal(lang(), "voice_page_bad_test", 400)
        else:
            return refusal(lang(), "voice_page_unknown_field", 400, field=str(name)[:40])
    return None


@blueprint.post("/api/host/voice")
@described(
    "/api/host/voice",
    post(
        "Change the voice: volume, mute, quiet (only the alarm and the end), lang, "
        "table_speaks (the table page says the announcements), test (host)",
        {
            "type": "object",
            "properties": {
                "volume": {"type": "number", "minimum": 0, "maximum": 1},
                "mute": {"type": "boolean"},
                "quiet": {"type": "boolean"},
                "lang": {"enum": list(languages())},
                "table_speaks": {"type": "boolean"},
                "test": {"const": True},
            },
            "additionalProperties": False,
            "minProperties": 1,
        },
        401,
        409,
        done="VoiceSettings",
    ),
)
def change() -> Response | tuple[Response, int]:
    """Change the voice: any of volume (0 to 1), mute, quiet, lang, table_speaks, and test
    (true: say a line now). Every field is checked before any is changed."""
    refused = _host_only()
    if refused is not None:
        return refused
    found = request.get_json(silent=True)
    body: dict = found if isinstance(found, dict) else {}
    refused = _refused_field(body)
    if refused is not None:
        return refused
    voice = _voice()
    if voice is None:
        return refusal(lang(), "voice_page_off", 409)
    if "volume" in body:
        voice.set_volume(body["volume"])
    if "mute" in body:
        voice.set_mute(body["mute"])
    if "quiet" in body:
        voice.set_quiet(body["quiet"])
    if "lang" in body:
        voice.set_language(body["lang"])
    if "table_speaks" in body:
        _table_page().speaks = body["table_speaks"]
    if body.get("test"):
        voice.say([_test_line()])
    return jsonify({"ok": True, **_settings(voice)})


def _test_line() -> Line:
    """What the test says: the turn and the turns left, as the table hears them each turn (a
    game's first turn when no game is on)."""
    view = parts.session().snapshot("public")["view"]
    if view and isinstance(view.get("turn"), int) and isinstance(view.get("turns_left"), int):
        return Line.of("turn", turn=view["turn"], turns_left=view["turns_left"])
    return Line.of("turn", turn=1, turns_left=10)
