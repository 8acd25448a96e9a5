"""A language's texts are read when they are first asked for (issue 29, point 7): knowing a
notice's or a refusal's code reads the fallback language's alone, and a text in another language
reads that one language then."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion import words
from companion.engine.kernel.mac_words import PREFIX, TOPIC

CHECK = """
import json
from companion.engine.kernel.refusals import catalogue as refusals
from companion.session.notices import Notice, catalogue as notices
from companion.words import catalogue
code = next(iter(notices()))
Notice(code, {}).text("en")
known = "no_such_code" in refusals()
read = [catalogue.own_texts.cache_info().currsize]
said = notices()[code]["fr"]
read.append(catalogue.own_texts.cache_info().currsize)
print(json.dumps({"read": read, "said": said, "known": known}))
"""


def test_a_code_is_known_from_the_fallback_and_a_language_read_when_asked_for() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, check=True, timeout=60, text=True
    )
    found = json.loads(done.stdout)
    assert found["read"] == [1, 2]  # English alone, then French as well
    assert found["said"].strip() and not found["known"]


def test_every_language_writes_its_cards_words_in_the_cards_topic() -> None:
    """The cards' words are read from that one topic of each language: one written elsewhere
    would be said in the fallback language."""
    for lang in words.languages():
        path = Path(words.__file__).parent / lang / f"{TOPIC}.json"
        written = {key for key in json.loads(path.read_text("utf-8")) if key.startswith(PREFIX)}
        assert written == {key for key in words.own_texts(lang) if key.startswith(PREFIX)}, lang
        assert written <= set(words.topic(lang, TOPIC)) and len(written) > 50, lang
