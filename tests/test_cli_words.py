"""Issue 30: what other modules hand the command line is said in the terminal's language (en,
fr, de): a scenario file that cannot be read (`ScenarioFileError`), a journal that cannot be
used (`JournalError`, by `room25 stats`, `games` and `export`, and by `room25 serve` in the
table's language), a setup the simulator cannot play, and `room25 stats` itself."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from story.played import play_evenings

from companion.cli import main
from companion.scenario.load import ScenarioFileError, read
from companion.serve import JOURNAL_NAME
from companion.session.journal import Journal, JournalError
from companion.sim.simulate import SimulationError, simulate
from companion.words import languages

ROOM25 = Path(sys.executable).parent / "room25"
NBSP = "\u00a0"
LOCALES = {"en": "en_GB.UTF-8", "fr": "fr_FR.UTF-8", "de": "de_DE.UTF-8"}


def _said(monkeypatch, capsys, lang: str, *args: str) -> tuple[int, str, str]:
    monkeypatch.setenv("LC_ALL", LOCALES[lang])
    done = main(list(args))
    out = capsys.readouterr()
    return done, out.out, out.err


MISSING = {
    "en": "room25 scenario: {path}: no such file or folder\n",
    "fr": f"room25 scenario: {{path}}{NBSP}: fichier ou dossier introuvable\n",
    "de": "room25 scenario: {path}: Datei oder Ordner nicht gefunden\n",
}
MISSHAPEN = {
    "en": "FAIL {path}: scenario.position.turn: expected a whole number, not a list of 2",
    "fr": f"ÉCHEC {{path}}{NBSP}: scenario.position.turn{NBSP}: il faut un nombre entier, "
    "pas une liste de 2 éléments",
    "de": "FEHLER {path}: scenario.position.turn: erwartet wird eine ganze Zahl, "
    "nicht eine Liste mit 2 Einträgen",
}
UNKNOWN_KEY = {
    "en": "FAIL {path}: scenario: unknown key 'expectations' (did you mean 'expect'?)",
    "fr": f"ÉCHEC {{path}}{NBSP}: scenario{NBSP}: clé inconnue 'expectations' "
    f"(vouliez-vous dire 'expect'{NBSP}?)",
    "de": "FEHLER {path}: scenario: unbekannter Schlüssel 'expectations' (meintest du 'expect'?)",
}


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_a_scenario_file_that_cannot_be_read_is_said_in_the_terminals_language(
    monkeypatch, capsys, tmp_path: Path, lang: str
) -> None:
    """A missing file stops `room25 scenario`; a misshapen one is its failure. The problem in
    words of the language, the keys and values as typed."""
    absent = tmp_path / "absent.yaml"
    missing = _said(monkeypatch, capsys, lang, "scenario", str(absent))
    assert missing == (2, "", MISSING[lang].format(path=absent))
    turn = tmp_path / "turn.yaml"
    turn.write_text("setup: {players: 5}\nposition:\n  turn: [1, 2]\n")
    key = tmp_path / "key.yaml"
    key.write_text("setup: {}\nexpectations: {}\n")
    done, out, err = _said(monkeypatch, capsys, lang, "scenario", str(turn), str(key))
    assert done == 1 and '"ok": false' in out
    failed = err.splitlines()[:2]
    assert failed == [MISSHAPEN[lang].format(path=turn), UNKNOWN_KEY[lang].format(path=key)]


def test_every_misshapen_piece_is_said_in_every_language(tmp_path: Path) -> None:
    """Each code a malformed scenario reaches is in every language's catalogue (a missing one
    would be said as its key), and said in that language, not in the fallback's."""
    from test_scenario_files import MALFORMED, _write

    for case, (doc, _) in MALFORMED.items():
        path = _write(tmp_path, doc)
        with pytest.raises(ScenarioFileError) as raised:
            read(path)
        said = {lang: raised.value.text(lang) for lang in languages()}
        for lang, text in said.items():
            assert "scenario_" not in text, (case, lang, text)
            assert lang == "en" or text != said["en"], (case, lang, text)


def not_a_journal(folder: Path) -> Path:
    """A data directory whose journal is another program's SQLite file."""
    folder.mkdir()
    db = sqlite3.connect(folder / JOURNAL_NAME)
    db.execute("CREATE TABLE other (x)")
    db.commit()
    db.close()
    return folder


def newer_journal(folder: Path) -> Path:
    """A data directory whose journal a newer companion wrote (schema 9)."""
    folder.mkdir()
    sqlite3.connect(folder / JOURNAL_NAME).execute("PRAGMA user_version=9").close()
    return folder


NOT_A_JOURNAL = {
    "en": "room25 stats: {path} is an SQLite file but not a Room 25 journal\n",
    "fr": "room25 stats: {path} est un fichier SQLite mais pas un journal de Room 25\n",
    "de": "room25 stats: {path} ist eine SQLite-Datei, aber kein Room-25-Journal\n",
}
NEWER = {
    "en": "room25 games: the journal {path} was written by a newer companion "
    "(schema 9, this one reads 3)\n",
    "fr": "room25 games: le journal {path} a été écrit par un compagnon plus récent "
    "(schéma 9, celui-ci lit le 3)\n",
    "de": "room25 games: das Journal {path} wurde von einem neueren Begleiter geschrieben "
    "(Schema 9, dieser liest 3)\n",
}


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_a_journal_that_cannot_be_used_is_said_in_the_terminals_language(
    monkeypatch, capsys, tmp_path: Path, lang: str
) -> None:
    other = not_a_journal(tmp_path / "other")
    done = _said(monkeypatch, capsys, lang, "stats", "--data-dir", str(other))
    assert done == (1, "", NOT_A_JOURNAL[lang].format(path=other / JOURNAL_NAME))
    newer = newer_journal(tmp_path / "newer")
    done = _said(monkeypatch, capsys, lang, "games", "--data-dir", str(newer))
    assert done == (1, "", NEWER[lang].format(path=newer / JOURNAL_NAME))


def test_a_journal_changed_behind_its_back_is_said_in_each_language(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_NAME
    journal = Journal(path)
    journal.open()
    try:
        journal.db.execute(
            "INSERT INTO games VALUES ('g1', '[1]', 7, '{}', 'over', NULL, 1.0, 2.0)"
        )
        with pytest.raises(JournalError) as raised:
            journal.games()
    finally:
        journal.close()
    said = {lang: raised.value.text(lang) for lang in LOCALES}
    assert said == {
        "en": "the journal holds a list where a setup belongs",
        "fr": "le journal contient une liste là où doit se trouver une mise en place",
        "de": "das Journal enthält eine Liste, wo ein Aufbau stehen sollte",
    }
    assert str(raised.value) == said["en"]


SERVE_JOURNAL = {
    "en": "room25 serve: the journal cannot be opened: cannot open the journal {path}: ",
    "fr": f"room25 serve: le journal ne peut pas être ouvert{NBSP}: impossible d'ouvrir le "
    f"journal {{path}}{NBSP}: ",
    "de": "room25 serve: das Journal kann nicht geöffnet werden: das Journal {path} lässt sich "
    "nicht öffnen: ",
}


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_serve_says_a_journal_it_cannot_open_in_the_tables_language(
    tmp_path: Path, lang: str
) -> None:
    """A real `room25 serve` whose journal is a folder: it stops, and says why in the table's
    language ([table] language), SQLite's own reason after it."""
    (tmp_path / JOURNAL_NAME).mkdir()
    config = tmp_path / "room25.toml"
    config.write_text(f'[table]\nlanguage = "{lang}"\n', "utf-8")
    command = [str(ROOM25), "serve", "--data-dir", str(tmp_path), "--port", "0"]
    done = subprocess.run(
        [*command, "--hardware", "mock", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    (said,) = [line for line in done.stderr.splitlines() if line.startswith("room25 serve:")]
    assert said.startswith(SERVE_JOURNAL[lang].format(path=tmp_path / JOURNAL_NAME)), said


REFUSED = {
    "en": "room25 simulate: Suspicion (Base game) is for 4 to 6 players.\n",
    "fr": "room25 simulate: Le mode Suspicion (Jeu de base) se joue de 4 à 6 joueurs.\n",
    "de": "room25 simulate: Verdacht (Grundspiel) ist für 4 bis 6 Spieler.\n",
}


@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_setup_the_simulator_cannot_play_is_said_in_the_terminals_language(
    monkeypatch, capsys, lang: str, jobs: str
) -> None:
    """Refused in this process or in one of `--jobs`'s, it is said in the same words."""
    args = ("simulate", "--players", "9", "--games", "2", "--jobs", jobs)
    assert _said(monkeypatch, capsys, lang, *args) == (2, "", REFUSED[lang])


def test_an_unknown_policy_is_said_in_each_language() -> None:
    with pytest.raises(SimulationError) as raised:
        simulate({"players": 5}, 1, 0, policy="greedy")
    assert {lang: raised.value.text(lang) for lang in LOCALES} == {
        "en": "unknown players policy 'greedy': use 'heuristic' or 'random'",
        "fr": f"politique de joueurs inconnue « greedy »{NBSP}: choisissez « heuristic » "
        "ou « random »",
        "de": "unbekannte Spielweise „greedy“: wähle „heuristic“ oder „random“",
    }


def an_evening(data: Path) -> Path:
    """One Suspicion game played to its end, and a rigged Solo game (listed, not counted)."""
    suspicion = {"edition": "base", "mode": "suspicion", "players": 5}
    solo = {"edition": "base", "mode": "solo", "players": 1, "seed": 3, "rigged": True}
    play_evenings(data, [suspicion, solo])
    return data


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return an_evening(tmp_path_factory.mktemp("evening"))


STATS = {
    "en": ("Games:", "Suspicion (Base game), Beginner, 5 players", "1 player", "(rigged)",
           "How this table fares (this table / simulator):", ": 1 game, 100 simulated"),
    "fr": (f"Parties{NBSP}:", "Suspicion (Jeu de base), Débutant, 5 joueurs", "1 joueur",
           "(truquée)", f"Comment s'en sort cette table (cette table / simulateur){NBSP}:",
           f"{NBSP}: 1 partie, 100 simulées"),
    "de": ("Spiele:", "Verdacht (Grundspiel), Einsteiger, 5 Spieler", "1 Spieler",
           "(vorbereitet)", "Wie dieser Tisch abschneidet (dieser Tisch / Simulator):",
           ": 1 Spiel, 100 simuliert"),
}  # fmt: skip
RESULTS = {
    "en": {"guards": "Guards win", "prisoners": "Prisoners win"},
    "fr": {"guards": "Victoire des gardiens", "prisoners": "Victoire des prisonniers"},
    "de": {"guards": "Wächter siegen", "prisoners": "Gefangene siegen"},
}


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_room25_stats_speaks_the_terminals_language(
    monkeypatch, capsys, evening: Path, lang: str
) -> None:
    done, out, err = _said(monkeypatch, capsys, lang, "stats", "--data-dir", str(evening))
    assert (done, err) == (0, "")
    lines = out.splitlines()
    games, suspicion, solo, rigged, fares, group = STATS[lang]
    assert lines[0] == games and lines[3] == fares
    assert suspicion in lines[1] and solo in lines[2] and lines[2].endswith(rigged)
    assert lines[4].startswith(f"  {suspicion}") and lines[4].endswith(group)
    percent = "%" if lang == "en" else " %"  # as the catalogue writes a share elsewhere
    rate = re.compile(rf"    (\D+?) +\d+{percent} / +\d+{percent}")
    found = [rate.fullmatch(line) for line in lines[5:]]
    assert all(found), lines[5:]
    assert {m[1] for m in found if m} == set(RESULTS[lang].values())
