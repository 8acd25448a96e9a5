"""A phone's request for a seat, on the session's clock: shown with its code on every screen,
replaced by a newer one, gone after 120 s; the seat news after a give stays a while too; and a
restart keeps the seat with the phone it was given to."""

from __future__ import annotations

import time

from companion.session import FakeClock, Session
from companion.session.seats import ASK_FOR, SAID_FOR, STEADY

SETUP = {"edition": "base", "mode": "suspicion", "players": 5, "seed": 3}
FIRST, SECOND = "11" * 32, "22" * 32


def _codes(session: Session) -> list[str]:
    return [n["code"] for n in session.snapshot("public")["session"]["notices"]]


def _soon(check) -> None:
    deadline = time.monotonic() + 5
    while not check():
        assert time.monotonic() < deadline, "the writer did not get to it"
        time.sleep(0.01)


def test_a_request_is_replaced_by_a_newer_and_expires(session: Session, clock: FakeClock):
    assert session.host("new_game", setup=SETUP).ok
    first = session.ask_seat("2", FIRST)
    second = session.ask_seat("2", SECOND)
    assert first != second and session.pending_seats() == {"2": second}
    assert session.asking(FIRST) is None
    assert session.asking(SECOND) == {"seat": "2", "ask": second}
    asked = [
        n for n in session.snapshot("public")["session"]["notices"] if n["code"] == "seat_asked"
    ]
    assert [n["params"] for n in asked] == [{"seat": "2", "ask": second}]
    clock.advance(ASK_FOR + 1)
    _soon(lambda: "seat_asked" not in _codes(session))
    assert session.pending_seats() == {}
    assert not session.hold_seat("2").ok


def test_a_given_seat_is_said_a_while_and_kept_across_a_restart(journal, clock: FakeClock):
    with Session(journal, clock) as session:
        assert session.host("new_game", setup=SETUP).ok
        session.ask_seat("4", FIRST)
        clock.advance(STEADY)
        assert session.hold_seat("4").ok
        assert "seat_taken_back" in _codes(session)
        clock.advance(SAID_FOR + 1)
        _soon(lambda: "seat_taken_back" not in _codes(session))
    with Session(journal, clock) as again:
        assert again.seat_claims() == {"4": FIRST}


def test_a_phone_given_a_seat_leaves_its_old_one(session: Session, clock: FakeClock):
    assert session.host("new_game", setup=SETUP).ok
    session.ask_seat("1", FIRST)
    clock.advance(STEADY)
    assert session.hold_seat("1").ok
    session.ask_seat("5", FIRST)
    clock.advance(STEADY)
    assert session.give_seat("5").ok
    assert session.seat_claims() == {"5": FIRST}


def test_a_request_slipped_in_during_a_hold_does_not_get_the_seat(
    session: Session, clock: FakeClock
):
    """The player checked code A on the OLED and holds; a stranger asks meanwhile (code B)."""
    assert session.host("new_game", setup=SETUP).ok
    session.ask_seat("2", FIRST)
    clock.advance(STEADY + 0.5)
    slipped = session.ask_seat("2", SECOND)
    clock.advance(STEADY - 0.5)  # the hold ends
    refused = session.hold_seat("2")
    assert refused.code == "seat_request_changed" and refused.params["ask"] == slipped
    assert not session.give_seat("2").ok  # nor may the host give it before it was seen
    assert session.seat_claims() == {}
    clock.advance(0.5)
    assert session.hold_seat("2").ok  # held again, once the new code was shown 3 s
    assert session.seat_claims() == {"2": SECOND}


def test_a_long_menu_press_is_not_a_pause(session: Session):
    assert session.host("new_game", setup={**SETUP, "time_limit": 60}).ok
    assert session.control("menu", long=True).code == "menu_long_shows_pin"
    assert session.snapshot("public")["session"]["paused"] is False


def test_a_phone_never_sees_neither_its_request_nor_its_seat(session: Session, clock: FakeClock):
    """The asking phone polls for its seat, then for its request: the seat is given (the web's
    seat holders told) while the request still stands, then the request goes. A request
    dropped first, under a slow journal write, showed the phone neither, and it went back to
    the seat list for good (the steadiness proof's "host gives" run)."""
    seen_while_given: list[dict | None] = []
    session.on_seat_given(lambda seat, digest: seen_while_given.append(session.asking(digest)))
    assert session.host("new_game", setup=SETUP).ok
    code = session.ask_seat("3", FIRST)
    clock.advance(STEADY)
    assert session.give_seat("3").ok
    assert seen_while_given == [{"seat": "3", "ask": code}]
    assert session.asking(FIRST) is None and session.pending_seats() == {}
