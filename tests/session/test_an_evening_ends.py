"""Issue 32, point 4: what the table was taught lasts an evening. An evening ends after six
quiet hours (no lesson, set-up step or command while the table is taught): the table that comes
back the next day, or the next table, is taught again; an evening that goes on past midnight is
not. The session's clock (FakeClock) says how long; a restart is a new Session on the same
journal file."""

from __future__ import annotations

from pathlib import Path

from session_helpers import DEALT, drain, play

from companion.session import FakeClock, Session
from companion.session.taught import QUIET

HOUR = 3600.0


def _taught_a_game(session: Session, seed: int) -> list[str]:
    """The lessons a new game's first moves fire on the table's screens (each showing once:
    a notice stays in the updates after the one that fired it)."""
    table = session.listen("public")
    assert session.host("new_game", setup={**DEALT, "seed": seed}).ok
    play(session, 30, seed=seed)
    shown = {
        notice["params"]["shown"]: notice["params"]["lessons"]
        for update in drain(table)
        for notice in update["session"]["notices"]
        if notice["code"] == "lesson"
    }
    return [found for _, lessons in sorted(shown.items()) for found in lessons]


def _evening(journal: Path, clock: FakeClock) -> list[str]:
    """A first evening: teaching on, one game's first moves; what it taught."""
    with Session(journal, clock) as session:
        assert session.host("teaching", on=True).ok
        taught = _taught_a_game(session, 3)
    assert "programming" in taught
    return taught


def test_the_next_day_the_table_is_taught_again_after_a_restart(journal: Path) -> None:
    clock = FakeClock()
    first = _evening(journal, clock)
    with Session(journal, FakeClock(clock.now() + 20 * HOUR)) as again:
        assert again.snapshot("public")["session"]["teaching"] == {"on": True, "taught": []}
        assert _taught_a_game(again, 3) == first


def test_a_restart_within_the_evening_teaches_nothing_again(journal: Path) -> None:
    clock = FakeClock()
    first = _evening(journal, clock)
    with Session(journal, FakeClock(clock.now() + QUIET - 60)) as again:
        assert again.snapshot("public")["session"]["teaching"]["taught"] == first
        assert "programming" not in _taught_a_game(again, 4)


def test_six_quiet_hours_end_the_evening_without_a_restart(journal: Path) -> None:
    clock = FakeClock()
    with Session(journal, clock) as session:
        assert session.host("teaching", on=True).ok
        assert "programming" in _taught_a_game(session, 3)
        clock.advance(QUIET)
        assert "programming" in _taught_a_game(session, 4)


def test_an_evening_that_plays_on_past_six_hours_is_one_evening(journal: Path) -> None:
    """The evening's last moment moves with each command: eight hours of play, a command every
    twenty minutes, then a restart, teach nothing twice."""
    clock = FakeClock()
    with Session(journal, clock) as session:
        assert session.host("teaching", on=True).ok
        first = _taught_a_game(session, 3)
        for moved in range(24):
            clock.advance(HOUR / 3)
            assert len(play(session, 1, seed=moved)) == 1
    with Session(journal, FakeClock(clock.now() + HOUR)) as again:
        taught = again.snapshot("public")["session"]["teaching"]["taught"]
        assert set(first) <= set(taught)
        assert "programming" not in _taught_a_game(again, 4)


def test_with_teaching_off_an_ended_evening_stays_off(journal: Path) -> None:
    """The host's switch is not the evening's: teaching off stays off the next day."""
    clock = FakeClock()
    with Session(journal, clock) as session:
        assert session.host("teaching", on=True).ok and session.host("teaching", on=False).ok
    with Session(journal, FakeClock(clock.now() + 20 * HOUR)) as again:
        assert again.snapshot("public")["session"]["teaching"]["on"] is False
        assert _taught_a_game(again, 3) == []
