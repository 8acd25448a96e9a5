"""The [voice] settings: defaults, good values taken, bad ones refused with their line and the
default kept (the table still plays)."""

from __future__ import annotations

import logging
from pathlib import Path

from companion.config import Config, load_config


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "room25.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_defaults_speak_with_espeak_in_the_table_language() -> None:
    voice = Config().voice
    assert voice.enabled and not voice.mute and not voice.quiet_table
    assert (voice.language, voice.engine, voice.model, voice.device) == ("", "espeak-ng", "", "")
    assert voice.volume == 0.8


def test_good_values_are_taken(tmp_path: Path) -> None:
    config = load_config(
        _write(
            tmp_path,
            '[voice]\nlanguage = "fr"\nvolume = 0.3\nquiet_table = true\nengine = "piper"\n'
            'model = "/var/lib/room25/fr_FR-siwis-medium.onnx"\n'
            'device = "plughw:CARD=Device,DEV=0"\n',
        )
    )
    voice = config.voice
    assert (voice.language, voice.volume, voice.quiet_table, voice.engine) == (
        "fr",
        0.3,
        True,
        "piper",
    )
    assert voice.model.endswith(".onnx") and voice.device == "plughw:CARD=Device,DEV=0"


def test_bad_values_are_refused_with_their_line(tmp_path: Path, caplog) -> None:
    text = (
        "[voice]\n"
        'language = "xx"\n'
        "volume = 2\n"
        'engine = "festival"\n'
        'model = "voice.bin"\n'
        'device = "hw:0; rm -rf /"\n'
        'mute = "yes"\n'
    )
    with caplog.at_level(logging.WARNING, logger="companion.config"):
        config = load_config(_write(tmp_path, text))
    assert config.voice == Config().voice
    for line, key in enumerate(("language", "volume", "engine", "model", "device", "mute"), 2):
        assert f"line {line}: voice.{key}" in caplog.text
