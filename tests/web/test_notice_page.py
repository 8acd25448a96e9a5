"""The table's notices on a phone in headless Chromium, in the phone's language: a French phone
reads the programming clock's warning in French (issue 11, point 7: every page's text in English
and French), while an English one reads it in English."""

from __future__ import annotations

from serving import Phone, Serve, host_of

# A programming limit of 8 seconds that warns with 7 left: the notice comes a second in.
SETUP = {"edition": "base", "mode": "cooperation", "players": 2, "seed": 3, "time_limit": 8,
         "rigged": True,
         "warning": 7}  # fmt: skip
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True}


def test_the_programming_warning_is_said_in_each_phones_language(tmp_path, browser) -> None:
    server = Serve(tmp_path / "data").wait_ready()
    try:
        status, body = host_of(server).post("/api/host/games", {"setup": SETUP})
        assert status == 200, body
        phones = {seat: Phone(server.url) for seat in "12"}
        for seat, phone in phones.items():
            assert phone.post("/api/join", {"seat": seat})[0] == 200
        french = phones["1"].in_browser(browser, locale="fr-FR", **PHONE)
        english = phones["2"].in_browser(browser, locale="en-GB", **PHONE)
        for phone in phones.values():  # the clues: programming and its clock begin
            _, mine = phone.get("/api/view")
            status, body = phone.post("/api/commands", {"command": mine["legal"][0]})
            assert status == 200, body
        french.get_by_text("secondes pour programmer").wait_for(timeout=15000)
        english.get_by_text("seconds left to program").wait_for(timeout=15000)
        assert french.get_by_text("seconds left to program").count() == 0
    finally:
        server.stop()
