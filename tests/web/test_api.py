"""The JSON API through Flask's test client over a real Session and SQLite journal: joining,
commands, the host's controls, the CSRF guard, size limits and PIN guessing."""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.config import Config, Web
from companion.lan import join_host
from companion.web import create_app

from .conftest import PIN, SETUP, WRITE, phone, post


def version(client: FlaskClient) -> int:
    return client.get("/api/view?as=table").get_json()["version"]


def test_joining_sets_a_long_httponly_strict_cookie(app: Flask, game: dict):
    client = app.test_client()
    answer = post(client, "/api/join", {"seat": "3"})
    assert answer.status_code == 200
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    secret = cookie.split(";")[0].split("=", 1)[1]
    assert len(secret) >= 40
    assert secret not in json.dumps(answer.get_json())


def test_a_taken_seat_is_only_asked_for_by_another_phone_and_kept_by_its_own(
    app: Flask, game: dict
):
    first = phone(app, "2")
    other = app.test_client()
    taken = post(other, "/api/join", {"seat": "2"})
    assert taken.status_code == 202  # asked for: its seat button gives it (test_seat_claims)
    assert taken.get_json()["pending"] is True
    again = post(first, "/api/join", {"seat": "2"})  # a reload of the same phone
    assert again.status_code == 200
    assert first.get("/api/seats").get_json()["mine"] == "2"
    assert other.get("/api/seats").get_json()["mine"] is None


def test_a_seat_outside_the_game_or_malformed_is_refused(app: Flask, game: dict):
    client = app.test_client()
    assert post(client, "/api/join", {"seat": "7"}).get_json()["refusal"]["code"] == (
        "seat_not_in_game"
    )
    assert post(client, "/api/join", {"seat": "x"}).status_code == 400
    assert post(client, "/api/join", {"seat": 3}).status_code == 400
    assert post(client, "/api/join", {"seat": "3\n"}).status_code == 400


def test_the_host_frees_a_seat_for_another_phone(app: Flask, host: FlaskClient, game: dict):
    old = phone(app, "4")
    assert post(host, "/api/host/seats/4/reset").status_code == 200
    assert old.get("/api/seats").get_json()["mine"] is None
    assert old.get("/api/view?as=seat").status_code == 401
    phone(app, "4")


def test_a_command_from_a_seat_is_applied_and_bumps_the_version(phones: dict, host: FlaskClient):
    before = version(host)
    answer = post(phones["1"], "/api/commands", {"command": {"type": "clue", "cell": "B3"}})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["ok"] is True
    assert version(host) > before


def test_a_refused_command_says_why_and_changes_nothing(phones: dict, host: FlaskClient):
    before = version(host)
    answer = post(phones["1"], "/api/commands", {"command": {"type": "clue", "cell": "A1"}})
    assert answer.status_code == 409
    refusal = answer.get_json()["refusal"]
    assert refusal["code"] and refusal["code"] != "refused"
    assert len(refusal["text"]) > 10
    assert version(host) == before


def test_a_refusal_comes_in_the_phones_language(phones: dict):
    command = {"command": {"type": "clue", "cell": "A1"}}
    en = post(phones["2"], "/api/commands", command, **{"Accept-Language": "en"}).get_json()
    fr = post(phones["2"], "/api/commands", command, **{"Accept-Language": "fr-FR,fr"}).get_json()
    assert en["refusal"]["code"] == fr["refusal"]["code"]
    assert en["refusal"]["text"] != fr["refusal"]["text"]


def test_nobody_and_other_seats_cannot_act(app: Flask, phones: dict, host: FlaskClient):
    before = version(host)
    nobody = post(app.test_client(), "/api/commands", {"command": {"type": "clue", "cell": "B3"}})
    assert nobody.status_code == 401
    assert nobody.get_json()["refusal"]["code"] == "no_seat"
    other = post(
        phones["1"], "/api/commands", {"command": {"type": "clue", "seat": "2", "cell": "B3"}}
    )
    assert other.status_code == 403
    press = post(phones["1"], "/api/seats/2/press")
    assert press.status_code == 403
    as_table = post(phones["1"], "/api/commands", {"command": {"type": "next", "seat": "host"}})
    assert as_table.status_code == 401
    assert version(host) == before


def test_writes_need_the_csrf_header_a_json_body_and_our_origin(phones: dict, host: FlaskClient):
    client = phones["1"]
    command = {"command": {"type": "clue", "cell": "B3"}}
    before = version(host)
    no_header = client.post("/api/commands", json=command)
    assert no_header.status_code == 403
    assert no_header.get_json()["refusal"]["code"] == "csrf_header"
    form = client.post("/api/commands", data={"command": "x"}, headers=WRITE)
    assert form.status_code == 415
    foreign = client.post(
        "/api/commands", json=command, headers={**WRITE, "Origin": "http://evil.example"}
    )
    assert foreign.status_code == 403
    assert foreign.get_json()["refusal"]["code"] == "csrf_origin"
    null = client.post("/api/commands", json=command, headers={**WRITE, "Origin": "null"})
    assert null.status_code == 403
    assert version(host) == before
    ours = client.post(
        "/api/commands", json=command, headers={**WRITE, "Origin": "http://localhost"}
    )
    assert ours.status_code == 200, ours.get_json()


def test_a_request_too_large_is_refused(phones: dict):
    padding = "x" * (20 * 1024)
    answer = post(phones["1"], "/api/commands", {"command": {"type": "clue", "pad": padding}})
    assert answer.status_code == 413
    assert answer.get_json()["refusal"]["code"] == "too_large"


def test_bad_requests_get_a_plain_4xx(phones: dict):
    client = phones["1"]
    not_object = client.post(
        "/api/commands", data="[1, 2]", headers={**WRITE, "Content-Type": "application/json"}
    )
    assert not_object.status_code == 400
    broken = client.post(
        "/api/commands", data="{", headers={**WRITE, "Content-Type": "application/json"}
    )
    assert broken.status_code == 400
    missing = client.get("/api/nothing-here", headers={"Accept-Language": "fr"})
    assert missing.status_code == 404
    assert missing.get_json()["refusal"]["text"] == "Il n'y a rien ici."
    wrong_method = client.get("/api/commands")
    assert wrong_method.status_code == 405


def test_a_table_command_of_no_known_type_is_refused(host: FlaskClient, game: dict):
    for kind in (["next"], {"a": 1}, "lock", None):
        command = {"command": {"type": kind, "seat": "host"}}
        answer = post(host, "/api/commands", command)
        assert answer.status_code == 403, kind
        assert answer.get_json()["refusal"]["code"] == "not_for_host"


def test_a_wrong_pin_slows_the_next_guess(app: Flask):
    client = app.test_client()
    wrong = post(client, "/api/host/login", {"pin": "000000"})
    assert wrong.status_code == 403
    right_too_soon = post(client, "/api/host/login", {"pin": PIN})
    assert right_too_soon.status_code == 429
    assert "wait" in right_too_soon.get_json()["refusal"]["text"]
    assert "room25_host" not in right_too_soon.headers.get("Set-Cookie", "")
    assert post(client, "/api/host/games", {"setup": {}}).status_code == 401


def test_host_controls_need_the_host(app: Flask, phones: dict, host: FlaskClient):
    for path in ("/api/host/undo", "/api/host/pause", "/api/host/resume", "/api/host/end"):
        assert (
            post(phones["1"], path, {"count": 1} if path.endswith("undo") else {}).status_code
            == 401
        )
    assert post(phones["1"], "/api/host/seats/2/reset").status_code == 401
    assert phones["1"].get("/api/host/games").status_code == 401
    assert phones["1"].get("/api/view?as=host").status_code == 401


def test_pause_and_resume_the_programming_clock(app: Flask, host: FlaskClient, game: dict):
    no_clock = post(host, "/api/host/pause")
    assert no_clock.status_code == 409
    assert no_clock.get_json()["refusal"]["text"]
    timed = post(host, "/api/host/games", {"setup": {**SETUP, "time_limit": 60}})
    assert timed.status_code == 200, timed.get_json()
    seated = [phone(app, seat) for seat in "12345"]  # every phone seated before play
    for client in seated:
        clue = {"command": {"type": "clue", "cell": "B3"}}
        assert post(client, "/api/commands", clue).status_code == 200
    assert host.get("/api/view?as=host").get_json()["waiting"]["phase"] == "programming"
    assert post(host, "/api/host/pause").status_code == 200
    assert host.get("/api/view?as=host").get_json()["session"]["paused"] is True
    assert post(host, "/api/host/resume").status_code == 200
    assert host.get("/api/view?as=host").get_json()["session"]["paused"] is False


def test_undo_and_end(app: Flask, host: FlaskClient):
    tokens = {**SETUP, "settings": {"programming": "tokens"}}
    assert post(host, "/api/host/games", {"setup": tokens}).status_code == 200
    seats = {seat: phone(app, seat) for seat in "12345"}
    for client in seats.values():
        assert (
            post(client, "/api/commands", {"command": {"type": "clue", "cell": "B3"}}).status_code
            == 200
        )
    assert post(seats["3"], "/api/seats/3/press").status_code == 200
    assert "3" in host.get("/api/view?as=host").get_json()["waiting"]["locked_in"]
    assert post(host, "/api/host/undo", {"count": 1}).status_code == 200
    assert "3" not in host.get("/api/view?as=host").get_json()["waiting"]["locked_in"]
    assert post(host, "/api/host/undo", {"count": 0}).status_code == 400
    game = host.get("/api/view?as=host").get_json()["game"]
    assert host.get(f"/api/host/games/{game}/reveal").status_code == 409  # still being played
    assert post(host, "/api/host/end").status_code == 200
    assert host.get("/api/view?as=host").get_json()["game"] is None
    reveal = host.get(f"/api/host/games/{game}/reveal").get_json()
    roles = [c["role"] for c in reveal["view"]["characters"].values()]
    assert len(roles) == 5 and set(roles) <= {"prisoner", "guard"} and "guard" in roles
    assert set(reveal["view"]["notebooks"]) == set("12345")
    assert seats["1"].get(f"/api/host/games/{game}/reveal").status_code == 401
    past = host.get("/api/host/games").get_json()["games"]
    assert any(g["game"] == game and g["status"] == "ended" for g in past)
    exported = host.get(f"/api/host/games/{game}/export")
    assert exported.status_code == 200 and exported.get_json()["game"] == game
    for unknown in ("no-such-game", "not%20an%20id"):
        assert host.get(f"/api/host/games/{unknown}/export").status_code == 404
        assert host.get(f"/api/host/games/{unknown}/reveal").status_code == 404


def test_each_caller_reads_its_own_view(app: Flask, phones: dict, host: FlaskClient):
    mine = phones["1"].get("/api/view").get_json()
    assert mine["view"]["seat"] == "1"
    own = [c for c in mine["view"]["characters"].values() if c["seat"] == "1"]
    others = [c for c in mine["view"]["characters"].values() if c["seat"] != "1"]
    assert own and all(c["role"] in ("prisoner", "guard") for c in own)
    assert all(c["role"] is None for c in others)
    public = app.test_client().get("/api/view").get_json()
    assert "notebook" not in public["view"]
    assert all(c["role"] is None for c in public["view"]["characters"].values())


def test_a_seat_reads_its_own_legal_commands_and_no_other_seats(
    app: Flask, phones: dict, host: FlaskClient
):
    mine = phones["1"].get("/api/view").get_json()
    assert mine["legal"] and all(c["seat"] == "1" for c in mine["legal"])
    other = phones["2"].get("/api/view").get_json()
    assert other["legal"] and all(c["seat"] == "2" for c in other["legal"])
    assert not any(c in other["legal"] for c in mine["legal"])
    table_commands = host.get("/api/view?as=host").get_json()["legal"]
    assert all(c["seat"] == "host" for c in table_commands)  # the table's own, never a seat's
    assert "legal" not in app.test_client().get("/api/view?as=table").get_json()
    offered = mine["legal"][0]
    answer = post(
        phones["1"], "/api/commands", {"command": {**offered, "version": mine["version"]}}
    )
    assert answer.status_code == 200, answer.get_json()


def test_the_openapi_document_carries_the_engines_command_schema(app: Flask):
    document = app.test_client().get("/api/openapi.json").get_json()
    assert document["openapi"].startswith("3.1")
    schemas = document["components"]["schemas"]
    refs = [r["$ref"] for r in schemas["Command"]["oneOf"]]
    assert "#/components/schemas/clue" in refs and "#/components/schemas/lock" in refs
    assert all(ref.rsplit("/", 1)[1] in schemas for ref in refs)
    assert "$defs" not in json.dumps(document)
    assert {"/api/commands", "/api/join", "/api/host/login", "/api/stream"} <= set(
        document["paths"]
    )


def test_the_wizard_lists_the_tiles_to_take_out(host: FlaskClient):
    found = host.get("/api/host/wizard?edition=base&mode=suspicion&players=5").get_json()
    assert 5 in found["players"]
    assert found["characters_per_seat"] == 1
    assert sum(line["count"] for line in found["tiles"]) == 25
    bad = host.get("/api/host/wizard?edition=base&mode=suspicion&players=9").get_json()
    assert "error" in bad


@pytest.mark.parametrize(
    ("asked", "english", "french"),
    [
        ("edition=base&mode=team&players=5", "Players in Team: 4 or 6.",
         "Joueurs en Équipe\u00a0: 4 ou 6."),
        ("edition=base&mode=solo&players=2", "Players in Solo: 1.", "Joueurs en Solo\u00a0: 1."),
        ("edition=nine&mode=solo&players=1", "Unknown edition 'nine'", "Édition inconnue « nine »"),
        ("edition=base&mode=duel&players=2", "Unknown mode 'duel'", "Mode inconnu « duel »"),
    ],
)  # fmt: skip
def test_the_wizard_says_a_bad_choice_in_the_hosts_language(host, asked, english, french):
    """Issue 30: the wizard's refusals are the catalogue's, in the language the host reads."""
    said = {}
    for lang in ("en", "fr"):
        answer = host.get(f"/api/host/wizard?{asked}", headers={"Accept-Language": lang})
        said[lang] = answer.get_json()["error"]
    assert said["en"].startswith(english)
    assert french in said["fr"] and said["fr"] != said["en"]


def test_a_bug_is_logged_and_answered_without_detail(app: Flask, caplog):
    def broken():
        raise RuntimeError("detail that must stay in the log")

    app.add_url_rule("/api/broken", "broken", broken)
    answer = app.test_client().get("/api/broken", headers={"Accept-Language": "fr"})
    assert answer.status_code == 500
    assert answer.get_json()["refusal"]["code"] == "server_error"
    assert "detail" not in answer.get_data(as_text=True)
    assert "GET /api/broken failed" in caplog.text
    assert "detail that must stay in the log" in caplog.text


def test_a_phone_on_a_seat_the_new_game_lacks_reads_no_view(app: Flask, host: FlaskClient):
    eight = {"edition": "season2", "mode": "suspicion", "players": 8}
    assert post(host, "/api/host/games", {"setup": eight}).status_code == 200
    late = phone(app, "8")
    assert post(host, "/api/host/games", {"setup": SETUP}).status_code == 200
    snapshot = late.get("/api/view").get_json()
    assert snapshot["game"] is not None and snapshot["view"] is None
    assert post(late, "/api/join", {"seat": "2"}).status_code == 200
    assert late.get("/api/view").get_json()["view"]["seat"] == "2"


def test_the_public_log_holds_the_public_record_only(app: Flask, phones: dict, host: FlaskClient):
    assert (
        post(phones["1"], "/api/commands", {"command": {"type": "clue", "cell": "B3"}}).status_code
        == 200
    )
    log = app.test_client().get("/api/log").get_json()
    kinds = [e["type"] for e in log["events"]]
    assert "game_created" in kinds and "clue_taken" in kinds
    assert all(e.get("private") is None for e in log["events"])
    created = next(e for e in log["events"] if e["type"] == "game_created")
    assert created["rng"] is None
    assert post(host, "/api/host/end").status_code == 200
    assert app.test_client().get("/api/log").get_json() == {"game": None, "events": []}


def test_the_log_of_a_game_over_on_the_table_is_still_the_public_record(
    app: Flask, host: FlaskClient
):
    """Once a game is over its export holds every secret (the seed, the roles dealt); the table
    page's log, rebuilt from it while the game is still on the table, must not."""
    countdown = {**SETUP, "tracking": "countdown"}
    game = post(host, "/api/host/games", {"setup": countdown}).get_json()["game"]
    during = app.test_client().get("/api/log").get_json()["events"]
    everyone = sorted(host.get("/api/view?as=host").get_json()["view"]["characters"])
    report = {"type": "report", "seat": "host", "event": "escaped", "characters": everyone}
    assert post(host, "/api/commands", {"command": report}).status_code == 200
    assert host.get("/api/view?as=host").get_json()["waiting"]["phase"] == "over"
    log = app.test_client().get("/api/log").get_json()
    assert log["game"] == game
    assert log["events"][: len(during)] == during
    assert [e["type"] for e in log["events"][len(during) :]] == ["escaped", "game_over"]
    assert log["events"][0]["rng"] is None
    assert not any(e["type"] == "role_dealt" or e.get("private") for e in log["events"])


def test_the_join_address_opened_on_the_pi_is_the_public_address(session) -> None:
    config = Config(web=Web(port=8025, public_address="room25.local"))
    client = create_app(session, config, pin=PIN).test_client()
    local = client.get("/host", headers={"Host": "127.0.0.1:8025"}).get_data(as_text=True)
    assert '<strong id="address">http://room25.local:8025/</strong>' in local


def test_the_join_address_names_the_pi_on_the_network_and_its_port(app: Flask):
    client = app.test_client()
    local = client.get("/host", headers={"Host": "127.0.0.1:9123"}).get_data(as_text=True)
    assert re.search(r"<strong id=\"address\">http://[0-9.]+:9123/</strong>", local)
    lan = join_host()  # a Host header must name this machine (test_trust)
    remote = client.get("/host", headers={"Host": f"{lan}:8025"}).get_data(as_text=True)
    assert f'<strong id="address">http://{lan}:8025/</strong>' in remote
    odd = client.get("/table", headers={"Host": "127.0.0.1:abc"})
    assert odd.status_code < 500
    svg = client.get("/join.svg", headers={"Host": f"{lan}:8025"})
    assert svg.mimetype == "image/svg+xml" and b"<path" in svg.data


def test_no_secret_of_a_set_aside_game_reaches_even_the_host(app: Flask, host: FlaskClient):
    """Issue 28, point 4: a game a new game set aside may be resumed, so its roles, seed and
    commands stay as secret as a running game's, to the host too; once resumed, every screen is
    told; played to its end (the host ends it), it is laid open."""
    first = post(host, "/api/host/games", {"setup": {**SETUP, "seed": 11, "rigged": True}})
    game = first.get_json()["game"]
    seats = {seat: phone(app, seat) for seat in "12345"}
    clue = {"command": {"type": "clue", "cell": "B3"}}
    assert post(seats["1"], "/api/commands", clue).status_code == 200
    assert post(host, "/api/host/games", {"setup": SETUP}).status_code == 200  # sets it aside
    for lang, said in (("en", "may still be resumed"), ("fr", "peut encore reprendre")):
        answer = host.get(f"/api/host/games/{game}/reveal", headers={"Accept-Language": lang})
        assert answer.status_code == 409, answer.get_json()
        refusal = answer.get_json()["refusal"]
        assert refusal["code"] == "game_set_aside" and said in refusal["text"]
    exported = host.get(f"/api/host/games/{game}/export").get_json()
    assert exported["status"] == "abandoned" and not exported["complete"]
    assert "seed" not in exported and "seed" not in exported["setup"]
    assert "commands" not in exported
    assert not any("private" in e or e["type"] == "role_dealt" for e in exported["public_events"])
    assert post(host, f"/api/host/games/{game}/resume").status_code == 200
    told = app.test_client().get("/api/view").get_json()["session"]["notices"]
    assert [(n["code"], n["params"]) for n in told] == [
        ("game_resumed", {"game": game}),
        ("rigged_game", {}),  # the set-aside game was rigged, and is again on the table
    ]
    assert post(host, "/api/host/end").status_code == 200
    reveal = host.get(f"/api/host/games/{game}/reveal").get_json()
    assert len(reveal["view"]["characters"]) == 5
    assert host.get(f"/api/host/games/{game}/export").get_json()["seed"] == 11


def test_an_unknown_setup_key_is_refused_by_name(host: FlaskClient):
    answer = post(host, "/api/host/games", {"setup": {**SETUP, "Seed": 12345}})
    assert answer.status_code in (400, 409), answer.get_json()
    refusal = answer.get_json()["refusal"]
    assert refusal["code"] == "unknown_setup_key" and "'Seed'" in refusal["text"]
    assert host.get("/api/host/games").get_json()["games"] == []
