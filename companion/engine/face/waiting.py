"""Who the game waits for now, and for what: what the table server, the OLED and the seat LEDs
read, so that nobody derives it from the state's internals.

Everything here is public: the whole table sees who is still programming, whose action it is and
who has a choice to make.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..kernel.state import HOST, GameState
from ..rules import flow


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

    def as_dict(self) -> dict:
        return {
            "phase": self.phase,
            "seats": list(self.seats),
            "locked_in": list(self.locked_in),
            "character": self.character,
            "round": self.round,
            "choice": self.choice,
        }


def waiting_for(state: GameState) -> Waiting:
    if state.outcome is not None:
        return Waiting("over")
    pending = state.pending
    if pending is not None:
        return Waiting(
            "choice", (pending["seat"],), character=pending["character"], choice=pending["kind"]
        )
    if state.phase == "clue":
        return Waiting("clue", tuple(s.id for s in state.seats.values() if s.clue is None))
    if state.phase == "programming":
        thinking, ready = [], []
        for seat in state.seats.values():
            mine = [state.characters[cid] for cid in seat.characters]
            locking = [c for c in mine if c.alive and flow.must_lock_in(state, c)]
            if any(not c.locked for c in locking):
                thinking.append(seat.id)
            elif any(c.alive for c in mine):
                ready.append(seat.id)
        return Waiting("programming", tuple(thinking), tuple(ready))
    if state.phase == "action" and state.current is not None:
        c = state.characters[state.current]
        seats = (c.seat,) if state.tracked else (c.seat, HOST)
        return Waiting("action", seats, character=c.id, round=state.round)
    return Waiting(state.phase)
