"""The episode of a finished game, rebuilt from its journal export: each step's positions are
the engine's own (checked against `engine.replay` of the journal's events up to that command),
the programmes are those the seats locked in, the highlights are marked, an undone command is
no step, and a game still being played is refused."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from companion import engine
from companion.serve import JOURNAL_NAME
from companion.session import FakeClock, Session
from companion.session.archive import export
from companion.session.journal import Journal
from companion.story.recap import recap_html
from companion.story.replay import NotOver, episode

from .games import EDITIONS, commands_of, engine_positions, finished_games


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    data_dir = tmp_path_factory.mktemp("games")
    ids = finished_games(data_dir)
    journal = Journal(data_dir / JOURNAL_NAME)
    journal.open()
    try:
        return {edition: export(journal, game) for edition, game in ids.items()}
    finally:
        journal.close()


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_every_step_stands_where_the_engine_says(exports: dict, edition: str) -> None:
    exported = exports[edition]
    told = episode(exported)
    steps = told["steps"]
    assert steps[0]["command"] is None and len(steps) > 20
    for step in steps:
        assert step["positions"] == engine_positions(exported, step["seq"]), step["seq"]
    end = engine.replay(
        [*exported["start"], *(e for c in exported["commands"] for e in c["events"])]
    )
    rooms = [row_cell["room"] for row in engine.full_view(end)["complex"] for row_cell in row]
    assert steps[-1]["rooms"] == rooms  # every room face up, the hidden ones too
    assert steps[-1]["highlights"][-1] == "last"
    assert told["outcome"] == exported["outcome"]


def test_programmes_are_those_locked_in_and_private_commands_are_no_step(exports: dict) -> None:
    exported = exports["base"]
    told = episode(exported)
    locked = [
        (e["character"], e["tokens"])
        for c in exported["commands"]
        for e in c["events"]
        if e["type"] == "programmed"
    ]
    shown = [(cid, tokens) for turn in told["programmes"].values() for cid, tokens in turn.items()]
    assert sorted(map(repr, shown)) == sorted(map(repr, locked))  # one programme a turn each
    # A programme alone is no step; the last one of a turn is, when it starts the actions.
    silent = {
        c["seq"]
        for c in exported["commands"]
        if c["command"]["type"] == "program"
        and all(e["type"] in ("programmed", "locked_in") for e in c["events"])
    }
    assert len(silent) > 10 and not silent & {s["seq"] for s in told["steps"]}


def test_the_alarm_and_each_elimination_are_marked() -> None:
    """Every step whose command eliminated someone or rang the alarm is marked, no other."""
    told = episode(_a_game_with({"eliminated", "alarm"}, EDITIONS["base"]))
    for step in told["steps"][1:]:
        types = {e["type"] for e in step["events"]}
        assert ("eliminated" in step["highlights"]) == ("eliminated" in types)
        assert ("alarm" in step["highlights"]) == ("alarm" in types)
    assert any("eliminated" in s["highlights"] for s in told["steps"])
    assert any("alarm" in s["highlights"] for s in told["steps"])


def _a_game_with(kinds: set[str], setup: dict) -> dict:
    """The export of the first simulated game (seed 3 on) whose events hold every kind asked
    for: what is tested is the marks, not how a seed's game goes (the players' decisions change
    as they are made faster)."""
    for seed in range(3, 40):
        exported = _played_export(setup, seed=seed)
        if kinds <= {e["type"] for c in exported["commands"] for e in c["events"]}:
            return exported
    raise AssertionError(f"no simulated game of {setup} holds {kinds}")


def _played_export(setup: dict, undo_at: int | None = None, seed: int = 3) -> dict:
    with (
        tempfile.TemporaryDirectory() as folder,
        Session(Path(folder) / JOURNAL_NAME, FakeClock()) as session,
    ):
        game = session.host("new_game", setup=setup).game
        for n, command in enumerate(commands_of(setup, seed)):
            assert session.submit(command, source="test").ok
            if n == undo_at:
                assert session.host("undo").ok
                assert session.submit(command, source="test").ok
        exported = session.export(game)
    assert exported is not None
    return exported


def test_an_undone_command_is_no_step() -> None:
    exported = _played_export(EDITIONS["base"], undo_at=12)
    undone = [c["seq"] for c in exported["commands"] if c["undone"]]
    assert len(undone) == 1
    told = episode(exported)
    assert undone[0] not in {s["seq"] for s in told["steps"]}
    for step in told["steps"][::7]:
        assert step["positions"] == engine_positions(exported, step["seq"])


def test_a_game_still_being_played_is_refused(tmp_path: Path) -> None:
    with Session(tmp_path / JOURNAL_NAME, FakeClock()) as session:
        game = session.host("new_game", setup=EDITIONS["base"]).game
        for command in commands_of(EDITIONS["base"])[:30]:
            assert session.submit(command, source="test").ok
        going = session.export(game)
    with pytest.raises(NotOver):
        episode(going)
    with pytest.raises(NotOver):  # even an export that claims to be complete
        episode({**going, "complete": True, "status": "playing"})


def test_seat_names_reach_the_recap_never_the_episode(exports: dict) -> None:
    named = {**exports["season2"], "names": {"1": "Zoé Quintessence", "2": "Bartholomew"}}
    assert "Quintessence" not in json.dumps(episode(named), ensure_ascii=False)
    page = recap_html(named, "fr")
    assert "Zoé Quintessence" in page and "Bartholomew" in page


def test_a_countdown_only_game_is_told_without_a_board() -> None:
    """A game whose complex the companion does not track: its steps say whose turn it is and
    the countdown, with no rooms and no cells."""
    countdown = {"mode": "cooperation", "players": 4, "tracking": "countdown"}
    setup = {**EDITIONS["base"], **countdown, "settings": {"programming": "tokens"}}
    told = episode(_played_export(setup))
    assert len(told["steps"]) > 10 and told["tracking"] == "countdown"
    assert all(s["rooms"] is None and not any(s["positions"].values()) for s in told["steps"])
    assert told["steps"][-1]["turns_left"] <= 1


def test_the_fixture_games_hold_what_tests_read_in_them() -> None:
    """The replay pages' tests read the alarm and eliminations in the Season 2 game and the
    alarm in the base game (tests/story/games.py): a change to the players that plays them
    otherwise is told here, by name, not by a page test far away."""
    kinds = {}
    for edition in ("base", "season2"):
        commands = _played_export(EDITIONS[edition])["commands"]
        kinds[edition] = [e["type"] for c in commands for e in c["events"]]
    assert kinds["season2"].count("alarm") == 1 and kinds["season2"].count("eliminated") >= 1
    assert kinds["base"].count("alarm") == 1
