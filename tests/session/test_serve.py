"""`room25 serve` as a real process: it announces itself, refuses a second serve on the same
data directory, stops cleanly on SIGTERM, and after SIGKILL at random moments, a full disk, a
read-only data directory or a corrupt journal, every acknowledged command is found in place."""

from __future__ import annotations

import http.client
import importlib.util
import json
import random
import socket
import subprocess
import threading
import urllib.request
from pathlib import Path

import pytest
from serving import Phone, Serve, host_of
from session_helpers import COUNTDOWN

from companion import engine
from companion.session import Journal

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("companion.web") is None,
    reason="companion.web (the HTTP API these tests drive) cannot be imported yet",
)

GONE = (OSError, http.client.HTTPException, json.JSONDecodeError)


def step(host: Phone) -> tuple[int, dict, str | None]:
    """One table input chosen from what the game waits for: a new game when none is going, a
    seat button while programming, Next during the actions."""
    _, view = host.get("/api/view")
    waiting = view.get("waiting") or {}
    game = view.get("game")
    if game is None or waiting.get("phase") in (None, "none", "over"):
        rigged = {**COUNTDOWN, "rigged": True}  # its seed chosen: a rigged game to the web
        status, body = host.post("/api/host/games", {"setup": rigged})
        return status, body, body.get("game")
    if waiting["phase"] == "programming":
        seat = waiting["seats"][0]
        return (*host.post(f"/api/seats/{seat}/press"), game)
    return (*host.post("/api/commands", {"command": {"type": "next", "seat": "host"}}), game)


class Table:
    """Plays over HTTP and remembers every acknowledged input as (game, version)."""

    def __init__(self) -> None:
        self.acked: list[tuple[str, int]] = []

    def play(self, host: Phone, count: int | None = None) -> None:
        done = 0
        while count is None or done < count:
            status, body, game = step(host)
            assert status == 200 and body.get("ok"), body
            self.acked.append((game, body["version"]))
            done += 1

    def play_until_killed(self, server: Serve, host: Phone, after: float) -> None:
        killer = threading.Timer(after, server.kill)
        killer.start()
        try:
            while server.process.poll() is None:
                status, body, game = step(host)
                if status == 200 and body.get("ok"):
                    self.acked.append((game, body["version"]))
        except GONE:
            pass
        finally:
            killer.join()
            server.kill()

    def check_in_place(self, host: Phone) -> None:
        """After a restart: the last acknowledged input is in the game going on (or that game is
        over and listed so)."""
        if not self.acked:
            return
        game, version = self.acked[-1]
        _, view = host.get("/api/view")
        if view.get("game") == game:
            assert view["version"] >= version
        else:
            _, listed = host.get("/api/host/games")
            status = {g["game"]: g["status"] for g in listed["games"]}
            assert status[game] == "over", (game, view.get("game"), status)

    def check_after_restart(self, data_dir: Path) -> None:
        """A new serve on the same data directory finds the last acknowledged input in place,
        and the journal went through every acknowledged version."""
        server = Serve(data_dir).wait_ready()
        try:
            self.check_in_place(host_of(server))
        finally:
            assert server.terminate() == 0
        self.check_journal(data_dir)

    def check_journal(self, data_dir: Path) -> None:
        """Every acknowledged version is a version the journal's game went through."""
        journal = Journal(data_dir / "journal.sqlite")
        journal.open()
        try:
            for game in {g for g, _ in self.acked}:
                start = journal.start_events(game)
                commands = [c for c in journal.commands(game) if not c.undone]
                end = engine.replay([*start, *(e for c in commands for e in c.events)])
                went_through = {engine.replay(start).version, end.version}
                went_through.update(c.version for c in commands)
                acked = {v for g, v in self.acked if g == game}
                assert acked <= went_through, sorted(acked - went_through)
        finally:
            journal.close()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


def test_serve_announces_itself_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    settings = tmp_path / "room25.toml"
    settings.write_text(
        '[table]\nlanguage = "fr"\n\n[buzzer]\nvolume = 7\n[web]\npublic_address = "room25.local"\n'
    )
    server = Serve(tmp_path / "data", args=("--config", str(settings))).wait_ready()
    try:
        # the file's lines and serve's own in the table's language (docs/languages.md)
        assert (
            f"{settings}, ligne 5\u00a0: buzzer.volume = 7 n'est pas de 0.0 à 1.0\u00a0; "
            "valeur par défaut 0.5" in server.stderr
        )
        assert "code PIN de l'hôte\u00a0: 2525" in server.stdout
        assert f"Room 25 Companion sur {server.url}" in server.stdout
        assert f"prêt sur {server.url.rstrip('/')}\n" in server.stdout
        # the address phones open: the public one, with the port really served (--port)
        assert f"Room 25 Companion sur http://room25.local:{server.port}/" in server.stdout
        assert "hardware: mock (--hardware mock was asked for)" in server.stderr
        assert "\x1b[" not in server.stderr  # no colour codes when not a terminal
        Table().play(host_of(server), 3)
    finally:
        code = server.terminate()
    assert code == 0 and "journal closed" in server.stderr


def test_a_server_on_127_0_0_1_only_starts_quietly(tmp_path: Path) -> None:
    """Listening on this machine only, no LAN address is printed (no phone could open it), and
    the first requests, made the moment "ready" is printed, log no "Task queue depth" warning
    from waitress (its pool counted threads still starting as busy)."""
    settings = tmp_path / "room25.toml"
    settings.write_text('[web]\nhost = "127.0.0.1"\n')
    server = Serve(tmp_path / "data", args=("--config", str(settings))).wait_ready()
    try:
        for _ in range(3):
            with urllib.request.urlopen(f"{server.url}/", timeout=10) as page:
                assert page.status == 200
    finally:
        assert server.terminate() == 0
    said = [line for line in server.stdout.splitlines() if line.startswith("Room 25 Companion on")]
    assert said == [f"Room 25 Companion on {server.url}/"]
    assert "Task queue depth" not in server.stderr


def test_serve_tells_systemd_it_is_ready_healthy_and_stopping(tmp_path: Path) -> None:
    address = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(str(address))
        systemd.settimeout(20)
        watchdog = {"NOTIFY_SOCKET": str(address), "WATCHDOG_USEC": "400000"}
        server = Serve(tmp_path / "data", env=watchdog).wait_ready()
        try:
            assert systemd.recv(100) == b"READY=1"
            assert systemd.recv(100) == b"WATCHDOG=1"  # every 0.2 s while the writer answers
            assert systemd.recv(100) == b"WATCHDOG=1"
        finally:
            assert server.terminate() == 0
        said = []
        while (message := systemd.recv(100)) != b"STOPPING=1":
            said.append(message)
        assert set(said) <= {b"WATCHDOG=1"}


@pytest.mark.parametrize("held_on", ["127.0.0.1", "0.0.0.0"])
def test_a_port_held_by_another_program_is_refused_before_any_ready(
    tmp_path: Path, held_on: str
) -> None:
    """Neither the `ready` line nor READY=1 when another program listens on the port: systemd
    would otherwise count a companion that cannot serve as started."""
    address = tmp_path / "notify"
    with (
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd,
        socket.socket() as other,
    ):
        systemd.bind(str(address))
        other.bind((held_on, 0))
        other.listen()
        port = other.getsockname()[1]
        server = Serve(tmp_path / "data", port=port, env={"NOTIFY_SOCKET": str(address)})
        assert server.wait_exit() == 1
        assert "ready" not in server.stdout
        assert f"room25 serve: port {port} is already in use by another program" in server.stderr
        systemd.setblocking(False)
        with pytest.raises(BlockingIOError):
            systemd.recv(100)  # nothing was said to systemd
        assert not (tmp_path / "data" / "journal.sqlite").exists()  # nothing was opened


def test_a_second_serve_on_the_same_data_directory_is_refused(data_dir: Path) -> None:
    first = Serve(data_dir).wait_ready()
    try:
        second = Serve(data_dir)
        assert second.wait_exit() == 1
        assert "another room25 serve is already running on" in second.stderr
        assert first.process.poll() is None
    finally:
        first.terminate()


def kill_and_resume(data_dir: Path, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    table = Table()
    for _ in range(kills):
        server = Serve(data_dir).wait_ready()
        host = host_of(server)
        table.check_in_place(host)
        table.play_until_killed(server, host, rng.uniform(0.05, 0.6))
    server = Serve(data_dir).wait_ready()
    try:
        host = host_of(server)
        table.check_in_place(host)
        table.play(host, 3)  # the game goes on
    finally:
        assert server.terminate() == 0
    assert len(table.acked) > kills
    table.check_journal(data_dir)


def test_sigkill_at_random_moments_loses_no_acknowledged_command(data_dir: Path) -> None:
    kill_and_resume(data_dir, kills=3, seed=1)


@pytest.mark.slow
def test_fifty_kills_lose_no_acknowledged_command(data_dir: Path) -> None:
    kill_and_resume(data_dir, kills=50, seed=2)


def test_a_corrupt_journal_is_moved_aside_and_named(data_dir: Path) -> None:
    data_dir.mkdir()
    garbage = b"not a journal " * 500
    (data_dir / "journal.sqlite").write_bytes(garbage)
    server = Serve(data_dir).wait_ready()
    try:
        [kept] = data_dir.glob("journal.sqlite.unreadable-*")
        assert kept.read_bytes() == garbage
        assert f"it was kept as {kept}" in server.stderr
        Table().play(host_of(server), 2)
    finally:
        assert server.terminate() == 0


def mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


def test_a_read_only_data_directory_is_refused_plainly(data_dir: Path) -> None:
    server = Serve(data_dir).wait_ready()
    table = Table()
    try:
        table.play(host_of(server), 5)
    finally:
        assert server.terminate() == 0
    before = (data_dir / "journal.sqlite").read_bytes()
    if not (mount("--bind", str(data_dir), str(data_dir))):
        pytest.skip("a read-only bind mount needs root")
    try:
        assert mount("-o", "remount,ro,bind", str(data_dir))
        refused = Serve(data_dir)
        assert refused.wait_exit() == 1
        assert "read-only" in refused.stderr and str(data_dir) in refused.stderr
    finally:
        subprocess.run(["umount", str(data_dir)], check=True)
    assert (data_dir / "journal.sqlite").read_bytes() == before
    table.check_after_restart(data_dir)


def test_a_full_disk_refuses_inputs_plainly_and_loses_none(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    if not mount("-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)):
        pytest.skip("a small tmpfs needs root")
    try:
        data_dir = disk / "data"
        server = Serve(data_dir).wait_ready()
        table = Table()
        try:
            host = host_of(server)
            table.play(host, 4)
            filler = disk / "filler"
            # Unbuffered: a buffered file would keep what did not fit and fail again at close.
            with filler.open("wb", buffering=0) as out:
                try:
                    while True:
                        out.write(b"\0" * 65536)
                except OSError:
                    pass
            refusal = None
            for _ in range(500):
                status, body, game = step(host)
                if status != 200:
                    refusal = body["refusal"]
                    break
                table.acked.append((game, body["version"]))
            assert refusal is not None and refusal["code"] == "journal_unwritable"
            assert "nothing was changed" in refusal["text"]
            _, view = host.get("/api/view")
            assert any(n["code"] == "journal_unwritable" for n in view["session"]["notices"])
            filler.unlink()
            table.play(host, 2)  # space again: the game goes on
        finally:
            assert server.terminate() == 0
        table.check_after_restart(data_dir)
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)
