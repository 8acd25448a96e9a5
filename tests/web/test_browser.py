"""End to end in headless Chromium (Debian's, driven by Playwright): the host sets a game up,
five phones join, read their roles, take their clues, program and lock in, play their actions
in turn, one phone reloads mid-game and gets its seat back, and the table page follows; the host
ends the game and everything is revealed. Screenshots go to tests/web/artifacts/."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from serving import PIN, Serve

ARTIFACTS = Path(__file__).parent / "artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "has_touch": True}
SEATS = "12345"


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def assert_large_targets(page) -> None:
    """Every button and menu the phone shows is at least 48 by 48 CSS pixels, and has a name a
    screen reader reads."""
    found = page.evaluate(
        """() => {
            const shown = [...document.querySelectorAll("button, select, input")]
                .filter((e) => e.offsetParent !== null)
                .map((e) => ({ name: e.getAttribute("aria-label") || e.textContent.trim(),
                               box: e.getBoundingClientRect() }));
            const small = shown
                .filter((e) => !e.name || e.box.width < 48 || e.box.height < 48)
                .map((e) => `${e.name}: ${Math.round(e.box.width)}x${Math.round(e.box.height)}`);
            return { count: shown.length, small };
        }"""
    )
    assert found["count"] > 10
    assert found["small"] == []


def public(server: Serve) -> dict:
    with urllib.request.urlopen(server.url + "/api/view?as=table", timeout=5) as answer:
        return json.load(answer)


def wait_public(server: Serve, page, wanted, what: str, timeout: float = 15.0) -> dict:
    """Poll the public view (what the table page shows) until `wanted` holds."""
    for _ in range(int(timeout / 0.25)):
        found = public(server)
        if wanted(found):
            return found
        page.wait_for_timeout(250)
    raise AssertionError(f"never saw {what}: {json.dumps(found['waiting'])}")


def test_five_phones_the_host_and_the_table_play_a_short_game(server: Serve, browser):
    pages: dict[str, object] = {}
    try:
        play_a_short_game(server, browser, pages)
    except BaseException:
        for who, page in pages.items():
            shot(page, f"failed-{who.replace(' ', '-')}")
        raise


def play_a_short_game(server: Serve, browser, pages: dict) -> None:
    errors: list[str] = []

    def watch(page, who: str):
        page.on("pageerror", lambda error: errors.append(f"{who}: {error}"))
        pages[who] = page
        return page

    host = watch(
        browser.new_context(viewport={"width": 900, "height": 1200}, locale="en-GB").new_page(),
        "host",
    )
    host.goto(server.url + "/host")
    host.fill("#pin", "000000")
    host.click("#login-form button")
    host.get_by_text("Wrong PIN.").wait_for()
    host.wait_for_timeout(1100)  # the first wrong guess costs a second
    host.fill("#pin", PIN)
    host.click("#login-form button")
    host.locator("#wizard").wait_for()
    host.select_option("#w-mode", "suspicion")
    host.select_option("#w-players", "5")
    host.locator("#w-tiles li").first.wait_for()
    host.select_option("#w-tracking", "dealt")
    host.select_option("#w-programming", "app")
    shot(host, "host-wizard")
    host.click("#w-start")
    host.get_by_text("The game has started.").wait_for()

    table = watch(browser.new_context(viewport={"width": 1280, "height": 900}).new_page(), "table")
    table.goto(server.url + "/table")
    table.locator("#board .cell").first.wait_for()

    phones = {}
    for seat in SEATS:
        locale = "fr-FR" if seat == "5" else "en-US"
        page = watch(browser.new_context(locale=locale, **PHONE).new_page(), f"phone {seat}")
        page.goto(server.url + "/")
        label = f"Place {seat}" if seat == "5" else f"Seat {seat}"
        page.get_by_role("button", name=label, exact=True).click()
        page.locator("#title", has_text=label).wait_for()
        phones[seat] = page
    shot(phones["1"], "phone-joined")

    # A second phone cannot take a held seat.
    intruder = watch(browser.new_context(**PHONE).new_page(), "intruder")
    intruder.goto(server.url + "/")
    intruder.get_by_role("button", name="Seat 2, taken").wait_for()
    assert "hold your seat button for 3 seconds" in intruder.locator("#join-hint").inner_text()

    # Roles: the same two taps on every phone, hidden again on demand.
    for seat, page in phones.items():
        page.locator("#role-toggle").click()
        role = page.locator("#role").inner_text()
        assert any(word in role for word in ("Prisoner", "Guard", "Prisonnier", "Gardien")), role
        if seat == "1":
            shot(page, "phone-role")
        page.locator("#role-toggle").click()
        assert page.locator("#role").is_hidden()

    # Starting clues: each phone taps a room next to the Central room; it shows in its notebook.
    for page in phones.values():
        page.locator("#task").get_by_role("button", name="C2").click()
        page.locator("#board .cell.seen").first.wait_for()
    shot(phones["2"], "phone-notebook")

    # Programming: one Look each (a single action), then the lock-in, as the seat button does.
    wait_public(server, host, lambda v: v["waiting"]["phase"] == "programming", "programming")
    for seat, page in phones.items():
        look = "Regarder" if seat == "5" else "Look"
        none = "Aucune (action unique)" if seat == "5" else "None (single action)"
        task = page.locator("#task")
        task.get_by_role("group", name="Action 1").get_by_role("button", name=look).click()
        task.get_by_role("group", name="Action 2").get_by_role("button", name=none).click()
        if seat == "1":
            shot(page, "phone-programming")
            assert_large_targets(page)
        task.get_by_role("button", name="Valider" if seat == "5" else "Lock in").click()
        page.locator("#status", has_text="Validé" if seat == "5" else "Locked in").wait_for()

    # A phone reloads mid-game: same seat, still locked in, no new join.
    phones["3"].reload()
    phones["3"].locator("#title", has_text="Seat 3").wait_for()
    assert phones["3"].locator("#play").is_visible()

    # Actions in turn order: the acting phone offers only its legal moves, as buttons grouped
    # by action and named in its language; whoever's turn it is taps the first Look offered.
    wait_public(server, host, lambda v: v["waiting"]["phase"] == "action", "the action phase")
    shot(table, "table-actions")
    first_action = public(server)["version"]
    for _ in range(12):
        view = public(server)
        waiting = view["waiting"]
        if waiting["phase"] != "action":
            break
        acting = phones[waiting["seats"][0]]
        french = acting is phones["5"]
        task = acting.locator("#task")
        looks = task.get_by_role("group", name="Regarder" if french else "Look")
        offered = looks.get_by_role("button")
        offered.first.wait_for()
        names = {"Nord", "Est", "Sud", "Ouest"} if french else {"North", "East", "South", "West"}
        label = offered.first.inner_text()
        assert any(name in label for name in names), label
        expose = task.get_by_role("button", name="Me dévoiler" if french else "Expose myself")
        assert expose.is_visible()  # offered to every role alike, guard or not
        if view["version"] == first_action:
            shot(acting, "phone-action")
            assert_large_targets(acting)
        version = view["version"]
        offered.first.click()
        wait_public(server, acting, lambda v, old=version: v["version"] != old, "the look played")
    after = wait_public(
        server, host, lambda v: v["waiting"]["phase"] in ("programming", "over"), "the next turn"
    )
    assert after["view"]["turn"] == 2 or after["waiting"]["phase"] == "over"
    table.locator("#log li").first.wait_for()
    shot(table, "table-turn-2")
    shot(phones["4"], "phone-turn-2")

    # The host ends the game: everything is revealed to the host.
    host.on("dialog", lambda dialog: dialog.accept())
    host.click("[data-host=end]")
    host.locator("#reveal:not([hidden]) li").first.wait_for()
    reveal = host.locator("#reveal-body").inner_text()
    assert reveal.count("Seat") >= 5 and ("Guard" in reveal or "Prisoner" in reveal)
    shot(host, "host-reveal")
    phones["1"].locator("#task", has_text="Game over").wait_for()
    assert errors == []
