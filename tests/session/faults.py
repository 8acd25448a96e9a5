"""`room25 serve` under Debian's libfiu (`fiu-run -x`): POSIX calls made to fail while it runs,
switched by `fiu-ctrl` (its control pipes under the test's own folder), the way SQLite's own
I/O-error tests fail writes and syncs; and a fault run, a few hundred table inputs under random
failures checked against the journal after. Shared by the SD card tests and
`benchmarks/faults.py`."""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
import subprocess
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from serving import PIN, Phone, Serve
from session_helpers import COUNTDOWN

FIU_RUN, FIU_CTRL = shutil.which("fiu-run"), shutil.which("fiu-ctrl")
MISSING = "libfiu's fiu-run and fiu-ctrl (Debian's fiu-utils) are not installed"
# The failure points of a failing SD card: the writes and the syncs of the journal's files.
WRITES = ("posix/io/rw/write", "posix/io/rw/pwrite")
SYNCS = ("posix/io/sync/fsync", "posix/io/sync/fdatasync")


class FaultyServe(Serve):
    """A serve whose writes and syncs can be made to fail; `fail` and `heal` switch them."""

    def __init__(self, data_dir: Path, failing: float = 0.0, **kwargs: object) -> None:
        """`failing`: the writes and syncs fail with this probability from the very start."""
        self.control = str(data_dir.parent / "fiu")
        wrap = [str(FIU_RUN), "-x", "-f", self.control]
        for name in (*WRITES, *SYNCS) if failing else ():
            wrap += ["-c", f"enable_random name={name},probability={failing}"]
        super().__init__(data_dir, wrap=tuple(wrap), **kwargs)

    def _ctrl(self, *commands: str) -> None:
        asked = [arg for command in commands for arg in ("-c", command)]
        told = subprocess.run(
            [str(FIU_CTRL), "-f", self.control, *asked, str(self.process.pid)],
            check=True,
            capture_output=True,
            text=True,
            timeout=10,
        )
        assert "rror" not in told.stdout + told.stderr, told  # fiu-ctrl exits 0 on its errors

    def fail(self, *names: str, probability: float = 1.0, once: bool = False) -> None:
        """These calls fail from now on, each with this probability (`once`: the next only),
        with EIO: left to itself libfiu picks an errno at random, and an EINTR is retried
        (by SQLite, by Python) as if nothing had failed."""
        how = ",failinfo=5" + (",onetime" if once else "")
        self._ctrl(
            *(
                f"enable name={name}{how}"
                if probability >= 1
                else f"enable_random name={name},probability={probability}{how}"
                for name in names
            )
        )

    def heal(self, *names: str) -> None:
        self._ctrl(*(f"disable name={name}" for name in names))


# What a player must never read in an answer: Python's own words.
PYTHON_TEXT = re.compile(rb"Traceback|File \"|Internal Server Error|\w+Error\b|\bline \d+, in ")


class RawPhone(Phone):
    """A phone that keeps every answer's status and raw body, and reads one that is not JSON
    as {"raw": text} instead of failing."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.answers: list[tuple[int, bytes]] = []

    def _send(self, request: urllib.request.Request) -> tuple[int, dict]:
        try:
            with self.opener.open(request, timeout=20) as answer:
                status, raw = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        self.answers.append((status, raw))
        try:
            return status, json.loads(raw or b"{}")
        except json.JSONDecodeError:
            return status, {"raw": raw.decode(errors="replace")}


@dataclass
class FaultRun:
    """What a run under random write and sync failures saw, and what the journal held after."""

    inputs: int = 0
    acked: int = 0
    refused: int = 0  # journal_unwritable: nothing changed
    unsure: int = 0  # journal_unsure: the file could not be read back
    restarts: int = 0
    lost: int = 0  # acknowledged, missing after a restart
    kept_refused: int = 0  # refused, present after a restart
    integrity: str = ""
    errors: list[tuple[int, str]] = field(default_factory=list)  # 5xx, or Python in a body
    # game -> the version before each acknowledged command, in order
    commands: dict[str, list[int]] = field(default_factory=dict)
    # games whose new game was acknowledged / refused (by the version it was refused at)
    games: list[str] = field(default_factory=list)


def play_one(host: RawPhone, run: FaultRun) -> None:
    """One table input, chosen from the view as `test_serve.step` does, its answer counted."""
    _, view = host.get("/api/view")
    waiting, game = view.get("waiting") or {}, view.get("game")
    before = view.get("version", 0)
    if game is None or waiting.get("phase") in (None, "none", "over"):
        rigged = {**COUNTDOWN, "rigged": True}
        status, body = host.post("/api/host/games", {"setup": rigged})
    elif waiting["phase"] == "programming":
        status, body = host.post(f"/api/seats/{waiting['seats'][0]}/press")
    else:
        status, body = host.post("/api/commands", {"command": {"type": "next", "seat": "host"}})
    run.inputs += 1
    if status == 200 and body.get("ok"):
        run.acked += 1
        if body.get("game") and body["game"] != game:
            run.games.append(body["game"])
        else:
            run.commands.setdefault(str(game), []).append(before)
        return
    code = (body.get("refusal") or {}).get("code")
    if code == "journal_unwritable":
        run.refused += 1
    elif code == "journal_unsure":
        run.unsure += 1
    else:
        run.errors.append((status, json.dumps(body)[:300]))


def check_bodies(host: RawPhone, run: FaultRun) -> None:
    for status, raw in host.answers:
        if status >= 500 or PYTHON_TEXT.search(raw):
            run.errors.append((status, raw[:300].decode(errors="replace")))
    host.answers.clear()


def check_journal(path: Path, run: FaultRun) -> None:
    """Every acknowledged command in the journal, in order, and nothing refused: each game's
    commands are exactly the acknowledged ones (a refused one kept would be one more)."""
    db = sqlite3.connect(path)
    try:
        run.integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        games = [row[0] for row in db.execute("SELECT id FROM games ORDER BY created, rowid")]
        held = {
            game: [v for (v,) in db.execute(
                "SELECT version FROM commands WHERE game=? AND undone=0 ORDER BY seq", (game,))]
            for game in games
        }  # fmt: skip
    finally:
        db.close()
    run.lost += len(set(run.games) - set(games))
    run.kept_refused += len(set(games) - set(run.games))
    for game in games:
        acked, found = run.commands.get(game, []), held[game]
        common = next(
            (i for i, (a, b) in enumerate(zip(acked, found, strict=False)) if a != b), None
        )
        same = min(len(acked), len(found)) if common is None else common
        run.lost += len(acked) - same
        run.kept_refused += len(found) - same


def fault_run(
    folder: Path, inputs: int, restarts: int, probability: float, seed: int = 1
) -> FaultRun:
    """About `inputs` table inputs over `restarts` + 1 runs of serve, each run's writes and
    syncs failing at random with `probability`, each ended by SIGTERM or SIGKILL (at random)
    right after a refusal; then the journal is read as a plain SQLite file and checked against
    every answer."""
    run = FaultRun()
    data_dir = folder / "data"
    rng = random.Random(seed)
    for segment in range(restarts + 1):
        server = FaultyServe(data_dir).wait_ready()
        try:
            host = RawPhone(server.url)
            status, body = host.post("/api/host/login", {"pin": PIN})
            assert status == 200, body
            server.fail(*WRITES, *SYNCS, probability=probability)
            share = inputs // (restarts + 1) + (segment < inputs % (restarts + 1))
            for _ in range(share):
                play_one(host, run)
            # Stopped right after a refusal, the card still failing: a refused COMMIT whose
            # frames stayed in the WAL would be replayed by the next start.
            refused = run.refused
            while run.refused == refused and run.inputs < inputs * 2:
                play_one(host, run)
            check_bodies(host, run)
        finally:
            if rng.random() < 0.5:
                server.kill()
            else:
                server.stop()
        run.restarts += 1
    check_journal(data_dir / "journal.sqlite", run)
    return run
