"""Issue 29, point 2: every byte the companion sends, a stream's update as a press's answer, is
sent by waitress' event loop, never by the thread that wrote it (`web/channel.py`), so the loop
no longer turns again and again while a writing thread holds a connection: a press with four
streams open costs it a few turns (about eighty with ten streams before). On the app's own
waitress server with the project's settings, run in this process so that its loop can be
watched; the streams and the phones are real sockets."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from serving import Phone
from waitress import wasyncore
from waitress.trigger import trigger

from companion.web.guard import secure_server_errors
from companion.web.reads import hold_owing_connections
from companion.web.server import create_server, wait_for_the_pool

from .conftest import SETUP, post

WAIT = 20.0  # seconds an update may take on a loaded machine
TURNS = 12  # the loop's turns a press may cost: its read, its wake-ups, what a send leaves


class Watched:
    """What the event loop did: its turns, and the threads that sent bytes."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.turns = 0
        self.senders: set[str] = set()
        self.sent: dict[int, int] = {}  # the bytes sent in each turn
        self.waiting: set[int] = set()  # the turns woken by the trigger while bytes waited
        poll, send, woke = wasyncore.poll2, wasyncore.dispatcher.send, trigger.handle_read

        def turn(*args: object, **kwargs: object) -> None:
            self.turns += 1
            poll(*args, **kwargs)

        def sent(channel: wasyncore.dispatcher, data: bytes, do_close: bool = True) -> int:
            self.senders.add(threading.current_thread().name)
            self.sent[self.turns] = self.sent.get(self.turns, 0) + len(data)
            return send(channel, data, do_close)

        def wake(pulled: trigger) -> None:
            if any(getattr(c, "total_outbufs_len", 0) for c in list(pulled._map.values())):
                self.waiting.add(self.turns)
            woke(pulled)

        monkeypatch.setattr(wasyncore, "poll2", turn)
        monkeypatch.setattr(wasyncore.dispatcher, "send", sent)
        monkeypatch.setattr(trigger, "handle_read", wake)

    def reset(self) -> None:
        self.turns, self.senders, self.sent, self.waiting = 0, set(), {}, set()

    def bare(self) -> list[int]:
        """The turns woken while bytes waited that sent nothing: the loop turned once more."""
        return sorted(turn for turn in self.waiting if not self.sent.get(turn))


@pytest.fixture
def served(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Watched]]:
    """The app's waitress server on loopback, set up as `serve_app` sets it up, its loop watched."""
    watched = Watched(monkeypatch)
    server = create_server(app, "127.0.0.1", 0)
    secure_server_errors(server)
    hold_owing_connections(server, app)
    wait_for_the_pool(server)
    running = threading.Thread(target=server.run, name="the-loop", daemon=True)
    running.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}", watched
    finally:
        server.task_dispatcher.shutdown()
        wasyncore.close_all(server._map)
        running.join(WAIT)


class Stream:
    """An event stream on a raw socket, read line by line."""

    def __init__(self, url: str, audience: str, phone: Phone | None = None) -> None:
        port = int(url.rsplit(":", 1)[1])
        self.connection = socket.create_connection(("127.0.0.1", port), WAIT)
        cookies = "; ".join(f"{c.name}={c.value}" for c in phone.cookies) if phone else ""
        request = f"GET /api/stream?as={audience} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        request += f"Cookie: {cookies}\r\n\r\n" if cookies else "\r\n"
        self.connection.sendall(request.encode())
        self.lines = self.connection.makefile("rb")

    def next_view(self) -> dict:
        """The next message's data."""
        for line in self.lines:
            if line.startswith(b"data: "):
                return json.loads(line[6:])
        raise AssertionError("the stream ended")

    def close(self) -> None:
        self.lines.close()
        self.connection.close()


def test_every_byte_is_sent_by_the_event_loop_in_a_few_turns_a_press(
    served: tuple[str, Watched], host: FlaskClient
) -> None:
    url, watched = served
    assert post(host, "/api/host/games", {"setup": SETUP}).status_code == 200
    phones = {seat: Phone(url) for seat in "123"}
    for seat, phone in phones.items():
        assert phone.post("/api/join", {"seat": seat})[0] == 200
    streams = [Stream(url, "seat", phone) for phone in phones.values()]
    streams.append(Stream(url, "table"))  # the table's page, on the Pi itself
    try:
        for stream in streams:
            stream.next_view()  # its snapshot
        watched.reset()
        status, _ = phones["1"].post("/api/commands", {"command": {"type": "clue", "cell": "B3"}})
        assert status == 200
        for stream in streams:
            assert "1" in stream.next_view()["view"]["clues_taken"], stream
        assert watched.senders == {"the-loop"}
        assert watched.turns <= TURNS
    finally:
        for stream in streams:
            stream.close()


def test_the_bytes_leave_in_the_turn_that_wakes_the_loop_for_them(
    served: tuple[str, Watched], host: FlaskClient
) -> None:
    """The loop's trigger, once read, sends what is queued (`channel.sending_on_wake`): the
    updates are sent in the turn the trigger is read, not in the turn after (a turn is a look at
    every connection, a Pi Zero's tenth of a millisecond with ten streams). The host's new games
    go through the app in this process, not through waitress, so no request's own wake of the
    loop comes between."""
    url, watched = served
    assert post(host, "/api/host/games", {"setup": SETUP}).status_code == 200
    stream = Stream(url, "table")
    try:
        stream.next_view()
        watched.reset()
        for _ in range(5):
            assert post(host, "/api/host/games", {"setup": SETUP}).status_code == 200
            stream.next_view()
        # Before, every such wake sent nothing. Now one may, rarely: its send finds the writer
        # still queueing a later update (the connection's lock taken), the next wake sends it.
        assert len(watched.waiting) >= 4 and len(watched.bare()) <= 1, watched.sent
    finally:
        stream.close()
