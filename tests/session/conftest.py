"""Fixtures for the session tests: a real Session on a temporary SQLite journal with a fake
clock, and the `slow` marker (the 50-kill run) skipped unless asked for."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.session import FakeClock, Session


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="run the slow session tests")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long fault runs (--run-slow or ROOM25_SLOW=1)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # `--run-slow` is known only when pytest starts from this folder (`pytest tests/session`);
    # from the root, ROOM25_SLOW=1 or `-m slow` asks for them.
    asked = config.getoption("--run-slow", default=False) or "slow" in (
        config.option.markexpr or ""
    )
    if asked or os.environ.get("ROOM25_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow or ROOM25_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


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
