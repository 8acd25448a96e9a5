"""Issue 32, point 1: while teaching, a new game's physical set-up is walked through one step a
Next (the host action, the host page's route, the table's Next button), public, changing
nothing else; with teaching off there is no walk; a restart mid set-up shows the same step.
A real Session on a real SQLite journal."""

from __future__ import annotations

import json
from pathlib import Path

from session_helpers import COUNTDOWN, DEALT, MAC, drain, play

from companion.session import FakeClock, Session


def _walk(session: Session, audience: str = "public") -> dict | None:
    return session.snapshot(audience)["session"].get("setup")


def _without_walk(update: dict) -> dict:
    return {**update, "session": {k: v for k, v in update["session"].items() if k != "setup"}}


def test_with_teaching_off_a_new_game_has_no_setup_walk(session: Session) -> None:
    assert session.host("new_game", setup=DEALT).ok
    assert _walk(session) is None
    refused = session.host("setup_next")
    assert not refused.ok and refused.code == "no_setup_walk"


def test_setup_next_moves_one_step_and_changes_nothing_else(session: Session) -> None:
    assert session.host("teaching", on=True).ok
    assert session.host("new_game", setup=MAC).ok
    walk = _walk(session)
    assert walk is not None and walk["at"] == 0
    assert "mac_virtual" in [step["id"] for step in walk["steps"]]
    before = {audience: session.snapshot(audience) for audience in ("public", "host", "1")}
    table = session.listen("public")
    assert session.host("setup_next").ok
    assert _walk(session)["at"] == 1
    after = {audience: session.snapshot(audience) for audience in ("public", "host", "1")}
    for audience, update in after.items():
        assert update["session"]["setup"]["at"] == 1, audience
        assert _without_walk(update) == _without_walk(before[audience]), audience
    told = drain(table)
    assert told and told[-1]["session"]["setup"]["at"] == 1 and told[-1]["events"] == []


def test_setup_back_shows_the_step_before_and_not_before_the_first(session: Session) -> None:
    assert session.host("teaching", on=True).ok
    assert session.host("new_game", setup=DEALT).ok
    first = session.host("setup_back")
    assert not first.ok and first.code == "setup_first_step"
    assert session.host("setup_next").ok and session.host("setup_back").ok
    assert _walk(session)["at"] == 0


def test_after_the_last_step_the_walk_ends_and_the_game_plays_as_before(session: Session) -> None:
    assert session.host("teaching", on=True).ok
    assert session.host("new_game", setup=DEALT).ok
    for _ in _walk(session)["steps"]:
        assert session.host("setup_next").ok
    assert _walk(session) is None
    assert not session.host("setup_next").ok
    assert len(play(session, 5)) == 5


def test_the_tables_next_button_walks_the_setup_then_means_next_again(session: Session) -> None:
    assert session.host("teaching", on=True).ok
    assert session.host("new_game", setup=COUNTDOWN).ok
    count = len(_walk(session)["steps"])
    version = session.snapshot("public")["version"]
    for at in range(1, count):
        assert session.control("next").ok
        assert _walk(session)["at"] == at
    assert session.control("next").ok
    assert _walk(session) is None and session.snapshot("public")["version"] == version


def test_a_first_command_ends_the_walk(session: Session) -> None:
    assert session.host("teaching", on=True).ok
    assert session.host("new_game", setup=DEALT).ok
    assert session.host("setup_next").ok
    play(session, 1)
    assert _walk(session) is None


def test_the_walk_is_the_same_for_every_audience_and_names_no_role(session: Session) -> None:
    """The walk is public: the table, the host and every seat read the same steps; a role (a
    seat's secret) is never among their parameters."""
    assert session.host("teaching", on=True).ok
    assert session.host("new_game", setup=DEALT).ok
    walks = [_walk(session, audience) for audience in ("public", "host", "1", "5")]
    assert all(walk == walks[0] for walk in walks)
    assert "guard" not in str(walks[0]) and "prisoner" not in str(walks[0])


def _reopened(journal: Path, clock: FakeClock | None = None) -> Session:
    """A new Session on the same journal file: the companion after a restart."""
    again = Session(journal, clock or FakeClock())
    again.open()
    return again


def test_a_restart_mid_setup_comes_back_to_the_same_step(journal: Path) -> None:
    first = _reopened(journal)
    try:
        assert first.host("teaching", on=True).ok
        assert first.host("new_game", setup=MAC).ok
        assert first.host("setup_next").ok and first.host("setup_next").ok
        before = _walk(first)
    finally:
        first.close()
    again = _reopened(journal)
    try:
        assert before is not None and before["at"] == 2
        assert _walk(again) == before
        assert again.host("setup_back").ok
        assert _walk(again)["at"] == 1
    finally:
        again.close()
    third = _reopened(journal)
    try:
        assert _walk(third)["at"] == 1
    finally:
        third.close()


def test_a_walk_ended_or_played_past_does_not_come_back_after_a_restart(journal: Path) -> None:
    first = _reopened(journal)
    try:
        assert first.host("teaching", on=True).ok
        assert first.host("new_game", setup=DEALT).ok
        for _ in _walk(first)["steps"]:
            assert first.host("setup_next").ok
    finally:
        first.close()
    second = _reopened(journal)
    try:
        assert _walk(second) is None
        assert second.host("new_game", setup={**DEALT, "seed": 5}).ok
        assert second.host("setup_next").ok
        play(second, 1)
    finally:
        second.close()
    third = _reopened(journal)
    try:
        assert _walk(third) is None and not third.host("setup_next").ok
    finally:
        third.close()


def test_a_walk_kept_for_another_game_or_past_its_steps_is_no_walk(journal: Path) -> None:
    """A book that names a game not on the table, or a step the game does not have, shows no
    walk (and no Next or Back of one)."""
    first = _reopened(journal)
    try:
        assert first.host("teaching", on=True).ok
        assert first.host("new_game", setup=DEALT).ok
        count = len(_walk(first)["steps"])
    finally:
        first.close()
    book = journal.with_name("taught.json")
    kept = json.loads(book.read_text("utf-8"))
    assert kept["walk"]["at"] == 0
    for walk in ({"game": "20260101-000000-beef"}, {"at": count}, {"at": -1}, {"at": True}, "2"):
        wrong = {**kept["walk"], **walk} if isinstance(walk, dict) else walk
        book.write_text(json.dumps({**kept, "walk": wrong}), "utf-8")
        again = _reopened(journal)
        try:
            assert _walk(again) is None, walk
            assert again.host("setup_next").code == "no_setup_walk", walk
        finally:
            again.close()


def _walked(session: Session) -> list[dict]:
    """Every step of the walk, Next pressed after each."""
    steps = []
    while (walk := _walk(session, "1")) is not None:
        steps.append(walk["steps"][walk["at"]])
        assert session.host("setup_next").ok
    return steps


def test_twin_games_differing_only_in_a_secret_walk_the_same_setup(tmp_path: Path) -> None:
    """Two games whose only difference is who is the guard, or the hidden complex the
    companion dealt (its seed), walk the same steps: no step depends on a secret."""
    rigged = {**DEALT, "rigged": True}
    twins = {
        "roles": ({**rigged, "roles": {"emmett": "guard"}}, {**rigged, "roles": {"max": "guard"}}),
        "seed": ({**DEALT, "seed": 3}, {**DEALT, "seed": 8}),
    }
    for secret, setups in twins.items():
        walks, seen = [], []
        for n, setup in enumerate(setups):
            with Session(tmp_path / f"{secret}{n}.sqlite", FakeClock()) as twin:
                assert twin.host("teaching", on=True).ok
                assert twin.host("new_game", setup=setup).ok
                seen.append([twin.snapshot(seat)["view"] for seat in "12345"])
                walks.append(_walked(twin))
        assert seen[0] != seen[1], secret  # the twins do differ, in what the seats see
        assert walks[0] == walks[1] and len(walks[0]) > 5, secret
