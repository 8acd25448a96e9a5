"""The working copy a command is decided on: events are folded in as they are emitted."""

from __future__ import annotations

from . import grid
from .evolve import evolve
from .state import GameState


class Refused(Exception):
    """A command the rules do not allow now; its message is shown to the player as it is."""


def cell_named(value: object, what: str = "") -> int:
    """A cell a command or a position names, or a refusal saying how to write one."""
    try:
        return grid.parse_cell(value)
    except ValueError as error:
        raise Refused(f"{what}{str(error)[0].upper()}{str(error)[1:]}.") from None


class Context:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[dict] = []

    def emit(self, kind: str, **fields: object) -> dict:
        event = {"type": kind, **fields}
        evolve(self.state, event)
        self.events.append(event)
        return event
