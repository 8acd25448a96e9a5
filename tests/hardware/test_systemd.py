"""The unit file's settings, the install script's syntax, and the notify protocol spoken to a
datagram socket the test opens (a path and an abstract name, as systemd uses both)."""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
from pathlib import Path

import pytest

from companion.config import Config, load_config
from companion.session.systemd_notify import (
    keep_petting,
    notify_ready,
    notify_stopping,
    notify_watchdog,
    watchdog_interval,
)

ROOT = Path(__file__).parents[2]
UNIT = ROOT / "systemd" / "room25.service"
# The drop-in systemd/install.sh writes for a factory the unit alone does not let through.
DROP_INS = {"rpigpio": ROOT / "systemd" / "rpigpio.conf"}


def _unit(path: Path = UNIT) -> dict[str, dict[str, list[str]]]:
    """Sections -> key -> every value (systemd allows a key more than once)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        assert current is not None, line
        current.setdefault(key, []).append(value)
    return sections


def test_the_unit_runs_unprivileged_with_a_watchdog_and_restarts() -> None:
    service = _unit()["Service"]
    assert service["Type"] == ["notify"]
    assert int(service["WatchdogSec"][0]) > 0
    assert service["Restart"] == ["on-failure"]
    assert service["User"] == ["room25"]
    assert set(service["SupplementaryGroups"][0].split()) == {"gpio", "i2c", "dialout", "audio"}
    assert "CapabilityBoundingSet" in service and service["CapabilityBoundingSet"] == [""]
    assert service["NoNewPrivileges"] == ["yes"]


def test_lgpio_gets_a_writable_working_directory() -> None:
    service = _unit()["Service"]
    workdir = service["WorkingDirectory"][0]
    assert service["Environment"].count(f"LG_WD={workdir}") == 1
    assert workdir in service["ReadWritePaths"][0].split()
    assert service["StateDirectory"] == [Path(workdir).name]


def test_hardening_still_lets_the_devices_through() -> None:
    service = _unit()["Service"]
    assert service["ProtectSystem"] == ["strict"]
    assert service["DevicePolicy"] == ["closed"]
    allowed = {value.split()[0] for value in service["DeviceAllow"]}
    assert {"char-gpiochip", "char-i2c", "char-ttyACM"} <= allowed
    assert "PrivateDevices" not in service  # it would hide /dev/gpiochip* and /dev/i2c-*


def test_the_voice_reaches_the_sound_card_under_the_unit() -> None:
    """The voice plays with aplay on /dev/snd/*: the unit lets the ALSA devices through and its
    user is in the audio group, or every announcement would be a "speaker unavailable" notice."""
    service = _unit()["Service"]
    allowed = {value.split()[0] for value in service["DeviceAllow"]}
    assert "char-alsa" in allowed
    assert "audio" in service["SupplementaryGroups"][0].split()


# What each gpiozero pin factory opens, as DeviceAllow= names it.
FACTORY_DEVICES = {
    "lgpio": "char-gpiochip",
    "rpigpio": "/dev/gpiomem",
    "native": "/dev/gpiomem",
    "pigpio": "/dev/gpiomem",  # through its daemon, which needs it too
}
SETTINGS_DOCS = ("docs/pi-setup.md", "docs/session.md", "docs/hardware.md", "wiring/room25.toml")


def test_every_pin_factory_the_docs_offer_works_under_the_unit() -> None:
    """A factory named in the settings' docs as a choice must find its device in the sandbox
    (RPi.GPIO needs /dev/gpiomem, which DevicePolicy=closed shuts unless allowed: the unit's
    drop-in for it, which install.sh writes when the settings choose it, allows it)."""

    def allowed(path: Path) -> set[str]:
        return {value.split()[0] for value in _unit(path)["Service"]["DeviceAllow"]}

    for name in SETTINGS_DOCS:
        text = (ROOT / name).read_text()
        for factory, device in FACTORY_DEVICES.items():
            if f'"{factory}"' in text or f"`{factory}`" in text:
                opened = allowed(UNIT) | (
                    allowed(DROP_INS[factory]) if factory in DROP_INS else set()
                )
                assert device in opened, f"{name} offers {factory}, which needs {device}"
    assert "char-gpiochip" in allowed(UNIT)  # what the default, lgpio, opens
    assert "/dev/gpiomem" not in allowed(UNIT)  # only where RPi.GPIO is chosen


def test_the_unit_starts_the_pi_hardware_with_the_installed_config() -> None:
    command = shlex.split(_unit()["Service"]["ExecStart"][0])
    assert command[1:3] == ["serve", "--hardware"] and command[3] == "pi"
    assert command[command.index("--config") + 1] == "/etc/room25/room25.toml"
    assert _unit()["Install"]["WantedBy"] == ["multi-user.target"]


def test_install_script_is_valid_shell_and_installs_the_unit() -> None:
    script = ROOT / "systemd" / "install.sh"
    assert os.access(script, os.X_OK)
    subprocess.run(["bash", "-n", str(script)], check=True)
    text = script.read_text()
    assert "systemd/room25.service" in text and "wiring/room25.toml" in text
    assert all(f"systemd/{drop_in.name}" in text for drop_in in DROP_INS.values())


def test_the_wiring_config_is_the_default_config() -> None:
    assert load_config(ROOT / "wiring" / "room25.toml") == Config()


@pytest.fixture(params=["path", "abstract"])
def notify_socket(request, tmp_path, monkeypatch):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    if request.param == "path":
        name = str(tmp_path / "notify")
        sock.bind(name)
    else:
        name = f"@room25-test-{os.getpid()}"
        sock.bind("\0" + name[1:])
    sock.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", name)
    yield sock
    sock.close()


def test_ready_watchdog_and_stopping_are_sent_as_datagrams(notify_socket) -> None:
    assert notify_ready() and notify_watchdog() and notify_stopping()
    received = [notify_socket.recv(256) for _ in range(3)]
    assert received == [b"READY=1", b"WATCHDOG=1", b"STOPPING=1"]


def test_without_systemd_nothing_is_sent(monkeypatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert notify_ready() is False


def test_a_vanished_socket_is_not_an_error(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert notify_watchdog() is False


def test_watchdog_interval_is_a_quarter_of_the_watchdog(monkeypatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert watchdog_interval() == 7.5
    monkeypatch.setenv("WATCHDOG_PID", "1")  # meant for another process
    assert watchdog_interval() is None
    monkeypatch.delenv("WATCHDOG_USEC")
    assert watchdog_interval() is None


class Clock:
    """Time that passes only when waited for: the loop's worst cases, exactly."""

    def __init__(self, until: float) -> None:
        self.now = 0.0
        self.until = until
        self.pets: list[float] = []

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float) -> bool:
        """`threading.Event.wait` for an event set at `until`."""
        self.now += seconds
        return self.now >= self.until

    def pet(self) -> None:
        self.pets.append(self.now)


@pytest.mark.parametrize("answer_after", [0.0, 0.3, 0.999])
def test_pets_are_never_more_than_half_the_watchdog_apart(answer_after: float) -> None:
    """However late the session's writer answers (up to the whole time it is given), two pets
    are at most half of WatchdogSec= apart, the first at once."""
    watchdog_sec = 30.0
    interval = watchdog_sec / 4
    clock = Clock(until=600)
    given: list[float] = []

    def healthy(timeout: float) -> bool:
        given.append(timeout)
        clock.now += timeout * answer_after
        return True

    keep_petting(interval, healthy, clock, clock=clock, pet=clock.pet)  # type: ignore[arg-type]
    assert clock.pets[0] <= interval and len(clock.pets) >= 600 / interval - 1
    gaps = [b - a for a, b in zip(clock.pets, clock.pets[1:], strict=False)]
    assert max(gaps) <= watchdog_sec / 2
    assert set(given) == {interval}  # a check never waits longer than an interval


def test_no_pet_while_the_session_does_not_answer(caplog) -> None:
    clock = Clock(until=100)
    answers = iter([True, False, False, True])

    def healthy(timeout: float) -> bool:
        clock.now += timeout
        return next(answers, False)

    keep_petting(7.5, healthy, clock, clock=clock, pet=clock.pet)  # type: ignore[arg-type]
    assert clock.pets == [7.5, 30.0]
    assert "the watchdog is not petted" in caplog.text


@pytest.mark.skipif(
    not Path("/usr/bin/systemd-analyze").exists(), reason="systemd-analyze is not installed"
)
def test_systemd_accepts_every_setting(tmp_path) -> None:
    copy = tmp_path / "room25.service"
    copy.write_text(UNIT.read_text())
    found = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, check=False
    )
    # The only complaint allowed here: the companion is not installed on this machine.
    complaints = [
        line
        for line in (found.stdout + found.stderr).splitlines()
        if line.strip() and "/opt/room25/.venv/bin/room25" not in line
    ]
    assert complaints == []
