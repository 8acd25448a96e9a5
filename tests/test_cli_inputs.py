"""`room25` on bad input, run as the real program: a non-zero exit and one plain line on stderr
that names the problem, never a Python traceback (issue 8, "No traceback on any input")."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from story.games import finished_games

ROOM25 = Path(sys.executable).parent / "room25"
SCENARIOS = Path(__file__).parent / "scenarios"
ACID = SCENARIOS / "base" / "rooms" / "acid_bath_first_in_is_eliminated.yaml"


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ROOM25), *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def _one_plain_line(done: subprocess.CompletedProcess[str], *words: str) -> str:
    assert done.returncode != 0, done
    assert "Traceback" not in done.stderr, done.stderr
    assert "internal error" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert len(lines[0]) < 400, lines[0]
    return lines[0]


def _card(**fields: object) -> dict:
    """One standard card as the packaged deck writes it, with some fields changed."""
    card = {
        "id": "move-row0-east",
        "count": 1,
        "kind": "complex_movement",
        "level": "standard",
        "line": {"axis": "row", "index": 0},
        "direction": "east",
        "twice": False,
        "draw_again": False,
    }
    return {**card, **fields}


# Each scenario file: its text, then words its one line must hold.
SCENARIO_FILES = {
    "steps a number.yaml": ("setup: {mode: cooperation}\nsteps: 5\n", ["scenario.steps"]),
    "unknown cell.yaml": (
        "setup: {mode: cooperation}\nexpect: {revealed: {Z9: acid}}\n",
        ["expect.revealed key", "C3"],
    ),
    "position list.yaml": ("setup: {mode: cooperation}\nposition: [1]\n", ["scenario.position"]),
    "turn a text.yaml": (
        "setup: {mode: cooperation}\nposition: {turn: three}\n",
        ["position.turn", "a whole number"],
    ),
    "views shape.yaml": (
        "setup: {mode: cooperation}\nexpect: {views: {seat: '1'}}\n",
        ["expect.views"],
    ),
    "setup list.yaml": ("setup: [1, 2]\n", ["scenario.setup"]),
    "players a text.yaml": ("setup: {mode: cooperation, players: x}\n", ["setup", "players"]),
    "deep.json": ("[" * 50_000 + "]" * 50_000, ["nested too deeply"]),
    "deep.yaml": ("a: " + "[" * 5_000 + "]" * 5_000 + "\n", ["YAML"]),
    "bad yaml.yaml": ("setup: {mode: [\n", ["not valid YAML", "line"]),
    "bad json.json": ('{"setup": }', ["not valid JSON", "line 1"]),
    "latin1.yaml": ("name: caf\xe9\nsetup: {}\n", ["not UTF-8"]),
    "huge.yaml": ("setup: {}\nname: " + "x" * 300_000 + "\n", ["larger than 256 kB"]),
    "empty.yaml": ("\n", ["the file is empty"]),
    "long key.json": ('{"setup": {}, "position": {"' + "k" * 100_000 + '": 1}}', ["unknown key"]),
}


@pytest.mark.parametrize("name", sorted(SCENARIO_FILES))
def test_scenario_on_a_malformed_file(tmp_path: Path, name: str) -> None:
    text, words = SCENARIO_FILES[name]
    path = tmp_path / name
    path.write_bytes(text.encode("latin-1" if name.startswith("latin1") else "utf-8"))
    _one_plain_line(_run("scenario", str(path)), str(path), *words)


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/dev/null", ["/dev/null", "the file is empty"]),
        ("/dev/zero", ["/dev/zero", "larger than"]),
        ("no/such/file.yaml", ["no such file or folder"]),
    ],
)
def test_scenario_on_special_and_missing_files(path: str, words: list[str]) -> None:
    _one_plain_line(_run("scenario", path), *words)


def _deck_file(tmp_path: Path, content: object) -> str:
    path = tmp_path / "deck.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return str(path)


DECKS = {
    "empty path": (None, ["no path given"]),
    "dev zero": ("/dev/zero", ["larger than 512 kB"]),
    "dev null": ("/dev/null", ["the file is empty"]),
    "missing": ("no/such/deck.json", ["no deck file at this path"]),
    "not json": ("{cards", ["not valid JSON"]),
    "deep": ("[" * 50_000 + "]" * 50_000, ["nested too deeply"]),
    "billion copies": ({"cards": [_card(count=10**9)]}, ["at most 60 copies", "1000000000"]),
    "long id": ({"cards": [_card(id="x" * 100_000, count=0)]}, ["must be at least 1"]),
    "cards a text": ({"cards": "all"}, ["'cards'", "must be a list"]),
}


@pytest.mark.parametrize("case", sorted(DECKS))
def test_deck_on_a_bad_file(tmp_path: Path, case: str) -> None:
    given, words = DECKS[case]
    if given is None:
        target = ""
    elif isinstance(given, str) and (given.startswith("/") or given.startswith("no/")):
        target = given
    else:
        target = _deck_file(tmp_path, given)
    _one_plain_line(_run("deck", "--file", target), "room25 deck:", *words)


def test_a_long_id_is_not_echoed_back_whole(tmp_path: Path) -> None:
    target = _deck_file(tmp_path, {"cards": [_card(id="x" * 100_000, count=0)]})
    line = _one_plain_line(_run("deck", "--file", target))
    assert "x" * 100 not in line


def test_a_one_card_deck_is_listed_with_a_warning(tmp_path: Path) -> None:
    done = _run("deck", "--file", _deck_file(tmp_path, {"cards": [_card()]}))
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "warning: the deck holds only 1 card;" in done.stderr
    assert done.stdout.startswith("count")


COMPOSE = {
    "unknown composition": (["--composition", "X"], ["unknown composition 'X'"]),
    "composition for another table": (
        ["--edition", "ultimate", "--players", "5", "--composition", "expert-competition"],
        ["'expert-competition' is not a composition for Ultimate Suspicion with 5 players"],
    ),
    "composition with too many players": (
        ["--composition", "expert-suspicion", "--players", "9"],
        ["4 to 6 players, not 9"],
    ),
    "guards outside suspicion": (
        ["--mode", "cooperation", "--players", "4", "--guards", "1"],
        ["no choice of guards"],
    ),
    "guards in the base game": (["--players", "5", "--guards", "1"], ["no choice of guards"]),
    "guards at 4 players": (
        ["--edition", "ultimate", "--players", "4", "--guards", "1"],
        ["for 5 players, not 4"],
    ),
    "level in suspicion": (["--edition", "season2", "--level", "madness"], ["no M.A.C. level"]),
    "level in the base game": (["--mode", "cooperation", "--level", "standard"], ["no M.A.C."]),
}


@pytest.mark.parametrize("case", sorted(COMPOSE))
def test_compose_refuses_what_does_not_apply(case: str) -> None:
    args, words = COMPOSE[case]
    _one_plain_line(_run("compose", *args), "room25 compose:", *words)


def test_compose_still_takes_a_composition_that_fits() -> None:
    done = _run("compose", "--edition", "ultimate", "--players", "5", "--guards", "1")
    assert done.returncode == 0, done.stderr
    assert "turns" in done.stdout


def _closed_pipe(command: list[str]) -> tuple[int, str]:
    """Run a command whose reader has already gone: its stdout is a pipe closed at once, so its
    first write meets a broken pipe (as under `| head -1` once head is done). Whatever the
    caller's environment says, stdout is buffered as a shell's would be (no PYTHONUNBUFFERED)."""
    quiet = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=quiet
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()
        error = process.stderr.read()
        return process.wait(timeout=60), error


# Every command that prints to standard output with no journal to read (one short run each).
PRINTING = {
    "help": ["--help"],
    "a command's help": ["simulate", "--help"],
    "deck": ["deck"],
    "deck json": ["deck", "--json"],
    "compose": ["compose"],
    "compose json": ["compose", "--json"],
    "scenario": ["scenario", str(ACID)],
    "simulate": ["simulate", "--games", "2", "--jobs", "1"],
    "simulate json": ["simulate", "--games", "2", "--jobs", "1", "--json"],
}


@pytest.mark.parametrize("case", sorted(PRINTING))
def test_a_reader_that_leaves_early_ends_no_traceback(case: str) -> None:
    """`room25 ... | head -1`: silent, and exit 0."""
    code, error = _closed_pipe([str(ROOM25), *PRINTING[case]])
    assert error == "", error
    assert code == 0


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Path]:
    """A data directory whose journal holds one finished game, its id, and its export."""
    data_dir = tmp_path_factory.mktemp("played")
    game = finished_games(data_dir, ("base",))["base"]
    exported = data_dir / "game.json"
    done = _run("export", game, "--data-dir", str(data_dir), "--output", str(exported))
    assert done.returncode == 0, done.stderr
    return data_dir, game, exported


@pytest.mark.parametrize("command", ["games", "games --json", "stats", "export", "replay"])
def test_a_reader_that_leaves_a_journal_command_early_ends_no_traceback(
    command: str, played: tuple[Path, str, Path]
) -> None:
    """The commands that read the journal, under `| head -1`: silent, and exit 0."""
    data_dir, game, exported = played
    words = command.split()
    args = {
        "export": [game, "--data-dir", str(data_dir)],
        "replay": [str(exported)],
    }.get(words[0], ["--data-dir", str(data_dir)])
    code, error = _closed_pipe([str(ROOM25), *words, *args])
    assert error == "", error
    assert code == 0


def test_the_closed_pipe_does_break_an_unguarded_print() -> None:
    """The check above can fail: the same listing printed without the guard does break."""
    unguarded = (
        "from companion.engine.kernel.mac_deck import format_deck, load_deck; "
        "print(format_deck(load_deck()))"
    )
    code, error = _closed_pipe([sys.executable, "-c", unguarded])
    assert code != 0 and "BrokenPipeError" in error


def test_a_good_scenario_still_passes() -> None:
    done = _run("scenario", str(ACID))
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "1 passed, 0 failed"


def _swap_one_value(doc: object, rng: random.Random) -> object:
    """The document with one value, somewhere inside it, replaced by one of another shape."""
    odd = [None, True, 7, -1, 2.5, "", "Z9", "x" * 300, [], [1, [2]], {}, {"a": {"b": 1}}]
    node = doc
    while isinstance(node, (dict, list)) and node:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        child = node[key]
        if not isinstance(child, (dict, list)) or rng.random() < 0.3:
            node[key] = rng.choice(odd)
            break
        node = child
    return doc


def test_randomly_misshapen_scenario_files_end_in_plain_lines(tmp_path: Path) -> None:
    """A small fuzz through the real program: real scenario files, one value swapped for one of
    another shape; each run passes or fails in plain lines, never with a traceback."""
    rng = random.Random(8)
    files = sorted(SCENARIOS.rglob("*.yaml"))
    for number in range(12):
        source = rng.choice(files)
        path = tmp_path / f"fuzz{number}.yaml"
        path.write_text(yaml.safe_dump(_swap_one_value(yaml.safe_load(source.read_text()), rng)))
        done = _run("scenario", str(path))
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr, source
        assert done.returncode in (0, 1), (source, done.stderr)
        lines = done.stderr.strip().splitlines()
        if done.returncode:
            assert lines and all(line.startswith(f"FAIL {path}: ") for line in lines), lines
