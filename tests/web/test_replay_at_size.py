"""Issue 28, point 5: the replay at its real sizes, in headless Chromium against a real
`room25 serve` whose journal holds a Season 2 game played to its end: on a phone (390x844, in
English and French) what happened beside the controls, each step one tap on a button that
stays put, nothing to scroll, no room name broken inside a word, the language menu whole; on
the TV (1920x1080) every text 24 px at least."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from serving import Serve, host_of
from story.played import play_evenings

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True}
TV = {"viewport": {"width": 1920, "height": 1080}}


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("replay")
    play_evenings(data, [{"edition": "season2", "mode": "cooperation", "players": 4}], seed=5)
    running = Serve(data).wait_ready()
    _, answer = host_of(running).get("/api/host/history")
    yield f"{running.url}/replay/{answer['games'][-1]['game']}"
    running.stop()


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_a_phone_steps_through_the_replay_without_scrolling(replay, browser, locale) -> None:
    page = browser.new_context(locale=locale, **PHONE).new_page()
    page.goto(replay)
    forward = page.locator("#replay-forward")
    forward.wait_for()
    where = forward.bounding_box()
    for _ in range(12):
        said = page.locator("#replay-where").inner_text()
        forward.tap()
        page.wait_for_function(
            "(before) => document.getElementById('replay-where').innerText !== before", arg=said
        )
        assert forward.bounding_box() == where, "the button moved"
    assert page.evaluate("scrollY") == 0
    for part in ("#replay-what", "#replay-board", "#replay-controls, .replay-controls"):
        box = page.locator(part).first.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (part, box)
    assert page.locator("#replay-what li").count() > 0
    broken = page.evaluate(
        """() => [...document.querySelectorAll("#replay-board .room.short")].filter((n) => {
            const style = getComputedStyle(n);
            return n.scrollWidth > n.clientWidth + 1 || style.hyphens === "auto"
                || style.overflowWrap !== "normal" || style.wordBreak !== "normal";
        }).map((n) => n.textContent)"""
    )
    assert broken == []
    menu = page.evaluate(
        """() => { const s = document.getElementById("lang"), style = getComputedStyle(s);
            const ink = document.createElement("canvas").getContext("2d");
            ink.font = style.fontSize + " " + style.fontFamily;
            return [s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
                    ink.measureText(s.options[s.selectedIndex].text).width]; }"""
    )
    assert menu[0] >= menu[1], menu
    page.context.close()


def test_on_the_tv_every_text_of_the_replay_is_24_px_at_least(replay, browser) -> None:
    page = browser.new_context(**TV).new_page()
    page.goto(replay)
    page.locator("#replay-forward").wait_for()
    for _ in range(12):
        page.click("#replay-forward")
    small = page.evaluate(
        """() => { const found = [];
            const root = document.getElementById("replay");
            const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
            while (walk.nextNode()) {
                const text = walk.currentNode.textContent.trim();
                const parent = walk.currentNode.parentElement;
                if (!text || !parent.getClientRects().length) continue;
                const size = parseFloat(getComputedStyle(parent).fontSize);
                if (size < 24) found.push(text + " " + size);
            }
            return found; }"""
    )
    assert small == [], small[:10]
    page.context.close()
