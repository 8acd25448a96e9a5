"""The voice's routes: who may read and change what (a real `room25 serve`, phones on the
table's Wi-Fi and the companion itself), bad settings refused in plain words in English and
French with nothing changed, a companion without a voice or without espeak-ng still serving and
answering in words, and twin games (other roles, other programming) whose voice routes answer
the same words at the same moments."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from flask import Flask
from serving import PIN, Phone, Serve

from companion.config import Config
from companion.session import Session
from companion.voice import Voice, start_voice
from companion.voice.script import Line
from companion.voice.sinks import FakeSink
from companion.web import create_app

from .conftest import SETUP, post
from .trusted import Client, network_address

LAN = network_address()
SETTINGS = {"on", "volume", "mute", "quiet", "lang", "table_speaks"}
BAD = [
    ({}, "voice_page_nothing"),
    ({"volume": 1.5}, "voice_page_bad_volume"),
    ({"volume": -0.1}, "voice_page_bad_volume"),
    ({"volume": "0.5"}, "voice_page_bad_volume"),
    ({"volume": True}, "voice_page_bad_volume"),
    ({"mute": "yes"}, "voice_page_bad_switch"),
    ({"quiet": 1}, "voice_page_bad_switch"),
    ({"table_speaks": None}, "voice_page_bad_switch"),
    ({"lang": "xx"}, "voice_page_bad_language"),
    ({"test": False}, "voice_page_bad_test"),
    ({"loud": True}, "voice_page_unknown_field"),
    # One bad field refuses the whole change: the good ones are not taken either.
    ({"mute": True, "lang": "fr", "volume": 3}, "voice_page_bad_volume"),
]


def _settings(client: Client) -> dict:
    answer = client.get("/api/host/voice")
    assert answer.status == 200, answer.body
    return answer.json()


def _until_said(client: Client, after: int) -> dict:
    answer = client.get(f"/api/voice/latest?after={after}")
    assert answer.status == 200, answer.body
    return answer.json()


def test_a_seat_or_a_stranger_may_hear_the_words_and_change_nothing(server: Serve) -> None:
    host = Client(server.port).login()
    before = _settings(host)
    assert before["on"] is True and set(before) == SETTINGS | {"ok"}
    said = host.post("/api/host/voice", {"test": True})
    assert said.status == 200
    words = _until_said(host, 0)
    assert words["text"] == Line.of("turn", turn=1, turns_left=10).text(before["lang"])
    if LAN is None:
        pytest.skip("this machine has no network address")
    seat, stranger = Client(server.port, LAN), Client(server.port, LAN)
    assert host.post("/api/host/games", {"setup": {**SETUP, "seat_claims": "clear"}}).status == 200
    assert seat.post("/api/join", {"seat": "2"}).status == 200
    for caller in (seat, stranger, Client(server.port)):  # the last: at the companion
        for body in ({"mute": True}, {"test": True}):
            refused = caller.post("/api/host/voice", body)
            assert (refused.status, refused.code) == (401, "host_only")
        assert caller.get("/api/host/voice").status == 401
        heard = caller.get("/api/voice/latest")
        assert heard.status == 200
        # The words and how to say them: nothing else (no WAV address off the panel).
        said = {"on", "id", "text", "lang", "speech", "muted", "volume", "table_speaks"}
        assert set(heard.json()) == said
    for caller in (seat, stranger):  # the panel's routes are for whoever sits at the companion
        assert caller.get("/panel/voice/latest").code == "panel_only"
        assert caller.get(f"/panel/voice/{words['id']}.wav").status == 403
    here = Client(server.port).get(f"/panel/voice/{words['id']}.wav")
    assert here.status == 200 and here.headers["Content-Type"] == "audio/wav"
    assert here.body[:4] == b"RIFF"
    assert _settings(host) == before


def test_bad_settings_are_refused_in_words_and_change_nothing(server: Serve) -> None:
    host = Client(server.port).login()
    before = _settings(host)
    for body, code in BAD:
        for lang in ("en", "fr"):
            answer = host.post("/api/host/voice", body, headers={"Cookie": _cookie(host, lang)})
            assert (answer.status, answer.code) == (400, code), (body, lang)
            assert answer.json()["refusal"]["text"] not in ("", code)
            assert _settings(host) == before, body
    english = host.post("/api/host/voice", {"lang": "xx"}).json()["refusal"]["text"]
    french = host.post("/api/host/voice", {"lang": "xx"}, headers={"Cookie": _cookie(host, "fr")})
    assert english != french.json()["refusal"]["text"]
    assert "menu des langues" in french.json()["refusal"]["text"]
    bad_after = host.get("/api/voice/latest?after=soon")
    assert (bad_after.status, bad_after.code) == (400, "bad_request")


def _cookie(client: Client, lang: str) -> str:
    return "; ".join([*(f"{k}={v}" for k, v in client.cookies.items()), f"room25_lang={lang}"])


def test_without_a_voice_every_route_answers_in_words(session: Session) -> None:
    app = create_app(session, None, pin=PIN)  # no voice: off in the config, or not started
    host = app.test_client()
    assert post(host, "/api/host/login", {"pin": PIN}).status_code == 200
    assert host.get("/api/voice/latest?after=0").get_json()["on"] is False
    assert host.get("/panel/voice/latest?after=0").get_json()["on"] is False
    assert host.get("/api/host/voice").get_json() == {
        "ok": True,
        "on": False,
        "table_speaks": False,
    }
    for lang in ("en", "fr"):
        host.set_cookie("room25_lang", lang)
        answer = post(host, "/api/host/voice", {"mute": True})
        assert answer.status_code == 409
        assert answer.get_json()["refusal"]["code"] == "voice_page_off"
        assert answer.get_json()["refusal"]["text"].startswith(("The voice", "La voix"))
    missing = host.get("/panel/voice/1.wav")
    assert missing.status_code == 404 and missing.get_json()["refusal"]["text"]


def test_serve_without_espeak_ng_still_serves_and_the_table_page_gets_the_words(
    tmp_path: Path,
) -> None:
    """espeak-ng missing: nothing to render, yet serve is ready and the words still reach the
    table page (the browser's own speech says them); the panel has no WAV to play."""
    empty = tmp_path / "bin"
    empty.mkdir()
    running = Serve(tmp_path / "data", env={"PATH": str(empty)}, hardware=None).wait_ready()
    try:
        host = Phone(running.url)
        assert host.post("/api/host/login", {"pin": PIN})[0] == 200
        assert host.post("/api/host/voice", {"test": True})[0] == 200
        status, said = host.get("/api/voice/latest?after=0")
        assert status == 200 and said["text"] == Line.of("turn", turn=1, turns_left=10).text("en")
        status, panel = host.get("/panel/voice/latest?after=0")
        assert panel["wav"] is None
    finally:
        running.stop()
    assert running.process.returncode == 0


def test_where_the_companion_has_a_speaker_the_panel_does_not_play_it_again(
    session: Session, tmp_path: Path
) -> None:
    voice = start_voice(session, Config(), sink=FakeSink(), cache_dir=tmp_path / "voice")
    try:
        app = create_app(session, None, pin=PIN, voice=voice)
        voice.say([Line.of("turn", turn=1, turns_left=10)])
        assert voice.idle(10.0)
        panel = app.test_client().get("/panel/voice/latest").get_json()
        table = app.test_client().get("/api/voice/latest").get_json()
    finally:
        voice.close()
    assert panel["wav"] is None and panel["text"] == table["text"] != ""


# --- twin games: other roles, other programming, the same words from the routes ---------------

CLUES = {"1": "B3", "2": "C2", "3": "C4", "4": "D3", "5": "B3"}
DEALS = ({"kevin": "guard"}, {"max": "guard"})
ORDERS = (["look", "move"], ["move", "look"])


@pytest.fixture
def twins(tmp_path: Path) -> Iterator[list[tuple[Session, Voice, Flask]]]:
    if shutil.which("espeak-ng") is None:
        pytest.fail("espeak-ng is missing: apt-get install espeak-ng")
    config = replace(Config(), voice=replace(Config().voice, table_speaks=True))
    found = []
    for n in (0, 1):
        session = Session(tmp_path / f"journal-{n}.sqlite")
        session.open()
        voice = start_voice(session, config, speaker=False, cache_dir=tmp_path / "voice")
        found.append((session, voice, create_app(session, config, pin=PIN, voice=voice)))
    yield found
    for session, voice, _ in found:
        voice.close()
        session.close()


def _heard(session: Session, voice: Voice, app: Flask) -> tuple[dict, dict]:
    assert session.healthy() and voice.idle(10.0)
    table = app.test_client().get("/api/voice/latest").get_json()
    panel = app.test_client().get("/panel/voice/latest").get_json()
    return table, panel


def test_twin_games_hear_the_same_words_at_the_same_moments(twins) -> None:
    heard: list[list[tuple[dict, dict]]] = [[], []]
    for n, (session, voice, app) in enumerate(twins):
        setup = {**SETUP, "seed": 7, "roles": DEALS[n], "rigged": True}
        assert session.host("new_game", setup=setup).ok
        heard[n].append(_heard(session, voice, app))
        for seat, cell in CLUES.items():
            assert session.submit({"type": "clue", "seat": seat, "cell": cell}).ok
            heard[n].append(_heard(session, voice, app))
        view = session.snapshot("public")["view"]
        for cid, character in sorted(view["characters"].items()):
            program = {"type": "program", "seat": character["seat"], "character": cid}
            reply = session.submit({**program, "actions": ORDERS[n], "lock_in": True})
            assert reply.ok, reply
            heard[n].append(_heard(session, voice, app))
    assert heard[0] == heard[1]
    words = [table["text"] for table, _ in heard[0]]
    assert len(set(words)) >= 3, words  # the game was said, not silence
    assert all(table["table_speaks"] for table, _ in heard[0])
