"""The game's catalogues (rooms, characters), read once from the data files; compositions are
in compose.py."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources


@cache
def load(name: str) -> dict:
    """A data file of the package, parsed (cached: the files never change while running)."""
    # One joinpath per part: a namespace package's MultiplexedPath takes a single argument.
    path = resources.files("companion.engine").joinpath("data").joinpath(name)
    return json.loads(path.read_text("utf-8"))


@cache
def rooms() -> dict[str, dict]:
    return {room["id"]: room for room in load("rooms.json")["rooms"]}


@cache
def characters() -> dict[str, dict]:
    return {c["id"]: c for c in load("characters.json")["characters"]}


def colour(kind: str) -> str:
    return rooms()[kind]["colour"]


def box(edition: str) -> dict[str, int]:
    """How many tiles of each room kind the edition's box holds."""
    return {kind: room["box"].get(edition, 0) for kind, room in rooms().items()}
