"""The API described for its clients and for the fuzz test: an OpenAPI 3.1 document whose
command schema is the engine's own `COMMAND_SCHEMA` (so the two cannot drift apart).

Each route declares its own operation beside it (`@described(path, post(...))` over the Flask
route) and the schemas its answers name (`schema(name, ...)`); `document()` puts together what
the routes declared, so a route and its description are read, and changed, in one place."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, TypeVar

from companion import engine

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


def json_body(schema: dict) -> dict:
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


def post(
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
        "requestBody": json_body(body or ANY_OBJECT),
    }
    return {"post": operation}


def get(summary: str, media: str = "application/json", parameters: tuple[dict, ...] = ()) -> dict:
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


def query(name: str, description: str) -> dict:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": {"type": "string"}}  # fmt: skip


def path_parameter(name: str, schema: dict) -> dict:
    return {"name": name, "in": "path", "required": True, "schema": schema}


SEAT_PATH = path_parameter("seat", SEAT)
GAME_PATH = path_parameter("game", {"type": "string", "pattern": "^[A-Za-z0-9_.:-]{1,64}$"})
AS = query("as", "seat, host or table")
AFTER = query("after", "the last announcement heard (none: answered at once)")
EDITION = query("edition", "base, season2 or ultimate")

# What the routes declared: path -> method -> operation, and the schemas their answers name.
PATHS: dict[str, dict[str, dict]] = {}
SCHEMAS: dict[str, dict] = {
    "Done": {
        "type": "object",
        "properties": {"ok": {"const": True}, "version": {"type": "integer"}},
        "required": ["ok"],
    },
    "Refused": {
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
    },
}

Route = TypeVar("Route", bound=Callable[..., Any])


def declare(path: str, operations: dict[str, dict]) -> None:
    """A route's operations (`post(...)`, `get(...)`) under its path in the document."""
    PATHS.setdefault(path, {}).update(operations)


def described(path: str, operations: dict[str, dict]) -> Callable[[Route], Route]:
    """`declare` as a decorator over the Flask route it describes; the route is unchanged."""

    def declared(route: Route) -> Route:
        declare(path, operations)
        return route

    return declared


def schema(name: str, found: dict) -> dict:
    """A schema the answers of a route name (`#/components/schemas/NAME`), declared beside it."""
    SCHEMAS[name] = found
    return found


def document() -> dict[str, Any]:
    """The whole OpenAPI document of `/api/` and of the virtual panel under `/panel`: what the
    routes of the app declared."""
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
        "paths": copy.deepcopy(PATHS),
        "components": {"schemas": {**command_schemas(), **copy.deepcopy(SCHEMAS)}},
    }
