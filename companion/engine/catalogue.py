"""The game's catalogues (rooms, characters), read once from the data files; compositions are
in compose.py."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources


@cache
def _load(name: str) -> dict:
    return json.loads(resources.files("companion.engine").joinpath("data", name).read_text("utf-8"))


@cache
def rooms() -> dict[str, dict]:
    return {room["id"]: room for room in _load("rooms.json")["rooms"]}


@cache
def characters() -> dict[str, dict]:
    return {c["id"]: c for c in _load("characters.json")["characters"]}


def colour(kind: str) -> str:
    return rooms()[kind]["colour"]


def box(edition: str) -> dict[str, int]:
    """How many tiles of each room kind the edition's box holds."""
    return {kind: room["box"].get(edition, 0) for kind, room in rooms().items()}
