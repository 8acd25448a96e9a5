"""The "Who may do what" tables of docs/web.md and docs/api.md, checked against a real
`room25 serve`: every write route tried as every audience (a seat's phone and the host on the
table's Wi-Fi, whoever sits at the companion, an anonymous phone). "yes" means the route heard the
request (any answer but 401 and 403), "no" that it refused the caller before doing anything."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import Serve

from .conftest import SETUP
from .trusted import Client, network_address

DOCS = Path(__file__).resolve().parents[2] / "docs"
AUDIENCES = ("seat", "host", "panel", "anonymous")
LAN = network_address()
pytestmark = pytest.mark.skipif(LAN is None, reason="this machine has no network address")
SEAT = "2"  # the seat the "seat" audience holds; routes with a {seat} name it


def who_may(doc: Path) -> dict[str, dict[str, bool]]:
    """The section's table: route -> audience -> allowed."""
    text = doc.read_text()
    section = text.split("## Who may do what", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(POST [^`]+)` \|(.+)\|$", section, re.MULTILINE)
    found = {}
    for route, cells in rows:
        words = [c.strip() for c in cells.split("|")]
        assert set(words) <= {"yes", "no"} and len(words) == len(AUDIENCES), route
        found[route] = {a: w == "yes" for a, w in zip(AUDIENCES, words, strict=True)}
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    running = Serve(tmp_path_factory.mktemp("who")).wait_ready()
    yield running
    running.stop()


def _callers(server: Serve) -> dict[str, Client]:
    """A fresh game, and each audience's client (the seat's phone holds seat 2)."""
    here = Client(server.port).login()
    fresh = {"setup": {**SETUP, "seat_claims": "clear"}}
    assert here.post("/api/host/games", fresh).status == 200
    seat = Client(server.port, LAN)
    assert seat.post("/api/join", {"seat": SEAT}).status == 200
    return {
        "seat": seat,
        "host": Client(server.port, LAN).login(),
        "panel": Client(server.port),
        "anonymous": Client(server.port, LAN),
    }


def _body(route: str, audience: str) -> dict:
    if route.endswith("/commands"):
        if audience == "host":
            return {"command": {"type": "next", "seat": "host"}}
        return {"command": {"type": "clue", "cell": "B3"}}
    return {
        "/api/join": {"seat": "3"},
        "/api/language": {"lang": "fr"},
        "/api/host/login": {"pin": "2525"},
        "/api/host/undo": {"count": 1},
        "/api/host/games": {"setup": SETUP},
    }.get(route.split(" ", 1)[1], {})


def test_the_two_tables_are_the_same_and_name_every_write(server: Serve):
    web, api = who_may(DOCS / "web.md"), who_may(DOCS / "api.md")
    assert web == api
    document = Client(server.port).get("/api/openapi.json").json()
    writes = {f"POST {p}" for p, item in document["paths"].items() if "post" in item}
    assert set(web) == writes


def test_every_write_as_every_audience_is_as_the_table_says(server: Serve):
    expected = who_may(DOCS / "web.md")
    found: dict[str, dict[str, bool]] = {}
    for route in expected:
        callers = _callers(server)
        path = route.split(" ", 1)[1].replace("{seat}", SEAT).replace("{button}", "next")
        found[route] = {}
        for audience in ("anonymous", "panel", "seat", "host"):  # the host's may end the game
            answer = callers[audience].post(path, _body(route, audience))
            assert answer.status < 500, (route, audience, answer.body)
            found[route][audience] = answer.status not in (401, 403)
        found[route] = {a: found[route][a] for a in AUDIENCES}
    assert found == expected
