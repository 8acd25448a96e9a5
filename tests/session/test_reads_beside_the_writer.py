"""Reads of past games (a replay's export, the games list, the host's history) read the journal
on a connection of their own, beside the session's writer (issue 28, point 7): a phone flooding
the replay is never queued before a seat's press, nor a press before the replay."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from session_helpers import DEALT, play

from companion.session import FakeClock, Session


class HeldClock(FakeClock):
    """A fake clock that can hold the writer: the writer asks `schedule` before it waits for its
    next job, and waits there while the clock is held."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.release.set()
        self.holding = threading.Event()

    def schedule(self, deadline, wake):
        if not self.release.is_set():
            self.holding.set()
            self.release.wait()
        return super().schedule(deadline, wake)


@pytest.fixture
def held(journal: Path) -> Iterator[tuple[Session, HeldClock]]:
    clock = HeldClock()
    session = Session(journal, clock)
    session.open()
    yield session, clock
    clock.release.set()
    session.close()


def _while_the_writer_is_held(
    session: Session, clock: HeldClock, read: Callable[[Session], object]
) -> object:
    """What `read(session)` answers while the writer cannot run a job (it fails if the read
    only answers once the writer is free again)."""
    clock.release.clear()
    session.healthy(timeout=5.0)  # one job: after it the writer asks the clock, and is held
    assert clock.holding.wait(10.0), "the writer never came back to its clock"
    answered = threading.Event()
    found: list[object] = []

    def reading() -> None:
        found.append(read(session))
        answered.set()

    threading.Thread(target=reading, daemon=True).start()
    try:
        assert answered.wait(10.0), "the read waited for the writer"
    finally:
        clock.release.set()
    return found[0]


def test_an_export_answers_while_the_writer_is_busy(held: tuple[Session, HeldClock]) -> None:
    session, clock = held
    game = session.host("new_game", setup=DEALT).game
    played = play(session, 6, seed=2)
    session.host("end_game")
    exported = _while_the_writer_is_held(session, clock, lambda s: s.export(game))
    assert exported["game"] == game and exported["complete"]
    assert [c["command"] for c in exported["commands"]] == played


def test_the_games_list_and_the_history_answer_while_the_writer_is_busy(
    held: tuple[Session, HeldClock],
) -> None:
    session, clock = held
    game = session.host("new_game", setup=DEALT).game
    listed = _while_the_writer_is_held(session, clock, lambda s: s.games())
    assert [g["game"] for g in listed] == [game]
    statuses = _while_the_writer_is_held(
        session, clock, lambda s: [g.status for g in s.reading(lambda j: j.games())]
    )
    assert statuses == ["playing"]


def test_a_read_sees_every_command_whose_reply_came(session: Session) -> None:
    """The reader's picture is the file as last committed: a command acknowledged is in it."""
    game = session.host("new_game", setup=DEALT).game
    for count in range(1, 5):
        play(session, 1, seed=count)
        assert len(session.reading(lambda journal: journal.commands(game))) == count


def test_reads_answer_nothing_once_closed(session: Session) -> None:
    game = session.host("new_game", setup=DEALT).game
    assert session.export(game) is not None
    session.close()
    assert session.export(game) is None and session.games() == []
