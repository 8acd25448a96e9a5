"""The clock tells no secret. With a programming time limit, what the table, the host and the
other seats read must not move when a seat programs without locking in: twin games, the same
but for one seat's private programme, read the same at the same moments. The host's games list
and a running game's export tell nothing private either."""

from __future__ import annotations

import time
from pathlib import Path

from serving import Phone, Serve, host_of
from session_helpers import DEALT, drain, state_of

from companion import engine
from companion.session import FakeClock, Session

TIMED = {**DEALT, "time_limit": 600, "warning": 15}


def _programming(session: Session, setup: dict = TIMED) -> None:
    assert session.host("new_game", setup=setup).ok
    for seat in "12345":
        assert session.submit(engine.legal_commands(state_of(session), seat)[0]).ok
    assert session.snapshot("public")["waiting"]["phase"] == "programming"


def _private_programme(session: Session, seat: str = "2") -> None:
    command = engine.legal_commands(state_of(session), seat)[0]
    assert command["type"] == "program"
    assert session.submit({**command, "lock_in": False}).ok


def _seen(session: Session) -> dict:
    """Everything another seat, the table or the host may read at this moment."""
    return {audience: session.snapshot(audience) for audience in ("public", "host", "1", "3", "4")}


def test_twin_games_with_a_time_limit_read_the_same_whatever_one_seat_programmed(
    tmp_path: Path,
) -> None:
    clocks = FakeClock(), FakeClock()
    twins = [Session(tmp_path / f"twin{n}.sqlite", clock) for n, clock in enumerate(clocks)]
    for twin in twins:
        twin.open()
    try:
        for twin in twins:
            _programming(twin)
        listeners = [{a: twin.listen(a) for a in ("public", "host", "1", "3")} for twin in twins]
        for clock in clocks:
            clock.advance(2.3)
        _private_programme(twins[0])
        for clock in clocks:
            clock.advance(1.1)
        first, second = (_seen(twin) for twin in twins)
        for audience in first:
            first[audience].pop("game"), second[audience].pop("game")
        assert first["public"]["session"]["timer"] == {"left": 596.6, "limit": 600.0}
        assert first == second
        drained = [{a: drain(found) for a, found in heard.items()} for heard in listeners]
        for heard in drained:
            for update in heard["public"] + heard["host"] + heard["3"]:
                update.pop("game")
        assert drained[0]["public"] == drained[1]["public"] == []
        assert drained[0]["host"] == drained[1]["host"] == []
        assert drained[0]["3"] == drained[1]["3"] == []
        assert len(drained[0]["1"]) == len(drained[1]["1"]) == 0
        listed = [twin.games()[-1] for twin in twins]
        assert listed[0]["commands"] == listed[1]["commands"] == 5
    finally:
        for twin in twins:
            twin.close()


def test_the_games_list_counts_what_the_table_saw_while_a_game_runs(tmp_path: Path) -> None:
    with Session(tmp_path / "journal.sqlite", FakeClock()) as session:
        _programming(session)
        _private_programme(session)
        assert session.games()[-1]["commands"] == 5
        assert session.press_seat("2").ok  # the lock-in is public: the table saw it
        assert session.games()[-1]["commands"] == 6
        assert session.host("end_game").ok  # once over, every command counts
        assert session.games()[-1]["commands"] == 7


def test_a_running_games_export_leaves_out_what_deals_the_secrets(tmp_path: Path) -> None:
    rigged = {**TIMED, "roles": {"emmett": "guard"}}
    with Session(tmp_path / "journal.sqlite", FakeClock()) as session:
        _programming(session, rigged)
        game = session.snapshot("public")["game"]
        running = session.export(game)
        assert running is not None and not running["complete"]
        assert "seed" not in running and "roles" not in running["setup"]
        assert running["setup"]["players"] == 5
        assert session.host("end_game").ok
        finished = session.export(game)
        assert finished["seed"] == 3 and finished["setup"]["roles"] == {"emmett": "guard"}


def test_the_servers_public_clock_does_not_move_with_a_private_programme(tmp_path: Path) -> None:
    """Over HTTP, as the probe did it: the table's snapshot before and after seat 2 programs
    without locking in; its clock may only have run for the time between the two reads."""
    server = Serve(tmp_path / "data").wait_ready()
    try:
        host = host_of(server)
        assert host.post("/api/host/games", {"setup": {**TIMED, "rigged": True}})[0] == 200
        phones = {seat: Phone(server.url) for seat in "12345"}
        for seat, phone in phones.items():  # every seat taken before the game is under way
            assert phone.post("/api/join", {"seat": seat})[0] == 200
        for phone in phones.values():
            _, mine = phone.get("/api/view")
            clue = next(c for c in mine["legal"] if c["type"] == "clue")
            assert phone.post("/api/commands", {"command": clue})[0] == 200
        table = Phone(server.url)
        _, games = host.get("/api/host/games")
        time.sleep(2.5)
        began = time.monotonic()
        _, before = table.get("/api/view?as=table")
        _, mine = phones["2"].get("/api/view")
        command = next(c for c in mine["legal"] if c["type"] == "program")
        status, body = phones["2"].post("/api/commands", {"command": {**command, "lock_in": False}})
        assert status == 200, body
        _, after = table.get("/api/view?as=table")
        elapsed = time.monotonic() - began
        left = before["session"].pop("timer")["left"], after["session"].pop("timer")["left"]
        assert left[0] < 598.5  # the clock runs between public events too
        assert 0 <= left[0] - left[1] <= elapsed + 0.2, (left, elapsed)
        assert before == after
        assert host.get("/api/host/games")[1] == games
    finally:
        server.stop()
