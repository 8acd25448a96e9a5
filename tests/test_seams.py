"""The seams between the layers are typed: the web, the hardware and the voice hold the session
as `Session`, the settings as `Config` and what the session publishes as `TableUpdate` (its
session part a `SessionPart`), never as `Any` or a bare dict; the voice and the hardware are
started with typed options, the host's actions take typed arguments (`HostArgs`) and the
wiring check holds the table as its `Rig`, and a game's export is an `Export` from the journal
or the file it is read from to the replay, the recap and the reveal, so that renaming a session
method, misreading an update or an export, or passing an option nobody takes breaks the type
check where it is used, not the table at the next game."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _changed(path: Path, old: str, new: str) -> None:
    source = path.read_text()
    assert source.count(old) == 1, (path, old)
    path.write_text(source.replace(old, new))


def test_a_renamed_session_method_or_a_misread_update_fails_the_type_check(
    tmp_path: Path,
) -> None:
    """In a copy of the package (one mypy run for all, each costs seconds): `Session.press_seat`
    renamed, mypy names the seat buttons (hardware) and the phone's lock-in (web) that still
    call it; the OLED reading an update's "veiw", the OLED's moments a session part's "pasued"
    and the voice a notice's "cdoe", mypy names each reader and the key its type lacks; `room25
    serve` starting the voice with a `speakers` option, or the host's undo route passing a
    `cuont`, mypy names the call; the table's `end_check` renamed, mypy names the table handing
    itself to the wiring check, which needs it as its `Rig`; `room25 games` reading a listed
    game's "comands", mypy names the key `GameListing` lacks; the episode reading a finished
    export's "strat" and the OLED rebuilding a session part with a "notice", mypy names the
    key `FinishedExport` lacks and the key `SessionPart` does not take; the set-up steps
    reading a new game's "turns_lfet" and a reply carrying its refusal's "cdoe", mypy names
    the key `PublicView` lacks and the key `RefusalView` does not take."""
    package = tmp_path / "companion"
    shutil.copytree(ROOT / "companion", package)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    _changed(package / "session" / "session.py", "def press_seat(", "def press_the_seat(")
    _changed(package / "hardware" / "display.py", 'update["view"]', 'update["veiw"]')
    _changed(package / "hardware" / "moments.py", '["session"]["paused"]', '["session"]["pasued"]')
    _changed(package / "voice" / "script.py", 'n["code"] not in', 'n["cdoe"] not in')
    _changed(package / "serve.py", "speaker=kind", "speakers=kind")
    _changed(package / "web" / "api.py", '"undo", count=count', '"undo", cuont=count')
    _changed(package / "hardware" / "table.py", "def end_check(", "def end_the_check(")
    _changed(package / "cli.py", 'commands=g["commands"]', 'commands=g["comands"]')
    _changed(package / "story" / "replay.py", 'exported["start"]', 'exported["strat"]')
    _changed(package / "hardware" / "display.py", '"notices": problems', '"notice": problems')
    _changed(package / "teaching" / "setup.py", 'view["turns_left"]', 'view["turns_lfet"]')
    _changed(package / "web" / "replies.py", '{"code": code', '{"cdoe": code')
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), "companion"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 1, checked.stdout + checked.stderr
    said = checked.stdout.splitlines()

    def named(module: str, words: str) -> bool:
        return any(line.startswith(f"companion/{module}:") and words in line for line in said)

    assert named("hardware/table.py", '"press_seat"'), checked.stdout
    assert named("web/api.py", '"press_seat"'), checked.stdout
    assert named("hardware/display.py", 'TypedDict "TableUpdate" has no key "veiw"')
    assert named("hardware/moments.py", 'TypedDict "SessionPart" has no key "pasued"')
    assert named("voice/script.py", 'TypedDict "NoticeView" has no key "cdoe"')
    assert named("serve.py", 'Unexpected keyword argument "speakers" for "start_voice"')
    assert named("web/api.py", 'Unexpected keyword argument "cuont" for "_host_action"')
    assert named("hardware/table.py", 'incompatible type "Hardware"; expected "Rig"'), said
    assert named("cli.py", 'TypedDict "GameListing" has no key "comands"'), said
    assert named("story/replay.py", 'TypedDict "FinishedExport" has no key "strat"'), said
    assert named("hardware/display.py", 'Extra key "notice" for TypedDict "SessionPart"'), said
    assert named("teaching/setup.py", 'TypedDict "PublicView" has no key "turns_lfet"'), said
    assert named("web/replies.py", 'Extra key "cdoe" for TypedDict "RefusalView"'), said
