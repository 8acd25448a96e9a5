"""Build the optional compiled engine (`scripts/compile`): a copy of the `companion` package in
`.compiled/`, with the engine's rules and the simulator's players compiled by mypyc. The source
tree is never touched, so the pure-Python install stays the default; a process runs the compiled
copy when `.compiled` comes first on its path (`PYTHONPATH=.compiled`, as `scripts/start` and
`scripts/test` set it), and `.compiled/SOURCES` records which sources it was built from so that
a stale copy is never run by mistake.

Usage: python scripts/compiled.py build | check | clean
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / ".compiled"
PACKAGES = ("companion/engine", "companion/sim")
# Stay interpreted: the command types, the generic `Result` (`game.py`) and the view shapes
# (dataclasses and TypedDicts mypyc does not build; the work of a command is in the compiled
# `reading.py` and `handlers.py`), the scenario position loader (a star expression mypyc cannot
# compile), and the `__init__` files.
INTERPRETED = {
    "companion/engine/face/commands.py",
    "companion/engine/face/game.py",
    "companion/engine/face/shapes.py",
    "companion/engine/face/position.py",
}


def sources_digest(root: Path = ROOT) -> str:
    """One digest of every file of the package, so a build is known stale after any edit."""
    digest = hashlib.sha256()
    for path in sorted((root / "companion").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def compiled_modules(root: Path = ROOT) -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            name = str(path.relative_to(root))
            if path.name != "__init__.py" and name not in INTERPRETED:
                found.append(name)
    return found


def is_current(root: Path = ROOT) -> bool:
    """Whether `.compiled/` was built from the sources as they are now."""
    stamp = root / ".compiled" / "SOURCES"
    return stamp.exists() and stamp.read_text().strip() == sources_digest(root)


def build(root: Path = ROOT) -> None:
    """Compile a fresh copy; a build that fails leaves no copy behind, so none is run."""
    digest = sources_digest(root)
    target = root / ".compiled"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(
        root / "companion", target / "companion", ignore=shutil.ignore_patterns("__pycache__")
    )
    # mypyc reads the type checker's settings from the working directory's config.
    (target / "mypy.ini").write_text(
        "[mypy]\npython_version = 3.11\nignore_missing_imports = True\n"
    )
    setup = target / "setup_compiled.py"
    setup.write_text(
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        f"setup(name='room25-compiled', ext_modules=mypycify({compiled_modules(root)!r}, "
        "opt_level='3'))\n"
    )
    jobs = str(os.cpu_count() or 1)
    try:
        subprocess.run(
            [sys.executable, setup.name, "build_ext", "--inplace", "--parallel", jobs],
            cwd=target,
            check=True,
        )
    except subprocess.CalledProcessError:
        shutil.rmtree(target, ignore_errors=True)
        raise
    shutil.rmtree(target / "build", ignore_errors=True)
    (target / "SOURCES").write_text(digest + "\n")


def main(argv: list[str]) -> int:
    order = argv[0] if argv else "build"
    if order == "build":
        build()
        print("compiled engine built in .compiled/: run with PYTHONPATH=.compiled")
        return 0
    if order == "check":
        return 0 if is_current() else 1
    if order == "clean":
        shutil.rmtree(TARGET, ignore_errors=True)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
