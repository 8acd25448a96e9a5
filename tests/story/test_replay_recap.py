"""The recap to keep: `room25 export GAME --html FILE` writes one self-contained HTML file (under
300 KB for a 10-turn game), refused for a game still being played; opened in Chromium with the
network cut, it shows the result, the roles, the final complex and the replay, the characters
where the engine's replay of the journal puts them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import engine
from companion.cli import main
from companion.serve import JOURNAL_NAME
from companion.session import FakeClock, Session

from .games import EDITIONS, commands_of, engine_positions, finished_games, shown_positions

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "has_touch": True}


@pytest.fixture(scope="module")
def recap(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, Path]:
    """A data directory with a finished Season 2 game; its export and its recap in French."""
    data_dir = tmp_path_factory.mktemp("recap")
    game = finished_games(data_dir, ("season2",))["season2"]
    exported_file, page = data_dir / "game.json", data_dir / "recap.html"
    assert main(["export", game, "--data-dir", str(data_dir), "-o", str(exported_file)]) == 0
    assert (
        main(["export", game, "--data-dir", str(data_dir), "--html", str(page), "--lang", "fr"])
        == 0
    )
    return data_dir, json.loads(exported_file.read_text("utf-8")), page


def test_the_recap_is_one_small_file_naming_nothing_outside(recap) -> None:
    _, exported, page = recap
    html = page.read_text("utf-8")
    assert exported["commands"] and engine.replay(exported["start"]).turns_left >= 10
    assert page.stat().st_size < 300_000
    assert html.startswith("<!doctype html>") and 'lang="fr"' in html
    for outside in ("src=", "href=", "@import", "url(", "http://", "https://"):
        assert outside not in html, outside


def test_export_html_refuses_a_game_still_being_played(tmp_path: Path, capsys) -> None:
    with Session(tmp_path / JOURNAL_NAME, FakeClock()) as session:
        game = session.host("new_game", setup=EDITIONS["base"]).game
        for command in commands_of(EDITIONS["base"])[:20]:
            assert session.submit(command, source="test").ok
    target = tmp_path / "recap.html"
    assert main(["export", game, "--data-dir", str(tmp_path), "--html", str(target)]) == 1
    assert "not over" in capsys.readouterr().err
    assert not target.exists()


def test_the_recap_opens_offline_and_shows_the_game(recap, browser) -> None:
    _, exported, page_file = recap
    context = browser.new_context(**PHONE, offline=True)
    asked: list[str] = []
    context.route(
        "**/*",
        lambda route: (
            route.continue_() if route.request.url.startswith("file://") else route.abort()
        ),
    )
    context.on("request", lambda request: asked.append(request.url))
    try:
        page = context.new_page()
        page.goto(page_file.as_uri())
        page.wait_for_selector("#replay[data-ready='1']", timeout=30_000)
        assert all(url.startswith("file://") for url in asked), asked
        end = engine_positions(exported, max(c["seq"] for c in exported["commands"]))
        final = page.evaluate(
            """() => Object.fromEntries([...document.querySelectorAll('#recap-final .token')]
                .map((t) => [t.dataset.character, t.closest('[data-cell]').dataset.cell]))"""
        )
        assert final == {cid: cell for cid, cell in end.items() if cell}
        roles = page.locator("#recap-roles li")
        assert roles.count() == len(end)
        guards = sum("Gardien" in roles.nth(i).inner_text() for i in range(roles.count()))
        assert guards == sum(c["role"] == "guard" for c in _final_roles(exported).values())
        assert page.inner_text("#recap-result .outcome").strip()
        for _ in range(5):
            page.click("#replay-forward")
            seq = int(page.get_attribute("#replay", "data-seq"))
            shown = shown_positions(page, list(end))
            assert shown == engine_positions(exported, seq), seq
        assert "Tour" in page.inner_text("#replay-where")  # in French, as asked
    finally:
        context.close()


def _final_roles(exported: dict) -> dict:
    events = [*exported["start"], *(e for c in exported["commands"] for e in c["events"])]
    return engine.full_view(engine.replay(events))["characters"]
