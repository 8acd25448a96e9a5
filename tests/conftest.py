"""What every test folder shares: the `slow` marker (long fault runs, such as killing `room25
serve` fifty times), skipped unless asked for with `--run-slow`, `-m slow` or ROOM25_SLOW=1; and
`browser`, Debian's headless Chromium driven by Playwright, for the page tests."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="run the slow fault tests too")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long fault runs (--run-slow or ROOM25_SLOW=1)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    asked = config.getoption("--run-slow") or "slow" in (config.option.markexpr or "")
    if asked or os.environ.get("ROOM25_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow or ROOM25_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium started once per test module; a missing Chromium fails the test, never skips."""
    if shutil.which(CHROMIUM) is None:
        pytest.fail(
            f"Chromium is missing ({CHROMIUM}): .ci/run installs it (apt-get install chromium); "
            "the browser tests cannot run without it."
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        launched.close()
