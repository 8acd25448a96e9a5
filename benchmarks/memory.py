"""The memory a table's evening leaves `room25 serve --hardware mock` holding (issue 29, point 7:
≤ 50 MB): a journal of 200 finished games (the heuristic players' games, every command sent
through the session, as `tests/story/played.py` plays them), then an eight-seat game with the
host's and the table's streams open, the host reading the history, the games list and the last
game's replay, and 2,000 updates. It prints the resident set (VmRSS) at each step, and what
kind of memory it is (`/proc/PID/smaps_rollup`: the heap and thread stacks as anonymous, the
libraries' pages as file-backed).

The journal is played on /dev/shm when there is one (a tmpfs: its fsyncs cost nothing, the file
is the same), then copied into serve's data directory. The package is compiled first, as
systemd/install.sh compiles it on a Pi: a serve that compiled its modules as it started (this
machine sets PYTHONDONTWRITEBYTECODE) held 2 MB more at ready, about as much after the evening.

Run: .venv/bin/python benchmarks/memory.py [--games 200] [--updates 2000]
"""

from __future__ import annotations

import argparse
import compileall
import shutil
import sys
import tempfile
import time
from pathlib import Path

from load import load_line
from web import SEATS, Stream, cookie_of, opened, seated_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from serving import Serve, held_mb
from story.played import play_evenings

import companion
from companion.serve import JOURNAL_NAME

FAST_DISK = Path("/dev/shm")


def kinds(pid: int) -> str:
    """The resident set by kind, in MB, from smaps_rollup."""
    found = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in ("Rss", "Anonymous", "Shared_Clean", "Private_Clean"):
            found[name] = int(rest.split()[0]) / 1024
    return (
        f"anonymous {found.get('Anonymous', 0):.1f} MB, file-backed "
        f"{found.get('Shared_Clean', 0) + found.get('Private_Clean', 0):.1f} MB"
    )


def threads(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/task").iterdir()))


def journal_of(games: int, folder: Path) -> Path:
    """A journal of `games` finished games, played on a fast disk when there is one."""
    from history import TABLES  # the tables the history's benchmark plays (after `web`: both
    # benchmarks put tests/ first on the path, where another `web` lives)

    where = Path(tempfile.mkdtemp(dir=FAST_DISK if FAST_DISK.is_dir() else folder))
    try:
        play_evenings(where, [TABLES[n % len(TABLES)] for n in range(games)])
        kept = folder / "journal"
        kept.mkdir()
        shutil.copy(where / JOURNAL_NAME, kept / JOURNAL_NAME)
        return kept
    finally:
        shutil.rmtree(where, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="finished games in the journal")
    parser.add_argument("--updates", type=int, default=2000)
    arguments = parser.parse_args()
    print(load_line())
    compileall.compile_dir(Path(companion.__file__).parent, quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        began = time.perf_counter()
        data = journal_of(arguments.games, Path(tmp))
        print(f"{arguments.games} finished games played into the journal in "
              f"{time.perf_counter() - began:.0f} s")  # fmt: skip
        server = Serve(data).wait_ready()
        pid = server.process.pid
        steps = []
        try:
            steps.append(("ready", held_mb(pid)[0], kinds(pid)))
            host, phones = seated_table(server)
            streams = opened(
                [Stream(server.port, "seat", cookie_of(phones[s])) for s in SEATS]
                + [Stream(server.port, "host", cookie_of(host)), Stream(server.port, "table")]
            )
            steps.append(("a game under way, 10 streams", held_mb(pid)[0], kinds(pid)))
            listed = host.get("/api/host/games")[1]["games"]
            assert len(listed) == arguments.games + 1, len(listed)
            assert host.get("/api/host/history")[0] == 200
            steps.append(("the games list and the history read", held_mb(pid)[0], kinds(pid)))
            finished = [g["game"] for g in listed if g["status"] in ("over", "ended")]
            for game in finished[-3:]:
                assert host.get(f"/api/games/{game}/replay")[0] == 200
            steps.append(("three replays read", held_mb(pid)[0], kinds(pid)))
            for _ in range(arguments.updates // 2):
                for _ in range(2):
                    assert phones["1"].post("/api/seats/1/press")[0] == 200
            time.sleep(1)  # the streams have read the last updates
            rss, files = held_mb(pid)
            steps.append((f"after {arguments.updates} updates", rss, kinds(pid)))
            count = threads(pid)
            for stream in streams:
                stream.close()
        finally:
            server.stop()
    for name, held, kind in steps:
        print(f"server RSS {name}: {held:.1f} MB ({kind})")
    print(f"{count} threads; temporary files held {files:.1f} MB; target: RSS <= 50 MB")
    print(load_line())


if __name__ == "__main__":
    main()
