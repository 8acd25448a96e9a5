"""Issue 30, point 4: the voice in the pseudo-locale. Every phrase of `room25 voice --sample`
(each kind of announcement, a problem, news, a lesson), said in the pseudo-locale by a process
whose catalogue reads its folder from `$ROOM25_WORDS`, is made of the catalogue's texts alone:
once every bracketed text is taken out, only names, numbers and signs are left, no English."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pseudo_locale import CODE, allowed, outside_catalogue, write_pseudo_locale

from companion import words

SAY = """
import json, sys
from companion.voice.samples import sample_lines
lang = sys.argv[1]
said = {name: [line.text(lang) for line in lines] for name, lines in sample_lines().items()}
print(json.dumps(said, ensure_ascii=False))
"""


def test_every_voice_phrase_comes_from_the_catalogue(tmp_path: Path) -> None:
    extra = write_pseudo_locale(tmp_path / "words")
    env = {**os.environ, words.catalogue.EXTRA: str(extra)}
    done = subprocess.run([sys.executable, "-c", SAY, CODE], env=env, capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    said = json.loads(done.stdout)
    assert len(said) > 30 and all(said.values())  # every kind of announcement, each said
    outside = {
        name: [text for text in texts if outside_catalogue(text, allowed())]
        for name, texts in said.items()
    }
    assert {name: texts for name, texts in outside.items() if texts} == {}
