"""The settings file: defaults without one, values read with their types, and every bad value
named with its line and the default used instead."""

from __future__ import annotations

import logging
from dataclasses import fields
from pathlib import Path

from companion.config import RULES, Config, load_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "room25.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_gives_the_defaults() -> None:
    config = load_config(None)
    assert config == Config()
    assert config.web.port == 8025 and config.display.address == 0x3C
    assert config.buttons.seats == (5, 6, 13, 19, 26, 16, 20, 21)


def test_values_are_read(tmp_path: Path) -> None:
    config = load_config(
        write(
            tmp_path,
            '[table]\nlanguage = "fr"\ntime_limit = 90\n\n[display]\naddress = 0x3D\n'
            "[buzzer]\nvolume = 0.2\nmute = true\n"
            "[buttons]\nseats = [1, 2, 3, 4, 5, 6, 7, 8]\n",
        )
    )
    assert config.table.language == "fr" and config.table.time_limit == 90
    assert config.display.address == 0x3D
    assert config.buzzer.volume == 0.2 and config.buzzer.mute is True
    assert config.buttons.seats == (1, 2, 3, 4, 5, 6, 7, 8)
    assert config.web == Config().web


def test_a_bad_value_is_named_with_its_line_and_the_default(tmp_path: Path, caplog) -> None:
    path = write(tmp_path, '[web]\nhost = "0.0.0.0"\nport = 99999\n[table]\nlanguage = "xx"\n')
    with caplog.at_level(logging.WARNING, "companion.config"):
        config = load_config(path)
    assert config.web.port == 8025 and config.table.language == "en"
    text = caplog.text
    assert (
        f"{path}, line 3: web.port = 99999 is not a port from 1 to 65535; using the default 8025"
        in text
    )
    assert f"{path}, line 5: table.language = 'xx'" in text and "default 'en'" in text


def test_unknown_settings_and_broken_files_fall_back_to_defaults(tmp_path: Path, caplog) -> None:
    with caplog.at_level(logging.WARNING, "companion.config"):
        config = load_config(write(tmp_path, "[web]\nprot = 1\n[sound]\nx = 1\n"))
        assert config == Config()
        assert "line 2: unknown setting web.prot" in caplog.text
        assert "line 3: unknown section [sound]" in caplog.text
        assert load_config(write(tmp_path, "[web\nport = 1")) == Config()
        assert "not valid TOML" in caplog.text
        assert load_config(tmp_path / "missing.toml") == Config()
        assert "cannot be read" in caplog.text


def test_a_wrong_type_is_refused(tmp_path: Path) -> None:
    config = load_config(
        write(tmp_path, '[buzzer]\nmute = "yes"\npin = true\n[buttons]\nleds = [1]\n')
    )
    assert config.buzzer == Config().buzzer and config.buttons.leds == Config().buttons.leds


def test_every_setting_has_a_rule_and_every_rule_a_setting() -> None:
    """A setting without a rule would be refused as unknown; a rule without one, never used."""
    settings = {(s.name, f.name) for s in fields(Config) for f in fields(getattr(Config(), s.name))}
    assert set(RULES) == settings
