"""A recap builds without the web server (issue 31, point 3): the story reads its words from the
catalogue (`companion.words`), never through `companion.web`, so no import runs upward."""

from __future__ import annotations

import subprocess
import sys


def test_building_a_recap_loads_neither_flask_nor_the_web_package() -> None:
    code = (
        "import sys; import companion.story.recap as recap; "
        "from companion.words.reasons import reason_text; reason_text(None, 'fr'); "
        "print(sorted(m for m in sys.modules if m.startswith(('flask', 'companion.web.'))))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"
