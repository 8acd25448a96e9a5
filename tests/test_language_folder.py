"""A language is a folder (issue 30, points 3 to 5): a pseudo-locale written as a folder of the
catalogue, and nothing else, is offered by the pages' menu and Accept-Language, and every
refusal, notice, reason, voice line and OLED screen is said in it. Its texts are the fallback
language's, accented, about 35 % longer and bracketed, so a text that does not come from the
catalogue, or that the catalogue does not let grow, shows."""

from __future__ import annotations

import ast
import http.client
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from pseudo_locale import CODE, pseudo, write_pseudo_locale
from serving import Serve

import companion
from companion import words

CHECK = """
import json, sys
from pathlib import Path
from companion import words
from companion.engine.kernel.refusals import catalogue as refusals, refusal_text
from companion.hardware.gallery import render_screens
from companion.session.notices import Notice, catalogue as notices
from companion.voice.samples import sample_lines
from companion.words.reasons import reason_text
lang = sys.argv[1]
said = {
    "languages": list(words.languages()),
    "refusals": [refusal_text(code, {}, lang) for code in refusals()],
    "notices": [Notice(code, {}).text(lang) for code in notices()],
    "reasons": [reason_text({"reason": "countdown"}, lang), reason_text(None, lang)],
    "voice": [line.text(lang) for lines in sample_lines().values() for line in lines],
    "screens": len(render_screens(Path(sys.argv[2]), lang)),
}
print(json.dumps(said))
"""


def test_a_language_folder_is_all_a_language_needs(tmp_path: Path) -> None:
    extra = write_pseudo_locale(tmp_path / "words")
    env = {**os.environ, words.catalogue.EXTRA: str(extra)}
    done = subprocess.run(
        [sys.executable, "-c", CHECK, CODE, str(tmp_path / "screens")],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    said = json.loads(done.stdout)
    assert CODE in said["languages"]
    for part in ("refusals", "notices", "reasons", "voice"):
        assert len(said[part]) > 1, part
        # Every text is the pseudo-locale's: bracketed, whatever the values filled in.
        plain = [text for text in said[part] if not text.lstrip().startswith("[")]
        assert plain == [], (part, plain[:5])
    assert said["screens"] > 10


def test_the_pages_offer_a_folder_language_and_speak_it(tmp_path: Path) -> None:
    extra = write_pseudo_locale(tmp_path / "words")
    server = Serve(tmp_path / "data", env={words.catalogue.EXTRA: str(extra)}).wait_ready()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port)
        conn.request("GET", "/", headers={"Accept-Language": f"{CODE},en;q=0.5"})
        page = conn.getresponse().read().decode()
        conn.close()
    finally:
        server.stop()
    assert f'<html lang="{CODE}"' in page
    assert f'<option value="{CODE}" selected>{pseudo("Pseudo")}</option>' in page
    texts = json.loads(re.search(r'id="texts">(.*?)</script>', page, re.S)[1])
    assert texts["lang"] == CODE
    plain = {k: v for k, v in texts["t"].items() if not v.startswith("[")}
    assert plain == {}


def _a_language(lang: str) -> re.Pattern[str]:
    """A language's code, alone or with its region ("fr", "fr-FR", "fr_FR")."""
    return re.compile(rf"{re.escape(lang)}(?:[-_][A-Za-z]{{2}})?")


def test_no_language_is_named_in_code() -> None:
    """The fallback is named once, in the catalogue's data (words/about.json): no code outside
    companion/words holds a language's code, alone or with its region, as a string of its own:
    not in Python, nor in the pages' scripts and templates."""
    package = Path(companion.__file__).parent
    codes = [_a_language(lang) for lang in words.languages()]
    named = [
        f"{path.relative_to(package)}:{node.lineno} {node.value!r}"
        for path in sorted(package.rglob("*.py"))
        if package / "words" not in path.parents
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and any(code.fullmatch(node.value) for code in codes)
    ]
    quoted = re.compile(r"""["'`]([A-Za-z_-]{2,5})["'`]""")
    named += [
        f"{path.relative_to(package)} {found!r}"
        for pattern in ("*.js", "*.html")
        for path in sorted(package.rglob(pattern))
        for found in quoted.findall(path.read_text("utf-8"))
        if any(code.fullmatch(found) for code in codes)
    ]
    assert len(words.languages()) >= 3
    assert named == []
