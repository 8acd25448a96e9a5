"""The API described for its clients and for the fuzz test: an OpenAPI 3.1 document whose
command schema is the engine's own `COMMAND_SCHEMA` (so the two cannot drift apart)."""

from __future__ import annotations

import copy
from typing import Any

from companion import engine

from .i18n import LANGUAGES

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


def _answers(*refusals: int) -> dict:
    found: dict[str, Any] = {
        "200": {
            "description": "Done",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Done"}}},
        }
    }
    for status in refusals:
        found[str(status)] = {
            "description": "Refused in plain words; nothing changed",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Refused"}}},
        }
    return found


def _post(summary: str, body: dict | None, *refusals: int) -> dict:
    operation: dict[str, Any] = {
        "summary": summary,
        "parameters": SECRET_HEADERS,
        "responses": _answers(400, 403, 413, 415, *refusals),
    }
    operation["requestBody"] = _json_body(body or {"type": "object", "maxProperties": 0})
    return {"post": operation}


def _get(summary: str, media: str = "application/json") -> dict:
    return {
        "get": {
            "summary": summary,
            "responses": {"200": {"description": "OK", "content": {media: {}}}},
        }
    }


def document() -> dict[str, Any]:
    """The whole OpenAPI document of `/api/`."""
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
    count = {
        "type": "object",
        "properties": {"count": {"type": "integer", "minimum": 1, "maximum": 50}},
    }
    seat_path = {"name": "seat", "in": "path", "required": True, "schema": SEAT}
    press = _post("A seat button: lock in, or unlock (that seat or the host)", None, 401, 409)
    press["post"]["parameters"] = [*SECRET_HEADERS, seat_path]
    reset = _post("Free a seat for another phone (host)", None, 401, 409)
    reset["post"]["parameters"] = [*SECRET_HEADERS, seat_path]
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Room 25 Companion",
            "version": "1",
            "description": (
                "Every write is a POST with header X-Room25: 1 and a JSON body. A seat's phone "
                "is known by its seat cookie, the host by the host cookie (PIN login)."
            ),
        },
        "paths": {
            "/api/join": _post(
                "Take a free seat: sets the seat cookie",
                {"type": "object", "properties": {"seat": SEAT}, "required": ["seat"]},
                409,
            ),
            "/api/leave": _post("Give the seat back", None),
            "/api/language": _post(
                "Choose this phone's language",
                {
                    "type": "object",
                    "properties": {"lang": {"enum": list(LANGUAGES)}},
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
            "/api/seats/{seat}/press": press,
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
                    "Start a new game from a setup (host)",
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
            "/api/host/undo": _post("Undo the last commands (host)", count, 401, 409),
            "/api/host/pause": _post("Pause the game (host)", None, 401, 409),
            "/api/host/resume": _post("Resume the game (host)", None, 401, 409),
            "/api/host/end": _post("End the game (host)", None, 401, 409),
            "/api/host/seats/{seat}/reset": reset,
            "/api/seats": _get("Which seats the game has and which are taken"),
            "/api/view": _get("The caller's snapshot (?as=seat|host|table)"),
            "/api/log": _get("The current game's public record so far"),
            "/api/stream": _get("Server-Sent Events of the caller's updates", "text/event-stream"),
            "/api/openapi.json": _get("This document"),
        },
        "components": {"schemas": schemas},
    }
