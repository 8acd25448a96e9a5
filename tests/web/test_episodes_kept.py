"""A finished game's replay is built once and then served as it was built, until the game's
journal rows change (issue 28, point 7: a phone asking for it again and again costs the seats
nothing): never a build for a journal that has moved on. Through the app's own routes, on a real
session and its SQLite journal."""

from __future__ import annotations

import json

from flask import Flask
from pytest_mock import MockerFixture
from story.games import EDITIONS, commands_of, play_to_the_end

from companion.session import Session
from companion.story.replay import NotOver, episode
from companion.web.episodes import Episodes

SETUP = EDITIONS["base"]


def test_a_finished_games_replay_is_built_once_and_again_after_an_undo_and_a_new_end(
    app: Flask, session: Session, mocker: MockerFixture
) -> None:
    game = play_to_the_end(session, SETUP)
    exports = mocker.spy(session, "export")
    table = app.test_client()
    first = table.get(f"/api/games/{game}/replay")
    again = table.get("/api/games/last/replay")
    assert first.status_code == again.status_code == 200
    assert first.data == again.data
    assert json.loads(first.data) == episode(session.export(game))
    assert exports.call_count == 2  # the first build, and this test's own export just above

    assert session.host("undo", count=1).ok  # the game goes on: nothing is public any more
    undone = table.get(f"/api/games/{game}/replay")
    assert undone.status_code == 409
    assert undone.get_json()["refusal"]["code"] == NotOver.code

    assert session.submit(commands_of(SETUP)[-1], source="test").ok  # and it ends again
    ended = table.get(f"/api/games/{game}/replay")
    assert ended.status_code == 200
    assert ended.data != first.data  # the undone command is in the episode now
    assert json.loads(ended.data) == episode(session.export(game))


def test_a_game_not_over_is_refused_without_reading_its_commands(
    app: Flask, session: Session, mocker: MockerFixture
) -> None:
    game = session.host("new_game", setup=SETUP).game
    exports = mocker.spy(session, "export")
    answer = app.test_client().get(f"/api/games/{game}/replay")
    assert answer.status_code == 409
    assert answer.get_json()["refusal"]["code"] == NotOver.code
    unknown = app.test_client().get("/api/games/g0123456789ab/replay")
    assert unknown.status_code == 404
    assert unknown.get_json()["refusal"]["text"]
    assert exports.call_count == 0


def test_the_episodes_kept_are_the_most_recent_few() -> None:
    kept = Episodes(kept=2)
    builds: list[str] = []

    def build(game: str) -> bytes:
        builds.append(game)
        return game.encode()

    mark = ("over", 1.0, 10, 0)
    for game in ("a", "b", "a", "c", "a", "b"):
        assert kept.served(game, mark, lambda g=game: build(g)) == game.encode()
    # a, b built; a kept; c built (b forgotten, a used more recently); a kept; b built again
    assert builds == ["a", "b", "c", "b"]
    later = ("over", 1.0, 11, 0)  # a new mark: built again
    assert kept.served("a", later, lambda: None) is None
    assert kept.served("a", later, lambda: b"new") == b"new"  # nothing was kept of the None
