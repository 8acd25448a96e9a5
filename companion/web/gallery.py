"""The pages at each moment of a game, as PNG files (`room25 screens --pages OUTDIR`): the table
page on a 1080p screen and a phone at 390×844, from a real companion on this machine (its own
session in a temporary folder, served by waitress on a free port of 127.0.0.1) and Chromium
driven by Playwright, the way docs/web.md shows them.

Every phone is a browser context of its own; the seats act through the same API their pages use,
and each picture is taken once the pages have drawn the moment. The same game, in any language
and with any look at each page in place of its picture, is the pseudo-locale test's
(tests/web/test_pseudo_pages.py)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion import words
from companion.session import Session
from companion.words.said import Said, say

from . import THREADS, create_app

PIN = "2525"
SETUP = {
    "edition": "base",
    "mode": "suspicion",
    "players": 4,
    "tracking": "dealt",
    "seed": 7,
    "rigged": True,  # the same pictures at every run
}
TABLE = {"viewport": {"width": 1920, "height": 1080}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "has_touch": True}
WRITE = {"X-Room25": "1"}
SEATS = "1234"


class GalleryError(RuntimeError):
    """What the page gallery needs and lacks (Playwright, Chromium), in any language."""

    def __init__(self, said: Said) -> None:
        super().__init__(str(said))
        self.said = said


@contextmanager
def _companion(folder: Path) -> Iterator[str]:
    """A companion on a free port of 127.0.0.1 for as long as the gallery runs; its address."""
    from waitress import create_server  # type: ignore[attr-defined]

    session = Session(folder / "journal.sqlite")
    session.open()
    server = create_server(create_app(session, None, pin=PIN), host="127.0.0.1", port=0,
                           threads=THREADS, ident="room25")  # fmt: skip
    thread = threading.Thread(target=server.run, name="room25-gallery", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        server.close()
        session.close()


def _chromium() -> str:
    found = os.environ.get("ROOM25_CHROMIUM") or shutil.which("chromium")
    if not found:
        raise GalleryError(say("cli_screens_no_chromium"))
    return found


# What a moment's picture does with a page once drawn: given the picture's name
# ("03-programming-phone1") and the Playwright page.
Look = Callable[[str, Any], None]


class SampleGame:
    """The host, the table page and the phones of one short game, each page looked at (`look`)
    at each of its moments. The phones read the fallback language (seat 4 another) and the
    table its browser's default, unless `locale` names the language of every page."""

    def __init__(self, browser: Any, url: str, look: Look, locale: str | None = None) -> None:
        self.url, self.look, self.moments = url, look, 0
        host = browser.new_context()
        self.host = host.request
        self._post(self.host, "/api/host/login", {"pin": PIN})
        table = TABLE if locale is None else {**TABLE, "locale": locale}
        self.table = browser.new_context(**table).new_page()
        # Seat 4 reads the catalogue's last language by code (French today), the others the
        # fallback: a table of two languages, none named here.
        other = words.languages()[-1]
        spoken = {seat: locale or (other if seat == "4" else words.fallback()) for seat in SEATS}
        self.phones = {seat: browser.new_context(locale=spoken[seat], **PHONE) for seat in SEATS}
        self.pages = {seat: context.new_page() for seat, context in self.phones.items()}

    def _post(self, client: Any, path: str, body: dict) -> dict:
        answer = client.post(self.url + path, data=body, headers=WRITE)
        return answer.json()

    def _get(self, client: Any, path: str) -> dict:
        return client.get(self.url + path).json()

    def shoot(self, moment: str, phone: str = "1", table: bool = True) -> None:
        """One phone and (unless it shows nothing new) the table page, once drawn."""
        self.moments += 1
        shown = [(self.pages[phone], f"phone{phone}")] + ([(self.table, "table")] if table else [])
        for page, who in shown:
            page.wait_for_timeout(700)
            page.evaluate("window.scrollTo(0, 0)")
            self.look(f"{self.moments:02d}-{moment}-{who}", page)

    def public(self) -> dict:
        return self._get(self.host, "/api/view?as=table")

    def until(self, wanted: Callable[[dict], bool], play: Callable[[dict], None]) -> dict:
        """Play (`play(view)`) until the public view is `wanted`."""
        for _ in range(500):
            view = self.public()
            if wanted(view):
                return view
            play(view)
        raise GalleryError(say("cli_screens_stuck"))

    def seat(self, seat: str) -> Any:
        return self.phones[seat].request

    def play(self) -> None:
        """The game from the seats' joining to its end, each moment looked at, then the first
        moments of a game taught."""
        self._post(self.host, "/api/host/games", {"setup": SETUP})
        self.table.goto(self.url + "/table")
        for page in self.pages.values():
            page.goto(self.url + "/")
        self.shoot("join", table=False)
        for seat, page in self.pages.items():
            self._post(self.seat(seat), "/api/join", {"seat": seat})
            page.reload()
        self.shoot("clue")
        for seat in SEATS:
            self._post(self.seat(seat), "/api/commands",
                       {"command": {"type": "clue", "cell": "C2"}})  # fmt: skip
        page = self.pages["1"]
        # Named in the page's own language, whichever it is.
        first, look = page.evaluate("() => [R25.t('action_n', {n: 1}), R25.t('action_look')]")
        page.locator("#task").get_by_role("group", name=first).get_by_role(
            "button", name=look
        ).click()
        self.shoot("programming")
        page.locator("#role-toggle").click()
        self.shoot("role", table=False)
        page.locator("#role-toggle").click()
        for seat in SEATS:
            self._program(seat)
        self.until(lambda v: v["waiting"]["phase"] == "action", lambda v: None)
        acting = self.public()["waiting"]["seats"][0]
        self.shoot("action", acting)
        self.until(lambda v: v["waiting"]["phase"] == "over", self._next)
        self.shoot("game-over")
        self.shoot("game-over", "4", table=False)
        self.taught()

    def taught(self) -> None:
        """The next game, the table being taught (issue 32): a set-up step on the phones and the
        table, walked to its end by the host's Next, then the first programming's lesson card."""
        self._post(self.host, "/api/host/teaching", {"on": True})
        self._post(self.host, "/api/host/games", {"setup": SETUP})
        for page in (self.pages["1"], self.table):
            page.locator("#setup-walk:not([hidden])").wait_for()
        self.shoot("setup")
        for _ in self.public()["session"]["setup"]["steps"]:
            self._post(self.host, "/api/host/setup_next", {})
        for seat in SEATS:
            self._post(self.seat(seat), "/api/commands",
                       {"command": {"type": "clue", "cell": "C2"}})  # fmt: skip
        for page in (self.pages["1"], self.table):
            page.locator(".banner.lesson[data-lesson=programming]").wait_for()
        self.shoot("lesson")

    def _program(self, seat: str) -> None:
        command = {"type": "program", "character": None, "actions": ["look"], "lock_in": False}
        client = self.seat(seat)
        for cid, c in self._get(client, "/api/view")["view"]["characters"].items():
            if c.get("seat") == seat and c.get("alive"):
                self._post(client, "/api/commands", {"command": {**command, "character": cid}})
        self._post(self.seat(seat), f"/api/seats/{seat}/press", {})

    def _next(self, view: dict) -> None:
        """Whoever the game waits for plays: a programme of one Look, or the first legal move."""
        waiting = view["waiting"]
        for seat in waiting.get("seats", []):
            if waiting["phase"] == "programming":
                if seat not in waiting.get("locked_in", []):
                    self._program(seat)
                continue
            client = self.host if seat == "host" else self.seat(seat)
            legal = self._get(client, "/api/view" + ("?as=host" if seat == "host" else ""))["legal"]
            moves = [c for c in legal if c["type"] not in ("reminder", "expose")]
            if moves:
                self._post(client, "/api/commands", {"command": moves[0]})


def render_pages(outdir: Path) -> list[Path]:
    """Play a short sample game and picture each of its moments; the PNG files written."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:
        raise GalleryError(say("cli_screens_no_playwright")) from error
    outdir.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as folder,
        _companion(Path(folder)) as url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=_chromium(), args=["--no-sandbox", "--disable-gpu"]
        )
        written: list[Path] = []

        def picture(name: str, page: Any) -> None:
            written.append(outdir / f"{name}.png")
            page.screenshot(path=str(written[-1]))

        try:
            SampleGame(browser, url, picture).play()
            return written
        finally:
            browser.close()


def pages_command(outdir: str, lang: str) -> int:
    """`room25 screens --pages OUTDIR`: the pages' pictures in OUTDIR/pages, listed, said in
    `lang`."""
    try:
        written = render_pages(Path(outdir) / "pages")
    except GalleryError as error:
        print(f"room25 screens --pages: {error.said.text(lang)}", file=sys.stderr)
        return 1
    print(words.text(lang, "cli_screens_pages", n=len(written)))
    for path in written:
        print(path)
    return 0
