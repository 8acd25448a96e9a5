"""The Raspberry Pi install's own pieces, offline: what it takes from Raspberry Pi OS is what the
project needs, and the empty wheels `scripts/pi_wheels.py` stands them in with are wheels pip
installs at their Debian versions (the check itself, on PyPI, runs in scripts/test)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from importlib.metadata import PathDistribution
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
spec = importlib.util.spec_from_file_location("pi_wheels", ROOT / "scripts" / "pi_wheels.py")
assert spec is not None and spec.loader is not None
pi_wheels = importlib.util.module_from_spec(spec)
sys.modules["pi_wheels"] = pi_wheels  # its dataclass looks its module up there
spec.loader.exec_module(pi_wheels)


def _name(requirement: str) -> str:
    """A requirement's distribution name, normalised (`luma.oled>=3` -> `luma-oled`)."""
    for cut in "<>=!~[ ":
        requirement = requirement.split(cut, 1)[0]
    return requirement.lower().replace(".", "-").replace("_", "-")


def test_raspberry_pi_os_gives_only_what_the_project_asks_for() -> None:
    asked = {_name(requirement) for requirement in pi_wheels.pi_requirements()}
    for release in pi_wheels.RELEASES:
        given = {_name(name) for name in pi_wheels.system_versions(release)}
        assert given == {"lgpio", "pillow", "pyyaml"}, release
        assert given <= asked, release
    assert all(";" not in requirement for requirement in pi_wheels.pi_requirements())


@pytest.mark.parametrize("release", pi_wheels.RELEASES, ids=lambda release: release.name)
def test_the_stand_ins_install_at_the_debian_versions(tmp_path: Path, release) -> None:
    folder = tmp_path / "wheels"
    folder.mkdir()
    for name, version in pi_wheels.system_versions(release).items():
        pi_wheels.stand_in(folder, name, version)
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--no-index", "--no-deps", "--target", str(target), *map(str, folder.iterdir())],
        check=True, capture_output=True,
    )  # fmt: skip
    found = {
        dist.metadata["Name"]: dist.version
        for dist in map(PathDistribution, target.glob("*.dist-info"))
    }
    assert found == pi_wheels.system_versions(release)


def test_each_pi_has_its_own_wheel_tags() -> None:
    bookworm, trixie = pi_wheels.RELEASES
    tags = pi_wheels.platforms("armv7l", bookworm)
    assert tags[0] == "manylinux_2_36_armv7l" and tags[-1] == "manylinux2014_armv7l"
    assert "manylinux_2_17_armv7l" in tags and "manylinux_2_37_armv7l" not in tags
    assert pi_wheels.platforms("aarch64", trixie)[0] == "manylinux_2_41_aarch64"
