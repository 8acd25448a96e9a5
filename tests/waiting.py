"""The one way a test waits: on a condition it names, checked until it holds or `timeout` passes.
Never a bare sleep that guesses how long a loaded machine takes (CI runs on two busy cores)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def eventually(check: Callable[[], T], timeout: float = 5.0, every: float = 0.01) -> T:
    """The first truthy value of `check()`; fails with the last value after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still {value!r} after {timeout} s")
        time.sleep(every)


def page_until(page: Any, expression: str, timeout: float = 20.0) -> None:
    """Until a page's JavaScript `expression` is true, polled from here: the pages' Content
    Security Policy forbids the in-page evaluation Playwright's own waits would use. A page that
    reloads itself meanwhile (a phone's page does when the companion comes back after a pulled
    plug) is looked at again once it has."""
    from playwright.sync_api import Error

    def holds() -> object:
        try:
            return page.evaluate(expression)
        except Error as error:
            if "context was destroyed" in str(error):
                return False
            raise

    eventually(holds, timeout, every=0.05)
