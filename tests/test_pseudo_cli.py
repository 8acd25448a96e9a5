"""Issue 30, point 4, at the command line: what `room25` prints in a terminal whose language is
the pseudo-locale (`LANG=qps`, its folder in `$ROOM25_WORDS`) comes from the catalogue: a deck
file's mistakes and warnings, the deck's whole table, a refused and a listed composition, a
missing journal, a refused option, the settings file's log lines, and what `room25 voice` and
`room25 screens` print. Once every bracketed text is taken
out, only the program's name, numbers, signs and names are left. And every key of the command
line's topics is asked for by the code."""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pseudo_locale import CODE, allowed, outside_catalogue, write_pseudo_locale
from test_cli_words import an_evening, newer_journal, not_a_journal

from companion import words
from companion.serve import JOURNAL_NAME

ROOM25 = Path(sys.executable).parent / "room25"
COMPANION = Path(words.__file__).parents[1]
# What a line may hold beside the catalogue's texts: the program's name before it.
PROGRAM = r"room25 [a-z]+:"
# Mistakes of every kind in one file: each is said, the card and the field named.
BAD_DECK = {
    "cards": [
        {"id": "a", "count": 0, "kind": "blakout", "level": "hard", "x2": True},
        {"id": "b", "count": 1, "kind": "complex_movement", "level": "standard",
         "line": {"axis": "row", "index": 2}, "direction": "up", "twice": "yes"},
        {"id": "c", "count": 1, "kind": "punishment", "level": "standard",
         "characters": ["max", "max"]},
        {"id": "d", "count": 1, "kind": "disabled_rooms", "level": "madness", "colour": "blue"},
        "not a card",
    ],
    "extra": 1,
}  # fmt: skip
ONE_CARD = {"cards": [BAD_DECK["cards"][1] | {"line": "row1", "direction": "east", "twice": True}]}
CONFIG = """
import logging, sys
from companion.config import load_config
logging.basicConfig(stream=sys.stderr, format="%(message)s")
load_config(sys.argv[1])
"""


@pytest.fixture(scope="module")
def pseudo_env(tmp_path_factory) -> dict[str, str]:
    extra = write_pseudo_locale(tmp_path_factory.mktemp("words"))
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    return {**env, words.catalogue.EXTRA: str(extra), "LANG": f"{CODE}.UTF-8"}


def _lines(env: dict[str, str], *command: str, errors: bool = False) -> list[str]:
    """What a command prints, or only its standard error (beside a JSON report)."""
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    said = done.stderr if errors else done.stdout + done.stderr
    return [line for line in said.splitlines() if line.strip()]


def _written(folder: Path, name: str, content: object) -> str:
    path = folder / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return str(path)


def test_every_line_of_the_command_line_comes_from_the_catalogue(pseudo_env, tmp_path) -> None:
    bad = _written(tmp_path, "bad.json", BAD_DECK)
    one = _written(tmp_path, "one.json", ONE_CARD)
    settings = _written(tmp_path, "room25.toml", "[web]\nport = 0\nprot = 1\n[sound]\nx = 1\n")
    said = {
        "deck mistakes": _lines(pseudo_env, str(ROOM25), "deck", "--file", bad),
        "deck warning": _lines(pseudo_env, str(ROOM25), "deck", "--file", one)[-1:],
        "deck missing": _lines(pseudo_env, str(ROOM25), "deck", "--file", str(tmp_path / "no")),
        "deck table": _lines(pseudo_env, str(ROOM25), "deck"),
        "compose refused": _lines(pseudo_env, str(ROOM25), "compose", "--players", "9"),
        "compose": _lines(pseudo_env, str(ROOM25), "compose", "--edition", "season2"),
        "no journal": _lines(pseudo_env, str(ROOM25), "games", "--data-dir", str(tmp_path)),
        "simulate refused": _lines(pseudo_env, str(ROOM25), "simulate", "--games", "0"),
        "settings": _lines(pseudo_env, sys.executable, "-c", CONFIG, settings),
    }
    assert len(said["deck mistakes"]) > 10  # each mistake on its line, not one of them
    assert len(said["deck table"]) > 20  # every card's line, its details too
    assert _outside(said, tmp_path) == {}


def _outside(said: dict[str, list[str]], folder: Path) -> dict[str, list[str]]:
    """Of each command's lines, those with words that are not the catalogue's."""
    assert all(said.values()), said
    ids = r"[a-z0-9]+(?:-[a-z0-9]+)+"  # a composition's id, as typed after --composition
    shown = allowed(PROGRAM, ids, re.escape(str(folder)) + r"\S*")
    outside = {
        name: [line for line in lines if outside_catalogue(line.lstrip("- "), shown)]
        for name, lines in said.items()
    }
    return {name: lines for name, lines in outside.items() if lines}


def test_what_other_modules_hand_the_command_line_comes_from_the_catalogue(
    pseudo_env, tmp_path
) -> None:
    """A scenario file that cannot be read (missing, misshapen, not YAML), a journal that
    cannot be used (by `stats`, `games`, and `serve` in the table's language), a setup the
    simulator refuses, and `room25 stats` itself."""
    room25 = str(ROOM25)
    files = [
        _written(tmp_path, "turn.yaml", "setup: {}\nposition:\n  turn: [1]\n"),
        _written(tmp_path, "key.yaml", "setup: {}\nexpectations: {}\n"),
        _written(tmp_path, "doc.json", [1]),
        _written(tmp_path, "broken.yaml", "setup: [\n"),
    ]
    said = {
        "scenario missing": _lines(pseudo_env, room25, "scenario", str(tmp_path / "no.yaml")),
        "scenario misshapen": _lines(pseudo_env, room25, "scenario", *files, errors=True),
        "not a journal": _stats(pseudo_env, not_a_journal(tmp_path / "other")),
        "newer journal": _stats(pseudo_env, newer_journal(tmp_path / "newer"), "games"),
        "serve journal": _serve_without_journal(pseudo_env, tmp_path / "serve"),
        "simulate refused": _lines(pseudo_env, room25, "simulate", "--players", "9"),
        "stats": _stats(pseudo_env, an_evening(tmp_path / "evening")),
    }
    assert len(said["scenario misshapen"]) == len(files) + 1  # each file, and the summary
    assert len(said["stats"]) >= 6  # the games, the heading, a group and its rates
    assert _outside(said, tmp_path) == {}


def _stats(env: dict[str, str], data: Path, command: str = "stats") -> list[str]:
    return _lines(env, str(ROOM25), command, "--data-dir", str(data))


def _serve_without_journal(env: dict[str, str], data: Path) -> list[str]:
    """Why `room25 serve` stops, at a table whose language is the pseudo-locale's, when its
    journal is a folder (the lines before it are a developer's log, in English)."""
    (data / JOURNAL_NAME).mkdir(parents=True)
    config = _written(data, "room25.toml", f'[table]\nlanguage = "{CODE}"\n')
    command = ("serve", "--data-dir", str(data), "--port", "0", "--hardware", "mock")
    lines = _lines(env, str(ROOM25), *command, "--config", config)
    return [line for line in lines if line.startswith("room25 serve:")]


TOPICS = ("deck", "cli", "config", "serve", "compose", "journal", "scenario", "simulate", "stats")
TOPICS += ("cli_table",)  # room25 voice, room25 screens
CODE_FILES = (
    *("cli.py", "check_command.py", "config.py", "serve.py", "engine", "session/archive.py"),
    *("scenario", "session/journal.py", "sim/simulate.py", "story/history.py"),
    *("voice", "hardware/gallery.py", "web/gallery.py"),
)


def _source() -> str:
    found = []
    for name in CODE_FILES:
        path = COMPANION / name
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        found.extend(file.read_text("utf-8") for file in files)
    return "\n".join(found)


@pytest.mark.parametrize("topic", TOPICS)
def test_every_text_of_the_command_lines_topics_is_asked_for(topic: str) -> None:
    """A key is named in the code whole or without its topic (`"take"` for `compose_take`, a
    composition error's code for `compose_error_<code>`), by the prefix of an f-string
    (`deck_line_central_`), or by the word before its count (`deck_few_cards` for `_one`)."""
    source = _source()
    literals = set(re.findall(r"(?<=[\"'])[a-z0-9_]+(?=[\"'])", source))
    prefixes = tuple(set(re.findall(r'f"([a-z_]+_)\{', source)))
    folder = Path(words.__file__).parent / words.fallback()
    keys = [k for k in json.loads((folder / f"{topic}.json").read_text()) if k[:1] != "_"]

    def asked(key: str) -> bool:
        base = re.sub(r"_(zero|one|two|few|many|other)$", "", key)
        short = {key, base, base.removeprefix(f"{topic}_"), base.removeprefix(f"{topic}_error_")}
        return bool(short & literals) or key.startswith(prefixes)

    assert keys and [key for key in keys if not asked(key)] == []


def _head(page: str) -> list[str]:
    """A gallery page's title, its text (wrapped over lines, whole here) and its table's header
    (the rows are the clips' texts, said in every language: test_pseudo_voice)."""
    title, text, table = page.split("\n\n")[:3]
    return [title, " ".join(text.splitlines()), table.splitlines()[0]]


def test_every_line_of_voice_and_screens_comes_from_the_catalogue(pseudo_env, tmp_path) -> None:
    """`room25 voice` and `room25 screens`: what they wrote (a clip, every sample and the
    gallery's page, every screen under its language), and what stopped them (an empty text, no
    espeak-ng, no Chromium, a file that cannot be written: the system's reason is its own)."""
    room25 = str(ROOM25)
    bare = {**pseudo_env, "PATH": str(tmp_path)}  # no espeak-ng, no Chromium
    blocked = Path(_written(tmp_path, "a file", ""))
    gallery = tmp_path / "gallery"
    samples = _lines(pseudo_env, room25, "voice", "--sample", str(gallery), "--gallery")
    said = {
        "voice refused": _lines(pseudo_env, room25, "voice", "--say", " "),
        "voice written": _lines(pseudo_env, room25, "voice", "--say", "25", "--out",
                                str(tmp_path / "said.wav")),
        "voice unwritable": _lines(pseudo_env, room25, "voice", "--say", "25", "--out",
                                   str(blocked / "said.wav")),
        "no espeak-ng": _lines(bare, room25, "voice", "--sample", str(tmp_path / "none")),
        "samples": [line for line in samples if "\t" not in line],  # the clips': test_pseudo_voice
        "gallery page": _head((gallery / "README.md").read_text("utf-8")),
        "screens": _lines(pseudo_env, room25, "screens", str(tmp_path / "screens")),
        "screens unwritable": _lines(pseudo_env, room25, "screens", str(blocked / "out")),
        "no chromium": _lines(bare, room25, "screens", "--pages", str(tmp_path / "pages"))[-1:],
    }  # fmt: skip
    assert len(said["samples"]) == 2 and all(said.values()), said
    program = r"room25 [a-z]+(?: --pages)?:"
    # The languages' own names head the gallery's columns; the system's own reason is kept.
    names = "|".join(re.escape(name) for name in words.names().values())
    reason = re.escape(os.strerror(errno.ENOTDIR))
    paths = re.escape(str(tmp_path)) + r"\S*"
    shown = allowed(program, names, reason, paths, r"[|`#*]", r"-{3}")
    outside = {
        name: [line for line in lines if outside_catalogue(line, shown)]
        for name, lines in said.items()
    }
    assert {name: lines for name, lines in outside.items() if lines} == {}
