"""The journal: every accepted command written before anyone hears of it, the unfinished game
resumed exactly (same state, same next shuffle), and unusable journals moved aside, never
overwritten."""

from __future__ import annotations

import random
import sqlite3
import subprocess
from pathlib import Path

import pytest
from session_helpers import COUNTDOWN, DEALT, MAC, legal_move, play, state_of

from companion import engine
from companion.session import FakeClock, Journal, JournalError, Session
from companion.session.journal import SCHEMA_VERSION


def test_the_journal_is_sqlite_in_wal_with_full_sync(session: Session, journal: Path) -> None:
    session.host("new_game", setup=DEALT)
    db = sqlite3.connect(journal)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert session._journal.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_an_accepted_command_is_in_the_journal_before_the_reply(
    session: Session, journal: Path
) -> None:
    game = session.host("new_game", setup=DEALT).game
    played = play(session, 12, seed=4)
    # Another connection (another process would see the same) finds every command, in order.
    db = sqlite3.connect(journal)
    rows = db.execute(
        "SELECT command, source, undone FROM commands WHERE game=? ORDER BY seq", (game,)
    ).fetchall()
    assert [__import__("json").loads(r[0]) for r in rows] == played
    assert {r[1] for r in rows} == {"test"} and not any(r[2] for r in rows)


def test_a_refused_command_is_not_journaled(session: Session, journal: Path) -> None:
    session.host("new_game", setup=DEALT)
    reply = session.submit({"type": "clue", "seat": "1", "cell": "A1"})
    assert not reply.ok and reply.code == "clue_next_to_centre" and reply.text
    assert sqlite3.connect(journal).execute("SELECT count(*) FROM commands").fetchone()[0] == 0


def test_the_seed_is_kept_out_of_the_setup_column(session: Session, journal: Path) -> None:
    game = session.host("new_game", setup={**DEALT, "seed": 99}).game
    setup, seed = (
        sqlite3.connect(journal)
        .execute("SELECT setup, seed FROM games WHERE id=?", (game,))
        .fetchone()
    )
    assert "seed" not in setup and seed == 99


@pytest.mark.parametrize("setup", [DEALT, MAC], ids=["dealt", "mac"])
def test_resume_rebuilds_the_same_game_and_the_same_next_shuffle(
    journal: Path, setup: dict
) -> None:
    first = Session(journal, FakeClock())
    first.open()
    first.host("new_game", setup={**setup, "seed": 3})
    play(first, 12, seed=11)
    before = state_of(first)
    assert engine.waiting_for(before).phase != "over"
    first.close()

    second = Session(journal, FakeClock())
    second.open()
    try:
        after = state_of(second)
        assert engine.full_view(after) == engine.full_view(before)
        assert after.version == before.version
        # The same commands from here give the same events, shuffles and draws included.
        rng_a, rng_b = random.Random(5), random.Random(5)
        a, b = before, after
        kinds: set[str] = set()
        for _ in range(200):
            command = legal_move(a, rng_a)
            if command is None:
                break
            assert legal_move(b, rng_b) == command
            step_a, step_b = engine.apply(a, command), engine.apply(b, command)
            assert step_a.events == step_b.events
            kinds.update(e["type"] for e in step_a.events)
            a, b = step_a.state, step_b.state
        if setup is MAC:
            assert "mac_drawn" in kinds  # the shuffled pile was drawn from after the restart
    finally:
        second.close()


def test_resume_leaves_undone_commands_out(journal: Path) -> None:
    first = Session(journal, FakeClock())
    first.open()
    first.host("new_game", setup=COUNTDOWN)
    play(first, 25, seed=2)
    assert first.host("undo", count=2).ok
    kept = engine.full_view(state_of(first))
    first.close()
    with Session(journal, FakeClock()) as second:
        assert engine.full_view(state_of(second)) == kept


def test_a_finished_game_is_not_resumed_but_stays_in_the_history(journal: Path) -> None:
    with Session(journal, FakeClock()) as first:
        game = first.host("new_game", setup=DEALT).game
        play(first, 5)
        assert first.host("end_game").ok
    with Session(journal, FakeClock()) as second:
        assert second.snapshot("public")["game"] is None
        assert [(g["game"], g["status"]) for g in second.games()] == [(game, "ended")]


def test_a_newer_journal_is_moved_aside_not_overwritten(journal: Path) -> None:
    db = sqlite3.connect(journal)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.execute("CREATE TABLE future (x)")
    db.commit()
    db.close()
    original = journal.read_bytes()
    with Session(journal, FakeClock()) as session:
        aside = session.moved_aside
        assert aside is not None and aside.read_bytes() == original
        assert "unreadable" in aside.name
        assert session.host("new_game", setup=DEALT).ok


def test_a_corrupt_journal_is_moved_aside_with_its_name(journal: Path) -> None:
    journal.write_bytes(b"this is not a database at all" * 100)
    with Session(journal, FakeClock()) as session:
        assert session.moved_aside is not None
        assert session.moved_aside.read_bytes().startswith(b"this is not a database")
    assert Journal(journal).path.exists()


def test_an_unreadable_journal_says_why(journal: Path) -> None:
    journal.write_bytes(b"garbage" * 10)
    with pytest.raises(JournalError, match="cannot be read"):
        Journal(journal).open()


def test_a_full_disk_refuses_the_command_plainly_and_loses_nothing(
    session: Session, journal: Path
) -> None:
    session.host("new_game", setup=DEALT)
    played = play(session, 10, seed=3)
    listener = session.listen("public")
    db = session._journal.db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count={pages}")  # the file may not grow: a full disk
    before = engine.full_view(state_of(session))
    refused = None
    for _ in range(200):
        command = legal_move(state_of(session), random.Random(len(played)))
        reply = session.submit(command)
        if not reply.ok:
            refused = reply
            break
        played.append(command)
        before = engine.full_view(state_of(session))
    assert refused is not None and refused.code == "journal_unwritable"
    assert "could not save" in refused.text and "full" in refused.text
    assert engine.full_view(state_of(session)) == before
    notices = []
    while (update := listener.get(timeout=0)) is not None:
        notices = update["session"]["notices"]
    [unwritable] = notices
    assert unwritable["code"] == "journal_unwritable" and "full" in unwritable["params"]["problem"]
    assert unwritable["text"].startswith("Journal unwritable: ")
    # The refused COMMIT was read back on a new connection, which has room again.
    session._journal.db.execute("PRAGMA max_page_count=1073741823")
    assert session.submit(command).ok
    played.append(command)
    assert session.snapshot("public")["session"]["notices"] == []
    session.close()
    with Session(journal, FakeClock()) as again:
        assert [c.command for c in again._journal.commands(again._game.record.id)] == played


def test_a_journal_that_cannot_be_written_is_left_in_place(journal: Path) -> None:
    """A read-only disk is not a damaged journal: the file stays where it is."""
    with Session(journal, FakeClock()) as session:
        session.host("new_game", setup=DEALT)
    folder = str(journal.parent)
    if subprocess.run(["mount", "--bind", folder, folder], capture_output=True).returncode:
        pytest.skip("a read-only bind mount needs root")
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", folder], check=True)
        with pytest.raises(JournalError, match="cannot open") as raised:
            Session(journal, FakeClock()).open()
        assert not raised.value.unreadable
    finally:
        subprocess.run(["umount", folder], check=True)
    assert not list(journal.parent.glob("*.unreadable-*"))
    with Session(journal, FakeClock()) as session:
        assert session.snapshot("public")["game"] is not None


def test_a_game_this_engine_cannot_replay_is_set_aside_not_lost(journal: Path) -> None:
    with Session(journal, FakeClock()) as first:
        game = first.host("new_game", setup=COUNTDOWN).game
        play(first, 3)
    db = sqlite3.connect(journal)
    db.execute(
        "UPDATE events SET event=? WHERE game=? AND seq=1", (b'{"type":"from_the_future"}', game)
    )
    db.commit()
    db.close()
    with Session(journal, FakeClock()) as second:
        snapshot = second.snapshot("public")
        assert snapshot["game"] is None
        assert snapshot["session"]["notices"] == [
            {
                "code": "game_not_resumed",
                "params": {"game": game},
                "text": f"Game {game} could not be resumed",
            }
        ]
        [listed] = second.games()
        assert listed["status"] == "abandoned" and listed["commands"] == 3


def test_a_command_read_back_as_no_json_object_is_named_and_its_game_set_aside(
    journal: Path,
) -> None:
    with Session(journal, FakeClock()) as first:
        game = first.host("new_game", setup=COUNTDOWN).game
        play(first, 3)
    db = sqlite3.connect(journal)
    db.execute("UPDATE commands SET command='[1]' WHERE game=? AND seq=2", (game,))
    db.commit()
    db.close()
    reading = Journal(journal)
    reading.open()
    with pytest.raises(JournalError, match="list where a command belongs"):
        reading.commands(game)
    reading.close()
    with Session(journal, FakeClock()) as second:
        assert second.snapshot("public")["game"] is None
        [listed] = second.games()
        assert listed["status"] == "abandoned"


def test_a_game_whose_setup_is_no_json_object_is_not_resumed_and_the_table_starts(
    journal: Path,
) -> None:
    with Session(journal, FakeClock()) as first:
        game = first.host("new_game", setup=COUNTDOWN).game
        play(first, 2)
    db = sqlite3.connect(journal)
    db.execute("UPDATE games SET setup='\"five\"' WHERE id=?", (game,))
    db.commit()
    db.close()
    with Session(journal, FakeClock()) as second:
        assert second.snapshot("public")["game"] is None
        assert second.host("new_game", setup=DEALT).ok


def test_an_outcome_read_back_as_no_json_object_is_listed_as_none(journal: Path) -> None:
    with Session(journal, FakeClock()) as first:
        game = first.host("new_game", setup=DEALT).game
        assert first.host("end_game").ok
    db = sqlite3.connect(journal)
    db.execute("UPDATE games SET outcome='[1]' WHERE id=?", (game,))
    db.commit()
    db.close()
    with Session(journal, FakeClock()) as second:
        [listed] = second.games()
        assert listed["game"] == game and listed["outcome"] is None
