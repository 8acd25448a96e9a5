"""Issue 28, point 5: a phone at 390x844 in headless Chromium against a real `room25 serve`:
the "Done." banner never covers the countdown, and a phone whose seat is not in the running
game reads one clear sentence and the way to another seat, nothing else."""

from __future__ import annotations

from .test_table_life import others_locked_in, phone_page, served, start

__all__ = ["served"]

FIVE = {"edition": "base", "mode": "suspicion", "players": 5}
FOUR = {"edition": "base", "mode": "suspicion", "players": 4}


def _overlap(a: dict, b: dict) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_the_done_banner_never_covers_the_countdown(served, browser) -> None:
    start(served, FOUR)
    phone = phone_page(served, browser, "1")
    others_locked_in(served)
    phone.locator("#task").get_by_role("button", name="C2").click()
    banner = phone.locator("#status.shown", has_text="Done.")
    banner.wait_for()
    shown = banner.bounding_box()
    for part in (".big-number", ".turns-word", ".phase-line"):
        box = phone.locator(f"#summary {part}").bounding_box()
        assert not _overlap(shown, box), (part, shown, box)


def test_a_seat_not_in_the_game_reads_one_sentence(served, browser) -> None:
    start(served, FIVE)
    phone = phone_page(served, browser, "5")
    start(served, FOUR)
    said = phone.locator("#task h2", has_text="Seat 5 is not in this game: pick another seat.")
    said.wait_for()
    assert phone.get_by_role("button", name="Pick your seat").is_visible()
    assert phone.locator("#summary").inner_text().strip() == ""
    assert not phone.get_by_text("No game yet.").is_visible()
    assert not phone.get_by_role("button", name="Show my role").is_visible()
    assert not phone.locator("#board").is_visible()
