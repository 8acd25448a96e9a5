"""Fixtures for the web tests: a real Session on a temporary SQLite journal, the Flask app around
it, and clients that act as the host, as a seat's phone, or as nobody; and `room25 serve` as a
real process for the tests that need real sockets."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from serving import PIN, Serve

from companion.session import Session
from companion.web import create_app

WRITE = {"X-Room25": "1"}
# A small, quick game: base Suspicion at five seats, the complex dealt by the companion.
SETUP = {"edition": "base", "mode": "suspicion", "players": 5, "tracking": "dealt"}


@pytest.fixture
def app(session: Session) -> Flask:
    return create_app(session, None, pin=PIN)


def post(client: FlaskClient, path: str, body: object = None, **headers: str):
    """A write as the pages make it: the CSRF header and a JSON body."""
    return client.post(path, json={} if body is None else body, headers={**WRITE, **headers})


@pytest.fixture
def host(app: Flask) -> FlaskClient:
    client = app.test_client()
    assert post(client, "/api/host/login", {"pin": PIN}).status_code == 200
    return client


@pytest.fixture
def game(host: FlaskClient) -> dict:
    answer = post(host, "/api/host/games", {"setup": SETUP})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def phone(app: Flask, seat: str) -> FlaskClient:
    client = app.test_client()
    answer = post(client, "/api/join", {"seat": seat})
    assert answer.status_code == 200, answer.get_json()
    return client


@pytest.fixture
def phones(app: Flask, game: dict) -> dict[str, FlaskClient]:
    return {seat: phone(app, seat) for seat in "12345"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """`room25 serve --hardware mock` as a real process, for the tests that need real sockets."""
    running = Serve(tmp_path_factory.mktemp("serve")).wait_ready()
    yield running
    running.stop()
