"""The pieces of `room25 serve` that decide before anything starts: which hardware and why,
the one-serve-per-data-directory lock, and log lines journald reads well."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest

from companion.serve import ServeError, choose_hardware, setup_logging, take_lock


def test_a_raspberry_pi_gets_its_own_hardware(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\x00")
    kind, why = choose_hardware(None, model)
    assert kind == "pi" and "Raspberry Pi Zero 2 W" in why


def test_elsewhere_the_hardware_is_virtual_and_says_why(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_text("Some ARM board")
    assert choose_hardware(None, model) == (
        "virtual",
        f"{model} says 'Some ARM board', not a Raspberry Pi",
    )
    kind, why = choose_hardware(None, tmp_path / "missing")
    assert kind == "virtual" and "cannot be read" in why
    assert choose_hardware("mock", model) == ("mock", "--hardware mock was asked for")


def test_the_lock_refuses_a_second_holder_until_released(tmp_path: Path) -> None:
    first = take_lock(tmp_path / "data")
    with pytest.raises(ServeError, match="already running on") as refused:
        take_lock(tmp_path / "data")
    # said in the table's language when serve prints it (serve.json)
    assert refused.value.text("fr").startswith(f"un autre room25 serve tourne déjà sur {tmp_path}")
    first.close()
    take_lock(tmp_path / "data").close()


def test_logs_are_plain_lines_without_a_terminal() -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        setup_logging(stream)
        logging.getLogger("room25").info("hardware: %s", "virtual")
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
    assert stream.getvalue() == "INFO room25: hardware: virtual\n"
