"""The pages as a table lives them (issue 21), in headless Chromium at a phone's size, one browser
context per phone, against a real `room25 serve`: no tap without a confirmation replaces a game
or gives a seat away, feedback shows where the finger is and goes when stale, each turn's
programming starts empty, and at the end every page shows the reveal: who was what, the whole
complex, why the game ended and who won, in its own language."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from serving import PIN, Phone, Serve, host_of

from .test_browser import PHONE, public, shot, wait_public

SETUP = {"edition": "base", "mode": "suspicion", "players": 4, "tracking": "dealt", "seed": 7,
         "rigged": True}  # fmt: skip
# The common case, chance left to the companion: no notice on any screen.
UNRIGGED = {k: v for k, v in SETUP.items() if k not in ("seed", "rigged")}
TV = {"viewport": {"width": 1920, "height": 1080}}
LOOK = re.compile("^(Regarder|Look)$")


@pytest.fixture
def served(tmp_path) -> Iterator[Serve]:
    """A companion of its own for each test: seats claimed by one test stay free for the next."""
    running = Serve(tmp_path / "data").wait_ready()
    yield running
    running.stop()


def start(server: Serve, setup: dict = SETUP) -> str:
    status, body = host_of(server).post("/api/host/games", {"setup": setup})
    assert status == 200, body
    return body["game"]


def host_page(server: Serve, browser, **context):
    page = browser.new_context(viewport={"width": 900, "height": 1100}, **context).new_page()
    page.goto(server.url + "/host")
    page.fill("#pin", PIN)
    page.click("#login-form button")
    page.locator("#wizard").wait_for(state="attached")
    return page


def phone_page(server: Serve, browser, seat: str, locale: str = "en-GB"):
    """A phone that scans the code and taps its free seat."""
    page = browser.new_context(locale=locale, **PHONE).new_page()
    page.goto(server.url + "/")
    label = f"Place {seat}" if locale.startswith("fr") else f"Seat {seat}"
    page.get_by_role("button", name=label, exact=True).click()
    page.locator("#title", has_text=label).wait_for()
    return page


def others_locked_in(server: Serve, seats: str = "234") -> dict[str, Phone]:
    """`seats` join by API and play their first legal command (their clue), leaving the phones
    in the browser to play."""
    others = {seat: Phone(server.url) for seat in seats}
    for seat, other in others.items():  # every seat taken before the game is under way
        assert other.post("/api/join", {"seat": seat})[0] == 200
    for other in others.values():
        _, mine = other.get("/api/view")
        assert other.post("/api/commands", {"command": mine["legal"][0]})[0] == 200
    return others


def seat_one_programming(server: Serve, browser):
    """A game where seats 2 to 4 played by API and seat 1's phone took its clue: the phone page
    and its task, on the programming."""
    start(server)
    phone = phone_page(server, browser, "1")
    others_locked_in(server)
    phone.locator("#task").get_by_role("button", name="C2").click()
    return phone, phone.locator("#task")


def in_view(page, selector: str) -> bool:
    """The element is drawn inside the phone's screen as it is (no scrolling)."""
    return page.evaluate(
        """(selector) => { const box = document.querySelector(selector).getBoundingClientRect();
            return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight; }""",
        selector,
    )


# --- trap 1: a running game is never replaced by one tap ----------------------------------------


def test_a_running_game_is_replaced_only_after_a_confirmation_and_can_be_resumed(served, browser):
    first = start(served)
    host = host_page(served, browser)
    host.locator("#summary", has_text="Turn").wait_for()
    # The wizard is folded away below the controls while a game runs.
    assert host.locator("#setup").evaluate("(d) => d.open") is False
    controls_top = host.locator("#controls").bounding_box()["y"]
    assert controls_top < host.locator("#setup").bounding_box()["y"]
    assert "replaces the game being played" in host.locator("#setup summary").inner_text()

    asked: list[str] = []

    def refuse(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    host.once("dialog", refuse)
    host.locator("#setup summary").click()
    host.locator("#w-tiles li").first.wait_for()
    host.click("#w-start")
    host.wait_for_timeout(500)
    assert asked and "Suspicion" in asked[0] and "4 players" in asked[0] and "turn 1" in asked[0]
    assert "resumed" in asked[0]
    assert public(served)["game"] == first  # refused: the game goes on

    host.once("dialog", lambda dialog: dialog.accept())
    host.click("#w-start")
    wait_public(served, host, lambda v: v["game"] not in (None, first), "the new game")
    # The replaced game stays in the journal, said as such, with a way back.
    entry = host.locator("#past li", has_text=first)
    entry.get_by_text("replaced by a new game").wait_for()
    host.once("dialog", lambda dialog: dialog.accept())
    entry.get_by_role("button", name="Resume this game").click()
    wait_public(served, host, lambda v: v["game"] == first, "the replaced game resumed")
    assert public(served)["waiting"]["phase"] == "clue"


def test_resuming_is_for_a_replaced_game_only(served):
    first = start(served)
    host = host_of(served)
    status, body = host.post(f"/api/host/games/{first}/resume")
    assert status == 409 and body["refusal"]["code"] == "not_resumable"
    assert "cannot be resumed" in body["refusal"]["text"]
    assert Phone(served.url).post(f"/api/host/games/{first}/resume")[0] == 401


# --- trap 2: a seat is given back only after a confirmation ------------------------------------


def test_giving_a_seat_back_mid_game_asks_first(served, browser):
    start(served)
    phone = phone_page(served, browser, "2")
    asked: list[str] = []

    def refuse(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    phone.once("dialog", refuse)
    phone.click("#leave")
    phone.wait_for_timeout(300)
    assert asked and "hold seat button 2 for 3 seconds" in asked[0]
    phone.reload()
    phone.locator("#title", has_text="Seat 2").wait_for()  # still this phone's seat
    intruder = browser.new_context(**PHONE).new_page()
    intruder.goto(served.url + "/")
    intruder.get_by_role("button", name="Seat 2, taken").wait_for()


# --- trap 3: the PIN on the host page, never on a public page ----------------------------------


def test_the_pin_is_on_no_public_page(served, browser):
    start(served)
    for path in ("/", "/table"):
        page = browser.new_context(**PHONE).new_page()
        page.goto(served.url + path)
        page.wait_for_timeout(500)
        assert PIN not in page.content()
    host = host_page(served, browser)
    # It shows "…" until its own request answers: wait for the PIN itself (it flaked under load).
    shown = host.locator("#host-pin", has_text=PIN)
    shown.wait_for()
    assert shown.inner_text() == PIN


# --- 5: feedback where the finger is, cleared when stale ---------------------------------------


def test_a_refusal_shows_in_view_and_goes_once_the_game_moves_on(served, browser):
    start(served)
    phones = {seat: phone_page(served, browser, seat) for seat in "12"}
    others = {seat: Phone(served.url) for seat in "34"}
    for seat, other in others.items():
        assert other.post("/api/join", {"seat": seat})[0] == 200
    for page in phones.values():
        page.locator("#task").get_by_role("button", name="C2").click()
    for other in others.values():
        _, mine = other.get("/api/view")
        assert other.post("/api/commands", {"command": mine["legal"][0]})[0] == 200
    phone = phones["1"]
    task = phone.locator("#task")
    task.get_by_role("button", name="Lock in").wait_for()
    phone.evaluate("window.scrollTo(0, 0)")
    task.get_by_role("button", name="Lock in").click()  # nothing chosen: refused in words
    said = phone.locator("#status")
    said.get_by_text("actions before locking in").wait_for()
    assert said.get_attribute("aria-live") == "polite"
    assert in_view(phone, "#status")
    shot(phone, "feedback-refusal")
    # Another seat locks in: the game has moved on, the old refusal goes.
    phones["2"].locator("#task").get_by_role("group", name="Action 1").get_by_role(
        "button", name="Look"
    ).click()
    phones["2"].locator("#task").get_by_role("button", name="Lock in").click()
    said.get_by_text("actions before locking in").wait_for(state="detached")


def test_no_connection_is_cleared_once_the_phone_is_back(served, browser):
    start(served)
    phone = phone_page(served, browser, "1")
    phone.context.set_offline(True)
    phone.locator("#task").get_by_role("button", name="C2").click()
    phone.locator("#status").get_by_text("No connection to the companion.").wait_for()
    phone.context.set_offline(False)
    phone.locator("#status").get_by_text("No connection").wait_for(state="detached", timeout=8000)


def banners_shown(served, browser, update: str) -> str:
    """The table page's banners once it has drawn `update` (a JavaScript object) as its own."""
    start(served)
    table = browser.new_context(**TV).new_page()
    table.goto(served.url + "/table")
    table.locator("#board .cell").first.wait_for()
    table.evaluate(f"() => R25.banners({update})")
    return table.locator("#banners").inner_text()


def test_notices_about_seats_not_in_the_game_are_not_shown(served, browser):
    shown = banners_shown(
        served,
        browser,
        """{ view: { characters: { emmett: { seat: "1" } } }, session: {
            notices: [{ code: "phone_offline", params: { seat: "5" }, text: "x" },
                      { code: "phone_offline", params: { seat: "1" }, text: "y" }] } }""",
    )
    assert "seat 1" in shown.lower() and "seat 5" not in shown.lower()


def test_a_lesson_notice_names_its_lessons_on_the_table_page(served, browser):
    """Issue 32: the lesson notice is a card per lesson, each by its name, not its id."""
    shown = banners_shown(
        served,
        browser,
        """{ view: { characters: {} }, session: { notices: [
            { code: "lesson", params: { lessons: ["action_control", "slide"] }, text: "x" }] } }""",
    )
    assert "Lesson · Control" in shown and "Lesson · Sliding a line" in shown
    assert "action_control" not in shown


# --- 7 and 9: a complete game through the pages alone -----------------------------------------


def test_a_newcomer_table_plays_a_whole_game_and_every_page_reveals_it(served, browser):
    """Four phones (one French), the table page on a TV: ten turns of Looks until the countdown
    runs out; every turn's programming starts empty; at the end the table page and the phones
    show every role, the whole complex, the reason and the winners."""
    host = host_page(served, browser, locale="en-GB")
    host.select_option("#w-mode", "suspicion")
    host.select_option("#w-players", "4")
    host.locator("#w-tiles li").first.wait_for()
    host.click("#w-start")
    host.get_by_text("The game has started.").wait_for()
    table = browser.new_context(**TV).new_page()
    table.goto(served.url + "/table")
    phones = {s: phone_page(served, browser, s, "fr-FR" if s == "4" else "en-GB") for s in "1234"}
    for page in phones.values():
        page.locator("#task").get_by_role("button", name="C2").click()
        page.locator("#board .cell.seen").first.wait_for()
    for turn in range(1, 11):
        wait_public(served, host, lambda v: v["waiting"]["phase"] in ("programming", "over"), "")
        if public(served)["waiting"]["phase"] == "over":
            break
        for seat, page in phones.items():
            french = seat == "4"
            task = page.locator("#task")
            lock = task.get_by_role("button", name="Valider" if french else "Lock in")
            lock.wait_for()
            page.locator("#summary", has_text=f"{'Tour' if french else 'Turn'} {turn} ·").wait_for()
            if turn > 1:  # a new turn starts empty, never with the last turn's plan
                assert task.locator("button[aria-pressed=true]").count() == 0, f"turn {turn}"
            task.get_by_role("group", name="Action 1").get_by_role(
                "button", name="Regarder" if french else "Look"
            ).click()
            task.get_by_role("group", name="Action 2").get_by_role(
                "button", name="Aucune (action unique)" if french else "None (single action)"
            ).click()
            lock.click()
        try:
            wait_public(served, host, lambda v: v["waiting"]["phase"] != "programming", "actions")
        except AssertionError:
            for seat, page in phones.items():
                shot(page, f"stuck-phone-{seat}")
            raise
        for _ in range(8):
            view = public(served)
            if view["waiting"]["phase"] != "action":
                break
            acting = phones[view["waiting"]["seats"][0]]
            looks = acting.locator("#task").get_by_role("group", name=LOOK)
            looks.get_by_role("button").first.click()
            wait_public(served, acting, lambda v, old=view["version"]: v["version"] != old, "look")
    over = wait_public(served, host, lambda v: v["waiting"]["phase"] == "over", "the game over")
    roles = {c["seat"]: c for c in over["view"]["characters"].values()}
    assert len(roles) == 4
    # The table page: every role, the whole complex, the reason, the winners.
    reveal = table.locator("#reveal")
    reveal.locator(".roles li").nth(3).wait_for()
    said = reveal.inner_text()
    assert said.count("Guard") + said.count("Prisoner") == 4, said
    # Ten turns of Looks: the countdown ends it, for the guards if the deal made any.
    outcome = over["view"]["outcome"]
    guards = outcome["result"] == "guards"
    sentences = {
        "countdown": "The countdown ran out.",
        "countdown_no_guard": "The countdown ran out; there was no guard.",
    }
    assert outcome["reason"] in sentences  # a code, said in the page's language
    assert f"Why: {sentences[outcome['reason']]}" in said
    assert ("The guards win." if guards else "Defeat.") in said
    assert ("Winning seat" in said) == guards
    cells = reveal.locator(".board .cell")
    assert cells.count() == 25
    assert reveal.locator(".board .cell.hidden").count() == 0  # every room laid open
    assert table.locator("#live").is_hidden()
    shot(table, "table-reveal")
    fits = table.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
    assert fits, "the table page's reveal does not fit the TV"
    # The phones: the same reveal, in each phone's language.
    english = phones["1"].locator("#reveal")
    english.locator(".roles li").nth(3).wait_for()
    assert english.inner_text().count("Seat") >= 4
    french = phones["4"].locator("#reveal")
    french.locator(".roles li").nth(3).wait_for()
    text = french.inner_text()
    assert "Pourquoi\u00a0: Le compte à rebours est écoulé" in text, text
    assert ("Gardien" in text) == guards and "Prisonnier" in text and "Place 4" in text
    shot(phones["4"], "phone-reveal-fr")
    # The host's past games say the game is over, not "being played".
    entry = host.locator("#past li", has_text=over["game"])
    entry.get_by_text("The guards win." if guards else "Defeat.").wait_for()
    assert "being played" not in entry.inner_text()


# --- 14: the alarm as loud on a phone as on the OLED --------------------------------------------


def test_the_alarm_fills_the_phone_and_vibrates(served, browser):
    start(served)
    phone = phone_page(served, browser, "1")
    phone.evaluate("navigator.vibrate = (pattern) => { window.shaken = pattern; return true; }")
    phone.evaluate(
        """() => R25.summary({ game: "g", version: 9, view: { turns_left: 5, turn: 3, alarm: true,
            order: [], characters: {} }, waiting: { phase: "action" }, session: {} },
            document.body.appendChild(Object.assign(document.createElement("div"),
                { id: "probe" })))"""
    )
    # Its own box: the phone's stream may redraw #summary meanwhile (seen under load).
    alarm = phone.locator("#probe .alarm")
    assert alarm.get_attribute("role") == "alert"
    size = alarm.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 24 and alarm.bounding_box()["width"] > 300
    assert phone.evaluate("window.shaken") is not None


# --- 15: a phone that slept catches up at once --------------------------------------------------


def test_a_phone_back_from_sleep_resynchronises_at_once(served, browser):
    start(served)
    phone = phone_page(served, browser, "1")
    streams: list[str] = []
    phone.on("request", lambda r: streams.append(r.url) if "/api/stream" in r.url else None)
    asleep = """(state) => {
        Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
        document.dispatchEvent(new Event("visibilitychange")); }"""
    phone.evaluate(asleep, "hidden")
    phone.wait_for_timeout(2500)  # asleep, its stream perhaps cut without a word (iOS)
    phone.evaluate(asleep, "visible")
    phone.wait_for_timeout(500)
    assert len(streams) == 1  # a fresh stream (and snapshot) at once, no wait for a retry
    assert "seat button still locks in" in phone.locator("#play").inner_text()


# --- 16 and 17: the table from 3 m, a phone's first screen -------------------------------------


def test_the_table_page_reads_from_three_metres(served, browser):
    start(served, UNRIGGED)
    table = browser.new_context(**TV).new_page()
    table.goto(served.url + "/table")
    table.locator("#summary .phase-line").wait_for()
    sizes = table.evaluate(
        """() => [".big-number", ".turns-word", ".phase-line"].map((s) =>
            parseFloat(getComputedStyle(document.querySelector("#summary " + s)).fontSize))"""
    )
    # A cap height of 1.5 % of 1080 px is about 16 px, about 23 px of font size.
    assert min(sizes) >= 23, sizes
    assert table.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")


def test_a_phone_shows_its_programming_and_lock_in_without_scrolling(served, browser):
    start(served, UNRIGGED)
    phone = phone_page(served, browser, "1")
    others_locked_in(served)
    phone.locator("#task").get_by_role("button", name="C2").click()
    lock = phone.locator("#task").get_by_role("button", name="Lock in")
    lock.wait_for()
    phone.evaluate("window.scrollTo(0, 0)")
    assert in_view(phone, "#task fieldset") and lock.bounding_box()["y"] + 40 < 844


# --- 18: only what the rules allow --------------------------------------------------------------


def test_the_second_action_never_offers_the_first_again(served, browser):
    _phone, task = seat_one_programming(served, browser)
    task.get_by_role("group", name="Action 1").get_by_role("button", name="Move").click()
    second = task.get_by_role("group", name="Action 2")
    second.get_by_role("button", name="Look").wait_for()
    assert second.get_by_role("button", name="Move").count() == 0


# --- the reveal keeps every secret until the game is over --------------------------------------


def test_the_reveal_is_refused_while_a_game_can_still_be_played(served):
    anyone = Phone(served.url)
    first = start(served)
    status, body = anyone.get("/api/reveal")
    assert status == 409 and body["refusal"]["code"] == "game_not_over"
    start(served)  # replaces the first, which may be resumed: its secrets stay hidden
    host = host_of(served)
    assert host.post("/api/host/end")[0] == 200
    status, body = anyone.get("/api/reveal")
    assert status == 200 and body["game"] != first and body["status"] == "ended"
    assert body["reason"] == "The host ended the game."
    assert all(c["role"] in ("prisoner", "guard") for c in body["view"]["characters"].values())
    assert host.post(f"/api/host/games/{first}/resume")[0] == 200
    assert anyone.get("/api/reveal")[0] == 409


# --- 6: the seat button locks in what the phone shows -------------------------------------------


def test_the_seat_button_locks_in_what_the_phone_shows(served, browser):
    phone, task = seat_one_programming(served, browser)
    task.get_by_role("group", name="Action 1").get_by_role("button", name="Push").click()
    task.get_by_role("group", name="Action 2").get_by_role("button", name="Look").click()
    phone.wait_for_timeout(500)
    # The seat's own button (the virtual panel, as at the Pi), not the phone's Lock in.
    status, body = Phone(served.url).post("/panel/seats/1/press")
    assert status == 200, body
    task.get_by_text("Locked in").first.wait_for()
    seat_view = phone.evaluate("fetch('/api/view').then((r) => r.json())")
    mine = [c for c in seat_view["view"]["characters"].values() if c["seat"] == "1"]
    assert [c["program"] for c in mine] == [["push", "look"]]
    assert "1" in public(served)["waiting"]["locked_in"]


def test_a_refusal_of_the_seat_button_shows_on_that_seats_phone_only(served, browser):
    start(served)
    phones = {seat: phone_page(served, browser, seat) for seat in "12"}
    others = {seat: Phone(served.url) for seat in "34"}
    for seat, other in others.items():  # every seat taken before the game is under way
        assert other.post("/api/join", {"seat": seat})[0] == 200
    for other in others.values():
        _, mine = other.get("/api/view")
        assert other.post("/api/commands", {"command": mine["legal"][0]})[0] == 200
    for page in phones.values():
        page.locator("#task").get_by_role("button", name="C2").click()
    phones["1"].locator("#task").get_by_role("button", name="Lock in").wait_for()
    status, body = Phone(served.url).post("/panel/seats/1/press")  # nothing chosen yet
    assert status == 409 and body["code"] == "program_before_locking_in"
    phones["1"].locator("#status").get_by_text("before locking in").wait_for()
    assert in_view(phones["1"], "#status")
    phones["2"].wait_for_timeout(300)
    assert "before locking in" not in phones["2"].locator("#status").inner_text()


# --- 16: the alarm and a M.A.C. card take the whole table screen for a moment ------------------


def test_a_mac_card_takes_the_whole_table_screen_for_a_moment(served, browser):
    mac = {"edition": "season2", "mode": "cooperation", "players": 2, "tracking": "dealt",
           "seed": 3, "rigged": True, "settings": {"mac": "standard"}}  # fmt: skip
    start(served, mac)
    table = browser.new_context(**TV).new_page()
    table.goto(served.url + "/table")
    table.locator("#board .cell").first.wait_for()
    phones = {seat: Phone(served.url) for seat in "12"}
    for seat, phone in phones.items():  # every seat taken before the game is under way
        assert phone.post("/api/join", {"seat": seat})[0] == 200
    for phone in phones.values():  # the clues: the first turn begins with a M.A.C. card
        _, mine = phone.get("/api/view")
        assert phone.post("/api/commands", {"command": mine["legal"][0]})[0] == 200
    card = public(served)["view"]["mac"]["current"]
    shown = table.locator("#flash")
    shown.wait_for()
    box = shown.bounding_box()
    assert box["width"] >= 1900 and box["height"] >= 1000
    said = shown.inner_text()
    assert card.startswith("punish") and "Punishment" in said and len(said) > 40, said
    title = shown.locator(".flash-title")
    assert title.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)") >= 80
    shot(table, "table-mac-card")
    shown.click()
    shown.wait_for(state="hidden")


# --- 8: the time limit has teeth: the host's choices at 0 s ------------------------------------


def test_at_time_up_the_host_locks_in_what_the_late_seats_chose_or_gives_more_time(served, browser):
    start(served, {**SETUP, "time_limit": 4, "warning": 0})
    phones = {seat: phone_page(served, browser, seat) for seat in "12"}
    others = others_locked_in(served, "34")
    for page in phones.values():
        page.locator("#task").get_by_role("button", name="C2").click()
        page.locator("#board .cell.seen").first.wait_for()
    for seat, other in others.items():  # seats 3 and 4 lock in in time
        _, mine = other.get("/api/view")
        cid = next(c for c, v in mine["view"]["characters"].items() if v["seat"] == seat)
        program = {"type": "program", "character": cid, "actions": ["look"], "lock_in": True}
        assert other.post("/api/commands", {"command": program})[0] == 200, seat
    # Seat 1 chooses on its phone and does not lock in; seat 2 chooses nothing.
    task = phones["1"].locator("#task")
    task.get_by_role("group", name="Action 1").get_by_role("button", name="Look").click()
    host = host_page(served, browser)
    choices = host.locator("#host-task")
    choices.get_by_text("Time is up.").wait_for(timeout=15000)
    choices.get_by_role("button", name="Lock in what each late seat has chosen").click()
    said = "Chose nothing, still programming: 2."
    for page in (phones["1"], phones["2"], host):
        page.locator("#status", has_text=said).wait_for()
    waiting = public(served)["waiting"]
    assert waiting["phase"] == "programming" and waiting["locked_in"] == ["1", "3", "4"]
    # Still time up for seat 2: more time gives it the limit again.
    choices.get_by_role("button", name="More time").click()
    phones["2"].locator("#status", has_text="4 more seconds").wait_for()
    assert public(served)["session"]["timer"]["left"] > 2


# --- 20: the turn order keeps every character, the dead marked ----------------------------------


def test_the_turn_order_lists_every_character_the_dead_marked(served, browser):
    table = browser.new_context(**TV).new_page()
    table.goto(served.url + "/table")
    table.locator("#summary").wait_for()
    order = table.evaluate(
        """() => { const box = document.createElement("div");
            R25.summary({ game: "g", version: 3, waiting: { phase: "programming", seats: [] },
                session: {}, view: { turns_left: 4, turn: 6, order: ["kevin", "max"],
                characters: { kevin: { seat: "1", alive: true }, max: { seat: "2", alive: false },
                              emmett: { seat: "3", alive: false } } } }, box);
            return [...box.querySelectorAll(".order li")].map((li) => li.textContent); }"""
    )
    assert order == ["1. Kevin", "2. Max ✝ dead", "3. Emmett ✝ dead"]


# --- 4 and 19: a seat taken back with its button (the server half is helper h4a's) -------------


def test_a_phone_that_lost_its_seat_asks_for_it_and_the_seat_button_gives_it(served, browser):
    start(served)
    holder = Phone(served.url)
    assert holder.post("/api/join", {"seat": "2"})[0] == 200
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(served.url + "/")
    hint = phone.locator("#join-hint")
    hint.get_by_text(
        "Taken. If it is yours, tap it and hold your seat button for 3 seconds."
    ).wait_for()
    phone.get_by_role("button", name="Seat 2, taken").click()
    asked = phone.locator("#join-ask")
    asked.get_by_text("hold seat button 2 for 3 seconds").wait_for()
    code = asked.locator(".ask-code").inner_text().split()[-1]
    assert code.isdigit() and len(code) == 2
    phone.wait_for_timeout(3200)  # a request is given once its code has been up for 3 s
    assert Phone(served.url).post("/panel/seats/2/press", {"long": True})[0] == 200
    phone.locator("#title", has_text="Seat 2").wait_for()


def test_a_seat_of_two_characters_programs_both_and_locks_in_on_the_first_screen(served, browser):
    start(served, {"edition": "base", "mode": "cooperation", "players": 2})
    phone = phone_page(served, browser, "1")
    others_locked_in(served, "2")
    phone.locator("#task").get_by_role("button", name="C2").click()
    lock = phone.locator("#task").get_by_role("button", name="Lock in")
    lock.wait_for()
    assert phone.locator("#task fieldset").count() == 2
    phone.evaluate("window.scrollTo(0, 0)")
    shot(phone, "phone-two-characters")
    box = lock.bounding_box()
    assert box["y"] + box["height"] <= 844, box
