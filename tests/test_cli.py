"""The `room25` command: exit codes and output a script or a person relies on."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main

SCENARIOS = Path(__file__).parent / "scenarios"
ACID = SCENARIOS / "base" / "rooms" / "acid_bath_first_in_is_eliminated.yaml"


def test_scenario_prints_the_final_state_and_exits_zero(capsys) -> None:
    assert main(["scenario", str(ACID)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["state"]["deaths"] == ["emmett"]


def test_scenario_names_the_failing_step_and_exits_non_zero(tmp_path, capsys) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(ACID.read_text().replace("eliminated: [emmett]", "eliminated: [max]"))
    assert main(["scenario", str(broken)]) == 1
    assert "step 5: eliminated are ['emmett'], expected ['max']" in capsys.readouterr().err


def test_scenario_on_a_missing_file_says_so(capsys) -> None:
    assert main(["scenario", "no/such/file.yaml"]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_simulate_json_reports_games_per_second(capsys) -> None:
    assert main(["simulate", "--mode", "solo", "--players", "1", "--games", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 3 and figures["games_per_second"] > 0


def test_deck_json_lists_58_cards_with_counts(capsys) -> None:
    assert main(["deck", "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    assert sum(card["count"] for card in cards) == 58


def test_deck_rejects_a_bad_file_plainly(tmp_path, capsys) -> None:
    bad = tmp_path / "deck.json"
    bad.write_text(json.dumps({"cards": [{"id": "x", "count": 1, "kind": "banana"}]}))
    assert main(["deck", "--file", str(bad)]) == 1
    assert "kind" in capsys.readouterr().err


def test_the_level_is_said_standard_and_basic_is_read_as_standard(capsys) -> None:
    """One word for users (000's "BASIC CARDS" are the standard level's): `--level basic` is
    the standard level, and the listing says so."""
    args = ["compose", "--edition", "season2", "--mode", "cooperation", "--players", "4"]
    assert main([*args, "--level", "basic"]) == 0
    basic = capsys.readouterr().out
    assert main([*args, "--level", "standard"]) == 0
    assert basic == capsys.readouterr().out
    assert "standard level" in basic.splitlines()[0]


def test_compose_lists_the_tiles_and_the_turns(capsys) -> None:
    args = ["compose", "--edition", "season2", "--mode", "cooperation", "--players", "5"]
    assert main([*args, "--seed", "1", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert listing["turns"] == 7
    assert sum(line["count"] for line in listing["tiles"]) == 25
    assert listing["free_slots"] == {}


def test_check_walks_the_mock_table_and_names_each_part(tmp_path: Path, capsys) -> None:
    """`room25 check` on gpiozero's mock pins and luma's dummy OLED, nobody pressing: one line a
    part, each unpressed button named with its pin, the absent parts said, no traceback; it
    ends with 1 (parts to look at)."""
    code = main(["check", "--hardware", "mock", "--seconds", "0.05", "--data-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert "  ok  OLED (SSD1306, I2C address 0x3C, bus 1): test pattern shown." in out
    assert "  !!  Seat 8 (GPIO21): no press seen in 0.05 s." in out
    assert "  --  Serial panel: none configured." in out
    assert out.splitlines()[-1] == "Not wired: the speaker, the serial panel."
