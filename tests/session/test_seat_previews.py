"""Issue 32, point 3 in the session: while the table is taught, a seat's own update carries the
previews of its own look, move, push and control choices, built from its own view; the public
part, the host's and every other seat's updates carry none of them. A real Session on a real
SQLite journal, and twin games through the engine's public interface."""

from __future__ import annotations

import random

import pytest
from session_helpers import DEALT, drain, legal_move, state_of

from companion import engine
from companion.session import Session
from companion.session.publish import Published
from companion.session.shapes import SessionInfo
from companion.teaching.preview import ACTIONS

TAUGHT: SessionInfo = {
    "paused": False,
    "notices": [],
    "lock_ins": [],
    "undone": False,
    "rigged": False,
    "teaching": {"on": True, "taught": []},
}


def _choices(update: dict) -> set[tuple]:
    """The seat's look, move, push and control choices its legal commands offer."""
    return {
        (c["character"], c["action"], c["direction"], c.get("target"))
        for c in update["legal"]
        if c["type"] == "act" and c.get("action") in ACTIONS
    }


def _previewed(update: dict) -> set[tuple]:
    return {
        (p["character"], p["params"]["action"], p["params"]["direction"], p["params"].get("target"))
        for p in update["previews"]
    }


def _to_a_choice(session: Session, seed: int = 0) -> str:
    """Play random legal commands until a seat may look, move, push or control: that seat."""
    rng = random.Random(seed)
    for _ in range(200):
        for seat in engine.waiting_for(state_of(session)).as_dict().get("seats", []):
            if _choices(session.snapshot(seat)):
                return seat
        command = legal_move(state_of(session), rng)
        assert command is not None, "the game ended before any action"
        assert session.submit(command, source="test").ok
    raise AssertionError("no look, move, push or control in 200 commands")


def test_a_taught_seat_has_a_preview_of_each_of_its_choices_in_its_own_update_only(
    session: Session,
) -> None:
    assert session.host("teaching", on=True).ok
    assert session.host("new_game", setup=DEALT).ok
    seat = _to_a_choice(session)
    mine = session.snapshot(seat)
    assert _previewed(mine) == _choices(mine)
    assert all(p["key"].startswith("previews_") for p in mine["previews"])
    assert "previews" not in session.snapshot("public")
    assert "previews" not in session.snapshot("host")
    characters = {p["character"] for p in mine["previews"]}
    for other in state_of(session).seats:
        if other != seat:
            theirs = session.snapshot(other)["previews"]
            assert not characters & {p["character"] for p in theirs}


def test_an_untaught_table_has_no_previews(session: Session) -> None:
    assert session.host("new_game", setup=DEALT).ok
    seat = _to_a_choice(session)
    assert "previews" not in session.snapshot(seat)


def test_turning_teaching_on_sends_each_seat_its_previews_at_once(session: Session) -> None:
    assert session.host("new_game", setup=DEALT).ok
    seat = _to_a_choice(session)
    phone = session.listen(seat)
    drain(phone)
    assert session.host("teaching", on=True).ok
    updates = drain(phone)
    assert updates and updates[-1]["previews"]
    assert updates[-1]["session"]["notices"] == session.snapshot("public")["session"]["notices"]


def _swapped_roles(start: list[dict], keep: str) -> list[dict]:
    """The same deal with a guard's and a prisoner's roles exchanged, neither of them `keep`."""
    roles = {e["seat"]: e["role"] for e in start if e["type"] == "role_dealt" and e["seat"] != keep}
    guard = next(s for s, role in roles.items() if role == "guard")
    prisoner = next(s for s, role in roles.items() if role != "guard")
    swap = {guard: roles[prisoner], prisoner: roles[guard]}
    return [
        {**e, "role": swap[e["seat"]]} if e["type"] == "role_dealt" and e["seat"] in swap else e
        for e in start
    ]


def _previews(state: engine.GameState, seat: str) -> list[dict]:
    waiting = engine.waiting_for(state).as_dict()
    return Published("g", state, waiting, TAUGHT).update(seat, [])["previews"]


@pytest.mark.parametrize("seed", range(3))
def test_twin_games_differing_in_another_seats_role_give_a_seat_identical_previews(
    seed: int,
) -> None:
    """The same commands played in two games whose only difference is two other seats' roles:
    seat 1's update carries the same previews at every step."""
    started = engine.start({**DEALT, "seed": seed})
    twins = [started.state, engine.replay(_swapped_roles(started.events, keep="1"))]
    assert engine.full_view(twins[0]) != engine.full_view(twins[1])
    rng, previewed = random.Random(seed), 0
    for _ in range(150):
        assert _previews(twins[0], "1") == _previews(twins[1], "1")
        previewed += bool(_previews(twins[0], "1"))
        command = _unexposing(twins[0], rng)
        applied = [engine.apply(state, command) for state in twins] if command else []
        if not applied or any(a.refusal is not None for a in applied):
            break
        twins = [a.state for a in applied]
    assert previewed, "seat 1 never had a choice to preview"


def _unexposing(state: engine.GameState, rng: random.Random) -> dict | None:
    """A random legal command other than exposing oneself (only a guard may: the twins' guards
    differ, so their games would too)."""
    waiting = engine.waiting_for(state).as_dict()
    if waiting["phase"] == "over":
        return None
    seats = waiting.get("seats", [])
    options = [c for s in seats for c in engine.legal_commands(state, s) if c["type"] != "expose"]
    return rng.choice(options) if options else None
