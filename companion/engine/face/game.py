"""Commands in, events out: `apply` checks a command against the state and answers with the
events it causes and the new state, or with a plain refusal that changes nothing."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..kernel.context import Refused
from ..kernel.refusals import Refusal
from ..kernel.state import GameState
from ..rules import load
from ..rules.setup import new_game
from .commands import Command
from .handlers import run
from .reading import parse

load()  # every rule filed in its table (rules/__init__.py)


@dataclass(frozen=True)
class Result:
    """What a command did: the new state and its events, or a refusal and the state unchanged."""

    state: GameState
    events: list[dict] = field(default_factory=list)
    refusal: Refusal | None = None

    @property
    def ok(self) -> bool:
        return self.refusal is None


def start(setup: object) -> Result:
    """Begin a game; an impossible setup is refused with the reason."""
    try:
        ctx = new_game(setup)
    except Refused as refused:
        return Result(state=None, refusal=refused.refusal)  # type: ignore[arg-type]
    return Result(ctx.state, ctx.events)


def apply(state: GameState, command: object) -> Result:
    """Apply one command on a copy of the state; the given state is never changed."""
    try:
        typed = command if isinstance(command, Command) else parse(command)
        ctx = run(state, typed)
    except Refused as refused:
        return Result(state, [], refused.refusal)
    return Result(ctx.state, ctx.events)
