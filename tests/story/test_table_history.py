"""The table's history from a data directory that saw several evenings (games played to their end
by the simulator's players through the session and its journal): `room25 stats` and the host
page's `GET /api/host/history` say the same; the simulated rates are `room25 simulate`'s for the
composition, worked out once and kept; the names the host typed live in the journal (schema 3)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import ROOM25, Serve, host_of

from companion.serve import JOURNAL_NAME
from companion.session import Journal, Session
from companion.session.journal import MIGRATIONS, SCHEMA_VERSION
from companion.story.simulated import CACHE_NAME, GAMES, SEED

from .played import play_evenings

SUSPICION = {"edition": "base", "mode": "suspicion", "players": 5}
COOPERATION = {"edition": "base", "mode": "cooperation", "players": 4}


@pytest.fixture(scope="module")
def evenings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three Suspicion games, one Cooperation game, a rigged one (listed, not counted) and a
    game the host ended before its end (listed, no result); names typed for the first."""
    data = tmp_path_factory.mktemp("evenings")
    rigged = {**SUSPICION, "seed": 3, "rigged": True}
    games = play_evenings(data, [SUSPICION, SUSPICION, COOPERATION, SUSPICION, rigged])
    with Session(data / JOURNAL_NAME) as session:
        assert session.host("new_game", setup=COOPERATION).ok
        assert session.host("end_game").ok
        assert session.set_names(games[0], {"1": "Ana", "4": "Léo"}).ok
    return data


def stats(data: Path, *args: str) -> subprocess.CompletedProcess:
    """`room25 stats` in a terminal whose language is the fallback's (tests/test_cli_words.py
    reads it in every language)."""
    return subprocess.run(
        [str(ROOM25), "stats", "--data-dir", str(data), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "LC_ALL": "C.UTF-8"},
    )


@pytest.fixture(scope="module")
def page_answer(evenings: Path) -> Iterator[dict]:
    """What the host page reads, from a real `room25 serve` that works out the simulated rates
    itself (the cache is empty when it starts): asked again until they are all there."""
    assert not (evenings / CACHE_NAME).exists()
    server = Serve(evenings).wait_ready()
    try:
        host = host_of(server)
        deadline = time.monotonic() + 240
        while True:
            status, answer = host.get("/api/host/history")
            assert status == 200, answer
            if not any(g["simulating"] for g in answer["groups"]):
                break
            assert time.monotonic() < deadline, "the simulator never finished"
            time.sleep(1)
        yield answer
    finally:
        server.stop()


def test_room25_stats_and_the_host_page_say_the_same(evenings: Path, page_answer: dict):
    done = stats(evenings, "--json")
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    page = json.loads(json.dumps(page_answer))
    for row in page["games"]:
        assert row.pop("composition_name")
    for group in page["groups"]:
        assert group.pop("composition_name") and group.pop("chart").startswith("<svg")
    assert printed == page
    # What the data directory holds, as the page shows it.
    assert len(printed["games"]) == 6
    assert [g["result"] is None for g in printed["games"]] == [False] * 5 + [True]
    assert [g["rigged"] for g in printed["games"]] == [False] * 4 + [True, False]
    assert printed["games"][0]["names"] == {"1": "Ana", "4": "Léo"}
    groups = {(g["mode"], g["players"]): g for g in printed["groups"]}
    assert set(groups) == {("suspicion", 5), ("cooperation", 4)}
    assert groups[("suspicion", 5)]["games"] == 3  # the rigged game is not counted
    assert groups[("suspicion", 5)]["composition"] == "beginner"
    results = [g["result"] for g in printed["games"][:4] if g["mode"] == "suspicion"]
    assert groups[("suspicion", 5)]["rates"] == {
        r: results.count(r) / 3 for r in sorted(set(results))
    }


def test_the_simulated_rates_are_room25_simulates_for_the_composition(page_answer: dict):
    group = next(g for g in page_answer["groups"] if g["mode"] == "cooperation")
    done = subprocess.run(
        [str(ROOM25), "simulate", "--edition", "base", "--mode", "cooperation",
         "--players", "4", "--composition", "beginner", "--games", str(GAMES),
         "--seed", str(SEED), "--jobs", "1", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    simulated = json.loads(done.stdout)
    assert group["simulated"] == {
        "games": GAMES,
        "results": simulated["results"],
        "counts": simulated["counts"],
    }


def test_the_simulated_rates_are_kept_in_the_data_directory(
    evenings: Path, page_answer: dict, tmp_path: Path
):
    """Read, not played again: a copy of the data directory whose kept rates were altered
    prints the altered ones."""
    kept = json.loads((evenings / CACHE_NAME).read_text())
    assert len(kept) == 2
    copy = tmp_path / "copy"
    shutil.copytree(evenings, copy)
    altered = {key: {**found, "games": 7} for key, found in kept.items()}
    (copy / CACHE_NAME).write_text(json.dumps(altered))
    done = stats(copy, "--json")
    assert done.returncode == 0, done.stderr
    assert {g["simulated"]["games"] for g in json.loads(done.stdout)["groups"]} == {7}


def test_room25_stats_prints_the_games_and_the_rates_in_text(evenings: Path, page_answer: dict):
    done = stats(evenings)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    games = page_answer["games"]
    for g in games:
        mode = g["mode"].capitalize()  # the host page's name of the mode
        assert any(line.strip().startswith(f"{g['date']}  {mode} (Base game)") for line in lines)
    assert "[1: Ana, 4: Léo]" in lines[1]
    assert "(rigged)" in lines[5] and lines[6].rstrip().endswith("ended by the host")
    suspicion = next(g for g in page_answer["groups"] if g["mode"] == "suspicion")
    at = lines.index("  Suspicion (Base game), Beginner, 5 players: 3 games, 100 simulated")
    named = {"guards": "Guards win", "prisoners": "Prisoners win"}
    for result in sorted({*suspicion["rates"], *suspicion["simulated"]["results"]}):
        here = round(suspicion["rates"].get(result, 0) * 100)
        there = round(suspicion["simulated"]["results"].get(result, 0) * 100)
        rate = [*named[result].split(), f"{here}%", "/", f"{there}%"]
        assert any(line.split() == rate for line in lines[at + 1 :])


def test_room25_stats_without_a_journal_says_so(tmp_path: Path):
    done = stats(tmp_path / "nowhere")
    assert done.returncode == 1 and "no journal" in done.stderr


def test_a_journal_of_schema_2_gains_the_names_and_keeps_its_games(tmp_path: Path):
    path = tmp_path / JOURNAL_NAME
    old = sqlite3.connect(path, isolation_level=None)
    for version in range(2):
        old.executescript(MIGRATIONS[version])
    old.execute("PRAGMA user_version=2")
    old.execute(
        "INSERT INTO games VALUES ('g1', '{\"players\": 4}', 7, '{}', 'over', NULL, 1.0, 2.0)"
    )
    old.close()
    journal = Journal(path)
    journal.open()
    try:
        assert [g.id for g in journal.games()] == ["g1"]
        journal.set_names("g1", {"2": "Zoé"})
        assert journal.names() == {"g1": {"2": "Zoé"}}
        assert journal.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    finally:
        journal.close()


def test_the_names_go_with_the_game_s_export_and_are_replaced_as_a_whole(tmp_path: Path):
    with Session(tmp_path / JOURNAL_NAME) as session:
        game = session.host("new_game", setup=SUSPICION).game
        assert session.set_names(game, {"1": "Ana", "2": "Bo"}).ok
        assert session.set_names(game, {"2": "Bea"}).ok
        assert session.export(game)["names"] == {"2": "Bea"}
        assert session.set_names("no-such-game", {"1": "Ana"}) is None


def _simulators(pid: int) -> list[int]:
    """The simulator processes whose parent is `pid` (spawned by multiprocessing)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"spawn_main" in command:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_server_killed_mid_simulation_leaves_no_simulator_behind(tmp_path: Path):
    data = tmp_path / "data"
    play_evenings(data, [SUSPICION])  # 100 games of it take 4 to 7 s
    server = Serve(data).wait_ready()
    try:
        status, answer = host_of(server).get("/api/host/history")
        assert status == 200 and answer["groups"][0]["simulating"]
        deadline = time.monotonic() + 30
        while not (children := _simulators(server.process.pid)):
            assert time.monotonic() < deadline, "no simulator was started"
            time.sleep(0.1)
    finally:
        server.kill()
    deadline = time.monotonic() + 10  # it looks for its server every second; CI may be loaded
    while any(_alive(pid) for pid in children):
        assert time.monotonic() < deadline, "the simulator outlived the server"
        time.sleep(0.2)
