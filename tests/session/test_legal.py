"""Each seat's update carries its own legal commands (what its phone offers), and only a seat's:
the table, the host and the other seats never read them."""

from __future__ import annotations

from session_helpers import DEALT, MAC, play, state_of

from companion import engine
from companion.session import Session


def test_a_seat_reads_its_legal_commands_and_nobody_else_does(session: Session) -> None:
    session.host("new_game", setup={**DEALT, "seed": 5})
    assert "legal" not in session.snapshot("public")
    assert session.snapshot("host")["legal"] == []  # the table has nothing to do at the clue
    mine = session.snapshot("2")["legal"]
    assert mine == engine.legal_commands(state_of(session), "2")
    assert mine and {c["type"] for c in mine} == {"clue"}
    assert all(c["seat"] == "2" for c in mine)


def test_every_seat_offer_is_accepted_once_taken(session: Session) -> None:
    session.host("new_game", setup={**DEALT, "seed": 8})
    play(session, 30, seed=8)
    waiting = session.snapshot("public")["waiting"]
    assert waiting["phase"] != "over"
    taken = 0
    for seat in waiting["seats"]:
        snapshot = session.snapshot(seat)
        for command in snapshot["legal"]:
            assert command["seat"] == seat
        if snapshot["legal"]:
            reply = session.submit({**snapshot["legal"][-1], "version": snapshot["version"]})
            assert reply.ok, (snapshot["legal"][-1], reply.code, reply.text)
            taken += 1
            break
    assert taken == 1
    assert session.snapshot("1")["version"] > snapshot["version"]


def test_the_offer_follows_each_change_and_ends_with_the_game(session: Session) -> None:
    session.host("new_game", setup={**DEALT, "seed": 5})
    first = session.snapshot("1")["legal"][0]
    assert session.submit(first).ok
    assert session.snapshot("1")["legal"] == []  # its clue is taken: nothing more to offer
    assert session.snapshot("2")["legal"]
    assert session.host("end_game").ok
    assert session.snapshot("2")["legal"] == []


def test_the_host_reads_the_tables_own_choice_the_m_a_c_card_drawn(session: Session) -> None:
    """002_e232164e7c8dd598.txt, MODES : COOPERATION ET SOLO: before each programming phase the
    table draws M.A.C. cards; with the physical deck the table says which card came off the pile,
    and the host page offers exactly the cards that can still be in it."""
    session.host("new_game", setup={**MAC, "settings": {"mac_deck": "physical"}})
    for seat in "1234":
        assert session.submit(session.snapshot(seat)["legal"][0]).ok
    host = session.snapshot("host")
    assert host["view"]["pending"]["kind"] == "mac_card"
    cards = host["legal"]
    assert cards == engine.legal_commands(state_of(session), "host")
    assert len(cards) > 10 and all(c["type"] == "choose" and c["seat"] == "host" for c in cards)
    said_by_a_seat = session.snapshot("2")["legal"]  # any seat may say it too (rules.md)
    assert [c["card"] for c in said_by_a_seat] == [c["card"] for c in cards]
    assert session.submit({**cards[0], "version": host["version"]}).ok
    assert session.snapshot("host")["view"]["mac"]["discard"]
