"""Finished games stay in the history: `room25 games` lists them, `room25 export GAME` writes
one as JSON (without secrets while the game goes on) and `room25 replay FILE` rebuilds it."""

from __future__ import annotations

import json
from pathlib import Path

from session_helpers import COUNTDOWN, DEALT, play

from companion.cli import main
from companion.engine import start
from companion.session import FakeClock, Session
from companion.session.archive import ExportError


def journal_with_games(data_dir: Path) -> tuple[str, str]:
    with Session(data_dir / "journal.sqlite", FakeClock()) as session:
        over = session.host("new_game", setup=COUNTDOWN).game
        play(session, 400, seed=8)  # a countdown game runs out of turns
        assert session.snapshot("public")["waiting"]["phase"] == "over"
        assert session.host("undo").ok and play(session, 1, seed=9)  # one undone command
        going = session.host("new_game", setup={**DEALT, "seed": 5}).game
        play(session, 12, seed=1)
    return over, going


def test_games_lists_every_game(tmp_path: Path, capsys) -> None:
    over, going = journal_with_games(tmp_path)
    assert main(["games", "--data-dir", str(tmp_path), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(g["game"], g["status"]) for g in listed] == [(over, "over"), (going, "playing")]
    assert listed[1]["commands"] == 12
    assert main(["games", "--data-dir", str(tmp_path)]) == 0
    assert f"{going}  playing" in capsys.readouterr().out


def test_a_finished_game_exports_and_replays_to_its_end(tmp_path: Path, capsys) -> None:
    over, _ = journal_with_games(tmp_path)
    target = tmp_path / "game.json"
    assert main(["export", over, "--data-dir", str(tmp_path), "-o", str(target)]) == 0
    exported = json.loads(target.read_text())
    assert exported["complete"] and isinstance(exported["seed"], int)
    assert sum(c["undone"] for c in exported["commands"]) == 1
    capsys.readouterr()
    assert main(["replay", str(target)]) == 0
    end = json.loads(capsys.readouterr().out)
    assert end["commands_agree"] and end["waiting"]["phase"] == "over"
    assert end["undone"] == 1 and end["view"]["outcome"] == exported["outcome"]


def test_an_unfinished_game_exports_without_its_secrets(tmp_path: Path, capsys) -> None:
    _, going = journal_with_games(tmp_path)
    assert main(["export", going, "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr()
    exported = json.loads(out.out)
    assert "secrets" in out.err and not exported["complete"]
    assert "seed" not in exported and "commands" not in exported
    assert "seed" not in exported["setup"]
    created = exported["public_events"][0]
    assert created["rng"] is None and all(
        kind is None for kind, shown in created["tiles"] if not shown
    )
    assert not any("private" in e for e in exported["public_events"])
    (tmp_path / "going.json").write_text(out.out)
    assert main(["replay", str(tmp_path / "going.json")]) == 1
    assert "still being played" in capsys.readouterr().err


def test_unknown_games_and_files_are_said_plainly(tmp_path: Path, capsys) -> None:
    assert main(["games", "--data-dir", str(tmp_path)]) == 1
    assert "no journal" in capsys.readouterr().err
    journal_with_games(tmp_path)
    assert main(["export", "nope", "--data-dir", str(tmp_path)]) == 1
    assert "no game 'nope'" in capsys.readouterr().err
    (tmp_path / "x.json").write_text("{]")
    assert main(["replay", str(tmp_path / "x.json")]) == 1
    assert "is not JSON" in capsys.readouterr().err


def test_a_damaged_or_newer_export_is_refused_where_it_is_read(tmp_path: Path, capsys) -> None:
    """A file is checked once, where it is read: each damage is named in words, nothing is
    rebuilt and the file is left as it was."""
    over, _ = journal_with_games(tmp_path)
    good = tmp_path / "game.json"
    assert main(["export", over, "--data-dir", str(tmp_path), "-o", str(good)]) == 0
    exported = json.loads(good.read_text())
    no_seed = {k: v for k, v in exported.items() if k != "seed"}
    commands = [dict(c) for c in exported["commands"]]
    commands[3]["events"] = [{"character": "emmett"}]  # an event without its type
    damaged = {
        "not an export": ([exported], "not a Room 25 game export"),
        "newer": ({**exported, "format_version": 2}, "written by a newer companion"),
        "no version": ({**exported, "format_version": "1"}, "names no format version"),
        "no seed": (no_seed, "its 'seed' is missing or wrong"),
        "bad event": ({**exported, "commands": commands}, "its 'commands[3].events' is"),
        "bad names": ({**exported, "names": ["Bea"]}, "its 'names' is missing or wrong"),
    }
    capsys.readouterr()
    for name, (content, said) in damaged.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(content))
        before = path.read_bytes()
        assert main(["replay", str(path)]) == 1, name
        out = capsys.readouterr()
        assert said in out.err and out.out == "", (name, out.err)
        assert path.read_bytes() == before


def test_a_damaged_export_is_refused_in_the_terminals_language(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """`room25 replay` says why a file cannot be rebuilt in the terminal's language, each
    reason a code of the catalogue; the file's own field is named as it is written."""
    over, _ = journal_with_games(tmp_path)
    good = tmp_path / "game.json"
    assert main(["export", over, "--data-dir", str(tmp_path), "-o", str(good)]) == 0
    exported = json.loads(good.read_text())
    (tmp_path / "no-seed.json").write_text(json.dumps({**exported, "seed": "x"}))
    (tmp_path / "newer.json").write_text(json.dumps({**exported, "format_version": 99}))
    capsys.readouterr()
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    assert main(["replay", str(tmp_path / "no-seed.json")]) == 1
    assert capsys.readouterr().err == (
        "room25 replay: cet export de partie est abîmé\u00a0: son « seed » manque ou est faux\n"
    )
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    assert main(["replay", str(tmp_path / "newer.json")]) == 1
    assert capsys.readouterr().err == (
        "room25 replay: dieser Export wurde von einem neueren Begleiter geschrieben\n"
    )


def test_a_setup_this_engine_refuses_is_said_with_its_refusal_in_one_language() -> None:
    refusal = start({"mode": "chess"}).refusal
    said = ExportError("setup_refused", refusal=refusal).text("fr")
    assert said == "ce moteur refuse la mise en place\u00a0: " + refusal.text("fr")
    assert refusal.text("fr") != refusal.text("en")
