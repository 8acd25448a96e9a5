"""An SD card that starts failing, under a real `room25 serve`: what the table is told about a
write is what the journal holds after any restart, with faults injected by libfiu (`faults.py`)."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest
from faults import FIU_RUN, MISSING, PYTHON_TEXT, FaultyServe, RawPhone, fault_run
from serving import PIN, Serve, host_of
from test_serve import step

pytestmark = pytest.mark.skipif(FIU_RUN is None, reason=MISSING)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
@pytest.mark.parametrize(
    ("fault", "told"),
    [("posix/io/sync/fdatasync", "journal_kept"), ("posix/io/rw/pwrite", "journal_unwritable")],
    ids=["fdatasync", "pwrite"],
)
def test_the_answer_to_a_failed_commit_holds_after_a_restart(
    tmp_path: Path, fault: str, told: str, stop: signal.Signals
) -> None:
    """A COMMIT whose fdatasync fails leaves the whole transaction in the WAL, which a restart
    replays: the command is kept and acknowledged. One whose frames could not be written (the
    first write of the COMMIT fails) is refused, and a restart does not bring it back. Either
    way the last answer holds."""
    data_dir = tmp_path / "data"
    quiet = tmp_path / "room25.toml"
    quiet.write_text("[voice]\nenabled = false\n")  # nothing but the journal writes here
    server = FaultyServe(data_dir, args=("--config", str(quiet))).wait_ready()
    try:
        host = host_of(server)
        for _ in range(4):
            status, body, game = step(host)
            assert status == 200, body
        _, before = host.get("/api/view")
        server.fail(fault, once=fault.endswith("pwrite"))
        status, answer, _ = step(host)
        _, after = host.get("/api/view")
        server.heal(fault)
    finally:
        server.process.send_signal(stop)
        server.wait_exit()
    said = [n["code"] for n in after["session"]["notices"] if n["code"].startswith("journal_")]
    assert said == [told], (status, answer, server.stderr)
    if told == "journal_kept":
        assert status == 200 and answer["ok"] and answer["version"] > before["version"]
        assert after["version"] == answer["version"]
    else:
        assert status == 409 and answer["refusal"]["code"] == "journal_unwritable"
        assert "nothing was changed" in answer["refusal"]["text"]
        assert after["version"] == before["version"]
    again = Serve(data_dir).wait_ready()
    try:
        _, restarted = host_of(again).get("/api/view")
    finally:
        assert again.terminate() == 0
    assert (restarted["game"], restarted["version"]) == (game, after["version"])


def test_a_journal_that_cannot_be_read_back_is_said_unsure_until_a_restart(
    tmp_path: Path,
) -> None:
    """Every write failing: the file cannot be read back after the failed COMMIT (its shared
    memory cannot grow), so the table is told the companion cannot tell, and later writes are
    refused the same way, even once the card answers again; a restart reads the file as it is."""
    data_dir = tmp_path / "data"
    server = FaultyServe(data_dir).wait_ready()
    try:
        host = host_of(server)
        for _ in range(3):
            step(host)
        _, before = host.get("/api/view")
        server.fail("posix/io/rw/pwrite")
        status, answer, _ = step(host)
        server.heal("posix/io/rw/pwrite")
        _, after = host.get("/api/view")
        later, again, _ = step(host)
    finally:
        assert server.terminate() == 0
    for refused in (answer, again):
        assert refused["refusal"]["code"] == "journal_unsure"
        assert "restart the companion" in refused["refusal"]["text"]
    assert status == later == 409 and after["version"] == before["version"]
    assert any(n["code"] == "journal_unsure" for n in after["session"]["notices"])
    restarted = Serve(data_dir).wait_ready()
    try:
        host = host_of(restarted)
        _, view = host.get("/api/view")
        assert view["version"] == before["version"]
        status, _, _ = step(host)
        assert status == 200  # the game goes on
    finally:
        assert restarted.terminate() == 0


# Every temporary folder full, in a mount namespace of the server's own (nothing outside it sees
# the mounts): /tmp and /var/tmp a full tmpfs and the working folder, TMPDIR, TEMP and TMP
# there, with the real /tmp (pytest's folders) reachable under /mnt/real.
FULL_TMP = """set -e
mount -t tmpfs -o size=1m tmpfs /mnt
mkdir /mnt/real
mount --rbind /tmp /mnt/real
mount -t tmpfs -o size=8k tmpfs /tmp
cat /dev/zero > /tmp/filler 2>/dev/null || true
mount --bind /tmp /var/tmp
cd /tmp
exec "$@"
"""
# Root makes a mount namespace of its own; another user maps itself to root in a user namespace
# (which a chroot refuses: there only root can run the test).
AS_ROOT = ("--mount",) if os.geteuid() == 0 else ("--mount", "--map-root-user")
UNSHARE = ("unshare", *AS_ROOT, "sh", "-c", FULL_TMP, "full-tmp")


def can_unshare() -> bool:
    return subprocess.run([*UNSHARE, "true"], capture_output=True).returncode == 0


def test_serve_starts_and_plays_with_every_temporary_folder_full(tmp_path: Path) -> None:
    if not can_unshare():
        pytest.skip(f"this machine gives no mount namespace (unshare {' '.join(AS_ROOT)})")
    data_dir = tmp_path / "data"
    inside = Path("/mnt/real") / data_dir.relative_to("/tmp")
    full = {"TMPDIR": "/tmp", "TEMP": "/tmp", "TMP": "/tmp"}
    # The last --data-dir wins: the same folder, as the namespace reaches it.
    server = Serve(data_dir, wrap=UNSHARE, env=full, hardware="virtual",
                   args=("--data-dir", str(inside))).wait_ready()  # fmt: skip
    try:
        host = host_of(server)
        for _ in range(6):
            status, body, _ = step(host)
            assert status == 200, body
        status, panel, kind = host.fetch("/panel")
        assert status == 200 and kind.startswith("text/html") and b"<html" in panel
    finally:
        assert server.terminate() == 0
    assert "Traceback" not in server.stderr
    assert (data_dir / "journal.sqlite").exists()


def test_random_write_and_sync_failures_lose_nothing_acknowledged_and_keep_nothing_refused(
    tmp_path: Path,
) -> None:
    """Three hundred table inputs, each write, fsync and fdatasync of serve failing one time in
    twenty, serve stopped four times (SIGTERM or SIGKILL): after the restarts the journal holds
    every acknowledged command and no refused one, passes SQLite's integrity check, and no
    answer was a server error or had Python's words in it."""
    run = fault_run(tmp_path, inputs=300, restarts=3, probability=0.05, seed=7)
    assert run.refused > 0 and run.acked > 100  # the faults were felt, the game went on
    assert (run.lost, run.kept_refused, run.unsure) == (0, 0, 0)
    assert run.integrity == "ok"
    assert run.errors == []


PAGES = (
    "/", "/table", "/panel", "/host", "/rules", "/history", "/api/view", "/api/seats",
    "/api/host/games", "/api/public/log", "/static/common.js", "/no/such/page",
)  # fmt: skip


def test_pages_and_answers_under_failing_opens_are_never_plain_server_pages(
    tmp_path: Path,
) -> None:
    """A third of serve's open() calls failing (page texts, templates, static files, modules
    imported late): each page is served, or refused in the project's JSON shape with its
    words; never waitress's plain "Internal Server Error" nor Python's own words."""
    server = FaultyServe(tmp_path / "data").wait_ready()
    try:
        host = RawPhone(server.url)
        assert host.post("/api/host/login", {"pin": PIN})[0] == 200
        step(host)
        server.fail("posix/io/oc/open", probability=0.3)
        for _ in range(8):
            for path in PAGES:
                status, body = host.get(path)
                if status >= 500:
                    assert body["refusal"]["code"] == "server_error", body
                    assert body["refusal"]["text"].startswith("Something went wrong")
        server.heal("posix/io/oc/open")
    finally:
        server.stop()
    python = [(s, raw[:200]) for s, raw in host.answers if PYTHON_TEXT.search(raw)]
    assert python == []


def test_serve_starts_whole_with_one_write_in_twenty_failing_from_the_start(
    tmp_path: Path,
) -> None:
    """Six starts, each with serve's writes and syncs failing one time in twenty from its
    first instruction (the journal's opening tried again, its lines retried): each says
    `ready on` on a line of its own, plays, and stops cleanly."""
    for start in range(6):
        server = FaultyServe(tmp_path / f"data-{start}", failing=0.05).wait_ready()
        try:
            host = host_of(server)
            answers = [step(host)[0] for _ in range(3)]
            assert set(answers) <= {200, 409}, answers
        finally:
            code = server.terminate()
        assert code == 0, server.stderr
        assert f"\nready on {server.url}\n" in server.stdout
        # The one traceback left is waitress's own, logged when the write() to its wake-up
        # pipe fails (libfiu fails every write(); a card never fails a pipe): it answers anyway.
        woken = server.stderr.count("in _physical_pull\n")
        assert server.stderr.count("Traceback") == woken, server.stderr
