"""Fixtures for the session tests: a real Session on a temporary SQLite journal with a fake
clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.session import FakeClock, Session


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    return tmp_path / "journal.sqlite"


@pytest.fixture
def session(journal: Path, clock: FakeClock) -> Iterator[Session]:
    opened = Session(journal, clock)
    opened.open()
    try:
        yield opened
    finally:
        opened.close()
