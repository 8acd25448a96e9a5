"""Issue 32, point 1: while teaching, a new game's physical set-up is walked through one step a
Next (the host action, the host page's route, the table's Next button), public, changing
nothing else; with teaching off there is no walk. A real Session on a real SQLite journal."""

from __future__ import annotations

from session_helpers import COUNTDOWN, DEALT, MAC, drain, play

from companion.session import Session


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
