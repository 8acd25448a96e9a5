"""The episode of a finished game: its steps, turn by turn and action by action, rebuilt from the
journal's export by the engine's own fold (`replay` for the setup, then `evolve` event by event),
never from a second record.

A step is one command the table saw (a seat's programming is not one: it is shown with every
step of its turn, since the game is over and its secrets are out): the complex as it stood, with
every room face up and those still hidden then marked, where each character stood, the action
played and what it did, the countdown, the M.A.C. cards. The highlights are marked: the alarm,
each elimination, the last action. A game still being played is refused (`NotOver`): nothing of
it may come out before its end. The names the host typed for the seats are left out: the public
replay never carries them (the recap adds them, `recap.py`).
"""

from __future__ import annotations

from typing import Any, TypedDict

from companion import engine
from companion.engine import GameState
from companion.session.archive import seen_over
from companion.session.shapes import Event, Export, WireCommand

CELLS = tuple(engine.cell_name(cell) for cell in engine.grid.CELLS)
# The events a step tells, and the fields of each that tell it (a tile becomes its cell).
TOLD = {
    "clue_taken": ("seat", "cell"),
    "actor": ("character",),
    "action_revealed": ("character", "action"),
    "action_lost": ("character", "action"),
    "moved": ("character",),
    "room_revealed": ("room",),
    "room_hidden": (),
    "room_destroyed": ("room",),
    "eliminated": ("character", "reason"),
    "escaped": ("characters",),
    "regenerated": ("characters",),
    "trapped": ("character",),
    "flooding": ("character",),
    "slid": ("line", "direction"),
    "swapped": (),
    "corridor_turned": ("corridor",),
    "robot_moved": (),
    "robot_destroyed": (),
    "guard_exposed": ("character",),
    "role_revealed": ("character",),
    "hid": ("character",),
    "key_activated": (),
    "lock_placed": (),
    "token_lost": ("character", "token"),
    "alarm": ("turns_left",),
    "countdown": ("turn", "turns_left"),
    "turns_reduced": ("turns_left",),
    "mac_drawn": ("card",),
    "game_over": ("outcome",),
}


class NotOver(Exception):
    """A game whose end the table has not seen: its replay is refused, to every audience."""

    code = "replay_not_over"


class Step(TypedDict):
    """The game as it stood after one command the table saw (`seq` 0: the start)."""

    seq: int
    seat: object  # the command's seat (the host's own command: `engine.HOST`), None at the start
    command: object  # the command's type
    character: object
    action: object
    room: str | None  # the room the character stands in once his action is done
    turn: int
    round: int
    phase: str
    turns_left: int
    alarm: bool
    events: list[Event]  # those told, each with the fields `TOLD` names
    rooms: list[str | None] | None  # every cell's room, None when the complex is not tracked
    face_down: list[str]
    positions: dict[str, str | None]
    out: list[str]
    played: dict[str, list[str]]
    robots: list[str | None]
    mac: dict[str, list[str]] | None
    highlights: list[str]  # alarm, eliminated, last


class Episode(TypedDict):
    """A finished game told step by step, as the replay page and the recap read it."""

    game: str
    status: str
    edition: str
    mode: str
    tracking: str
    created: float
    ended: float | None
    outcome: dict[str, object] | None
    cells: list[str]
    characters: dict[str, dict[str, str]]  # character -> its seat and role
    programmes: dict[str, dict[str, list[str]]]  # turn -> character -> tokens
    steps: list[Step]


def episode(exported: Export) -> Episode:
    """The steps of a finished game's export (`archive.export`), for the replay and the recap."""
    if not seen_over(exported):
        raise NotOver("this game is not over: its replay is shown once it has ended")
    state = engine.replay(exported["start"])
    programmes: dict[str, dict[str, list[str]]] = {}
    steps = [_step(state, 0, None, [])]
    for command in exported["commands"]:
        if command["undone"]:
            continue
        told = []
        for event in command["events"]:
            if event["type"] == "programmed":
                tokens = [*map(str, _listed(event["tokens"]))]
                tokens += ["adrenaline"] if event.get("adrenaline") else []
                programmes.setdefault(str(state.turn), {})[str(event["character"])] = tokens
            engine.evolve(state, event)
            if event["type"] in TOLD and event.get("private") is None:
                told.append(_told(state, event))
        if told:
            steps.append(_step(state, command["seq"], command["command"], told))
    steps[-1]["highlights"].append("last")
    setup = exported["setup"]
    return {
        "game": exported["game"],
        "status": exported["status"],
        # The engine accepted the setup: each of these is one of its words.
        "edition": str(setup.get("edition", "base")),
        "mode": str(setup.get("mode", "suspicion")),
        "tracking": str(setup.get("tracking", "dealt")),
        "created": exported["created"],
        "ended": exported["ended"],
        "outcome": exported["outcome"],
        "cells": list(CELLS),
        "characters": {
            cid: {"seat": c.seat, "role": c.role} for cid, c in state.characters.items()
        },
        "programmes": programmes,
        "steps": steps,
    }


def _listed(value: object) -> list[object]:
    """An event's list field (a `programmed` event's tokens) as the list it is."""
    return value if isinstance(value, list) else []


def _where(state: GameState, tile: Any) -> str | None:
    """The cell of a tile (an event's `tile`, a character's), None off the board."""
    place = state.places.get(tile)
    return None if place is None else CELLS[place]


def _told(state: GameState, event: Event) -> Event:
    told: Event = {"type": event["type"]}
    told.update((key, event[key]) for key in TOLD[str(event["type"])] if key in event)
    if "tile" in event:
        told["cell"] = _where(state, event["tile"])
    return told


def _step(state: GameState, seq: int, command: WireCommand | None, told: list[Event]) -> Step:
    """The game as it stood after one command: plain values, nothing shared with the state."""
    types = {event["type"] for event in told}
    highlights: list[str] = [kind for kind in ("alarm", "eliminated") if kind in types]
    mac = state.mac
    actor = None if command is None else state.characters.get(str(command.get("character")))
    return {
        "seq": seq,
        "seat": None if command is None else command.get("seat", engine.HOST),
        "command": None if command is None else command.get("type"),
        "character": None if command is None else command.get("character"),
        "action": None if command is None else command.get("action"),
        # The room's effect: the room the character stands in once his action is done.
        "room": None if actor is None or actor.tile is None else state.tiles[actor.tile].kind,
        "turn": state.turn,
        "round": state.round,
        "phase": state.phase,
        "turns_left": state.turns_left,
        "alarm": state.alarm,
        "events": told,
        "rooms": [state.tiles[tile].kind for tile in state.cells] or None,
        "face_down": [
            CELLS[i] for i, tile in enumerate(state.cells) if not state.tiles[tile].revealed
        ],
        "positions": {cid: _where(state, c.tile) for cid, c in state.characters.items()},
        "out": list(state.deaths),
        "played": {cid: list(c.played) for cid, c in state.characters.items() if c.played},
        "robots": [_where(state, tile) for tile in state.robots],
        "mac": None if mac is None else {"in_play": list(mac.in_play), "drawn": list(mac.drawn)},
        "highlights": highlights,
    }
