"""Text that cannot be written: a lone UTF-16 surrogate ("\\ud800") is legal JSON but no UTF-8,
so the journal could not encode it. It is refused where it comes in, with a plain answer, and a
journal write that fails for any reason leaves no transaction open behind it."""

from __future__ import annotations

from pathlib import Path

import pytest
from serving import Phone, Serve, host_of
from session_helpers import DEALT, play

from companion.session import FakeClock, Session
from companion.session.journal import Journal

LONE = "\ud800"


def test_a_write_that_fails_on_something_else_than_sqlite_is_rolled_back(journal: Path) -> None:
    """A real SQLite file: the failed write leaves no transaction open, the next one is kept."""
    opened = Journal(journal)
    opened.open()
    opened.new_game("g", {"players": 5}, 1, {}, [])
    with pytest.raises(UnicodeEncodeError):
        opened.command("g", 1, {"type": "clue", "cell": LONE}, "web", 0, [], None)
    assert not opened.db.in_transaction
    opened.command("g", 1, {"type": "clue", "cell": "B3"}, "web", 0, [], None)
    opened.close()
    again = Journal(journal)
    again.open()
    assert [c.command for c in again.commands("g")] == [{"type": "clue", "cell": "B3"}]
    again.close()


@pytest.mark.parametrize(
    "setup",
    [
        {**DEALT, "note": LONE},
        {**DEALT, "settings": {"deep": [{"x": "a" + LONE}]}},
        {**DEALT, LONE: 1},
    ],
)
def test_a_setup_with_text_that_cannot_be_written_is_refused_and_changes_nothing(
    journal: Path, setup: dict
) -> None:
    with Session(journal, FakeClock()) as session:
        reply = session.host("new_game", setup=setup)
        assert not reply.ok and reply.code == "bad_text"
        assert "UTF-8" in reply.text and "UTF-8" in reply.text_in("fr")
        assert session.snapshot("public")["game"] is None
        assert session.snapshot("public")["session"]["notices"] == []
        assert session.host("new_game", setup=DEALT).ok


def test_a_command_with_text_that_cannot_be_written_is_refused(journal: Path) -> None:
    with Session(journal, FakeClock()) as session:
        session.host("new_game", setup=DEALT)
        version = session.snapshot("public")["version"]
        reply = session.submit({"type": "clue", "seat": "1", "cell": "B3", "why": LONE})
        assert not reply.ok and reply.code == "bad_text"
        assert session.snapshot("public")["version"] == version
        play(session, 5)


def test_the_server_refuses_the_text_and_the_next_write_is_kept(tmp_path: Path) -> None:
    """Over HTTP, as the probe sent it: a PIN made of a lone surrogate, the host's setup with
    one in an unused field, then anyone's next write. The web layer refuses it before any
    route reads the body."""
    server = Serve(tmp_path / "data").wait_ready()
    try:
        status, body = Phone(server.url).post("/api/host/login", {"pin": LONE})
        assert status == 400 and body["refusal"]["code"] == "bad_text", body
        host = host_of(server)
        status, body = host.post(
            "/api/host/games", {"setup": {**DEALT, "rigged": True, "unused": LONE}}
        )
        assert status == 400 and body["refusal"]["code"] == "bad_text", body
        assert "UTF-8" in body["refusal"]["text"]
        status, body = host.post("/api/host/games", {"setup": {**DEALT, "rigged": True}})
        assert status == 200, body
        phone = Phone(server.url)
        assert phone.post("/api/join", {"seat": "1"})[0] == 200
        status, body = phone.post("/api/commands", {"command": {"type": "clue", "cell": "B3"}})
        assert status == 200, body
        _, view = phone.get("/api/view?as=table")
        # the journal took the next write: no notice but the rigged game's own
        assert [n["code"] for n in view["session"]["notices"]] == ["rigged_game"]
    finally:
        server.stop()
