"""After a restart the table sees what it saw before: a game that had just ended by its outcome
keeps its outcome screen, a game the host ended stays ended. Driven on a real `room25 serve`,
killed and started again on the same data directory."""

from __future__ import annotations

from pathlib import Path

from serving import Phone, Serve, host_of

COUNTDOWN = {"edition": "base", "mode": "suspicion", "players": 5, "tracking": "countdown"}


def _table(server: Serve) -> dict:
    status, seen = Phone(server.url).get("/api/view?as=table")
    assert status == 200, seen
    return {key: seen[key] for key in ("game", "version", "view", "waiting")}


def test_a_game_just_over_is_still_on_the_table_after_a_kill(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = Serve(data).wait_ready()
    try:
        host = host_of(server)
        status, started = host.post("/api/host/games", {"setup": COUNTDOWN})
        assert status == 200, started
        _, seen = host.get("/api/view?as=host")
        everyone = sorted(seen["view"]["characters"])
        report = {"type": "report", "seat": "host", "event": "escaped", "characters": everyone}
        assert host.post("/api/commands", {"command": report})[0] == 200
        before = _table(server)
        assert before["waiting"]["phase"] == "over" and before["game"] == started["game"]
        _, log_before = Phone(server.url).get("/api/log")
    finally:
        server.kill()
    again = Serve(data, port=server.port).wait_ready()
    try:
        assert _table(again) == before
        assert Phone(again.url).get("/api/log")[1] == log_before
        host = host_of(again)
        assert host.post("/api/host/end")[0] == 200  # the host clears the table
    finally:
        again.kill()
    third = Serve(data, port=server.port).wait_ready()
    try:
        assert _table(third)["game"] is None
    finally:
        third.stop()
