"""Issue 28, point 7, at the connection: waitress stops reading a phone's connection while its
address owes read time, and charges the address what its event loop spends reading and sending
for it; the companion itself is never held. On the app's own waitress server with the project's
settings (`web/server.py`), run in this process so that the read share's clock can be moved by
hand; the phone is this machine's network address, the companion is loopback."""

from __future__ import annotations

import select
import socket
import threading
from collections.abc import Iterator

import pytest
from flask import Flask
from waitress import wasyncore

from companion.web.guard import secure_server_errors
from companion.web.reads import ReadShare, hold_owing_connections
from companion.web.server import create_server, wait_for_the_pool

from .trusted import Client, network_address

WAIT = 20.0  # seconds an answer may take on a loaded machine
HELD = 1.5  # seconds a held request is watched for an answer that must not come


class Ticks:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def phone_address() -> str:
    found = network_address()
    if found is None:
        pytest.skip("this machine has no network address besides loopback")
    return found


@pytest.fixture
def served(app: Flask, phone_address: str) -> Iterator[tuple[int, ReadShare, Ticks]]:
    """The app's waitress server on every address, with a read share on a hand-moved clock."""
    ticks = Ticks()
    shares = ReadShare(clock=ticks)
    app.extensions["room25.reads"] = shares
    server = create_server(app, "0.0.0.0", 0)
    secure_server_errors(server)
    hold_owing_connections(server, app)
    wait_for_the_pool(server)
    running = threading.Thread(target=server.run, daemon=True)
    running.start()
    try:
        yield server.effective_port, shares, ticks
    finally:
        server.task_dispatcher.shutdown()
        wasyncore.close_all(server._map)
        running.join(WAIT)


def asked(port: int, source: str, path: str = "/rules") -> socket.socket:
    """A raw connection from `source` that has sent one GET and waits for its answer."""
    connection = socket.create_connection(("127.0.0.1", port), WAIT, (source, 0))
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    connection.sendall(request.encode())
    return connection


def answered(connection: socket.socket, within: float) -> bool:
    readable, _, _ = select.select([connection], [], [], within)
    return bool(readable) and connection.recv(64).startswith(b"HTTP/1.1 200")


def test_a_phone_in_debt_is_not_read_until_its_debt_drains_and_the_companion_is_served(
    served: tuple[int, ReadShare, Ticks], phone_address: str
) -> None:
    port, shares, ticks = served
    shares.charge(phone_address, 10.0)  # a flood's worth of server time
    held = asked(port, phone_address)
    companion = asked(port, "127.0.0.1")
    try:
        assert answered(companion, WAIT)  # the companion (loopback) is never held
        assert not answered(held, HELD)  # the phone's request is not even read
        ticks.now += 100.0  # its debt has drained
        assert answered(held, WAIT)  # read and answered at the event loop's next turn
    finally:
        held.close()
        companion.close()


def test_what_the_event_loop_does_for_a_phone_is_charged_to_it_not_to_the_companion(
    served: tuple[int, ReadShare, Ticks], phone_address: str
) -> None:
    port, shares, _ = served
    body = {"pin": "0000" * 200}  # a write: no read share charged by Flask, only the loop's time
    assert Client(port, phone_address).post("/api/host/login", body).code == "wrong_pin"
    assert Client(port, "127.0.0.1").post("/api/host/login", body).code == "wrong_pin"
    assert shares.owed(phone_address) == 0  # well within its burst,
    assert shares.debt(phone_address) > 0  # but charged for reading and answering it
    assert shares.debt("127.0.0.1") == 0
