"""The seams between the layers are typed: the web, the hardware and the voice hold the session
as `Session`, the settings as `Config` and what the session publishes as `TableUpdate`, never
as `Any` or a bare dict, so that renaming a session method or misreading an update breaks the
type check where it is used, not the table at the next game."""

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
    """In a copy of the package (one mypy run for both, each costs seconds): `Session.press_seat`
    renamed, mypy names the seat buttons (hardware) and the phone's lock-in (web) that still
    call it; the OLED reading an update's "veiw", mypy names the display and the key no
    `TableUpdate` has."""
    package = tmp_path / "companion"
    shutil.copytree(ROOT / "companion", package)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    _changed(package / "session" / "session.py", "def press_seat(", "def press_the_seat(")
    _changed(package / "hardware" / "display.py", 'update["view"]', 'update["veiw"]')
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), "companion"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 1, checked.stdout + checked.stderr
    said = checked.stdout.splitlines()
    assert any("companion/hardware/table.py" in line and '"press_seat"' in line for line in said)
    assert any("companion/web/api.py" in line and '"press_seat"' in line for line in said)
    assert any(
        line.startswith("companion/hardware/display.py:")
        and 'TypedDict "TableUpdate" has no key "veiw"' in line
        for line in said
    ), checked.stdout
