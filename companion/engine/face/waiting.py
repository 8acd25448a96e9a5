"""Who the game waits for now, and for what: what the table server, the OLED and the seat LEDs
read, so that nobody derives it from the state's internals.

Everything here is public: the whole table sees who is still programming, whose action it is and
who has a choice to make.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..kernel.state import HOST, GameState
from ..rules import flow
from .shapes import WaitingView


@dataclass(frozen=True, slots=True)
class Waiting:
    """`phase` is what the game waits for: "clue", "programming", "action", "choice" or "over".
    `seats` must act now (the table itself is "host"); `locked_in` lists the seats that are
    ready during programming; `character`, `round` and `choice` say whose action or choice."""

    phase: str
    seats: tuple[str, ...] = ()
    locked_in: tuple[str, ...] = ()
    character: str | None = None
    round: int | None = None
    choice: str | None = None

    def as_dict(self) -> WaitingView:
        return {
            "phase": self.phase,
            "seats": list(self.seats),
            "locked_in": list(self.locked_in),
            "character": self.character,
            "round": self.round,
            "choice": self.choice,
        }


@lru_cache(maxsize=4096)
def _waiting(
    phase: str,
    seats: tuple[str, ...] = (),
    locked_in: tuple[str, ...] = (),
    character: str | None = None,
    round: int | None = None,
    choice: str | None = None,
) -> Waiting:
    """`Waiting` values are made once each: a game goes through the same few again and again,
    and a frozen dataclass is slow to make in the compiled build."""
    return Waiting(phase, seats, locked_in, character, round, choice)


def waiting_for(state: GameState) -> Waiting:
    if state.outcome is not None:
        return _waiting("over")
    pending = state.pending
    if pending is not None:
        return _waiting(
            "choice", (pending["seat"],), (), pending["character"], None, pending["kind"]
        )
    if state.phase == "clue":
        return _waiting("clue", tuple(s.id for s in state.seats.values() if s.clue is None))
    if state.phase == "programming":
        thinking, ready = [], []
        characters = state.characters
        for seat in state.seats.values():
            mine = [characters[cid] for cid in seat.characters]
            # A seat thinks while one of its living characters must lock in and has not: a
            # character locked in already is not asked whether he must (most of the phase).
            if any(c.alive and not c.locked and flow.must_lock_in(state, c) for c in mine):
                thinking.append(seat.id)
            elif any(c.alive for c in mine):
                ready.append(seat.id)
        return _waiting("programming", tuple(thinking), tuple(ready))
    if state.phase == "action" and state.current is not None:
        c = state.characters[state.current]
        seats = (c.seat,) if state.tracked else (c.seat, HOST)
        return _waiting("action", seats, (), c.id, state.round)
    return _waiting(state.phase)
