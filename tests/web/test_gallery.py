"""`room25 screens --pages OUTDIR`: the table page at 1920×1080 and a phone at 390×844 at each
moment of a sample game, beside the OLED gallery, as docs/web.md shows them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image

ROOM25 = Path(sys.executable).with_name("room25")
MOMENTS = ("join", "clue", "programming", "role", "action", "game-over", "setup", "lesson")


def test_screens_pages_pictures_each_moment_on_a_tv_and_a_phone(tmp_path):
    done = subprocess.run(
        [str(ROOM25), "screens", "--pages", str(tmp_path)],
        capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    pages = sorted((tmp_path / "pages").glob("*.png"))
    listed = sorted(Path(line).name for line in done.stdout.splitlines() if "/pages/" in line)
    assert [p.name for p in pages] == listed
    assert (tmp_path / "join.png").exists()  # the OLED gallery beside them
    for moment in MOMENTS:
        assert any(f"-{moment}-phone" in p.name for p in pages), moment
    sizes = {p.name.rsplit("-", 1)[1]: Image.open(p).size for p in pages}
    assert sizes["table.png"] == (1920, 1080)
    assert sizes["phone1.png"] == (780, 1688)  # 390×844 at the phone's pixel ratio of 2
