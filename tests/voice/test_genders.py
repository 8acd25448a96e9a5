"""Issue 30: a gender is a fact of a language's words, so it lives in the language's folder
(`_genders` of `companion/words/<lang>/voice.json`), read through the catalogue: a language
folder with its own genders changes what the voice agrees, and nothing else needs to."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from companion import words

SAY = """
import json, sys
from companion.voice.catalogue import say
lang = sys.argv[1]
said = [say(lang, "eliminated", {"character": who, "cause": "acid"}) for who in ("emmett", "alice")]
print(json.dumps(said, ensure_ascii=False))
"""


def _said(extra: Path, lang: str) -> list[str]:
    env = {**os.environ, words.catalogue.EXTRA: str(extra)}
    done = subprocess.run([sys.executable, "-c", SAY, lang], env=env, capture_output=True,
                          text=True, check=True, timeout=60)  # fmt: skip
    return json.loads(done.stdout)


def _copy_of_french(root: Path, code: str, genders: dict[str, str] | None) -> Path:
    """A language folder `code`: French's words, with `genders` for its own (none: no section)."""
    folder = root / code
    shutil.copytree(Path(words.__file__).parent / "fr", folder)
    voice = json.loads((folder / "voice.json").read_text("utf-8"))
    voice.pop("_genders")
    if genders is not None:
        voice["_genders"] = genders
    (folder / "voice.json").write_text(json.dumps(voice, ensure_ascii=False), "utf-8")
    return root


def test_a_language_folders_own_genders_change_the_agreement(tmp_path: Path) -> None:
    swapped = {c: {"m": "f", "f": "m"}[g] for c, g in words.genders("fr").items()}
    extra = _copy_of_french(tmp_path / "words", "xg", swapped)
    assert _said(extra, "xg") == [
        "Emmett est éliminée\u00a0: Bain d'acide.",
        "Alice est éliminé\u00a0: Bain d'acide.",
    ]
    assert _said(extra, "fr")[1] == "Alice est éliminée\u00a0: Bain d'acide."  # French's own


def test_a_language_that_gives_no_gender_says_its_other_form(tmp_path: Path) -> None:
    """Without a `_genders` section, a character is said in the form for no gender (`_other`,
    French's masculine here), whatever French's folder says of Alice."""
    extra = _copy_of_french(tmp_path / "words", "xn", None)
    assert _said(extra, "xn") == [
        "Emmett est éliminé\u00a0: Bain d'acide.",
        "Alice est éliminé\u00a0: Bain d'acide.",
    ]
