"""Issue 32, point 5: a table that never read the rulebook plays its first base Cooperation game
by the companion's prompts alone. The host ticks Teach us in the wizard and starts the game;
every page walks the set-up one step a Next (the host page's button), the plug pulled
mid set-up; then each phone plays only what its own page offers it (its seat's legal commands,
through its browser context's own cookie), the plug pulled again mid-game, to the game's end.
Each lesson is taught exactly once: the table's lesson notice after every command, its card on
every page (four phones at 390x844, the host page, the table at 1080p) before the next command,
and the evening's `taught` at the end, the restart teaching nothing twice. A real `room25 serve`
killed with SIGKILL and started again on the same data directory and port."""

from __future__ import annotations

import json
from pathlib import Path

from serving import Serve
from waiting import page_until

from .test_a_seat_always_comes_back import BrowserPhone, play_to_the_end
from .test_browser import public
from .test_table_life import TV, host_page, phone_page

SEATS = "1234"
# Lessons a base Cooperation game has nothing to fire them (000 / 002 only, or Suspicion's).
ELSEWHERE = {"action_talent", "adrenaline", "mac_card", "suspicion_reveal"}


def _shown(page, selector: str) -> None:
    page_until(page, f"document.querySelector({json.dumps(selector)}) !== null")


class Taught:
    """What the table is taught, as it sees it: each showing of the table's lesson notice (read
    after every command) once, its card on every page before the next command is sent."""

    def __init__(self, server: Serve, pages: dict) -> None:
        self.server, self.pages = server, pages
        self.fired: list[str] = []
        self._last: dict | None = None

    def restarted(self, server: Serve) -> None:
        """A new server process: its notices start again (a showing counts from 1)."""
        self.server, self._last = server, None

    def look(self) -> None:
        notices = public(self.server)["session"]["notices"]
        notice = next((n["params"] for n in notices if n["code"] == "lesson"), None)
        if notice is None or notice == self._last:
            return
        self._last = notice
        for found in notice["lessons"]:
            self.fired.append(found)
            for page in self.pages.values():
                _shown(page, f".banner.lesson[data-lesson={found}]")


class Watched:
    """A page's own requests, each command followed by a look at what it taught."""

    def __init__(self, phone: BrowserPhone, taught: Taught) -> None:
        self.phone, self.taught = phone, taught

    def get(self, path: str) -> tuple[int, dict]:
        return self.phone.get(path)

    def post(self, path: str, body: object) -> tuple[int, dict]:
        answer = self.phone.post(path, body)
        self.taught.look()
        return answer


def _pull_the_plug(server: Serve, data: Path, pages: dict, browser) -> Serve:
    """SIGKILL, as a pulled plug; the same data directory and port, so the pages come back by
    themselves, but for the host's, who logs in again (a host login is the server's memory)."""
    server.kill()
    again = Serve(data, port=server.port).wait_ready()
    pages["host"].context.close()
    pages["host"] = host_page(again, browser)
    return again


def _step_everywhere(pages: dict, step: str) -> None:
    for page in pages.values():
        page_until(page, f"document.getElementById('setup-step')?.dataset.step === '{step}'")


def _taught(shown: dict, lesson: str) -> bool:
    return lesson in shown["session"]["teaching"]["taught"]


def test_a_first_cooperation_game_is_taught_by_its_prompts_to_its_end(tmp_path, browser):
    data = tmp_path / "data"
    server = Serve(data).wait_ready()
    try:
        host = host_page(server, browser)
        host.select_option("#w-mode", "cooperation")
        host.select_option("#w-players", "4")
        host.locator("#w-teach").check()
        host.locator("#w-start").click()
        phones = {seat: phone_page(server, browser, seat) for seat in SEATS}
        table = browser.new_context(**TV).new_page()
        table.goto(server.url + "/table")
        pages = {**phones, "host": host, "table": table}

        steps = public(server)["session"]["setup"]["steps"]
        assert public(server)["view"]["ruleset"]["mode"] == "cooperation"
        for at, step in enumerate(steps):
            _step_everywhere(pages, step["id"])
            if at == 3:
                server = _pull_the_plug(server, data, pages, browser)
                assert public(server)["session"]["setup"]["at"] == 3
                _step_everywhere(pages, step["id"])
            pages["host"].locator("#setup-next").click()
        for page in pages.values():
            page_until(page, "document.getElementById('setup-walk')?.hidden === true")
        assert public(server)["session"]["teaching"]["taught"] == []

        taught = Taught(server, pages)
        seats = {
            seat: Watched(BrowserPhone(server.url, page), taught) for seat, page in phones.items()
        }
        by_host = Watched(BrowserPhone(server.url, pages["host"]), taught)
        # The plug pulled once the first lesson of the game is taught (the first programming):
        # every lesson of the actions is still to come, whatever the random game does next.
        play_to_the_end(server, seats, by_host, until=lambda shown: _taught(shown, "programming"))
        assert "programming" in taught.fired
        card = phones["1"].locator(".banner.lesson").first
        card.get_by_role("button", name="Got it").click()
        card.wait_for(state="detached")
        before = list(taught.fired)

        server = _pull_the_plug(server, data, pages, browser)
        taught.restarted(server)
        by_host.phone = BrowserPhone(server.url, pages["host"])
        assert public(server)["session"]["teaching"]["taught"] == before
        over = play_to_the_end(server, seats, by_host, seed=2)
        assert over["view"]["outcome"] is not None
    finally:
        server.stop()
    assert len(taught.fired) == len(set(taught.fired)), taught.fired
    assert over["session"]["teaching"]["taught"] == taught.fired
    assert len(taught.fired) > len(before) >= 1
    assert not ELSEWHERE & set(taught.fired)
