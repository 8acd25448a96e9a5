"""Issue 21, point 19: seat claims belong to a game unless the host keeps them for the evening,
chosen in the new-game wizard. Headless Chromium, the host page and a phone (390x844) in
contexts of their own, against a real `room25 serve`."""

from __future__ import annotations

import pytest

from .test_browser import public, wait_public
from .test_table_life import host_page, phone_page, served, start

__all__ = ["served"]


def _new_game_from_the_wizard(host, claims: str | None) -> None:
    """The folded wizard opened, the seats' choice made (or left as it is), the replacement
    confirmed."""
    host.locator("#setup summary").click()
    host.locator("#w-tiles li").first.wait_for()
    if claims is not None:
        host.select_option("#w-claims", claims)
    host.once("dialog", lambda dialog: dialog.accept())
    host.click("#w-start")


def _reopened(phone):
    """The phone's page opened again, in a new tab of the same browser (its cookies kept). Not a
    reload: a phone whose seat went with the old game reloads itself, and a reload of ours at
    that moment was aborted; nor a close of the old tab, which Chromium can leave hanging for
    good when it races a navigation's commit (Playwright issue 42068): the old tab stays open."""
    reopened = phone.context.new_page()
    reopened.goto(phone.url.split("#")[0])
    return reopened


@pytest.mark.parametrize(("claims", "kept"), [(None, False), ("clear", False), ("keep", True)])
def test_a_new_game_from_the_wizard_keeps_the_seats_only_if_the_host_says_so(
    served, browser, claims, kept
):
    game = start(served)
    phone = phone_page(served, browser, "1")
    host = host_page(served, browser)
    host.locator("#summary", has_text="Turn").wait_for()
    assert host.locator("#w-claims").input_value() == "clear"  # per game unless told
    options = host.locator("#w-claims option").all_text_contents()
    assert options == [
        "For this game: every phone picks its seat again",
        "For the evening: every phone keeps its seat",
    ]
    _new_game_from_the_wizard(host, claims)
    wait_public(served, host, lambda v: v["game"] not in (None, game), "the new game")
    phone = _reopened(phone)
    if kept:
        phone.locator("#title", has_text="Seat 1").wait_for()
        return
    seat = phone.get_by_role("button", name="Seat 1", exact=True)
    seat.wait_for()  # free again: its name says nothing of "taken"
    assert phone.locator("#join-hint").inner_text() == ""
    seat.click()
    phone.locator("#title", has_text="Seat 1").wait_for()
    assert public(served)["game"] != game
