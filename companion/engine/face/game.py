"""Commands in, events out: `apply` checks a command against the state and answers with the
events it causes and the new state, or with a plain refusal that changes nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ..kernel.context import Refused
from ..kernel.refusals import Refusal
from ..kernel.state import GameState
from ..rules import load
from ..rules.setup import new_game
from .commands import Command
from .handlers import run
from .reading import parse

load()  # every rule filed in its table (rules/__init__.py)


# The state a result holds: always one after a command (refused, the state it was given), none
# after a setup `start` refused.
S = TypeVar("S", GameState, GameState | None)


@dataclass(slots=True)
class Result(Generic[S]):
    """What a command did: the new state and its events, or a refusal and the state unchanged.
    A value nobody changes, like a view; not frozen, since a frozen dataclass sets each field
    through `object.__setattr__`, which was 2 % of a command."""

    state: S
    events: list[dict] = field(default_factory=list)
    refusal: Refusal | None = None

    @property
    def ok(self) -> bool:
        return self.refusal is None


def start(setup: object) -> Result[GameState | None]:
    """Begin a game; an impossible setup is refused with the reason."""
    try:
        ctx = new_game(setup)
    except Refused as refused:
        return Result(state=None, refusal=refused.refusal)
    return Result(ctx.state, ctx.events)


def apply(state: GameState, command: object) -> Result[GameState]:
    """Apply one command on a copy of the state; the given state is never changed."""
    try:
        typed = command if isinstance(command, Command) else parse(command)
        ctx = run(state, typed)
    except Refused as refused:
        return Result(state, [], refused.refusal)
    return Result(ctx.state, ctx.events)
