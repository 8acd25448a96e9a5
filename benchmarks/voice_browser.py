"""The voice in the browser: from the host's "test the voice" to the virtual panel playing the
WAV (its `<audio>` element's `playing` event) and to the table page calling `speechSynthesis`,
against a real `room25 serve` off a Pi with headless Chromium (Debian's, through Playwright).

Run: .venv/bin/python benchmarks/voice_browser.py [--tries N]
The phrase is rendered once by espeak-ng, then found in the cache: the figures are the web's
share (the long polls, the WAV fetched and decoded), not espeak-ng's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # serving

from load import load_line
from serving import PIN, Phone, Serve

CHROMIUM = "/usr/bin/chromium"
SPY = "window.__said = 0; speechSynthesis.speak = () => { window.__said += 1; };"
PLAYED = "document.getElementById('voice').dataset.heard || '0'"


def _both(table, panel, said: int, before: str, started: float) -> tuple[float, float]:
    """Milliseconds from `started` until the table page has asked to speak `said` times and
    the panel plays an announcement after `before`."""
    spoken = played = None
    while spoken is None or played is None:
        now = (time.monotonic() - started) * 1000
        if now > 20_000:
            raise RuntimeError("the pages did not follow the voice in 20 s")
        if spoken is None and table.evaluate("window.__said") >= said:
            spoken = now
        if played is None and panel.evaluate(PLAYED) != before:
            played = now
        time.sleep(0.002)
    return played, spoken


def measure(tries: int) -> tuple[list[float], list[float]]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        server = Serve(Path(folder) / "data", hardware=None).wait_ready()
        try:
            host = Phone(server.url)
            assert host.post("/api/host/login", {"pin": PIN})[0] == 200
            assert host.post("/api/host/voice", {"table_speaks": True})[0] == 200
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                panel = browser.new_page()
                panel.goto(server.url + "/panel")
                panel.check("#sound")
                context = browser.new_context()
                context.add_init_script(SPY)
                table = context.new_page()
                table.goto(server.url + "/table")
                time.sleep(2)  # both pages' first polls answered: they wait for the next
                played, spoken = [], []
                for n in range(1, tries + 1):
                    before = panel.evaluate(PLAYED)
                    started = time.monotonic()
                    assert host.post("/api/host/voice", {"test": True})[0] == 200
                    times = _both(table, panel, n, before, started)
                    played.append(times[0])
                    spoken.append(times[1])
                    time.sleep(0.3)
                browser.close()
        finally:
            server.stop()
    return played, spoken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=10)
    tries = parser.parse_args().tries
    played, spoken = measure(tries)
    for what, found in (("panel plays the WAV", played), ("table page speaks", spoken)):
        print(
            f"test the voice -> {what}: median {statistics.median(found):.0f} ms, "
            f"max {max(found):.0f} ms ({tries} tries)"
        )
    print(load_line())


if __name__ == "__main__":
    main()
