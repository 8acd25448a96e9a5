"""The episode replay in headless Chromium, on `room25 serve` as a real process: a finished game
of each edition stepped through on the table's TV (1920×1080) and on a phone (390×844), the
characters shown where the engine's replay of the journal puts them at several steps (forward,
back, a turn jumped to, played at a speed, a highlight); the refusal while a game goes on, to
every audience, and the same game public once it is over; the links at game over."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import Phone, Serve, host_of
from story.games import EDITIONS, engine_positions, finished_games, shown_positions

TV = {"viewport": {"width": 1920, "height": 1080}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "has_touch": True}
SETUP = {"edition": "base", "mode": "suspicion", "players": 5, "tracking": "dealt"}
WAIT = 30_000  # ms: the machine is shared


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Serve, dict[str, str]]]:
    """A served data directory holding one finished game per edition."""
    data_dir = tmp_path_factory.mktemp("replay") / "data"
    games = finished_games(data_dir)
    running = Serve(data_dir).wait_ready()
    yield running, games
    running.stop()


def check_step(page, exported: dict) -> int:
    seq = int(page.get_attribute("#replay", "data-seq"))
    wanted = engine_positions(exported, seq)
    assert shown_positions(page, list(wanted)) == wanted, seq
    return seq


def step_through(page, exported: dict) -> None:
    """Forward, back, a jump to a turn, play at ×4 then pause, the last highlight: at each, the
    characters stand where the engine says."""
    page.wait_for_selector("#replay[data-ready='1']", timeout=WAIT)
    assert page.get_attribute("#replay", "data-step") == "0"
    check_step(page, exported)
    seen = set()
    for _ in range(6):
        page.click("#replay-forward")
        seen.add(check_step(page, exported))
    page.click("#replay-back")
    assert page.get_attribute("#replay", "data-step") == "5"
    check_step(page, exported)
    turns = page.eval_on_selector_all(
        "#replay-turn option", "(options) => options.map((o) => o.value)"
    )
    middle = turns[len(turns) // 2]
    page.select_option("#replay-turn", middle)
    assert page.eval_on_selector("#replay-where", "(e) => e.textContent").count(f" {middle}") >= 1
    seen.add(check_step(page, exported))
    page.select_option("#replay-speed", "4")
    before = int(page.get_attribute("#replay", "data-step"))
    page.click("#replay-play")
    page.wait_for_function(
        f"() => Number(document.getElementById('replay').dataset.step) >= {before + 3}",
        timeout=WAIT,
    )
    page.click("#replay-play")
    assert page.get_attribute("#replay", "data-playing") is None
    seen.add(check_step(page, exported))
    page.click("#replay-highlights .mark-last")
    total = page.eval_on_selector("#replay-slider", "(e) => Number(e.max)")
    assert page.get_attribute("#replay", "data-step") == str(total)
    assert check_step(page, exported) == max(c["seq"] for c in exported["commands"])
    assert len(seen) >= 6


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_a_finished_game_steps_through_on_the_tv_and_on_a_phone(played, browser, edition) -> None:
    server, games = played
    status, exported = host_of(server).get(f"/api/host/games/{games[edition]}/export")
    assert status == 200 and exported["complete"]
    for size in (TV, PHONE):
        context = browser.new_context(**size, locale="en-GB")
        try:
            page = context.new_page()
            page.goto(f"{server.url}/replay/{games[edition]}")
            step_through(page, exported)
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= size["viewport"]["width"], width  # nothing spills sideways
        finally:
            context.close()


def test_the_highlights_mark_the_alarm_and_each_elimination(played, browser) -> None:
    """On the Season 2 game, which has both (tests/story/games.py)."""
    server, games = played
    context = browser.new_context(**PHONE, locale="fr-FR")
    try:
        page = context.new_page()
        page.goto(f"{server.url}/replay/{games['season2']}")
        page.wait_for_selector("#replay[data-ready='1']", timeout=WAIT)
        assert page.locator("#replay-highlights .mark-alarm").count() == 1
        assert page.locator("#replay-highlights .mark-eliminated").count() >= 1
        page.click("#replay-highlights .mark-eliminated >> nth=0")
        assert "Hors jeu" in page.inner_text("#replay-where")
        assert page.locator("#replay-what .ev-eliminated").count() >= 1
    finally:
        context.close()


def test_nothing_is_served_while_the_game_goes_on_then_all_of_it(played, browser) -> None:
    server, _ = played
    host = host_of(server)
    status, body = host.post("/api/host/games", {"setup": SETUP})
    assert status == 200, body
    game = body["game"]
    seat = Phone(server.url)
    assert seat.post("/api/join", {"seat": "1"})[0] == 200
    nobody = Phone(server.url)
    # The table's TV and the seat's phone follow the game (they link to the replay at its end).
    table = browser.new_context(**TV, locale="en-GB").new_page()
    table.goto(server.url + "/table")
    phone = seat.in_browser(browser, **PHONE)
    for page in (table, phone):
        page.wait_for_function("() => document.body.textContent.includes('Seat 1')", timeout=WAIT)
        assert page.locator(".replay-link").count() == 0
    for who in (host, seat, nobody):
        for name in (game, "last"):
            status, refused = who.get(f"/api/games/{name}/replay")
            assert status == 409, (who, name, refused)
            assert "not over" in refused["refusal"]["text"]
        status, refused = who.get(f"/api/games/{game}/replay?as=table")
        assert status == 409
    assert host.get(f"/recap/{game}")[0] == 409
    # The page says it in the phone's words, French here, and loads nothing of the game.
    context = browser.new_context(**PHONE, locale="fr-FR")
    try:
        page = context.new_page()
        answer = page.goto(f"{server.url}/replay/{game}")
        assert answer.status == 409
        assert "n'est pas finie" in page.inner_text("#replay-refused")
        assert page.locator("#replay").count() == 0
    finally:
        context.close()
    assert host.post("/api/host/end")[0] == 200
    for who in (host, seat, nobody):
        status, told = who.get(f"/api/games/{game}/replay")
        assert status == 200 and told["game"] == game and told["status"] == "ended"
    assert nobody.get("/recap/last")[0] == 401  # the recap is the host's (it names the seats)
    status, page_bytes, kind = host.fetch("/recap/last")
    assert status == 200 and kind.startswith("text/html") and b"replay-data" in page_bytes
    links_at_game_over(server, browser, host, game, table, phone)


def links_at_game_over(server: Serve, browser, host: Phone, game: str, *pages) -> None:
    """The table page and the phone link to the replay; the host page's past games download
    the recap."""
    for page in pages:
        try:
            link = page.wait_for_selector("#reveal .replay-link", timeout=WAIT)
            assert link.get_attribute("href") == f"/replay/{game}"
            link.click()
            page.wait_for_selector("#replay[data-ready='1']", timeout=WAIT)
        finally:
            page.context.close()
    page = host.in_browser(browser, **TV, accept_downloads=True)
    try:
        page.goto(server.url + "/host")
        recap = f'#past a.recap-link[href^="/recap/{game}"]'
        page.wait_for_selector(recap, timeout=WAIT)
        with page.expect_download(timeout=WAIT) as download:
            page.click(recap)
        saved = download.value.path()
        assert saved is not None and b"replay-data" in Path(saved).read_bytes()
        assert download.value.suggested_filename == f"room25-{game}.html"
    finally:
        page.context.close()
