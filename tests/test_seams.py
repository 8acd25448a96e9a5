"""The seams between the layers are typed: the web, the hardware and the voice hold the session
as `Session` and the settings as `Config`, never as `Any`, so that renaming a session method
breaks the type check where it is called, not the table at the next game."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_renaming_a_session_method_fails_the_type_check_at_its_callers(tmp_path: Path) -> None:
    """`Session.press_seat` renamed in a copy of the package: mypy names the seat buttons
    (hardware) and the phone's lock-in (web) that still call it."""
    shutil.copytree(ROOT / "companion", tmp_path / "companion")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    session = tmp_path / "companion" / "session" / "session.py"
    source = session.read_text()
    assert source.count("def press_seat(") == 1
    session.write_text(source.replace("def press_seat(", "def press_the_seat("))
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), "companion"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 1, checked.stdout + checked.stderr
    said = checked.stdout
    assert 'has no attribute "press_seat"' in said
    assert "companion/hardware/table.py" in said
    assert "companion/web/api.py" in said
