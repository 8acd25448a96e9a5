"""The API described for its clients and for the fuzz test: an OpenAPI 3.1 document whose
command schema is the engine's own `COMMAND_SCHEMA` (so the two cannot drift apart)."""

from __future__ import annotations

import copy
from typing import Any

from companion import engine

from .i18n import languages

SEAT = {"type": "string", "enum": list(engine.SEAT_IDS)}
SECRET_HEADERS = [
    {
        "name": "X-Room25",
        "in": "header",
        "required": True,
        "description": "Must be 1: the CSRF guard (no cross-site form can send it).",
        "schema": {"const": "1"},
    }
]


def command_schemas() -> dict[str, Any]:
    """The engine's command schema as OpenAPI components (its `$defs` become schemas)."""
    schema = copy.deepcopy(engine.COMMAND_SCHEMA)
    defs = schema.pop("$defs", {})
    schema.pop("$schema", None)

    def relink(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                k: (v.replace("#/$defs/", "#/components/schemas/") if k == "$ref" else relink(v))
                for k, v in node.items()
            }
        if isinstance(node, list):
            return [relink(v) for v in node]
        return node

    found = {name: relink(d) for name, d in defs.items()}
    found["Command"] = relink(schema)
    return found


def _json_body(schema: dict) -> dict:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


REFUSED = {"application/json": {"schema": {"$ref": "#/components/schemas/Refused"}}}
# Any body a route does not read: a JSON object, its fields ignored (a non-object is refused).
ANY_OBJECT = {"type": "object"}


def _answers(done: str = "Done", *refusals: int) -> dict:
    """A write's answers: done, or refused in plain words (`default`: any other refusal, such
    as 400 for a `Host` not this companion's or a body nested too deep)."""
    found: dict[str, Any] = {
        "200": {
            "description": "Done",
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{done}"}}},
        },
        "default": {"description": "Refused in plain words; nothing changed", "content": REFUSED},
    }
    for status in refusals:
        found[str(status)] = {"description": "Refused in plain words", "content": REFUSED}
    return found


def _post(
    summary: str,
    body: dict | None,
    *refusals: int,
    path: tuple[dict, ...] = (),
    done: str = "Done",
) -> dict:
    operation: dict[str, Any] = {
        "summary": summary,
        "parameters": [*SECRET_HEADERS, *path],
        "responses": _answers(done, 400, 403, 413, 415, *refusals),
        "requestBody": _json_body(body or ANY_OBJECT),
    }
    return {"post": operation}


def _get(summary: str, media: str = "application/json", parameters: tuple[dict, ...] = ()) -> dict:
    operation: dict[str, Any] = {
        "summary": summary,
        "responses": {
            "200": {"description": "OK", "content": {media: {}}},
            "default": {"description": "Refused in plain words", "content": REFUSED},
        },
    }
    if parameters:
        operation["parameters"] = list(parameters)
    return {"get": operation}


def _query(name: str, description: str) -> dict:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": {"type": "string"}}  # fmt: skip


def document() -> dict[str, Any]:
    """The whole OpenAPI document of `/api/` and of the virtual panel under `/panel`."""
    schemas = command_schemas()
    schemas["Done"] = {
        "type": "object",
        "properties": {"ok": {"const": True}, "version": {"type": "integer"}},
        "required": ["ok"],
    }
    schemas["Refused"] = {
        "type": "object",
        "properties": {
            "ok": {"const": False},
            "refusal": {
                "type": "object",
                "properties": {
                    "code": {"type": "string"},
                    "text": {"type": "string"},
                    "params": {"type": "object"},
                },
                "required": ["code", "text", "params"],
            },
        },
        "required": ["ok", "refusal"],
    }
    schemas["Asked"] = {
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
    }
    schemas["Pressed"] = {
        "type": "object",
        "description": "A panel button's answer: the session's reply",
        "properties": {
            "ok": {"type": "boolean"},
            "code": {"type": ["string", "null"]},
            "text": {"type": "string"},
        },
        "required": ["ok", "code", "text"],
    }
    schemas["VoiceSettings"] = {
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
    }
    voice_change = {
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
    }
    after = _query("after", "the last announcement heard (none: answered at once)")
    count = {
        "type": "object",
        "properties": {"count": {"type": "integer", "minimum": 1, "maximum": 50}},
    }
    press_body = {"type": "object", "properties": {"long": {"type": "boolean"}}}
    seat_path = {"name": "seat", "in": "path", "required": True, "schema": SEAT}
    game_path = {
        "name": "game",
        "in": "path",
        "required": True,
        "schema": {"type": "string", "pattern": "^[A-Za-z0-9_.:-]{1,64}$"},
    }
    button_path = {
        "name": "button",
        "in": "path",
        "required": True,
        "schema": {"enum": ["next", "back", "menu"]},
    }
    join = _post(
        "Take a free seat (sets the seat cookie), or ask for a taken one (202)",
        {"type": "object", "properties": {"seat": SEAT}, "required": ["seat"]},
        409,
    )
    join["post"]["responses"]["202"] = {
        "description": "Asked: the seat's button held 3 s gives it",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Asked"}}},
    }
    panel_press = {
        "summary": "",
        "parameters": [],
        "requestBody": _json_body(press_body),
        "responses": {
            "200": {
                "description": "Done",
                "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/Pressed"}}
                },
            },
            "409": {
                "description": "Refused by the session",
                "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/Pressed"}}
                },
            },
            "default": {"description": "Refused in plain words", "content": REFUSED},
        },
    }
    seat_press = {
        **panel_press,
        "summary": "A seat button: lock in or unlock; {long: true} holds it 3 s (gives the seat)",
        "parameters": [*SECRET_HEADERS, seat_path],
    }
    control = {
        **panel_press,
        "summary": "Next, Back or Menu; {long: true} for a long press",
        "parameters": [*SECRET_HEADERS, button_path],
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Room 25 Companion",
            "version": "1",
            "description": (
                "Every write is a POST with header X-Room25: 1 and a JSON object as its body. A "
                "seat's phone is known by its seat cookie, the host by the host cookie (PIN "
                "login); /panel answers only at the companion (docs/web.md, Who may do what)."
            ),
        },
        "paths": {
            "/api/join": join,
            "/api/leave": _post("Give the seat back", None),
            "/api/language": _post(
                "Choose this phone's language",
                {
                    "type": "object",
                    "properties": {"lang": {"enum": list(languages())}},
                    "required": ["lang"],
                },
            ),
            "/api/commands": _post(
                "A command to the game; the seat comes from the cookie",
                {
                    "type": "object",
                    "properties": {"command": {"$ref": "#/components/schemas/Command"}},
                    "required": ["command"],
                },
                401,
                409,
            ),
            "/api/seats/{seat}/press": _post(
                "A seat button: lock in, or unlock (that seat's phone or the host)",
                None,
                401,
                409,
                path=(seat_path,),
            ),
            "/api/host/login": _post(
                "Host login with the PIN: sets the host cookie",
                {
                    "type": "object",
                    "properties": {"pin": {"type": "string", "maxLength": 20}},
                    "required": ["pin"],
                },
                429,
            ),
            "/api/host/logout": _post("Host logout", None),
            "/api/host/games": {
                **_post(
                    "Start a new game from a setup (host); seed, roles and complex only with "
                    '"rigged": true, which every screen announces; "seat_claims": "keep" or '
                    '"clear"',
                    {
                        "type": "object",
                        "properties": {"setup": {"type": "object"}},
                        "required": ["setup"],
                    },
                    401,
                    409,
                ),
                **_get("Past games from the journal (host)"),
            },
            "/api/host/games/{game}/export": _get(
                "A game of the journal as JSON (host)", parameters=(game_path,)
            ),
            "/api/host/games/{game}/reveal": _get(
                "A finished game's roles, complex and notebooks (host)", parameters=(game_path,)
            ),
            "/api/host/games/{game}/resume": _post(
                "Play again a game a new game replaced (host)", None, 401, 409, path=(game_path,)
            ),
            "/api/host/games/{game}/names": _post(
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
                path=(game_path,),
            ),
            "/api/host/history": _get(
                "The table's history: past games, rates beside the simulator's, charts (host)"
            ),
            "/api/host/more_time": _post(
                "Once the programming time is up: the late seats get the limit again (host)",
                None,
                401,
                409,
            ),
            "/api/host/lock_in_late": _post(
                "Once the programming time is up: lock in what each late seat chose (host)",
                None,
                401,
                409,
            ),
            "/api/host/wizard": _get(
                "The setup wizard's choices (host)",
                parameters=(
                    _query("edition", "base or season2"),
                    _query("mode", "a mode of the edition"),
                    _query("players", "a number of players"),
                    _query("composition", "a composition id"),
                ),
            ),
            "/api/host/pin": _get("The host PIN, for the host page once logged in (host)"),
            "/api/host/undo": _post("Undo the last commands (host)", count, 401, 409),
            "/api/host/pause": _post("Pause the game (host)", None, 401, 409),
            "/api/host/resume": _post("Resume the game (host)", None, 401, 409),
            "/api/host/end": _post("End the game (host)", None, 401, 409),
            "/api/host/seats/{seat}/reset": _post(
                "Free a seat for another phone (host; said on every screen mid-game)",
                None,
                401,
                path=(seat_path,),
            ),
            "/api/host/seats/{seat}/give": _post(
                "Give a seat to the phone asking for it (host; said on every screen mid-game)",
                None,
                401,
                409,
                path=(seat_path,),
            ),
            "/api/host/voice": {
                **_post(
                    "Change the voice: volume, mute, quiet (only the alarm and the end), lang, "
                    "table_speaks (the table page says the announcements), test (host)",
                    voice_change,
                    401,
                    409,
                    done="VoiceSettings",
                ),
                **_get("The voice's settings (host)"),
            },
            "/api/voice/latest": _get(
                "Long poll (10 s) for the voice's next announcement: its words (public), "
                "whether the table page says them, mute and volume",
                parameters=(after,),
            ),
            "/api/seats": _get("Which seats the game has, which are taken or asked for"),
            "/api/view": _get(
                "The caller's snapshot", parameters=(_query("as", "seat, host or table"),)
            ),
            "/api/log": _get("The current game's public record so far"),
            "/api/reveal": _get(
                "The finished game's roles, complex, winners and reason, for everyone (409 while "
                "a game can still be played)"
            ),
            "/api/games/{game}/replay": _get(
                "A finished game's episode, step by step, for everyone (`last`: the latest game; "
                "409 while it can still be played)",
                parameters=(game_path,),
            ),
            "/api/stream": _get(
                "Server-Sent Events of the caller's updates",
                "text/event-stream",
                (_query("as", "seat, host or table"),),
            ),
            "/api/openapi.json": _get("This document"),
            "/api/rules": _get(
                "Every rule of an edition in the caller's language: the current game's (its "
                "settings decide each disputed point), else the base game's; 400 for an edition "
                "not one of the three",
                parameters=(_query("edition", "base, season2 or ultimate"),),
            ),
            "/rules": _get(
                "The rules page, searchable, without a game",
                "text/html",
                (_query("edition", "base, season2 or ultimate"),),
            ),
            "/panel": _get("The virtual panel's page (at the companion)", "text/html"),
            "/panel/oled.png": _get("The OLED's picture, enlarged (at the companion)", "image/png"),
            "/panel/patterns.json": _get("The buzzer's patterns (at the companion)"),
            "/panel/state": _get(
                "Long poll (10 s) for a new picture or sound (at the companion)",
                parameters=(
                    _query("frame", "the last picture number seen"),
                    _query("sound", "the last sound number heard"),
                ),
            ),
            "/panel/voice/latest": _get(
                "Long poll (10 s) for the voice's next announcement and its WAV (at the companion)",
                parameters=(after,),
            ),
            "/panel/voice/{announcement}.wav": _get(
                "One of the last announcements as WAV (at the companion)",
                "audio/wav",
                (
                    {
                        "name": "announcement",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "integer", "minimum": 0},
                    },
                ),
            ),
            "/panel/seats/{seat}/press": {"post": seat_press},
            "/panel/controls/{button}": {"post": control},
        },
        "components": {"schemas": schemas},
    }
