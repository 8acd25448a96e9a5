"""The game's catalogues (rooms, characters), read once from the data files; compositions are
in compose.py."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from companion import words


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


def room_name(kind: str, lang: str = "") -> str:
    """A room kind as the rulebook of the language names it (the catalogue's rooms.json)."""
    return words.texts(lang).get(f"room_name_{kind}", kind.replace("_", " "))


def composition_name(composition: str, lang: str = "") -> str:
    """A suggested composition as the pages and `room25 compose` name it (the catalogue's
    compositions.json, its only name: the engine's data gives ids alone)."""
    return words.texts(lang).get(f"composition_{composition}", composition)


def room_text(kind: str, lang: str = "") -> str:
    """A room's effect as the rulebook of the language prints it on the tile."""
    return words.texts(lang).get(f"room_text_{kind}", "")


def character_base(character: str, lang: str = "") -> str:
    """The base character a character is ("the Scientist"), or "" for one with none."""
    return words.texts(lang).get(f"character_base_{character}", "")


def colour(kind: str) -> str:
    return rooms()[kind]["colour"]


def box(edition: str) -> dict[str, int]:
    """How many tiles of each room kind the edition's box holds."""
    return {kind: room["box"].get(edition, 0) for kind, room in rooms().items()}
