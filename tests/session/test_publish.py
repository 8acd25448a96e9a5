"""One change, its views built once: the public part shared by every audience, one update and
one JSON encoding per audience however many listen to it, and nothing built for an audience
that hears nothing of the change (issue 29)."""

from __future__ import annotations

import json
import threading

from pytest_mock import MockerFixture
from session_helpers import DEALT, drain, state_of

from companion import engine
from companion.session import Session, listeners, publish

SEATS = "12345"


def programming(session: Session) -> None:
    session.host("new_game", setup=DEALT)
    for seat in SEATS:
        assert session.submit(engine.legal_commands(state_of(session), seat)[0]).ok


def test_a_change_builds_the_public_part_once_for_every_audience(
    session: Session, mocker: MockerFixture
) -> None:
    programming(session)
    listeners = [session.listen(a) for a in ("public", "host", *SEATS, "public", "1")]
    command = engine.legal_commands(state_of(session), "1")[0]
    seat = mocker.spy(engine.Views, "seat")
    shared = mocker.spy(publish.engine, "Views")
    assert session.submit({**command, "lock_in": True}).ok
    assert shared.call_count == 1
    assert sorted(call.args[1] for call in seat.call_args_list) == list(SEATS)
    updates = [drain(listener) for listener in listeners]
    assert all(len(found) == 1 for found in updates)
    table, host, *seats, table_again, one_again = (found[0] for found in updates)
    assert table is table_again and seats[0] is one_again  # one update per audience
    assert host["view"] == table["view"] == engine.public_view(state_of(session))
    for seat_id, update in zip(SEATS, seats, strict=True):
        assert update["view"] == engine.seat_view(state_of(session), seat_id)


def test_each_audience_is_encoded_once_however_many_streams_send_it(
    session: Session, mocker: MockerFixture
) -> None:
    programming(session)
    first, second = session.listen("public"), session.listen("public")
    command = engine.legal_commands(state_of(session), "2")[0]
    encode = mocker.spy(listeners, "sse")
    assert session.submit({**command, "lock_in": True}).ok
    mine, theirs = first.next(timeout=0), second.next(timeout=0)
    assert mine is not None and theirs is not None
    sent = [mine.message(), theirs.message(), mine.message()]
    assert encode.call_count == 1 and sent[0] == sent[1] == sent[2]
    assert json.loads(sent[0].split("data: ", 1)[1]) == json.loads(json.dumps(mine.fields))


def test_a_private_change_builds_nothing_for_those_who_hear_nothing(
    session: Session, mocker: MockerFixture
) -> None:
    programming(session)
    listeners = {a: session.listen(a) for a in ("public", "host", *SEATS)}
    command = engine.legal_commands(state_of(session), "2")[0]
    seat = mocker.spy(engine.Views, "seat")
    shared = mocker.spy(publish.engine, "Views")
    legal = mocker.spy(publish.engine, "legal_commands")
    assert session.submit({**command, "lock_in": False}).ok  # seat 2's programme, private
    assert shared.call_count == 1
    assert [call.args[1] for call in seat.call_args_list] == ["2"]
    assert [call.args[1] for call in legal.call_args_list] == ["2"]
    heard = {a: len(drain(listener)) for a, listener in listeners.items()}
    assert heard == {a: int(a == "2") for a in listeners}


def test_a_reader_of_many_listeners_is_handed_those_a_change_reached_on_the_writer(
    session: Session,
) -> None:
    """The web's streams are written on the writer's own turn (`after_telling`): the reader
    gets the listeners told, each update already in its queue, and only those; a private
    programme reaches its own seat's listener alone."""
    programming(session)
    table, two, three = session.listen("public"), session.listen("2"), session.listen("3")
    handed: list[tuple[str, list[str], list[int]]] = []

    def reader(told: list[listeners.Listener]) -> None:
        handed.append(
            (
                threading.current_thread().name,
                [listener.audience for listener in told],
                [listener.pending() for listener in told],
            )
        )

    session.after_telling(reader)
    command = engine.legal_commands(state_of(session), "2")[0]
    assert session.submit({**command, "lock_in": False}).ok  # seat 2's programme, private
    assert handed == [("room25-writer", ["2"], [1])]
    assert session.submit({"type": "lock", "seat": "2"}).ok
    assert handed[1] == ("room25-writer", ["public", "2", "3"], [1, 2, 1])
    assert [len(drain(listener)) for listener in (table, two, three)] == [1, 2, 1]


def test_a_reader_that_fails_stops_neither_the_writer_nor_the_other_readers(
    session: Session,
) -> None:
    programming(session)
    command = engine.legal_commands(state_of(session), "1")[0]
    assert session.submit({**command, "lock_in": False}).ok
    listener = session.listen("public")
    handed: list[int] = []

    def broken(told: list[listeners.Listener]) -> None:
        raise RuntimeError("a reader's bug")

    session.after_telling(broken)
    session.after_telling(lambda told: handed.append(len(told)))
    assert session.submit({"type": "lock", "seat": "1"}).ok
    assert session.submit({"type": "unlock", "seat": "1"}).ok
    assert handed == [1, 1] and len(drain(listener)) == 2
