"""Issue 28, points 3 and 4, on the session: a new game says nothing of the last game's phones; a
game set aside by a new one and resumed is said so on every screen (the public update the
pages, the OLED and the voice read) for a while; a setup key the engine does not know is refused
by name, in English and French, and starts nothing."""

from __future__ import annotations

from waiting import eventually

from companion.session import FakeClock, Notice, Session
from companion.session.seats import SAID_FOR

FIVE = {"edition": "base", "mode": "suspicion", "players": 5, "seed": 3}
FOUR = {"edition": "base", "mode": "suspicion", "players": 4, "seed": 4}


def _notices(session: Session) -> list[dict]:
    return session.snapshot("public")["session"]["notices"]


def test_a_new_game_says_nothing_of_the_last_games_phones(session: Session) -> None:
    assert session.host("new_game", setup=FIVE).ok
    for seat in "12345":
        session.set_notice(f"seat:{seat}", Notice("phone_offline", {"seat": seat}))
    assert len(_notices(session)) == 5
    assert session.host("new_game", setup=FOUR).ok
    assert _notices(session) == []
    session.set_notice("seat:2", Notice("phone_offline", {"seat": "2"}))  # this game's phone
    assert [n["params"] for n in _notices(session)] == [{"seat": "2"}]


def test_resuming_a_set_aside_game_is_said_on_every_screen(
    session: Session, clock: FakeClock
) -> None:
    first = session.host("new_game", setup=FIVE).game
    assert session.host("new_game", setup=FOUR).ok
    assert _notices(session) == []
    assert session.resume_game(first).ok
    [said] = _notices(session)
    assert said["code"] == "game_resumed" and said["params"] == {"game": first}
    assert said["text"] == (
        f"The host resumed game {first}, set aside earlier: it goes on where it stopped"
    )
    clock.advance(SAID_FOR + 1)
    eventually(lambda: _notices(session) == [])


def test_an_unknown_setup_key_is_refused_by_name_and_starts_nothing(session: Session) -> None:
    reply = session.host("new_game", setup={**{k: v for k, v in FOUR.items() if k != "seed"},
                                            "Seed": 12345})  # fmt: skip
    assert not reply.ok and reply.code == "unknown_setup_key"
    assert reply.text == (
        "Unknown setup key 'Seed': no game was started "
        "(the keys are lower case, such as 'seed' or 'players')."
    )
    assert reply.text_in("fr") == (
        "Clé de mise en place inconnue « Seed »\u00a0: aucune partie n'a été lancée "
        "(les clés sont en minuscules, comme « seed » ou « players »)."
    )
    assert session.snapshot("public")["game"] is None and session.games() == []
