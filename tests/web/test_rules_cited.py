"""Issue 28, point 5: a French rule dialog cites its source in French, by the rulebooks' names
and without their file numbers; `/rules` leads back to the game it was opened from. Headless
Chromium against a real `room25 serve`."""

from __future__ import annotations

import re

from .test_browser import PHONE
from .test_rules_at_a_tap import WAIT, opened_rule
from .test_table_life import TV, served, start

__all__ = ["served"]

SEASON2 = {"edition": "season2", "mode": "cooperation", "players": 4}


def test_a_french_rule_dialog_cites_the_french_rulebook_by_name(served, browser) -> None:
    start(served, SEASON2)
    table = browser.new_context(locale="fr-FR", **TV).new_page()
    table.goto(served.url + "/table")
    said = opened_rule(table, table.locator("#summary [data-rule^='mode:']"))
    source = next(line for line in said.splitlines() if line.startswith("Source"))
    assert "livret Saison 2" in source and not re.search(r"\b\d{3}\b", source), source
    said = opened_rule(table, table.locator("#board .cell[data-cell=C3] [data-rule]"))
    assert not re.search(r"\b\d{3}\b", said), said
    english = browser.new_context(locale="en-GB", **PHONE).new_page()
    english.goto(served.url + "/rules?edition=season2")
    timer = english.locator("#room-timer .source").first
    timer.wait_for(state="attached", timeout=WAIT)
    assert timer.text_content() == (
        "Source: Ultimate rulebook, NEW ROOMS: Timer room; Season 2 rulebook, Salle chrono"
    )


def test_the_rules_page_leads_back_to_the_game(served, browser) -> None:
    start(served)
    table = browser.new_context(**TV).new_page()
    table.goto(served.url + "/table")
    table.locator(".rules-link").click()
    table.wait_for_url(lambda url: "/rules?back=" in url and "table" in url)
    back = table.get_by_role("link", name="Back to the game")
    back.click()
    table.wait_for_url("**/table")
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(served.url + "/rules")
    assert phone.get_by_role("link", name="Back to the game").get_attribute("href") == "/"
