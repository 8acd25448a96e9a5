"""Issue 32, point 4 through the API: the host turns teaching on or off and has a lesson taught
again (POST /api/host/teaching, /api/host/lessons/replay); a malformed body is refused in plain
words and changes nothing; nobody but the host may do either."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .conftest import post


def _teaching(client: FlaskClient) -> dict:
    return client.get("/api/view").get_json()["session"]["teaching"]


def test_the_host_turns_teaching_on_and_off(host: FlaskClient, game: dict) -> None:
    assert post(host, "/api/host/teaching", {"on": True}).status_code == 200
    assert _teaching(host)["on"] is True
    assert post(host, "/api/host/teaching", {"on": False}).status_code == 200
    assert _teaching(host)["on"] is False


@pytest.mark.parametrize("body", [{}, {"on": "yes"}, {"on": 1}, {"On": True}])
def test_a_teaching_body_that_is_not_a_yes_or_no_is_refused_and_changes_nothing(
    host: FlaskClient, game: dict, body: object
) -> None:
    assert post(host, "/api/host/teaching", {"on": True}).status_code == 200
    answer = post(host, "/api/host/teaching", body)
    assert answer.status_code == 400
    refused = answer.get_json()["refusal"]
    assert refused["code"] == "bad_teaching" and '"on"' in refused["text"]
    assert _teaching(host)["on"] is True


def test_a_replayed_lesson_is_every_pages_notice(
    app: Flask, host: FlaskClient, phones: dict[str, FlaskClient]
) -> None:
    assert post(host, "/api/host/lessons/replay", {"lesson": "action_move"}).status_code == 200
    notices = phones["3"].get("/api/view").get_json()["session"]["notices"]
    lesson = [n for n in notices if n["code"] == "lesson"]
    assert [n["params"]["lessons"] for n in lesson] == [["action_move"]]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [({"lesson": "juggling"}, 409, "unknown_lesson"), ({"lesson": 3}, 400, "bad_lesson"),
     ({}, 400, "bad_lesson")],
)  # fmt: skip
def test_a_lesson_that_is_not_one_is_refused_in_words(
    host: FlaskClient, game: dict, body: dict, status: int, code: str
) -> None:
    answer = post(host, "/api/host/lessons/replay", body)
    assert answer.status_code == status
    refused = answer.get_json()["refusal"]
    assert refused["code"] == code and refused["text"]
    notices = host.get("/api/view").get_json()["session"]["notices"]
    assert not [n for n in notices if n["code"] == "lesson"]


@pytest.mark.parametrize(
    ("path", "body"),
    [("/api/host/teaching", {"on": True}), ("/api/host/lessons/replay", {"lesson": "alarm"})],
)
def test_only_the_host_teaches(app: Flask, game: dict, path: str, body: dict) -> None:
    seat = app.test_client()
    assert post(seat, "/api/join", {"seat": "1"}).status_code == 200
    answer = post(seat, path, body)
    assert answer.status_code == 401
    assert _teaching(seat)["on"] is False
