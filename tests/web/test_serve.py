"""The companion as a real process (`room25 serve`, waitress): the player page's weight, nothing
loaded from elsewhere, and a live stream over a real socket."""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import socket
import time

from serving import PIN, Serve

LIMIT = 150 * 1024  # bytes: the player page with everything it loads


def fetch(server: Serve, path: str) -> tuple[http.client.HTTPResponse, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", path)
    answer = conn.getresponse()
    body = answer.read()
    conn.close()
    return answer, body


def test_the_player_page_weighs_under_150_kb_with_everything_it_loads(server: Serve):
    answer, html = fetch(server, "/")
    assert answer.status == 200
    # What the page loads (scripts, style sheets, images), not the pages it links to (/rules).
    assets = re.findall(r'<(?:script|img|link)[^>]*?(?:src|href)="([^"]+)"', html.decode())
    assert any(a.endswith(".js") for a in assets) and any(a.endswith(".css") for a in assets)
    total = len(html)
    for asset in assets:
        if asset.startswith("data:"):
            continue
        assert asset.startswith("/"), f"{asset} is not served by the Pi"
        answer, body = fetch(server, asset)
        assert answer.status == 200, asset
        total += len(body)
    assert total <= LIMIT, f"{total} bytes"


def test_no_page_script_or_style_reaches_outside_the_pi(server: Serve):
    for path in ("/", "/host", "/table"):
        _, html = fetch(server, path)
        for asset in re.findall(r'(?:src|href)="([^"]+)"', html.decode()):
            assert asset.startswith(("/", "data:")), (path, asset)
            if asset.endswith((".js", ".css")):
                _, body = fetch(server, asset)
                assert not re.search(rb"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", body), asset
        answer, _ = fetch(server, path)
        assert "default-src 'self'" in answer.getheader("Content-Security-Policy")


def test_a_stream_sends_a_comment_at_once_and_updates_live(server: Serve):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as stream:
        stream.sendall(b"GET /api/stream?as=table HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        began = time.monotonic()
        first = stream.recv(4096)
        assert b"text/event-stream" in first
        while b": room25" not in first:
            first += stream.recv(4096)
        assert time.monotonic() - began < 2
        received = first
        while b"event: update" not in received:
            received += stream.recv(65536)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        headers = {"X-Room25": "1", "Content-Type": "application/json"}
        conn.request("POST", "/api/host/login", json.dumps({"pin": PIN}), headers)
        login = conn.getresponse()
        login.read()
        cookie = login.getheader("Set-Cookie").split(";")[0]
        setup = {"setup": {"mode": "suspicion", "players": 5}}
        conn.request("POST", "/api/host/games", json.dumps(setup), {**headers, "Cookie": cookie})
        created = json.loads(conn.getresponse().read())
        assert created["ok"], created
        began = time.monotonic()
        live = b""
        wanted = f'"game":"{created["game"]}"'.encode()
        while wanted not in live and time.monotonic() - began < 5:
            live += stream.recv(65536)
        assert wanted in live
        conn.close()


def test_a_stop_ends_every_stream_and_long_poll_at_once(tmp_path):
    """SIGTERM (systemd's stop, the tests' end) with a stream, the virtual panel's long poll and
    the voice's open: closing the session and the hardware answers each of them, so waitress
    finds no thread to wait for (it waits 5 s, then logs "thread(s) still running")."""
    running = Serve(tmp_path / "data", hardware="virtual").wait_ready()
    held = []
    for path in ("/api/stream?as=table", "/panel/state?frame=999999", "/api/voice/latest?after=0"):
        conn = socket.create_connection(("127.0.0.1", running.port), timeout=30)
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        held.append(conn)
    try:
        assert b"text/event-stream" in held[0].recv(4096)  # the stream is open, its thread held
        assert running.terminate() == 0
        for conn in held:  # each was answered or ended by the server, none left hanging
            with contextlib.suppress(ConnectionResetError):
                while conn.recv(65536):
                    pass
        assert "still running" not in running.stderr
        assert "journal closed" in running.stderr
    finally:
        for conn in held:
            conn.close()
        running.kill()
