"""Finished games in a journal, for the replay tests: each played to its end by the simulated
heuristic players, and its commands then submitted one by one through a real `Session`, as the
phones would send them (the engine is deterministic: the same setup and seed give the same game);
and where the engine and a replay page put the characters at a step, to compare the two."""

from __future__ import annotations

import random
from pathlib import Path

from companion import engine
from companion.serve import JOURNAL_NAME
from companion.session import FakeClock, Session
from companion.sim.simulate import PlayedGame

# One setup per edition, each with its seed, so that a test's games are the same on every run
# (with the players' seed of `commands_of`, the Season 2 game sees the alarm and two
# eliminations, the base game the alarm: `test_the_fixture_games_hold_what_tests_read_in_them`).
EDITIONS = {
    "base": {"edition": "base", "mode": "suspicion", "players": 5, "tracking": "dealt", "seed": 2},
    "season2": {
        "edition": "season2",
        "mode": "suspicion",
        "players": 5,
        "tracking": "dealt",
        "seed": 3,
    },
    "ultimate": {
        "edition": "ultimate",
        "mode": "cooperation",
        "players": 4,
        "tracking": "dealt",
        "seed": 2,
    },
}


def commands_of(setup: dict, seed: int = 3) -> list[dict]:
    """The commands of one simulated game of `setup`, from its first to its last."""
    return [decision.command for decision in PlayedGame(setup, "heuristic", random.Random(seed))]


def play_to_the_end(session: Session, setup: dict) -> str:
    """A new game of `setup` in the session, played to its end; its id."""
    game = session.host("new_game", setup=setup).game
    for command in commands_of(setup):
        reply = session.submit(command, source="test")
        assert reply.ok, (command, reply.code, reply.text)
    assert session.snapshot("public")["waiting"]["phase"] == "over"
    return game


def finished_games(data_dir: Path, editions: tuple[str, ...] = tuple(EDITIONS)) -> dict[str, str]:
    """A data directory whose journal holds one finished game per edition named: their ids."""
    data_dir.mkdir(parents=True, exist_ok=True)
    with Session(data_dir / JOURNAL_NAME, FakeClock()) as session:
        return {edition: play_to_the_end(session, EDITIONS[edition]) for edition in editions}


def engine_positions(exported: dict, seq: int) -> dict[str, str | None]:
    """Where each character stood once command `seq` was played: the journal's events folded
    by the engine, read from its full view (nothing of `companion.story`), for the tests to
    check the replay against."""
    kept = [c for c in exported["commands"] if not c["undone"] and c["seq"] <= seq]
    state = engine.replay([*exported["start"], *(e for c in kept for e in c["events"])])
    return {cid: c["cell"] for cid, c in engine.full_view(state)["characters"].items()}


def shown_positions(page, cast: list[str]) -> dict[str, str | None]:
    """Where the replay's board shows each character (None: on no cell)."""
    return page.evaluate(
        """(cast) => Object.fromEntries(cast.map((cid) => {
            const token = document.querySelector(`#replay-board [data-character="${cid}"]`);
            return [cid, token ? token.closest("[data-cell]").dataset.cell : null];
        }))""",
        cast,
    )
