"""The event streams through the test client: a comment at once, a fresh snapshot, then the
updates of the stream's own audience; a seat freed by the host stops its old phone's stream."""

from __future__ import annotations

import itertools
import json
import re
import time

from flask import Flask
from flask.testing import FlaskClient

from companion.web.stream import KEEP_ALIVE, Credential, Streams, credential, updates

from .conftest import post
from .sse import EventReader


def open_stream(client: FlaskClient, audience: str) -> EventReader:
    response = client.get(f"/api/stream?as={audience}", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    return EventReader(response.response)


def test_a_stream_starts_with_a_comment_and_a_snapshot(phones: dict):
    reader = open_stream(phones["1"], "seat")
    name, snapshot = reader.next()
    assert reader.comments and reader.comments[0] == "room25"
    assert name == "update"
    assert snapshot["view"]["seat"] == "1"
    assert snapshot["waiting"]["phase"] == "clue"


def test_a_command_reaches_every_stream_in_its_own_audience(app: Flask, phones: dict, host):
    readers = {seat: open_stream(client, "seat") for seat, client in phones.items()}
    table = open_stream(app.test_client(), "table")
    for reader in [*readers.values(), table]:
        reader.next()
    assert (
        post(phones["2"], "/api/commands", {"command": {"type": "clue", "cell": "C4"}}).status_code
        == 200
    )
    for seat, reader in readers.items():
        update = reader.until(lambda u: "2" in u["view"]["clues_taken"])
        assert update["view"]["seat"] == seat
        if seat == "2":
            assert update["view"]["notebook"]  # the clue, in seat 2's notebook only
        else:
            assert update["view"]["notebook"] == {}
    public = table.until(lambda u: "2" in u["view"]["clues_taken"])
    assert "notebook" not in public["view"]


def test_a_freed_seat_ends_its_old_phones_stream(app: Flask, phones: dict, host: FlaskClient):
    reader = open_stream(phones["3"], "seat")
    reader.next()
    assert post(host, "/api/host/seats/3/reset").status_code == 200
    while True:
        name, _ = reader.next()
        if name == "bye":
            break


def _holder(kind: str, key: str | None, address: str = "192.0.2.9") -> Credential:
    return Credential(kind, key, address, lambda: True)


def test_each_kind_has_its_own_places_and_a_newer_stream_ends_its_holders_older_one():
    streams = Streams({"seat": 2, "host": 1, "table": 1, "anonymous": 3}, per_address=2)
    first = streams.open(_holder("seat", "seat:1"))
    assert first is not None
    second = streams.open(_holder("seat", "seat:1"))
    assert streams.superseded(first) and not streams.superseded(second)
    assert streams.open(_holder("seat", "seat:2")) is not None  # the superseded one is not counted
    assert streams.open(_holder("seat", "seat:3")) is None
    strangers = [streams.open(_holder("anonymous", None)) for _ in range(3)]
    assert strangers[:2] != [None, None] and strangers[2] is None  # two per address
    assert streams.open(_holder("anonymous", None, "192.0.2.10")) is not None
    assert streams.open(_holder("anonymous", None, "192.0.2.11")) is None  # all three taken
    assert streams.open(_holder("host", "host:a")) is not None  # the anonymous take none of these
    assert streams.open(_holder("table", "table:127.0.0.1")) is not None
    streams.close(first)
    assert streams.count() == 7


def test_the_table_on_the_pi_or_a_host_login_holds_a_place_of_its_own(app: Flask, host):
    access = app.extensions["room25.access"]
    secret = host.get_cookie("room25_host").value
    assert credential(access, "public", None, None, "127.0.0.1").kind == "table"
    assert credential(access, "public", None, secret, "192.0.2.9").kind == "table"
    assert credential(access, "public", None, "forged", "192.0.2.9").kind == "anonymous"
    assert credential(access, "host", None, secret, "192.0.2.9").key == "host:" + secret
    assert credential(access, "3", "x", None, "192.0.2.9").key == "seat:3"


def test_asking_for_a_view_one_may_not_have_is_refused(app: Flask, phones: dict):
    nobody = app.test_client()
    assert nobody.get("/api/stream?as=seat").status_code == 401
    assert nobody.get("/api/stream?as=host").status_code == 401
    assert phones["1"].get("/api/stream?as=host").status_code == 401
    assert nobody.get("/api/stream?as=other").status_code == 400


def _page_texts(client: FlaskClient, lang: str) -> dict:
    """The texts a page gives its script (`R25.t`), in the language the phone asks for."""
    page = client.get("/table", headers={"Accept-Language": lang}).get_data(as_text=True)
    found = re.search(r'<script type="application/json" id="texts">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found[1])


def _said(texts: dict, notice: dict) -> str:
    """A notice put into words the way common.js's `noticeText` does, from the page's texts."""
    line = texts["t"]["notice_" + notice["code"]]
    for name, value in notice["params"].items():
        line = line.replace("{" + name + "}", str(value))
    return line


def test_a_phone_gone_quiet_is_a_public_notice_until_it_comes_back(
    app: Flask, session, phones: dict, host: FlaskClient
):
    offline = {"code": "phone_offline", "params": {"seat": "3"}, "text": "Phone of seat 3 offline"}
    reader = open_stream(phones["3"], "seat")
    reader.next()
    reader.close()  # the phone sleeps: its stream ends at the next message it cannot send
    clue = {"command": {"type": "clue", "cell": "B3"}}
    assert post(phones["1"], "/api/commands", clue).status_code == 200
    for _ in range(50):
        if offline in session.snapshot("public")["session"]["notices"]:
            break
        time.sleep(0.1)
    notices = host.get("/api/view?as=table").get_json()["session"]["notices"]
    assert notices == [offline]
    french, english = _page_texts(phones["1"], "fr-FR,fr"), _page_texts(phones["1"], "en")
    assert _said(french, offline) == "Téléphone de la place 3 hors ligne"
    assert _said(english, offline) == offline["text"]
    back = open_stream(phones["3"], "seat")
    _, snapshot = back.next()
    assert offline not in snapshot["session"]["notices"]
    back.close()


def test_a_quiet_stream_sends_a_keep_alive_every_15_seconds(session):
    readings = itertools.count(0.0, KEEP_ALIVE / 2)  # each look at the clock: 7.5 s later
    streams = Streams()
    ticket = streams.open(_holder("anonymous", None))
    body = updates(session, "public", streams, ticket, lambda: True, clock=lambda: next(readings))
    assert next(body) == ": room25\n\n"
    assert next(body).startswith("retry:")
    assert next(body).startswith("event: update\n")
    began = time.monotonic()
    assert next(body) == ": keep-alive\n\n"  # two quiet ticks: 15 s by the stream's clock
    assert 1.5 < time.monotonic() - began < 5
    body.close()
    assert streams.count() == 0
