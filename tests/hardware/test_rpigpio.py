"""`[buttons] pin_factory = "rpigpio"`: gpiozero's RPiGPIOFactory, as the settings name it, drives
a seat button through RPi.GPIO (here a stand-in module, RPi.GPIO being absent off a Pi), and the
service opens /dev/gpiomem for it through the drop-in systemd/install.sh writes."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Button

from companion.config import load_config
from companion.hardware.pins import pi_factory

from . import standin_rpigpio
from .standin_rpigpio import Lines

ROOT = Path(__file__).parents[2]
PI_4B = (
    0xC03111  # a Raspberry Pi 4 Model B's revision code (RPi.GPIO itself; a Pi 5 takes rpi-lgpio)
)


@pytest.fixture
def lines(mocker, tmp_path: Path) -> Iterator[Lines]:
    """The stand-in RPi.GPIO in sys.modules, gpiozero's rpigpio module imported afresh over it,
    and this machine taken for a Pi 4 by the revision gpiozero reads."""
    standin = Lines()
    mocker.patch.dict(sys.modules, standin_rpigpio.modules(standin))
    sys.modules.pop("gpiozero.pins.rpigpio", None)
    mocker.patch("gpiozero.pins.local.get_pi_revision", return_value=PI_4B)
    yield standin
    sys.modules.pop("gpiozero.pins.rpigpio", None)


def test_the_rpigpio_factory_named_in_the_settings_drives_a_seat_button(
    lines: Lines, mocker, tmp_path: Path
) -> None:
    settings = tmp_path / "room25.toml"
    settings.write_text('[buttons]\npin_factory = "rpigpio"\n')
    factory = pi_factory(load_config(settings).buttons.pin_factory)
    setup = mocker.spy(sys.modules["RPi.GPIO"], "setup")
    try:
        assert type(factory).__name__ == "RPiGPIOFactory"
        assert lines.mode == standin_rpigpio.BCM
        button = Button(17, pull_up=True, bounce_time=None, pin_factory=factory)
        setup.assert_any_call(17, standin_rpigpio.IN, standin_rpigpio.PUD_UP)
        pressed = threading.Event()
        button.when_pressed = pressed.set
        assert not button.is_pressed  # pulled up at rest
        lines.drive(17, 0)  # to ground: pressed
        assert button.is_pressed
        assert pressed.is_set()
        lines.drive(17, 1)
        assert not button.is_pressed
        button.close()
        assert 17 not in lines.edges
    finally:
        factory.close()


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed (systemd)"
)
def test_the_unit_with_its_rpigpio_drop_in_is_accepted(tmp_path: Path) -> None:
    """The drop-in adds /dev/gpiomem to the devices the unit opens, and systemd takes both."""
    dropin = (ROOT / "systemd" / "rpigpio.conf").read_text()
    assert "DeviceAllow=/dev/gpiomem rw" in dropin.splitlines()
    (tmp_path / "room25.service").write_text((ROOT / "systemd" / "room25.service").read_text())
    (tmp_path / "room25.service.d").mkdir()
    (tmp_path / "room25.service.d" / "rpigpio.conf").write_text(dropin)
    found = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / "room25.service")],
        capture_output=True,
        text=True,
        check=False,
        env={"SYSTEMD_UNIT_PATH": f"{tmp_path}:", "PATH": "/usr/bin:/bin"},
    )
    complaints = [
        line
        for line in (found.stdout + found.stderr).splitlines()
        if line.strip() and "/opt/room25/.venv/bin/room25" not in line
    ]
    assert complaints == []
