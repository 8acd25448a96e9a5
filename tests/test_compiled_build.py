"""The optional compiled engine (`scripts/compile`) is run only while it matches the sources:
`scripts/start` and `pytest --compiled` ask `scripts/compiled.py check`, which must see any
edit of the package, and an added or removed file, as a stale copy."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "compiled.py"

spec = importlib.util.spec_from_file_location("compiled", SCRIPT)
assert spec is not None and spec.loader is not None
compiled = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compiled)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A package and a copy stamped as built from it."""
    (tmp_path / "companion" / "engine").mkdir(parents=True)
    (tmp_path / "companion" / "engine" / "rules.py").write_text("LIMIT = 2\n")
    (tmp_path / ".compiled").mkdir()
    (tmp_path / ".compiled" / "SOURCES").write_text(compiled.sources_digest(tmp_path) + "\n")
    return tmp_path


def test_a_copy_built_from_the_sources_as_they_are_is_current(tree: Path) -> None:
    assert compiled.is_current(tree)


def test_an_edit_makes_the_copy_stale(tree: Path) -> None:
    (tree / "companion" / "engine" / "rules.py").write_text("LIMIT = 3\n")
    assert not compiled.is_current(tree)


def test_a_new_file_makes_the_copy_stale(tree: Path) -> None:
    (tree / "companion" / "engine" / "data.json").write_text("{}")
    assert not compiled.is_current(tree)


def test_bytecode_caches_do_not_make_the_copy_stale(tree: Path) -> None:
    (tree / "companion" / "engine" / "__pycache__").mkdir()
    (tree / "companion" / "engine" / "__pycache__" / "rules.cpython-311.pyc").write_bytes(b"x")
    assert compiled.is_current(tree)


def test_no_copy_is_not_current(tree: Path) -> None:
    (tree / ".compiled" / "SOURCES").unlink()
    assert not compiled.is_current(tree)


def test_the_check_answers_by_its_exit_status() -> None:
    """What `scripts/start` reads: 0 for a current copy, 1 otherwise."""
    check = subprocess.run([sys.executable, str(SCRIPT), "check"])
    assert check.returncode == (0 if compiled.is_current() else 1)


def test_a_failed_build_leaves_no_copy_to_run(tree: Path) -> None:
    """mypyc refuses an annotation the code contradicts: the build stops, and neither a
    half-built copy nor an older one is left for `scripts/start` to run."""
    (tree / "companion" / "engine" / "rules.py").write_text("LIMIT: int = 'two'\n")
    with pytest.raises(subprocess.CalledProcessError):
        compiled.build(tree)
    assert not (tree / ".compiled").exists()
    assert not compiled.is_current(tree)
