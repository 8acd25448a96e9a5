"""Issue 32, point 4: a lesson fired by the game is the table's public notice, taught once an
evening (remembered beside the journal across a restart), and the host turns teaching off or has
a lesson taught again. A real Session on a real SQLite journal."""

from __future__ import annotations

from pathlib import Path

from session_helpers import DEALT, drain, play

from companion.session import FakeClock, Session
from companion.teaching import Teacher


def _lessons(updates) -> list[list[str]]:
    """The lesson notice of each update that carries one."""
    return [
        notice["params"]["lessons"]
        for update in updates
        for notice in update["session"]["notices"]
        if notice["code"] == "lesson"
    ]


def _opened(journal: Path) -> Session:
    session = Session(journal, FakeClock())
    session.open()
    return session


def test_a_fired_lesson_is_the_public_notice_of_the_change_that_fired_it(
    session: Session,
) -> None:
    table = session.listen("public")
    assert session.host("teaching", on=True).ok
    assert session.host("new_game", setup=DEALT).ok
    play(session, 40)
    teacher, taught = Teacher(), 0
    for update in drain(table):
        found = teacher.hear(update["events"])
        if found:
            taught += 1
            assert _lessons([update]) == [found]
    assert taught > 1, "hardly a lesson taught in 40 moves"


def test_the_first_programming_is_taught_once_an_evening_even_across_a_restart(
    journal: Path,
) -> None:
    first = _opened(journal)
    try:
        table = first.listen("public")
        assert first.host("teaching", on=True).ok
        assert first.host("new_game", setup=DEALT).ok
        play(first, 40)
        assert any("programming" in found for found in _lessons(drain(table)))
    finally:
        first.close()
    again = _opened(journal)
    try:
        table = again.listen("public")
        assert again.host("new_game", setup={**DEALT, "seed": 4}).ok
        play(again, 40, seed=1)
        assert not any("programming" in found for found in _lessons(drain(table)))
    finally:
        again.close()


def test_teaching_is_off_until_the_host_turns_it_on(session: Session) -> None:
    table = session.listen("public")
    assert session.host("new_game", setup=DEALT).ok
    play(session, 40)
    assert _lessons(drain(table)) == []


def test_the_host_turns_teaching_off_and_it_stays_off_after_a_restart(journal: Path) -> None:
    first = _opened(journal)
    try:
        assert first.host("teaching", on=True).ok
        assert first.host("teaching", on=False).ok
    finally:
        first.close()
    again = _opened(journal)
    try:
        table = again.listen("public")
        assert again.host("new_game", setup=DEALT).ok
        play(again, 40)
        assert _lessons(drain(table)) == []
        assert again.host("teaching", on=True).ok
        play(again, 40, seed=2)
        assert _lessons(drain(table)) != []
    finally:
        again.close()


def test_the_host_replays_a_lesson_and_an_unknown_one_is_refused(session: Session) -> None:
    table = session.listen("public")
    assert session.host("new_game", setup=DEALT).ok
    assert session.host("replay_lesson", lesson="action_push").ok
    assert _lessons(drain(table))[-1] == ["action_push"]
    refused = session.host("replay_lesson", lesson="juggling")
    assert not refused.ok and refused.code == "unknown_lesson"


def test_a_replayed_lesson_is_a_new_showing_even_while_it_is_shown(session: Session) -> None:
    """A page that closed a lesson's card, and the voice that said it, know a replay from the
    showing before it: the same lessons, the next showing, and the rule its card opens."""
    table = session.listen("public")
    assert session.host("new_game", setup=DEALT).ok
    shown = []
    for _ in range(2):
        assert session.host("replay_lesson", lesson="action_push").ok
        notices = drain(table)[-1]["session"]["notices"]
        shown += [n["params"] for n in notices if n["code"] == "lesson"]
    assert [p["lessons"] for p in shown] == [["action_push"], ["action_push"]]
    assert [p["rules"] for p in shown] == [["action:push"], ["action:push"]]
    assert shown[0]["shown"] != shown[1]["shown"]


def test_every_screen_knows_whether_the_table_is_taught_and_what_it_was(session: Session) -> None:
    table = session.listen("public")
    assert session.host("new_game", setup=DEALT).ok
    assert session.host("teaching", on=True).ok
    assert drain(table)[-1]["session"]["teaching"] == {"on": True, "taught": []}
    play(session, 40)
    taught = drain(table)[-1]["session"]["teaching"]
    assert taught["on"] and "programming" in taught["taught"]
    assert session.host("teaching", on=False).ok
    assert drain(table)[-1]["session"]["teaching"]["on"] is False
