"""Check that the Raspberry Pi install never builds C or Rust (scripts/test runs it; it needs PyPI).

A Pi installs the project's dependencies and its `pi` extra with requirements/pi-constraints.txt,
taking lgpio, Pillow and PyYAML from Raspberry Pi OS (requirements/pi-system.txt). This resolves
exactly that on PyPI with `pip download --only-binary=:all:` for each Pi it supports, 64-bit
(aarch64) and 32-bit (armv7l, the Zero 2 W's Raspberry Pi OS), Bookworm (CPython 3.11) and Trixie
(3.13), with the system's distributions stood in for by empty wheels at their Debian versions, and
fails naming any distribution that has no wheel there (the Pi would compile it).

Usage: python scripts/pi_wheels.py
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYSTEM = ROOT / "requirements" / "pi-system.txt"
CONSTRAINTS = ROOT / "requirements" / "pi-constraints.txt"


@dataclass(frozen=True)
class Release:
    """A Raspberry Pi OS release: its Python and its C library (the newest manylinux it runs)."""

    name: str
    python: str
    glibc_minor: int
    column: int  # its version column in pi-system.txt


RELEASES = (Release("Bookworm", "3.11", 36, 1), Release("Trixie", "3.13", 41, 2))
ARCHES = ("aarch64", "armv7l")
NO_WHEEL = re.compile(r"No matching distribution found for (\S+)")


def system_versions(release: Release) -> dict[str, str]:
    """The distributions Raspberry Pi OS gives, at this release's versions."""
    rows = [line.split() for line in SYSTEM.read_text().splitlines()]
    return {row[0]: row[release.column] for row in rows if row and not row[0].startswith("#")}


def pi_requirements() -> list[str]:
    """The project's dependencies and its `pi` extra, with the markers a Pi meets dropped (pip
    evaluates markers on this machine, not on the --platform it downloads for)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = [*project["dependencies"], *project["optional-dependencies"]["pi"]]
    return [requirement.split(";", 1)[0].strip() for requirement in found]


def platforms(arch: str, release: Release) -> list[str]:
    """The wheel platform tags a Pi of this kind installs (pip widens none by itself)."""
    newest_first = range(release.glibc_minor, 16, -1)
    return [*(f"manylinux_2_{minor}_{arch}" for minor in newest_first), f"manylinux2014_{arch}"]


def stand_in(folder: Path, name: str, version: str) -> None:
    """An empty wheel standing for the system's distribution, so pip resolves around it."""
    stem = f"{name.replace('-', '_')}-{version}"
    with zipfile.ZipFile(folder / f"{stem}-py3-none-any.whl", "w") as wheel:
        info = f"{stem}.dist-info"
        wheel.writestr(
            f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        )
        wheel.writestr(
            f"{info}/WHEEL",
            "Wheel-Version: 1.0\nGenerator: pi_wheels\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
        wheel.writestr(f"{info}/RECORD", "")


def check(arch: str, release: Release, work: Path) -> str | None:
    """None when every distribution has a wheel for this Pi, else what would be compiled."""
    system = system_versions(release)
    standins = work / "system"
    standins.mkdir(parents=True)
    for name, version in system.items():
        stand_in(standins, name, version)
    pins = work / "system-pins.txt"
    pins.write_text("".join(f"{name}=={version}\n" for name, version in system.items()))
    tags = [option for tag in platforms(arch, release) for option in ("--platform", tag)]
    abi = "cp" + release.python.replace(".", "")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--disable-pip-version-check",
         "--progress-bar=off", "--only-binary=:all:", *tags, "--python-version", release.python,
         "--implementation", "cp", "--abi", abi, "--find-links", str(standins),
         "--constraint", str(CONSTRAINTS), "--constraint", str(pins),
         "--dest", str(work / "wheels"), *pi_requirements()],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode == 0:
        return None
    missing = NO_WHEEL.findall(done.stderr)
    if missing:
        return f"no wheel for {', '.join(missing)}: the Pi would compile it"
    said = done.stdout.splitlines() + done.stderr.splitlines()
    if "The conflict is caused by:" in said:  # only source builds would meet these requirements
        start = said.index("The conflict is caused by:") + 1
        causes = [line.strip() for line in said[start:] if line.startswith("    ")]
        return "no wheel meets all of: " + "; ".join(causes) + " (the Pi would compile it)"
    return said[-1] if said else "pip download failed"


def main() -> int:
    failures = []
    with tempfile.TemporaryDirectory(prefix="room25-pi-wheels-") as folder:
        for release in RELEASES:
            for arch in ARCHES:
                where = f"{release.name} (CPython {release.python}) on {arch}"
                problem = check(arch, release, Path(folder) / f"{release.name}-{arch}")
                print(f"Pi install, {where}: {problem or 'every dependency has a wheel'}")
                if problem:
                    failures.append(where)
    if failures:
        print(f"The Pi install would build C or Rust on {'; '.join(failures)}.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
