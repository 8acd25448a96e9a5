"""Trust at the table (issue 22), against a real `room25 serve` over HTTP: nobody on the Wi-Fi
presses the table's buttons or reaches it by a stranger's name, the host cannot rig a game
unseen nor quietly take a seat, a seat is taken back with its button, the PIN's network limit
never holds the companion itself, and bodies that broke the server get a plain refusal."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path

import pytest
from serving import Serve

from companion.config import load_config
from companion.engine import deck_as_json, load_deck
from companion.session.seats import STEADY

from .conftest import SETUP
from .trusted import PIN, Client, network_address

LAN = network_address()
needs_lan = pytest.mark.skipif(LAN is None, reason="this machine has no network address")
SAFE = ("X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Content-Security-Policy")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    running = Serve(tmp_path_factory.mktemp("trust")).wait_ready()
    yield running
    running.stop()


def _here(server: Serve) -> Client:
    return Client(server.port)


def _lan(server: Serve) -> Client:
    assert LAN is not None
    return Client(server.port, LAN)


def _version(server: Serve) -> int:
    return _here(server).get("/api/view?as=table").json()["version"]


def _notices(server: Serve) -> list[dict]:
    return _here(server).get("/api/view?as=table").json()["session"]["notices"]


def _game(server: Serve, setup: dict | None = None) -> Client:
    host = _here(server).login()
    answer = host.post("/api/host/games", {"setup": {"seat_claims": "clear", **(setup or SETUP)}})
    assert answer.status == 200, answer.body
    return host


def _seated(server: Serve, seats: str = "12345") -> dict[str, Client]:
    phones = {}
    for seat in seats:
        phone = _here(server)
        assert phone.post("/api/join", {"seat": seat}).status == 200
        phones[seat] = phone
    return phones


def _play_clues(phones: dict[str, Client]) -> None:
    for phone in phones.values():
        answer = phone.post("/api/commands", {"command": {"type": "clue", "cell": "B3"}})
        assert answer.status == 200, answer.body


# --- names and the virtual panel ---


def test_a_name_that_is_not_the_companions_is_refused_on_every_route(server: Serve):
    """DNS rebinding: a page served by rebind.example, whose name now points here, sends its own
    name as Host and as Origin. Before: the panel's Back undid a command for it."""
    host = _game(server)
    phones = _seated(server)
    _play_clues(phones)
    before = _version(server)
    stranger = {"Host": "rebind.example", "Origin": "http://rebind.example"}
    here = _here(server)
    for method, path in [("GET", "/"), ("GET", "/api/view"), ("GET", "/panel/oled.png")]:
        answer = here.send(method, path, headers=stranger)
        assert (answer.status, answer.code) == (400, "unknown_host"), path
        assert answer.json()["refusal"]["text"]
    undo = here.post("/panel/controls/back", {"long": True}, headers=stranger)
    assert (undo.status, undo.code) == (400, "unknown_host")
    assert host.post("/api/host/undo", headers=stranger).status == 400
    assert _version(server) == before
    names = ["localhost", socket.gethostname(), f"{socket.gethostname()}.local", "[::1]"]
    for name in [*names, *([LAN] if LAN else [])]:
        answer = here.get("/api/seats", headers={"Host": f"{name}:{server.port}"})
        assert answer.status == 200, name


UNRESOLVABLE = "room25-nowhere.invalid"  # .invalid: no resolver may answer it (RFC 6761)
# A UTS namespace of its own, named UNRESOLVABLE: this machine's hostname and /etc/hosts untouched.
RENAMED = ("unshare", "--uts", "sh", "-c", 'hostname "$0" && exec "$@"', UNRESOLVABLE)
LOOKUP = "import socket; socket.getaddrinfo(socket.gethostname(), None)"


@needs_lan
@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None, reason="needs root and unshare"
)
def test_a_hostname_that_does_not_resolve_still_takes_the_join_address(tmp_path: Path):
    """A fresh Debian or a renamed Pi whose hostname has no address: the address on the QR code
    (the interface's) is still the companion's own. Before: 400 unknown_host to every phone."""
    lookup = subprocess.run(
        [*RENAMED, sys.executable, "-c", LOOKUP], capture_output=True, text=True
    )
    assert lookup.returncode != 0 and "gaierror" in lookup.stderr  # the name resolves to nothing
    (tmp_path / "data").mkdir()
    server = Serve(tmp_path / "data", wrap=RENAMED).wait_ready()
    try:
        answer = _lan(server).get("/api/seats")
        assert answer.status == 200, answer.body
    finally:
        server.stop()


@needs_lan
def test_the_virtual_panel_answers_nobody_on_the_wifi(server: Serve):
    """Before: an anonymous phone undid the host's last command with a long Back, locked seats
    in and saw the OLED (which may show the PIN)."""
    _game(server)
    _play_clues(_seated(server))
    before = _version(server)
    phone = _lan(server)
    for path in ["/panel", "/panel/oled.png", "/panel/state", "/panel/patterns.json"]:
        answer = phone.get(path)
        assert (answer.status, answer.code) == (403, "panel_only"), path
    for path, body in [
        ("/panel/controls/back", {"long": True}),
        ("/panel/controls/menu", {}),
        ("/panel/controls/next", {}),
        ("/panel/seats/3/press", {}),
        ("/panel/seats/3/press", {"long": True}),
    ]:
        answer = phone.post(path, body)
        assert (answer.status, answer.code) == (403, "panel_only"), path
    assert _version(server) == before
    assert _here(server).get("/panel/patterns.json").status == 200  # at the companion
    host = _lan(server).login()  # the host, on his phone
    assert host.get("/panel/patterns.json").status == 200
    assert host.get("/panel/oled.png").status == 200


@needs_lan
def test_panel_allow_lets_a_tablet_press_the_panel(tmp_path: Path):
    config = tmp_path / "room25.toml"
    config.write_text(f'[panel]\nallow = ["{LAN}/32"]\n')
    data = tmp_path / "data"
    data.mkdir()
    tablet = Serve(data, args=("--config", str(config))).wait_ready()
    try:
        assert Client(tablet.port, LAN).get("/panel/patterns.json").status == 200
        pressed = Client(tablet.port, LAN).post("/panel/controls/next", {})
        assert pressed.status in (200, 409) and "ok" in pressed.json()
    finally:
        tablet.stop()


def test_a_seat_press_from_a_phone_is_that_seats_own(server: Serve):
    _game(server)
    phones = _seated(server)
    other = phones["1"].post("/api/seats/2/press")
    assert (other.status, other.code) == (403, "not_your_seat")
    nobody = _here(server).post("/api/seats/2/press")
    assert (nobody.status, nobody.code) == (401, "no_seat")


# --- bodies that broke the server ---


def _write_paths(server: Serve) -> list[str]:
    document = _here(server).get("/api/openapi.json").json()
    paths = [p for p, item in document["paths"].items() if "post" in item]
    return [p.replace("{seat}", "2").replace("{button}", "next") for p in paths]


def test_deep_or_odd_bodies_get_a_plain_refusal_on_every_write(server: Serve):
    """Before: a body nested 5,000 deep (10 KB) gave a RecursionError (500) on every write; a
    list sent to /panel/controls/* an AttributeError (500); a PIN of a lone surrogate a 500."""
    _game(server)
    before = _version(server)
    host = _here(server).login()
    deep = b"[" * 5000 + b"]" * 5000
    paths = _write_paths(server)
    assert len(paths) >= 16
    for path in paths:
        answer = host.post(path, raw=deep)
        assert (answer.status, answer.code) == (400, "too_deep"), path
        listed = host.post(path, raw=b"[1, 2]")
        assert (listed.status, listed.code) == (400, "not_an_object"), path
    for button in ("next", "back", "menu"):
        answer = host.post(f"/panel/controls/{button}", [{"long": True}])
        assert (answer.status, answer.code) == (400, "not_an_object")
        odd = host.post(f"/panel/controls/{button}", {"long": "yes"})
        assert (odd.status, odd.code) == (400, "not_a_press")
    lone = _here(server).post("/api/host/login", raw=b'{"pin": "\\ud800"}')
    assert (lone.status, lone.code) == (400, "bad_text")
    assert "Unicode" in lone.json()["refusal"]["text"]
    setup = host.post("/api/host/games", raw=b'{"setup": {"edition": "base", "note": "\\udfff"}}')
    assert (setup.status, setup.code) == (400, "bad_text")
    assert _version(server) == before
    assert host.post("/api/host/pause").status == 409  # the next write is heard as usual


def _raw(server: Serve, request: bytes) -> bytes:
    """What waitress answers a request it reads itself (it may close before reading it all)."""
    found = b""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        try:
            sock.sendall(request)
            while chunk := sock.recv(65536):
                found += chunk
        except ConnectionResetError:
            pass
    return found


def test_waitress_own_error_answers_carry_the_safe_headers(server: Serve):
    """Before: waitress' own 400 and 431 (a request it cannot parse) had none."""
    huge = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 300_000 + b"\r\n\r\n"
    bad = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: nine\r\n\r\n"
    for request, status in [(huge, b" 431 "), (bad, b" 400 ")]:
        answer = _raw(server, request)
        head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1")
        assert status.decode() in head.splitlines()[0], head
        for name in SAFE:
            assert f"\n{name}: " in head, (name, head)


# --- rigged games ---


def test_the_setup_fields_that_rig_a_game_need_a_rigged_game_said_everywhere(server: Serve):
    """Before: seed, roles and complex were taken from the host page's API unseen."""
    host = _here(server).login()
    _game(server)
    before = _here(server).get("/api/view?as=table").json()["game"]
    rigs = [
        {"seed": 7},
        {"roles": {"1": "guard"}},
        {"complex": ["central"] * 25},
        {"seed": 7, "rigged": False},
    ]
    for rig in rigs:
        answer = host.post("/api/host/games", {"setup": {**SETUP, **rig}})
        assert (answer.status, answer.code) == (400, "rigging_not_allowed"), rig
        assert answer.json()["refusal"]["text"]
    assert host.post("/api/host/games", {"setup": {**SETUP, "rigged": "yes"}}).status == 400
    assert _here(server).get("/api/view?as=table").json()["game"] == before
    rigged = host.post("/api/host/games", {"setup": {**SETUP, "seed": 7, "rigged": True}})
    assert rigged.status == 200, rigged.body
    table = _here(server).get("/api/view?as=table").json()
    assert table["session"]["rigged"] is True
    assert "rigged_game" in [n["code"] for n in table["session"]["notices"]]
    phone = _seated(server, "1")["1"]
    assert phone.get("/api/view").json()["session"]["rigged"] is True
    fair = host.post("/api/host/games", {"setup": SETUP})
    assert fair.status == 200
    table = _here(server).get("/api/view?as=table").json()
    assert table["session"]["rigged"] is False
    assert "rigged_game" not in [n["code"] for n in table["session"]["notices"]]


# --- seats asked for, given with the seat button ---


def _codes(server: Serve) -> list[str]:
    return [n["code"] for n in _notices(server)]


def test_a_seat_is_taken_back_by_holding_its_button_while_the_phone_asks(server: Serve):
    """Before: a phone that lost its cookie could only wait for the host, and the host could
    free a seat mid-game and take it from another phone, unseen."""
    _game(server)
    phones = _seated(server)
    _play_clues(phones)  # under way: any seat is now asked for
    lost = _here(server)  # seat 3's player, on a phone that lost its cookie
    nothing = _here(server).post("/panel/seats/3/press", {"long": True})
    assert (nothing.status, nothing.json()["code"]) == (409, "no_seat_request")
    asked = lost.post("/api/join", {"seat": "3"})
    assert asked.status == 202
    body = asked.json()
    assert body["pending"] is True and body["code"] == "hold_seat_button"
    assert len(body["ask"]) == 2 and body["ask"].isdigit()
    assert body["ask"] in body["text"]
    seen = [n for n in _notices(server) if n["code"] == "seat_asked"]
    assert seen == [
        {"code": "seat_asked", "params": {"seat": "3", "ask": body["ask"]}, "text": seen[0]["text"]}
    ]
    assert lost.get("/api/seats").json()["asking"] == {"seat": "3", "ask": body["ask"]}
    assert lost.get("/api/seats").json()["mine"] is None
    early = _here(server).post("/panel/seats/3/press", {"long": True})  # the code just appeared
    assert (early.status, early.json()["code"]) == (409, "seat_request_changed")
    time.sleep(STEADY)  # shown long enough for the player to check it
    held = _here(server).post("/panel/seats/3/press", {"long": True})
    assert held.status == 200, held.body
    assert lost.get("/api/seats").json()["mine"] == "3"
    assert phones["3"].get("/api/seats").json()["mine"] is None  # the old phone lost it
    assert "seat_asked" not in _codes(server)
    assert "seat_taken_back" in _codes(server)
    assert lost.get("/api/view").json()["view"] is not None  # it reads seat 3 again


def test_a_newer_ask_replaces_the_older_and_a_seat_the_host_freed_is_taken_by_a_tap(
    server: Serve,
):
    host = _game(server)
    phones = _seated(server)
    _play_clues(phones)
    taker = _here(server)
    first = taker.post("/api/join", {"seat": "4"})
    assert first.status == 202  # the game is under way and seat 4 is held: asked, not taken
    second = _here(server).post("/api/join", {"seat": "4"})
    assert second.status == 202 and second.json()["ask"] != first.json()["ask"]
    asks = [n["params"]["ask"] for n in _notices(server) if n["code"] == "seat_asked"]
    assert asks == [second.json()["ask"]]
    assert taker.get("/api/seats").json()["asking"] is None
    assert taker.post("/api/join", {"seat": "5"}).status == 202  # asks elsewhere instead
    assert taker.post("/api/join", {"seat": "3"}).status == 202
    asked = {n["params"]["seat"] for n in _notices(server) if n["code"] == "seat_asked"}
    assert asked == {"4", "3"}  # one request per phone: its ask for seat 5 was dropped
    freed = host.post("/api/host/seats/4/reset")
    assert freed.status == 200 and freed.json()["freed"] is True
    assert "seat_freed_by_host" in _codes(server)
    asked = {n["params"]["seat"] for n in _notices(server) if n["code"] == "seat_asked"}
    assert asked == {"3"}  # seat 4's request dropped: the seat is a tap away now
    newcomer = _here(server)
    assert newcomer.post("/api/join", {"seat": "4"}).status == 200  # mid-game, by a tap
    assert newcomer.get("/api/seats").json()["mine"] == "4"
    assert _here(server).post("/api/join", {"seat": "4"}).status == 202  # held again: asked


def test_the_host_gives_an_asked_seat_publicly(server: Serve):
    host = _game(server)
    phones = _seated(server)
    _play_clues(phones)
    other = _here(server)
    assert other.post("/api/join", {"seat": "2"}).status == 202
    refused = phones["1"].post("/api/host/seats/2/give")
    assert (refused.status, refused.code) == (401, "host_only")
    time.sleep(STEADY)
    given = host.post("/api/host/seats/2/give")
    assert given.status == 200, given.body
    assert other.get("/api/seats").json()["mine"] == "2"
    assert phones["2"].get("/api/seats").json()["mine"] is None
    assert "seat_given_by_host" in _codes(server)
    again = host.post("/api/host/seats/2/give")
    assert (again.status, again.code) == (409, "no_seat_request")


def test_seat_claims_belong_to_a_game_by_the_hosts_choice(server: Serve):
    host = _game(server)
    assert host.get("/api/host/wizard").json()["seat_claims"] == ["keep", "clear"]
    phones = _seated(server)
    kept = host.post("/api/host/games", {"setup": {**SETUP, "seat_claims": "keep"}})
    assert kept.status == 200
    assert [p.get("/api/seats").json()["mine"] for p in phones.values()] == list("12345")
    assert host.post("/api/host/games", {"setup": {**SETUP, "seat_claims": "?"}}).status == 400
    cleared = host.post("/api/host/games", {"setup": {**SETUP, "seat_claims": "clear"}})
    assert cleared.status == 200
    assert [p.get("/api/seats").json()["mine"] for p in phones.values()] == [None] * 5
    seats = _here(server).get("/api/seats").json()["seats"]
    assert not any(s["taken"] for s in seats)
    assert _here(server).post("/api/join", {"seat": "1"}).status == 200  # a tap, as before


def test_a_long_menu_never_pauses_the_clock(server: Serve):
    """A long Menu shows the PIN on the OLED (the hardware); the session's clock is left alone."""
    _game(server, {**SETUP, "tracking": "countdown", "time_limit": 600})
    here = _here(server)
    here.post("/panel/controls/menu", {"long": True})
    assert here.get("/api/view?as=table").json()["session"]["paused"] is False
    assert here.post("/panel/controls/menu", {}).status == 200
    assert here.get("/api/view?as=table").json()["session"]["paused"] is True


# --- the PIN ---


def test_the_host_page_reads_the_pin_once_logged_in(server: Serve):
    assert _here(server).get("/api/host/pin").status == 401
    assert _here(server).login().get("/api/host/pin").json() == {"pin": PIN}


@needs_lan
def test_the_network_pin_limit_never_holds_the_companion_itself(tmp_path: Path):
    """Before: the slow-down was per address only (40 addresses made 30 guesses a second)."""
    data = tmp_path / "data"
    data.mkdir()
    running = Serve(data).wait_ready()
    try:
        for n in range(2, 14):  # twelve clients on this machine's loopback, one guess each
            guess = Client(running.port, "127.0.0.1", source=f"127.0.0.{n}")
            assert guess.post("/api/host/login", {"pin": "000000"}).status == 403
        phone = Client(running.port, LAN)
        busy = phone.post("/api/host/login", {"pin": PIN})  # even the right PIN waits
        assert (busy.status, busy.code) == (429, "pin_busy")
        assert busy.json()["refusal"]["params"]["seconds"] >= 1
        assert Client(running.port).post("/api/host/login", {"pin": PIN}).status == 200
    finally:
        running.stop()


def test_the_server_answers_as_its_document_says(server: Serve):
    """Before: a wrong method was refused by the CSRF guard (403), and `{"count": 1.0}`, an
    integer to JSON Schema, was refused by undo."""
    here = _here(server)
    for path in ("/api/seats", "/api/view", "/api/openapi.json"):
        answer = here.send("POST", path, raw=b"{}", headers={"X-Room25": "0"})
        assert (answer.status, answer.code) == (405, "not_allowed"), path
    assert here.send("PUT", "/api/join", raw=b"{}").status == 405
    host = _game(server)
    undone = host.post("/api/host/undo", {"count": 1.0})  # heard: nothing to undo yet
    assert (undone.status, undone.code) == (409, "nothing_to_undo"), undone.body
    assert host.post("/api/host/undo", {"count": 1.5}).code == "bad_count"


def test_a_bad_panel_allow_setting_is_logged_and_left_out(tmp_path: Path, caplog):
    config = tmp_path / "room25.toml"
    config.write_text('[panel]\nallow = ["192.168.1.300", "tablet"]\n')
    assert load_config(config).panel.allow == ()
    assert "panel.allow" in caplog.text and "line 2" in caplog.text
    config.write_text('[panel]\nallow = ["192.168.1.30", "10.0.0.0/24"]\n')
    assert load_config(config).panel.allow == ("192.168.1.30", "10.0.0.0/24")


def test_the_packaged_mac_deck_can_be_sent_as_a_setups_deck(server: Serve):
    """The owner's own count of the M.A.C. deck goes with the setup (docs/mac-deck.md): the
    packaged file with the Madness cards' words written in it (as an owner's file of his own
    cards carries them), sent indented as a person would paste it, fits; a body far past any
    setup is still refused, and every other write keeps the small limit."""
    packaged = json.loads((files("companion.engine") / "data" / "mac_deck.json").read_text("utf-8"))
    worded = {card["id"]: card for card in deck_as_json(load_deck())["cards"]}
    for card in packaged["cards"]:
        if card["level"] == "madness":
            shown = worded[card["id"]]
            card.update({k: v for k, v in shown.items() if k.startswith(("name_", "text_"))})
    setup = {"edition": "season2", "mode": "cooperation", "players": 4, "deck": packaged}
    raw = json.dumps({"setup": setup}, indent=2).encode()
    assert len(raw) > 16 * 1024  # what the probe saw refused with a 413
    host = _here(server).login()
    answer = host.post("/api/host/games", raw=raw)
    assert answer.status == 200, answer.body
    huge = json.dumps({"setup": {**setup, "pad": "x" * (70 * 1024)}}).encode()
    assert host.post("/api/host/games", raw=huge).status == 413
    assert host.post("/api/host/undo", raw=raw).status == 413


@needs_lan
def test_one_address_cannot_keep_replacing_a_seats_request(tmp_path: Path):
    """Before: every request for a taken seat replaced the one shown (and its code), so a phone
    asking again and again, a new cookie each time, kept the seat's own player from ever taking
    it back. Now one address asks four times in a row, then once every 20 s."""
    data = tmp_path / "data"
    data.mkdir()
    running = Serve(data).wait_ready()
    try:
        _game(running)
        _play_clues(_seated(running))
        for _ in range(4):
            assert _lan(running).post("/api/join", {"seat": "3"}).status == 202
        shown = _notices(running)
        pest = _lan(running).post("/api/join", {"seat": "3"})
        assert (pest.status, pest.code) == (429, "seat_asks_wait")
        assert "s, or ask the host" in pest.json()["refusal"]["text"]
        assert _notices(running) == shown  # the code on the screens is still the last one
        assert _here(running).post("/api/join", {"seat": "3"}).status == 202  # at the companion
    finally:
        running.stop()
