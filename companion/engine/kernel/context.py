"""The working copy a command is decided on: events are folded in as they are emitted."""

from __future__ import annotations

from . import grid
from .evolve import FOLD
from .refusals import Refused
from .state import GameState

__all__ = ["Context", "Refused", "cell_named"]


def cell_named(value: object, code: str = "not_a_cell") -> grid.Cell:
    """A cell a command or a position names, or a refusal (with the code given: a position
    and a choice say it their own way) telling how to write one."""
    try:
        return grid.parse_cell(value)
    except ValueError:
        raise Refused(code, cell=str(value)[:20]) from None


class Context:
    """A command in progress: the new version of the state and the events that made it. Each
    event changes `state` as it is emitted; a character changed by one is a new object, so
    rules read him again from `state` after emitting rather than keep the old reference."""

    __slots__ = ("events", "report", "reporter", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[dict] = []
        # The room a command names for a physical tile it shows (the table's report).
        self.report: str | None = None
        # The seat that sent the command: what it saw itself is what its report may not deny.
        self.reporter: str | None = None

    def emit(self, event: dict) -> dict:
        """Fold an event into `state` and keep it. The caller builds the event whole, its type
        first, as a dictionary literal: cheaper than gathering keyword arguments into one, which
        counts at 4.5 events a command."""
        # `evolve` written out, a call less for each of a command's events: the event's
        # handler, then the version, which a private event does not count.
        state = self.state
        FOLD[event["type"]](state, event)
        # A key looked for rather than a method called: most events have no private reader.
        if "private" not in event or event["private"] is None:
            state.version += 1
        self.events.append(event)
        return event

    def record(self, event: dict) -> None:
        """Keep a public event whose fold changes nothing but the version (`evolve.RECORDS`):
        the fold's handler is not called, a call less for each action played, lost or looked."""
        self.state.version += 1
        self.events.append(event)
