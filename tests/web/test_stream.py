"""The event streams through the test client: a comment at once, a fresh snapshot, then the
updates of the stream's own audience; a seat freed by the host stops its old phone's stream."""

from __future__ import annotations

import itertools
import json
import re
import threading
import time

from flask import Flask
from flask.testing import FlaskClient
from waitress.channel import ClientDisconnected

from companion.web import parts
from companion.web.stream import (
    KEEP_ALIVE,
    Connection,
    Credential,
    Streams,
    credential,
    updates,
)

from .conftest import SETUP, post
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
    access = parts.access(app)
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


class Channel:
    """What a stream sees of the companion's waitress channel (`web/channel.py`): it takes bytes
    from any thread (`queue`), counts those not yet sent, is told to send them (`wake`), and says
    when its client has gone."""

    def __init__(self, arrived: threading.Condition | None = None) -> None:
        self.chunks: list[bytes] = []
        self.writers: set[str] = set()
        self.wakes = 0
        self.total_outbufs_len = 0
        self.connected = True
        self.arrived = arrived or threading.Condition()

    def client_disconnected(self) -> bool:
        return not self.connected

    def queue(self, data: bytes) -> int:
        if not self.connected:
            raise ClientDisconnected
        with self.arrived:
            self.chunks.append(data)
            self.writers.add(threading.current_thread().name)
            self.total_outbufs_len += len(data)
        return len(data)

    def wake(self) -> None:
        """The event loop woken: it sends every channel's bytes (here only this one's)."""
        with self.arrived:
            self.wakes += 1
            self.total_outbufs_len = 0
            self.arrived.notify_all()

    def updates(self) -> list[dict]:
        """The SSE updates written, unframed from their HTTP/1.1 chunks."""
        found = []
        for chunk in self.chunks:
            size, _, rest = chunk.partition(b"\r\n")
            assert rest.endswith(b"\r\n") and int(size, 16) == len(rest) - 2
            for line in rest.decode().splitlines():
                if line.startswith("data: "):
                    found.append(json.loads(line[6:]))
        return found


def _stream_under_waitress(session, audience, streams, allowed=lambda: True, arrived=None):
    """A stream's body run on a thread of its own, as waitress runs it, its channel faked: what
    the body yields itself, its channel, and its thread."""
    channel = Channel(arrived)
    environ = {
        "waitress.client_disconnected": channel.client_disconnected,
        "SERVER_PROTOCOL": "HTTP/1.1",
    }
    ticket = streams.open(_holder("seat", f"seat:{audience}"), audience)
    body = updates(session, audience, streams, ticket, allowed, connection=Connection(environ))
    yielded: list[str] = []
    thread = threading.Thread(target=lambda: yielded.extend(body), daemon=True)
    thread.start()
    return yielded, channel, thread


def test_one_thread_writes_every_stream_its_own_audiences_updates(session, host) -> None:
    """Issue 29, point 2: a stream's own thread sends its start and sleeps; the streams' one
    writer thread queues each stream's update of its own audience (framed as waitress frames a
    chunk), then wakes the event loop once for all of them."""
    assert post(host, "/api/host/games", {"setup": SETUP}).status_code == 200
    streams, arrived = Streams(), threading.Condition()
    opened = {s: _stream_under_waitress(session, s, streams, arrived=arrived) for s in "123"}
    channels = [channel for _, channel, _ in opened.values()]
    with arrived:  # each stream's start is sent: each wakes the loop once
        assert arrived.wait_for(lambda: [c.wakes for c in channels] == [1, 1, 1], 10)
    assert session.submit({"type": "clue", "seat": "1", "cell": "C4"}, source="test").ok
    with arrived:  # the update queued on every stream, then one wake-up sends them all
        assert arrived.wait_for(lambda: sum(c.wakes for c in channels) == 4, 10)
    for seat, (_, channel, _) in opened.items():
        (update,) = channel.updates()
        assert update["view"]["seat"] == seat and "1" in update["view"]["clues_taken"]
        assert bool(update["view"]["notebook"]) == (seat == "1")  # seat 1's clue, its own only
        assert channel.writers == {"room25-streams"}
    for yielded, _, _ in opened.values():
        assert yielded[0] == ": room25\n\n" and len(yielded) == 3  # the start, no update
    session.close()  # the companion stops: every stream ends, its thread free
    for _, _, thread in opened.values():
        thread.join(10)
        assert not thread.is_alive()
    assert streams.count() == 0


def test_a_stream_written_by_the_writer_ends_with_bye_or_without_a_word(session, host) -> None:
    """A stream no longer allowed (a seat freed) gets its `bye` from its own thread; one whose
    client has gone ends without a word; the other streams go on."""
    assert post(host, "/api/host/games", {"setup": SETUP}).status_code == 200
    streams = Streams()
    allowed = [True]
    freed, _, freed_thread = _stream_under_waitress(session, "1", streams, lambda: allowed[0])
    left, channel, left_thread = _stream_under_waitress(session, "2", streams)
    _, staying, _ = _stream_under_waitress(session, "3", streams)
    allowed[0] = False
    channel.connected = False
    freed_thread.join(10)
    left_thread.join(10)
    assert not freed_thread.is_alive() and freed[-1].startswith("event: bye\n")
    assert not left_thread.is_alive() and len(left) == 3 and not channel.chunks
    assert session.submit({"type": "clue", "seat": "3", "cell": "C4"}, source="test").ok
    with staying.arrived:
        assert staying.arrived.wait_for(lambda: staying.updates(), 10)
    assert streams.count() == 1
