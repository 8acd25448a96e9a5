"""What every test folder shares: the `slow` marker (long fault runs, such as killing `room25
serve` fifty times), skipped unless asked for with `--run-slow`, `-m slow` or ROOM25_SLOW=1;
`--compiled`, the whole suite run on the optional compiled engine (`scripts/compile`); and
`browser`, Debian's headless Chromium driven by Playwright, for the page tests; and the check
that the run leaves nothing behind (tests/leftovers.py), which fails the run if it did."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import leftovers
import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPILED = ROOT / ".compiled"
CHROMIUM = "/usr/bin/chromium"
RUN = pytest.StashKey[leftovers.Run]()
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
    parser.addoption(
        "--compiled", action="store_true", help="run on the compiled engine (scripts/compile)"
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long fault runs (--run-slow or ROOM25_SLOW=1)")
    config.addinivalue_line(
        "markers",
        "interpreted: watches calls inside the engine, which compiled code makes directly "
        "(skipped with --compiled)",
    )
    config.stash[RUN] = leftovers.begin()
    if config.getoption("--compiled"):
        from companion.engine.kernel import evolve

        if not str(evolve.__file__).endswith(".so"):
            raise pytest.UsageError(f"--compiled, yet the engine came from {evolve.__file__}")


def _use_compiled() -> None:
    """Put the compiled copy of the package first, for this process and the servers it starts,
    after checking that it was built from the sources as they are now."""
    check = subprocess.run([sys.executable, str(ROOT / "scripts" / "compiled.py"), "check"])
    if check.returncode != 0:
        raise pytest.UsageError(
            "the compiled engine in .compiled/ is missing or older than the sources: "
            "run scripts/compile first"
        )
    sys.path.insert(0, str(COMPILED))
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(COMPILED), os.environ.get("PYTHONPATH")])
    )


# Done as this file is read, before the package is imported anywhere: the conftest of a test
# folder named on the command line is read before `pytest_configure`, and may import it.
if "--compiled" in sys.argv[1:]:
    _use_compiled()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Every fixture is torn down by now: whatever still runs or listens was left behind. The
    order's seed is said last, beside the results (pytest-randomly's own line is in the header,
    which `-q` hides), so a failure that depends on the order can be played again."""
    left = leftovers.check(session.config.stash[RUN])
    terminal = session.config.pluginmanager.get_plugin("terminalreporter")
    terminal.write_line("")
    if left:
        for line in ["The tests left these behind (ended now):", *left]:
            terminal.write_line(line, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    seed = getattr(session.config.option, "randomly_seed", None)
    if seed is not None:
        terminal.write_line(f"test order: pytest --randomly-seed={seed} plays it again")


def pytest_report_header(config: pytest.Config) -> str:
    from companion.engine.kernel import evolve

    return f"engine: {'compiled' if str(evolve.__file__).endswith('.so') else 'pure Python'}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--compiled"):
        compiled = pytest.mark.skip(reason="watches interpreted calls: runs without --compiled")
        for item in items:
            if "interpreted" in item.keywords:
                item.add_marker(compiled)
    asked = config.getoption("--run-slow") or "slow" in (config.option.markexpr or "")
    if asked or os.environ.get("ROOM25_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow or ROOM25_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def _temporary_files_in_the_runs_folder(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Once pytest's own folder is made (where it keeps it), every other temporary file of the
    run goes to the run's folder, where the final check looks for what is left."""
    tmp_path_factory.getbasetemp()
    leftovers.adopt(request.config.stash[RUN])


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Any]:
    """A real session on a journal of its own (tests/session has one on a hand-moved clock).
    Imported here, not at the top: with --compiled the package must not be imported before the
    compiled copy is put first on the path (below)."""
    from companion.session import Session

    opened = Session(tmp_path / "journal.sqlite")
    opened.open()
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Chromium started once per test module; a missing Chromium fails the test, never skips.
    Its own scratch folders (`.org.chromium.Chromium.*`, which a Chromium slow to quit on a
    loaded machine leaves when Playwright ends it) go to a folder of pytest's, not to the run's
    temporary folder, where they would be counted as left behind by the companion."""
    if shutil.which(CHROMIUM) is None:
        pytest.fail(
            f"Chromium is missing ({CHROMIUM}): .ci/run installs it (apt-get install chromium); "
            "the browser tests cannot run without it."
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            env={**os.environ, "TMPDIR": str(tmp_path_factory.mktemp("chromium"))},
        )
        yield launched
        launched.close()
