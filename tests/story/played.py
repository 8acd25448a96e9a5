"""A data directory that has seen real evenings: games played to their end by the simulator's
heuristic players, every command sent through the session and written to its journal, as a
table's phones would."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from companion.serve import JOURNAL_NAME
from companion.session import Session
from companion.sim.simulate import PlayedGame


def play_evenings(data_dir: Path, setups: list[dict], seed: int = 1) -> list[str]:
    """Play each setup to its end through one session on `data_dir`'s journal; the game ids."""
    data_dir.mkdir(parents=True, exist_ok=True)
    journal = data_dir / JOURNAL_NAME
    rng = random.Random(seed)
    games = []
    with Session(journal) as session:
        for setup in setups:
            started = session.host("new_game", setup=setup)
            assert started.ok, started
            (dealt,) = (
                sqlite3.connect(journal)
                .execute("SELECT seed FROM games WHERE id = ?", (started.game,))
                .fetchone()
            )
            # The same game, followed by the simulator's players: what they choose is sent on.
            same = {k: v for k, v in setup.items() if k != "rigged"}
            for decision in PlayedGame({**same, "seed": dealt}, "heuristic", rng):
                reply = session.submit(decision.command, source="test")
                assert reply.ok, (decision.command, reply)
            games.append(started.game)
    return games
