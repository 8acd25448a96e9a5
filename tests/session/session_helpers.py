"""Setups and moves shared by the session tests."""

from __future__ import annotations

import random

from companion import engine
from companion.session import Session

# Each setup names its seed, so a test's game is the same on every run.
# A quick game whose complex the companion deals: every kind of input but the countdown ones.
DEALT = {"edition": "base", "mode": "suspicion", "players": 5, "tracking": "dealt", "seed": 3}
# Countdown-only with token programming: the seat buttons and Next drive it.
COUNTDOWN = {
    "edition": "base",
    "mode": "cooperation",
    "players": 4,
    "tracking": "countdown",
    "settings": {"programming": "tokens"},
    "seed": 1,
}
# A game with the M.A.C. deck shuffled by the companion.
MAC = {"edition": "season2", "mode": "cooperation", "players": 4, "tracking": "dealt", "seed": 1}


def state_of(session: Session):
    """The engine state behind the session (read between commands, from the test thread)."""
    return session._game.state


def legal_move(state, rng: random.Random) -> dict | None:
    """A random legal command of a seat the game waits for (None: the game is over)."""
    waiting = engine.waiting_for(state).as_dict()
    if waiting["phase"] == "over":
        return None
    options = [c for seat in waiting["seats"] for c in engine.legal_commands(state, seat)]
    return rng.choice(options) if options else None


def play(session: Session, count: int, seed: int = 0) -> list[dict]:
    """Play up to `count` random legal commands through the session; all must be accepted."""
    rng = random.Random(seed)
    played = []
    for _ in range(count):
        command = legal_move(state_of(session), rng)
        if command is None:
            break
        reply = session.submit(command, source="test")
        assert reply.ok, (command, reply.code, reply.text)
        played.append(command)
    return played


def drain(listener) -> list[dict]:
    """Every update a listener holds now, without waiting."""
    found = []
    while (update := listener.get(timeout=0)) is not None:
        found.append(update)
    return found
