"""The running table: one writer, each listener with only its own view, lock-ins by the seat
buttons, undo back to the documented limit, and the programming clock on a fake clock."""

from __future__ import annotations

import threading
import time

from session_helpers import COUNTDOWN, DEALT, drain, play, state_of

from companion import engine
from companion.session import FakeClock, Notice, Session, seat_press


def programming(session: Session) -> str:
    """Start a dealt game and take every starting clue: the game is then programming."""
    game = session.host("new_game", setup={**DEALT, "seed": 3}).game
    for seat in "12345":
        clue = engine.legal_commands(state_of(session), seat)[0]
        assert session.submit(clue).ok
    assert session.snapshot("public")["waiting"]["phase"] == "programming"
    return game


# -- the writer and the listeners ------------------------------------------------------------


def test_bad_input_gets_a_plain_answer_and_changes_nothing(session: Session) -> None:
    assert session.submit({"type": "clue", "seat": "1"}).code == "no_game"
    session.host("new_game", setup=DEALT)
    version = session.snapshot("public")["version"]
    for bad in ("clue", None, [], {"type": "fly", "seat": "1"}, {"seat": "9", "type": "clue"}):
        reply = session.submit(bad)  # type: ignore[arg-type]
        assert not reply.ok and reply.code and reply.text and reply.text_in("fr")
    assert session.snapshot("public")["version"] == version
    assert session.host("dance").code == "unknown_action"
    assert session.control("jump", False).code == "unknown_button"


def test_a_stale_command_is_refused(session: Session) -> None:
    session.host("new_game", setup={**DEALT, "seed": 3})
    version = session.snapshot("public")["version"]
    first = engine.legal_commands(state_of(session), "1")[0]
    second = engine.legal_commands(state_of(session), "2")[0]
    assert session.submit({**first, "version": version}).ok
    late = session.submit({**second, "version": version})
    assert not late.ok and late.code == "stale_version"


def test_two_phones_at_once_never_both_act_on_the_same_moment(session: Session) -> None:
    programming(session)
    version = session.snapshot("public")["version"]
    replies = []
    go = threading.Barrier(2)

    def tap(seat: str) -> None:
        go.wait()
        replies.append(session.submit({"type": "lock", "seat": seat, "version": version}))

    threads = [threading.Thread(target=tap, args=(seat,)) for seat in "12"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Locking without programming is refused anyway; program first, then race the lock-ins.
    assert all(not r.ok for r in replies)
    for seat in "12":
        command = engine.legal_commands(state_of(session), seat)[0]
        assert session.submit({**command, "lock_in": False}).ok
    version = session.snapshot("public")["version"]
    replies.clear()
    threads = [threading.Thread(target=tap, args=(seat,)) for seat in "12"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.ok for r in replies) == [False, True]
    assert next(r for r in replies if not r.ok).code == "stale_version"


def test_each_audience_gets_its_own_view(session: Session) -> None:
    programming(session)
    table, host, mine, other = (session.listen(a) for a in ("public", "host", "1", "2"))
    command = engine.legal_commands(state_of(session), "1")[0]
    assert session.submit({**command, "lock_in": True}).ok
    [seen] = drain(mine)
    assert seen["view"]["seat"] == "1"
    assert any(e["type"] == "programmed" for e in seen["events"])
    for listener in (table, host, other):
        [update] = drain(listener)
        assert "notebook" not in update["view"] or update["view"]["seat"] == "2"
        assert not any(e["type"] == "programmed" for e in update["events"])
        assert update["session"]["lock_ins"] == ["1"]
        assert update["waiting"]["locked_in"] == ["1"]


def test_programming_without_locking_in_reaches_no_other_listener(session: Session) -> None:
    """What a seat programmed, and even that it programmed, stays with that seat."""
    programming(session)
    table, host, mine, other = (session.listen(a) for a in ("public", "host", "1", "2"))
    command = engine.legal_commands(state_of(session), "1")[0]
    assert session.submit({**command, "lock_in": False}).ok
    assert len(drain(mine)) == 1
    assert drain(table) == drain(host) == drain(other) == []


def test_a_slow_listener_is_resynced_and_never_blocks_the_others(journal) -> None:
    with Session(journal, FakeClock(), queue_size=4) as session:
        session.host("new_game", setup=COUNTDOWN)
        slow = session.listen("public")
        quick = session.listen("host")
        got = []
        started = time.monotonic()
        for _ in range(12):
            played = play(session, 1, seed=len(got))
            got.extend(drain(quick))
            assert played
        assert time.monotonic() - started < 10
        assert len(got) == 12  # the quick one saw every change
        assert slow.pending() == 0 and slow.dropped > 0
        update = slow.get(timeout=0)
        assert update["resync"] is True
        assert update["version"] == session.snapshot("public")["version"]
        assert slow.get(timeout=0) is None  # one fresh snapshot, not a backlog
        slow.close()


def test_a_closed_listener_is_forgotten(session: Session) -> None:
    listener = session.listen("public")
    listener.close()
    session.host("new_game", setup=DEALT)
    assert listener.get(timeout=0) is None and listener not in session._listeners


def test_a_seat_notice_reaches_everyone_once_and_goes_with_the_seat_reset(
    session: Session,
) -> None:
    """A notice is told to every audience once (the same update for listeners of one audience);
    setting it again changes nothing and tells nobody; the host resetting the seat clears it."""
    session.host("new_game", setup=DEALT)
    table, also_table, host = (session.listen(a) for a in ("public", "public", "host"))
    offline = Notice("phone_offline", {"seat": "3"})
    session.set_notice("seat:3", offline)
    session.set_notice("seat:3", offline)
    [told] = drain(table)
    assert drain(also_table) == [told] and len(drain(host)) == 1
    assert told["session"]["notices"] == [offline.as_dict()]
    assert session.host("reset_seat", seat="3").ok
    [cleared] = drain(table)
    assert cleared["session"]["notices"] == []


# -- lock-ins --------------------------------------------------------------------------------


def test_seat_press_turns_into_lock_or_unlock() -> None:
    waiting = {"phase": "programming", "seats": ["2"], "locked_in": ["1"]}
    assert seat_press(waiting, "1") == {"type": "unlock", "seat": "1"}
    assert seat_press(waiting, "2") == {"type": "lock", "seat": "2"}
    assert seat_press({"phase": "action", "locked_in": []}, "1")["type"] == "lock"


def test_token_programming_the_button_alone_locks_in_and_a_second_press_unlocks(
    session: Session,
) -> None:
    session.host("new_game", setup=COUNTDOWN)
    table = session.listen("public")
    assert session.press_seat("1").ok
    assert drain(table)[-1]["session"]["lock_ins"] == ["1"]
    assert session.press_seat("1").ok
    assert drain(table)[-1]["session"]["lock_ins"] == []
    for seat in "123":
        assert session.press_seat(seat).ok
    assert session.snapshot("public")["waiting"]["phase"] == "programming"
    assert session.press_seat("4").ok  # the last seat: the action phase starts for everyone
    last = drain(table)[-1]
    assert last["waiting"]["phase"] == "action"
    assert session.press_seat("1").code == "not_programming_phase"  # too late to unlock


def test_app_programming_a_seat_locks_in_only_once_programmed(session: Session) -> None:
    programming(session)
    refused = session.press_seat("1")
    assert not refused.ok and refused.code == "program_before_locking_in"
    command = engine.legal_commands(state_of(session), "1")[0]
    assert session.submit({**command, "lock_in": False}).ok
    assert session.press_seat("1").ok
    assert "1" in session.snapshot("public")["session"]["lock_ins"]
    assert session.press_seat("1").ok
    assert "1" not in session.snapshot("public")["session"]["lock_ins"]


# -- undo ------------------------------------------------------------------------------------


def test_undo_takes_back_the_last_commands_and_tells_everyone(session: Session) -> None:
    session.host("new_game", setup=COUNTDOWN)
    play(session, 6, seed=1)
    before = engine.full_view(state_of(session))
    play(session, 3, seed=2)
    table = session.listen("public")
    reply = session.host("undo", count=3)
    assert reply.ok and reply.version == before["version"]
    assert engine.full_view(state_of(session)) == before
    [update] = drain(table)
    assert update["session"]["undone"] is True and update["version"] == before["version"]
    flags = [c.undone for c in session._journal.commands(session._game.record.id)]
    assert flags == [False] * 6 + [True] * 3  # undone commands stay in the journal


def test_undo_stops_at_the_start_of_the_game(session: Session) -> None:
    session.host("new_game", setup=COUNTDOWN)
    assert session.host("undo").code == "nothing_to_undo"
    play(session, 2)
    assert session.host("undo", count=3).code == "nothing_to_undo"
    assert session.host("undo", count=0).code == "bad_count"
    assert session.host("undo", count=2).ok


def test_undo_never_goes_past_a_hidden_room_the_companion_showed(session: Session) -> None:
    programming(session)  # five clues: each seat saw a hidden room of the dealt complex
    before = session.snapshot("public")["version"]
    refused = session.host("undo")
    assert refused.code == "undo_limit" and refused.params == {"count": 0, "what": "room"}
    assert "hidden room" in refused.text and "salle cachée" in refused.text_in("fr")
    assert session.snapshot("public")["version"] == before


def test_the_back_button_held_undoes_the_last_command(session: Session) -> None:
    session.host("new_game", setup=COUNTDOWN)
    assert session.press_seat("2").ok
    assert session.control("back", long=False).code == "hold_back_to_undo"
    assert session.control("back", long=True).ok
    assert session.snapshot("public")["session"]["lock_ins"] == []


def test_next_button_ends_the_current_action_in_countdown_games(session: Session) -> None:
    session.host("new_game", setup=COUNTDOWN)
    for seat in "1234":
        session.press_seat(seat)
    first = session.snapshot("public")["waiting"]["character"]
    assert session.control("next", long=False).ok
    assert session.snapshot("public")["waiting"]["character"] != first or (
        session.snapshot("public")["waiting"]["round"] == 2
    )


# -- the programming clock -------------------------------------------------------------------


def timed(session: Session, limit: int = 60, warning: int = 15) -> None:
    setup = {**COUNTDOWN, "time_limit": limit, "warning": warning}
    assert session.host("new_game", setup=setup).ok


def test_the_clock_warns_then_asks_the_host_and_changes_nothing(
    session: Session, clock: FakeClock
) -> None:
    timed(session)
    table = session.listen("public")
    assert session.snapshot("public")["session"]["timer"] == {"left": 60.0, "limit": 60.0}
    session.press_seat("1")
    drain(table)
    clock.advance(44)
    assert table.get(timeout=0.2) is None  # no update before the warning
    clock.advance(1)
    warning = table.get(timeout=5)
    assert warning["session"]["notices"] == [
        {"code": "seconds_left", "params": {"left": 15}, "text": "15 seconds left to program"}
    ]
    assert warning["events"] == [{"type": "time_warning", "left": 15}]
    version = warning["version"]
    clock.advance(15)
    expired = table.get(timeout=5)
    [notice] = expired["session"]["notices"]
    assert notice["code"] == "time_up" and notice["params"] == {"seats": ["2", "3", "4"]}
    assert notice["text"] == "Time is up: the host decides (still programming: 2, 3, 4)"
    assert expired["events"] == [{"type": "time_up", "seats": ["2", "3", "4"]}]
    assert expired["version"] == version  # nobody's programme was chosen for them
    assert expired["waiting"]["phase"] == "programming"
    assert expired["waiting"]["locked_in"] == ["1"]


def test_the_host_pauses_and_resumes_the_clock(session: Session, clock: FakeClock) -> None:
    timed(session, limit=30, warning=0)
    clock.advance(10)
    assert session.host("pause").ok and session.host("pause").code == "already_paused"
    table = session.listen("public")
    clock.advance(500)
    assert table.get(timeout=0.2) is None
    assert session.snapshot("public")["session"] == {
        **session.snapshot("public")["session"],
        "paused": True,
        "timer": {"left": 20.0, "limit": 30.0},
    }
    assert session.control("menu", long=False).ok  # Menu resumes
    assert drain(table)[-1]["session"]["paused"] is False
    clock.advance(19)
    assert table.get(timeout=0.2) is None
    clock.advance(1)
    assert table.get(timeout=5)["session"]["notices"][0]["code"] == "time_up"


def test_without_a_limit_there_is_no_clock(session: Session) -> None:
    session.host("new_game", setup=COUNTDOWN)
    assert session.snapshot("public")["session"]["timer"] is None
    assert session.host("pause").code == "no_time_limit"
    assert session.host("new_game", setup={**COUNTDOWN, "time_limit": -5}).code == (
        "bad_time_limit"
    )


def test_the_clock_starts_again_with_each_programming_phase(
    session: Session, clock: FakeClock
) -> None:
    timed(session, limit=60, warning=0)
    clock.advance(50)
    for seat in "1234":
        session.press_seat(seat)
    assert session.snapshot("public")["session"]["timer"]["left"] is None
    while session.snapshot("public")["waiting"]["phase"] == "action":
        assert session.control("next", long=False).ok
    assert session.snapshot("public")["session"]["timer"]["left"] == 60.0


def test_the_host_is_told_plainly_about_wrong_arguments(session: Session) -> None:
    assert session.host("undo", steps=2).code == "unknown_action"
    assert session.host("new_game").code == "unknown_action"


# -- the three tracking levels ---------------------------------------------------------------


def test_each_tracking_level_takes_exactly_its_own_inputs(session: Session) -> None:
    session.host("new_game", setup=COUNTDOWN)
    for seat in "1234":
        assert session.press_seat(seat).ok
    character = session.snapshot("public")["waiting"]["character"]
    act = {"type": "act", "seat": "host", "action": "move", "direction": "north"}
    assert not session.submit(act).ok
    report = {"type": "report", "seat": "host", "event": "eliminated", "character": character}
    assert session.submit(report).ok  # the table reports what happened on the board
    session.host("new_game", setup={**DEALT, "seed": 3})
    refused = session.submit({**report, "character": "emmett"})
    assert refused.code == "events_follow_tracked"
    physical = session.host("new_game", setup={**DEALT, "tracking": "physical", "seed": 3})
    assert physical.ok
    assert session.snapshot("public")["waiting"]["phase"] == "clue"


def test_a_closed_session_answers_plainly(journal) -> None:
    session = Session(journal, FakeClock())
    session.open()
    session.host("new_game", setup=COUNTDOWN)
    session.close()
    assert session.submit({"type": "lock", "seat": "1"}).code == "session_closed"
    assert session.games() == [] and session.export("anything") is None


def test_a_listener_waiting_without_a_timeout_returns_when_nudged(session) -> None:
    """The voice waits for updates with no timeout (nothing polls at idle): a nudge makes that
    wait return None at once, and the next update is still delivered."""
    listener = session.listen("public")
    got: list = []
    reader = threading.Thread(target=lambda: got.append(listener.get()), daemon=True)
    reader.start()
    listener.nudge()
    reader.join(timeout=5)
    assert not reader.is_alive() and got == [None]
    assert session.host("new_game", setup=dict(COUNTDOWN)).ok
    assert listener.get(timeout=5)["game"] is not None
    listener.close()
