"""The suite leaves nothing behind: no `room25 serve`, Chromium, Playwright driver or espeak-ng
process, no listening socket, no temporary file. A run is marked by an environment variable that
every process it starts inherits, and its temporary folder is one of its own (pytest's `tmp_path`
stays where pytest keeps it), so what is left is found by the mark and in that folder, never by
guessing at names on a shared machine.

Read by tests/conftest.py: `begin` as the run is configured, `adopt` once pytest's own folder is
made, `check` once every fixture is torn down; `check` ends what it finds (so nothing outlives
the run) and says it in plain lines."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from waiting import eventually

MARK = "ROOM25_TEST_RUN"
# espeak-ng opens PulseAudio even to write a file, and PulseAudio makes its runtime folder in
# TMPDIR behind a link in the shared ~/.config/pulse: each run gets its own, named here, so runs
# side by side do not write into each other's folders, and this one is not counted as left.
PULSE = "pulse"
# A process asked to stop may take a moment to go: this long, then it counts as left behind.
GRACE = 15.0


@dataclass
class Run:
    """What a run started from: its mark, its temporary folder and the sockets this process
    listened on."""

    mark: str
    folder: Path
    listening: set[str] = field(default_factory=set)


def begin() -> Run:
    """Mark this process's environment, so every child carries the mark, and give the children a
    temporary folder of the run's own."""
    run = Run(mark=uuid.uuid4().hex, folder=Path(tempfile.mkdtemp(prefix="room25-run-")))
    os.environ[MARK] = run.mark
    os.environ["TMPDIR"] = str(run.folder)
    os.environ["PULSE_RUNTIME_PATH"] = str(run.folder / PULSE)
    run.listening = _listening(os.getpid())
    return run


def adopt(run: Run) -> None:
    """This process's own temporary files in the run's folder too, once pytest has made its
    folder where it keeps it (it reads the same setting)."""
    tempfile.tempdir = str(run.folder)


def check(run: Run) -> list[str]:
    """What the run left behind, a line each; every process found is killed and the run's
    temporary folder removed, whatever is found."""
    left: list[str] = []
    with contextlib.suppress(AssertionError):  # still there after GRACE: named and ended below
        eventually(lambda: not _marked(run.mark), GRACE, every=0.1)
    for pid, command in _marked(run.mark).items():
        left.append(f"process {pid} still runs: {command}")
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)
    for address in sorted(_listening(os.getpid()) - run.listening):
        left.append(f"this test process still listens on {address}")
    for entry in sorted(e for e in run.folder.iterdir() if e.name != PULSE):
        inside = sorted(p.name for p in entry.iterdir())[:5] if entry.is_dir() else []
        left.append(f"temporary {entry} was left behind" + (f" (holding {inside})" * bool(inside)))
    tempfile.tempdir = None
    shutil.rmtree(run.folder, ignore_errors=True)
    return left


def _marked(mark: str) -> dict[int, str]:
    """Processes other than this one whose environment carries the run's mark (zombies, which
    hold nothing but a number, are not counted)."""
    found: dict[int, str] = {}
    wanted = f"{MARK}={mark}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if wanted not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                continue
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile, or not ours to read
        found[int(entry.name)] = command.strip()[:160]
    return found


def _listening(pid: int) -> set[str]:
    """The TCP addresses a process listens on, read from /proc (socket inodes of its open files
    matched against the kernel's tables)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found.add(f"{table[-4:]} port {int(fields[1].rsplit(':', 1)[1], 16)}")
    return found
