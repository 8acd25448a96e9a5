"""Rules at a tap (issue 20), in headless Chromium against a real `room25 serve`: a room on the
board, a M.A.C. card, an action and the mode open their rule in the page's language, as the
game's edition decides it, on the table page and on a phone at 390×844; /rules lists every rule
of an edition, searchable, with no game at all; /api/rules and bad editions in plain words."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from serving import Serve

from companion.engine import rule_subjects, rule_text

from .test_browser import PHONE, public, shot, wait_public
from .test_table_life import others_locked_in, phone_page, start

TV = {"viewport": {"width": 1920, "height": 1080}}
WAIT = 20000  # ms: the machine is shared, a page may be slow to draw


@pytest.fixture
def served(tmp_path) -> Iterator[Serve]:
    running = Serve(tmp_path / "data").wait_ready()
    yield running
    running.stop()


def opened_rule(page, tapped) -> str:
    """Tap an element, and the rule dialog's text once it shows; the dialog is closed again."""
    tapped.wait_for(timeout=WAIT)
    tapped.click()
    dialog = page.locator("#rule-dialog")
    dialog.wait_for(state="visible", timeout=WAIT)
    said = dialog.inner_text()
    dialog.locator("button.close").click()
    dialog.wait_for(state="hidden", timeout=WAIT)
    return said


def test_the_rules_page_is_searchable_without_a_game(served, browser):
    page = browser.new_context(locale="fr-FR", **PHONE).new_page()
    page.goto(served.url + "/rules?edition=season2")
    items = page.locator(".rule-item")
    assert items.count() == len(rule_subjects("season2"))
    page.locator("#rules-count", has_text="règles affichées").wait_for(timeout=WAIT)
    page.fill("#rules-search", "inondable")
    page.locator("#room-flooded").wait_for(timeout=WAIT)
    shown = [items.nth(i) for i in range(items.count()) if items.nth(i).is_visible()]
    assert 1 <= len(shown) < 5
    assert all("inondable" in item.text_content().lower() for item in shown)
    assert page.locator("#rules-card").is_hidden()  # a kind of rule with no hit is not shown
    page.locator("#room-flooded summary").click()
    said = page.locator("#room-flooded").inner_text()
    decided = rule_text("room:flooded", "fr", "season2").points[0]
    assert decided.chosen.text in said and decided.others[0].text in said
    assert f"Décision\u00a0: {decided.chosen.text}" in said
    # Accents and case aside: "salle inondable" finds "Salle inondable".
    page.fill("#rules-search", "SALLE INONDABLE")
    page.locator("#room-flooded").wait_for(timeout=WAIT)
    shot(page, "rules-page-search")
    # The base edition plays the Flooded chamber's other reading, and has no talents.
    page.select_option("#rules-edition", "base")
    page.wait_for_url("**edition=base", timeout=WAIT)
    page.locator("#room-flooded summary").click()
    base = rule_text("room:flooded", "fr", "base").points[0].chosen.text
    assert f"Décision\u00a0: {base}" in page.locator("#room-flooded").inner_text()
    assert page.locator("#talent-jennifer").count() == 0
    assert page.locator(".rule-item").count() == len(rule_subjects("base"))


def test_the_api_lists_an_editions_rules_and_refuses_an_unknown_edition_in_words(served):
    with urllib.request.urlopen(served.url + "/api/rules?edition=ultimate", timeout=10) as got:
        answer = json.load(got)
    assert [r["id"] for r in answer["rules"]] == rule_subjects("ultimate")
    assert answer["cards"]["time-bomb"] == "card:time_bomb" and answer["game"] is False
    asked = urllib.request.Request(
        served.url + "/api/rules?edition=season3", headers={"Accept-Language": "fr"}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(asked, timeout=10)
    assert refused.value.code == 400
    said = json.load(refused.value)["refusal"]["text"]
    assert said == "Cette édition n'existe pas\u00a0: choisissez parmi base, season2, ultimate."


def test_a_room_a_card_and_the_mode_open_their_rule_on_the_table_and_a_phone(served, browser):
    setup = {"edition": "season2", "mode": "cooperation", "players": 2, "tracking": "dealt",
             "seed": 3, "rigged": True, "settings": {"mac": "standard"}}  # fmt: skip
    start(served, setup)
    table = browser.new_context(**TV).new_page()
    table.goto(served.url + "/table")
    central = table.locator("#board .cell[data-cell=C3] [data-rule]")
    said = opened_rule(table, central)
    assert said.startswith("Central room") and "stay at the center" in said
    seats = others_locked_in(served, "12")  # their clues: then a M.A.C. card is drawn
    phone = seats["1"].in_browser(browser, locale="fr-FR", **PHONE)
    card = wait_public(served, table, lambda v: (v["view"].get("mac") or {}).get("current"), "")
    card = card["view"]["mac"]["current"]
    assert card.startswith("punish")
    table.locator("#flash").wait_for(timeout=WAIT)
    table.locator("#flash").click()
    said = opened_rule(table, table.locator("#card[data-rule]"))
    assert said.startswith("Punishment") and "for the rest of the game" in said
    shot(table, "rules-table-card")
    # The phone, in French: the card of its M.A.C. panel, the mode, a room of its board.
    said = opened_rule(phone, phone.locator("#mac-body [data-rule]"))
    assert said.startswith("Sanction") and "pour toute la partie" in said
    said = opened_rule(phone, phone.locator("#summary [data-rule^='mode:']"))
    assert said.startswith("Coopération") and "Salle clé" in said  # Season 2's own text
    assert "La première mort fait perdre la partie." in said  # Season 2's decision
    said = opened_rule(phone, phone.locator("#board .cell[data-cell=C3] [data-rule]"))
    assert said.startswith("Salle centrale")
    shot(phone, "rules-phone-mode")


def test_an_action_opens_its_rule_on_the_phone_in_its_language(served, browser):
    start(served, {"edition": "base", "mode": "suspicion", "players": 4, "tracking": "dealt",
                   "seed": 7, "rigged": True})  # fmt: skip
    phone = phone_page(served, browser, "1", "fr-FR")
    others = others_locked_in(served, "234")
    task = phone.locator("#task")
    task.get_by_role("button", name="C2").click()
    for seat, other in others.items():
        _, mine = other.get("/api/view")
        cid = next(c for c, v in mine["view"]["characters"].items() if v["seat"] == seat)
        program = {"type": "program", "character": cid, "actions": ["look"], "lock_in": True}
        assert other.post("/api/commands", {"command": program})[0] == 200, seat
    task.get_by_role("group", name="Action 1").get_by_role("button", name="Regarder").click()
    task.get_by_role("group", name="Action 2").get_by_role(
        "button", name="Aucune (action unique)"
    ).click()
    task.get_by_role("button", name="Valider").click()
    wait_public(served, phone, lambda v: v["waiting"]["phase"] == "action", "the actions")
    for _ in range(4):  # the seats before seat 1 play their Look
        waiting = public(served)["waiting"]
        if waiting["seats"] == ["1"]:
            break
        other = others[waiting["seats"][0]]
        _, mine = other.get("/api/view")
        act = next(c for c in mine["legal"] if c["type"] == "act")
        assert other.post("/api/commands", {"command": act})[0] == 200
    said = opened_rule(phone, task.get_by_role("group", name="Regarder").locator("h3[data-rule]"))
    assert said.startswith("Regarder") and "Chambre noire" in said
    shot(phone, "rules-phone-action")
