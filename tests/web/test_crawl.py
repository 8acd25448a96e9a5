"""The security crawl: every route, as each seat and as nobody, and nothing in any answer may
hold another seat's secrets (roles, notebook entries, programming, private events, secrets).

The answers are gathered after a few commands have given every seat a notebook entry and a
programmed character, then checked against the full view: the host's reveal once it is over."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .conftest import PIN, post
from .sse import EventReader

SEATS = "12345"
# The PIN as a value of its own: its digits may stand inside a game id ("20261125-142525-...",
# the clock at the start of the game), which is no leak.
LEAKED_PIN = re.compile(rf"(?<![0-9a-f]){PIN}(?![0-9a-f])")
CLUES = {"1": "B3", "2": "C2", "3": "C4", "4": "D3", "5": "B3"}
BODIES: list[Any] = [None, {}, [], "x", {"seat": "2"}, {"command": {"type": "clue", "seat": "2"}}]


def _routes(app: Flask) -> list[tuple[str, str]]:
    """(method, path) of every route, parameters filled with a seat or game id."""
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:[a-z]+:)?seat>", "2", rule.rule)
        path = re.sub(r"<(?:[a-z]+:)?game>", "1", path)
        path = re.sub(r"<[^>]+>", "x", path)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((method, path))
    # Giving the seat back last, so every other route is crawled while holding it.
    return sorted(found, key=lambda route: route[1] == "/api/leave")


def _play_a_little(phones: dict[str, FlaskClient], host: FlaskClient) -> None:
    for seat, cell in CLUES.items():
        answer = post(phones[seat], "/api/commands", {"command": {"type": "clue", "cell": cell}})
        assert answer.status_code == 200, answer.get_json()
    for seat, client in phones.items():
        view = client.get("/api/view").get_json()["view"]
        for cid, c in view["characters"].items():
            if c["seat"] == seat:
                command = {
                    "type": "program",
                    "character": cid,
                    "actions": ["look", "move"],
                    "lock_in": False,
                }
                answer = post(client, "/api/commands", {"command": command})
                assert answer.status_code == 200, answer.get_json()


def _secrets(full: dict) -> dict[str, dict]:
    """What each seat alone knows, from the full view (the end-of-game reveal)."""
    found = {}
    for seat in SEATS:
        own = {cid: c for cid, c in full["characters"].items() if c["seat"] == seat}
        assert own and all(c["role"] and c["program"] for c in own.values())
        assert full["notebooks"][seat]
        found[seat] = {"characters": own, "notebook": full["notebooks"][seat]}
    return found


def _walk(node: Any):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _check(caller: str | None, text: str, secrets: dict[str, dict], where: str) -> None:
    mine = secrets[caller]["notebook"] if caller is not None else {}
    for seat, known in secrets.items():
        if seat == caller:
            continue
        for cell, kind in known["notebook"].items():
            if mine.get(cell) == kind:
                continue  # both seats looked at the same room
            assert f'"{cell}":"{kind}"' not in text.replace(" ", ""), (where, seat, cell)
    try:
        data = json.loads(text)
    except ValueError:
        return
    others = {cid for seat, k in secrets.items() if seat != caller for cid in k["characters"]}
    for node in _walk(data):
        assert "notebooks" not in node, where
        if caller is None:
            assert "notebook" not in node or node["notebook"] == {}, where
        elif "notebook" in node and isinstance(node["notebook"], dict):
            assert node["notebook"] == secrets[caller]["notebook"], where
        private = node.get("private")
        if private is not None and "type" in node:
            assert private == caller, where
        characters = node.get("characters")
        if isinstance(characters, dict):
            for cid in others & characters.keys():
                entry = characters[cid]
                assert entry.get("role") is None, (where, cid)
                assert "program" not in entry and "talent_choice" not in entry, (where, cid)


def _stream_text(client: FlaskClient) -> str:
    response = client.get("/api/stream", buffered=False)
    if response.status_code != 200:
        return response.get_data(as_text=True)
    reader = EventReader(response.response)
    _, snapshot = reader.next()
    reader.close()
    return json.dumps(snapshot, separators=(",", ":"))


@pytest.mark.parametrize("caller", [None, *SEATS])
def test_no_answer_holds_another_seats_secrets(
    app: Flask, session, phones: dict, host: FlaskClient, caller: str | None
):
    _play_a_little(phones, host)
    game = session.snapshot("public")["game"]
    client = app.test_client() if caller is None else phones[caller]
    cookies = [p.get_cookie("room25_seat").value for p in phones.values()]
    cookies.append(host.get_cookie("room25_host").value)
    own_cookies = [] if caller is None else [phones[caller].get_cookie("room25_seat").value]
    answers: list[tuple[str, str]] = []
    for method, path in _routes(app):
        if path.endswith("/stream"):
            continue
        if method == "GET":
            for query in ("", "?as=seat", "?as=table", "?as=host"):
                answer = client.get(path + query)
                assert answer.status_code != 500, (
                    path + query
                )  # no crash (the panel is 503 without hardware)
                answers.append((f"GET {path}{query}", answer.get_data(as_text=True)))
        else:
            for body in BODIES:
                answer = client.post(path, json=body, headers={"X-Room25": "1"})
                assert answer.status_code != 500, (path, body)
                answers.append((f"POST {path} {body}", answer.get_data(as_text=True)))
    answers.append(("stream", _stream_text(client)))
    assert len(answers) > 40
    # The crawl could not change the game: writes for another seat and the host's were refused.
    assert session.snapshot("public")["waiting"]["phase"] == "programming"
    # Now the whole truth, from the full view the host gets once the game is over.
    assert post(host, "/api/host/end").status_code == 200
    secrets = _secrets(host.get(f"/api/host/games/{game}/reveal").get_json()["view"])
    for where, text in answers:
        _check(caller, text, secrets, where)
        assert not any(c in text for c in cookies if c not in own_cookies), where
        assert not LEAKED_PIN.search(text), where


def test_the_host_sees_everything_only_at_the_end(
    app: Flask, session, phones: dict, host: FlaskClient
):
    _play_a_little(phones, host)
    during = host.get("/api/view?as=host").get_json()
    assert "notebooks" not in json.dumps(during)
    game = during["game"]
    assert host.get(f"/api/host/games/{game}/reveal").status_code == 409
    assert post(host, "/api/host/end").status_code == 200
    after = host.get(f"/api/host/games/{game}/reveal").get_json()
    assert set(after["view"]["notebooks"]) == set(SEATS)
    for client in [app.test_client(), *phones.values()]:
        assert client.get(f"/api/host/games/{game}/reveal").status_code == 401
        assert "notebooks" not in client.get("/api/view").get_data(as_text=True)
